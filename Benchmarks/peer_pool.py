"""The process pool both Python peers run their files through (pillow_peer.py, pyvips_peer.py):
JOBS processes, one file per task, a file that fails reported on stderr and timed as 0.

run(convert_one) reads `OUT_DIR JOBS FILE...` from the command line, calls
convert_one(path, out_dir) per file, and prints one line: seconds and per-file latencies.
"""
import json
import os
import sys
import time
from multiprocessing import Pool

_convert_one = None


def _convert(args):
    path, out_dir = args
    try:
        return _convert_one(path, out_dir)
    except Exception as error:  # a broken file fails alone, as in journal-media's batch
        print(f"{path}: {error}", file=sys.stderr)
        return 0.0


def run(convert_one):
    global _convert_one
    _convert_one = convert_one  # inherited by the forked workers
    out_dir, jobs, files = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    os.makedirs(out_dir, exist_ok=True)
    start = time.perf_counter()
    with Pool(jobs) as pool:
        latencies = pool.map(_convert, [(f, out_dir) for f in files], chunksize=1)
    print(json.dumps({"seconds": time.perf_counter() - start, "latencies": latencies}))
