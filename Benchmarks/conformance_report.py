"""Summarises a corpus run: outcome counts, failures grouped by stage and reason (with
ExifTool's file type for each), and display sizes compared with ExifTool's readings."""
import json
import sys
from collections import Counter, defaultdict

manifest = json.load(open(sys.argv[1]))
truth = {t["SourceFile"]: t for t in json.load(open(sys.argv[2]))}
assets = manifest["assets"]
ok = [a for a in assets if a["error"] is None]
failed = [a for a in assets if a["error"] is not None]
print(f"assets: {len(assets)}, succeeded: {len(ok)}, failed: {len(failed)}")

groups = defaultdict(list)
for a in failed:
    err = a["error"]
    reason = ":".join(err["message"].split(":")[:2]) if err["stage"] != "sniff" else err["message"]
    kind = truth.get(a["source"], {}).get("File:FileType", "?")
    groups[(err["stage"], reason[:90])].append((a["source"], kind))
print("\nfailures by stage and reason:")
for (stage, reason), items in sorted(groups.items(), key=lambda kv: -len(kv[1])):
    kinds = Counter(k for _, k in items)
    print(f"  {len(items):4d}  {stage}: {reason}")
    print(f"        types: {', '.join(f'{k}×{n}' for k, n in kinds.most_common())}")
    if len(items) <= 3:
        for src, _ in items:
            print(f"        - {src}")

# Display size: ExifTool's File:ImageWidth/Height are stored sizes; swap for orientation 5-8.
agree = disagree = 0
mismatches = []
for a in ok:
    t = truth.get(a["source"])
    if not t or "File:ImageWidth" not in t or a["mediaType"] in ("image/svg+xml", "application/pdf"):
        continue
    w, h = t["File:ImageWidth"], t["File:ImageHeight"]
    o = t.get("IFD0:Orientation", 1)
    if a["mediaType"] in ("image/heic", "image/avif"):
        # libheif applies the HEIF irot transform; ExifTool's size is before it.
        if t.get("QuickTime:Rotation") in (90, 270):
            w, h = h, w
    elif isinstance(o, int) and o >= 5:
        w, h = h, w
    if (w, h) == (a["width"], a["height"]):
        agree += 1
    else:
        disagree += 1
        mismatches.append((a["source"], (a["width"], a["height"]), (w, h), a["orientation"], o))
print(f"\ndisplay size vs ExifTool (stored size, swapped for EXIF orientation 5-8 or HEIF rotation 90/270): {agree} agree, {disagree} differ")
for src, mine, theirs, o1, o2 in mismatches[:25]:
    print(f"  - {src}: ours {mine} (orientation {o1}), ExifTool {theirs} (orientation {o2})")
