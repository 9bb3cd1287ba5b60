#!/usr/bin/env python3
"""Compares `journal-media inspect`'s location and camera with ExifTool's over a folder.

Usage: Benchmarks/location_check.py CORPUS [journal-media]
Runs `exiftool -r -j -n -G1 -a` (Composite:GPSLatitude/GPSLongitude/GPSAltitude, Make,
Model, LensModel) and `journal-media inspect` over CORPUS, and prints every file where they
disagree: latitude/longitude beyond 1e-6 degrees, altitude beyond 1e-3 m, or make, model or
lens not equal after trimming blanks at both ends (ExifTool keeps leading blanks).
"""
import json, subprocess, sys

corpus = sys.argv[1]
tool = sys.argv[2] if len(sys.argv) > 2 else ".build/release/journal-media"
et = json.loads(subprocess.run(
    ["exiftool", "-r", "-j", "-n", "-G1", "-a", "-Composite:GPSLatitude", "-Composite:GPSLongitude",
     "-Composite:GPSAltitude", "-Make", "-Model", "-LensModel", corpus],
    capture_output=True, text=True).stdout or "[]")
lines = subprocess.run([tool, "inspect", corpus], capture_output=True, text=True).stdout.splitlines()
ours = {}
for line in lines:
    record = json.loads(line)
    ours[record["source"]] = record

def first(entry, suffix):
    for key, value in entry.items():
        if key.split(":")[-1] == suffix and key.split(":")[0] not in ("Composite",) or key == "Composite:" + suffix:
            if key.startswith("Composite:") == (suffix.startswith("GPS")):
                return value
    return None

def text(value):
    return None if value is None or str(value).strip() == "" else str(value).strip()

checked = {"lat/lon": 0, "altitude": 0, "make": 0, "model": 0, "lens": 0}
agree = dict(checked)
differences = []
for entry in et:
    name = entry["SourceFile"]
    mine = ours.get(name)
    if mine is None:
        continue
    location = mine.get("location") or {}
    camera = mine.get("camera") or {}
    lat, lon = entry.get("Composite:GPSLatitude"), entry.get("Composite:GPSLongitude")
    if isinstance(lat, (int, float)) and isinstance(lon, (int, float)):
        checked["lat/lon"] += 1
        if location and abs(location["latitude"] - lat) <= 1e-6 and abs(location["longitude"] - lon) <= 1e-6:
            agree["lat/lon"] += 1
        else:
            differences.append((name, "lat/lon", (lat, lon), location or None, mine.get("warnings")))
        alt = entry.get("Composite:GPSAltitude")
        if isinstance(alt, (int, float)):
            checked["altitude"] += 1
            if location.get("altitude") is not None and abs(location["altitude"] - alt) <= 1e-3:
                agree["altitude"] += 1
            else:
                differences.append((name, "altitude", alt, location.get("altitude"), None))
    elif location:
        differences.append((name, "lat/lon", None, location, None))
    for field, tag in (("make", "Make"), ("model", "Model"), ("lens", "LensModel")):
        theirs = next((text(v) for k, v in entry.items() if k.split(":")[-1] == tag and k.split(":")[0] in
                       ("IFD0", "ExifIFD", "Keys", "UserData", "ItemList", "QuickTime")), None)
        if theirs is None:
            continue
        checked[field] += 1
        if camera.get(field) == theirs:
            agree[field] += 1
        else:
            differences.append((name, field, theirs, camera.get(field), None))

for field in checked:
    print(f"{field}: {agree[field]}/{checked[field]} agree")
for name, field, theirs, mine, warnings in differences:
    print(f"DIFF {name} {field}: exiftool={theirs!r} ours={mine!r}" + (f" warnings={warnings}" if warnings else ""))
