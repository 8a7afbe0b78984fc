#!/usr/bin/env python3
"""bench_ompt_constructs.py BENCH TOOL [N] [ROUNDS] [THREADS...]: what the OMPT tool adds per
construct and thread (issue 73 item 7). BENCH is build/bench/bench_ompt_constructs (N
instances of each construct in one region, default 20000), TOOL the tool
(build/src-c/ompt/libpapi_ompt.so). Two sides, each its own process under LLVM's libomp
(LD_PRELOAD=libomp.so.5 for a libgomp build, OMP_WAIT_POLICY=active): libomp alone and
the tool (counters off), run ROUNDS times (default 7) in alternating order; per construct
the median ns per instance of each and (tool - libomp) / threads. With --instructions
(valgrind installed) it counts instead the user instructions each construct adds, by
callgrind: each construct alone at N and 2N instances on each side, the difference of
the differences over N (what timing on a loaded machine cannot say). Run from the source
tree after a build."""
import os
import re
import statistics
import subprocess
import sys
import tempfile

CONSTRUCTS = ("critical", "lock", "loop_static", "loop_dynamic", "single", "barrier", "task")


def sides(tool):
    base = dict(os.environ, LD_PRELOAD="libomp.so.5", OMP_WAIT_POLICY="active")
    for k in ("OMP_TOOL_LIBRARIES", "PAPI_OMPT_EVENTS", "PAPI_EVENTS", "PAPI_TRACE"):
        base.pop(k, None)
    out = tempfile.mkdtemp(prefix="bench_ompt_constructs_")
    return out, {"libomp": base, "tool": dict(base, OMP_TOOL_LIBRARIES=tool, PAPI_OMPT_OUTPUT_DIR=out)}


def run(prog, n, threads, env, constructs=()):
    p = subprocess.run([prog, str(n), str(threads)] + list(constructs), env=env, capture_output=True,
                       text=True, check=True, timeout=900)
    return {ln.split()[0]: float(ln.split()[1]) for ln in p.stdout.splitlines() if len(ln.split()) == 2}


def instructions(prog, n, threads, env, construct):
    """User instructions of the whole run (callgrind's total) with construct alone."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "cg.out")
        subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out, prog, str(n),
                        str(threads), construct], env=env, capture_output=True, check=True, timeout=900)
        with open(out) as f:
            return int(re.search(r"^summary: (\d+)", f.read(), re.M).group(1))


def main():
    args = [a for a in sys.argv[1:] if a != "--instructions"]
    counting = len(args) != len(sys.argv) - 1
    if len(args) < 2:
        print(__doc__.splitlines()[0], file=sys.stderr)
        return 2
    prog, tool = args[0], os.path.abspath(args[1])
    n = int(args[2]) if len(args) > 2 else 20000
    rounds = int(args[3]) if len(args) > 3 else 7
    counts = [int(t) for t in args[4:]] or [1, 2]
    scratch, env = sides(tool)
    if counting:
        print("user instructions added per construct and thread (callgrind; %d and %d instances)" % (n, 2 * n))
        print("threads  construct      libomp  tool  added/thread")
        for threads in counts:
            for c in CONSTRUCTS:
                per = {}
                for k, e in env.items():
                    per[k] = (instructions(prog, 2 * n, threads, e, c) - instructions(prog, n, threads, e, c)) / n
                print("%7d  %-12s %7.0f %5.0f %13.0f" % (threads, c, per["libomp"], per["tool"],
                                                          (per["tool"] - per["libomp"]) / threads))
    else:
        print("ns per construct instance (median of %d rounds, %d instances each)" % (rounds, n))
        print("threads  construct      libomp    tool  added/thread")
        for threads in counts:
            got = {k: [] for k in env}
            for r in range(rounds):
                for k in (list(env) if r % 2 == 0 else list(env)[::-1]):
                    got[k].append(run(prog, n, threads, env[k]))
            for c in CONSTRUCTS:
                med = {k: statistics.median(x[c] for x in got[k]) for k in env}
                print("%7d  %-12s %7.0f %7.0f %13.0f" % (threads, c, med["libomp"], med["tool"],
                                                          (med["tool"] - med["libomp"]) / threads))
    for f in os.listdir(scratch):
        os.unlink(os.path.join(scratch, f))
    os.rmdir(scratch)
    return 0


if __name__ == "__main__":
    sys.exit(main())
