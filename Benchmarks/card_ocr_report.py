"""Word accuracy of rendered cards under OCR (see card-ocr.sh). For every card item of
every bundle in the folder, runs `tesseract <fallback.png> - -l eng+deu` on the light and the
dark card and counts how many of the expected Latin-script words it finds (case-folded,
punctuation stripped). Prints a line per card and the totals."""
import json, os, re, subprocess, sys, unicodedata

root = sys.argv[1]
latin = re.compile(r"^[0-9A-Za-z\u00C0-\u024F]+$")


def words(text):
    result = []
    for raw in re.split(r"[\s·–/]+", text):
        word = unicodedata.normalize("NFC", raw.strip(".,:;!?\"'()…“”„‚‘’&+")).casefold()
        if len(word) >= 2 and latin.match(word):
            result.append(word)
    return result


def ocr(path):
    run = subprocess.run(["tesseract", path, "-", "-l", "eng+deu", "--psm", "3"], capture_output=True, text=True)
    return set(words(run.stdout))


total = found = 0
per_language = {}
for bundle in sorted(os.listdir(root)):
    folder = os.path.join(root, bundle)
    summary = json.load(open(os.path.join(folder, "suggestion.json"), encoding="utf-8"))
    language = summary["locale"].split("_")[0]
    for item in summary["items"]:
        if item["output"] != "card":
            continue
        texts = [item["headline"] or "", *item["lines"], *item["chips"], item["footnote"] or "", item["badge"] or ""]
        expected = [w for t in texts for w in words(t)]
        if not expected:
            continue
        for appearance, role in (("light", "fallback"), ("dark", "fallbackDark")):
            rendition = next((r for r in item["renditions"] if r["role"] == role), None)
            if rendition is None:
                continue
            seen = ocr(os.path.join(folder, rendition["path"]))
            hits = sum(1 for w in expected if w in seen)
            total += len(expected)
            found += hits
            stats = per_language.setdefault(language, [0, 0])
            stats[0] += hits
            stats[1] += len(expected)
            missed = [w for w in expected if w not in seen]
            print(f"{bundle} {item['id']:>5} {item['type']:<14} {appearance:<5} {hits}/{len(expected)}"
                  + (f"  missed: {' '.join(missed[:8])}" if missed else ""))
print()
for language, (hits, count) in sorted(per_language.items()):
    print(f"bundles in {language}: {hits}/{count} words = {100 * hits / max(count, 1):.1f} %")
print(f"word accuracy (Latin-script words, light and dark cards): {found}/{total} = {100 * found / max(total, 1):.1f} %")
