#!/usr/bin/env python3
"""check_sample.py: papi_run --sample run as users run it, on perf::TASK-CLOCK (a software
event: it samples on any machine, a hardware PMU or not).

  check_sample.py CASE PAPI_RUN PROGRAM [MPIRUN [NP [SLOW FACTOR]]]

CASE: split (work_a does 3 units for each of work_b's 1: work_a's self share of the two
in profile.folded is 75% +- 5 points, and the banner ends with the top functions),
recurse (a recursion 50 deep: a stack of exactly 50 descend frames), threads (two
threads and a forked child, each present: two threads of the parent in thread_work,
the child's own profile in child_work; -e perf::PAGE-FAULTS read per stack into
profile.perf__PAGE-FAULTS.folded; --per-thread beside it still has 4 rows: the
drain threads are not the program's), cxx (shapes::Crunch::run(long) demangled), fortran
(sampled::crunch for gfortran's __sampled_MOD_crunch), inlined (a function inlined
into main, -O2 -g: a frame main;inlined_work from the DWARF inlined subroutine), mpi (MPIRUN -np NP: one profile
per rank, the merged profile.folded holds every rank's rank_work, rank SLOW's (default 1)
FACTOR (default 3) times the others'; each rank's sampled rank_work matches its own CPU
clock, rank_work's max/mean over ranks the clocks' (near FACTOR*NP/(NP-1+FACTOR)), the
max rank SLOW; papi_report D -o REP merges the same, names SLOW the max and writes the
heat map's table with NP rank columns: case_mpi), mpi_fortran (MPIRUN: a Fortran MPI
program under mpirun -np 2, ranked::crunch in both ranks' profiles and the merged file),
mpi_metrics (MPIRUN: -m FAULTS_PER_MS per function over 2 ranks and --compare of two
runs by the metric: case_mpi_metrics), bad_input (period 0, an event that cannot sample, --call-graph bogus: one line,
exit 2, nothing run; a frequency above perf_event_max_sample_rate: one line, lowered,
profiled; a stripped program: profiled with module+offset frames and a note),
unprivileged (as nobody at perf_event_paranoid 2: user mode sampled, kernel frames left
out with a note), faults (leader sampling on perf::PAGE-FAULTS@1, every fault a sample:
sample_pages' touch_fresh_pages faults in exactly N fresh pages, its self weight in
profile.folded is exactly N, for N = 1000 and 20000, nothing lost or dropped),
dwarf_refused (--call-graph dwarf with refuse_dwarf.so, argv[4], preloaded into papi_run:
a kernel refusing the user registers and stack: one line saying so on stderr before the
program runs (ahead of the banner), exit 0, the banner and the profile say frame
pointers, which took the stacks), omp (sample_omp: two OpenMP threads, the master and
libgomp's, each in omp_work with its own tid, each with 30% to 70% of omp_work's
samples), exec (sample_work exec: pre_exec_work, then an exec of itself by execv, execvp,
execl and execve, post_exec_work in the new image: the image before the exec wrote
profile_RUNID_PID_exec1.json with pre_exec_work, the new one profile_RUNID_PID.json with
post_exec_work, the same pid, and profile.folded holds both functions, each with 40% to
60% of the two; a failed execv: sampling goes on in the same image, post_exec_work in its
second profile with a note). Every
profile file is checked against schema/profile.schema.json."""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import time
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import folded_file  # noqa: E402
import report_check  # noqa: E402 (every report this test writes is checked: schema/README.md)
from checks import fail  # noqa: E402 (tests/common/checks.py)

report_check.guard()

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMA = os.path.join(HERE, "..", "..", "schema", "profile.schema.json")
EVENT = "perf::TASK-CLOCK@1000000"  # a sample per ms of the thread's CPU time


def run(cmd, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300, **kw)
    return p.returncode, p.stdout, p.stderr


def profiles(out):
    """Every profile file under out, checked against the schema."""
    files = sorted(glob.glob(os.path.join(out, "**", "profile_*.json"), recursive=True))
    try:
        import jsonschema
        v = jsonschema.Draft202012Validator(json.load(open(SCHEMA)))
    except ImportError:
        v = None
    docs = []
    for f in files:
        d = json.load(open(f))
        if v:
            errors = [e.message for e in v.iter_errors(d)]
            if errors:
                fail("%s breaks profile.schema.json: %s" % (f, errors[:3]))
        docs.append(d)
    return docs


def folded(out, name="profile.folded"):
    return folded_file.stacks(out, name, on_error=fail)


def self_of(stacks):
    """Each function's weight as the sampled (last) frame."""
    own = {}
    for stack, count in stacks.items():
        leaf = stack.split(";")[-1]
        own[leaf] = own.get(leaf, 0) + count
    return own


def sample(papi_run, out, args, extra=()):
    rc, _, err = run([papi_run, "--sample", EVENT, *extra, "-o", out, "--", *args])
    if rc != 0:
        fail("exit status %d\n%s" % (rc, err))
    return err


def case_split(papi_run, prog, out):
    err = sample(papi_run, out, [prog, "split", "60"])
    own = self_of(folded(out))
    a, b = own.get("work_a", 0), own.get("work_b", 0)
    if a + b == 0:
        fail("neither work_a nor work_b in profile.folded: %s" % own)
    share = 100.0 * a / (a + b)
    if abs(share - 75.0) > 5.0:
        fail("work_a has %.1f%% of the two, expected 75 +- 5" % share)
    tail = err[err.find("top functions"):]
    if "top functions" not in err or "work_a" not in tail or "work_b" not in tail:
        fail("the banner does not end with the top functions:\n" + err)
    (d,) = profiles(out)
    if d["period"] != 1000000 or d["sampled_event"] != "perf::TASK-CLOCK" or d["call_graph"] != "fp":
        fail("the profile's header: %s" % {k: d.get(k) for k in ("period", "sampled_event", "call_graph")})
    print("split: work_a %.1f%% of work_a + work_b (%d and %d ns sampled)" % (share, a, b))


def case_crash(papi_run, prog, out):
    """A program that dies of a fault keeps its profile: the sampling library writes what it
    took before the default action ends the program (exit 128+11 kept), the profile's note
    and papi_run name the signal, and nothing blames the sampling library."""
    rc, _, err = run([papi_run, "--sample", EVENT, "-o", out, "--", prog, "crash", "200"])
    if rc != 128 + 11:
        fail("exit status %d, expected 139 (SIGSEGV)\n%s" % (rc, err))
    if "never ran the sampling library" in err or "no process of the program left" in err:
        fail("the profile was lost:\n%s" % err)
    own = self_of(folded(out))
    if own.get("work_a", 0) < 100 * 1000000:
        fail("work_a %d ns sampled in 0.2 s of it: %s" % (own.get("work_a", 0), own))
    (d,) = profiles(out)
    if "signal 11" not in d.get("notes", ""):
        fail("the profile's note does not name signal 11: %r" % d.get("notes"))
    print("crash: exit %d, work_a %d ms sampled, note %r" % (rc, own.get("work_a", 0) // 1000000,
                                                            d.get("notes")))


def case_recurse(papi_run, prog, out):
    sample(papi_run, out, [prog, "recurse", "20", "50"])
    depths = {s.split(";").count("descend") for s in folded(out) if s.split(";")[-1] in ("spin", "[kernel]")}
    if 50 not in depths or max(depths) != 50:
        fail("descend frames per stack %s, expected 50" % sorted(depths))
    print("recurse: stacks of 50 descend frames")


def case_threads(papi_run, prog, out):
    sample(papi_run, out, [prog, "threads", "20"], ["-e", "perf::PAGE-FAULTS", "--per-thread"])
    (rows,) = [json.load(open(f)) for f in glob.glob(os.path.join(out, "**", "rank_*.json"), recursive=True)]
    if len(rows["threads"]) != 4:  # main, 2 threads, the child: the drain threads are not the program's
        fail("--per-thread beside --sample: %d thread rows, expected 4" % len(rows["threads"]))
    docs = profiles(out)
    if len(docs) != 2:
        fail("%d profile files, expected the parent's and the child's" % len(docs))
    parent = [d for d in docs if tids_in(d, "thread_work")]
    child = [d for d in docs if tids_in(d, "child_work")]
    if len(parent) != 1 or len(tids_in(parent[0], "thread_work")) != 2:
        fail("two threads in thread_work expected: %s" % [tids_in(d, "thread_work") for d in docs])
    if len(child) != 1 or child[0]["pid"] == parent[0]["pid"]:
        fail("the forked child's own profile with child_work expected")
    if parent[0]["events"] != ["perf::TASK-CLOCK", "perf::PAGE-FAULTS"]:
        fail("events %s" % parent[0]["events"])
    faults = folded(out, "profile.perf__PAGE-FAULTS.folded")
    if sum(faults.values()) <= 0:
        fail("no page faults per stack")
    print("threads: 2 threads in thread_work, child %d in child_work, %d page faults per stack"
          % (child[0]["pid"], sum(faults.values())))


def tids_in(d, fn):
    """The threads of profile d with fn among their frames."""
    names = [f["name"] for f in d["frames"]]
    return {s["tid"] for s in d["stacks"] if fn in [names[i] for i in s["frames"]]}


def case_omp(papi_run, prog, out):
    sample(papi_run, out, [prog, "200"])
    (d,) = profiles(out)
    names = [f["name"] for f in d["frames"]]
    per_tid = {}
    for s in d["stacks"]:
        if "omp_work" in [names[i] for i in s["frames"]]:
            per_tid[s["tid"]] = per_tid.get(s["tid"], 0) + s["counts"][0]
    if len(per_tid) != 2:
        fail("omp_work sampled in threads %s: the master and libgomp's thread expected" % per_tid)
    both = sum(per_tid.values())
    shares = sorted(100.0 * w / both for w in per_tid.values())
    if shares[0] < 30.0:
        fail("omp_work per thread %s: each thread spins the same units, 30%% to 70%% each expected"
             % per_tid)
    if d["pid"] not in per_tid:
        fail("omp_work threads %s: the master thread (tid = pid %d) is not among them" % (per_tid, d["pid"]))
    print("omp: omp_work in 2 threads %s, %.1f%% and %.1f%% of its samples"
          % (sorted(per_tid), shares[0], shares[1]))


def case_exec(papi_run, prog, out):
    for how in ("execv", "execvp", "execl", "execve", "fail"):
        d = os.path.join(out, how)
        sample(papi_run, d, [prog, "exec", "40", how])
        files = {os.path.basename(f): json.load(open(f))
                 for f in glob.glob(os.path.join(d, "**", "profile_*.json"), recursive=True)}
        docs = profiles(d)
        before = [n for n in files if n.endswith("_exec1.json")]
        after = [n for n in files if not n.endswith("_exec1.json")]
        if len(files) != 2 or len(before) != 1 or len(after) != 1:
            fail("%s: profiles %s: one written before the exec (_exec1) and one after expected"
                 % (how, sorted(files)))
        fb, fa = files[before[0]], files[after[0]]
        if fb["pid"] != fa["pid"] or after[0] != before[0].replace("_exec1", "") or len(docs) != 2:
            fail("%s: %s (pid %d) and %s (pid %d): one process, two images" % (how, before[0], fb["pid"], after[0], fa["pid"]))
        if not tids_in(fb, "pre_exec_work") or tids_in(fb, "post_exec_work") or \
                not tids_in(fa, "post_exec_work") or tids_in(fa, "pre_exec_work"):
            fail("%s: pre_exec_work in the image before the exec, post_exec_work after: %s, %s"
                 % (how, sorted({f["name"] for f in fb["frames"]}), sorted({f["name"] for f in fa["frames"]})))
        noted = "an exec failed" in fa["notes"]
        if noted != (how == "fail"):
            fail("%s: notes %r" % (how, fa["notes"]))
        stacks = folded(d)  # (the work is in spin, called by each)
        pre = sum(c for st, c in stacks.items() if "pre_exec_work" in st.split(";"))
        post = sum(c for st, c in stacks.items() if "post_exec_work" in st.split(";"))
        if not pre or not 40.0 <= 100.0 * pre / (pre + post) <= 60.0:
            fail("%s: profile.folded has pre_exec_work %d, post_exec_work %d: the same work each"
                 % (how, pre, post))
        print("exec: %s: pre_exec_work %d ns (%s), post_exec_work %d ns (%s)"
              % (how, pre, before[0], post, after[0]))


def case_faults(papi_run, prog, out):
    for n in (1000, 20000):
        # A sample per fault comes faster than the drain thread empties the ring when the
        # machine is loaded (the kernel then counts what it lost, and the profile says
        # so): exactness is judged on a run that lost nothing, the third loss fails.
        for attempt in range(3):
            d = os.path.join(out, "%d.%d" % (n, attempt))
            rc, _, err = run([papi_run, "--sample", "perf::PAGE-FAULTS@1", "-o", d, "--", prog, str(n)])
            if rc != 0:
                fail("exit status %d\n%s" % (rc, err))
            (doc,) = profiles(d)
            if not doc["lost_records"] and not doc.get("dropped_samples", 0):
                break
            print("faults: %d pages, run %d: %d lost, %d dropped samples at period 1 (said in the "
                  "profile): run again" % (n, attempt + 1, doc["lost_records"], doc["dropped_samples"]))
        else:
            fail("%d lost, %d dropped samples at period 1 in each of 3 runs"
                 % (doc["lost_records"], doc["dropped_samples"]))
        own = self_of(folded(d))
        # Exact: the kernel counts one fault per page touched; ld.so's and libc's own
        # faults land in their own functions, never in touch_fresh_pages.
        if own.get("touch_fresh_pages") != n:
            fail("touch_fresh_pages: %s page faults sampled, expected exactly %d (%s)"
                 % (own.get("touch_fresh_pages"), n, sorted(own.items(), key=lambda kv: -kv[1])[:5]))
        print("faults: touch_fresh_pages %d of %d page faults sampled, %d samples in all"
              % (own["touch_fresh_pages"], n, doc["samples"]))


def case_user_only(papi_run, prog, out):
    """EVENT:u (perf's modifier): user mode only. 20000 fresh pages spend their faults'
    time in the kernel: without :u (where the kernel may be sampled) [kernel] frames
    take part of the samples; with :u none, and the banner says so."""
    runs = {}
    for mod in ("", ":u"):
        d = os.path.join(out, "u" if mod else "all")
        rc, _, err = run([papi_run, "--sample", "perf::TASK-CLOCK%s@100000" % mod, "-o", d,
                          "--", prog, "20000"])
        if rc != 0:
            fail("--sample perf::TASK-CLOCK%s: exit status %d\n%s" % (mod, rc, err))
        stacks = folded(d)
        runs[mod] = (sum(c for s, c in stacks.items() if "[kernel]" in s.split(";")),
                     sum(stacks.values()), err)
    k_all, all_all, err_all = runs[""]
    k_u, all_u, err_u = runs[":u"]
    if "user mode only (:u)" not in err_u:
        fail("the banner does not say user mode only:\n" + err_u)
    if k_u != 0:
        fail("--sample perf::TASK-CLOCK:u: %d of %d ns sampled in [kernel] frames" % (k_u, all_u))
    if "kernel frames not sampled" in err_all:
        print("user_only: this user may not sample the kernel: no comparison with the default")
    elif k_all == 0:
        fail("without :u no [kernel] frame in 20000 page faults (%d ns sampled)" % all_all)
    print("user_only: [kernel] frames %d of %d ns without :u, %d of %d with :u"
          % (k_all, all_all, k_u, all_u))


def case_dwarf_refused(papi_run, prog, out, shim):
    env = dict(os.environ, LD_PRELOAD=shim)
    rc, so, err = run([papi_run, "--sample", EVENT, "--call-graph", "dwarf", "-o", out, "--",
                       prog, "split", "10"], env=env)
    if rc != 0:
        fail("exit status %d\n%s" % (rc, err))
    said = [line for line in err.splitlines() if line.startswith("papi_run: --call-graph dwarf")]
    first = err.find("papi_run: --call-graph dwarf: the kernel refused")
    if len(said) != 1 or first < 0 or first > err.find("Performance counter stats") or not re.search(r"\(Invalid argument\): frame pointers", said[0]):
        fail("expected one line saying dwarf was refused (EINVAL), fp taken:\n" + err)
    if "call stacks: --call-graph fp" not in err:
        fail("the banner does not say frame pointers were taken:\n" + err)
    (d,) = profiles(out)
    own = self_of(folded(out))
    if d["call_graph"] != "fp" or not own.get("work_a") or not any(
            s.endswith("main;work_a") for s in folded(out)):
        fail("profile call_graph %s, functions %s: frame-pointer stacks expected"
             % (d["call_graph"], sorted(own)))
    print("dwarf_refused: %r; profile taken with fp, work_a %d ns" % (said[0], own["work_a"]))


def case_named(papi_run, prog, out, name, args):
    sample(papi_run, out, [prog, *args])
    own = self_of(folded(out))
    if name not in own:
        fail("%s not among the sampled functions %s" % (name, sorted(own)))
    profiles(out)
    print("%s named in profile.folded (%d ns)" % (name, own[name]))


def mpi_expect(text):
    """{rank: seconds} of the ranks' "EXPECT rank_work RANK SECONDS" lines (sample_mpi.c:
    each rank's own thread CPU clock around rank_work), found anywhere in a line."""
    out = {}
    for m in re.finditer(r"EXPECT rank_work (\d+) ([0-9.]+)", text):
        out[int(m.group(1))] = float(m.group(2))
    return out


LOSS = 0.2  # timer samples lost at context switches: seen up to 17% of a rank, never over


def within(sampled, clock, period_s):
    """A rank's sampled task clock in a function against its own CPU clock there: at most 3
    periods over (a sample's period straddles the function's entry and exit), at most 3
    periods + LOSS under: with ranks switching on the 2 shared cores the kernel's task-clock
    timer loses part of a period at some switches (1% to 3% in 4-rank runs, up to 17% for
    the one rank working beside a busy-polling one on a loaded machine)."""
    return clock * (1 - LOSS) - 3 * period_s <= sampled <= clock + 3 * period_s


def ratio_tolerance(clocks, slow, period_s):
    """(max/mean of clocks, the bound of the sampled max/mean): to first order, the relative
    error of the slow rank's figure and of the sum (3 periods each way) plus 10% for ranks
    losing unequal shares of samples (within() says why; 3% at most between the ranks of a
    4-rank run here)."""
    total = sum(clocks.values())
    ratio = clocks[slow] * len(clocks) / total
    periods = 3 * period_s / clocks[slow] + 3 * period_s * len(clocks) / total
    return ratio, ratio * (periods + 0.1)


def text_cell(rep, fields, column):
    """The cell of column in a row of report.txt's top functions (fields: the row split at
    blanks), its columns those of profile_functions.csv (column names hold blanks, cells
    do not); None when the row has an empty cell."""
    import csv
    with open(os.path.join(rep, "profile_functions.csv")) as f:
        columns = next(csv.reader(f))
    return fields[columns.index(column)] if len(fields) == len(columns) and column in columns else None


def case_mpi(papi_run, prog, out, mpirun, np, slow=1, factor=3):
    """NP ranks, rank SLOW doing FACTOR times the others' work in rank_work: per rank
    profiles, the merged profile.folded holds all ranks' rank_work; each rank's sampled
    weight in rank_work matches its own CPU clock (the ranks share the 2 cores: wall time
    would not; within()), so rank_work's max/mean over ranks is the clocks' within the
    sampling bound (ratio_tolerance()), near the nominal FACTOR*NP/(NP-1+FACTOR) (1.5 for 2 ranks 3:1, 1.6 for 4 ranks
    with one doing twice the work) unless the clocks show the machine changed the split;
    the max is the slow rank's. With PAPI_RUN_REPORT: papi_report D -o REP gives the same
    (profile_functions.csv's min, mean, max, max_rank; report.txt's top functions) and the
    heat map's table profile_function_rank_grid.csv has NP rank columns, the slow rank's
    share of rank_work the largest."""
    np, slow, factor = int(np), int(slow), int(factor)
    units = "120" if np > 2 else "20"  # 4 ranks: ~0.2 s of CPU each, the slow one twice
    rc, so, err = run([mpirun, "-np", str(np), papi_run, "--quiet", "--sample", EVENT, "-o", out,
                       "--", prog, units, str(slow), str(factor)])
    if rc != 0:
        fail("mpirun exit status %d\n%s" % (rc, err))
    docs = profiles(out)
    per_rank = {}
    for d in docs:
        names = [f["name"] for f in d["frames"]]
        w = sum(s["counts"][0] for s in d["stacks"] if names[s["frames"][-1]] == "rank_work")
        per_rank[d["rank"]] = per_rank.get(d["rank"], 0) + w
    if sorted(per_rank) != list(range(np)):
        fail("profiles of ranks %s, expected 0..%d" % (sorted(per_rank), np - 1))
    merged = self_of(folded(out)).get("rank_work", 0)
    if merged != sum(per_rank.values()):
        fail("profile.folded has %d of rank_work, the ranks' files %s" % (merged, per_rank))
    clocks = mpi_expect(so)
    if sorted(clocks) != list(range(np)):
        fail("EXPECT lines of ranks %s, expected 0..%d:\n%s" % (sorted(clocks), np - 1, so))
    period_s = int(EVENT.split("@")[1]) * 1e-9
    want, bound = ratio_tolerance(clocks, slow, period_s)
    for r in range(np):
        print("mpi: rank %d: rank_work sampled %.4f s, its clock %.4f s" % (r, per_rank[r] * 1e-9, clocks[r]))
        if not within(per_rank[r] * 1e-9, clocks[r], period_s):
            fail("rank %d's sampled rank_work %.4f s is not its own clock's %.4f s (-%d%%, +3 periods)"
                 % (r, per_rank[r] * 1e-9, clocks[r], 100 * LOSS))
    top = max(per_rank, key=per_rank.get)
    mean = sum(per_rank.values()) / np
    got = per_rank[top] / mean
    nominal = factor * np / (np - 1 + factor)
    print("mpi: rank_work max/mean %.3f (rank %d), the clocks' %.3f +- %.3f, nominal %.3f"
          % (got, top, want, bound, nominal))
    half = (factor + 1) / 2.0  # midway between equal work and the slow rank's factor
    low = [r for r in per_rank if r != slow and not per_rank[slow] > half * per_rank[r]]
    if low:
        fail("rank %d's rank_work %d is not above %.1f times ranks %s's %s"
             % (slow, per_rank[slow], half, low, [per_rank[r] for r in low]))
    if top != slow or abs(got - want) > bound:
        fail("rank_work's max is rank %d's at %.3f x the mean: expected rank %d's at %.3f +- %.3f"
             % (top, got, slow, want, bound))
    if abs(want - nominal) > 0.1 * nominal:
        print("mpi: the ranks' clocks give %.3f, not the nominal %.3f: the machine changed the "
              "split (the sampled figure still matches the clocks)" % (want, nominal))
    report = os.environ.get("PAPI_RUN_REPORT", "").split()
    if report:  # papi_report D -o REP: the same merge, and the functions' spread over ranks
        rep = os.path.join(out, "rep")
        rc, so, err = run(report + [out, "-o", rep])
        if rc != 0:
            fail("papi_report exit status %d\n%s%s" % (rc, so, err))
        again = self_of(folded(rep)).get("rank_work", 0)
        import csv
        rows = {r["function"]: r for r in csv.DictReader(open(os.path.join(rep, "profile_functions.csv")))}
        rc, so, err = run(report + ["--check", out])
        counted = re.search(r"(\d+) of (\d+) files follow their schema", so)
        if rc != 0 or not counted or counted.group(1) != counted.group(2) or int(counted.group(1)) < 2 * np:
            fail("papi_report --check %s: %d %s%s" % (out, rc, so, err))
        text = open(os.path.join(rep, "report.txt")).read()
        heads = [line for line in text.splitlines() if line.startswith("Top functions")]
        table = text[text.find("Top functions of the sampled profile"):].split("\n\n")[0]
        row = [line.split() for line in table.splitlines() if line.split()[:1] == ["rank_work"]]
        if len(heads) != 1 or len(row) != 1 or text_cell(rep, row[0], "max_rank") != str(slow):
            fail("papi_report's report.txt: the top functions once, rank_work's max rank %d:\n%s"
                 % (slow, text[-2000:]))
        r = rows.get("rank_work", {})
        spread = [float(r.get(k) or "nan") for k in ("min", "mean", "max")]
        if again != merged or r.get("max_rank") != str(slow) or spread != [
                min(per_rank.values()), mean, per_rank[slow]]:
            fail("papi_report: rank_work %d (papi_run's %d), row %s, per rank %s" % (again, merged, r, per_rank))
        grid = {g["function"]: g for g in csv.DictReader(open(os.path.join(rep, "profile_function_rank_grid.csv")))}
        cols = ["rank %d" % k for k in range(np)]
        cells = [float(grid.get("rank_work", {}).get(c) or "nan") for c in cols]
        if list(next(iter(grid.values())).keys()) != ["function"] + cols or \
                max(range(np), key=lambda k: cells[k]) != slow:
            fail("profile_function_rank_grid.csv: columns %s, rank_work's cells %s: rank %d's the "
                 "largest expected" % (list(next(iter(grid.values())).keys()), cells, slow))
        print("mpi: papi_report: rank_work min %.0f mean %.0f max %.0f (rank %s), max/mean %.3f; "
              "heat map cells %s" % (spread[0], spread[1], spread[2], r["max_rank"],
                                     spread[2] / spread[1], ["%.1f%%" % c for c in cells]))
    print("mpi: rank_work per rank %s, merged %d%s" % (per_rank, merged, ", papi_report agrees" if report else ""))


def case_mpi_fortran(papi_run, prog, out, mpirun):
    """mpi_sample_f.f90 (`use mpi`) under mpirun -np 2 papi_run --sample: the module
    procedure's frames read ranked::crunch (never gfortran's __ranked_MOD_crunch), the one
    merged profile.folded holds both ranks' samples of it (the sum of the ranks' files),
    each rank's as long as its own CPU clock in crunch (within(): case_mpi's bound),
    rank 1's about 3 times rank 0's."""
    rc, so, err = run([mpirun, "-np", "2", papi_run, "--quiet", "--sample", EVENT, "-o", out,
                       "--", prog])
    if rc != 0:
        fail("mpirun exit status %d\n%s" % (rc, err))
    clocks = {}
    for m in re.finditer(r"EXPECT crunch (\d+) ([0-9.]+)", so):
        clocks[int(m.group(1))] = float(m.group(2))
    per_rank = {}
    for d in profiles(out):
        names = [f["name"] for f in d["frames"]]
        if any("_MOD_" in n for n in names):
            fail("rank %s: gfortran's names left: %s" % (d["rank"], [n for n in names if "_MOD_" in n]))
        w = sum(s["counts"][0] for s in d["stacks"] if names[s["frames"][-1]] == "ranked::crunch")
        per_rank[d["rank"]] = per_rank.get(d["rank"], 0) + w
    if sorted(per_rank) != [0, 1] or sorted(clocks) != [0, 1]:
        fail("profiles of ranks %s, EXPECT lines of ranks %s: 0 and 1 expected" % (sorted(per_rank), sorted(clocks)))
    stacks = folded(out)
    merged = self_of(stacks).get("ranked::crunch", 0)
    if merged != sum(per_rank.values()) or not any(s.endswith(";ranked::crunch") for s in stacks):
        fail("profile.folded has %d of ranked::crunch, the ranks' files %s" % (merged, per_rank))
    for r in (0, 1):
        print("mpi_fortran: rank %d: ranked::crunch sampled %.4f s, its clock %.4f s"
              % (r, per_rank[r] * 1e-9, clocks[r]))
        if not within(per_rank[r] * 1e-9, clocks[r], int(EVENT.split("@")[1]) * 1e-9):
            fail("rank %d's sampled ranked::crunch is not its own clock (-%d%%, +3 periods)" % (r, 100 * LOSS))
    if not per_rank[1] > 2 * per_rank[0]:
        fail("rank 1's ranked::crunch %d is not about 3 times rank 0's %d" % (per_rank[1], per_rank[0]))
    print("mpi_fortran: ranked::crunch per rank %s, merged %d in profile.folded" % (per_rank, merged))


METRICS_TABLE = """CPU,generic
METRIC,FAULTS_PER_MS,faults/ms,{perf::PAGE-FAULTS} / {perf::TASK-CLOCK} * 1e6,Page faults per ms of CPU time
"""


def faults_per_ms(counts):
    """FAULTS_PER_MS of [TASK-CLOCK, PAGE-FAULTS] sums, as its formula computes it."""
    return float(counts[1]) / float(counts[0]) * 1e6 if counts[0] else None


def own_by_rank(docs, fn):
    """{rank: [TASK-CLOCK, PAGE-FAULTS] summed over fn's self stacks}."""
    out = {}
    for d in docs:
        if d["events"] != ["perf::TASK-CLOCK", "perf::PAGE-FAULTS"]:
            fail("events read with the samples: %s" % d["events"])
        names = [f["name"] for f in d["frames"]]
        w = out.setdefault(d["rank"], [0, 0])
        for st in d["stacks"]:
            if names[st["frames"][-1]] == fn:
                w[0] += st["counts"][0]
                w[1] += st["counts"][1]
    return out


def case_mpi_metrics(papi_run, prog, out, mpirun):
    """-m per function over ranks, and --compare of the metric (sample_mpi_faults.c): run
    A, 2 ranks: rank 0's touch_pages faults 6 x 1024 pages in computing 5000 steps after
    each (with none its time was nearly all in the kernel's fault handler, where a task
    clock that leaves the kernel out takes no sample: 0 samples in a loaded run), rank 1's
    computes 30000 steps after each page, so rank 1 has more of the sampled task clock there (its max rank)
    and rank 0 more page faults per ms (FAULTS_PER_MS's max rank); papi_report's
    profile_functions.csv has FAULTS_PER_MS min, mean, max and max_rank over the ranks
    exactly as each rank's own counts of touch_pages give them. Run B: rank 1 computes
    60000 steps a page: papi_report --compare A B has a FAULTS_PER_MS row for touch_pages
    whose A and B are the metric of each run's summed own counts (all ranks), B/A their
    ratio, "lower"; --fail-if 'function:touch_pages@FAULTS_PER_MS<0.9' exits 4."""
    report = os.environ.get("PAPI_RUN_REPORT", "").split()
    if not report:
        print("SKIPPED: PAPI_RUN_REPORT (papi_report with pandas) not given")
        sys.exit(77)
    table = os.path.join(out, "metrics.csv")
    with open(table, "w") as f:
        f.write(METRICS_TABLE)
    env = dict(os.environ, PAPI_METRICS_FILE=table)
    runs = {}
    for side, spin1 in (("A", "30000"), ("B", "60000")):
        d = os.path.join(out, side)
        rc, _, err = run([mpirun, "-np", "2", papi_run, "--quiet", "--sample", EVENT, "-m",
                          "FAULTS_PER_MS", "-o", d, "--", prog, "6", "5000", spin1], env=env)
        if rc != 0:
            fail("run %s: mpirun exit status %d\n%s" % (side, rc, err))
        runs[side] = own_by_rank(profiles(d), "touch_pages")
    a = runs["A"]
    if sorted(a) != [0, 1] or not all(c[0] for c in a.values()):
        fail("touch_pages sampled on ranks %s, expected 0 and 1" % a)
    values = {r: faults_per_ms(c) for r, c in a.items()}
    if not values[0] > 1.5 * values[1] or not a[1][0] > a[0][0]:
        fail("touch_pages: FAULTS_PER_MS per rank %s (rank 0's above 1.5 x rank 1's expected), "
             "task clock %s (rank 1's the larger expected)" % (values, {r: c[0] for r, c in a.items()}))
    rep = os.path.join(out, "rep")
    rc, so, err = run(report + [os.path.join(out, "A"), "-o", rep], env=env)
    if rc != 0:
        fail("papi_report exit status %d\n%s%s" % (rc, so, err))
    import csv
    row = [r for r in csv.DictReader(open(os.path.join(rep, "profile_functions.csv")))
           if r["function"] == "touch_pages"]
    want = {"FAULTS_PER_MS min": min(values.values()), "FAULTS_PER_MS mean": sum(values.values()) / 2,
            "FAULTS_PER_MS max": values[0], "FAULTS_PER_MS max_rank": 0, "max_rank": 1,
            "FAULTS_PER_MS": faults_per_ms([a[0][0] + a[1][0], a[0][1] + a[1][1]])}
    got = {k: float(row[0][k]) if row and row[0].get(k) else None for k in want}
    if any(got[k] is None or abs(got[k] - w) > 1e-9 * abs(w) for k, w in want.items()):
        fail("profile_functions.csv's touch_pages: %s, its own counts per rank give %s" % (got, want))
    text = open(os.path.join(rep, "report.txt")).read()
    top = text[text.find("Top functions of the sampled profile"):].split("\n\n")[0]
    head = [ln for ln in top.splitlines() if ln.split()[:1] == ["function"]]
    line = [ln.split() for ln in top.splitlines() if ln.split()[:1] == ["touch_pages"]]
    if (not head or "FAULTS_PER_MS max_rank" not in head[0] or not line
            or text_cell(rep, line[0], "FAULTS_PER_MS max_rank") != "0"):
        fail("report.txt's top functions: a FAULTS_PER_MS max_rank column, 0 for touch_pages:\n" + top)
    sums = {s: faults_per_ms([sum(c[0] for c in runs[s].values()), sum(c[1] for c in runs[s].values())])
            for s in runs}
    cmp_dir = os.path.join(out, "cmp")
    rc, so, err = run(report + ["--compare", os.path.join(out, "A"), os.path.join(out, "B"), "-o", cmp_dir],
                      env=env)
    if rc != 0:
        fail("papi_report --compare exit status %d\n%s%s" % (rc, so, err))
    rows = [r for r in csv.DictReader(open(os.path.join(cmp_dir, "compare_functions.csv")))
            if r["function"] == "touch_pages" and r["event"] == "FAULTS_PER_MS"]
    if len(rows) != 1:
        fail("compare_functions.csv: %d FAULTS_PER_MS rows of touch_pages" % len(rows))
    r = rows[0]
    ra, rb, ratio = float(r["a"]), float(r["b"]), float(r["ratio"])
    if r["kind"] != "metric" or r["unit"] != "faults/ms" or abs(ra - sums["A"]) > 1e-9 * sums["A"] \
            or abs(rb - sums["B"]) > 1e-9 * sums["B"] or abs(ratio - rb / ra) > 1e-12 or r["verdict"] != "lower":
        fail("compare_functions.csv's touch_pages FAULTS_PER_MS row %s; the runs' own counts give A %s, "
             "B %s (lower expected)" % (r, sums["A"], sums["B"]))
    cmp_text = open(os.path.join(cmp_dir, "compare.txt")).read()
    if not any(ln.startswith("touch_pages") and "FAULTS_PER_MS" in ln for ln in cmp_text.splitlines()):
        fail("compare.txt has no touch_pages FAULTS_PER_MS line")
    rc, _, err = run(report + ["--compare", os.path.join(out, "A"), os.path.join(out, "B"), "-o", cmp_dir,
                               "--fail-if", "function:touch_pages@FAULTS_PER_MS<0.9"], env=env)
    if rc != 4:
        fail("--fail-if function:touch_pages@FAULTS_PER_MS<0.9: exit %d, expected 4\n%s" % (rc, err))
    print("mpi_metrics: touch_pages FAULTS_PER_MS rank 0 %.4g, rank 1 %.4g (max rank 0; task clock's "
          "max rank 1); compare A %.4g B %.4g faults/ms, B/A %.3f %s, --fail-if exit 4"
          % (values[0], values[1], ra, rb, ratio, r["verdict"]))


def case_bad_input(papi_run, prog, out):
    for extra, what in ((["--sample", "perf::TASK-CLOCK@0"], "of 0"),
                        (["--sample", "perf::NO-SUCH-EVENT"], "cannot be sampled"),
                        (["--sample", "perf::TASK-CLOCK", "--call-graph", "bogus"], "bogus")):
        rc, so, err = run([papi_run, *extra, "-o", out, "--", prog, "split", "1"])
        lines = err.strip().splitlines()
        alone = what != "bogus"  # a usage error: its line, then the usage text
        if rc != 2 or not lines or (alone and len(lines) != 1) or what not in lines[0]:
            fail("%s: exit %d, stderr %r (one line with %r expected)" % (extra, rc, err, what))
    if glob.glob(os.path.join(out, "**", "profile*"), recursive=True):
        fail("a refused run left a profile")
    rate = int(open("/proc/sys/kernel/perf_event_max_sample_rate").read())
    rc, _, err = run([papi_run, "--quiet", "--sample", "perf::TASK-CLOCK@%dhz" % (rate + 1), "-o",
                      out, "--", prog, "split", "0"])
    if rc != 0 or "perf_event_max_sample_rate" not in err or len(err.strip().splitlines()) != 1:
        fail("frequency above the maximum: exit %d, %r" % (rc, err))
    (d,) = profiles(out)
    if d["frequency_hz"] != min(rate, 50000):  # a clock: at most every 20 us
        fail("frequency %s, expected it lowered to %d" % (d["frequency_hz"], min(rate, 50000)))
    # A clock's period under the kernel's 10 us minimum (which it raised without a word, and
    # where its timer took a program 4 to 60 times as long): one line with the period used,
    # the profile sampled at it, no stall.
    out3 = os.path.join(out, "short")
    t0 = time.monotonic()
    rc, _, err = run([papi_run, "--quiet", "--sample", "perf::TASK-CLOCK@5000", "-o", out3, "--",
                      prog, "split", "0"])
    took = time.monotonic() - t0
    if rc != 0 or len(err.strip().splitlines()) != 1 or "every 20000 ns" not in err:
        fail("period 5000 ns: exit %d, stderr %r (one line saying every 20000 ns)" % (rc, err))
    short = profiles(out3)
    if len(short) != 1 or short[0].get("period") != 20000:
        fail("period 5000 ns: profile period %s, expected 20000" % [p.get("period") for p in short])
    if took > 60:
        fail("period 5000 ns: the run took %.0f s" % took)
    stripped = os.path.join(out, "stripped")
    shutil.copy(prog, stripped)
    if run(["strip", stripped])[0] != 0:
        print("SKIPPED: strip failed")
        sys.exit(77)
    out2 = os.path.join(out, "s")
    rc, _, err = run([papi_run, "--sample", EVENT, "-o", out2, "--", stripped, "split", "4"])
    if rc != 0 or "stripped" not in err or not any("stripped+0x" in s for s in folded(out2)):
        fail("stripped program: exit %d, stderr %s" % (rc, err))
    print("bad_input: period 0, unknown event, bogus call graph refused; %d Hz lowered; 5000 ns "
          "raised to 20000 (%.1f s); stripped named" % (rate + 1, took))


def case_unprivileged(papi_run, prog, out):
    """As nobody at kernel.perf_event_paranoid 2: the program's own user mode is sampled,
    kernel mode is not: no [kernel] frame, kernel_frames false, and the banner's note
    says why."""
    try:
        level = int(open("/proc/sys/kernel/perf_event_paranoid").read())
    except (OSError, ValueError):
        level = -1
    if os.geteuid() != 0 or level != 2 or not shutil.which("setpriv"):
        print("SKIPPED: needs root (to become nobody with setpriv) and perf_event_paranoid 2")
        sys.exit(77)
    os.chmod(out, 0o777)
    nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    rc, _, err = run(nobody + [papi_run, "--sample", EVENT, "-o", out, "--", prog, "split", "20"])
    if rc != 0 and "Permission denied" in err and "papi_run" in err.splitlines()[0]:
        print("SKIPPED: user nobody cannot run the build tree's papi_run: " + err)
        sys.exit(77)
    if rc != 0 or "kernel frames not sampled: kernel.perf_event_paranoid" not in err:
        fail("as nobody: exit status %d, no note on kernel frames\n%s" % (rc, err))
    (d,) = profiles(out)
    own = self_of(folded(out))
    if d["kernel_frames"] or "[kernel]" in own or "work_a" not in own:
        fail("as nobody: kernel_frames %s, functions %s" % (d["kernel_frames"], sorted(own)))
    print("unprivileged: user mode sampled (%d functions), kernel frames left out with a note"
          % len(own))


def main():
    case, papi_run, prog = sys.argv[1:4]
    out = tempfile.mkdtemp(prefix="papi_sample_")
    try:
        if case == "mpi":
            case_mpi(papi_run, prog, out, *sys.argv[4:8])
        elif case == "mpi_metrics":
            case_mpi_metrics(papi_run, prog, out, sys.argv[4])
        elif case == "mpi_fortran":
            case_mpi_fortran(papi_run, prog, out, sys.argv[4])
        elif case == "cxx":
            case_named(papi_run, prog, out, "shapes::Crunch::run(long)", ["20"])
        elif case == "inlined":
            sample(papi_run, out, [prog, "300"])
            if not any(s.endswith("main;inlined_work") for s in folded(out)):
                fail("no main;inlined_work frames: %s" % sorted(folded(out))[:5])
            profiles(out)
            print("inlined: inlined_work shown under main")
        elif case == "dwarf_refused":
            case_dwarf_refused(papi_run, prog, out, sys.argv[4])
        elif case == "fortran":
            case_named(papi_run, prog, out, "sampled::crunch", [])
        else:
            globals()["case_" + case](papi_run, prog, out)
    finally:
        shutil.rmtree(out, ignore_errors=True)


if __name__ == "__main__":
    main()
