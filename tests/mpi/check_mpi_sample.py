#!/usr/bin/env python3
"""check_mpi_sample.py: PAPI_SAMPLE under the MPI wrapper (mpi_sample.c, mpi_sample_f.f90,
mpi_sample_pcontrol.c; 2 ranks).

--part main: PAPI_SAMPLE=perf::TASK-CLOCK@1000000 (a sample per ms of CPU time) with the
linked wrapper, and @1000hz (frequency mode) with the wrapper preloaded into the plain
program. Rank 1's heavy() holds 75% +- 6 points of heavy() + light() in region "work"
(0.3 s against 0.1 s of CPU), both filed under that region; rank 0's waiter() has at
least 250 ms of sampled MPI time in MPI_Barrier at the line marked SAMPLE_BARRIER (rank 1
sleeps 300 ms meanwhile), and the wrapper's measured time there too; the job-wide table
holds the same; rank 1's second thread is sampled too (threadwork(), 0.2 s of CPU: 150 to
250 samples, in "work"); the banner lists the top functions; the report follows its schema.
With PAPI_MPI_SAMPLE_TOP=1 a row lists one entry of each table and sums the rest. Without
PAPI_SAMPLE no "sampling" member is written.
--part fortran: mpi_sample_f.f90 (`use mpi`, 2 ranks) with the wrapper preloaded and
PAPI_SAMPLE=perf::TASK-CLOCK@1000000: the module procedure crunch is named ranked::crunch
(gfortran's __ranked_MOD_crunch demangled), and the barrier's caller ranked::waiter; each rank's
samples in it are its own CPU clock in crunch (the program's EXPECT lines) in ms, 3 samples
over at most and 3 + 20% under (timer samples lost at context switches), rank 1's about
3 times rank 0's; rank 0's MPI time is joined to the call
site in waiter (mpi_sample_f.f90's line marked SAMPLE_BARRIER, MPI_Barrier, 1 call): the
wrapper's measured time there is the barrier's wall time the program measured (+- 10 ms +
1%), the sampled wall time there positive and at most that (a sample carries the wall
time since the thread's previous one: a rank kept off the CPU sits out part of its wait
unsampled).
--part cxx: mpi_sample_cxx.cpp (2 ranks, the wrapper preloaded): rank 1's 0.3 s of CPU in
ranks::Work::spin(double) (240 to 390 samples) and rank 0's MPI_Barrier by
ranks::wait_here(int), demangled in the rows, the job-wide tables, the banner and the
wrapper's own call-site table (JSON and banner: DWARF's plain name is wait_here); papi_report
reads the sampling section into mpi_sampled_functions.csv and mpi_sampled_by_caller.csv
(every row's entries, exact) and shows both on the page and in the text.
--part pcontrol: mpi_sample_pcontrol.c (2 ranks, the wrapper preloaded) opens and closes a
region until each rank spent 0.6 s of CPU time doing it: each rank's samples outside MPI calls are at most 10% of those filed
under MPI_Pcontrol (at least 100), which are at the two marked lines of marks() in
mpi_by_caller (95% at least: the rest hit the wrapper's own MPI_Pcontrol before or after
it marks the call); none are under the wrapper's own functions
(pmpi_*, mpi_totals) or libpapi's counter read (read_values_group), where they went before
the hand-written entry points marked their calls.
--part rate: PAPI_SAMPLE=perf::TASK-CLOCK@100000hz (the wrapper preloaded into the plain
program) samples at 10000 Hz, the library's cap of 10,000 signals a second per thread: the
report says frequency_hz 100000 asked, frequency_hz_used 10000 (the job's and each row's),
seconds_per_sample 0.0001, nothing slowed or lost; rank 1's heavy() (0.3 s of CPU) counts
0.2 to 0.36 s of time_s (at the asked rate it would read a tenth); the banner says
@10000hz and the rate asked.
--part bad: PAPI_SAMPLE with no event name, nothing after '@', period 0, a word, an unknown
event: one line on stderr naming the variable, the counters still written, nothing sampled.
"""
import csv
import json
import os
import re
import subprocess
import sys
import tempfile

from mpi_check import check, expect_values, rank_env, launch_args, schemas_unavailable, verdict

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
from papi_report.load import schema_check  # noqa: E402


def marker_line(source, marker):
    with open(source) as f:
        for n, line in enumerate(f, 1):
            if marker in line:
                return n
    raise SystemExit(f"{marker} not in {source}")


def run(args, outdir, sample, program, preload=None, extra=None):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("PAPI_") or k == "PAPI_MPI_FLAVOR"}
    ranks = {"PAPI_MPI_OUTPUT_DIR": outdir}
    if sample is not None:
        ranks["PAPI_SAMPLE"] = sample
    if preload:
        ranks["LD_PRELOAD"] = preload
    ranks.update(extra or {})
    cmd = [args.mpirun, "-np", "2"] + rank_env(args.mpirun, ranks) + [program]
    print("+", " ".join(cmd))
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
    sys.stdout.write(p.stdout[-4000:])
    sys.stdout.write(p.stderr[-2000:])
    check(p.returncode == 0, f"PAPI_SAMPLE={sample}: exit status {p.returncode}")
    path = os.path.join(outdir, "papi_mpi_report.json")
    if not check(os.path.exists(path), f"PAPI_SAMPLE={sample}: the report is written"):
        return None, p
    bad = schema_check.check_file(path)
    check(bad is None, f"PAPI_SAMPLE={sample}: report follows mpi_report.schema.json: {bad}")
    with open(path) as f:
        return json.load(f), p


def base(name):
    return name.split(".")[0]  # a compiler's clone (heavy.constprop.0) is heavy


def check_main(rep, p, tag, barrier_line):
    rows = {r["rank"]: r for r in rep["ranks"]}
    if not check(sorted(rows) == [0, 1] and all("sampling" in r for r in rows.values()),
                 f"{tag}: both rows have sampling"):
        return
    s1 = rows[1]["sampling"]
    by = {}
    for e in s1["functions"]:
        by[(base(e["function"]), e["region"])] = by.get((base(e["function"]), e["region"]), 0) + e["samples"]
    heavy, light = by.get(("heavy", "work"), 0), by.get(("light", "work"), 0)
    outside = sum(n for (f, r), n in by.items() if f in ("heavy", "light") and r != "work")
    print(f"{tag}: rank 1: {s1['samples']} samples, heavy {heavy}, light {light} in work, "
          f"{outside} outside; top {s1['functions'][:4]}")
    check(heavy + light >= 200, f"{tag}: rank 1 has heavy and light samples ({heavy} + {light})")
    check(outside <= 0.03 * (heavy + light + 1), f"{tag}: heavy and light filed under work ({outside} outside)")
    if heavy + light:
        share = 100.0 * heavy / (heavy + light)
        print(f"{tag}: heavy's share {share:.1f}% (want 75 +- 6)")
        check(abs(share - 75) <= 6, f"{tag}: heavy's share {share:.1f}%")
    check(s1["dropped"] == 0, f"{tag}: rank 1 dropped {s1['dropped']}")
    tw = by.get(("threadwork", "work"), 0)
    print(f"{tag}: rank 1: {s1['threads']} threads sampled, threadwork {tw} samples in work")
    check(s1["threads"] == 2 and 150 <= tw <= 250,
          f"{tag}: rank 1's second thread sampled: {s1['threads']} threads, threadwork {tw} (0.2 s)")
    m0 = [e for e in rows[0]["sampling"]["mpi_by_caller"]
          if base(e["function"]) == "waiter" and e["call"] == "MPI_Barrier"]
    print(f"{tag}: rank 0 waiter's MPI_Barrier: {m0}")
    if check(len(m0) == 1, f"{tag}: rank 0 has waiter's MPI_Barrier once ({len(m0)})"):
        e = m0[0]
        check(e["line"] == barrier_line and e["file"].endswith("mpi_sample.c"),
              f"{tag}: at mpi_sample.c:{barrier_line} ({e['file']}:{e['line']})")
        check(e["mpi_time_s"] >= 0.25, f"{tag}: sampled MPI time {e['mpi_time_s']} >= 0.25 s")
        check(e["event_s"] is not None and 0 < e["event_s"] <= e["mpi_time_s"] + 0.01,
              f"{tag}: the task clock's share of it, {e['event_s']} s, at most the wall time")
        check(e["calls"] == 1 and e["measured_s"] >= 0.28,
              f"{tag}: measured by the wrapper: 1 call, {e['measured_s']} >= 0.28 s")
    fn0 = {base(e["function"]) for e in rows[0]["sampling"]["functions"]}
    check("MPI_Barrier" in fn0, f"{tag}: rank 0's time in MPI_Barrier is filed under the call ({fn0})")
    job = rep.get("sampling", {})
    if not check(job.get("on") is True and job.get("ranks_sampled") == 2,
                 f"{tag}: the job-wide sampling member ({ {k: job.get(k) for k in ('on', 'ranks_sampled')} })"):
        return
    check(job["samples"] == sum(r["sampling"]["samples"] for r in rows.values()),
          f"{tag}: job samples are the ranks' sum")
    jh = [e for e in job["functions"] if base(e["function"]) == "heavy" and e["region"] == "work"]
    check(len(jh) == 1 and jh[0]["samples"] == heavy and jh[0]["max_rank"] == 1 and jh[0]["ranks"] == 1,
          f"{tag}: job-wide heavy is rank 1's ({jh})")
    jw = [e for e in job["mpi_by_caller"] if base(e["function"]) == "waiter"]
    check(len(jw) == 1 and jw[0]["line"] == barrier_line and jw[0]["mpi_time_s"] >= 0.25,
          f"{tag}: job-wide waiter's MPI time ({jw})")
    check("papi_mpi: sampled perf::TASK-CLOCK" in p.stdout and "heavy" in p.stdout,
          f"{tag}: the banner lists the sampled functions")


def named(function, module, proc):
    """module::proc: gfortran's __module_MOD_proc demangled (DWARF's bare proc lacks the
    module, the raw symbol is not what the source reads)."""
    return function == "%s::%s" % (module, proc)


def report_tables(d, rep):
    """papi_report on the run's directory: its CSVs of the sampling section hold every
    entry of every rank's row, exactly; the page and the text show both tables."""
    tool = os.path.join(HERE, "..", "..", "python", "papi_report.py")
    out = os.path.join(d, "rep")
    p = subprocess.run(["/usr/bin/python3", tool, d, "-o", out], capture_output=True, text=True,
                       timeout=120)
    if "pandas" in p.stderr and p.returncode != 0:
        print(f"cxx: papi_report not checked: {p.stderr.strip()}")
        return
    if not check(p.returncode == 0, f"papi_report exit {p.returncode}: {p.stderr[-2000:]}"):
        return
    with open(os.path.join(out, "mpi_sampled_functions.csv")) as f:
        got = sorted((int(r["rank"]), r["function"], r["region"], int(r["samples"])) for r in csv.DictReader(f))
    want = sorted((r["rank"], e["function"], e["region"] or "", e["samples"])
                  for r in rep["ranks"] for e in r.get("sampling", {}).get("functions", []))
    check(got == want and got, f"mpi_sampled_functions.csv {got} is the rows' lists {want}")
    with open(os.path.join(out, "mpi_sampled_by_caller.csv")) as f:
        got = sorted((int(r["rank"]), r["function"], r["call"], int(r["line"]), int(r["samples"]),
                      round(float(r["mpi_time_s"]), 6), int(r["calls"])) for r in csv.DictReader(f))
    want = sorted((r["rank"], e["function"], e["call"], e["line"], e["samples"], round(e["mpi_time_s"], 6),
                   e["calls"]) for r in rep["ranks"] for e in r.get("sampling", {}).get("mpi_by_caller", []))
    check(got == want and got, f"mpi_sampled_by_caller.csv {got} is the rows' lists {want}")
    page = open(os.path.join(out, "report.html"), encoding="utf-8").read()
    text = open(os.path.join(out, "report.txt"), encoding="utf-8").read()
    for t in ("mpi_sampled_functions", "mpi_sampled_by_caller"):
        check(f'id="table-{t}"' in page, f"the page shows {t}")
    check("Sampled functions by region per rank" in text and "MPI time by calling function per rank" in text,
          "report.txt shows both tables")
    print(f"cxx: papi_report's CSVs hold the {len(want)} call-site entries and the functions of both rows")


def part_cxx(args):
    line = marker_line(args.source, "// SAMPLE_BARRIER")
    with tempfile.TemporaryDirectory(prefix="mpi_sample_cxx_") as d:
        rep, p = run(args, d, "perf::TASK-CLOCK@1000000", args.program, args.preload)
        if rep:
            report_tables(d, rep)
    if not rep:
        return
    rows = {r["rank"]: r.get("sampling", {}) for r in rep["ranks"]}
    if not check(sorted(rows) == [0, 1], f"cxx: both ranks sampled ({sorted(rows)})"):
        return
    spin = "ranks::Work::spin(double)"
    n = sum(e["samples"] for e in rows[1].get("functions", []) if e["function"] == spin)
    print(f"cxx: rank 1: {spin} {n} samples; top {rows[1].get('functions', [])[:3]}")
    check(240 <= n <= 390, f"cxx: rank 1's {spin}: {n} samples for 0.3 s at 1 ms (240 to 390)")
    sites = [e for e in rows[0].get("mpi_by_caller", []) if e["call"] == "MPI_Barrier"
             and e["line"] == line]
    print(f"cxx: rank 0's MPI_Barrier at line {line}: {sites}")
    check(len(sites) == 1 and sites[0]["function"] == "ranks::wait_here(int)",
          f"cxx: rank 0's barrier by ranks::wait_here(int) ({sites})")
    job = rep.get("sampling", {})
    jf = [e for e in job.get("functions", []) if e["function"] == spin]
    check(len(jf) == 1 and jf[0]["max_rank"] == 1 and jf[0]["samples"] == n,
          f"cxx: job-wide {spin} is rank 1's ({jf})")
    jm = [e for e in job.get("mpi_by_caller", []) if e["function"] == "ranks::wait_here(int)"]
    check(len(jm) >= 1, f"cxx: job-wide MPI time by ranks::wait_here(int) ({jm})")
    # the wrapper's own call-site table (not the sampling's) names it the same way
    cs = [e for e in rep.get("callsites", {}).get("top", []) if e["call"] == "MPI_Barrier"
          and e["line"] == line]
    check(len(cs) == 1 and cs[0]["function"] == "ranks::wait_here(int)",
          f"cxx: the call-site table's barrier by ranks::wait_here(int) ({cs})")
    check(re.search(r"MPI_Barrier +mpi_sample_cxx\.cpp:%d \(ranks::wait_here\(int\)\)" % line,
                    p.stdout) is not None, "cxx: the banner's call site names ranks::wait_here(int)")
    names = [e["function"] for r in rows.values() for e in r.get("functions", []) + r.get("mpi_by_caller", [])]
    mangled = [f for f in names if f.startswith("_Z")]
    check(not mangled, f"cxx: mangled names left: {mangled}")
    check(spin in p.stdout, "cxx: the banner names the demangled function")


def part_fortran(args):
    line = marker_line(args.source, "! SAMPLE_BARRIER")
    with tempfile.TemporaryDirectory(prefix="mpi_sample_f_") as d:
        rep, p = run(args, d, "perf::TASK-CLOCK@1000000", args.program, args.preload)
    if not rep:
        return
    clocks = expect_values(p.stdout)
    rows = {r["rank"]: r.get("sampling", {}) for r in rep["ranks"]}
    if not check(sorted(rows) == [0, 1] and ("crunch", 0) in clocks and ("crunch", 1) in clocks
                 and ("barrier", 0) in clocks, f"both ranks sampled, EXPECT lines {clocks}"):
        return
    got = {}
    for rank, s in rows.items():
        fns = [e for e in s.get("functions", []) if named(e["function"], "ranked", "crunch")]
        got[rank] = sum(e["samples"] for e in fns) * 1e-3  # a sample per ms of CPU time
        clock = clocks[("crunch", rank)]
        print(f"fortran: rank {rank}: {[e['function'] for e in fns]} {got[rank]:.3f} s sampled, "
              f"its clock {clock:.3f} s")
        # 3 samples over at most; under, also the samples the kernel's task-clock timer
        # loses at context switches (up to 17% of a rank seen here: check_sample.py within())
        check(len(fns) >= 1 and 0.8 * clock - 0.003 <= got[rank] <= clock + 0.003,
              f"rank {rank}: crunch named and sampled as long as its clock ({fns})")
    check(got[1] > 2 * got[0], f"rank 1's crunch {got[1]:.3f} s about 3 x rank 0's {got[0]:.3f} s")
    waited = clocks[("barrier", 0)]
    sites = [e for e in rows[0].get("mpi_by_caller", []) if named(e["function"], "ranked", "waiter")]
    print(f"fortran: rank 0 waited {waited:.3f} s in waiter's barrier; its entries {sites}")
    if check(len(sites) == 1, "rank 0's MPI time has one entry at waiter's call site"):
        e = sites[0]
        check(e["call"] == "MPI_Barrier" and e["line"] == line and e["file"].endswith("mpi_sample_f.f90"),
              f"waiter's MPI_Barrier at mpi_sample_f.f90:{line} ({e['call']} {e['file']}:{e['line']})")
        check(e["calls"] == 1 and abs(e["measured_s"] - waited) <= 0.01 + 0.01 * waited,
              f"the wrapper's measured time there {e['measured_s']} s in {e['calls']} calls, "
              f"the program's clock {waited:.3f} s")
        # A sample carries the wall time since the thread's previous one: the wall time after
        # the last sample inside the barrier is in no sample, and a rank kept off the CPU by
        # the other rank or another test (2 cores) sits out part of its wait unsampled
        # (0.104 s of 0.261 s seen beside one other test, 0.259 of 0.899 s under load). So
        # the sampled time is checked as what it can be: some, never more than the wait
        # (the wrapper's measured time above is the exact figure).
        print(f"fortran: sampled MPI time at the barrier {e['mpi_time_s']:.3f} s of the "
              f"program's {waited:.3f} s")
        check(0 < e["mpi_time_s"] <= waited + 0.02 + 0.1 * waited and e["samples"] > 0,
              f"the sampled MPI time there {e['mpi_time_s']:.3f} s in {e['samples']} samples, "
              f"at most the program's clock {waited:.3f} s")
    job = [e for e in rep.get("sampling", {}).get("functions", [])
           if named(e["function"], "ranked", "crunch")]
    check(len(job) >= 1 and job[0]["max_rank"] == 1 and job[0]["ranks"] == 2,
          f"job-wide crunch: both ranks, the most on rank 1 ({job})")


def part_pcontrol(args):
    lines = {marker_line(args.source, "/* PCONTROL_OPEN */"), marker_line(args.source, "/* PCONTROL_CLOSE */")}
    with tempfile.TemporaryDirectory(prefix="mpi_sample_pc_") as d:
        rep, p = run(args, d, "perf::TASK-CLOCK@1000000", args.program, args.preload)
    if not rep:
        return
    for r in rep["ranks"]:
        s = r.get("sampling", {})
        n = s.get("samples", 0)
        fns = {}
        for e in s.get("functions", []):
            fns[base(e["function"])] = fns.get(base(e["function"]), 0) + e["samples"]
        inside = fns.get("MPI_Pcontrol", 0)
        outside = sum(k for f, k in fns.items() if not f.startswith("MPI_"))
        internal = {f: k for f, k in fns.items() if f.startswith("pmpi_") or f in ("mpi_totals", "read_values_group")}
        sites = {}
        for e in s.get("mpi_by_caller", []):
            if e["call"] == "MPI_Pcontrol":  # one entry per site and region: summed per site
                key = (base(e["function"]), e["line"])
                sites[key] = sites.get(key, 0) + e["samples"]
        print(f"pcontrol: rank {r['rank']}: {n} samples, {inside} in MPI_Pcontrol, {outside} outside MPI "
              f"calls; MPI_Pcontrol by caller {sites}; wrapper internals {internal}")
        check(inside >= 100 and outside <= 0.1 * inside,
              f"rank {r['rank']}: {inside} samples in MPI_Pcontrol, {outside} outside MPI calls")
        # A few samples hit the wrapper's MPI_Pcontrol outside the marked span (its entry
        # and return): outside the call for the handler, named by the symbol all the same.
        check(set(sites) == {("marks", ln) for ln in lines} and inside >= sum(sites.values()) >= 0.95 * inside,
              f"rank {r['rank']}: MPI_Pcontrol's samples at marks' lines {sorted(lines)}: {sites}")
        check(not internal, f"rank {r['rank']}: samples filed under the wrapper's internals {internal}")


def part_rate(args):
    sample = "perf::TASK-CLOCK@100000hz"
    with tempfile.TemporaryDirectory(prefix="mpi_sample_rate_") as d:
        rep, p = run(args, d, sample, args.plain, args.preload)
    if not rep:
        return
    job = rep.get("sampling", {})
    head = {k: job.get(k) for k in ("frequency_hz", "period", "frequency_hz_used", "seconds_per_sample",
                                    "slowed", "signal_queue_overflows")}
    print(f"rate: the job's sampling head {head}")
    check(head == {"frequency_hz": 100000, "period": None, "frequency_hz_used": 10000,
                   "seconds_per_sample": 0.0001, "slowed": 0, "signal_queue_overflows": 0},
          f"rate: the job's head says 10000 Hz used of 100000 asked, nothing slowed or lost ({head})")
    for r in rep["ranks"]:
        s = r.get("sampling", {})
        got = {k: s.get(k) for k in ("frequency_hz_used", "slowed", "signal_queue_overflows")}
        check(got == {"frequency_hz_used": 10000, "slowed": 0, "signal_queue_overflows": 0},
              f"rate: rank {r['rank']}'s row says 10000 Hz used ({got})")
        if r["rank"] == 1:
            t = sum(e["time_s"] for e in s.get("functions", []) if base(e["function"]) == "heavy")
            print(f"rate: rank 1's heavy(): {t:.3f} s of task clock sampled (0.3 s spent)")
            check(0.2 <= t <= 0.36, f"rate: rank 1's heavy() {t:.3f} s at 10000 Hz (0.3 s spent)")
    want = "papi_mpi: sampled perf::TASK-CLOCK@10000hz (asked @100000hz"
    check(want in p.stdout, f"rate: the banner says {want!r}")


def part_main(args):
    line = marker_line(args.source, "/* SAMPLE_BARRIER */")
    for sample, prog, pre in (("perf::TASK-CLOCK@1000000", args.program, None),
                              ("perf::TASK-CLOCK@1000hz", args.plain, args.preload)):
        tag = f"{sample} {'preloaded' if pre else 'linked'}"
        with tempfile.TemporaryDirectory(prefix="mpi_sample_") as d:
            rep, p = run(args, d, sample, prog, pre)
            if rep:
                check_main(rep, p, tag, line)
    # PAPI_MPI_SAMPLE_TOP=1: each row lists one entry per table, the rest summed.
    with tempfile.TemporaryDirectory(prefix="mpi_sample_") as d:
        rep, p = run(args, d, "perf::TASK-CLOCK@1000000", args.program,
                     extra={"PAPI_MPI_SAMPLE_TOP": "1"})
        for r in (rep or {}).get("ranks", []):
            s = r.get("sampling", {})
            fn, mpi = s.get("functions", []), s.get("mpi_by_caller", [])
            listed = sum(e["samples"] for e in fn) + s.get("functions_other", {}).get("samples", -1)
            check(len(fn) == 1 and len(mpi) <= 1 and listed == s["samples"] - s["dropped"],
                  f"PAPI_MPI_SAMPLE_TOP=1: rank {r['rank']} lists 1 function, the rest summed "
                  f"({len(fn)} listed, {listed} of {s['samples']} samples)")
            if r["rank"] == 0:  # main's barrier and waiter's: two sites sampled
                check(len(mpi) == 1 and s["mpi_by_caller_other"]["entries"] >= 1,
                      f"PAPI_MPI_SAMPLE_TOP=1: rank 0: one call site listed, the others summed")
    with tempfile.TemporaryDirectory(prefix="mpi_sample_") as d:
        rep, p = run(args, d, None, args.program)
        if rep:
            check("sampling" not in rep and not any("sampling" in r for r in rep["ranks"]),
                  "without PAPI_SAMPLE: no sampling member")


def part_bad(args):
    for bad in ("@1000000", "perf::TASK-CLOCK@", "perf::TASK-CLOCK@0", "perf::TASK-CLOCK@soon",
                "NO_SUCH_EVENT@1000000"):
        with tempfile.TemporaryDirectory(prefix="mpi_sample_") as d:
            rep, p = run(args, d, bad, args.program)
            said = [ln for ln in p.stderr.splitlines() if "PAPI_SAMPLE" in ln]
            check(len(said) == 1 and f"PAPI_SAMPLE={bad}" in said[0],
                  f"PAPI_SAMPLE={bad}: one line naming the variable ({said})")
            if not rep:
                continue
            rows = rep["ranks"]
            check(len(rows) == 2 and all(r.get("counters") for r in rows),
                  f"PAPI_SAMPLE={bad}: both rows with their counters")
            check(not any("sampling" in r for r in rows), f"PAPI_SAMPLE={bad}: no rank sampled")
            s = rep.get("sampling", {})
            check(s.get("on") is False and "PAPI_SAMPLE" in s.get("note", ""),
                  f"PAPI_SAMPLE={bad}: the report says why ({s})")


def main():
    parts = {"main": part_main, "bad": part_bad, "fortran": part_fortran, "pcontrol": part_pcontrol,
             "cxx": part_cxx, "rate": part_rate}
    args = launch_args(more=("--preload", "--source"),
                       options={"--plain": {}, "--part": dict(required=True, choices=tuple(parts))})
    if schemas_unavailable():
        return 77
    parts[args.part](args)
    return verdict()


if __name__ == "__main__":
    sys.exit(main())
