#!/usr/bin/env python3
"""bench_ompt_cost.py FORKJOIN TOOL [N] [ROUNDS] [THREADS...]: the OMPT tool's added cost per
parallel region and thread (issue 58 item 6; goal: at most 1 us with counters off).
FORKJOIN is build/bench/bench_ompt_forkjoin (N empty regions, default 20000), TOOL the
tool (build/src-c/ompt/libpapi_ompt.so). Three sides, each its own process under LLVM's
libomp (LD_PRELOAD=libomp.so.5 for a libgomp build): libomp alone (its own fork/join
cost), the tool with counters off, the tool counting PAPI_OMPT_EVENTS (default
perf::TASK-CLOCK, a read per task begin and end), and the tool with counters off keeping
its trace slices (PAPI_TRACE=json: each thread logs its region, implicit task and join
slices; nothing here writes them); run ROUNDS times (default 11) in
rotating order so that the machine's drift hits all alike; the median ns per region of
each, and (tool - libomp) / threads per thread. Run from the source tree after a build."""
import os
import statistics
import subprocess
import sys
import tempfile


def run(prog, n, threads, env):
    out = subprocess.run([prog, str(n), str(threads)], env=env, capture_output=True, text=True,
                         check=True, timeout=600)
    return float(out.stdout.split()[-1])


def main():
    if len(sys.argv) < 3:
        print(__doc__.splitlines()[0], file=sys.stderr)
        return 2
    prog, tool = sys.argv[1], os.path.abspath(sys.argv[2])
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 20000
    rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 11
    counts = [int(t) for t in sys.argv[5:]] or [1, 2, 4]
    events = os.environ.get("PAPI_OMPT_EVENTS", "perf::TASK-CLOCK")
    base = dict(os.environ, LD_PRELOAD="libomp.so.5", OMP_WAIT_POLICY="active")
    for k in ("OMP_TOOL_LIBRARIES", "PAPI_OMPT_EVENTS", "PAPI_EVENTS"):
        base.pop(k, None)
    out = tempfile.mkdtemp(prefix="bench_ompt_")
    sides = {"libomp": base,
             "tool": dict(base, OMP_TOOL_LIBRARIES=tool, PAPI_OMPT_OUTPUT_DIR=out),
             "tool+counters": dict(base, OMP_TOOL_LIBRARIES=tool, PAPI_OMPT_OUTPUT_DIR=out,
                                   PAPI_OMPT_EVENTS=events),
             "tool+trace": dict(base, OMP_TOOL_LIBRARIES=tool, PAPI_OMPT_OUTPUT_DIR=out,
                                PAPI_TRACE="json")}
    names = list(sides)
    print("ns per empty region (median of %d rounds, %d regions each; counters: %s)" % (rounds, n, events))
    print("threads  libomp  tool  tool+counters  tool+trace  added/thread: tool  tool+counters"
          "  tool+trace")
    for threads in counts:
        got = {k: [] for k in names}
        for r in range(rounds):
            for k in (names if r % 2 == 0 else names[::-1]):
                got[k].append(run(prog, n, threads, sides[k]))
        med = {k: statistics.median(v) for k, v in got.items()}
        print("%7d %7.0f %5.0f %14.0f %11.0f %19.0f %14.0f %11.0f" % (
            threads, med["libomp"], med["tool"], med["tool+counters"], med["tool+trace"],
            (med["tool"] - med["libomp"]) / threads, (med["tool+counters"] - med["libomp"]) / threads,
            (med["tool+trace"] - med["libomp"]) / threads))
    for f in os.listdir(out):
        os.unlink(os.path.join(out, f))
    os.rmdir(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
