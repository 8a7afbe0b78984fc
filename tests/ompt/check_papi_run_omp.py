#!/usr/bin/env python3
"""check_papi_run_omp.py --papi-run PAPI_RUN --tool-dir DIR [--libomp] PROGRAM: an OpenMP
program run unchanged under papi_run (issue 58 item 3), as a user types it: no
OMP_TOOL_LIBRARIES, no LD_PRELOAD. papi_run finds the OMPT tool (libpapi_ompt.so) in DIR
(PAPI_RUN_LIBDIR, the build tree's) and names it; a libgomp program (gcc, gfortran) keeps
libgomp, its GOMP_* entry points interposed for the tool (libpapi_gomp.so, issue 73 item
4), or with --libomp (passed to papi_run) runs under LLVM's libomp: the same answers
both ways, and the file's route and the banner's runtime line say which ran.

  - papi_run's file (schema/region.schema.json) carries the tool's table under "openmp",
    the known answers of check_ompt.py's case balance: load balance 0.625 +- 0.03,
    serialization within 0.03 of the program's own clock, work and waits per thread;
    the banner gives the efficiencies and the regions that lost the most thread time
    (lost_ns), and for a libgomp program says that it runs under
    libomp with the switch that turns it off (--no-libomp) and why one would;
  - a tool the user names in OMP_TOOL_LIBRARIES (here one that does not exist, which the
    runtime passes over) keeps its place: papi_run's comes after it, said in the banner;
  - a libgomp program with --no-libomp: no table ("off"), the banner says why, the counts
    and the program's answer as without it.
papi_run's default events per region (issue 73 item 1): where the PMU allows user-space
reads, its hardware events alone; elsewhere (this x86 host, no PMU) none, and one banner
line says so and how to count them (check_default_counting). The cases below that need
counts run the program again with PAPI_OMPT_EVENTS set (papi_run keeps it):
A program that prints a faults_line (ompt_faults.c, .f90) is check_ompt.py's case faults
instead: each OpenMP thread counts perf::PAGE-FAULTS, and thread t's page faults in the
region are exactly its pages.
A program of constructs (ompt_constructs.c, gcc: its facts name a critical_line) is
check_ompt.py's case constructs on papi_run's table, interposed (with what only the
interposer sees there) and, where libomp.so.5 is installed, again with --libomp: both
tables have the same regions by name with the same thread counts, and the constructs both
see (critical, lock, nest lock, task, taskwait, the dynamic loop) each at the same line
with the same entries (and thread counts where every thread meets it) (issue 73 item 4: the same program both ways).
A program with an OMPT tool of its own (ompt_own_tool.c): the runtime starts that one and
never papi_run's; the program runs as without papi_run, papi_run's file says "not_reported"
and the banner says why (issue 58 item 7: ours never displaces it).
A team larger than the tool's slots (ompt_slots.c team 1100, its arguments after PROGRAM):
check_ompt.py's case slots_team on papi_run's table, and the banner says, beside the
efficiencies, the 76 threads without a slot and their 76 implicit tasks (issue 69 N4).
A libgomp program with --libomp where LLVM's libomp.so.5 is not installed: SKIPPED
(check_ompt.py)."""
import glob
import json
import os
import subprocess
import sys
import tempfile

import check_ompt  # noqa: E402 (its report_check guard checks every file against its schema)
from checks import check_said as check, verdict  # noqa: E402

LIBOMP = False  # --libomp: a libgomp program under LLVM's libomp, not libgomp interposed
INTERPOSED = "libgomp (GOMP_* interposed)"
OMPT = "LLVM libomp (OMPT)"


def run_papi_run(papi_run, tool_dir, program, out, *options, user_tool=None, program_args=(),
                 extra_env=None):
    env = dict(os.environ, PAPI_RUN_LIBDIR=tool_dir, OMP_WAIT_POLICY="passive", **(extra_env or {}))
    for name in ("OMP_TOOL_LIBRARIES", "PAPI_OMPT_OUTPUT_DIR", "OMP_TOOL"):
        env.pop(name, None)
    if user_tool:
        env["OMP_TOOL_LIBRARIES"] = user_tool
    if "TSAN_OPTIONS" in env:  # as check_ompt.run: Debian's libomp is not instrumented
        env["TSAN_OPTIONS"] += " ignore_noninstrumented_modules=1"
    os.mkdir(out)
    if LIBOMP and "--no-libomp" not in options:
        options = ("--libomp",) + options
    cmd = [papi_run, "-o", out] + list(options) + ["--", program] + list(program_args)
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
    print("$ " + " ".join(cmd) + ("  (OMP_TOOL_LIBRARIES=%s)" % user_tool if user_tool else ""))
    sys.stdout.write(p.stdout)
    sys.stderr.write(p.stderr)
    check(p.returncode == 0, "papi_run exits 0 (the program's status)")
    files = glob.glob(os.path.join(out, "papi_run_output", "rank_*.json"))
    if not check(len(files) == 1, "one papi_run file (%s)" % files):
        return p, None
    with open(files[0]) as f:
        return p, json.load(f)


def omp_lines(p):
    return [ln for ln in p.stderr.splitlines() if ln.startswith(" OpenMP")]


def measured(p, doc, gomp):
    o = doc.get("openmp")
    if not check(o is not None and o["status"] == "measured", "an OpenMP table (%s)"
                 % (o and {k: v for k, v in o.items() if k != "processes"})):
        return None
    check(o["program_runtime"] == ("libgomp" if gomp else "libomp"), "the program's runtime: %s"
          % o["program_runtime"])
    interposed = gomp and not LIBOMP
    check(bool(o["libomp_preloaded"]) == (gomp and LIBOMP),
          "libomp preloaded only for libgomp with --libomp: %r" % o["libomp_preloaded"])
    check(bool(o["interposer_preloaded"]) == interposed and o["route"] == (INTERPOSED if interposed else OMPT),
          "the route: %s, the interposer preloaded %r" % (o["route"], o["interposer_preloaded"]))
    check(o["processes"] and o["processes"][0]["runtime"].startswith(INTERPOSED) == interposed,
          "the table's runtime: %s" % (o["processes"] and o["processes"][0]["runtime"]))
    check(len(o["processes"]) == 1 and o["processes"][0]["pid"] == doc["pid"],
          "one process's table, the program's (pid %s)" % doc["pid"])
    said = omp_lines(p)
    check(any(ln.startswith(" OpenMP (process %d): 2 parallel regions;" % doc["pid"]) for ln in said),
          "the banner gives the process's regions and efficiencies: %s" % said)
    eff = o["processes"][0]["efficiency"]
    check(any(("load balance %.3f" % eff["load_balance"]) in ln for ln in said),
          "the banner's load balance is the file's (%.3f)" % eff["load_balance"])
    if gomp and LIBOMP:
        check(any(ln.startswith(" OpenMP: runtime %s: " % OMPT) and
                  "run under LLVM's %s (LD_PRELOAD, --libomp)" % o["libomp_preloaded"] in ln and
                  "without --libomp it keeps libgomp" in ln and "relies on libgomp's own behaviour" in ln
                  for ln in said),
              "the banner says libomp runs it, the switch and why one would do without it")
    elif gomp:
        check(any(ln.startswith(" OpenMP: runtime %s: the program's own, its entry points seen through %s"
                                % (INTERPOSED, o["interposer_preloaded"])) and "--libomp runs it under LLVM's libomp" in ln
                  for ln in said),
              "the banner says libgomp runs it, interposed, and what --libomp adds")
    else:
        check(" OpenMP: runtime %s: the program's own" % OMPT in said, "the banner names the program's runtime")
    return o["processes"][0]


OFF_LINE = (" OpenMP: the events are not counted per region and thread by default here: no "
            "user-space read of the counters")


def check_default_counting(p, table):
    """papi_run's default events per region (issue 73 item 1): where a thread's set is read
    from user space, its hardware events alone (no perf:: software event, which takes
    read()); elsewhere none, and one banner line says so and how to count them."""
    events = table["counters"]["events"]
    off = [ln for ln in omp_lines(p) if ln.startswith(OFF_LINE)]
    if events:
        check(not [e for e in events if e.startswith("perf::")] and not off,
              "papi_run's defaults counted per region: hardware events alone, no line: %s %s"
              % (events, off))
    else:
        check(len(off) == 1 and "-e EVENT or PAPI_OMPT_EVENTS=EVENT,... counts them" in off[0],
              "no user-space read here: nothing counted per region by default, one banner line "
              "says so and how to count them: %s" % omp_lines(p))


def explicit_run(papi_run, tool_dir, program, out, events, gomp):
    """The program again, its threads counting EVENTS per region (PAPI_OMPT_EVENTS, kept by
    papi_run, whatever its default here)."""
    p, doc = run_papi_run(papi_run, tool_dir, program, out, extra_env={"PAPI_OMPT_EVENTS": events})
    return p, doc, (measured(p, doc, gomp) if doc else None)


def check_counting_cost(p, table, facts):
    """ompt_short.c: the counting's cost in the table (counters: read_ns measured, every
    implicit task counted, cost_share = 2 x read_ns x tasks over their work) and, since
    its empty regions do less work than two reads, in one banner line."""
    c = table["counters"]
    tasks = sum(t["counted_tasks"] for r in table["regions"] for t in r["threads"])
    work = sum(t["work_ns"] for r in table["regions"] for t in r["threads"] if t["counted_tasks"])
    check(c["events"] and c["read_ns"] > 0, "counted, each read's cost measured: %s" % c)
    check(c["counted_tasks"] == tasks >= 2 * (facts["short_regions"] + 1),
          "every implicit task of both threads counted: %d (the rows' %d)" % (c["counted_tasks"], tasks))
    want = 2.0 * c["read_ns"] * tasks / work if work else None
    if check(want is not None and c["cost_share"] is not None, "a cost share: %s" % c["cost_share"]):
        check(abs(c["cost_share"] - want) <= 1e-4 + 1e-6 * want,
              "cost_share %s = 2 x read_ns x counted tasks / their work (%.4f)" % (c["cost_share"], want))
        check(c["cost_share"] >= 0.01, "empty regions: the counting costs more than 1%% of their "
              "work (%s)" % c["cost_share"])
    said = [ln for ln in omp_lines(p) if "counting the events per region" in ln]
    check(len(said) == 1 and ("two reads of %d ns" % c["read_ns"]) in said[0] and
          ("%.0f%% of the counted threads' work" % (100 * c["cost_share"])) in said[0] and
          "PAPI_OMPT_EVENTS= (set, empty)" in said[0],
          "one banner line gives the cost and how to do without it: %s" % said)


def check_shared_core(p, table):
    """ompt_shared.c: 2 threads on one core, computing 2 and 1 units of CPU time: the
    region's balance on CPU time is the true 0.75, the wall-time one reads higher, the
    threads were on a CPU well under their work time, and the banner says so."""
    check("perf::TASK-CLOCK" in table["counters"]["events"], "the task clock counted per thread: %s"
          % table["counters"]["events"])
    first = max(table["regions"], key=lambda r: r["wall_ns"])  # 3 units against 2/5
    cpu = first.get("cpu_time")
    if not check(cpu is not None, "the unequal region's factors on CPU time: %s" % cpu):
        return
    check(abs(cpu["load_balance"] - 0.75) <= 0.05, "load balance on CPU time %.3f, the true 0.75"
          % cpu["load_balance"])
    check(first["efficiency"]["load_balance"] >= cpu["load_balance"] + 0.03,
          "on wall time it reads higher: %.3f" % first["efficiency"]["load_balance"])
    check(cpu["on_cpu"] <= 0.8, "the threads were on a CPU for at most 80%% of their work time: %.3f"
          % cpu["on_cpu"])
    run = table.get("cpu_time")
    said = [ln for ln in omp_lines(p) if "shared cores" in ln]
    if check(run is not None and run["on_cpu"] < 0.9, "the run's factors on CPU time: %s" % run):
        check(len(said) == 1 and ("on a CPU %.0f%% of their work time" % (100 * run["on_cpu"])) in said[0]
              and ("load balance on CPU time %.3f, on wall time %.3f" %
                   (run["load_balance"], table["efficiency"]["load_balance"])) in said[0],
              "one banner line: the threads shared cores, both balances: %s" % said)


def same_tables(interposed, libomp, dyn, source):
    """The same gcc program's tables, interposed and under libomp: its regions by name with
    their thread counts, and the constructs both routes see in the source (libomp also
    files its taskloop's tasks under an address of its own, no line of the source)."""
    def regions(t):
        return sorted((r["name"], len(r["threads"]), r["instances"]) for r in t["regions"])
    check(regions(interposed) == regions(libomp), "the same regions by name, threads and instances: "
          "interposed %s, libomp %s" % (regions(interposed), regions(libomp)))

    def constructs(t):
        # each thread meets a critical, a lock and a loop; a task or taskwait only the threads
        # that ran one (the single's executor and the tasks' takers change from run to run)
        return sorted((c["kind"], c["line"], c["entries"],
                       len(c["threads"]) if c["kind"] not in ("task", "taskwait") else None)
                      for c in t["constructs"]
                      if os.path.basename(c["file"] or "") == os.path.basename(source) and (
                          c["kind"] in ("critical", "lock", "nest_lock", "task", "taskwait")
                          or (c["kind"] == "loop" and c.get("iterations") == dyn)))
    check(constructs(interposed) == constructs(libomp), "the constructs both see, alike (kind, line, "
          "entries, threads where all meet it): interposed %s, libomp %s" % (constructs(interposed), constructs(libomp)))


def check_constructs_both_ways(papi_run, tool_dir, program, tmp, table, facts):
    global LIBOMP
    check_ompt.GOMP_INTERPOSER = "papi_run's"  # the interposer's own checks on this table
    check_ompt.case_constructs(table, facts, True)
    check_ompt.GOMP_INTERPOSER = None
    if not check_ompt.llvm_libomp.installed():
        print("note: LLVM's libomp.so.5 is not installed: the --libomp run is left out")
        return
    LIBOMP = True
    p, doc = run_papi_run(papi_run, tool_dir, program, os.path.join(tmp, "libomp"))
    other = measured(p, doc, True) if doc else None
    if other:
        check_ompt.case_constructs(other, check_ompt.facts_of(p), True)
        same_tables(table, other, facts["dyn"], facts["file"])


def main(argv):
    global LIBOMP
    if len(argv) < 5 or argv[0] != "--papi-run" or argv[2] != "--tool-dir":
        print("usage: check_papi_run_omp.py --papi-run PAPI_RUN --tool-dir DIR [--libomp] PROGRAM [ARG...]", file=sys.stderr)
        return 2
    if argv[4] == "--libomp":
        LIBOMP, argv = True, argv[:4] + argv[5:]
    papi_run, tool_dir, program, program_args = argv[1], argv[3], argv[4], argv[5:]
    if LIBOMP:
        check_ompt.runtime_env(program)  # SKIPPED where a libgomp program has no libomp to run under
    gomp = any(n.startswith("libgomp") for n in check_ompt.needed(program))
    tmp = tempfile.mkdtemp(prefix="ompt_papi_run_")
    p, doc = run_papi_run(papi_run, tool_dir, program, os.path.join(tmp, "plain"), program_args=program_args)
    if program_args[:1] == ["team"]:  # ompt_slots.c team N: more threads than the tool's slots
        o = doc.get("openmp") if doc else None
        table = o["processes"][0] if check(o and o["status"] == "measured" and len(o["processes"]) == 1,
                                           "one process's OpenMP table") else None
        if table:
            check(any(ln.startswith(" OpenMP (process %d): 1 parallel region; serialization" % doc["pid"]) and
                      "load balance -," in ln for ln in omp_lines(p)),
                  "the banner's efficiencies: none judged (%s)" % omp_lines(p))
            facts = check_ompt.facts_of(p)
            check_ompt.case_slots_team(table, facts)
            past = facts["team"] - check_ompt.SLOTS
            said = [ln for ln in omp_lines(p) if "found no slot" in ln]
            check(said == [" OpenMP: %d threads found no slot of the tool's %d (more alive at once): their "
                           "%d implicit tasks and 0 forked instances not measured, the regions they ran in "
                           "have no efficiencies and the process's are over the others" % (past, check_ompt.SLOTS, past)],
                  "the banner says the threads without a slot beside the efficiencies: %s" % said)
        return verdict("ompt_papi_run_slots", scratch=tmp)
    if "own tool:" in p.stdout:  # ompt_own_tool.c: its runtime starts its own tool, not ours
        o = doc.get("openmp") if doc else None
        check(o is not None and o["status"] == "not_reported" and o["processes"] == [],
              "a program with its own OMPT tool: no table (%s)" % o)
        check("own tool: 3 parallel regions" in p.stdout and "threads summed: 6" in p.stdout,
              "the program's own tool saw its 3 regions, its answer unchanged")
        check(" OpenMP: no table: no process wrote a table: the program has an OMPT tool of its "
              "own, or it ran no OpenMP construct" in omp_lines(p), "the banner says why: %s" % omp_lines(p))
        return verdict("ompt_papi_run_own_tool", scratch=tmp)
    table = measured(p, doc, gomp) if doc else None
    facts = check_ompt.facts_of(p)
    if table:
        check_default_counting(p, table)
    if table and "critical_line" in facts and gomp and not LIBOMP:
        check_constructs_both_ways(papi_run, tool_dir, program, tmp, table, facts)
        return verdict("ompt_papi_run_constructs", scratch=tmp)
    if table and "short_regions" in facts:
        p, doc, table = explicit_run(papi_run, tool_dir, program, os.path.join(tmp, "counts"),
                                     "perf::TASK-CLOCK,perf::PAGE-FAULTS", gomp)
    if table and "short_regions" in facts:
        check_counting_cost(p, table, facts)
        p, doc = run_papi_run(papi_run, tool_dir, program, os.path.join(tmp, "no_counts"),
                              extra_env={"PAPI_OMPT_EVENTS": ""})
        table = measured(p, doc, gomp) if doc else None
        if table:
            c = table["counters"]
            check(c["read_ns"] == 0 and c["counted_tasks"] == 0 and c["cost_share"] is None,
                  "PAPI_OMPT_EVENTS= (empty): nothing counted, no cost: %s" % c)
            check(not [ln for ln in omp_lines(p) if "counting the events" in ln],
                  "PAPI_OMPT_EVENTS= (empty): no cost line")
        return verdict("ompt_papi_run_short", scratch=tmp)
    if table and "shared_core" in facts:
        p, doc, table = explicit_run(papi_run, tool_dir, program, os.path.join(tmp, "counts"),
                                     "perf::TASK-CLOCK", gomp)
    if table and "shared_core" in facts:
        check_shared_core(p, table)
        return verdict("ompt_papi_run_shared", scratch=tmp)
    if table and "faults_line" in facts:
        p, doc, table = explicit_run(papi_run, tool_dir, program, os.path.join(tmp, "counts"),
                                     "perf::PAGE-FAULTS", gomp)
    if table and "faults_line" in facts:
        c = table["counters"]
        check(c["source"] == "PAPI_OMPT_EVENTS" and "perf::PAGE-FAULTS" in c["events"],
              "the events PAPI_OMPT_EVENTS names counted per thread: %s" % c["events"])
        check_ompt.case_faults(table, facts)
        # papi_run(1) and --help: PAPI_OMPT_EVENTS= (empty) keeps the tables without counts.
        p, doc = run_papi_run(papi_run, tool_dir, program, os.path.join(tmp, "no_counts"),
                              extra_env={"PAPI_OMPT_EVENTS": ""})
        table = measured(p, doc, gomp) if doc else None
        if table:
            c = table["counters"]
            check(c["events"] == [] and c["source"] == "" and table["regions"],
                  "PAPI_OMPT_EVENTS= (empty): the regions without counts per thread: %s" % c)
        return verdict("ompt_papi_run_faults", scratch=tmp)
    if table:
        check_ompt.case_balance(table, facts)
        worst = max(table["regions"], key=lambda r: r["lost_ns"])
        top = [ln for ln in omp_lines(p) if ln.startswith(" OpenMP: most thread time lost in ")]
        check(len(top) == 1 and top[0].startswith(" OpenMP: most thread time lost in %s: %.1f ms lost"
                                                  % (worst["name"], worst["lost_ns"] / 1e6)),
              "the banner names the region that lost most first: %s" % top)
    other = "/nonexistent/libother_tool.so"
    p, doc = run_papi_run(papi_run, tool_dir, program, os.path.join(tmp, "user_tool"), user_tool=other)
    if doc and measured(p, doc, gomp):
        check(doc["openmp"]["user_tools"] == other, "the user's tool is recorded")
        check(any(("OMP_TOOL_LIBRARIES names %s: papi_run's tool is added after it" % other) in ln
                  for ln in omp_lines(p)), "the banner says the user's tool keeps its place")
    if gomp:
        p, doc = run_papi_run(papi_run, tool_dir, program, os.path.join(tmp, "off"), "--no-libomp")
        o = doc and doc.get("openmp")
        check(o is not None and o["status"] == "off" and o["processes"] == [] and not o["libomp_preloaded"]
              and not o["interposer_preloaded"] and o["route"] == "", "--no-libomp: no table (%s)" % o)
        check(omp_lines(p) == [" OpenMP: no table: --no-libomp: the program ran under libgomp untouched (no "
                               "GOMP_* interposer, no OMPT)"], "the banner says why, one line: %s" % omp_lines(p))
        check(check_ompt.facts_of(p).get("unit_ms") == 50, "the program ran to its answer")
        totals = doc["process_totals"] if doc else {}
        counts = [v for k, v in totals.items() if k not in ("counted", "real_time_nsec", "cycles")]
        check(counts and all(v > 0 for v in counts), "the counts go on: %s" % totals)
    return verdict("ompt_papi_run", scratch=tmp)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
