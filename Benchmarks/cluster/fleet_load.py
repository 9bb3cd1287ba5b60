#!/usr/bin/env python3
"""Bounded load through the load balancer for make cluster-check (stdlib only).

  fleet_load.py drive --url http://127.0.0.1:18080 --files F... --seconds S --clients C \
      --results OUT.jsonl [--stop-file F] [--get PATH ...] [--get-every K] [--sign-key HEX --sign-salt HEX]
  fleet_load.py report OUT.jsonl EVENTS.txt
  fleet_load.py sign KEY_HEX SALT_HEX PATH     (prints PATH's signed on-demand URL path)

drive: C client threads, each in a loop until S seconds have passed (or file F exists): POST /v1/assets with one
of the files (raw body, X-Filename), or, with --get, every K-th request a GET of one of the
given paths (e.g. an on-demand rendition route, /v1/render/...). With --sign-key and --sign-salt,
each path is the signed part of an on-demand URL (/PRESET/file/NAME) and is sent as
/v1/render/SIGNATURE/PRESET/file/NAME (HMAC-SHA256 over salt + path, unpadded base64url, as
docs/on-demand.md says a backend signs). A client behaves as a polite
one would: on 503 with Retry-After it waits (at most 1 s here) and sends the same request again;
on anything else that is not an answer (a connection error, 502, 504) it retries at once, up to
4 attempts in all. Each attempt is one JSON line: start time, kind, status (0 = no answer),
latency, attempt number, whether the request finally succeeded.

report: splits attempts by the drill timeline in EVENTS.txt (lines "EPOCH label", the first
"drills-start" and the last "drills-end") into before / during / after and prints, per phase,
requests (first attempts), answered 2xx, 503 + Retry-After, other failed attempts, requests
that failed even after client retries, p50 / p99 latency of the 2xx, and requests/s.
Exit 1 when any request failed for good (goal: 0), or when an attempt failed without being a
503 with Retry-After other than one the SIGKILL cut while its answer was already on its way
(HAProxy can resend a request it could not deliver, not an answer it had begun forwarding:
the client gets a truncated answer and retries; those are counted apart).
"""
import base64, hashlib, hmac, http.client, json, os, random, sys, threading, time, urllib.parse


def signed(path, key_hex, salt_hex):
    """The on-demand URL of `path` (/PRESET/file/NAME) signed with the key and salt (hex)."""
    digest = hmac.new(bytes.fromhex(key_hex), bytes.fromhex(salt_hex) + path.encode(), hashlib.sha256).digest()
    return "/v1/render/" + base64.urlsafe_b64encode(digest).decode().rstrip("=") + path


def drive(args):
    url = urllib.parse.urlparse(args["url"])
    files = [(os.path.basename(f), open(f, "rb").read()) for f in args["files"]]
    gets = args["get"]
    if args["sign_key"]:
        gets = [signed(p, args["sign_key"], args["sign_salt"]) for p in gets]
    every = int(args["get_every"] or 3)
    stop = time.time() + float(args["seconds"])
    out = open(args["results"], "w")
    lock = threading.Lock()

    def one(kind, target, body, name):
        conn = http.client.HTTPConnection(url.hostname, url.port, timeout=90)
        start = time.time()
        status, retry_after = 0, None
        try:
            if kind == "upload":
                conn.request("POST", "/v1/assets", body=body,
                             headers={"X-Filename": name, "Content-Type": "application/octet-stream"})
            else:
                conn.request("GET", target)
            response = conn.getresponse()
            response.read()
            status, retry_after = response.status, response.getheader("Retry-After")
        except (OSError, http.client.HTTPException) as error:
            retry_after = None
            status = 0
            kind = kind + ":" + type(error).__name__
        finally:
            conn.close()
        return start, time.time() - start, status, retry_after, kind

    def client(number):
        rng = random.Random(number)
        count = 0
        while time.time() < stop and not (args["stop_file"] and os.path.exists(args["stop_file"])):
            count += 1
            if gets and count % every == 0:
                kind, target, body, name = "get", rng.choice(gets), None, None
            else:
                name, body = rng.choice(files)
                kind, target = "upload", "/v1/assets"
            request_id = f"{number}-{count}"
            for attempt in range(1, 5):
                start, latency, status, retry_after, detail = one(kind, target, body, name)
                ok = 200 <= status < 300
                record = {"id": request_id, "t": start, "kind": detail, "status": status, "latency": latency,
                          "attempt": attempt, "retryAfter": retry_after, "ok": ok}
                with lock:
                    out.write(json.dumps(record) + "\n")
                if ok or (400 <= status < 500):  # answered; a 4xx is not retried (the drive uses files the service converts)
                    break
                if status == 503 and retry_after is not None:
                    time.sleep(min(float(retry_after), 1.0))
                elif attempt < 4:
                    time.sleep(0.2)

    threads = [threading.Thread(target=client, args=(n,)) for n in range(int(args["clients"]))]
    for t in threads: t.start()
    for t in threads: t.join()
    out.close()


def percentile(values, p):
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))]


def report(results_path, events_path):
    attempts = [json.loads(line) for line in open(results_path)]
    events = [line.split(None, 1) for line in open(events_path) if line.strip()]
    start = min(float(t) for t, label in events if label.strip() == "drills-start")
    end = max(float(t) for t, label in events if label.strip() == "drills-end")
    def phase(t): return "before" if t < start else ("during" if t < end else "after")
    kills = [float(t) for t, label in events if label.startswith("SIGKILL")]
    def cut_by_kill(a):  # in flight when the instance was killed
        return not a["ok"] and a["status"] == 0 and any(a["t"] - 0.5 <= k <= a["t"] + a["latency"] + 0.5 for k in kills)
    requests = {}
    for a in attempts:
        requests.setdefault(a["id"], []).append(a)
    print("| phase | seconds | requests | 2xx | 503 + Retry-After (retried) | answers cut by the SIGKILL (retried) | other failed attempts | failed after retries | p50 s | p99 s | 2xx/s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    totals = {"requests": 0, "ok": 0, "503": 0, "cut": 0, "other": 0, "final": 0}
    t0, t1 = min(a["t"] for a in attempts), max(a["t"] + a["latency"] for a in attempts)
    spans = {"before": start - t0, "during": end - start, "after": t1 - end}
    others = []
    for name in ("before", "during", "after"):
        mine = {k: v for k, v in requests.items() if phase(v[0]["t"]) == name}
        flat = [a for v in mine.values() for a in v]
        ok = [a for a in flat if a["ok"]]
        r503 = [a for a in flat if a["status"] == 503 and a["retryAfter"] is not None]
        cut = [a for a in flat if cut_by_kill(a)]
        other = [a for a in flat if not a["ok"] and not (a["status"] == 503 and a["retryAfter"] is not None)
                 and not cut_by_kill(a)]
        others += other + cut
        final = [k for k, v in mine.items() if not any(a["ok"] for a in v)]
        lat = [a["latency"] for a in ok]
        print(f"| {name} | {spans[name]:.0f} | {len(mine)} | {len(ok)} | {len(r503)} | {len(cut)} | {len(other)} | {len(final)} | "
              f"{percentile(lat, 50):.2f} | {percentile(lat, 99):.2f} | {len(ok) / max(spans[name], 1e-9):.2f} |")
        for key, value in (("requests", len(mine)), ("ok", len(ok)), ("503", len(r503)), ("cut", len(cut)),
                           ("other", len(other)), ("final", len(final))):
            totals[key] += value
    kinds = {}
    for a in attempts:
        kinds[a["kind"].split(":")[0]] = kinds.get(a["kind"].split(":")[0], 0) + (a["attempt"] == 1)
    print(f"\ntotal: {totals['requests']} requests ({', '.join(f'{v} {k}' for k, v in sorted(kinds.items()))}), "
          f"{totals['ok']} answered 2xx, {totals['503']} 503 + Retry-After (retried by the client), "
          f"{totals['cut']} answers cut by the SIGKILL (retried by the client), "
          f"{totals['other']} other failed attempts, {totals['final']} failed after client retries")
    if len(kinds) > 1:  # uploads and GETs cost differently: their latencies apart
        print("\n| kind | phase | 2xx | p50 s | p99 s |\n|---|---|---|---|---|")
        for kind in sorted(kinds):
            for name in ("before", "during", "after"):
                lat = [a["latency"] for a in attempts if a["ok"] and a["kind"].split(":")[0] == kind
                       and phase(requests[a["id"]][0]["t"]) == name]
                print(f"| {kind} | {name} | {len(lat)} | {percentile(lat, 50):.2f} | {percentile(lat, 99):.2f} |")
    for a in others[:10]:
        print(f"  failed attempt: {a['kind']} status {a['status']} from +{a['t'] - start:.1f} to "
              f"+{a['t'] + a['latency'] - start:.1f} s (attempt {a['attempt']}){' cut by the SIGKILL' if cut_by_kill(a) else ''}")
    return 1 if totals["final"] or totals["other"] else 0


def main():
    if sys.argv[1] == "report":
        sys.exit(report(sys.argv[2], sys.argv[3]))
    if sys.argv[1] == "sign":
        print(signed(sys.argv[4], sys.argv[2], sys.argv[3]))
        return
    args = {"url": None, "files": [], "seconds": 60, "clients": 4, "results": None, "get": [], "get_every": None, "stop_file": None,
            "sign_key": None, "sign_salt": None}
    key = None
    for token in sys.argv[2:]:
        if token.startswith("--"):
            key = token[2:].replace("-", "_")
        elif isinstance(args.get(key), list):
            args[key].append(token)
        else:
            args[key] = token
    drive(args)


if __name__ == "__main__":
    main()
