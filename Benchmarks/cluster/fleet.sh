#!/usr/bin/env bash
# make cluster-check, part 2: three `journal-media serve` instances behind HAProxy
# (deploy/haproxy/haproxy.cfg) on loopback, a bounded load of uploads and signed on-demand
# GETs (GET /v1/render/SIG/thumb/file/NAME: 512 px WebP of the same JPEGs, from a storage root
# the instances share), and meanwhile: SIGKILL one instance,
# restart it, then SIGTERM each in turn (waiting for it to drain and exit, restarting it,
# waiting until HAProxy has it up again). Prints requests, failures and p50/p99 per phase
# (Benchmarks/cluster/fleet_load.py), each instance's peak RSS, and fails when a request
# failed even after the client's retries or an attempt failed other than 503 + Retry-After.
# Usage: fleet.sh BIN FILES_DIR WORK    (FLEET_SECONDS: the phases before and after, default 20;
#        FLEET_CLIENTS: concurrent clients, default 6; FLEET_GET_EVERY: every K-th request of a
#        client is an on-demand GET, default 3; 0: uploads only)
set -euo pipefail
BIN=$(readlink -f "$1"); FILES_DIR=$(readlink -f "$2"); WORK=$3
HERE=$(cd "$(dirname "$0")" && pwd); REPO=$(cd "$HERE/../.." && pwd)
PHASE=${FLEET_SECONDS:-20}; CLIENTS=${FLEET_CLIENTS:-6}
BASE=${FLEET_PORT:-18080}
GET_EVERY=${FLEET_GET_EVERY:-3}
SERVE_FLAGS=(--config "$WORK/serve.json" --max-concurrent-assets 1 --max-queued 4 --drain-delay 3 --grace-period 20
             --log-level warning)
log() { printf '[fleet %s] %s\n' "$(date -u +%H:%M:%S)" "$*"; }
fail() { log "FAIL: $*"; exit 1; }
declare -A PID
cleanup() {
  trap '' INT TERM  # a second signal must not cut the clean-up short
  set +e
  touch "$WORK/stop"
  for i in 1 2 3; do [ -n "${PID[$i]:-}" ] && kill -9 "${PID[$i]}" 2>/dev/null; done
  [ -n "${HAP:-}" ] && kill "$HAP" 2>/dev/null
  [ -n "${LOAD:-}" ] && kill "$LOAD" 2>/dev/null
  wait 2>/dev/null
}
trap cleanup EXIT
trap 'exit 130' INT TERM
rm -rf "$WORK"; mkdir -p "$WORK"

# The load's files: JPEGs of 20 KB-1 MB. The on-demand GETs read copies of them under plain
# names (photo-N.jpg) from a storage root the three instances share, signed with a key made
# for this run (docs/on-demand.md), through a `thumb` preset: one 512 px WebP.
mapfile -t files < <(find "$FILES_DIR" -type f \( -iname '*.jpg' -o -iname '*.jpeg' \) -size -1000k -size +20k | sort | head -40)
[ ${#files[@]} -gt 0 ] || fail "no JPEG between 20 KB and 1 MB under $FILES_DIR"
mkdir -p "$WORK/photos"
for n in "${!files[@]}"; do cp "${files[$n]}" "$WORK/photos/photo-$n.jpg"; done
KEY=$(od -An -N32 -tx1 /dev/urandom | tr -d ' \n'); SALT=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
cat >"$WORK/serve.json" <<EOF
{"render": {"storageRoot": "$WORK/photos", "keys": [{"key": "$KEY", "salt": "$SALT"}]},
 "presets": {"thumb": {"renditions": [{"role": "thumb", "format": "webp", "width": 512, "quality": 80}]}}}
EOF

start_instance() {
  "$BIN" serve --host 127.0.0.1 --port $((BASE + $1)) "${SERVE_FLAGS[@]}" >>"$WORK/serve-$1.log" 2>&1 &
  PID[$1]=$!
  local t=$((SECONDS + 30))
  until curl -fsS -o /dev/null "http://127.0.0.1:$((BASE + $1))/readyz" 2>/dev/null; do
    [ $SECONDS -lt $t ] || fail "instance $1 not ready in 30 s"; sleep 0.2
  done
}
haproxy_state() {  # SERVER [scur]: its status (UP/DOWN/...) or its current sessions, from the admin socket
  python3 - "$WORK/haproxy.sock" "$1" "${2:-status}" <<'EOF'
import socket, sys
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); s.sendall(b"show stat\n")
data = b""
while chunk := s.recv(65536): data += chunk
for line in data.decode().splitlines():
    f = line.split(",")
    if len(f) > 17 and f[1] == sys.argv[2]: print(f[4] if sys.argv[3] == "scur" else f[17].split()[0])
EOF
}
wait_up() {
  local t=$((SECONDS + 30))
  until [ "$(haproxy_state "jm$1")" = UP ]; do [ $SECONDS -lt $t ] || fail "jm$1 not UP in HAProxy in 30 s"; sleep 0.2; done
}
peak_rss() { awk '/VmHWM/ {printf "%.0f", $2 / 1024}' "/proc/$1/status" 2>/dev/null || echo "?"; }
CPU_TOTAL=0  # CPU seconds (user + system) of every instance's life, added up as each one ends
TICKS=$(getconf CLK_TCK)
add_cpu() { local c; c=$(awk -v t="$TICKS" '{printf "%.2f", ($14 + $15) / t}' "/proc/$1/stat" 2>/dev/null || echo 0)
            CPU_TOTAL=$(echo "$CPU_TOTAL + $c" | bc); }
event() { echo "$(date +%s.%N) $*" >> "$WORK/events.txt"; log "$*"; }

for i in 1 2 3; do start_instance "$i"; done
JM_LISTEN=127.0.0.1:$BASE JM_BACKEND_1=127.0.0.1:$((BASE + 1)) JM_BACKEND_2=127.0.0.1:$((BASE + 2)) \
JM_BACKEND_3=127.0.0.1:$((BASE + 3)) JM_HAPROXY_SOCKET=$WORK/haproxy.sock \
  haproxy -W -db -f "$REPO/deploy/haproxy/haproxy.cfg" >"$WORK/haproxy.log" 2>&1 &
HAP=$!
for i in 1 2 3; do until [ -S "$WORK/haproxy.sock" ]; do sleep 0.2; done; wait_up "$i"; done
log "3 instances (serve ${SERVE_FLAGS[*]}) behind HAProxy on 127.0.0.1:$BASE, all UP"

# Only files the service converts (200 from one instance directly, as an upload and as a
# signed GET): a 422 is the file's own answer, not the fleet's, and would blur the count.
good=(); get_args=()
for n in "${!files[@]}"; do
  f=${files[$n]}
  code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 60 -H "X-Filename: $(basename "$f")" \
           -H 'Content-Type: application/octet-stream' --data-binary @"$f" "http://127.0.0.1:$((BASE + 1))/v1/assets")
  [ "$code" = 200 ] || continue
  good+=("$f")
  url=$(python3 "$HERE/fleet_load.py" sign "$KEY" "$SALT" "/thumb/file/photo-$n.jpg")
  code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 60 "http://127.0.0.1:$((BASE + 1))$url")
  [ "$code" = 200 ] || fail "GET $url answered $code, not 200"
  get_args+=(--get "/thumb/file/photo-$n.jpg")
done
files=("${good[@]}")
add_cpu "${PID[1]}"; CPU_TOTAL=$(echo "0 - $CPU_TOTAL" | bc)  # the pre-check's CPU is not the load's
[ ${#files[@]} -gt 0 ] || fail "no JPEG between 20 KB and 1 MB under $FILES_DIR that the service converts"
[ "$GET_EVERY" -gt 0 ] || get_args=()
python3 "$HERE/fleet_load.py" drive --url "http://127.0.0.1:$BASE" --files "${files[@]}" --seconds 900 \
  --clients "$CLIENTS" --results "$WORK/results.jsonl" --stop-file "$WORK/stop" \
  ${get_args[@]:+--get-every "$GET_EVERY" --sign-key "$KEY" --sign-salt "$SALT" "${get_args[@]}"} &
LOAD=$!
log "load: $CLIENTS clients, ${#files[@]} JPEGs (20 KB-1 MB) from $FILES_DIR, uploaded$([ ${#get_args[@]} -gt 0 ] && echo "; 1 request in ${GET_EVERY} of each client is instead a signed GET /v1/render/…/thumb/file/photo-N.jpg (512 px WebP)")"
sleep "$PHASE"

event drills-start
# SIGKILL while jm2 is busy with a request (up to 10 s wait for one), so a request is cut.
t=$((SECONDS + 10)); while [ "$(haproxy_state jm2 scur)" = 0 ] && [ $SECONDS -lt $t ]; do sleep 0.05; done
busy=$(haproxy_state jm2 scur)
rss=$(peak_rss "${PID[2]}"); add_cpu "${PID[2]}"; kill -9 "${PID[2]}"; wait "${PID[2]}" 2>/dev/null || true
event "SIGKILL jm2 with $busy request(s) in flight (peak RSS ${rss} MB)"
sleep 5
start_instance 2; wait_up 2; event "jm2 restarted and UP"
for i in 1 2 3; do
  rss=$(peak_rss "${PID[$i]}"); t=$(date +%s.%N)
  add_cpu "${PID[$i]}"  # (the last requests of its drain are not counted: a slight underestimate)
  kill -TERM "${PID[$i]}"; event "SIGTERM jm$i (peak RSS ${rss} MB)"
  status=0; wait "${PID[$i]}" || status=$?
  event "jm$i exited $status after $(echo "$(date +%s.%N) - $t" | bc | cut -c1-4) s"
  [ "$status" = 0 ] || fail "jm$i exited $status on SIGTERM"
  start_instance "$i"; wait_up "$i"; event "jm$i restarted and UP"
done
event drills-end
sleep "$PHASE"
touch "$WORK/stop"; wait "$LOAD"; LOAD=""
for i in 1 2 3; do log "jm$i peak RSS since its start: $(peak_rss "${PID[$i]}") MB"; add_cpu "${PID[$i]}"; done
status=0
python3 "$HERE/fleet_load.py" report "$WORK/results.jsonl" "$WORK/events.txt" | tee "$WORK/report.md" || status=$?
ok=$(grep -c '"ok": true' "$WORK/results.jsonl" || true)
log "instances' CPU: ${CPU_TOTAL} s for $ok answered requests (and the probes): $(echo "scale=3; $CPU_TOTAL / $ok" | bc) CPU s per request, $(echo "scale=2; $ok / $CPU_TOTAL" | bc) requests/s per busy CPU"
# HAProxy's log: retries/redispatches per request are the last field of "a/f/b/s/r" (+N: redispatched).
log "HAProxy resent $(grep -cE ' [0-9]+/[0-9]+/[0-9]+/[0-9]+/\+?[1-9][0-9]* [0-9]+/[0-9]+ "' "$WORK/haproxy.log" || true) requests to another server after a connection failure (retry-on + redispatch); $(grep -cE '" *$' "$WORK/haproxy.log" | head -1) requests logged"
log "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
exit $status
