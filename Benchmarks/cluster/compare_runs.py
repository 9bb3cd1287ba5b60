#!/usr/bin/env python3
"""Compares a sharded run's output folder with a one-machine run's (make cluster-check).

Usage: compare_runs.py SINGLE_DIR SHARDED_DIR [--label NAME]

Checks, printing one line and exiting 1 on any failure:
- SHARDED_DIR/manifest.json equals SINGLE_DIR/manifest.json entry for entry, ignoring only
  the fields that legitimately differ between runs: summary.elapsedSeconds and
  summary.assetsPerSecond (timings), summary.processed and summary.skipped (a re-run
  skips what it finds done), and `inputs` when the folders differ (they do not here);
- no source appears twice, none is missing;
- every rendition the manifest names exists and is byte-identical to the one-machine file;
- no other file is there: no stray temporary file (.jm-*.jmtmp) of a killed task, no
  rendition the manifest does not name; only the shard manifests, their journals and locks.
"""
import hashlib, json, os, pathlib, re, sys

IGNORED_SUMMARY = {"elapsedSeconds", "assetsPerSecond", "processed", "skipped"}
BOOKKEEPING = re.compile(r"^(manifest(\.shard-\d+-of-\d+)?\.json|\.manifest(\.shard-\d+-of-\d+)?\.journal\.jsonl"
                         r"|\.journal-media(\.shard-\d+-of-\d+)?\.lock)$")


def load(folder):
    manifest = json.loads((folder / "manifest.json").read_text())
    for key in IGNORED_SUMMARY:
        manifest["summary"].pop(key, None)
    return manifest


def digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def main():
    single, sharded = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    label = sys.argv[sys.argv.index("--label") + 1] if "--label" in sys.argv else sharded.name
    a, b = load(single), load(sharded)
    problems = []
    sources = [entry["source"] for entry in b["assets"]]
    duplicates = sorted({s for s in sources if sources.count(s) > 1})
    if duplicates:
        problems.append(f"duplicate entries {duplicates[:3]}")
    missing = sorted(set(e["source"] for e in a["assets"]) - set(sources))
    if missing:
        problems.append(f"missing entries {missing[:3]}")
    by_source = {e["source"]: e for e in b["assets"]}
    differing = [e["source"] for e in a["assets"] if by_source.get(e["source"]) not in (None, e)]
    if differing:
        problems.append(f"{len(differing)} differing entries, first {differing[0]}: one machine "
                        f"{json.dumps(next(e for e in a['assets'] if e['source'] == differing[0]))[:400]} / sharded "
                        f"{json.dumps(by_source[differing[0]])[:400]}")
    rest_a = {k: v for k, v in a.items() if k != "assets"}
    rest_b = {k: v for k, v in b.items() if k != "assets"}
    if rest_a != rest_b:
        problems.append(f"manifest fields differ: {rest_a} / {rest_b}")
    named, identical = set(), 0
    for entry in b["assets"]:
        for rendition in entry["renditions"]:
            named.add(rendition["path"])
            x, y = single / rendition["path"], sharded / rendition["path"]
            if not y.is_file():
                problems.append(f"missing file {rendition['path']}")
            elif digest(x) != digest(y):
                problems.append(f"file differs {rendition['path']}")
            else:
                identical += 1
    stray = []
    for root, _, files in os.walk(sharded):
        for name in files:
            relative = os.path.relpath(os.path.join(root, name), sharded)
            if relative not in named and not (root == str(sharded) and BOOKKEEPING.match(name)):
                stray.append(relative)
    if stray:
        problems.append(f"{len(stray)} files no manifest names (partial or stray): {sorted(stray)[:5]}")
    summary = b["summary"]
    print(f"  {label}: {len(b['assets'])} entries ({summary['succeeded']} ok, {summary['failed']} failed) vs "
          f"{len(a['assets'])}; {identical} rendition files byte-identical; "
          + ("OK" if not problems else "PROBLEMS: " + "; ".join(problems)))
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
