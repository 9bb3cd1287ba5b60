"""Opt-in check (`make schema-check`): validates the sample bundles against the committed
JSON Schema with python3-jsonschema (Draft 2020-12), and checks that a few broken bundles
are refused by the schema too, so the schema and the Swift reader (which `make test`
runs) stay in agreement."""
import copy, glob, json, os, sys
import jsonschema

root = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
schema = json.load(open(os.path.join(root, "Schemas", "suggestion-bundle.v1.json"), encoding="utf-8"))
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)
failures = 0
for path in sorted(glob.glob(os.path.join(root, "Samples", "suggestions", "*", "suggestion.json"))):
    bundle = json.load(open(path, encoding="utf-8"))
    errors = list(validator.iter_errors(bundle))
    print(f"{os.path.relpath(path, root)}: {'valid' if not errors else f'{len(errors)} errors'}")
    for error in errors[:5]:
        print("   ", "/".join(map(str, error.absolute_path)), error.message[:200])
    failures += bool(errors)

base = {"schemaVersion": 1, "bundleId": "b", "suggestion": {"title": "t", "items": []}}
broken = {
    "steps as a string": {"id": "1", "type": "motionActivity", "steps": "many"},
    "valence out of range": {"id": "1", "type": "stateOfMind", "kind": "dailyMood", "valence": 1.5},
    "colour not hex": {"id": "1", "type": "reflection", "prompt": "p", "color": "blue"},
    "photo missing": {"id": "1", "type": "photo"},
    "latitude 91": {"id": "1", "type": "workout", "route": [{"latitude": 91, "longitude": 0}]},
}
for name, item in broken.items():
    bundle = copy.deepcopy(base)
    bundle["suggestion"]["items"].append(item)
    refused = not validator.is_valid(bundle)
    print(f"broken ({name}): {'refused' if refused else 'ACCEPTED'}")
    failures += not refused
for name, change in {"schemaVersion 2": ("schemaVersion", 2), "bundleId ../x": ("bundleId", "../x")}.items():
    bundle = copy.deepcopy(base)
    bundle[change[0]] = change[1]
    refused = not validator.is_valid(bundle)
    print(f"broken ({name}): {'refused' if refused else 'ACCEPTED'}")
    failures += not refused
sys.exit(1 if failures else 0)
