"""`make service-check`, after schemathesis: uploads encoded by Python `requests` (what most
backends send) against a running `journal-media serve`. A form upload must give the same
manifest entry and rendition bytes as the raw upload; multipart/mixed answers must carry the
same bytes; a suggestion bundle with its files as parts named by their bundle paths must
succeed item for item. Exits 1 on the first difference. Usage: service_multipart_check.py URL
"""
import base64
import email.parser
import email.policy
import json
import pathlib
import sys

import requests

url = sys.argv[1]
root = pathlib.Path(__file__).resolve().parent.parent
photo = (root / "Samples/orientation-6-gps-p3.jpg").read_bytes()
failures = []


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        failures.append(what)


raw = requests.post(f"{url}/v1/assets", data=photo, headers={"X-Filename": "IMG_0001.JPG"}, timeout=120)
form = requests.post(f"{url}/v1/assets", files={"file": ("IMG_0001.JPG", photo, "image/jpeg")},
                     data={"preset": "default"}, timeout=120)
check(raw.status_code == 200 and form.status_code == 200, f"raw {raw.status_code}, form {form.status_code}")
check(raw.json()["asset"] == form.json()["asset"], "a requests form gives the raw upload's manifest entry")
check([r["data"] for r in raw.json()["renditions"]] == [r["data"] for r in form.json()["renditions"]],
      "and the same rendition bytes")

mixed = requests.post(f"{url}/v1/assets", files={"file": ("IMG_0001.JPG", photo)},
                      headers={"Accept": "multipart/mixed"}, timeout=120)
message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
    b"Content-Type: " + mixed.headers["Content-Type"].encode() + b"\r\n\r\n" + mixed.content)
parts = list(message.iter_parts())
check(parts and json.loads(parts[0].get_payload(decode=True)) == raw.json()["asset"],
      "multipart/mixed: Python's email parser reads the manifest entry part")
check([p.get_payload(decode=True) for p in parts[1:]] == [base64.b64decode(r["data"]) for r in raw.json()["renditions"]],
      "multipart/mixed: and the renditions, byte for byte")

bundle = root / "Samples/suggestions/morning-run"
spec = json.loads((bundle / "suggestion.json").read_text())
files = {"bundle": ("suggestion.json", (bundle / "suggestion.json").read_bytes(), "application/json")}
for path in sorted(p.relative_to(bundle).as_posix() for p in (bundle / "files").rglob("*") if p.is_file()):
    files[path] = (path.rsplit("/", 1)[-1], (bundle / path).read_bytes())
answer = requests.post(f"{url}/v1/suggestions", files=files, timeout=600)
check(answer.status_code == 200, f"suggestion bundle: {answer.status_code} {answer.text[:200] if not answer.ok else ''}")
if answer.ok:
    result = answer.json()
    summary = result["suggestion"]["summary"]
    check(summary["items"] == len(spec["suggestion"]["items"]) and summary["failed"] == 0, f"every item succeeded: {summary}")
    check(all(base64.b64decode(f["data"]) for f in result["files"]), f"{len(result['files'])} files, none empty")

sys.exit(1 if failures else 0)
