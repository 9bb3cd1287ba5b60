#!/usr/bin/env python3
"""Abuse suite for `journal-media serve`'s door and memory (issue 27, items 1, 3, 4, 6 side).

Starts its own servers from the given binary on free loopback ports and checks, as a hostile
client would:

  door       every /v1 route spelled with //, ///, /./, .., %2F, a trailing slash or another
             case, sent byte for byte without the token: never answered by the route
             (only 401, or 400 invalidPath; 404 counts as refused too).
  multipart  a 50 MB body of `a` under a 70-character boundary of `a` (crafted) against a
             50 MB ordinary form: seconds to the answer; then /healthz latency (p50/p99/max,
             a new connection per probe every 10 ms) while 4 crafted uploads run over and
             over for --multipart-seconds: p99 must be <= --max-healthz-ms (100).
  uploads    64 concurrent 30 MB uploads (a real JPEG padded with zeros) to a fresh server at
             its default settings: statuses, and the server's peak RSS (VmHWM from
             /proc/PID/status), which must be <= --max-rss-mb (600).

Stdlib only; loopback only; every socket has a timeout. Prints one line per figure and exits
1 when a limit is not met (all sections still run). Usage:

  python3 Benchmarks/service_abuse_door.py .build/debug/journal-media [--only door,uploads]
"""
import argparse
import functools
import multiprocessing
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

print = functools.partial(print, flush=True)  # figures appear as they are measured

TOKEN = "abuse-suite-token"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SAMPLE = os.path.join(ROOT, "Samples", "orientation-6-gps-p3.jpg")


class Server:
    """`journal-media serve --port 0 …` with a token; stopped with SIGTERM (then SIGKILL)."""

    def __init__(self, binary, extra=()):
        self.token_file = tempfile.NamedTemporaryFile("w", prefix="jm-abuse-token-", delete=False)
        self.token_file.write(TOKEN)
        self.token_file.close()
        self.process = subprocess.Popen(
            [binary, "serve", "--port", "0", "--token-file", self.token_file.name, "--log-level", "critical", *extra],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        line = self.process.stdout.readline().decode()
        match = re.search(r"http://127\.0\.0\.1:(\d+)", line)
        if not match:
            self.stop()
            raise SystemExit(f"server did not start: {line!r}")
        self.port = int(match.group(1))

    def peak_rss_mb(self):
        with open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
        return float("nan")

    def threads(self):
        return len(os.listdir(f"/proc/{self.process.pid}/task"))

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=40)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        os.unlink(self.token_file.name)


def exchange(port, head, body=b"", timeout=120.0):
    """Sends `head` (request line + headers, no blank line) and `body` as given while reading
    the answer, as curl does (a server may answer before it reads the body, and then need not
    read it); returns (status, headers dict, body bytes). Status 0: no answer in time."""
    request = (head + "\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n").encode("latin-1")
    sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)

    def send():
        try:
            sock.sendall(request)
            view = memoryview(body)
            for offset in range(0, len(view), 1 << 20):
                sock.sendall(view[offset:offset + (1 << 20)])
        except OSError:
            pass  # answered and closed early, or closed by the reader below

    sender = threading.Thread(target=send, daemon=True)
    sender.start()
    data, deadline = b"", time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            try:
                chunk = sock.recv(65536)
            except socket.timeout:
                break
            if not chunk:
                break
            data += chunk
            parsed = parse(data)
            if parsed and parsed[3]:
                break
    except OSError:
        pass
    finally:
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        sock.close()
        sender.join(timeout=5)
    parsed = parse(data)
    return (parsed[0], parsed[1], parsed[2]) if parsed else (0, {}, b"")


def parse(data):
    split = data.find(b"\r\n\r\n")
    if split < 0:
        return None
    lines = data[:split].decode("latin-1").split("\r\n")
    try:
        status = int(lines[0].split(" ")[1])
    except (IndexError, ValueError):
        return None
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    body = data[split + 4:]
    length = headers.get("content-length")
    return status, headers, body, length is not None and len(body) >= int(length)


def auth():
    return f"\r\nAuthorization: Bearer {TOKEN}"


def door(binary, failures):
    server = Server(binary)
    try:
        photo = open(SAMPLE, "rb").read()
        routes = [("POST", "/v1/assets", ""), ("POST", "/v1/suggestions", ""),
                  ("GET", "/v1/color", "?background=%23000000"), ("POST", "/v1/dates", "")]
        answered, seen = 0, {}
        for method, path, query in routes:
            rest = path[len("/v1/"):]
            spellings = ["/" + path, "//" + path, "/v1//" + rest, "/v1/" + rest + "/", "/." + path,
                         "/v1/./" + rest, "/v1/../v1/" + rest, "/v1%2F" + rest, "/%2Fv1/" + rest,
                         path.upper(), "/V1/" + rest, "/v1/" + rest.capitalize()]
            for spelling in spellings:
                body = photo if method == "POST" else b""
                head = f"{method} {spelling}{query} HTTP/1.1\r\nX-Filename: photo.jpg"
                if method == "POST":
                    head += f"\r\nContent-Length: {len(body)}"
                status, _, _ = exchange(server.port, head, body)
                seen[status] = seen.get(status, 0) + 1
                if status not in (400, 401, 404):
                    answered += 1
                    print(f"door: {method} {spelling} without a token answered {status}")
        total = sum(seen.values())
        print(f"door: {total} requests without a token in other spellings; statuses {dict(sorted(seen.items()))}; "
              f"{answered} reached a route")
        if answered:
            failures.append(f"door: {answered} of {total} unauthenticated spellings reached a route")
    finally:
        server.stop()


def crafted_body(size):
    boundary = "a" * 70
    return boundary, b"a" * size


def ordinary_body(size):
    boundary = "------------------------d74496d66958873e"
    head = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"x.bin\"\r\n"
            "Content-Type: application/octet-stream\r\n\r\n").encode()
    tail = f"\r\n--{boundary}--\r\n".encode()
    return boundary, head + b"\0" * (size - len(head) - len(tail)) + tail


def post_form(port, boundary, body, timeout=300.0):
    head = (f"POST /v1/assets HTTP/1.1{auth()}\r\nContent-Type: multipart/form-data; boundary={boundary}"
            f"\r\nContent-Length: {len(body)}")
    return exchange(port, head, body, timeout=timeout)


def upload_loop(port, boundary, body, stop, answers):
    """Posts the form over and over until `stop` (time.monotonic, shared across fork); puts
    the statuses on `answers`."""
    statuses = []
    while time.monotonic() < stop:
        try:
            statuses.append(post_form(port, boundary, body)[0])
        except OSError:
            statuses.append(0)
    answers.put(statuses)


def probe_healthz(port, until):
    """/healthz latencies in ms (a new connection each, every 10 ms) until `until`; a failed
    probe counts as 30 s."""
    latencies = []
    while time.monotonic() < until:
        start = time.monotonic()
        try:
            status, _, _ = exchange(port, "GET /healthz HTTP/1.1", timeout=30)
        except OSError:
            status = 0
        latencies.append((time.monotonic() - start) * 1000 if status == 200 else 30_000)
        time.sleep(0.01)
    return latencies


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def multipart(binary, failures, seconds, max_healthz_ms, repeats):
    server = Server(binary, ["--max-concurrent-assets", "2"])
    try:
        size = 50_000_000
        for label, (boundary, body) in (("crafted", crafted_body(size)), ("ordinary", ordinary_body(size))):
            times = []
            for _ in range(repeats):
                start = time.monotonic()
                status, _, _ = post_form(server.port, boundary, body)
                times.append(time.monotonic() - start)
            if times:
                print(f"multipart: {label} 50 MB form answered {status} in {min(times):.2f} s (best of {repeats})")
        idle = probe_healthz(server.port, time.monotonic() + 3)
        print(f"multipart: /healthz idle for 3 s: {len(idle)} probes, p50 {percentile(idle, 0.5):.1f} ms, "
              f"p99 {percentile(idle, 0.99):.1f} ms (the machine's own noise)")
        boundary, body = crafted_body(size)
        stop = time.monotonic() + seconds
        # The uploaders run in processes of their own: threads here would share the prober's
        # interpreter lock, and their turns would show up as /healthz latency.
        answers = multiprocessing.Queue()
        workers = [multiprocessing.Process(target=upload_loop, args=(server.port, boundary, body, stop, answers), daemon=True)
                   for _ in range(4)]
        for worker in workers:
            worker.start()
        time.sleep(0.2)
        latencies = probe_healthz(server.port, stop)
        uploads = []
        for worker in workers:  # a server that parses slowly is stopped below rather than awaited
            worker.join(timeout=max(0.0, stop + 60 - time.monotonic()))
            if worker.is_alive():
                worker.terminate()
        while not answers.empty():
            uploads.extend(answers.get())
        p50, p99 = percentile(latencies, 0.5), percentile(latencies, 0.99)
        print(f"multipart: /healthz during 4 crafted 50 MB uploads for {seconds:.0f} s: {len(latencies)} probes, "
              f"p50 {p50:.1f} ms, p99 {p99:.1f} ms, max {max(latencies):.1f} ms; {len(uploads)} uploads answered "
              f"{sorted(set(uploads))}")
        if p99 > max_healthz_ms:
            failures.append(f"multipart: /healthz p99 {p99:.1f} ms > {max_healthz_ms} ms")
    finally:
        server.stop()


def uploads(binary, failures, count, size, max_rss_mb):
    server = Server(binary)
    try:
        photo = open(SAMPLE, "rb").read()
        body = photo + b"\0" * (size - len(photo))
        baseline = server.peak_rss_mb()
        statuses, barrier = [], threading.Barrier(count)
        lock = threading.Lock()

        def one(index):
            barrier.wait()
            head = (f"POST /v1/assets HTTP/1.1{auth()}\r\nX-Filename: big-{index}.jpg\r\n"
                    f"Content-Length: {len(body)}")
            try:
                status = exchange(server.port, head, body, timeout=600)[0]
            except OSError:
                status = 0
            with lock:
                statuses.append(status)

        start = time.monotonic()
        threads = [threading.Thread(target=one, args=(index,)) for index in range(count)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.monotonic() - start
        peak = server.peak_rss_mb()
        summary = {status: statuses.count(status) for status in sorted(set(statuses))}
        print(f"uploads: {count} concurrent {size / 1e6:.0f} MB uploads in {elapsed:.1f} s: statuses {summary}; "
              f"server peak RSS (VmHWM) {peak:.0f} MB (at start {baseline:.0f} MB); threads now {server.threads()}")
        if peak > max_rss_mb:
            failures.append(f"uploads: peak RSS {peak:.0f} MB > {max_rss_mb} MB")
        if summary.get(200, 0) == 0:
            failures.append("uploads: no upload succeeded")
        if any(status not in (200, 503) for status in statuses):
            failures.append(f"uploads: statuses other than 200/503: {summary}")
    finally:
        server.stop()


def main():
    # `timeout` or Ctrl-C: unwind, so each section's `finally` stops its server.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary")
    parser.add_argument("--only", default="door,multipart,uploads")
    parser.add_argument("--multipart-seconds", type=float, default=10)
    parser.add_argument("--max-healthz-ms", type=float, default=100)
    parser.add_argument("--repeats", type=int, default=3, help="timed single multipart uploads of each kind")
    parser.add_argument("--uploads", type=int, default=64)
    parser.add_argument("--upload-bytes", type=int, default=30_000_000)
    parser.add_argument("--max-rss-mb", type=float, default=600)
    args = parser.parse_args()
    failures = []
    sections = args.only.split(",")
    if "door" in sections:
        door(args.binary, failures)
    if "multipart" in sections:
        multipart(args.binary, failures, args.multipart_seconds, args.max_healthz_ms, args.repeats)
    if "uploads" in sections:
        uploads(args.binary, failures, args.uploads, args.upload_bytes, args.max_rss_mb)
    for failure in failures:
        print(f"FAIL {failure}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
