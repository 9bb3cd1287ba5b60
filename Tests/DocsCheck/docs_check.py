#!/usr/bin/env python3
"""make docs-check / docs-lint: the README and docs/ checked against the code.

Without --binary (docs-lint): README length and line limits, prose line length in docs/,
relative links and #anchors, every source folder named in docs/architecture.md, every field
of the JSON Schemas named on its page. With --binary: also every journal-media flag the
pages mention exists in that binary's --help (per subcommand where a command line names one),
and every flag of every subcommand is mentioned somewhere. With --swift-modules: every Swift
block type-checks against the built modules (Tests/DocsCheck/prelude.swift supplies the names
the examples assume). Prints one line per problem and exits 1 when there is any.
"""
import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.environ.get("DOCS_CHECK_ROOT") or os.path.join(os.path.dirname(__file__), "..", ".."))
README_MAX_WORDS = 1500
MAX_LINE = 300
# Pages other branches add (linked from docs/README.md): a missing one is a note, not a failure.
PENDING = os.path.join(os.path.dirname(__file__), "pending-pages.txt")
# Flags of other programs that the pages mention in backticks.
FOREIGN_FLAGS = {
    "--enable-gpl", "--static-swift-stdlib", "--disable-sandbox", "--additional-symbol-graph-dir",
    "--data-binary", "--scratch-path", "--filter", "--product", "--show-bin-path",
    "--warnings-as-errors", "--experimental-dump-help", "--array", "--dependency", "--wrap",
    "--cpus-per-task", "--mem", "--job-name", "--checks",
}
SKIP_MARK = "<!-- docs-check: skip -->"
RUN_MARK = "<!-- docs-check: run -->"          # before an sh block: run it (make docs-check)
OUTPUT_MARK = "<!-- docs-check: output -->"    # before the block after it: lines its stdout must hold

problems = []
notes = []


def problem(where, message):
    problems.append(f"{where}: {message}")


def rel(path):
    return os.path.relpath(path, ROOT)


def pages():
    out = [os.path.join(ROOT, "README.md")]
    docs = os.path.join(ROOT, "docs")
    for name in sorted(os.listdir(docs)):
        if name.endswith(".md"):
            out.append(os.path.join(docs, name))
    return out


def split_blocks(text):
    """Yields (kind, first line number, lines, info) with kind 'prose' or 'code'."""
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        fence = re.match(r"^(\s*)(```+|~~~+)(.*)$", line)
        if fence:
            marker = fence.group(2)
            info = fence.group(3).strip()
            start = i
            body = []
            i += 1
            while i < len(lines) and not lines[i].strip().startswith(marker):
                body.append(lines[i])
                i += 1
            preceding = lines[start - 1].strip() if start > 0 else ""
            preceding2 = lines[start - 2].strip() if start > 1 else ""
            skip = SKIP_MARK in (preceding, preceding2)
            marks = {m for m in (RUN_MARK, OUTPUT_MARK) if m in (preceding, preceding2)}
            yield ("code", start + 1, body, (info, skip, marks))
            i += 1
            continue
        start = i
        body = []
        while i < len(lines) and not re.match(r"^\s*(```+|~~~+)", lines[i]):
            body.append(lines[i])
            i += 1
        yield ("prose", start + 1, body, None)


def strip_inline_code(line):
    return re.sub(r"`[^`]*`", "", line)


def slug(heading):
    """GitHub's anchor for a heading."""
    text = heading.strip().lower()
    text = re.sub(r"<[^>]+>", "", text)
    text = re.sub(r"[^\w\- ]", "", text)  # drops punctuation and backticks; keeps letters, digits, _ and -
    return text.replace(" ", "-")


def anchors(path, cache={}):
    if path not in cache:
        found = set()
        counts = {}
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
        for kind, _, body, _ in split_blocks(text):
            if kind != "prose":
                continue
            for line in body:
                m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
                if m:
                    base = slug(m.group(1))
                    n = counts.get(base, 0)
                    counts[base] = n + 1
                    found.add(base if n == 0 else f"{base}-{n}")
        cache[path] = found
    return cache[path]


def check_lengths(path, text):
    name = rel(path)
    if name == "README.md":
        words = len(text.split())
        if words > README_MAX_WORDS:
            problem(name, f"{words} words, over {README_MAX_WORDS}")
        for n, line in enumerate(text.split("\n"), 1):
            if len(line) > MAX_LINE:
                problem(f"{name}:{n}", f"line of {len(line)} characters, over {MAX_LINE}")
        return words
    for kind, first, body, _ in split_blocks(text):
        if kind != "prose":
            continue
        for offset, line in enumerate(body):
            if len(line) > MAX_LINE and not line.lstrip().startswith("|"):
                problem(f"{name}:{first + offset}", f"prose line of {len(line)} characters, over {MAX_LINE}")
    return None


def check_links(path, text, pending):
    name = rel(path)
    for kind, first, body, _ in split_blocks(text):
        if kind != "prose":
            continue
        for offset, line in enumerate(body):
            for m in re.finditer(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)", strip_inline_code(line)):
                target = m.group(1)
                if re.match(r"^[a-z][a-z0-9+.-]*:", target):
                    continue  # http:, https:, mailto:
                where = f"{name}:{first + offset}"
                file_part, _, anchor = target.partition("#")
                resolved = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
                if not os.path.exists(resolved):
                    if rel(resolved) in pending:
                        notes.append(f"{where}: {target} is not here yet (pending-pages.txt: another branch adds it)")
                    else:
                        problem(where, f"link to {target}: no such file")
                    continue
                if anchor and resolved.endswith(".md") and anchor not in anchors(resolved):
                    problem(where, f"link to {target}: no heading with anchor #{anchor} in {rel(resolved)}")


def check_architecture():
    page = os.path.join(ROOT, "docs", "architecture.md")
    if not os.path.exists(page):
        problem("docs/architecture.md", "missing")
        return
    with open(page, encoding="utf-8") as handle:
        text = handle.read()
    sources = os.path.join(ROOT, "Sources")
    for dirpath, dirnames, _ in os.walk(sources):
        depth = rel(dirpath).count(os.sep)
        dirnames[:] = [d for d in dirnames if d != "include" and not d.endswith(".docc")]
        if depth >= 3:
            dirnames[:] = []
        for d in dirnames:
            if not re.search(r"(?<![\w])" + re.escape(d) + r"(?![\w])", text):
                problem("docs/architecture.md", f"the source folder {rel(os.path.join(dirpath, d))} is not named")


# Each JSON Schema and the page that documents its fields (a field counts as documented when it
# appears in backticks on that page).
SCHEMA_PAGES = [
    ("Schemas/manifest.v1.json", "docs/manifest.md",
     ["docs/dates.md", "docs/notifications.md", "docs/live-photos.md", "docs/formats-and-limits.md"]),
    ("Schemas/inspect-line.v1.json", "docs/dates.md", ["docs/manifest.md"]),
    ("Schemas/color-line.v1.json", "docs/colors.md", []),
    ("Schemas/suggestion-bundle.v1.json", "docs/suggestions.md", []),
    ("Schemas/suggestion-output.v1.json", "docs/suggestions.md", ["docs/manifest.md"]),
]


def check_schema_fields():
    for schema, page, also in SCHEMA_PAGES:
        path = os.path.join(ROOT, schema)
        if not os.path.exists(path):
            continue
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
        names = set()

        def walk(node):
            if isinstance(node, dict):
                names.update(node.get("properties", {}).keys())
                for value in node.values():
                    walk(value)
            elif isinstance(node, list):
                for value in node:
                    walk(value)
        walk(data)
        text = ""
        for name in [page] + also:
            if os.path.exists(os.path.join(ROOT, name)):
                with open(os.path.join(ROOT, name), encoding="utf-8") as handle:
                    text += handle.read()
        for field in sorted(names):
            if not re.search(r"`[^`]*\b" + re.escape(field) + r"\b[^`]*`", text):
                problem(page, f"{schema} field '{field}' is not documented")


def check_routes():
    """Every path of openapi.yaml is named somewhere in docs/ (service.md, or a page a later
    route belongs to)."""
    spec = os.path.join(ROOT, "openapi.yaml")
    if not os.path.exists(spec):
        return
    with open(spec, encoding="utf-8") as handle:
        routes = re.findall(r"^  (/[^:\s]*):\s*$", handle.read(), flags=re.M)
    text = ""
    for path in pages():
        with open(path, encoding="utf-8") as handle:
            text += handle.read()
    for route in routes:
        if route not in text:
            problem("docs/service.md", f"the route {route} of openapi.yaml is in no page")


# --- flags -------------------------------------------------------------------------------

def help_flags(binary):
    dump = subprocess.run([binary, "--experimental-dump-help"], capture_output=True, text=True, check=True)
    root = json.loads(dump.stdout)["command"]
    commands = {}

    def walk(command, path):
        flags = set()
        for argument in command.get("arguments", []):
            for n in argument.get("names", []):
                if n["kind"] == "long":
                    flags.add("--" + n["name"])
                else:
                    flags.add("-" + n["name"])
        commands[" ".join(path)] = flags
        for sub in command.get("subcommands", []):
            walk(sub, path + [sub["commandName"]])
    walk(root, [])
    commands.pop("help", None)
    return commands


def command_lines(body):
    """Joins backslash continuations; yields the logical lines of a shell block."""
    current = ""
    for line in body:
        stripped = re.sub(r"(^|\s)#.*$", "", line).rstrip()  # a shell comment
        if stripped.endswith("\\"):
            current += stripped[:-1] + " "
            continue
        yield current + stripped
        current = ""
    if current:
        yield current


def flags_in_command(words, commands):
    """words after `journal-media`: returns (subcommand, flags)."""
    path = []
    for word in words:
        candidate = " ".join(path + [word])
        if candidate in commands and not word.startswith("-"):
            path.append(word)
        else:
            break
    flags = set()
    for word in words:
        if word in {"|", "&", ";", "&&", "||", ">", "<", "2>"}:
            break
        for m in re.finditer(r"(?<![\w-])(--?[a-zA-Z][a-zA-Z0-9-]*)", word):
            token = m.group(1)
            if token.startswith("--") or re.fullmatch(r"-[a-zA-Z]", token):
                flags.add(token)
    return " ".join(path), flags


def check_flags(binary):
    commands = help_flags(binary)
    every = set().union(*commands.values())
    subcommand_names = {c.split(" ")[0] for c in commands if c}
    mentioned = set()
    for path in pages():
        name = rel(path)
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
        for kind, first, body, info in split_blocks(text):
            if kind == "code":
                lang = info[0]
                if lang not in ("sh", "bash", "shell", "console", ""):
                    continue
                for line in command_lines(body):
                    for m in re.finditer(r"(?:^|[\s;|&(`'\"])journal-media((?:\s+[^\s;|&]+)*)", line):
                        words = [w.strip("[]'\"") for w in m.group(1).split()]
                        words = [w for w in words if w]
                        sub, flags = flags_in_command(words, commands)
                        known = commands.get(sub, set())
                        for flag in flags:
                            mentioned.add(flag)
                            if flag not in known:
                                problem(f"{name}:{first}", f"`journal-media {sub}` has no flag {flag} (not in its --help)")
                continue
            for offset, line in enumerate(body):
                where = f"{name}:{first + offset}"
                for span in re.findall(r"`([^`]+)`", line):
                    words = span.split()
                    if not words:
                        continue
                    if words[0] == "journal-media":
                        words = words[1:]
                    if words and (words[0] in subcommand_names) and len(words) > 1:
                        sub, flags = flags_in_command(words, commands)
                        for flag in flags:
                            mentioned.add(flag)
                            if flag not in commands.get(sub, set()):
                                problem(where, f"`{span}`: {sub} has no flag {flag}")
                        continue
                    for token in re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", span):
                        if token in FOREIGN_FLAGS:
                            continue
                        mentioned.add(token)
                        if not span.startswith("--"):
                            continue
                        if token not in every:
                            problem(where, f"`{span}`: no journal-media subcommand has {token}")
                # flags in plain prose (not in backticks) count as documented, are not checked
                for token in re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", strip_inline_code(line)):
                    mentioned.add(token)
    for command, flags in sorted(commands.items()):
        for flag in sorted(flags):
            if flag in {"--help", "-h", "-help", "--version"} or not flag.startswith("--"):
                continue
            if flag not in mentioned:
                problem("docs", f"`journal-media {command} {flag}` is in --help but in no page of the README or docs/")


# --- shell examples, run ----------------------------------------------------------------------

def checked(command):
    """A script line running `command` that reports an exit status above 1 on stderr."""
    quoted = shlex.quote(command)
    return f"( {command} ); s=$?; [ $s -le 1 ] || {{ echo \"docs-check: exit $s: \"{quoted} >&2; fail=1; }}"


def run_script(lines, binary, where, timeout):
    """Runs the script lines with bash in a scratch folder (Samples/ linked in, the binary's
    folder first on PATH); each reported exit is a problem at `where`. Returns the run."""
    env = dict(os.environ, PATH=os.path.dirname(os.path.abspath(binary)) + os.pathsep + os.environ["PATH"])
    with tempfile.TemporaryDirectory(prefix="docs-run-") as folder:
        os.symlink(os.path.join(ROOT, "Samples"), os.path.join(folder, "Samples"))
        run = subprocess.run(["bash", "-c", "\n".join(["fail=0"] + lines + ["exit $fail"])], cwd=folder,
                             env=env, capture_output=True, text=True, timeout=timeout)
    reported = [l for l in run.stderr.splitlines() if l.startswith("docs-check: exit")]
    for line in reported:
        problem(where, line[len("docs-check: "):])
    if run.returncode != 0 and not reported:
        problem(where, f"the block exited {run.returncode}: {run.stderr[-300:]}")
    return run



def run_quick_start(binary):
    """Runs the README's quick-start shell block in a scratch folder (Samples/ linked in, the
    service on a free loopback port): every command must exit 0 or 1 (1: the samples include
    broken files on purpose) and the service must answer the upload."""
    import socket
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as handle:
        text = handle.read()
    start = text.find("## Quick start")
    block = None
    if start >= 0:
        for kind, first, body, info in split_blocks(text[start:]):
            if kind == "code" and info[0] == "sh":
                block = body
                break
    if block is None:
        problem("README.md", "no sh block under '## Quick start'")
        return
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    script = []
    for line in command_lines(block):
        command = line.strip()
        if not command or command.startswith("export PATH="):
            continue
        command = command.replace("8080", str(port))
        if command.endswith("&"):
            script.append(command)
            script.append(f"for i in $(seq 100); do curl -s -o /dev/null http://127.0.0.1:{port}/healthz && break; sleep 0.2; done")
            continue
        script.append(checked(command))
    script.append("kill %1 2>/dev/null; wait 2>/dev/null")
    run = run_script(script, binary, "README.md quick start", 900)
    if '"asset"' not in run.stdout:
        problem("README.md quick start", "the service did not answer the upload with an asset")
    notes.append(f"README quick start ran ({len(script) - 1} commands)")


def same_line(expected, actual):
    try:
        return json.loads(expected) == json.loads(actual)
    except ValueError:
        return expected.strip() == actual.strip()


def run_marked_blocks(binary):
    """Runs every sh block marked RUN_MARK in docs/ (a scratch folder, Samples/ linked in);
    each command must exit 0 or 1, and when the next block is marked OUTPUT_MARK, each of its
    lines must be a line of the commands' stdout (JSON compared as values)."""
    ran = 0
    for path in pages()[1:]:
        name = rel(path)
        with open(path, encoding="utf-8") as handle:
            blocks = list(split_blocks(handle.read()))
        codes = [b for b in blocks if b[0] == "code"]
        for index, (_, first, body, info) in enumerate(codes):
            if RUN_MARK not in info[2]:
                continue
            ran += 1
            script = [checked(line.strip()) for line in command_lines(body) if line.strip()]
            run = run_script(script, binary, f"{name}:{first}", 600)
            if index + 1 < len(codes) and OUTPUT_MARK in codes[index + 1][3][2]:
                printed = [l for l in run.stdout.splitlines() if l.strip()]
                for expected in (l for l in codes[index + 1][2] if l.strip()):
                    if not any(same_line(expected, actual) for actual in printed):
                        problem(f"{name}:{codes[index + 1][1]}", "the commands above no longer print: " + expected[:160])
    notes.append(f"{ran} marked shell blocks in docs/ ran")


# --- Swift blocks ----------------------------------------------------------------------------

def module_flags(build):
    """swiftc flags that find the built modules and the C modules they import."""
    import glob
    flags = ["-I", os.path.join(build, "Modules")]
    maps = glob.glob(os.path.join(ROOT, "Sources", "C*", "module.modulemap"))
    maps += glob.glob(os.path.join(build, "*.build", "module.modulemap"))
    for path in sorted(maps):
        flags += ["-Xcc", "-fmodule-map-file=" + path]
    for include in glob.glob(os.path.join(ROOT, "Sources", "C*", "include")):
        flags += ["-Xcc", "-I" + include]
    # The dependencies' C shims (swift-atomics', SwiftNIO's), for examples that import the server.
    for path in sorted(glob.glob(os.path.join(ROOT, ".build", "checkouts", "*", "Sources", "*", "include",
                                              "module.modulemap"))):
        flags += ["-Xcc", "-fmodule-map-file=" + path, "-Xcc", "-I" + os.path.dirname(path)]
    cflags = subprocess.run(["pkg-config", "--cflags-only-I", "vips", "pangocairo", "libexif", "libxml-2.0",
                             "lcms2", "zlib", "libcrypto"], capture_output=True, text=True).stdout.split()
    for flag in cflags:
        flags += ["-Xcc", flag]
    return flags

def check_swift(module_flags):
    prelude = os.path.join(os.path.dirname(__file__), "prelude.swift")
    with tempfile.TemporaryDirectory(prefix="docs-check-") as folder:
        count = 0
        catalog = os.path.join(ROOT, "Sources", "JournalMedia", "JournalMedia.docc")
        articles = [os.path.join(catalog, n) for n in sorted(os.listdir(catalog)) if n.endswith(".md")] \
            if os.path.isdir(catalog) else []
        for path in pages() + articles:
            name = rel(path)
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
            for kind, first, body, info in split_blocks(text):
                if kind != "code" or info[0] != "swift" or info[1]:
                    continue
                count += 1
                main = os.path.join(folder, f"block{count}", "main.swift")
                os.makedirs(os.path.dirname(main))
                with open(main, "w", encoding="utf-8") as handle:
                    handle.write("import JournalMedia\nimport Foundation\n" + "\n".join(body) + "\n")
                command = ["swiftc", "-typecheck", "-swift-version", "6", *module_flags, prelude, main]
                run = subprocess.run(command, capture_output=True, text=True)
                if run.returncode != 0:
                    errors = [l for l in run.stderr.splitlines() if "error:" in l][:3]
                    problem(f"{name}:{first}", "Swift block does not compile: " + " | ".join(
                        e.replace(main, "block") for e in errors))
        notes.append(f"{count} Swift blocks type-checked")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", help="journal-media to read --help from")
    parser.add_argument("--limits-and-links", action="store_true",
                        help="only the README's limits, prose line lengths and links (what CI runs)")
    parser.add_argument("--run", action="store_true", help="with --binary: run the README's quick start")
    parser.add_argument("--swift-build", help="the debug build's folder (swift build --show-bin-path)")
    args = parser.parse_args()
    pending = set()
    if os.path.exists(PENDING):
        with open(PENDING, encoding="utf-8") as handle:
            pending = {l.strip() for l in handle if l.strip() and not l.startswith("#")}
    words = None
    for path in pages():
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
        words = check_lengths(path, text) or words
        check_links(path, text, pending)
    if not args.limits_and_links:
        check_architecture()
        check_schema_fields()
        check_routes()
    if args.binary:
        check_flags(args.binary)
        if args.run:
            run_quick_start(args.binary)
            run_marked_blocks(args.binary)
    if args.swift_build:
        check_swift(module_flags(args.swift_build))
    for note in notes:
        print("docs-check: note: " + note)
    for p in problems:
        print("docs-check: " + p)
    print(f"docs-check: README {words} words; {len(pages()) - 1} pages in docs/; {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
