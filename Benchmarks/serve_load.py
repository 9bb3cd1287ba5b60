#!/usr/bin/env python3
"""Load benchmark for `journal-media serve` (stdlib only: threads + http.client).

Usage: serve_load.py BIN INPUT_DIR [--jobs N] [--rounds R]

1. `convert` over the JPEGs of INPUT_DIR with --jobs N: the CLI's assets/s.
2. `serve --max-concurrent-assets N`, N client threads uploading the same JPEGs R times:
   assets/s (and its ratio to convert's), latency p50/p95/p99, errors, the server's peak RSS.
3. Overload: 4x the queue (N + queue) clients at once against a queue of N: how many 503s,
   how fast they came back, peak RSS.
Prints one Markdown table.
"""
import http.client, json, os, shutil, subprocess, sys, tempfile, threading, time


def peak_rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def start_server(binary, jobs, queue):
    proc = subprocess.Popen([binary, "serve", "--port", "0", "--max-concurrent-assets", str(jobs),
                             "--max-queued", str(queue), "--log-level", "error"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = proc.stdout.readline()
    port = int(line.rsplit(":", 1)[1])
    return proc, port


def post(port, body, name):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
    start = time.perf_counter()
    conn.request("POST", "/v1/assets", body=body, headers={"X-Filename": name,
                                                          "Content-Type": "application/octet-stream"})
    response = conn.getresponse()
    response.read()
    conn.close()
    return response.status, time.perf_counter() - start


def percentile(values, p):
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))
    return ordered[index]


def main():
    binary, folder = sys.argv[1], sys.argv[2]
    jobs = int(sys.argv[sys.argv.index("--jobs") + 1]) if "--jobs" in sys.argv else os.cpu_count()
    rounds = int(sys.argv[sys.argv.index("--rounds") + 1]) if "--rounds" in sys.argv else 3
    files = sorted(f for f in os.listdir(folder) if f.lower().endswith((".jpg", ".jpeg")))
    bodies = [(name, open(os.path.join(folder, name), "rb").read()) for name in files]

    # 1. convert on the same files, same job count.
    with tempfile.TemporaryDirectory() as work:
        inputs = os.path.join(work, "in")
        os.mkdir(inputs)
        for name, _ in bodies:
            # Copies, not links: convert follows a link only when its target is inside an input.
            shutil.copyfile(os.path.join(folder, name), os.path.join(inputs, name))
        best = None
        for _ in range(rounds):
            out = os.path.join(work, "out")
            subprocess.run(["rm", "-rf", out])
            start = time.perf_counter()
            done = subprocess.run([binary, "convert", inputs, "-o", out, "--jobs", str(jobs), "--quiet"], check=False)
            if done.returncode != 0:
                sys.exit(f"serve_load: convert exited {done.returncode}")
            with open(os.path.join(out, "manifest.json")) as manifest:
                converted = len(json.load(manifest)["assets"])
            if converted != len(bodies):
                sys.exit(f"serve_load: convert made {converted} manifest entries for {len(bodies)} files")
            elapsed = time.perf_counter() - start
            best = elapsed if best is None else min(best, elapsed)
        convert_rate = len(bodies) / best

    # 2. serve: N clients, each request one asset, R rounds over the files.
    proc, port = start_server(binary, jobs, 4 * jobs)
    work_items = [item for _ in range(rounds) for item in bodies]
    latencies, statuses, lock = [], [], threading.Lock()

    def client():
        while True:
            with lock:
                if not work_items:
                    return
                name, body = work_items.pop()
            status, seconds = post(port, body, name)
            with lock:
                latencies.append(seconds)
                statuses.append(status)

    start = time.perf_counter()
    threads = [threading.Thread(target=client) for _ in range(jobs)]
    for t in threads: t.start()
    for t in threads: t.join()
    elapsed = time.perf_counter() - start
    serve_rate = len(latencies) / elapsed
    errors = sum(1 for s in statuses if s != 200)
    rss = peak_rss_mb(proc.pid)
    proc.terminate(); proc.wait()

    # 3. overload: 4x (N + queue) clients at once against queue N.
    queue = jobs
    proc, port = start_server(binary, jobs, queue)
    clients = 4 * (jobs + queue)
    over_status, over_latency = [], []
    name, body = bodies[0]

    def burst():
        status, seconds = post(port, body, name)
        with lock:
            over_status.append(status)
            over_latency.append((status, seconds))

    threads = [threading.Thread(target=burst) for _ in range(clients)]
    for t in threads: t.start()
    for t in threads: t.join()
    refused = [s for st, s in over_latency if st == 503]
    over_rss = peak_rss_mb(proc.pid)
    proc.terminate(); proc.wait()

    print(f"| measure | value |")
    print(f"|---|---|")
    print(f"| files | {len(bodies)} JPEGs, {rounds} rounds, {jobs} jobs/slots and {jobs} clients |")
    print(f"| convert | {convert_rate:.2f} assets/s (best of {rounds}) |")
    print(f"| serve | {serve_rate:.2f} assets/s = {100 * serve_rate / convert_rate:.0f} % of convert; errors {errors} |")
    print(f"| serve latency | p50 {1000 * percentile(latencies, 50):.0f} ms, p95 {1000 * percentile(latencies, 95):.0f} ms, p99 {1000 * percentile(latencies, 99):.0f} ms |")
    print(f"| serve peak RSS | {rss:.0f} MB |")
    print(f"| overload ({clients} clients, {jobs} slots, queue {queue}) | {len(refused)} × 503, answered in p50 {1000 * percentile(refused, 50):.0f} ms / max {1000 * max(refused, default=float('nan')):.0f} ms; {over_status.count(200)} × 200; peak RSS {over_rss:.0f} MB |")


if __name__ == "__main__":
    main()
