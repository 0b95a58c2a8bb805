#!/usr/bin/env python3
"""The optrace summary the way people script it today, for bench_summary.

    python3 summary_baseline.py chrometrace.json[.gz]

Standard library only: json.load of the whole file, then the same figures
htpscope summary derives from an optrace: de-duplicated op slices (pid 0
only; a slice's time is its ts/dur, as formats.md §1.5 says), graph wall
(span of the slices, cycles), work (sum of slice durations, cycles), per-thread busy cycles (union of the thread's intervals), and the
QNN ops with the most Dominant Path Cycles (counted once per op ID).
Prints one JSON object with the figures, the events read, the wall seconds
and the peak resident set (bytes) of this process.
"""
import gzip
import json
import resource
import sys
import time
from collections import defaultdict


def main(path):
    started = time.perf_counter()
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        doc = json.load(f)
    events = doc["traceEvents"]
    slices = []
    for e in events:
        if e.get("ph") != "X" or e.get("pid") != 0:
            continue  # every op slice on pid 0 has a copy on its QNN op's pid
        args = e.get("args") or {}
        if "Start Cycle" not in args:
            continue  # runtrace-style events without cycles
        # A multi-threaded op has one event per slice with the op-level args
        # repeated: the slice's own time is ts/dur (cycles since the origin).
        slices.append((int(e["tid"]), e["ts"], e["dur"], args.get("ID"),
                       args.get("QNN Op Name", ""), args.get("Dominant Path Cycles", 0),
                       args["Start Cycle"], args["Duration (cycles)"]))
    # ts = Start Cycle - base; only a single-slice event (dur == Duration)
    # gives base (a tiled op's other slices start later).
    base = next(s[6] - s[1] for s in slices if s[2] == s[7])
    slices = [(tid, ts + base, dur, op_id, name, dpc) for tid, ts, dur, op_id, name, dpc, _, _ in slices]
    start = min(s[1] for s in slices)
    end = max(s[1] + s[2] for s in slices)
    work = sum(s[2] for s in slices)

    by_thread = defaultdict(list)
    for tid, begin, cycles, *_ in slices:
        by_thread[tid].append((begin, begin + cycles))
    units = {}
    for tid, intervals in by_thread.items():
        intervals.sort()
        busy, cur_begin, cur_end = 0, None, None
        for b, e in intervals:
            if cur_end is None or b > cur_end:
                if cur_end is not None:
                    busy += cur_end - cur_begin
                cur_begin, cur_end = b, e
            else:
                cur_end = max(cur_end, e)
        busy += cur_end - cur_begin
        units[str(tid)] = busy

    dpc = defaultdict(int)
    seen = set()
    for _, _, _, op_id, name, path_cycles in slices:
        if op_id in seen:
            continue  # a tiled op repeats its DPC on every slice
        seen.add(op_id)
        dpc[name] += path_cycles
    top = sorted(dpc.items(), key=lambda kv: (-kv[1], kv[0]))[:10]

    seconds = time.perf_counter() - started
    peak_rss_bytes = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    json.dump({
        "events": len(events),
        "slices": len(slices),
        "graph_wall_cycles": end - start,
        "work_cycles": work,
        "cycles_used": units,
        "top_dpc": [{"name": n, "dpc_cycles": c} for n, c in top],
        "seconds": seconds,
        "peak_rss_bytes": peak_rss_bytes,
    }, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: summary_baseline.py chrometrace.json[.gz]")
    main(sys.argv[1])
