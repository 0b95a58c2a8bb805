"""Times loading an optrace into `run.slices` from Python against the CLI's
`htpscope summary` of the same file (scripts/bench-python.sh runs it).

    python3 bench_python.py --htpscope BUILD/htpscope --repeat 7 TRACE...

htpscope (the package) must be importable: PYTHONPATH=BUILD/python.  For each
trace: the CLI as a child process (start-up and report included), and in this
process `htpscope.load_run(TRACE).slices` (import excluded: it happens once
per session), each timed REPEAT times, interleaved, best and median kept.
The Python side is split into load_run (C++: read + join) and the DataFrame
(columns filled in C++, handed to NumPy).  Exit status 1 when the slices'
work differs from the CLI's work cycles.
"""

import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import time

import htpscope


def cli_seconds(binary, trace):
    start = time.perf_counter()
    subprocess.run([binary, "summary", trace], check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def python_seconds(trace):
    gc.collect()
    start = time.perf_counter()
    run = htpscope.load_run(trace)
    loaded = time.perf_counter()
    slices = run.slices
    done = time.perf_counter()
    work = int(slices.dur_cycles.sum())
    rows = len(slices)
    del run, slices
    return done - start, loaded - start, done - loaded, work, rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--htpscope", required=True, help="the htpscope binary")
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("traces", nargs="+")
    args = parser.parse_args()
    status = 0
    for trace in args.traces:
        size_mb = os.path.getsize(trace) / 1e6
        cli, total, load, frame = [], [], [], []
        work = rows = None
        for _ in range(args.repeat):
            cli.append(cli_seconds(args.htpscope, trace))
            t, l, f, work, rows = python_seconds(trace)
            total.append(t)
            load.append(l)
            frame.append(f)
        summary = json.loads(
            subprocess.run([args.htpscope, "summary", "--json", trace], check=True,
                           capture_output=True, text=True).stdout
        )
        cli_work = summary["work_cycles"]
        print(f"{trace}: {size_mb:.1f} MB, {rows} slices")
        print(f"  htpscope summary (CLI)          best {min(cli):.3f} s  median {statistics.median(cli):.3f} s")
        print(f"  load_run(...).slices (Python)   best {min(total):.3f} s  median {statistics.median(total):.3f} s"
              f"  (load_run {min(load):.3f} s + DataFrame {min(frame):.3f} s, best of each)")
        print(f"  ratio Python / CLI              best {min(total) / min(cli):.2f}  median "
              f"{statistics.median(total) / statistics.median(cli):.2f}  (target <= 2)")
        if work != cli_work:
            print(f"  MISMATCH: slices work {work} cycles, CLI work {cli_work} cycles")
            status = 1
        else:
            print(f"  figures agree: work {work:,} cycles")
    return status


if __name__ == "__main__":
    sys.exit(main())
