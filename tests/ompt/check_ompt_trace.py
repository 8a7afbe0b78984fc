#!/usr/bin/env python3
"""check_ompt_trace.py CASE PROGRAM [options]: the OpenMP slices of the traces (issue 58
item 4; src-c/common/trace_openmp.c, the tool's logs in src-c/ompt/ompt_spans.c), on
ompt_trace.c / ompt_trace.f90, whose region forks 3 instances of 4 threads.

  papi_run   papi_run --trace json (and otf2 where otf2-print is): exactly 12 "implicit
             task" and 12 "join" slices on 4 thread tracks, 3 slices of the parallel
             region named "function (file:line)", each implicit task inside its region's
             slice in time, each join inside an implicit task of its own track, every
             track's slices nested (JSON schema-checked);
  region_api the program's own PAPI_TRACE=json (the region API; the tool named in
             OMP_TOOL_LIBRARIES): the same, and the slices inside the named region
             "iterations" on its thread's track; the report written once more before
             the one at exit, the slices are in the last trace once;
  drops      papi_run --trace json with PAPI_OMPT_TRACE_SPANS=3: each thread keeps its 3
             first slices (the master: region, implicit task, join of the first instance;
             a worker: implicit task and join, then the next implicit task), the trace's
             dropped records are exactly twice the rest (27 - 12 slices), said in one line
             (and in OTF2, the archive's property PAPI_COMPAT::DROPPED_RECORDS);
             with PAPI_OMPT_TRACE_SPANS=2^26 (2 GiB a log) under a 1.5 GiB address
             space no log can be allocated: no slice, all 27 dropped, counted and said;
             and a bad PAPI_OMPT_TRACE_SPANS is one line and the default;
  nested     papi_run --trace json on "ompt_trace nested": 2 outer implicit tasks, 4 inner
             ones; each inner region's slice inside the outer implicit task of its track,
             each inner implicit task inside an inner region's slice in time (the two
             run at once), each inner master's inside its own.
  tasks      papi_run --trace json on "ompt_trace tasks": 5 "explicit task" slices, each
             inside an implicit task of its track; one "taskwait" and one "taskgroup"
             inside the single thread's implicit task; each thread's explicit "barrier"
             inside its implicit task; 2 joins.
  constructs papi_run --trace json (and otf2 where otf2-print is) on ompt_constructs
             (issue 73): each construct a slice per thread that met it, named "ROLE
             main (file:line)" at its line, typed by its role (openmp.critical, .lock,
             .loop, .single, .sections, .reduction; OTF2's CRITICAL, LOOP, SINGLE,
             SECTIONS, COLL_OTHER with its file and line): 4 critical, 4 lock, 4 of each
             loop, 4 single, 4 sections, and the reduction's 7 combining steps, each
             inside an implicit task of its track.
A libgomp program runs under libomp (papi_run does it; region_api preloads it)."""
import argparse
import glob
import json
import os
import re
import resource
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "common"))
import trace_tracks  # noqa: E402
from checks import check_said as check, verdict  # noqa: E402

SCHEMA = os.path.join(HERE, "..", "..", "schema", "trace_json.schema.json")
INSTANCES, THREADS = 3, 4


def skip(why):
    print("SKIPPED: " + why)
    sys.exit(77)


def schema_ok(path):
    try:
        import jsonschema
    except ImportError:
        skip("python3-jsonschema is not installed (Debian: apt-get install python3-jsonschema)")
    doc = json.load(open(path))
    errs = list(jsonschema.Draft202012Validator(json.load(open(SCHEMA))).iter_errors(doc))
    check(not errs, "%s follows trace_json.schema.json%s" % (os.path.basename(path),
                                                             ": %s" % errs[0].message[:200] if errs else ""))
    return doc


def nested_ok(tracks):
    """Every track's B/E pairs nest: a slice that starts inside another ends inside it."""
    bad = []
    for name, sl in tracks.items():
        for i, (n, s, e) in enumerate(sl):
            for (m, s2, e2) in sl[i + 1:]:
                if s2 >= e:
                    break
                if e2 > e:
                    bad.append("%s: %s [%d, %d] crosses %s [%d, %d]" % (name, m, s2, e2, n, s, e))
    check(not bad, "every track's slices nest (%s)" % (bad[:2] or "none crossing"))


def inside(a, b):
    return b[1] <= a[1] and a[2] <= b[2]


def at_line(name, file, line):
    """A region named "function (file:line)" at the directive's line, or at the line
    before it where gcc files the call's return address (a loop's or a statement's)."""
    return any(name.endswith("%s:%d)" % (os.path.basename(file), n)) for n in (line, line - 1))


def parallel_name(name, facts):
    if "line" in facts:
        return at_line(name, facts["file"], facts["line"])
    return " (" in name and "%s:" % os.path.basename(facts["file"]) in name


def check_team(tracks, facts, what):
    """The 3 x 4 answer on one rank's tracks."""
    nested_ok(tracks)
    all_sl = [(t, s) for t, sl in tracks.items() for s in sl]
    regions = [s for t, s in all_sl if parallel_name(s[0], facts)]
    tasks = [(t, s) for t, s in all_sl if s[0] == "implicit task"]
    joins = [(t, s) for t, s in all_sl if s[0] == "join"]
    check(len(regions) == INSTANCES, "%s: %d slices of the parallel region (%s), expected %d" % (
        what, len(regions), regions[0][0] if regions else "none", INSTANCES))
    check(len(tasks) == INSTANCES * THREADS, "%s: %d implicit tasks, expected %d" % (
        what, len(tasks), INSTANCES * THREADS))
    check(len(joins) == INSTANCES * THREADS, "%s: %d join slices, expected %d" % (
        what, len(joins), INSTANCES * THREADS))
    check(len({t for t, _ in tasks}) == THREADS, "%s: implicit tasks on %d thread tracks, expected %d" % (
        what, len({t for t, _ in tasks}), THREADS))
    per_region = [sum(inside(s, r) for _, s in tasks) for r in regions]
    check(per_region == [THREADS] * INSTANCES,
          "%s: each region's slice holds %d implicit tasks in time (%s)" % (what, THREADS, per_region))
    lost = [s for _, s in tasks if not any(inside(s, r) for r in regions)]
    check(not lost, "%s: every implicit task inside its region's slice (%s)" % (what, lost[:2] or "all"))
    loose = [(t, s) for t, s in joins if not any(inside(s, x) for u, x in tasks if u == t)]
    check(not loose, "%s: every join inside an implicit task of its track (%s)" % (what, loose[:2] or "all"))


def omp_site(name, facts):
    """A parallel region's "function (file:line)" in the program's file: (file, line), or
    None (the file from the first " (", as trace_region_type.c reads it)."""
    m = re.match(r".+? \((.+):(\d+)\)$", name)
    if not m or os.path.basename(m.group(1)) != os.path.basename(facts.get("file", "?")):
        return None
    return m.group(1), int(m.group(2))


def typed_json(path, facts, what):
    """Each OpenMP slice's "cat" says openmp and its role (issue 73 item 3), a named
    parallel region's openmp.parallel, every other region's (the program's, a named
    region of the region API) region."""
    cats = trace_tracks.categories_json(path)
    want = {n: {trace_tracks.OMP_KINDS[n][0] if n in trace_tracks.OMP_KINDS else
                trace_tracks.construct_type(n)[0] if trace_tracks.construct_type(n) else
                "openmp.parallel" if omp_site(n, facts) else "region"} for n in cats}
    bad = {n: sorted(c) for n, c in cats.items() if c != want[n]}
    check(not bad and any(n in trace_tracks.OMP_KINDS for n in cats),
          "%s: each slice's category by its kind (%s)" % (what, bad or sorted(
              (n, sorted(c)) for n, c in cats.items())))


def typed_otf2(anchor, facts, otf2_print, what):
    """otf2-print -G: each OpenMP slice's region of paradigm OPENMP in its kind's role, a
    named parallel region PARALLEL with its source file and line; the program's regions
    the user's code."""
    regs = trace_tracks.regions_otf2(anchor, otf2_print)
    bad = []
    for n, (role, paradigm, path, line) in regs.items():
        if n in trace_tracks.OMP_KINDS:
            ok = (role, paradigm, path, line) == (trace_tracks.OMP_KINDS[n][1], "OPENMP", "", 0)
        elif trace_tracks.construct_type(n):
            c = trace_tracks.construct_type(n)
            ok = (role, paradigm, path, line) == (c[1], "OPENMP", c[2], c[3])
        elif omp_site(n, facts):
            ok = (role, paradigm, path, line) == ("PARALLEL", "OPENMP") + omp_site(n, facts)
        else:
            ok = (role, paradigm, path, line) == ("CODE", "USER", "", 0)
        if not ok:
            bad.append((n, role, paradigm, path, line))
    check(not bad and any(n in trace_tracks.OMP_KINDS for n in regs),
          "%s: otf2-print -G's regions typed (%s)" % (what, bad or sorted(regs.items())))


def run(cmd, env, what, preexec_fn=None):
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=150, preexec_fn=preexec_fn)
    print("$ " + " ".join(cmd))
    sys.stdout.write(p.stdout)
    sys.stderr.write(p.stderr)
    check(p.returncode == 0, "%s exits 0" % what)
    lines = [ln for ln in p.stdout.splitlines() if ln.startswith("{")]
    return p, (json.loads(lines[-1]) if lines else {})


def base_env(args):
    env = dict(os.environ, OMP_WAIT_POLICY="passive")
    for name in ("OMP_TOOL_LIBRARIES", "PAPI_OMPT_OUTPUT_DIR", "OMP_TOOL", "PAPI_TRACE",
                 "PAPI_MPI_TRACE", "PAPI_OMPT_TRACE_SPANS", "PAPI_RUN_OMPT_TRACE_FILE"):
        env.pop(name, None)
    if args.tool_dir:
        env["PAPI_RUN_LIBDIR"] = args.tool_dir
    if "TSAN_OPTIONS" in env:
        env["TSAN_OPTIONS"] += " ignore_noninstrumented_modules=1"
    return env


def papi_run_trace(args, tmp, fmt, env, program_args=(), preexec_fn=None):
    out = os.path.join(tmp, fmt + str(len(os.listdir(tmp))))
    os.mkdir(out)
    p, facts = run([args.papi_run, "-o", out, "--trace", fmt, "--", args.program] + list(program_args),
                   env, "papi_run --trace " + fmt, preexec_fn)
    files = glob.glob(os.path.join(out, "papi_run_trace", "trace_rank_*" + (".json" if fmt == "json" else "")))
    check(len(files) == 1, "one papi_run trace (%s)" % files)
    check(not glob.glob(os.path.join(out, "papi_run_output", ".papi_run_omp_trace.*")),
          "the tool's file of slices was read and removed")
    return p, facts, (files[0] if files else None)


def one_rank(tr):
    return tr[0] if 0 in tr else next(iter(tr.values()), {})


def case_papi_run(args, tmp):
    env = base_env(args)
    _, facts, path = papi_run_trace(args, tmp, "json", env)
    if path:
        schema_ok(path)
        check_team(one_rank(trace_tracks.from_json(path)), facts, "json")
        typed_json(path, facts, "json")
    if not args.otf2_print or args.otf2_print == "none":
        print("otf2: not checked: no otf2-print (Debian: apt-get install otf2-tools)")
        return
    _, facts, path = papi_run_trace(args, tmp, "otf2", env)
    if path:
        check_team(one_rank(trace_tracks.from_otf2(os.path.join(path, "traces.otf2"), args.otf2_print)),
                   facts, "otf2")
        typed_otf2(os.path.join(path, "traces.otf2"), facts, args.otf2_print, "otf2")


def case_region_api(args, tmp):
    env = base_env(args)
    env.update(OMP_TOOL_LIBRARIES=args.tool, PAPI_TRACE="json", PAPI_OUTPUT_DIRECTORY=tmp)
    needed = subprocess.run(["readelf", "-d", args.program], capture_output=True, text=True).stdout
    if "libgomp" in needed:
        env["LD_PRELOAD"] = "libomp.so.5"
    _, facts = run([args.program], env, "the program (PAPI_TRACE=json)")
    files = glob.glob(os.path.join(tmp, "papi_hl_trace", "trace_rank_*.json"))
    if not check(len(files) == 1, "one region API trace (%s)" % files):
        return
    schema_ok(files[0])
    tracks = one_rank(trace_tracks.from_json(files[0]))
    check_team(tracks, facts, "PAPI_TRACE")
    typed_json(files[0], facts, "PAPI_TRACE")
    named = [(t, s) for t, sl in tracks.items() for s in sl if s[0] == "iterations"]
    regions = [(t, s) for t, sl in tracks.items() for s in sl if parallel_name(s[0], facts)]
    check(len(named) == 1 and all(t == named[0][0] and inside(s, named[0][1]) for t, s in regions),
          "the parallel region's slices inside the named region on its track (%d named)" % len(named))


def otf2_dropped(otf2_print, anchor):
    """The archive's PAPI_COMPAT::DROPPED_RECORDS (otf2-print -I), or None."""
    lines = subprocess.run([otf2_print, "-I", anchor], capture_output=True, text=True).stdout.splitlines()
    for i, ln in enumerate(lines[:-1]):
        if ln.split()[-1:] == ["PAPI_COMPAT::DROPPED_RECORDS"] and "Property value" in lines[i + 1]:
            return int(lines[i + 1].split()[-1])
    return None


def case_drops(args, tmp):
    cap = 3
    env = base_env(args)
    env["PAPI_OMPT_TRACE_SPANS"] = str(cap)
    p, facts, path = papi_run_trace(args, tmp, "json", env)
    if not path:
        return
    doc = schema_ok(path)
    tracks = one_rank(trace_tracks.from_json(path))
    nested_ok(tracks)
    # slices made: per instance the region, and an implicit task and a join per thread
    made = INSTANCES * (1 + 2 * THREADS)
    kept = sum(len([s for s in sl if s[0] != os.path.basename(args.program)]) for sl in tracks.values())
    check(kept == cap * THREADS, "each of the %d threads kept its first %d slices: %d" % (THREADS, cap, kept))
    dropped = doc["otherData"]["dropped"]
    check(dropped == 2 * (made - cap * THREADS),
          "the trace's dropped records: %d, expected 2 x (%d - %d)" % (dropped, made, cap * THREADS))
    said = [ln for ln in p.stderr.splitlines() if "PAPI_OMPT_TRACE_SPANS" in ln]
    check(len(said) == 1 and "%d OpenMP slices" % (made - cap * THREADS) in said[0],
          "one line says the slices dropped (%s)" % said)
    if args.otf2_print and args.otf2_print != "none":
        _, _, path = papi_run_trace(args, tmp, "otf2", env)
        got = otf2_dropped(args.otf2_print, os.path.join(path, "traces.otf2")) if path else None
        check(got == 2 * (made - cap * THREADS),
              "the OTF2 archive's property PAPI_COMPAT::DROPPED_RECORDS: %s" % got)
    # No memory for any thread's log: the largest bound (2^26 slices, 2 GiB a log) under a
    # 1.5 GiB address space. Every slice is dropped, counted and said as the others.
    env["PAPI_OMPT_TRACE_SPANS"] = str(1 << 26)
    p, facts, path = papi_run_trace(args, tmp, "json", env, preexec_fn=lambda: resource.setrlimit(
        resource.RLIMIT_AS, (3 << 29, resource.RLIM_INFINITY)))
    if path:
        doc = schema_ok(path)
        tracks = one_rank(trace_tracks.from_json(path))
        kept = sum(len([s for s in sl if s[0] != os.path.basename(args.program)]) for sl in tracks.values())
        check(kept == 0 and doc["otherData"]["dropped"] == 2 * made,
              "no log allocated: no slice kept (%d), all %d counted as dropped records: %d"
              % (kept, made, doc["otherData"]["dropped"]))
    said = [ln for ln in p.stderr.splitlines() if "PAPI_OMPT_TRACE_SPANS" in ln]
    check(len(said) == 1 and "%d OpenMP slices" % made in said[0] and "without memory" in said[0],
          "one line says them dropped for want of memory (%s)" % said)
    env["PAPI_OMPT_TRACE_SPANS"] = "lots"
    p, facts, path = papi_run_trace(args, tmp, "json", env)
    said = [ln for ln in p.stderr.splitlines() if "PAPI_OMPT_TRACE_SPANS=lots" in ln]
    check(len(said) == 1 and "65536" in said[0], "a bad PAPI_OMPT_TRACE_SPANS is one line (%s)" % said)
    if path:
        check_team(one_rank(trace_tracks.from_json(path)), facts, "PAPI_OMPT_TRACE_SPANS=lots: the default")


def program_tracks(args, tmp, mode):
    """The json trace of the program's mode under papi_run --trace, checked against its
    schema and for nesting: (the program's facts, its rank's tracks), None when there is
    no trace (a failed check)."""
    _, facts, path = papi_run_trace(args, tmp, "json", base_env(args), [mode])
    if not path:
        return None
    schema_ok(path)
    typed_json(path, facts, "json")
    tracks = one_rank(trace_tracks.from_json(path))
    nested_ok(tracks)
    return facts, tracks


def case_nested(args, tmp):
    traced = program_tracks(args, tmp, "nested")
    if not traced:
        return
    facts, tracks = traced
    f = facts.get("file", "?")
    outer = [(t, s) for t, sl in tracks.items() for s in sl if at_line(s[0], f, facts.get("outer_line", 0))]
    inner = [(t, s) for t, sl in tracks.items() for s in sl if at_line(s[0], f, facts.get("inner_line", 0))]
    check(len(outer) == 1 and len(inner) == 2, "1 outer and 2 inner region slices (%d, %d)" % (len(outer), len(inner)))
    tasks = [(t, s) for t, sl in tracks.items() for s in sl if s[0] == "implicit task"]
    outer_tasks = [(t, s) for t, s in tasks if outer and any(inside(s, o) for _, o in outer)
                   and not any(inside(s, i) for _, i in inner)]
    inner_tasks = [(t, s) for t, s in tasks if any(inside(s, i) for _, i in inner)]
    check(len(tasks) == 6 and len(outer_tasks) == 2 and len(inner_tasks) == 4,
          "2 outer and 4 inner implicit tasks (%d: %d outer, %d inner)" % (len(tasks), len(outer_tasks), len(inner_tasks)))
    in_outer = [any(u == t and inside(s, o) for u, o in outer_tasks) for t, s in inner]
    check(in_outer == [True] * len(inner),
          "each inner region's slice inside the outer implicit task of its track (%s)" % in_outer)
    # the two inner regions run at once: each holds its master's implicit task on its track
    own = [sum(u == t and inside(s, i) for u, s in inner_tasks) for t, i in inner]
    check(own == [1] * len(inner), "each inner region holds its master's implicit task (%s)" % own)


def case_tasks(args, tmp):
    traced = program_tracks(args, tmp, "tasks")
    if not traced:
        return
    facts, tracks = traced
    of = {k: [(t, s) for t, sl in tracks.items() for s in sl if s[0] == k]
          for k in ("implicit task", "explicit task", "taskwait", "taskgroup", "barrier", "join")}
    n = {k: len(v) for k, v in of.items()}
    print("slices:", n)
    check(n["implicit task"] == 2 and n["join"] == 2, "2 implicit tasks, 2 joins (%s)" % n)
    check(n["explicit task"] == facts.get("tasks"), "%d explicit tasks (%s)" % (facts.get("tasks", -1), n))
    check(n["taskwait"] == 1 and n["taskgroup"] == 1, "one taskwait, one taskgroup (%s)" % n)
    check(n["barrier"] >= 2, "the explicit barrier on each thread, at least (%s)" % n)
    for k in ("explicit task", "taskwait", "taskgroup", "barrier"):
        loose = [s for t, s in of[k] if not any(u == t and inside(s, x) for u, x in of["implicit task"])]
        check(not loose, "every %s inside an implicit task of its track (%s)" % (k, loose[:2] or "all"))
    waits = of["taskwait"] + of["taskgroup"]
    check(len({t for t, _ in waits}) == 1, "the taskwait and taskgroup on the single thread's track")
    if args.otf2_print and args.otf2_print != "none":
        _, facts, path = papi_run_trace(args, tmp, "otf2", base_env(args), ["tasks"])
        if path:
            typed_otf2(os.path.join(path, "traces.otf2"), facts, args.otf2_print, "otf2 tasks")


def case_constructs(args, tmp):
    _, facts, path = papi_run_trace(args, tmp, "json", base_env(args))
    if not path:
        return
    schema_ok(path)
    typed_json(path, facts, "json")
    tracks = one_rank(trace_tracks.from_json(path))
    nested_ok(tracks)
    f = facts.get("file", "ompt_constructs.c")

    def of(role, line=None):
        return [(t, s) for t, sl in tracks.items() for s in sl
                if s[0].startswith(role + " ") and (line is None or at_line(s[0].split(" ", 1)[1], f, line))]

    want = {"critical": (facts.get("critical_line"), 4), "lock": (facts.get("lock_line"), 4),
            "loop": (facts.get("loop_line"), 4), "single": (facts.get("single_line"), 4),
            "sections": (facts.get("sections_line"), 4)}
    for role, (line, n) in want.items():
        got = of(role, line)
        check(len(got) == n, "%d %s slices at line %s (%d)" % (n, role, line, len(got)))
    check(len(of("loop", facts.get("dynamic_line"))) == 4, "4 slices of the dynamic loop")
    red = of("reduction")
    check(len(red) == facts.get("reducers", 0) - 1, "the reduction's %d combining steps (%d)"
          % (facts.get("reducers", 0) - 1, len(red)))
    tasks = [(t, s) for t, sl in tracks.items() for s in sl if s[0] == "implicit task"]
    loose = [s for role in CONSTRUCT_SLICES for t, s in of(role)
             if not any(u == t and inside(s, x) for u, x in tasks)]
    check(not loose, "every construct's slice inside an implicit task of its track (%s)" % (loose[:2] or "all"))
    if args.otf2_print and args.otf2_print != "none":
        _, facts, path = papi_run_trace(args, tmp, "otf2", base_env(args))
        if path:
            typed_otf2(os.path.join(path, "traces.otf2"), facts, args.otf2_print, "otf2 constructs")


CONSTRUCT_SLICES = ("critical", "lock", "loop", "single", "sections", "reduction")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("case", choices=["papi_run", "region_api", "drops", "nested", "tasks", "constructs"])
    ap.add_argument("program")
    ap.add_argument("--papi-run")
    ap.add_argument("--tool-dir")
    ap.add_argument("--tool")
    ap.add_argument("--otf2-print")
    args = ap.parse_args()
    libs = subprocess.run(["readelf", "-d", args.program], capture_output=True, text=True).stdout
    ldc = subprocess.run(["ldconfig", "-p"], capture_output=True, text=True).stdout
    if "libgomp" in libs and "libomp.so.5 " not in ldc:
        skip("%s uses libgomp and LLVM's libomp.so.5 is not installed (Debian package libomp5-14)"
             % os.path.basename(args.program))
    tmp = tempfile.mkdtemp(prefix="ompt_trace_")
    {"papi_run": case_papi_run, "region_api": case_region_api, "drops": case_drops,
     "nested": case_nested, "tasks": case_tasks, "constructs": case_constructs}[args.case](args, tmp)
    return verdict("ompt_trace " + args.case, scratch=tmp)


if __name__ == "__main__":
    sys.exit(main())
