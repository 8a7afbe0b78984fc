#!/usr/bin/env python3
"""check_ompt_regions.py --tool LIB CASE PROGRAM: parallel regions nested under the
region API's named regions (issue 58 items 1 and 4), run as check_ompt.py runs its
programs (OMP_TOOL_LIBRARIES naming the tool, libomp for a libgomp program), against
known answers; every file written follows its schema (report_check.guard).

  named   ompt_named.c: one parallel loop (one code address) run inside the named region
          "imbalanced" (thread t of 4 works t+1 units: load balance 0.625), inside
          "balanced" (one unit each after two units of serial time: load balance 1.0,
          serialization 1/3; nested in "outer", which forks nothing itself) and outside
          any: three rows in the tool's file, each under its named region
          (named_region null for the third); the region file's openmp_regions gives
          each named region its own row, with the tool's figures, and the named
          region's efficiencies (serialization within 0.03 of the program's own clock)
          and its constructs, the tool's file's for that row (issue 73): a critical
          section each of the 4 threads entered once;
          "outer" no row and the efficiencies of the one nested in it; with --papi-run,
          the program under papi_run: its banner's lost-time line names the loop in
          region 'imbalanced' first, then in region 'balanced' and outside (either order);
  share   ompt_share.c (issue 58 item 5): the main thread's region around a parallel
          region in which thread t touches (t+1) x 64 fresh pages: its all-thread
          perf::PAGE-FAULTS is the threads' pages plus the master's own extra faults,
          exactly, taken from the OpenMP workers' share at 1, 4 and 16 threads and from
          the process counters (PAPI_HL_ALL_THREADS=exact, and with a thread of the
          program's own alive: the share cannot stand for it); an empty region's begin +
          end makes as many read() calls with 4 and 16 threads as with 1 (the own set's
          two), fewer than the exact path with 4."""
import glob
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import check_ompt as co  # noqa: E402 (its runner and its file checks; guard() on import)
from checks import check_said as check, verdict  # noqa: E402


def rows_at(doc, facts):
    """The tool's rows at the loop's line, by named region (None: outside every one)."""
    rows = [r for r in doc["regions"] if os.path.basename(r["file"]) == os.path.basename(facts["file"])
            and facts["loop_line"] - 1 <= r["line"] <= facts["loop_line"] + 1]
    by = {(r.get("named_region") or {}).get("name"): r for r in rows}
    check(len(rows) == 3 and len(by) == 3,
          "3 rows of the loop, one per named region and one outside: %s"
          % [(r["name"], r.get("named_region")) for r in rows])
    return by


def summary(c):
    """A construct of the tool's file as a region file's parallel region lists it."""
    waits = [t["wait_ns"] for t in c["threads"]]
    most = max(waits, default=0)
    return {"kind": c["kind"], "name": c["name"], "entries": c["entries"], "threads": len(c["threads"]),
            "time_ns": c["time_ns"], "wait_ns": c["wait_ns"],
            "max_wait_thread": waits.index(most) if most else None, "max_wait_ns": most}


def constructs_of(what, pr, row, doc):
    """The parallel region's constructs in the region file: the tool's file's of its row
    (written at the program's exit, after the region file: the counts asked between
    regions are the same), a critical section each of 4 threads entered once."""
    at = doc["regions"].index(row)
    want = [summary(c) for c in doc.get("constructs") or [] if c["region_index"] == at]
    got = pr.get("constructs")
    crit = [c for c in got or [] if c["kind"] == "critical"]
    check(len(crit) == 1 and crit[0]["entries"] == 4 and crit[0]["threads"] == 4,
          "%s: its critical section, 4 threads once each: %s" % (what, crit))
    check(sorted(got or [], key=lambda c: c["name"] + c["kind"]) == sorted(want, key=lambda c: c["name"] + c["kind"]),
          "%s: its constructs the tool's (%s)" % (what, [(c["kind"], c["entries"]) for c in got or []]))


def region_file(tmp):
    files = glob.glob(os.path.join(tmp, "papi_hl_output", "rank_*.json"))
    if not check(len(files) == 1, "one region file written (%s)" % files):
        return None
    with open(files[0]) as f:
        return json.load(f)


def case_named(tool, program, tmp):
    out = os.path.join(tmp, "ompt")
    p = co.run(tool, program, out, PAPI_OUTPUT_DIRECTORY=tmp)
    facts = co.facts_of(p)
    if p.returncode != 0 or not facts:
        return  # failed (co.run said why: a TSan report, a crash), never a skip
    if facts.get("imbalanced_serialization", -1) < 0 or facts.get("balanced_serialization", -1) < 0:
        co.skip("the region API could not begin a region here (no counter at all): %s"
                % p.stderr.strip().splitlines()[-1:])
    doc = co.report_of(out)
    if doc is None:
        return
    by = rows_at(doc, facts)
    imb, bal, outside = by.get("imbalanced"), by.get("balanced"), by.get(None)
    if not (imb and bal and outside):
        return
    check(outside.get("mpi_region", 0) is None and imb.get("mpi_region", 0) is None, "no MPI_Pcontrol region")
    # each place's load balance within 0.03 of the program's own (mean over max of the
    # threads' work by its clock: a sleeper woken late works longer); the staged shape,
    # 0.625 and 1.0, within 0.1 (a loaded machine's late wake-ups)
    work = facts.get("work_ms", {})
    for r, what, staged in ((imb, "imbalanced", 0.625), (bal, "balanced", 1.0), (outside, "outside", 1.0)):
        lb, w = r["efficiency"]["load_balance"], work.get(what)
        if not check(isinstance(w, list) and len(w) == 4 and max(w) > 0, "%s: the program's work %s" % (what, w)):
            continue
        own = sum(w) / len(w) / max(w)
        check(lb is not None and abs(lb - own) <= 0.03,
              "%s: load balance %s, the program's own %.4f +- 0.03" % (what, lb, own))
        check(abs(own - staged) <= 0.1, "%s: the program's load balance %.4f, staged %s +- 0.1"
              % (what, own, staged))
    check(imb["named_region"]["id"] != bal["named_region"]["id"], "two contexts")
    hl = region_file(tmp)
    if hl is None:
        return
    tables = hl.get("openmp_regions") or {}
    check(len(tables) == 1, "openmp_regions of the one thread that marked regions: %s" % list(tables))
    named = next(iter(tables.values()), {})
    check(sorted(named) == ["balanced", "imbalanced", "outer"], "a table per named region: %s" % sorted(named))
    outer, inner = named.get("outer"), named.get("balanced")
    if outer and inner:
        check(outer["parallel_regions"] == [] and outer["parallel_ns"] == inner["parallel_ns"] and
              outer["efficiency"]["load_balance"] == inner["efficiency"]["load_balance"] and
              outer["efficiency"]["scheduling"] == inner["efficiency"]["scheduling"],
              "outer: no parallel region of its own, the nested region's time and efficiencies: %s" % outer)
    for what, row in (("imbalanced", imb), ("balanced", bal)):
        t = named.get(what)
        if not t:
            continue
        check(t["context"] == row["named_region"]["id"], "%s: the tool's context %d" % (what, t["context"]))
        prs = t["parallel_regions"]
        check(len(prs) == 1 and prs[0]["name"] == row["name"] and prs[0]["address"] == row["address"],
              "%s: its one parallel region, %s" % (what, [x["name"] for x in prs]))
        if prs:
            check(prs[0]["efficiency"] == row["efficiency"] and prs[0]["wall_ns"] == row["wall_ns"],
                  "%s: the tool's figures (%s)" % (what, prs[0]["efficiency"]))
            constructs_of(what, prs[0], row, doc)
        e = t["efficiency"]
        check(e["load_balance"] == row["efficiency"]["load_balance"],
              "%s: the named region's load balance is its one region's" % what)
        check(e.get("unmeasured_implicit_tasks") == 0 and prs and prs[0]["efficiency"].get("unmeasured_implicit_tasks") == 0,
              "%s: the tasks not measured (threads without a slot of the tool's) said, none: %s" % (what, e))
        want = facts[what + "_serialization"]
        check(e["serialization"] is not None and abs(e["serialization"] - want) <= 0.03,
              "%s: serialization %s, the program's clock %.3f +- 0.03" % (what, e["serialization"], want))
        check(e["parallel"] is not None and abs(e["parallel"] - e["serialization"] * e["load_balance"]
                                                * e["scheduling"]) <= 0.002,
              "%s: parallel = serialization x load balance x scheduling" % what)


def run_share(tool, program, tmp, args, **more):
    """ompt_share.c under the tool, counting perf::PAGE-FAULTS: its facts and its region
    file's all-thread and own totals of the region faults."""
    out = tempfile.mkdtemp(prefix="share_", dir=tmp)
    extra, how = co.runtime_env(program)
    env = dict(os.environ, PAPI_OMPT_OUTPUT_DIR=os.path.join(out, "ompt"), OMP_WAIT_POLICY="passive",
               OMP_TOOL_LIBRARIES=tool, PAPI_EVENTS="perf::PAGE-FAULTS", PAPI_OUTPUT_DIRECTORY=out,
               **extra, **more)
    env.pop("PAPI_OMPT_EVENTS", None)
    p = subprocess.run([program] + args, env=env, capture_output=True, text=True, timeout=120)
    print("ran %s %s (%s, %s): exit %d" % (os.path.basename(program), " ".join(args), how, more, p.returncode))
    sys.stderr.write(p.stderr)
    if p.returncode == 77:
        co.skip("the region API could not begin a region here: %s" % p.stderr.strip().splitlines()[-1:])
    facts = co.facts_of(p)
    doc = region_file(out)
    if not (check(p.returncode == 0 and facts, "the program exits 0 with its facts") and doc):
        return None
    own = doc["region_totals"]["0"]["faults"]["perf::PAGE-FAULTS"]
    alls = (doc.get("all_threads", {}).get("0", {}).get("regions", {}).get("faults") or {}).get("perf::PAGE-FAULTS")
    print("   pages %d, own %s, all-thread %s, read() per pair %.2f"
          % (facts["pages"], own, alls, facts["reads_per_pair"]))
    return facts, own, alls


def case_share(tool, program, tmp):
    reads = {}
    for label, args, more in (("1", ["1"], {}), ("4", ["4"], {}), ("16", ["16"], {}),
                              ("4 exact", ["4"], {"PAPI_HL_ALL_THREADS": "exact"}),
                              ("4 foreign", ["4", "foreign"], {})):
        got = run_share(tool, program, tmp, args, **more)
        if got is None:
            continue
        facts, own, alls = got
        master = 64  # thread 0 touches 1 x 64 pages; its own set has them and its extras
        check(alls == facts["pages"] + own - master,
              "%s threads: all-thread page faults %s = the threads' %d + the master's extra %d"
              % (label, alls, facts["pages"], own - master))
        reads[label] = facts["reads_per_pair"]
    if all(k in reads for k in ("1", "4", "16", "4 exact", "4 foreign")):
        check(reads["4"] == reads["1"] and reads["16"] == reads["1"],
              "an empty region's read() calls the same with 1, 4 and 16 threads: %s" % reads)
        check(reads["4 exact"] > reads["4"] and reads["4 foreign"] > reads["4"],
              "more on the exact path and with a thread of the program's own: %s" % reads)


def named_papi_run(papi_run, tool, program, tmp):
    """The program as a user types it under papi_run (the tool found in its build folder):
    the banner names each parallel region with the named region it ran in."""
    out = os.path.join(tmp, "papi_run")
    env = co.tsan_libomp(dict(os.environ, PAPI_RUN_LIBDIR=os.path.dirname(tool), OMP_WAIT_POLICY="passive"))
    env.pop("OMP_TOOL_LIBRARIES", None)
    p = subprocess.run([papi_run, "-o", out, "--", program], env=env, capture_output=True, text=True,
                       timeout=120)
    line = [ln for ln in p.stderr.splitlines() if "OpenMP: most thread time lost in " in ln]
    print("papi_run: exit %d; %s" % (p.returncode, line))
    check(p.returncode == 0 and len(line) == 1, "papi_run: the banner's lost-time line")
    if line:
        parts = line[0].split("; ")
        rest = sorted(" in region 'balanced': " in x for x in parts[1:])
        check(len(parts) == 3 and " in region 'imbalanced': " in parts[0] and rest == [False, True] and
              all(" in region" not in x for x in parts[1:] if " in region 'balanced': " not in x),
              "the loop in region 'imbalanced' first, then in 'balanced' and outside: %s" % parts)


def main(argv):
    papi_run = None
    if len(argv) == 6 and argv[4] == "--papi-run":
        papi_run, argv = argv[5], argv[:4]
    if len(argv) != 4 or argv[0] != "--tool":
        print("usage: check_ompt_regions.py --tool LIB named|share PROGRAM [--papi-run PAPI_RUN]",
              file=sys.stderr)
        return 2
    tool, case, program = argv[1], argv[2], argv[3]
    tmp = tempfile.mkdtemp(prefix="ompt_regions_")
    {"named": case_named, "share": case_share}[case](tool, program, tmp)
    if papi_run and case == "named":
        named_papi_run(papi_run, tool, program, tmp)
    return verdict("ompt_regions_" + case, scratch=tmp)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
