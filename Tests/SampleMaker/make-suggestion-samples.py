"""Re-creates Samples/suggestions/: three small suggestion bundles that together cover all
15 item types, non-Latin texts (Arabic, Hebrew, Chinese, Japanese, Korean, Devanagari,
Thai, Greek, Cyrillic, emoji), missing optional fields, unknown types and values, a broken
file reference, a corrupt file and paths that try to leave the bundle's folder.

Pictures are copies of other samples (real camera-like JPEG with GPS, a Live Photo pair, a
transparent PNG, an SVG) or made here with libvips from Tests/SampleMaker/scene.py. The
output is committed; this script documents how it was made. Needs: python3-numpy,
libvips-tools (`vips`)."""
import json, math, os, shutil, subprocess, sys, tempfile

here = os.path.dirname(os.path.abspath(__file__))
samples = os.path.normpath(os.path.join(here, "..", "..", "Samples"))
out = os.path.join(samples, "suggestions")
shutil.rmtree(out, ignore_errors=True)
work = tempfile.mkdtemp()


def scene(path, width, height, variant):
    ppm = os.path.join(work, "scene.ppm")
    subprocess.run([sys.executable, os.path.join(here, "scene.py"), ppm, str(width), str(height), str(variant)], check=True)
    subprocess.run(["vips", "copy", ppm, path + "[Q=80,strip]"], check=True)


def copy(source, bundle, name):
    target = os.path.join(out, bundle, "files", name)
    os.makedirs(os.path.dirname(target), exist_ok=True)
    shutil.copyfile(os.path.join(samples, source), target)


def write(bundle, data):
    os.makedirs(os.path.join(out, bundle), exist_ok=True)
    with open(os.path.join(out, bundle, "suggestion.json"), "w", encoding="utf-8") as f:
        json.dump(data, f, ensure_ascii=False, indent=1)
        f.write("\n")


def map_picture(path):
    """A map-like picture, as an app's MapKit snapshot of the run would be: land, a river,
    parks and streets drawn as SVG and rendered by libvips (librsvg) to an 800×600 PNG."""
    streets = "".join(f'<path d="M0 {y} L800 {y + 40}"/>' for y in range(30, 600, 95))
    streets += "".join(f'<path d="M{x} 0 L{x - 60} 600"/>' for x in range(60, 860, 120))
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600">'
           '<rect width="800" height="600" fill="#f1efe9"/>'
           '<path d="M150 180 h190 v150 h-190 z M520 380 h170 v120 h-170 z" fill="#cfe8c4"/>'
           f'<g stroke="#ffffff" stroke-width="9" fill="none">{streets}</g>'
           '<path d="M-20 470 C200 400 330 520 520 430 S760 300 830 340" stroke="#a9d3f0" stroke-width="34" fill="none"/>'
           '</svg>')
    with tempfile.NamedTemporaryFile("w", suffix=".svg", delete=False) as f:
        f.write(svg)
    subprocess.run(["vips", "copy", f.name, path + "[compression=9,strip]"], check=True)
    os.unlink(f.name)


def route(lat, lon, count, radius_m, start_seconds, wobble=0.0):
    """A closed loop like a run around a park, one point per 3 s."""
    points = []
    for i in range(count):
        a = 2 * math.pi * i / (count - 1)
        r = radius_m * (1 + 0.25 * math.sin(3 * a) + wobble * math.sin(11 * a))
        dlat = r * math.sin(a) / 111_320
        dlon = r * (math.cos(a) - 1) / (111_320 * math.cos(math.radians(lat)))
        t = start_seconds + 3 * i
        points.append({"latitude": round(lat + dlat, 6), "longitude": round(lon + dlon, 6),
                       "altitude": round(34 + 3 * math.sin(a), 1),
                       "timestamp": "2025-10-04T%02d:%02d:%02dZ" % (t // 3600, t // 60 % 60, t % 60)})
    return points


# 1. morning-run (de_DE, Europe/Berlin): the example moment.
b = "morning-run"
copy("orientation-6-gps-p3.jpg", b, "photo.jpg")          # has GPS: outputs must not
copy("live/IMG_0001.JPG", b, "live/IMG_0001.JPG")
copy("live/IMG_0001.MOV", b, "live/IMG_0001.MOV")
copy("alpha-disc.png", b, "run-icon.png")
os.makedirs(os.path.join(out, b, "files"), exist_ok=True)
scene(os.path.join(out, b, "files", "artwork.jpg"), 240, 240, 3)
subprocess.run(["vips", "copy", os.path.join(here, "icon.svg"), os.path.join(out, b, "files", "mood.png")], check=True)
map_picture(os.path.join(out, b, "files", "map.png"))
write(b, {
    "schemaVersion": 1, "bundleId": "0b6c9f7e-3d1a-4d4e-9a53-2f1f3c0f9a11",
    "timeZone": "Europe/Berlin", "locale": "de_DE",
    "suggestion": {
        "title": "Morning run along the river",
        "date": {"start": "2025-10-04T05:58:00Z", "end": "2025-10-04T07:10:00Z"},
        "items": [
            {"id": "A1", "type": "photo", "photo": "files/photo.jpg", "date": "2025-10-04T07:05:00Z"},
            {"id": "A2", "type": "livePhoto", "image": "files/live/IMG_0001.JPG", "video": "files/live/IMG_0001.MOV",
             "date": "2025-10-04T07:06:00Z"},
            {"id": "6F0E", "type": "workout", "icon": "files/run-icon.png",
             "route": route(52.5201, 13.4012, 1041, 1600, 6 * 3600),
             "map": "files/map.png",
             "mapRegion": {"centerLatitude": 52.5201, "centerLongitude": 13.3717,
                           "latitudeDelta": 0.04341, "longitudeDelta": 0.09448},
             "details": {"activityType": 37, "localizedName": "Outdoor Run", "activeEnergyKcal": 512.4,
                         "distanceMeters": 10021.7, "averageHeartRateBpm": 151.2,
                         "date": {"start": "2025-10-04T06:00:00Z", "end": "2025-10-04T06:52:10Z"}}},
            {"id": "A4", "type": "motionActivity", "steps": 12345, "movementType": "runningWalking",
             "date": {"start": "2025-10-04T05:58:00Z", "end": "2025-10-04T07:10:00Z"}},
            {"id": "A5", "type": "reflection", "prompt": "Was hat dich heute früh überrascht, als du am Fluss entlang gelaufen bist?",
             "color": "#0A84FF"},
            {"id": "A6", "type": "stateOfMind", "kind": "momentaryEmotion", "valence": 0.62,
             "valenceClassification": "pleasant", "labels": ["joyful", "proud", "calm"],
             "associations": ["fitness", "selfCare"], "icon": "files/mood.png",
             "lightBackground": [{"color": "#FFE7B3", "location": 0}, {"color": "#FFC15E", "location": 1}],
             "darkBackground": [{"color": "#5A3A00", "location": 0}, {"color": "#2B1B00", "location": 1}],
             "date": "2025-10-04T07:08:00Z"},
            {"id": "A7", "type": "song", "song": "Über den Fluss", "artist": "Die Läufer", "album": "Morgenrot",
             "artwork": "files/artwork.jpg", "date": "2025-10-04T06:10:00Z"},
        ]}})

# 2. world-scripts (en_US, America/New_York): texts in many scripts; the other card types.
b = "world-scripts"
copy("scene.webp", b, "contact.webp")
copy("icon.svg", b, "app-icon.svg")
os.makedirs(os.path.join(out, b, "files"), exist_ok=True)
scene(os.path.join(out, b, "files", "poster.jpg"), 200, 300, 1)
write(b, {
    "schemaVersion": 1, "bundleId": "world-scripts-2025", "timeZone": "America/New_York", "locale": "en_US",
    "suggestion": {
        "title": "A week of small moments 🌍",
        "date": {"start": "2025-06-01T12:00:00Z", "end": "2025-06-07T22:00:00Z"},
        "items": [
            {"id": "W1", "type": "reflection", "prompt": "ما الذي جعلك تبتسم اليوم؟", "color": "#F57C00"},
            {"id": "W2", "type": "reflection", "prompt": "על מה אתה אסיר תודה השבוע?", "color": "#4CAF50"},
            {"id": "W3", "type": "reflection", "prompt": "今天最让你开心的事情是什么？ 今日はどんな一日でしたか？ 오늘 무엇을 배웠나요?"},
            {"id": "W4", "type": "reflection", "prompt": "आज आपने क्या नया सीखा? วันนี้คุณรู้สึกอย่างไร 🙂🎉",
             "color": "#2196F3"},
            {"id": "W5", "type": "contact", "name": "Анна Ковалёва"},
            {"id": "W6", "type": "contact", "name": "Zoë Ångström", "photo": "files/contact.webp"},
            {"id": "W7", "type": "location", "place": "Ακρόπολη", "city": "Αθήνα", "latitude": 37.9715,
             "longitude": 23.7257, "date": "2025-06-03T09:30:00Z", "isWorkLocation": True},
            {"id": "W8", "type": "locationGroup", "locations": [
                {"place": "경복궁", "city": "서울", "latitude": 37.5796, "longitude": 126.977},
                {"place": "Bukchon", "city": "Seoul", "latitude": 37.5826, "longitude": 126.983},
                {"place": "N Seoul Tower", "latitude": 37.5512, "longitude": 126.9882, "date": "2025-06-04T11:00:00Z"}]},
            {"id": "W9", "type": "podcast", "episode": "How maps lie", "show": "The Cartography Hour",
             "date": "2025-06-05T07:15:00Z"},
            {"id": "W10", "type": "genericMedia", "title": "Chapter 12", "artist": "A. Writer", "album": "The Long Book",
             "appIcon": "files/app-icon.svg"},
            {"id": "W11", "type": "eventPoster", "title": "Summer concert 🎶", "placeName": "Central Park",
             "image": "files/poster.jpg", "start": "2025-06-06T23:00:00Z", "end": "2025-06-07T01:30:00Z", "isHost": True},
            {"id": "W12", "type": "workoutGroup", "activeEnergyKcal": 640, "averageHeartRateBpm": 128,
             "workouts": [
                {"route": route(40.7812, -73.9665, 400, 700, 12 * 3600),
                 "details": {"activityType": 13, "distanceMeters": 8200,
                             "date": {"start": "2025-06-02T12:00:00Z", "end": "2025-06-02T12:30:00Z"}}},
                {"details": {"activityType": 57, "date": {"start": "2025-06-02T13:00:00Z", "end": "2025-06-02T13:40:00Z"}}}]},
            {"id": "W13", "type": "stateOfMind", "kind": "dailyMood", "valence": -0.4,
             "labels": ["stressed", "worried", "drained"], "associations": ["work", "money", "currentEvents"],
             "date": "2025-06-05T21:00:00Z"},
        ]}})

# 3. edge-cases (ja_JP, Asia/Tokyo): minimal items, unknown types and values, bad references.
b = "edge-cases"
copy("video-rotated-90.mp4", b, "clip.mp4")
copy("scene.webp", b, "picker-tile.webp")
copy("truncated.jpg", b, "corrupt.jpg")
os.symlink("../../../orientation-6-gps-p3.jpg", os.path.join(out, b, "files", "escape.jpg"))
write(b, {
    "schemaVersion": 1, "bundleId": "edge-cases", "timeZone": "Asia/Tokyo", "locale": "ja_JP",
    "suggestion": {
        "title": "週末のまとめ",
        "items": [
            {"id": "E1", "type": "video", "video": "files/clip.mp4", "date": "2025-08-09T03:00:00Z"},
            {"id": "E2", "type": "travelTicket", "fallbackImage": "files/picker-tile.webp", "carrier": "JR"},
            {"id": "E3", "type": "futureThing"},
            {"id": "E4", "type": "photo", "photo": "files/missing.jpg"},
            {"id": "E5", "type": "photo", "photo": "../../orientation-6-gps-p3.jpg"},
            {"id": "E6", "type": "song", "song": "Absolute", "artwork": "/etc/hostname"},
            {"id": "E7", "type": "contact", "name": "山田太郎", "photo": "files/escape.jpg"},
            {"id": "E8", "type": "motionActivity", "steps": 8765, "movementType": "skipping"},
            {"id": "E9", "type": "stateOfMind", "kind": "momentaryEmotion", "valence": 0.9,
             "labels": ["happy", "starstruck"]},
            {"id": "E10", "type": "eventPoster", "title": "花火大会"},
            {"id": "E11", "type": "workout", "details": {"activityType": 9999}},
            {"id": "E12", "type": "location"},
            {"id": "E13", "type": "genericMedia", "appIcon": "files/corrupt.jpg"},
        ]}})
shutil.rmtree(work)
print("wrote", out)
