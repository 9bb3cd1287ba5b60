#!/usr/bin/env bash
# make bench (part): one realistic suggestion bundle end to end with `journal-media
# suggestion`: a photo, a Live Photo, a workout with a 3,000-point route, a reflection, a
# state of mind and a song with artwork (files copied from Samples/). Reports the best wall
# time and the CPU seconds (user + system) of RUNS runs at --jobs 1 and --jobs 2, and the
# cards per second. Environment: RUNS (default 3), OUTPUT (a Markdown table is written there).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-3}
work=$(pwd)/.build/bench/bundle
rm -rf "$work"; mkdir -p "$work/in/files"
bin=$(swift build -c release --show-bin-path)/journal-media
cp Samples/orientation-6-gps-p3.jpg "$work/in/files/photo.jpg"
cp Samples/live/IMG_0001.JPG Samples/live/IMG_0001.MOV "$work/in/files/"
cp Samples/suggestions/morning-run/files/artwork.jpg "$work/in/files/artwork.jpg"
python3 - "$work/in/suggestion.json" <<'PY'
import json, math, sys
route = []
for i in range(3000):
    a = 2 * math.pi * i / 2999
    r = 1800 * (1 + 0.3 * math.sin(5 * a))
    route.append({"latitude": round(52.52 + r * math.sin(a) / 111320, 6),
                  "longitude": round(13.40 + r * (math.cos(a) - 1) / (111320 * 0.6088), 6)})
items = [
    {"id": "photo", "type": "photo", "photo": "files/photo.jpg"},
    {"id": "live", "type": "livePhoto", "image": "files/IMG_0001.JPG", "video": "files/IMG_0001.MOV"},
    {"id": "run", "type": "workout", "route": route,
     "details": {"activityType": 37, "distanceMeters": 12040, "activeEnergyKcal": 640, "averageHeartRateBpm": 149,
                 "date": {"start": "2025-10-04T06:00:00Z", "end": "2025-10-04T07:02:00Z"}}},
    {"id": "reflection", "type": "reflection", "prompt": "What would you like to remember about this morning?", "color": "#0A84FF"},
    {"id": "mood", "type": "stateOfMind", "kind": "dailyMood", "valence": 0.5, "labels": ["calm", "grateful"],
     "associations": ["fitness"], "date": "2025-10-04T20:00:00Z"},
    {"id": "song", "type": "song", "song": "Morning", "artist": "Someone", "artwork": "files/artwork.jpg"},
]
json.dump({"schemaVersion": 1, "bundleId": "bench", "timeZone": "Europe/Berlin", "locale": "de_DE",
           "suggestion": {"title": "A morning", "items": items}}, open(sys.argv[1], "w"))
PY
table="| jobs | best wall s | CPU s (user+sys) | cards (light+dark pairs) | card pairs / s (wall) |
|---|---|---|---|---|"
for jobs in 1 2; do
  best=""; cpu=""
  for _ in $(seq "$runs"); do
    rm -rf "$work/out"
    /usr/bin/time -f "%e %U %S" -o "$work/time.txt" "$bin" suggestion "$work/in/suggestion.json" --output "$work/out" --jobs "$jobs" --quiet
    read -r wall user sys < "$work/time.txt"
    if [ -z "$best" ] || awk -v a="$wall" -v b="$best" 'BEGIN{exit !(a<b)}'; then
      best=$wall; cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN{printf "%.2f", u+s}')
    fi
  done
  cards=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['summary']['cards'])" "$work/out/bench/suggestion.json")
  rate=$(awk -v c="$cards" -v w="$best" 'BEGIN{printf "%.1f", c/w}')
  table="$table
| $jobs | $best | $cpu | $cards | $rate |"
done
echo "Whole bundle (photo, Live Photo, workout with a 3,000-point route, reflection, state of mind, song with artwork):"
echo "$table"
if [ -n "${OUTPUT:-}" ]; then echo "$table" > "$OUTPUT"; fi
