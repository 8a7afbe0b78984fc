#!/usr/bin/env python3
"""Run region_sample_workload with PAPI_SAMPLE (perf::TASK-CLOCK every 1 ms of CPU, then at
500 Hz) and check the region file's function x region table: in the main thread's table
rs_work_a's samples in region alpha and rs_work_c's outside every region (null), in the
second thread's rs_work_b's in beta, alpha's share of the two 75% +- 6 points (0.45 s
against 0.15 s of CPU), the sample count near the CPU time over the period, names by libdw,
and the file valid against schema/region.schema.json. Without PAPI_SAMPLE the
file has neither member. A bad PAPI_SAMPLE is said once on stderr and nothing is sampled.
Sampling can never kill the program (issue 56): at the kernel's maximum, 100000hz (and
@10000, a period of 10 us), which used to livelock it until the queued signals overflowed
and a plain SIGIO ended it, the workload exits 0 with its region file, sampled at 10000 Hz
(every 100000 ns) as its threads' rates and one line on stderr say, within 3x the CPU time
of 1 ms sampling; with RLIMIT_SIGPENDING 0 (every signal's queueing fails, the kernel sends
SIGIO instead) it exits 0 with its file and counts the lost signals.
--page-faults PROG (issue 69): PAPI_SAMPLE=perf::PAGE-FAULTS@1, where each signal made the
kernel give up the fault it interrupted (taken again, counted again, the next signal: the
program never got past PAPI_hl_region_begin), exits 0 within 60 s with its region file; each
thread's period_used is 4^slowed, and a slowed thread is said on stderr.
--unloaded PROG LIB (issue 69 N9): PROG loads LIB, spends 0.3 s of CPU in its static
rs_lib_work inside region in_lib, unloads LIB and exits; the report (at exit) names
rs_lib_work from LIB's file: 90% of in_lib's samples under it, none named by an address."""
import glob
import json
import os
import resource
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
from papi_report.load import schema_check  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import report_check  # noqa: E402 (every report this test writes is checked: schema/README.md)
from checks import check, verdict  # noqa: E402

report_check.guard()



def no_signal_queue():
    resource.setrlimit(resource.RLIMIT_SIGPENDING, (0, 0))


def run(prog, sample, preexec=None, usage=None, timeout=100, args=()):
    with tempfile.TemporaryDirectory(prefix="region_sample_") as out:
        env = {k: v for k, v in os.environ.items() if not k.startswith("PAPI_")}
        env.update(PAPI_EVENTS="perf::PAGE-FAULTS", PAPI_OUTPUT_DIRECTORY=out)
        if sample is not None:
            env["PAPI_SAMPLE"] = sample
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        try:
            p = subprocess.run([prog] + list(args), env=env, capture_output=True, text=True, timeout=timeout,
                               preexec_fn=preexec)
        except subprocess.TimeoutExpired:
            check(False, "workload (PAPI_SAMPLE=%s) still running after %d s" % (sample, timeout))
            return None, ""
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if usage is not None:
            usage.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
        sys.stdout.write(p.stdout)
        sys.stderr.write(p.stderr)
        check(p.returncode == 0, "workload (PAPI_SAMPLE=%s) exited with %d" % (sample, p.returncode))
        files = glob.glob(os.path.join(out, "papi_hl_output", "rank_*.json"))
        check(len(files) == 1, "one region file, got %s" % files)
        if not files:
            return None, p.stderr
        bad = schema_check.check_file(files[0])
        check(bad is None, "schema: %s" % bad)
        return json.load(open(files[0])), p.stderr


def check_table(d, what, expect_samples):
    check("sampling" in d and "sampled_functions" in d, "%s: sampling members missing" % what)
    if "sampled_functions" not in d:
        return
    tables = d["sampled_functions"]
    check(sorted(tables) == ["0", "1"], "%s: tables of threads %s, want 0 and 1" % (what, sorted(tables)))
    by, threads_of = {}, {}
    for key, t in sorted(tables.items()):
        check(t["names"] == "libdw", "%s: thread %s names by %s" % (what, key, t["names"]))
        check(t["dropped"] == 0, "%s: thread %s: %d dropped" % (what, key, t["dropped"]))
        for e in t["functions"]:
            f = e["function"].split(".")[0]  # a compiler's clone (f.constprop.0) is f
            by.setdefault(f, {})[e["region"]] = by.get(f, {}).get(e["region"], 0) + e["samples"]
            threads_of.setdefault(f, set()).add(t["tid"])
        print("%s: thread %s (tid %d): %d samples (%d dropped), names by %s" % (
            what, key, t["tid"], t["samples"], t["dropped"], t["names"]))
    print("%s: %s" % (what, {f: r for f, r in by.items() if f.startswith("rs_work")}))
    check(len(threads_of.get("rs_work_b", ())) == 1 and
          threads_of.get("rs_work_b") != threads_of.get("rs_work_a"),
          "%s: rs_work_b not in a thread of its own: %s" % (what, threads_of))
    a = by.get("rs_work_a", {})
    b = by.get("rs_work_b", {})
    c = by.get("rs_work_c", {})
    na, nb, nc = sum(a.values()), sum(b.values()), sum(c.values())
    check(na > 0 and a.get("alpha", 0) >= 0.97 * na, "%s: rs_work_a outside alpha: %s" % (what, a))
    check(nb > 0 and b.get("beta", 0) >= 0.97 * nb, "%s: rs_work_b outside beta: %s" % (what, b))
    check(nc > 0 and c.get(None, 0) >= 0.97 * nc, "%s: rs_work_c in a region: %s" % (what, c))
    if na + nb:
        share = 100.0 * a.get("alpha", 0) / (a.get("alpha", 0) + b.get("beta", 0))
        print("%s: alpha's share %.1f%% (want 75 +- 6)" % (what, share))
        check(abs(share - 75) <= 6, "%s: alpha's share %.1f%%" % (what, share))
    # 0.7 s of CPU in the three functions: the samples of both threads near expect.
    total = sum(t["samples"] for t in tables.values())
    check(0.8 * expect_samples <= total <= 1.3 * expect_samples,
          "%s: %d samples, expected about %d" % (what, total, expect_samples))


def check_rates(d, key, want, slowed):
    """Every thread sampled at want (period_used or frequency_hz_used), slowed that often."""
    for tkey, t in sorted(d.get("sampled_functions", {}).items()):
        check(t.get(key) == want and t.get("slowed") == slowed,
              "thread %s: %s %s, slowed %s; want %d, %d" % (tkey, key, t.get(key), t.get("slowed"),
                                                           want, slowed))


def check_fastest(prog, base_cpu):
    """The kernel's maximum rate: exit 0, a region file, 10 kHz used and said, the CPU time
    bounded; then no room at all in the signal queue: exit 0, a file, the losses counted."""
    for sample, key, want, said in (
            ("perf::TASK-CLOCK@100000hz", "frequency_hz_used", 10000, "at 10000 Hz instead"),
            ("perf::TASK-CLOCK@10000", "period_used", 100000, "every 100000 ns instead")):
        cpu = []
        d, err = run(prog, sample, usage=cpu)
        check(err.count(said) == 1, "%s: the line saying %r: %r" % (sample, said, err))
        if not d:
            continue
        check(d["sampling"]["signal_queue_overflows"] == 0, "%s: %s" % (sample, d["sampling"]))
        check_rates(d, key, want, 0)
        # 0.7 s of CPU at 10 kHz: about 7000 samples (the workload's loop runs on CPU time)
        total = sum(t["samples"] for t in d.get("sampled_functions", {}).values())
        print("%s: %d samples, %s %d, %.2f s of CPU (%.2f s at 1 ms)" % (
            sample, total, key, want, cpu[0], base_cpu or 0))
        check(2000 <= total <= 9100, "%s: %d samples, want about 7000" % (sample, total))
        if base_cpu:
            check(cpu[0] <= 3 * base_cpu, "%s: %.2f s of CPU, 1 ms sampling %.2f s" % (
                sample, cpu[0], base_cpu))
    d, err = run(prog, "perf::TASK-CLOCK@1000000", preexec=no_signal_queue)
    if d:
        lost = d["sampling"]["signal_queue_overflows"]
        print("no signal queue: %d signals lost, stderr %r" % (lost, err.strip()))
        check(lost > 0, "RLIMIT_SIGPENDING 0: no lost signal counted: %s" % d["sampling"])
        check(err.count("queue of signals was full") == 1, "the lost signals not said: %r" % err)


def check_names(prog, function, region):
    """--names PROG FUNCTION REGION: PROG spends 0.3 s of CPU in FUNCTION (C++ or a Fortran
    module procedure) inside REGION; sampled every ms, the table names it FUNCTION exactly
    (demangled), 240 to 390 samples, 97% of them in REGION; no mangled name is left."""
    d, _ = run(prog, "perf::TASK-CLOCK@1000000")
    check(d is not None and "sampled_functions" in d, "%s: no sampled_functions" % prog)
    if not d or "sampled_functions" not in d:
        return
    entries = [e for t in d["sampled_functions"].values() for e in t["functions"]]
    fn = [e for e in entries if e["function"] == function]
    n = sum(e["samples"] for e in fn)
    inside = sum(e["samples"] for e in fn if e["region"] == region)
    print("names: %s: %d samples, %d in %s; top %s" % (function, n, inside, region, [
        (e["function"], e["region"], e["samples"]) for e in entries[:4]]))
    check(240 <= n <= 390, "%s: %d samples, want 0.3 s at 1 ms (240 to 390)" % (function, n))
    check(inside >= 0.97 * n, "%s: %d of %d samples in %s" % (function, inside, n, region))
    mangled = [e["function"] for e in entries if e["function"].startswith("_Z") or "_MOD_" in e["function"]]
    check(not mangled, "mangled names left: %s" % mangled)


def check_page_faults(prog):
    """Every page fault sampled: the program ends, each thread's rate says how it was paced."""
    d, err = run(prog, "perf::PAGE-FAULTS@1", timeout=60)
    if not d:
        return
    tables = d.get("sampled_functions", {})
    check(sorted(tables) == ["0", "1"], "tables of threads %s, want 0 and 1" % sorted(tables))
    for key, t in sorted(tables.items()):
        print("PAGE-FAULTS@1: thread %s: %d samples, period_used %s, slowed %s" % (
            key, t["samples"], t.get("period_used"), t.get("slowed")))
        check(t.get("period_used") == 4 ** t.get("slowed", -1),
              "thread %s: period_used %s after %s slow-downs" % (key, t.get("period_used"),
                                                                t.get("slowed")))
    if any(t.get("slowed") for t in tables.values()):
        check("slowed" in err, "a slowed thread not said on stderr: %r" % err)


def check_unloaded(prog, lib):
    d, _ = run(prog, "perf::TASK-CLOCK@1000000", args=[lib])
    if not d or "sampled_functions" not in d:
        check(False, "no sampled_functions")
        return
    entries = [e for t in d["sampled_functions"].values() for e in t["functions"]
               if e["region"] == "in_lib"]
    total = sum(e["samples"] for e in entries)
    named = sum(e["samples"] for e in entries  # a compiler's clone (f.constprop.0) is f
                if e["function"].split(".")[0] == "rs_lib_work")
    hex_named = [e["function"] for e in entries if e["function"].startswith("0x")]
    print("unloaded library: in_lib %d samples, %d in rs_lib_work; by address: %s" % (
        total, named, hex_named))
    check(total >= 150, "in_lib: %d samples, want about 300" % total)
    check(named >= 0.9 * total, "rs_lib_work: %d of in_lib's %d samples: %s" % (
        named, total, [(e["function"], e["samples"]) for e in entries]))
    check(not hex_named, "named by address: %s" % hex_named)


def main():
    if sys.argv[1] == "--unloaded":
        check_unloaded(sys.argv[2], sys.argv[3])
        return verdict("check_region_sample")
    if sys.argv[1] == "--page-faults":
        check_page_faults(sys.argv[2])
        return verdict("check_region_sample")
    if sys.argv[1] == "--names":
        check_names(*sys.argv[2:5])
        return verdict("check_region_sample")
    prog = sys.argv[1]
    base = []
    d, err = run(prog, "perf::TASK-CLOCK@1000000", usage=base)
    if d:
        check(d["sampling"] == {"event": "perf::TASK-CLOCK", "period": 1000000,
                                "frequency_hz": None, "signal_queue_overflows": 0},
              "sampling: %s" % d.get("sampling"))
        check_table(d, "period 1 ms", 700)
        check_rates(d, "period_used", 1000000, 0)
        check("PAPI Warning" not in err, "period 1 ms: a warning: %r" % err)
    # the unit in any case (sample_spec.c); lower case is the fastest run's below
    d, _ = run(prog, "perf::TASK-CLOCK@500HZ")
    if d:
        check(d["sampling"] == {"event": "perf::TASK-CLOCK", "period": None,
                                "frequency_hz": 500, "signal_queue_overflows": 0},
              "sampling: %s" % d.get("sampling"))
        check_table(d, "500 Hz", 350)
        check_rates(d, "frequency_hz_used", 500, 0)
    check_fastest(prog, base[0] if base else None)
    d, _ = run(prog, None)
    if d:
        check("sampling" not in d and "sampled_functions" not in d,
              "without PAPI_SAMPLE: sampling members present")
    d, err = run(prog, "perf::TASK-CLOCK@0")
    check(err.count("PAPI_SAMPLE=perf::TASK-CLOCK@0") == 1,
          "PAPI_SAMPLE=...@0 said once on stderr: %r" % err)
    if d:
        check("sampled_functions" not in d, "a bad PAPI_SAMPLE sampled")
    return verdict("check_region_sample")


if __name__ == "__main__":
    sys.exit(main())
