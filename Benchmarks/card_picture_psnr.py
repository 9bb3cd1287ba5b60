#!/usr/bin/env python3
"""Compares the cards of two `suggestion` output folders inside each card's picture (the hero
rectangle suggestion.json's layout gives): PSNR, mean and largest difference, the largest
difference outside the picture, and for PNG cards whose one picture is fitted uncropped, each
one's PSNR against a lanczos3 resize of the source picture (an independent ideal; an 80 px
border, where the rounded corners are, left out).

    python3 Benchmarks/card_picture_psnr.py BEFORE/suggestions AFTER/suggestions [BUNDLES_ROOT]

BUNDLES_ROOT (default Samples/suggestions) holds the bundles, to find the source pictures.
Needs numpy and the `vips` command (an oracle only)."""
import json, math, pathlib, subprocess, sys, tempfile
import numpy as np

tmp = pathlib.Path(tempfile.mkdtemp(prefix="card-psnr-"))


def pixels(path):
    out = tmp / "p.ppm"
    flat = tmp / "f.v"
    subprocess.run(["vips", "copy", str(path), str(flat)], check=True)
    if int(subprocess.check_output(["vipsheader", "-f", "bands", str(flat)])) in (2, 4):
        subprocess.run(["vips", "flatten", str(path), str(flat)], check=True)
    subprocess.run(["vips", "copy", str(flat), str(out)], check=True)
    data = out.read_bytes()
    fields = [l for l in data.split(b"\n")[:6] if not l.startswith(b"#")][:3]
    w, h = map(int, fields[1].split())
    return np.frombuffer(data[len(data) - w * h * 3:], dtype=np.uint8).reshape(h, w, 3).astype(np.float64)


def psnr(a, b):
    mse = ((a - b) ** 2).mean()
    return float("inf") if mse == 0 else 10 * math.log10(255 ** 2 / mse)


def ideal(source, width, height):
    flat = tmp / "src.v"
    subprocess.run(["vips", "copy", str(source), str(flat)], check=True)
    w = int(subprocess.check_output(["vipsheader", "-f", "width", str(flat)]))
    h = int(subprocess.check_output(["vipsheader", "-f", "height", str(flat)]))
    if abs(width / height - w / h) > 0.02:
        return None  # cropped to the hero (a contact's circle): another geometry
    out = tmp / "ideal.png"
    subprocess.run(["vips", "resize", str(flat), str(out), str(width / w), "--vscale", str(height / h),
                    "--kernel", "lanczos3"], check=True)
    return pixels(out)


before, after = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
bundles = pathlib.Path(sys.argv[3] if len(sys.argv) > 3 else "Samples/suggestions")
sources = {json.load(open(p)).get("bundleId"): p.parent for p in bundles.glob("*/suggestion.json")}
for result in sorted(after.glob("*/suggestion.json")):
    doc = json.load(open(result))
    folder = result.parent.name
    for item in doc["items"]:
        renditions = {r["role"]: r for r in item.get("renditions", [])}
        for card in item.get("cards", []):
            hero, rendition = (card.get("layout") or {}).get("hero"), renditions.get(card["role"])
            if not hero or not rendition:
                continue
            a, b = before / folder / rendition["path"], after / folder / rendition["path"]
            if a.read_bytes() == b.read_bytes():
                continue
            A, B = pixels(a), pixels(b)
            x, y, w, h = hero["x"], hero["y"], hero["width"], hero["height"]
            inside = np.zeros(A.shape[:2], bool)
            inside[y:y + h, x:x + w] = True
            d = np.abs(A - B)
            line = (f"{folder[:14]:14} {item['id']:5} {card['role']:14} picture {w}x{h}: PSNR {psnr(A[inside], B[inside]):.2f} dB, "
                    f"mean {d[inside].mean():.2f}, max {d[inside].max():.0f}; outside max {d[~inside].max() if (~inside).any() else 0:.0f}")
            pictures = [p["source"] for p in item.get("pictures", []) if not p.get("error")]
            root = sources.get(doc.get("bundleId"))
            if rendition["path"].endswith(".png") and len(pictures) == 1 and root and w > 200 and h > 200:
                k = 80
                I = ideal(root / pictures[0], w, h)
                I = I[k:h - k, k:w - k] if I is not None else None
                line += "" if I is None else (f"; vs lanczos3 of {pictures[0]}: before {psnr(A[y + k:y + h - k, x + k:x + w - k], I):.2f} dB, "
                         f"after {psnr(B[y + k:y + h - k, x + k:x + w - k], I):.2f} dB")
            print(line)
