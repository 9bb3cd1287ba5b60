#!/usr/bin/env python3
"""One line per shard of a Slurm array run (make cluster-check): the node(s) it ran on (more
than one when requeued), its manifest's counts and rate, and per run of the task the wall
time, CPU time and peak RSS that /usr/bin/time recorded.

Usage: shard_figures.py OUTPUT N LOGS ARRAY_JOB_ID
"""
import json, pathlib, re, sys

out, n, logs, job = pathlib.Path(sys.argv[1]), int(sys.argv[2]), pathlib.Path(sys.argv[3]), sys.argv[4]
for i in range(n):
    summary = json.loads((out / f"manifest.shard-{i}-of-{n}.json").read_text())["summary"]
    task_log = logs / f"task-{job}_{i}.out"
    runs = [line for line in task_log.read_text().splitlines() if line.startswith("shard ")] if task_log.exists() else []
    hosts = [m.group(1) for line in runs if (m := re.search(r" on (\S+) ", line))]
    timing = logs / f"time-{job}_{i}.txt"
    rows = [line.split() for line in timing.read_text().splitlines() if re.match(r"^[\d.]+ [\d.]+ [\d.]+ \d+$", line)] \
        if timing.exists() else []
    times = "; ".join(f"{float(r[0]):.1f} s wall, {float(r[1]) + float(r[2]):.1f} s CPU, {int(r[3]) // 1024} MB peak RSS"
                      for r in rows)
    killed = len(runs) - len(rows)
    print(f"    shard {i}/{n} on {','.join(hosts) or '?'}: {summary['assets']} assets, processed {summary['processed']}, "
          f"skipped {summary['skipped']}, {summary['elapsedSeconds']} s, {summary['assetsPerSecond']} assets/s"
          f" ({times}{'; ' + str(killed) + ' run(s) killed' if killed > 0 else ''})")
