"""Compares each merged manifest with the unsharded one, modulo timing fields
(summary.elapsedSeconds, summary.assetsPerSecond), and compares the rendition files' bytes."""
import hashlib, json, pathlib, sys
out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/shards/out")
TIMING = {"elapsedSeconds", "assetsPerSecond"}
def load(p):
    m = json.loads(p.read_text())
    for k in TIMING: m["summary"].pop(k, None)
    return m
single = load(out / "single/manifest.json")
print("single:", len(single["assets"]), "assets;", {k: v for k, v in single["summary"].items()})
status = 0
for n in (1, 2, 5):
    p = out / f"n{n}/manifest.json"
    if not p.exists(): print(f"N={n}: no merged manifest"); status = 1; continue
    merged = load(p)
    same = merged == single
    diffs = [a["source"] for a, b in zip(single["assets"], merged["assets"]) if a != b]
    files_same = 0; files_diff = []
    for a in merged["assets"]:
        for r in a["renditions"]:
            x, y = out / "single" / r["path"], out / f"n{n}" / r["path"]
            if x.read_bytes() == y.read_bytes(): files_same += 1
            else: files_diff.append(r["path"])
    print(f"N={n}: manifest identical modulo timing: {same}; differing entries: {len(diffs)} {diffs[:5]}; "
          f"assets {len(merged['assets'])} vs {len(single['assets'])}; ignored equal: {merged.get('ignored') == single.get('ignored')}; "
          f"rendition files byte-identical: {files_same}, differing: {len(files_diff)} {files_diff[:3]}")
    if not same or files_diff: status = 1
sys.exit(status)
