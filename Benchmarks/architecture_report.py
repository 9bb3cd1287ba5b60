#!/usr/bin/env python3
"""Issue 33's before/after figures, and byte-identity checks of the outputs across a refactor.

  architecture_report.py figures [--format-commit REV]
      From the working tree (run at the repository root): Swift files and lines, files touched
      under Sources/ by a format-adding commit, records holding an asset's name and mtime,
      files importing each C module (and JournalMedia files importing the three C-backed
      layers), the largest files and functions, and the `duplicates` pair count.

  architecture_report.py outputs BIN OUT [--corpus DIR]
      Runs BIN (a journal-media binary) over Samples/ (default renditions; every encoder with
      --notification; the suggestion bundles) and over DIR when given, into OUT/<run>/.
      --timeout 300 so that a loaded machine does not turn slow decodes into failures.

  architecture_report.py compare BEFORE AFTER
      Compares two OUT folders: every file's bytes; manifest.json and suggestion.json modulo
      timing fields (summary.elapsedSeconds, summary.assetsPerSecond). Exit 1 on a difference,
      each one listed.

Approximate by design (a text scan, not a parser); the figures are for comparing one tree with
another under the same script, not absolute truths.
"""
import argparse, collections, hashlib, json, os, pathlib, re, subprocess, sys

SOURCES = pathlib.Path("Sources")


def swift_files():
    return sorted(p for p in SOURCES.rglob("*.swift"))


def target_of(path):
    parts = path.relative_to(SOURCES).parts
    # Sources/FastPaths/<target>/… holds whole targets (issue 33 item 5).
    return parts[1] if parts[0] == "FastPaths" and len(parts) > 2 else parts[0]


def fast_path_files():
    """Swift and C files in a FastPaths folder (Sources/FastPaths/, <target>/FastPaths/)."""
    return sorted(p for p in SOURCES.rglob("*") if p.is_file() and p.suffix in (".swift", ".c", ".h")
                  and "FastPaths" in p.relative_to(SOURCES).parts)


def imports(path):
    out = set()
    for line in path.read_text(errors="replace").splitlines():
        m = re.match(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*import\s+(?:(?:struct|enum|class|func|var|let|protocol)\s+)?([A-Za-z0-9_]+)", line)
        if m:
            out.add(m.group(1))
    return out


def strip_strings_and_comments(text):
    """Blanks out string literals and comments, keeping line structure, so braces can be counted."""
    out, i, n = [], 0, len(text)
    block = 0
    while i < n:
        c = text[i]
        if block:
            if text.startswith("*/", i):
                block -= 1; i += 2; continue
            if text.startswith("/*", i):
                block += 1; i += 2; continue
            out.append("\n" if c == "\n" else " "); i += 1; continue
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i)); i = j; continue
        if text.startswith("/*", i):
            block = 1; i += 2; out.append("  "); continue
        if text.startswith('"""', i):
            j = text.find('"""', i + 3)
            j = n if j < 0 else j + 3
            out.append("".join("\n" if ch == "\n" else " " for ch in text[i:j])); i = j; continue
        if c == '"':
            j = i + 1
            depth = 0
            while j < n and text[j] != "\n":
                if text[j] == "\\" and j + 1 < n and text[j + 1] == "(":
                    depth += 1; j += 2; continue
                if depth and text[j] == ")":
                    depth -= 1; j += 1; continue
                if text[j] == "\\":
                    j += 2; continue
                if text[j] == '"' and not depth:
                    break
                j += 1
            out.append(" " * (j + 1 - i)); i = j + 1; continue
        out.append(c); i += 1
    return "".join(out)


FUNC = re.compile(r"\b(func\s+[^\s(<]+|init[?!]?\s*[(<]|deinit\b|subscript\s*[(<])")


def functions(path):
    """(name, first line, line count) of every func/init/deinit/subscript with a body."""
    text = strip_strings_and_comments(path.read_text(errors="replace"))
    lines = text.split("\n")
    result = []
    for m in FUNC.finditer(text):
        start = m.start()
        brace = text.find("{", m.end())
        if brace < 0:
            continue
        # A declaration without a body (protocol requirement) meets a newline-terminated
        # signature first; accept only when no other declaration starts before the brace.
        between = text[m.end():brace]
        if FUNC.search(between) or re.search(r"\b(var|let|case|struct|class|enum|protocol)\b", between):
            continue
        depth, j = 0, brace
        while j < len(text):
            if text[j] == "{": depth += 1
            elif text[j] == "}":
                depth -= 1
                if depth == 0: break
            j += 1
        first = text.count("\n", 0, start) + 1
        last = text.count("\n", 0, j) + 1
        name = m.group(1).replace("func", "").strip().rstrip("(<").strip() or "init"
        result.append((name, first, last - first + 1))
    return result


def format_commit_files(rev):
    try:
        out = subprocess.run(["git", "show", "--name-only", "--format=", rev], capture_output=True, text=True, check=True).stdout
    except subprocess.CalledProcessError:
        return None
    files = [f for f in out.split() if f.startswith("Sources/")]
    targets = sorted({f.split("/")[1] for f in files})
    return files, targets


# The records an asset's data passes through: types that hold its name (or path) and types
# that hold its modification time, as stored properties. A rough proxy of the count.
NAME_FIELD = re.compile(r"^\s*(?:public |package |internal |private |fileprivate )*(?:let|var) (name|relativePath|sourcePath|source)\s*:\s*(String|URL)\b")
MODIFIED_FIELD = re.compile(r"^\s*(?:public |package |internal |private |fileprivate )*(?:let|var) (modified|modificationTime)\s*:")
TYPE_DECL = re.compile(r"^\s*(?:@\w+\s+)*(?:public |package |internal |private |fileprivate |final )*(struct|class|enum|actor|extension)\s+([A-Za-z0-9_.]+)")
PER_ASSET_TARGETS = {"JournalMediaCore", "JournalMediaMetadata", "JournalMediaImaging", "JournalMediaVideo", "JournalMedia"}
SKIP_DIRS = {"Suggestions", "Notifications", "Cards", "Places", "Attachments"}
# Fields of those names that do not hold the asset's name: a date's or location's provenance,
# a place's name, a libvips operation's name, an output file's name.
NOT_ASSET_NAME = {"CaptureDate", "Location", "Place", "VipsOperationCall", "FileSink"}


def records():
    holders = collections.defaultdict(set)
    for path in swift_files():
        if target_of(path) not in PER_ASSET_TARGETS or SKIP_DIRS & set(path.parts):
            continue
        stack = []  # (type name, indent)
        for line in path.read_text(errors="replace").splitlines():
            indent = len(line) - len(line.lstrip())
            while stack and indent <= stack[-1][1] and line.strip().startswith("}"):
                stack.pop()
                break
            t = TYPE_DECL.match(line)
            if t and line.rstrip().endswith("{"):
                stack.append((t.group(2), indent))
                continue
            if not stack:
                continue
            if NAME_FIELD.match(line) and indent == stack[-1][1] + 4 and stack[-1][0] not in NOT_ASSET_NAME:
                holders[stack[-1][0]].add("name")
            if MODIFIED_FIELD.match(line) and indent == stack[-1][1] + 4:
                holders[stack[-1][0]].add("modified")
    return holders


def figures(args):
    files = swift_files()
    counts = {p: len(p.read_text(errors="replace").splitlines()) for p in files}
    total = sum(counts.values())
    sizes = sorted(counts.values())
    print(f"Swift files under Sources/: {len(files)}, {total} lines, median {sizes[len(sizes)//2]}, "
          f"over 300 lines: {sum(1 for c in sizes if c > 300)}")
    per_target = collections.Counter()
    for p, c in counts.items(): per_target[target_of(p)] += c
    print("lines per target: " + ", ".join(f"{t} {c} ({100*c/total:.0f} %)" for t, c in per_target.most_common()))

    fc = format_commit_files(args.format_commit)
    if fc:
        f, t = fc
        print(f"files under Sources/ touched to add a format ({args.format_commit}): {len(f)} in {len(t)} targets ({', '.join(t)})")
        for x in f: print(f"  {x}")

    holders = records()
    names = sorted(k for k, v in holders.items() if "name" in v)
    mods = sorted(k for k, v in holders.items() if "modified" in v)
    print(f"records holding an asset's name/path (stored String/URL 'name', 'relativePath', 'source'): {len(names)}: {', '.join(names)}")
    print(f"records holding its modification time: {len(mods)}: {', '.join(mods)}")
    print(f"records holding either: {len(holders)}")

    fast = fast_path_files()
    if fast:
        lines = {p: len(p.read_text(errors="replace").splitlines()) for p in fast}
        by_folder = collections.Counter()
        for p, c in lines.items():
            parts = p.relative_to(SOURCES).parts
            by_folder["/".join(parts[:parts.index("FastPaths") + 1])] += c
        print(f"fast paths (files in FastPaths folders): {len(fast)} files, {sum(lines.values())} lines: "
              + ", ".join(f"{k} {v}" for k, v in sorted(by_folder.items())))
    c_modules = sorted(p.name for d in (SOURCES, SOURCES / "FastPaths") if d.is_dir()
                       for p in d.iterdir() if p.is_dir() and re.match(r"C[A-Z]", p.name))
    importers = collections.defaultdict(list)
    for p in files:
        for m in imports(p): importers[m].append(p)
    print("files importing each C module (by target):")
    for m in c_modules:
        by_target = collections.Counter(target_of(p) for p in importers.get(m, []))
        print(f"  {m}: {len(importers.get(m, []))}" + (" (" + ", ".join(f"{t} {c}" for t, c in by_target.most_common()) + ")" if by_target else ""))
    layers = ["JournalMediaMetadata", "JournalMediaImaging", "JournalMediaVideo"]
    jm = [p for p in files if target_of(p) == "JournalMedia"]
    all3 = [p for p in jm if all(l in imports(p) for l in layers)]
    print(f"JournalMedia files: {len(jm)}; importing all three C-backed layers: {len(all3)}; "
          + ", ".join(f"{l.replace('JournalMedia', '')} {sum(1 for p in jm if l in imports(p))}" for l in layers))

    print("largest files:")
    for p, c in sorted(counts.items(), key=lambda x: -x[1])[:10]:
        print(f"  {c:5d} {p}")
    funcs = [(n, p, first, length) for p in files for (n, first, length) in functions(p)]
    funcs.sort(key=lambda x: -x[3])
    print(f"functions: {len(funcs)}; over 60 lines: {sum(1 for f in funcs if f[3] > 60)}; largest:")
    for n, p, first, length in funcs[:10]:
        print(f"  {length:5d} {p}:{first} {n}")

    doc = [(p, line) for p in SOURCES.rglob("*") if p.suffix in (".swift", ".c", ".h")
           for line in p.read_text(errors="replace").splitlines() if line.lstrip().startswith("///")]
    version = re.compile(r"(libvips|ffmpeg|libav[a-z]*|libheif|libjpeg|libexif|libwebp|dav1d|lcms|libjxl|libpng)[ -]?[0-9]+\.[0-9]+")
    timing = re.compile(r"[0-9] ?(ms|µs)\b|~[0-9.]+ ?s\b")
    print(f"doc comments pinning a library version: {sum(1 for _, l in doc if version.search(l))}; "
          f"with a timing in ms: {sum(1 for _, l in doc if timing.search(l))}; "
          f"pointing into RESULTS.md: {sum(1 for _, l in doc if 'RESULTS' in l)}")

    try:
        d = subprocess.run(["duplicates", "--repo", "Sources", "--seconds", "120", "--most", "1"],
                           capture_output=True, text=True, timeout=200).stdout.splitlines()
        print("duplicates (Sources/): " + (d[0] if d else "?"))
    except (OSError, subprocess.TimeoutExpired) as e:
        print(f"duplicates: not run ({e})")


PRESET_ALL = {"renditions": [
    {"role": "t", "format": "webp", "width": 256, "effort": 4},
    {"role": "c", "format": "jpeg", "width": 300, "height": 200, "fit": "cover", "quality": 70, "effort": 4},
    {"role": "p", "format": "png", "width": 128},
    {"role": "a", "format": "avif", "width": 96},
    {"role": "x", "format": "jxl", "width": 96},
]}


def run(cmd, log):
    with open(log, "w") as f:
        rc = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT).returncode
    print(f"  exit {rc}: {' '.join(cmd)}")


def outputs(args):
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    preset = out / "preset-all.json"
    preset.write_text(json.dumps(PRESET_ALL))
    common = ["--timeout", "300", "-q", "--force"]
    run([args.bin, "convert", "Samples", "--output", str(out / "samples")] + common, out / "samples.log")
    run([args.bin, "convert", "Samples", "--output", str(out / "samples-all"), "--preset", str(preset),
         "--notification"] + common, out / "samples-all.log")
    bundles = sorted(str(p) for p in pathlib.Path("Samples/suggestions").glob("*/suggestion.json"))
    run([args.bin, "suggestion"] + bundles + ["--output", str(out / "suggestions"), "-q"], out / "suggestions.log")
    if args.corpus:
        run([args.bin, "convert", args.corpus, "--output", str(out / "corpus")] + common, out / "corpus.log")


TIMING = {"elapsedSeconds", "assetsPerSecond"}


def normalised(path):
    data = json.loads(path.read_bytes())
    if isinstance(data, dict) and isinstance(data.get("summary"), dict):
        for k in TIMING: data["summary"].pop(k, None)
    return data


def compare(args):
    a, b = pathlib.Path(args.before), pathlib.Path(args.after)
    skip = {".journal-media.lock", ".manifest.journal.jsonl", "preset-all.json"}
    def listing(root):
        return {p.relative_to(root) for p in root.rglob("*") if p.is_file() and p.name not in skip and not p.name.endswith(".log")}
    la, lb = listing(a), listing(b)
    diffs = [f"only before: {p}" for p in sorted(la - lb)] + [f"only after: {p}" for p in sorted(lb - la)]
    same = 0
    for p in sorted(la & lb):
        x, y = a / p, b / p
        if p.suffix == ".json" and p.name in ("manifest.json", "suggestion.json") or p.name.startswith("manifest.shard"):
            ok = normalised(x) == normalised(y)
        else:
            ok = x.read_bytes() == y.read_bytes()
        if ok: same += 1
        else: diffs.append(f"differs: {p}")
    for log in sorted(a.glob("*.log")):
        other = b / log.name
        if other.exists() and sorted(log.read_text().splitlines()) != sorted(other.read_text().splitlines()):
            diffs.append(f"stderr differs: {log.name}")
    print(f"{same} files identical; {len(diffs)} differences")
    for d in diffs: print("  " + d)
    sys.exit(1 if diffs else 0)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    f = sub.add_parser("figures"); f.add_argument("--format-commit", default="48651d6")
    o = sub.add_parser("outputs"); o.add_argument("bin"); o.add_argument("out"); o.add_argument("--corpus")
    c = sub.add_parser("compare"); c.add_argument("before"); c.add_argument("after")
    args = ap.parse_args()
    {"figures": figures, "outputs": outputs, "compare": compare}[args.cmd](args)


if __name__ == "__main__":
    main()
