#!/usr/bin/env bash
# `make service-check`: schemathesis (PyPI, in a venv under .build-venv-service) against
# openapi.yaml, on a `journal-media serve` started on a free loopback port, with every check
# (`--checks all`): no 5xx, no status code, content type, body or header outside the spec,
# schema-valid requests accepted and invalid ones refused, 405 + Allow for methods a path does
# not take, missing required headers refused (a request may take up to 120 s: a suggestion
# renders cards).
# Prints schemathesis' summary. Then uploads encoded by Python `requests` (forms,
# multipart/mixed answers, a suggestion bundle): service_multipart_check.py. Then the abuse
# suite's limits part (slowloris, slow and endless bodies, descriptor exhaustion, timed-out
# decodes, SIGTERM with stalled clients; servers of its own): service_abuse_limits.py; and its
# door and memory part (route spellings without the token, crafted multipart + /healthz p99,
# 64 concurrent 30 MB uploads + peak RSS; servers of its own): service_abuse_door.py.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=.build-venv-service
MAX_EXAMPLES="${MAX_EXAMPLES:-60}"
if [ ! -x "$VENV/bin/st" ]; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "schemathesis>=4,<5"
fi
swift build --product journal-media
BIN="$(swift build --show-bin-path)/journal-media"
LOG="$(mktemp)"
"$BIN" serve --port 0 --max-concurrent-assets 2 --max-queued 64 --deadline 60 --log-level error >"$LOG" 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true; rm -f "$LOG"' EXIT
for _ in $(seq 1 100); do grep -q "listening on" "$LOG" && break; sleep 0.1; done
URL="$(grep -o 'http://[0-9.:]*' "$LOG" | head -1)"
echo "service-check: server at $URL"
"$VENV/bin/st" --config-file Benchmarks/schemathesis.toml run openapi.yaml --url "$URL" \
  --checks all \
  --max-examples "$MAX_EXAMPLES" --workers 2 --no-color --request-timeout 120
"$VENV/bin/python" Benchmarks/service_multipart_check.py "$URL"
python3 Benchmarks/service_abuse_limits.py "$BIN"
timeout 900 "$VENV/bin/python" Benchmarks/service_abuse_door.py "$BIN"
