#!/usr/bin/env python3
"""`make service-check`, abuse suite (issue 27, items 2 and 5): a hostile client on loopback
against `journal-media serve`, each scene on a server of its own started here. Standard
library only; every wait is bounded. Prints the figures and exits 1 when a limit is missed.

  slowloris    200 connections trickling a header byte a second; /healthz p99 meanwhile
               (target <= 100 ms) and how soon the trickling connections are closed
  bodies       an endless chunked body to /v1/dates and a stalled upload to /v1/assets:
               408 (or closed) within the body timeout
  descriptors  the server under a descriptor limit of 1024 (soft = hard, as `prlimit
               --nofile=1024`), 1,100 sockets that sent one request line; /healthz meanwhile
               (must answer; p50 and p99 printed)
  decodes      2 rounds of 4 blur-filter SVGs past a 1 s deadline: 504s, then the server's
               threads and the CPU seconds it burns in the 10 s after the answers
  sigterm      SIGTERM with a stalled upload, half a head and 50 slowloris clients open:
               seconds until the process exits (grace period 3 s)

Usage: service_abuse_limits.py PATH/TO/journal-media [SCENE ...]
"""
import os
import resource
import signal
import socket
import subprocess
import sys
import threading
import time

BIN = sys.argv[1]
SCENES = sys.argv[2:] or ["slowloris", "bodies", "descriptors", "decodes", "sigterm"]
HELP = subprocess.run([BIN, "serve", "--help"], capture_output=True, text=True).stdout
# The limits' flags exist from issue 27 on; an older binary runs with its defaults (a "before" run).
HAS_LIMITS = "--header-timeout" in HELP
failures = []


def check(condition, what):
    print(("  ok   " if condition else "  FAIL ") + what, flush=True)
    if not condition:
        failures.append(what)


def limit_flags(**flags):
    if not HAS_LIMITS:
        return []
    return [item for name, value in flags.items() for item in (f"--{name.replace('_', '-')}", str(value))]


class Server:
    """A `journal-media serve` on a free loopback port, killed on exit."""

    def __init__(self, *arguments, nofile=None):
        def limit():
            if nofile:
                resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))
        self.process = subprocess.Popen([BIN, "serve", "--port", "0", "--log-level", "critical", *arguments],
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, preexec_fn=limit)
        line = self.process.stdout.readline().decode()
        if "listening on" not in line:
            raise SystemExit(f"the server did not start: {line!r}")
        self.port = int(line.rsplit(":", 1)[1])

    def threads(self):
        return len(os.listdir(f"/proc/{self.process.pid}/task"))

    def cpu_seconds(self):
        with open(f"/proc/{self.process.pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self):
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


def connect(port, timeout=5):
    return socket.create_connection(("127.0.0.1", port), timeout=timeout)


def request(port, method="GET", path="/healthz", body=b"", headers=None, timeout=10):
    """One request on a new connection: (status, seconds); status 0 when it failed."""
    start = time.monotonic()
    try:
        with connect(port, timeout) as client:
            fields = {"Host": "127.0.0.1", "Connection": "close", "Content-Length": str(len(body)), **(headers or {})}
            head = f"{method} {path} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in fields.items()) + "\r\n"
            client.sendall(head.encode() + body)
            answer = b""
            while b"\r\n" not in answer:
                chunk = client.recv(65536)
                if not chunk:
                    break
                answer += chunk
            status = int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/1.1 ") else 0
    except OSError:
        status = 0
    return status, time.monotonic() - start


def wait_closed(client, seconds):
    """Reads until the server closes `client` or `seconds` pass: (bytes, seconds or None)."""
    start = time.monotonic()
    received = b""
    client.settimeout(0.1)
    while time.monotonic() - start < seconds:
        try:
            chunk = client.recv(65536)
        except socket.timeout:
            continue
        except OSError:
            return received, time.monotonic() - start
        if not chunk:
            return received, time.monotonic() - start
        received += chunk
    return received, None


def trickle(clients, data, every):
    """Sends `data` on each of `clients` every `every` seconds, on a thread, until the event it
    returns is set (a closed client is skipped)."""
    stop = threading.Event()

    def run():
        while not stop.is_set():
            for client in clients:
                try:
                    client.send(data)
                except OSError:
                    pass
            stop.wait(every)
    threading.Thread(target=run, daemon=True).start()
    return stop


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def health_latencies(port, count, pause=0.02):
    times, failed = [], 0
    for _ in range(count):
        status, seconds = request(port, timeout=5)
        if status == 200:
            times.append(seconds)
        else:
            failed += 1
        time.sleep(pause)
    return times, failed


def slowloris():
    print("slowloris: 200 connections trickling a header byte per second", flush=True)
    server = Server(*limit_flags(header_timeout=5))
    try:
        clients = []
        for _ in range(200):
            client = connect(server.port)
            client.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            clients.append(client)
        stop = trickle(clients, b"X", every=1)
        times, failed = health_latencies(server.port, 200)
        p50, p99 = percentile(times, 0.5) * 1000, percentile(times, 0.99) * 1000
        print(f"  /healthz during slowloris: p50 {p50:.1f} ms, p99 {p99:.1f} ms, {failed} failed of 200")
        check(p99 <= 100 and failed == 0, f"/healthz p99 {p99:.1f} ms <= 100 ms, none failed")
        deadline = time.monotonic() + 12
        open_count = len(clients)
        while time.monotonic() < deadline:
            open_count = 0
            for client in clients:
                client.settimeout(0)
                try:
                    open_count += client.recv(1, socket.MSG_PEEK) != b""
                except BlockingIOError:
                    open_count += 1
                except OSError:
                    pass
            if open_count == 0:
                break
            time.sleep(0.5)
        stop.set()
        print(f"  slowloris connections still open 12 s after the start: {open_count} of 200")
        check(open_count == 0, "every slowloris connection closed by the header timeout (5 s)")
        for client in clients:
            client.close()
    finally:
        server.stop()


def bodies():
    print("bodies: an endless chunked body to /v1/dates, a stalled upload to /v1/assets", flush=True)
    server = Server(*limit_flags(body_timeout=2))
    try:
        client = connect(server.port)
        client.sendall(b"POST /v1/dates HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Filename: e.jpg\r\n"
                       b"Transfer-Encoding: chunked\r\n\r\n")
        stop = trickle([client], b"1\r\na\r\n", every=0.1)
        answer, seconds = wait_closed(client, 40)
        stop.set()
        client.close()
        status = answer.split(b" ", 2)[1].decode() if answer.startswith(b"HTTP/1.1 ") else "none"
        print(f"  endless chunked /v1/dates: answer {status}, closed after "
              + (f"{seconds:.2f} s" if seconds is not None else "> 40 s"))
        check(seconds is not None and seconds < 6, "endless body ended within the body timeout (2 s) + margin")
        client = connect(server.port)
        client.sendall(b"POST /v1/assets HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Filename: a.jpg\r\n"
                       b"Content-Length: 1000000\r\n\r\n\xff\xd8\xff")
        answer, seconds = wait_closed(client, 40)
        client.close()
        status = answer.split(b" ", 2)[1].decode() if answer.startswith(b"HTTP/1.1 ") else "none"
        print(f"  stalled /v1/assets upload: answer {status}, closed after "
              + (f"{seconds:.2f} s" if seconds is not None else "> 40 s"))
        check(status == "408" and seconds is not None and seconds < 6, "stalled upload 408 within the body timeout")
    finally:
        server.stop()


def descriptors():
    print("descriptors: server at nofile 1024, 1,100 sockets that sent one request line", flush=True)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard < 1300:
        print("  skipped: this shell's own descriptor limit is under 1,300")
        return
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    server = Server(*limit_flags(header_timeout=10), nofile=1024)
    clients = []
    try:
        for _ in range(1100):
            try:
                client = connect(server.port, timeout=2)
                client.send(b"GET /healthz HTTP/1.1\r\n")
                clients.append(client)
            except OSError:
                pass
        time.sleep(1)
        times, failed = health_latencies(server.port, 100)
        p50 = percentile(times, 0.5) * 1000 if times else float("inf")
        p99 = percentile(times, 0.99) * 1000 if times else float("inf")
        print(f"  /healthz with 1,100 one-line sockets: p50 {p50:.1f} ms, p99 {p99:.1f} ms, {failed} failed of 100")
        # The complaint was /healthz timing out; the 100 ms target is the slowloris scene's.
        check(failed == 0 and p99 <= 1000, "/healthz answered (none failed, p99 <= 1 s) while the sockets were open")
    finally:
        for client in clients:
            client.close()
        server.stop()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


SVG = ('<svg xmlns="http://www.w3.org/2000/svg" width="4000" height="4000" viewBox="0 0 1000 1000">'
       '<defs><filter id="b" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="60"/>'
       '<feGaussianBlur stdDeviation="60"/><feGaussianBlur stdDeviation="60"/></filter></defs>'
       + "".join(f'<rect x="{i * 7 % 900}" y="{i * 13 % 900}" width="900" height="900" '
                 f'fill="#{i * 40 % 256:02x}80c0" filter="url(#b)"/>' for i in range(12))
       + "</svg>").encode()


def decodes():
    print("decodes: 2 rounds of 4 blur-filter SVGs past a 1 s deadline (2 slots)", flush=True)
    server = Server("--deadline", "1", "--max-concurrent-assets", "2", "--max-queued", "8")
    try:
        request(server.port, "GET", "/v1/color?background=%23000000")
        threads_before = server.threads()
        cpu_start = server.cpu_seconds()
        for round_number in (1, 2):
            results = [None] * 4

            def upload(index):
                results[index] = request(server.port, "POST", "/v1/assets", SVG,
                                         {"X-Filename": f"blur-{index}.svg"}, timeout=120)
            workers = [threading.Thread(target=upload, args=(i,)) for i in range(4)]
            start = time.monotonic()
            for worker in workers:
                worker.start()
            for worker in workers:
                worker.join()
            answered = time.monotonic() - start
            threads_answered = server.threads()
            cpu_answered = server.cpu_seconds()
            time.sleep(10)
            burnt = server.cpu_seconds() - cpu_answered
            threads_after = server.threads()
            statuses = [status for status, _ in results]
            print(f"  round {round_number}: statuses {statuses}, all answered after {answered:.1f} s")
            print(f"  threads: {threads_before} before the first round, {threads_answered} at the answers, "
                  f"{threads_after} 10 s later")
            print(f"  CPU seconds burnt in the 10 s after the answers: {burnt:.2f} "
                  f"(since the first upload: {server.cpu_seconds() - cpu_start:.2f})")
            check(statuses == [504] * 4, "four 504s")
            check(burnt < 1.0, "no drawing goes on after the answers (< 1 CPU s in 10 s)")
            check(threads_after <= threads_before + 4, "threads back near where they were")
    finally:
        server.stop()


def sigterm():
    print("sigterm: a stalled upload, half a head and 50 slowloris clients open; grace period 3 s", flush=True)
    server = Server("--grace-period", "3", *limit_flags(body_timeout=600, header_timeout=600))
    clients = []
    try:
        upload = connect(server.port)
        upload.sendall(b"POST /v1/dates HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Filename: s.jpg\r\n"
                       b"Content-Length: 1000000\r\n\r\n\xff\xd8")
        asset = connect(server.port)
        asset.sendall(b"POST /v1/assets HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Filename: s.jpg\r\n"
                      b"Content-Length: 1000000\r\n\r\n\xff\xd8")
        clients += [upload, asset]
        for _ in range(50):
            client = connect(server.port)
            client.sendall(b"GET /healthz HTTP/1.1\r\n")
            clients.append(client)
        time.sleep(0.5)
        start = time.monotonic()
        server.process.send_signal(signal.SIGTERM)
        try:
            code = server.process.wait(timeout=45)
            seconds = time.monotonic() - start
        except subprocess.TimeoutExpired:
            code, seconds = None, None
        print("  exit after SIGTERM: " + (f"{seconds:.2f} s, status {code}" if seconds is not None else "none in 45 s"))
        check(seconds is not None and seconds <= 3 + 2 and code == 0, "exits 0 within grace (3 s) + 2 s")
    finally:
        for client in clients:
            client.close()
        server.stop()


for scene in SCENES:
    globals()[scene]()
if failures:
    print(f"service_abuse_limits: {len(failures)} limit(s) missed")
    sys.exit(1)
print("service_abuse_limits: every limit held")
