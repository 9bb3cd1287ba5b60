"""Validates what the CLI wrote over a folder (used by `make conformance` on the corpus) with
python3-jsonschema (Draft 2020-12): a `convert` manifest against Schemas/manifest.v1.json
and `inspect` lines against Schemas/inspect-line.v1.json. The test suite checks the same
schemas with its own subset checker on Samples/; this is the independent check on real
files the suite never sees.

Usage: validate-outputs.py [--manifest MANIFEST.json] [--inspect LINES.jsonl]
Prints one line per document kind and up to 10 errors; exits 1 when any document fails."""
import json, os, sys
import jsonschema

root = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def validator(name):
    schema = json.load(open(os.path.join(root, "Schemas", name), encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def report(label, documents, check):
    failed, shown = 0, 0
    for where, document in documents:
        errors = list(check.iter_errors(document))
        if errors:
            failed += 1
            for error in errors:
                if shown < 10:
                    print(f"    {where}: /{'/'.join(map(str, error.absolute_path))}: {error.message[:200]}")
                    shown += 1
    print(f"{label}: {len(documents) - failed} of {len(documents)} valid")
    return failed


args = sys.argv[1:]
failures = 0
if "--manifest" in args:
    path = args[args.index("--manifest") + 1]
    manifest = json.load(open(path, encoding="utf-8"))
    failures += report(f"manifest {os.path.basename(path)} ({len(manifest.get('assets', []))} entries)",
                       [(path, manifest)], validator("manifest.v1.json"))
if "--inspect" in args:
    path = args[args.index("--inspect") + 1]
    lines = [(f"line {number}", json.loads(text))
             for number, text in enumerate(open(path, encoding="utf-8"), start=1) if text.strip()]
    failures += report("inspect lines", lines, validator("inspect-line.v1.json"))
sys.exit(1 if failures else 0)
