"""Compares `journal-media inspect` capture dates with ExifTool's readings (groundtruth.json).

Usage: dates_report.py INSPECT_JSONL GROUNDTRUTH_JSON CORPUS_DIR

For every file journal-media recognises, ExifTool's capture date is the first of these it
reports, in the order of trust journal-media uses (CaptureDateResolver, XMPDates):

  1. the XMP sidecar beside the file (NAME.EXT.xmp, else NAME.xmp, any case), ExifTool's
     reading of that .xmp file: XMP-exif:DateTimeOriginal, XMP-photoshop:DateCreated,
     XMP-xmp:CreateDate with a time of day (Lightroom, darktable and Immich let the sidecar
     win over the file);
  2. ExifIFD:DateTimeOriginal, ExifIFD:CreateDate (DateTimeDigitized);
  3. XMP-exif:DateTimeOriginal, XMP-photoshop:DateCreated, XMP-xmp:CreateDate, each only
     with a time of day, then the date-only XMP-photoshop:DateCreated / XMP-xmp:CreateDate;
  4. the sidecar's date-only values; IFD0:ModifyDate;
  5. QuickTime:CreateDate (UTC), for a HEIF image sequence's moov/mvhd;
  for movies Keys:CreationDate, then QuickTime:CreateDate (UTC), then an AVCHD camcorder's
  H264:DateTimeOriginal (the MDPM SEI inside the H.264 stream, local time with its zone), a DV
  camcorder's DV:DateTimeOriginal, Matroska:DateTimeOriginal (DateUTC, UTC) and a WAV's
  RIFF:DateCreated (compared to the day).

Values ExifTool prints that are not real dates, or are dated after tomorrow, are skipped
(journal-media refuses them too) and listed with that reason. Files where ExifTool finds
none of these are counted separately (journal-media then falls back to the file name or
modification time). A file agrees when journal-media's value equals ExifTool's to the second
(to the day for a date-only value): the local time for EXIF/XMP/Keys dates, the UTC instant
for QuickTime:CreateDate.

Files journal-media does not recognise are not compared; those where ExifTool finds a date
are listed with their type: formats the toolkit does not read, and standalone .xmp files
(sidecars are not assets; the media file beside one gets its date).
"""
import datetime
import json
import os
import sys
from collections import Counter, defaultdict

inspect_path, truth_path, corpus = sys.argv[1], sys.argv[2], sys.argv[3]
truth = {t["SourceFile"]: t for t in json.load(open(truth_path))}
rows = [json.loads(line) for line in open(inspect_path) if line.strip()]

XMP_TAGS = [("XMP-exif:DateTimeOriginal", "exif:DateTimeOriginal"), ("XMP-photoshop:DateCreated", "photoshop:DateCreated"),
            ("XMP-xmp:CreateDate", "xmp:CreateDate")]
XMP_DATE_ONLY = XMP_TAGS[1:]
MOVIE_TAGS = [("Keys:CreationDate", "quicktime.creationdate"), ("QuickTime:CreateDate", "quicktime.creation_time"),
              ("H264:DateTimeOriginal", "h264.DateTimeOriginal"), ("DV:DateTimeOriginal", "dv.DateTimeOriginal"),
              ("Matroska:DateTimeOriginal", "matroska.DateUTC"), ("RIFF:DateCreated", "riff.DateCreated")]
UTC_TAGS = ("QuickTime:CreateDate", "Matroska:DateTimeOriginal")


def seconds_text(value):
    """ExifTool's raw date ('2023:06:01 14:03:22.12+02:00') cut to 'YYYY-MM-DDTHH:MM:SS'."""
    text = str(value).strip()
    if len(text) < 19:
        return text[:10].replace(":", "-", 2)
    return text[:4] + "-" + text[5:7] + "-" + text[8:10] + "T" + text[11:19]


def has_time(value):
    return len(str(value).strip()) >= 16


def refusal(value):
    """Why journal-media refuses a value ExifTool prints (None when it is a usable date): a
    real calendar date and clock time, year 1900 to tomorrow (ExifTool prints what is
    stored, e.g. year 2099 or 15:08:70)."""
    text = str(value).strip()
    try:
        date = datetime.datetime.strptime(text[:10], "%Y:%m:%d")
        if len(text) >= 19:
            datetime.datetime.strptime(text[:19], "%Y:%m:%d %H:%M:%S")
    except ValueError:
        return "not a real date or time"
    if date.year < 1900:
        return "before 1900"
    if date.date() > datetime.date.today() + datetime.timedelta(days=1):
        return "in the future"
    return None


def sidecar_of(source):
    """The corpus-relative path of the sidecar journal-media would use for `source`."""
    folder, name = os.path.split(source)
    try:
        names = {n.lower(): n for n in os.listdir(os.path.join(corpus, folder)) if n.lower().endswith(".xmp")}
    except OSError:
        return None
    stem = os.path.splitext(name)[0]
    for candidate in (name + ".xmp", stem + ".xmp"):
        if candidate.lower() in names and not name.lower().endswith(".xmp"):
            return os.path.join(folder, names[candidate.lower()])
    return None


def candidates(t, sidecar, movie):
    """(ExifTool tag, journal-media source) pairs in journal-media's order of trust."""
    if movie:
        return [(t, tag, ours) for tag, ours in MOVIE_TAGS]
    s = truth.get(sidecar, {}) if sidecar else {}
    result = [(s, tag, "xmp-sidecar." + ours, "time") for tag, ours in XMP_TAGS]
    result += [(t, "ExifIFD:DateTimeOriginal", "exif.DateTimeOriginal", None),
               (t, "ExifIFD:CreateDate", "exif.DateTimeDigitized", None)]
    result += [(t, tag, "xmp." + ours, "time") for tag, ours in XMP_TAGS]
    result += [(t, tag, "xmp." + ours, "date") for tag, ours in XMP_DATE_ONLY]
    result += [(s, tag, "xmp-sidecar." + ours, "date") for tag, ours in XMP_DATE_ONLY]
    result += [(t, "IFD0:ModifyDate", "exif.DateTime", None), (t, "QuickTime:CreateDate", "quicktime.creation_time", None)]
    return [(where, tag, ours) for where, tag, ours, form in result
            if form is None or tag not in where or (has_time(where[tag]) == (form == "time"))]


counts = Counter()
groups = defaultdict(Counter)  # sidecars, PNG XMP, PSD, HEIF sequences: found / agree
disagreements = []
refused = []
sidecar_overrides = []
unrecognised = []
no_date_sources = Counter()
for row in rows:
    source = os.path.relpath(row["source"], corpus)
    t = truth.get(source)
    if row["format"] is None:
        counts["not recognised (not compared)"] += 1
        if t is None:
            continue
        dated = [tag for tag in ("ExifIFD:DateTimeOriginal", "ExifIFD:CreateDate", "XMP-exif:DateTimeOriginal",
                                 "XMP-photoshop:DateCreated", "XMP-xmp:CreateDate", "IFD0:ModifyDate",
                                 "Keys:CreationDate", "QuickTime:CreateDate", "H264:DateTimeOriginal", "DV:DateTimeOriginal",
                                 "Matroska:DateTimeOriginal", "RIFF:DateCreated") if tag in t and refusal(t[tag]) is None]
        if dated:
            kind = t.get("File:FileType")
            if kind == "XMP":
                users = [os.path.relpath(r["source"], corpus) for r in rows
                         if r["format"] and sidecar_of(os.path.relpath(r["source"], corpus)) == source]
                why = ("XMP sidecar, not an asset; its date went to " + ", ".join(users)) if users else \
                      "standalone XMP file (no media file beside it), not an asset"
            else:
                why = f"{kind} is not a format journal-media reads"
            unrecognised.append((source, f"{dated[0]}={t[dated[0]]}", why))
        continue
    if t is None:
        counts["no ExifTool reading"] += 1
        continue
    movie = row["mediaType"].startswith(("video/", "audio/"))
    sidecar = None if movie else sidecar_of(source)
    expected = None
    for where, tag, ours in candidates(t, sidecar, movie):
        if tag not in where:
            continue
        why = refusal(where[tag])
        if why:
            refused.append((source, f"{tag}={where[tag]}", why))
            continue
        expected = (tag, ours, where[tag])
        break
    got = row["captureDate"] or {}
    if sidecar:
        groups["files with an XMP sidecar"]["found"] += 1
    if expected is None:
        counts["ExifTool finds no capture date"] += 1
        no_date_sources[got.get("source")] += 1
        continue
    counts["ExifTool finds a capture date"] += 1
    tag, our_source, value = expected
    labels = []
    if our_source.startswith("xmp-sidecar."):
        labels.append("date from an XMP sidecar")
        own = next(((tg, w[tg]) for w, tg, _ in candidates(t, None, False) if tg in w and refusal(w[tg]) is None), None)
        if own and seconds_text(own[1]) != seconds_text(value)[:len(seconds_text(own[1]))]:
            sidecar_overrides.append((source, f"sidecar {os.path.basename(sidecar)}: {tag}={value}", f"file's own {own[0]}={own[1]}"))
    if row["format"] == "png" and our_source.startswith("xmp."):
        labels.append("PNG with its date in XMP")
    if row["format"] == "psd":
        labels.append("PSD")
    if row["format"] in ("heic", "avif") and tag == "QuickTime:CreateDate":
        labels.append("HEIF image sequence (mvhd)")
    if tag == "H264:DateTimeOriginal":
        labels.append("AVCHD date in the H.264 stream")
    if tag in ("DV:DateTimeOriginal", "Matroska:DateTimeOriginal", "RIFF:DateCreated"):
        labels.append("DV, Matroska or WAV date read from the file's own structures")
    for label in labels:
        groups[label]["found"] += 1
    want = seconds_text(value)
    have = (got.get("utc") if tag in UTC_TAGS else got.get("local")) or ""
    same_time = have[:len(want)] == want
    if same_time:
        counts["agree"] += 1
        for label in labels:
            groups[label]["agree"] += 1
        if got.get("source") != our_source:
            counts["same time, other field"] += 1
            disagreements.append((source, f"{tag}={value}", f"same time from {got.get('source')} (expected {our_source})"))
    else:
        disagreements.append((source, f"{tag}={value}",
                              f"{got.get('source')}: local={got.get('local')} utc={got.get('utc')}"))

total = counts["ExifTool finds a capture date"]
print("capture dates vs ExifTool (groundtruth.json):")
for key in ["ExifTool finds a capture date", "agree", "same time, other field", "ExifTool finds no capture date",
            "not recognised (not compared)", "no ExifTool reading"]:
    print(f"  {key}: {counts[key]}")
if total:
    print(f"  agreement: {counts['agree']}/{total} = {100 * counts['agree'] / total:.1f} %")
for label in ["files with an XMP sidecar", "date from an XMP sidecar", "PNG with its date in XMP", "PSD",
              "HEIF image sequence (mvhd)", "AVCHD date in the H.264 stream"]:
    g = groups[label]
    if label == "files with an XMP sidecar":
        print(f"  {label}: {g['found']}")
    else:
        print(f"  {label}: {g['agree']}/{g['found']} agree")
print("  where ExifTool finds none, journal-media used: "
      + ", ".join(f"{k}×{n}" for k, n in no_date_sources.most_common()))
if disagreements:
    print("\ndisagreements (and agreements on the time from another field):")
    for source, theirs, ours in disagreements:
        print(f"  - {source}\n      exiftool: {theirs}\n      ours:     {ours}")
if sidecar_overrides:
    print("\nsidecar dates that replace the file's own (ExifTool reading the file alone would differ):")
    for source, sidecar, own in sidecar_overrides:
        print(f"  - {source}: {sidecar} (over the {own})")
if refused:
    print("\nvalues ExifTool prints that journal-media refuses (the next source is used):")
    for source, value, why in refused:
        print(f"  - {source}: {value}: {why}")
if unrecognised:
    print(f"\nfiles with an ExifTool date that journal-media does not read ({len(unrecognised)}, not compared):")
    for source, value, why in unrecognised:
        print(f"  - {source}: {value}: {why}")
