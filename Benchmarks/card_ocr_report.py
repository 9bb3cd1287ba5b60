"""Word accuracy of tesseract's reading of the rendered cards (see card_ocr.sh).

A word counts as read when the OCR text contains it (case-folded, surrounding punctuation
stripped). Words are what the card drew: the lines of NAME.txt; OCR output is NAME.ocr.txt.
"""
import pathlib
import re
import sys
import unicodedata

folder = pathlib.Path(sys.argv[1])


def words(text):
    # An en or em dash and a hyphen look alike; OCR writing one for the other is not a misread.
    text = text.replace("\u2013", "-").replace("\u2014", "-")
    out = []
    for token in re.split(r"\s+", text):
        token = token.strip(".,;:!?()[]{}\"'“”„‘’·—–-…").casefold()
        if token:
            out.append(unicodedata.normalize("NFC", token))
    return out


def latin(text):
    letters = [c for c in text if c.isalpha()]
    return all("LATIN" in unicodedata.name(c, "") for c in letters)


total = found = 0
for expected_file in sorted(folder.glob("*.txt")):
    if expected_file.name.endswith(".ocr.txt"):
        continue
    ocr_file = expected_file.with_name(expected_file.stem + ".ocr.txt")
    expected = words(expected_file.read_text())
    read = set(words(ocr_file.read_text())) if ocr_file.exists() else set()
    if not latin(expected_file.read_text()):
        print(f"{expected_file.stem}: not Latin script, not scored")
        continue
    hits = sum(1 for word in expected if word in read)
    total += len(expected)
    found += hits
    missed = [word for word in expected if word not in read]
    print(f"{expected_file.stem}: {hits}/{len(expected)} words" + (f" (missed: {' '.join(missed)})" if missed else ""))
print(f"overall: {found}/{total} words read = {100 * found / max(1, total):.1f} %")
