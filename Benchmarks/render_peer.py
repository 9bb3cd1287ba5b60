#!/usr/bin/env python3
"""On-demand thumbnails side by side (issue 31, part of `make bench`): thumbor 7 (PyPI, its
file loader) and `journal-media serve`'s `GET /v1/render/…`, both on 127.0.0.1 over the same
folder of real photos, both making 512 px WebP thumbnails (fit inside 512x512, quality 80,
EXIF orientation applied, no metadata kept, nothing cached: thumbor without storage or
result storage, journal-media has no cache). Load from wrk (Debian's) at 8 connections,
cycling through every photo; requests/s and the latency p50/p99 wrk reports, non-2xx
answers, the machine's load average before each run, and the server's CPU seconds per
answered request (user + system of the server and its child processes over the wrk run, from
/proc: the figure that does not depend on what else the shared machine is doing).

Usage: render_peer.py JOURNAL_MEDIA_BIN THUMBOR_BIN PHOTO_DIR [--seconds S] [--connections C]

thumbor runs with --processes 0 (one process per core), journal-media with its defaults
(one asset per core). Unsigned URLs on both (`unsafe`): a signature costs microseconds.
Prints one Markdown table.
"""
import argparse, json, os, re, shutil, socket, subprocess, sys, tempfile, time, urllib.request


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until_up(url, seconds=60):
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=60) as reply:
                if reply.status == 200:
                    return reply.read()
        except Exception:
            time.sleep(0.2)
    raise SystemExit(f"no answer from {url}")


def cpu_seconds(root):
    """User + system CPU seconds of process `root` and its descendants (from /proc)."""
    stats = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = open(f"/proc/{entry}/stat").read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            stats[int(entry)] = (int(fields[1]), int(fields[11]) + int(fields[12]))
    family, grew = {root}, True
    while grew:
        more = {pid for pid, (ppid, _) in stats.items() if ppid in family} - family
        family |= more
        grew = bool(more)
    return sum(stats[pid][1] for pid in family if pid in stats) / os.sysconf("SC_CLK_TCK")


def wrk(paths, port, seconds, connections, workdir, server_pid):
    script = os.path.join(workdir, "paths.lua")
    with open(script, "w") as f:
        f.write("paths = {" + ",".join(json.dumps(p) for p in paths) + "}\n")
        f.write("i = 0\nrequest = function()\n  i = i % #paths + 1\n"
                "  return wrk.format(\"GET\", paths[i])\nend\n")
    load = open("/proc/loadavg").read().split()[:3]
    cpu_before = cpu_seconds(server_pid)
    out = subprocess.run(["wrk", "-t", "2", "-c", str(connections), "-d", f"{seconds}s", "--timeout", "60s",
                          "--latency", "-s", script, f"http://127.0.0.1:{port}"],
                         capture_output=True, text=True, check=True).stdout
    cpu = cpu_seconds(server_pid) - cpu_before
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    def latency(label):
        m = re.search(rf"^\s+{label}%\s+([\d.]+)(us|ms|s)\s*$", out, re.M)
        value, unit = float(m.group(1)), m.group(2)
        return value * {"us": 0.001, "ms": 1, "s": 1000}[unit]
    errors = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    socket_errors = re.search(r"Socket errors:.*", out)
    total = int(re.search(r"(\d+) requests in", out).group(1))
    return {"cpu_ms": 1000 * cpu / max(1, total), "rps": rps, "p50": latency("50"), "p99": latency("99"), "requests": total,
            "errors": int(errors.group(1)) if errors else 0,
            "socket": socket_errors.group(0) if socket_errors else "", "load": " ".join(load)}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("journal_media")
    parser.add_argument("thumbor")
    parser.add_argument("photos")
    parser.add_argument("--seconds", type=int, default=20)
    parser.add_argument("--connections", type=int, default=8)
    args = parser.parse_args()
    photos = os.path.abspath(args.photos)
    names = sorted(n for n in os.listdir(photos) if n.lower().endswith((".jpg", ".jpeg")))
    if not names:
        raise SystemExit(f"no JPEGs in {photos}")
    work = tempfile.mkdtemp(prefix="render-peer-")
    results = {}
    try:
        # journal-media: one preset, the thumbnail only.
        config = os.path.join(work, "serve.json")
        with open(config, "w") as f:
            json.dump({"render": {"allowUnsigned": True, "storageRoot": photos},
                       "presets": {"thumb": {"renditions": [{"role": "thumb", "format": "webp", "width": 512,
                                                             "quality": 80}]}}}, f)
        port = free_port()
        server = subprocess.Popen([args.journal_media, "serve", "--config", config, "--port", str(port),
                                   "--log-level", "error"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            paths = [f"/v1/render/unsafe/thumb/file/{n}" for n in names]
            body = wait_until_up(f"http://127.0.0.1:{port}{paths[0]}")
            assert body[8:12] == b"WEBP", "journal-media did not answer WebP"
            subprocess.run(["wrk", "-t", "1", "-c", "2", "-d", "3s",
                           f"http://127.0.0.1:{port}{paths[0]}"],
                           capture_output=True)
            results["journal-media serve (GET /v1/render)"] = wrk(paths, port, args.seconds, args.connections, work,
                                                                  server.pid)
        finally:
            server.terminate()
            server.wait(timeout=60)

        # thumbor 7: file loader over the same folder, no storage, no result storage.
        conf = os.path.join(work, "thumbor.conf")
        with open(conf, "w") as f:
            f.write(f"LOADER = 'thumbor.loaders.file_loader'\nFILE_LOADER_ROOT_PATH = {photos!r}\n"
                    "STORAGE = 'thumbor.storages.no_storage'\nRESULT_STORAGE = None\n"
                    "ALLOW_UNSAFE_URL = True\nQUALITY = 80\nWEBP_QUALITY = 80\nAUTO_WEBP = False\n"
                    "RESPECT_ORIENTATION = True\nPRESERVE_EXIF_INFO = False\nMAX_AGE = 86400\n"
                    "ENGINE = 'thumbor.engines.pil'\n")
        port = free_port()
        server = subprocess.Popen([args.thumbor, "--port", str(port), "--ip", "127.0.0.1", "--conf", conf,
                                   "--processes", "0", "--log-level", "error"],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        try:
            paths = [f"/unsafe/fit-in/512x512/filters:format(webp)/{n}" for n in names]
            body = wait_until_up(f"http://127.0.0.1:{port}{paths[0]}")
            assert body[8:12] == b"WEBP", "thumbor did not answer WebP"
            subprocess.run(["wrk", "-t", "1", "-c", "2", "-d", "3s", f"http://127.0.0.1:{port}{paths[0]}"],
                           capture_output=True)
            results["thumbor 7 (file loader, PIL engine)"] = wrk(paths, port, args.seconds, args.connections, work,
                                                                 server.pid)
        finally:
            os.killpg(server.pid, 15)
            server.wait(timeout=60)
    finally:
        shutil.rmtree(work, ignore_errors=True)

    print(f"On-demand 512 px WebP thumbnails of {len(names)} real photos ({photos}), wrk -c {args.connections} "
          f"-d {args.seconds}s, {os.cpu_count()} cores")
    print()
    print("| server | requests/s | p50 ms | p99 ms | requests | non-2xx | server CPU ms / request | load avg before |")
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    for name, r in results.items():
        print(f"| {name} | {r['rps']:.1f} | {r['p50']:.1f} | {r['p99']:.1f} | {r['requests']} | {r['errors']} | "
              f"{r['cpu_ms']:.0f} | {r['load']} |")
    jm, th = list(results.values())
    print()
    print(f"journal-media / thumbor: {jm['rps'] / th['rps']:.2f}x requests/s, p99 {jm['p99']:.0f} vs {th['p99']:.0f} ms, "
          f"{th['cpu_ms'] / jm['cpu_ms']:.2f}x less CPU per request")


if __name__ == "__main__":
    main()
