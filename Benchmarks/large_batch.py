#!/usr/bin/env python3
"""Large-batch costs of `journal-media convert` (issue 14, item 6): N tiny PNGs (hard links
to a few 16x16 files, 1,000 per folder), one run with --jobs 2, sampled every 0.5 s from /proc:
peak RSS (VmHWM), bytes written (wchar), CPU seconds, and progress from the manifest journal,
so the cost per file can be compared early and late in the run (flat = constant per asset).

Usage: Benchmarks/large_batch.py BINARY COUNT [WORKDIR]   (prints one JSON line)
Not part of `make bench`: 100,000 files take several minutes and ~1 GB of disk.
"""
import json, os, shutil, struct, subprocess, sys, time, zlib

def tiny_png():
    w = h = 16
    raw = b"".join(b"\0" + b"".join(bytes([x * 16, y * 16, 128]) for x in range(w)) for y in range(h))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))

def make_inputs(folder, count):
    if os.path.isdir(folder) and sum(len(f) for _, _, f in os.walk(folder)) == count:
        return
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    sources = []
    for i in range(count):
        if i % 25000 == 0:  # ext4 allows 65,000 links per file
            sources.append(os.path.join(folder, f".source{len(sources)}.png"))
            open(sources[-1], "wb").write(tiny_png())
        sub = os.path.join(folder, "%03d" % (i // 1000))
        if i % 1000 == 0:
            os.makedirs(sub, exist_ok=True)
        os.link(sources[-1], os.path.join(sub, "%06d.png" % i))

def main():
    binary, count = sys.argv[1], int(sys.argv[2])
    work = sys.argv[3] if len(sys.argv) > 3 else "/tmp/jm-large-batch"
    inp, out = os.path.join(work, f"in{count}"), os.path.join(work, f"out{count}")
    make_inputs(inp, count)
    shutil.rmtree(out, ignore_errors=True)
    start = time.time()
    p = subprocess.Popen([binary, "convert", inp, "-o", out, "--jobs", "2", "--quiet"], stderr=subprocess.DEVNULL)
    journal = os.path.join(out, ".manifest.journal.jsonl")
    hwm = wchar = 0; cpu = 0.0; offset = 0; lines = 0; samples = []
    while p.poll() is None:
        try:
            for line in open(f"/proc/{p.pid}/status"):
                if line.startswith("VmHWM"): hwm = int(line.split()[1])
            for line in open(f"/proc/{p.pid}/io"):
                if line.startswith("wchar"): wchar = int(line.split()[1])
            stat = open(f"/proc/{p.pid}/stat").read().rsplit(")", 1)[1].split()
            cpu = (int(stat[11]) + int(stat[12])) / os.sysconf("SC_CLK_TCK")
            if os.path.exists(journal):
                with open(journal, "rb") as f:
                    f.seek(offset); chunk = f.read(); offset += len(chunk); lines += chunk.count(b"\n")
        except (FileNotFoundError, ProcessLookupError):
            pass
        samples.append((time.time() - start, lines, cpu))
        time.sleep(0.5)
    elapsed = time.time() - start
    manifest = json.load(open(os.path.join(out, "manifest.json")))
    n = len(manifest["assets"])
    def per_file(a, b):
        sa = next((s for s in samples if s[1] >= a), None); sb = next((s for s in samples if s[1] >= b), None)
        if sa is None or sb is None or sb[1] == sa[1]: return None
        return {"wall_ms": round((sb[0] - sa[0]) / (sb[1] - sa[1]) * 1000, 2),
                "cpu_ms": round((sb[2] - sa[2]) / (sb[1] - sa[1]) * 1000, 2)}
    print(json.dumps({"files": n, "succeeded": manifest["summary"]["succeeded"], "elapsed_s": round(elapsed, 1),
        "wall_ms_per_file": round(elapsed / n * 1000, 2), "cpu_ms_per_file": round(cpu / n * 1000, 2),
        "files_5_to_15_pct": per_file(n * 0.05, n * 0.15), "files_85_to_95_pct": per_file(n * 0.85, n * 0.95),
        "peak_rss_MiB": round(hwm / 1024, 1), "written_MiB": round(wchar / 2**20, 1),
        "manifest_MiB": round(os.path.getsize(os.path.join(out, "manifest.json")) / 2**20, 1)}))

main()
