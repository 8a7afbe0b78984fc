#!/usr/bin/env python3
"""Parallel regions under MPI_Pcontrol regions in the MPI report (issue 58 items 1 and 4):
mpi_hybrid_regions.c (2 ranks x 4 threads) with the wrapper preloaded after libomp.so.5
(--launch preload: the wrapper names the OMPT tool) or under papi_run (--launch
papi_run). Each rank's row has, in its regions "imbalanced" and "balanced", an openmp
table: the one parallel loop (one code address, the same in both), load balance 0.625
+- 0.03 and 1.0 - 0.03, the region's efficiency over it, serialization within 0.03 of
the rank's own clock (the region does no MPI); the row's own openmp load balance over
the three loops 18/24 = 0.75 +- 0.03; the ompt_PID.json of each rank (under
papi_run: carried in its papi_run file) files the loop under each region (mpi_region)
and once outside; each region's loop lists its constructs (issue 73), the tool's file's
for that row in seconds: a critical section each of the 4 threads entered once.
Usage: check_hybrid_regions.py --mpirun M --program P --launch preload --wrapper LIB |
  --launch papi_run --papi-run PAPI_RUN --libdir DIR"""
import glob
import json
import os
import sys
import tempfile

from mpi_check import check, job_report, run_cmd, verdict
import hybrid_launch
import llvm_libomp  # (tests/common, on the path by mpi_check)

TOL = 0.03


def check_table(rank, name, t, facts, want_lb):
    what = "rank %d %s" % (rank, name)
    if not check(t is not None, "%s: an openmp table" % what):
        return None
    prs = t["parallel_regions"]
    here = "%s:%d)" % (os.path.basename(facts["file"]), facts["loop_line"])
    check(len(prs) == 1 and prs[0]["name"].startswith("spread (") and prs[0]["name"].endswith(here),
          "%s: the one loop, at %s: %s" % (what, here, [p["name"] for p in prs]))
    if not prs:
        return None
    p = prs[0]
    check(p["named_region"] is None, "%s: no named region" % what)
    lb = p["efficiency"]["load_balance"]
    # within TOL of the rank's own (mean over max of its threads' work by its clock: a
    # sleeper woken late works longer); the staged shape within 0.1 (late wake-ups)
    w = facts.get("work_ms", {}).get(name)
    if check(isinstance(w, list) and len(w) == 4 and max(w) > 0, "%s: the rank's work %s" % (what, w)):
        own = sum(w) / len(w) / max(w)
        check(lb is not None and abs(lb - own) <= TOL, "%s: load balance %s, the rank's own %.4f +- %g"
              % (what, lb, own, TOL))
        check(abs(own - want_lb) <= 0.1, "%s: the rank's load balance %.4f, staged %g +- 0.1"
              % (what, own, want_lb))
    e = t["efficiency"]
    check(e["load_balance"] == lb, "%s: the region's load balance is its loop's" % what)
    check(p["efficiency"].get("unmeasured_implicit_tasks") == 0 and e.get("unmeasured_implicit_tasks") == 0,
          "%s: the tasks not measured (threads without a slot of the tool's) said, none: %s, %s"
          % (what, p["efficiency"], e))
    want = facts[name + "_serialization"]
    check(e["serialization"] is not None and abs(e["serialization"] - want) <= TOL,
          "%s: serialization %s, the rank's clock %.3f +- %g" % (what, e["serialization"], want, TOL))
    check(e["parallel"] is not None and abs(e["parallel"] - e["serialization"] * e["load_balance"]
                                            * e["scheduling"]) <= 0.002,
          "%s: parallel = serialization x load balance x scheduling" % what)
    return p["address"]


def ompt_docs(out, launch):
    """Each rank's ompt_PID.json: in PAPI_OMPT_OUTPUT_DIR, or (papi_run) carried whole in
    each rank's papi_run file under openmp.processes."""
    if launch != "papi_run":
        files = glob.glob(os.path.join(out, "ompt", "ompt_*.json"))
        check(len(files) == 2, "an ompt_PID.json per rank: %s" % files)
        for path in files:
            with open(path) as f:
                yield os.path.basename(path), json.load(f)
        return
    files = glob.glob(os.path.join(out, "papi_run_output", "rank_*.json"))
    check(len(files) == 2, "a papi_run file per rank: %s" % files)
    for path in files:
        with open(path) as f:
            procs = (json.load(f).get("openmp") or {}).get("processes") or []
        check(len(procs) == 1, "%s carries its rank's ompt table" % os.path.basename(path))
        for doc in procs:
            yield os.path.basename(path), doc


def check_constructs(rows, out, launch):
    """Each region's loop's constructs in the MPI report: one rank tool file's for that row
    (ompt.schema.json's constructs, region_index), times in seconds."""
    docs = [doc for _, doc in ompt_docs(out, launch)]

    def of(doc, name):
        at = [i for i, r in enumerate(doc["regions"]) if (r["mpi_region"] or {}).get("name") == name]
        return [c for c in doc.get("constructs") or [] if at and c["region_index"] == at[0]]

    def same(got, want):
        return len(got) == len(want) and all(
            g["kind"] == w["kind"] and g["name"] == w["name"] and g["entries"] == w["entries"]
            and abs(g["time_s"] - w["time_ns"] / 1e9) < 1e-9 and abs(g["wait_s"] - w["wait_ns"] / 1e9) < 1e-9
            for g, w in zip(got, want))

    for row in rows:
        for name in ("imbalanced", "balanced"):
            prs = ((row["regions"].get(name) or {}).get("openmp") or {}).get("parallel_regions") or []
            if not check(len(prs) == 1, "rank %d %s: one loop" % (row["rank"], name)):
                continue
            got = prs[0].get("constructs") or []
            crit = [c for c in got if c["kind"] == "critical"]
            check(len(crit) == 1 and crit[0]["entries"] == 4 and crit[0]["threads"] == 4,
                  "rank %d %s: its critical section, 4 threads once each: %s" % (row["rank"], name, crit))
            check(any(same(got, of(doc, name)) for doc in docs),
                  "rank %d %s: its constructs a rank's tool file's, in seconds (%s)"
                  % (row["rank"], name, [(c["kind"], c["entries"]) for c in got]))


def check_ompt_files(out, launch):
    for path, doc in ompt_docs(out, launch):
        loops = [r for r in doc["regions"] if os.path.basename(r["file"]) == "mpi_hybrid_regions.c"
                 and r["function"] == "spread"]
        regions = sorted((r["mpi_region"] or {}).get("name", "") for r in loops)
        check(regions == ["", "balanced", "imbalanced"],
              "%s: the loop under each MPI_Pcontrol region and once outside: %s" % (path, regions))


def main():
    args = hybrid_launch.parse_args()
    llvm_libomp.require()
    out = tempfile.mkdtemp(prefix="mpi_hybrid_regions_")
    cmd, env = hybrid_launch.command(args, out, args.launch, args.program,
                                     {"PAPI_OMPT_OUTPUT_DIR": os.path.join(out, "ompt")})
    p = run_cmd(cmd, env=env)
    check(p.returncode == 0, "exit status %d" % p.returncode)
    facts = {r["rank"]: r for r in (json.loads(ln) for ln in p.stdout.splitlines() if ln.startswith('{"rank"'))}
    rep = job_report(out) if check(sorted(facts) == [0, 1], "both ranks' facts printed") else None
    if rep is None:
        return verdict("mpi_hybrid_regions_" + args.launch)
    rows = rep["ranks"]
    check(len(rows) == 2, "two rows")
    for row in rows:
        rank = row["rank"]
        regs = row["regions"]
        a = check_table(rank, "imbalanced", regs.get("imbalanced", {}).get("openmp"), facts[rank], 0.625)
        b = check_table(rank, "balanced", regs.get("balanced", {}).get("openmp"), facts[rank], 1.0)
        check(a is not None and a == b, "rank %d: one code address in both regions" % rank)
        # the rank's own: 1+2+3+4 + 4 + 4 units of useful time over 4 x (4 + 1 + 1), staged
        # 0.75; judged on the work its clock measured
        lb = ((row.get("openmp") or {}).get("efficiency") or {}).get("load_balance")
        w = facts[rank].get("work_ms", {})
        if check(len(w) == 3 and all(isinstance(v, list) and len(v) == 4 for v in w.values()),
                 "rank %d: its work in three places" % rank):
            own = sum(map(sum, w.values())) / (4 * sum(map(max, w.values())))
            check(lb is not None and abs(lb - own) <= TOL, "rank %d: its openmp load balance %s, its "
                  "own %.4f +- %g" % (rank, lb, own, TOL))
            check(abs(own - 0.75) <= 0.1, "rank %d: its own load balance %.4f, staged 0.75 +- 0.1"
                  % (rank, own))
    check_ompt_files(out, args.launch)
    check_constructs(rows, out, args.launch)
    return verdict("mpi_hybrid_regions_" + args.launch, scratch=out)


if __name__ == "__main__":
    sys.exit(main())
