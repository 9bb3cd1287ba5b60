"""Compares `journal-media inspect` capture dates with ExifTool's readings (groundtruth.json).

Usage: dates_report.py INSPECT_JSONL GROUNDTRUTH_JSON CORPUS_DIR

For every file journal-media recognises, ExifTool's capture date is the first of these it
reports, the same order of trust journal-media uses: ExifIFD:DateTimeOriginal,
ExifIFD:CreateDate (DateTimeDigitized), XMP-exif:DateTimeOriginal, XMP-photoshop:DateCreated,
XMP-xmp:CreateDate, IFD0:ModifyDate; for movies Keys:CreationDate, then QuickTime:CreateDate
(UTC). Files where ExifTool finds none of them are counted separately (journal-media then
falls back to the file name or modification time). A file agrees when journal-media's value
equals ExifTool's to the second: the local time for EXIF/XMP/Keys dates, the UTC instant
for QuickTime:CreateDate. Disagreements are listed file by file.
"""
import datetime
import json
import os
import sys
from collections import Counter

inspect_path, truth_path, corpus = sys.argv[1], sys.argv[2], sys.argv[3]
truth = {t["SourceFile"]: t for t in json.load(open(truth_path))}
rows = [json.loads(line) for line in open(inspect_path) if line.strip()]

PHOTO_TAGS = [
    ("ExifIFD:DateTimeOriginal", "exif.DateTimeOriginal"),
    ("ExifIFD:CreateDate", "exif.DateTimeDigitized"),
    ("XMP-exif:DateTimeOriginal", "xmp.exif:DateTimeOriginal"),
    ("XMP-photoshop:DateCreated", "xmp.photoshop:DateCreated"),
    ("XMP-xmp:CreateDate", "xmp.xmp:CreateDate"),
    ("IFD0:ModifyDate", "exif.DateTime"),
]
MOVIE_TAGS = [("Keys:CreationDate", "quicktime.creationdate"), ("QuickTime:CreateDate", "quicktime.creation_time")]


def seconds_text(value):
    """ExifTool's raw date ('2023:06:01 14:03:22.12+02:00') cut to 'YYYY-MM-DDTHH:MM:SS'."""
    text = str(value).strip()
    if len(text) < 19:
        return text.replace(":", "-", 2)
    return text[:4] + "-" + text[5:7] + "-" + text[8:10] + "T" + text[11:19]


def plausible(value):
    """The same rules journal-media applies: a real calendar date and clock time, year 1900
    to next year (ExifTool prints what is stored, e.g. year 2099 or 15:08:70)."""
    text = str(value).strip()
    try:
        date = datetime.datetime.strptime(text[:10], "%Y:%m:%d")
        if len(text) >= 19:
            datetime.datetime.strptime(text[:19], "%Y:%m:%d %H:%M:%S")
    except ValueError:
        return False
    return 1900 <= date.year <= datetime.date.today().year + 1 and date.date() <= datetime.date.today() + datetime.timedelta(days=1)


counts = Counter()
disagreements = []
no_date_sources = Counter()
for row in rows:
    if row["format"] is None:
        counts["not recognised (not compared)"] += 1
        continue
    source = os.path.relpath(row["source"], corpus)
    t = truth.get(source)
    if t is None:
        counts["no ExifTool reading"] += 1
        continue
    tags = MOVIE_TAGS if row["mediaType"].startswith(("video/", "audio/")) else PHOTO_TAGS
    expected = next(((tag, ours, t[tag]) for tag, ours in tags if tag in t and plausible(t[tag])), None)
    got = row["captureDate"] or {}
    if expected is None:
        counts["ExifTool finds no capture date"] += 1
        no_date_sources[got.get("source")] += 1
        continue
    counts["ExifTool finds a capture date"] += 1
    tag, our_source, value = expected
    want = seconds_text(value)
    have = (got.get("utc") if tag == "QuickTime:CreateDate" else got.get("local")) or ""
    same_time = have[:len(want)] == want if len(want) < 19 else have[:19] == want
    if same_time and got.get("source") == our_source:
        counts["agree"] += 1
    elif same_time:
        counts["agree"] += 1
        counts["same time, other field"] += 1
        disagreements.append((source, f"{tag}={value}", f"same time from {got.get('source')}: local={got.get('local')} utc={got.get('utc')}"))
    else:
        disagreements.append((source, f"{tag}={value}", f"{got.get('source')}: local={got.get('local')} utc={got.get('utc')}"))

total = counts["ExifTool finds a capture date"]
print("capture dates vs ExifTool (groundtruth.json):")
for key in ["ExifTool finds a capture date", "agree", "same time, other field", "ExifTool finds no capture date", "not recognised (not compared)",
            "no ExifTool reading"]:
    print(f"  {key}: {counts[key]}")
if total:
    print(f"  agreement: {counts['agree']}/{total} = {100 * counts['agree'] / total:.1f} %")
print("  where ExifTool finds none, journal-media used: "
      + ", ".join(f"{k}×{n}" for k, n in no_date_sources.most_common()))
if disagreements:
    print("\ndisagreements (and agreements on the time from another field):")
    for source, theirs, ours in disagreements:
        print(f"  - {source}\n      exiftool: {theirs}\n      ours:     {ours}")
