#!/usr/bin/env python3
"""check_papi_report.py --mpirun M --wrapper LIB --program P --regions-program R --tool T OUT

Runs report_traffic on 4 ranks under the MPI wrapper library and hl_regions_workload
(region files), runs papi_report on both, and checks that its tables equal the JSON they
came from: compute time per rank (wall - MPI) as the rows say and increasing with rank
(rank r computes r + 1 units), the per-call sums over ranks, the rank x rank matrix equal
to what the program sent to each partner and to the ranks' point-to-point bytes_sent,
the message-size buckets; the region tree's inclusive totals equal the region files'
per-name totals; the Hatchet literal export has the tree; the HTML names every figure.
The output directory OUT is kept for the browser check. Exit 0 pass, 1 fail."""
import argparse
import csv
import json
import os
import shutil
import subprocess
import sys

FAILURES = []
FIGURES = ["compute-vs-mpi", "mpi-time-by-call", "time-per-call-site", "message-sizes",
           "comm-matrix", "counters-per-rank", "region-tree", "region-by-rank",
           "region-by-thread", "region-reads"]
NP = 4


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print("FAIL:", what)


def rows(path):
    with open(path, encoding="utf-8") as f:
        return list(csv.DictReader(f))


def close(a, b, rel=1e-6):
    return abs(float(a) - float(b)) <= rel * max(1.0, abs(float(a)), abs(float(b)))


def run(cmd, env=None, cwd=None):
    p = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True, timeout=300)
    sys.stdout.write(p.stdout[-3000:])
    sys.stderr.write(p.stderr[-3000:])
    check(p.returncode == 0, "%s exited %d" % (" ".join(cmd[:3]), p.returncode))
    return p


def mpi_part(a, work):
    env = dict(os.environ, PAPI_MPI_OUTPUT_DIR=work, PAPI_MPI_EVENTS="perf::PAGE-FAULTS,perf::TASK-CLOCK")
    run([a.mpirun, "-np", str(NP), "-genv", "LD_PRELOAD", a.wrapper, a.program, "25"], env=env)
    with open(os.path.join(work, "papi_mpi_report.json"), encoding="utf-8") as f:
        rep = json.load(f)
    ranks = {r["rank"]: r for r in rep["ranks"]}
    check(sorted(ranks) == list(range(NP)), "ranks %s" % sorted(ranks))
    return rep, ranks


def check_mpi_tables(out, ranks):
    # Compute time per rank: wall - MPI of each row, increasing with rank.
    mr = {int(r["rank"]): r for r in rows(os.path.join(out, "mpi_ranks.csv"))}
    for k, r in ranks.items():
        check(close(mr[k]["compute_s"], r["wall_s"] - r["mpi_s"]),
              "rank %d compute_s %s, JSON wall - MPI %s" % (k, mr[k]["compute_s"], r["wall_s"] - r["mpi_s"]))
    comp = [float(mr[k]["compute_s"]) for k in range(NP)]
    check(all(comp[i] < comp[i + 1] for i in range(NP - 1)), "compute time does not grow with rank: %s" % comp)
    # Per call: the sums over ranks.
    summary = {r["call"]: r for r in rows(os.path.join(out, "mpi_call_summary.csv"))}
    names = {c for r in ranks.values() for c, v in r["calls"].items() if v["calls"]}
    check(set(summary) == names, "calls in the summary %s, in the JSON %s" % (sorted(summary), sorted(names)))
    for c in names:
        for col in ("calls", "time_s", "bytes_sent", "bytes_recv"):
            want = sum(r["calls"].get(c, {}).get(col, 0) for r in ranks.values())
            check(c in summary and close(summary[c][col], want),
                  "%s %s: table %s, JSON sum %s" % (c, col, summary.get(c, {}).get(col), want))
        check(summary[c]["apart"] == str(c in ("MPI_Init", "MPI_Init_thread", "MPI_Finalize")),
              "%s apart=%s" % (c, summary[c]["apart"]))
    # The matrix: what the program sent to each partner, and the ranks' bytes_sent.
    mat = {(int(r["src"]), int(r["dst"])): r for r in rows(os.path.join(out, "mpi_matrix.csv"))}
    for s in range(NP):
        for d in range(NP):
            want = (s + 1) * (d + 1) * 100 if s != d else 0
            got = int(mat[(s, d)]["bytes"]) if (s, d) in mat else 0
            check(got == want, "matrix %d -> %d: %d bytes, the program sent %d" % (s, d, got, want))
        p2p = ranks[s]["calls"].get("MPI_Isend", {}).get("bytes_sent", 0)
        row = sum(int(r["bytes"]) for (a, _), r in mat.items() if a == s)
        check(row == p2p, "rank %d: matrix row %d bytes, MPI_Isend bytes_sent %d" % (s, row, p2p))
    # Call sites: one site per call in this program, so a site's spread across ranks is
    # the call's per-rank time.
    for r in rows(os.path.join(out, "mpi_callsites.csv")):
        per_rank = [ranks[k]["calls"].get(r["call"], {}).get("time_s", 0) for k in range(NP)]
        check(close(r["rank_min_s"], min(per_rank), 1e-5) and close(r["rank_max_s"], max(per_rank), 1e-5)
              and per_rank[int(r["rank_max"])] == max(per_rank),
              "site %s: spread %s..%s (rank %s), rows %s" % (r["call"], r["rank_min_s"], r["rank_max_s"],
                                                            r["rank_max"], per_rank))
    # Message sizes: every Isend in its power-of-two bucket.
    sizes = rows(os.path.join(out, "mpi_sizes.csv"))
    for s in range(NP):
        got = sorted((int(r["bucket"]), int(r["calls"])) for r in sizes
                     if int(r["rank"]) == s and r["call"] == "MPI_Isend")
        want = {}
        for d in range(NP):
            if d != s:
                b = ((s + 1) * (d + 1) * 100).bit_length()
                want[b] = want.get(b, 0) + 1
        check(got == sorted(want.items()), "rank %d Isend sizes %s, want %s" % (s, got, sorted(want.items())))
        for r in sizes:
            if int(r["rank"]) == s and r["call"] == "MPI_Isend":
                check(int(r["min_bytes"]) <= (s + 1) * 100 * NP, "bucket bounds %s" % r)


def regions_part(a, work):
    env = dict(os.environ, PAPI_OUTPUT_DIRECTORY=work, PAPI_EVENTS="perf::PAGE-FAULTS", PMI_RANK="2")
    for k in ("OMPI_COMM_WORLD_RANK", "PMIX_RANK", "SLURM_PROCID", "MPI_LOCALRANKID", "PAPI_REPORT"):
        env.pop(k, None)
    run([a.regions_program], env=env)
    src = os.path.join(work, "papi_hl_output")
    files = [os.path.join(src, f) for f in os.listdir(src)]
    check(len(files) == 1, "region files %s" % files)
    with open(files[0], encoding="utf-8") as f:
        return src, json.load(f)


def check_region_tables(out, data):
    tree = {r["path"]: r for r in rows(os.path.join(out, "region_tree.csv"))}
    totals = data["region_totals"]
    for tid, regs in totals.items():
        for name, t in regs.items():
            path = name if t["parent"] is None else None
            if path is None:  # one level of nesting in the workload
                path = "%s/%s" % (t["parent"], name)
            check(path in tree, "region tree has no %s" % path)
    # Inclusive totals summed over threads equal the files' per-name totals.
    want = {}
    for regs in totals.values():
        for name, t in regs.items():
            path = name if t["parent"] is None else "%s/%s" % (t["parent"], name)
            w = want.setdefault(path, {"region_count": 0, "perf::PAGE-FAULTS": 0})
            w["region_count"] += t["region_count"]
            w["perf::PAGE-FAULTS"] += t["perf::PAGE-FAULTS"]
    for path, w in want.items():
        if path in tree:
            for k, v in w.items():
                check(int(float(tree[path][k])) == v, "tree %s %s: %s, region_totals %s" % (path, k, tree[path][k], v))
    with open(os.path.join(out, "regions_hatchet.json"), encoding="utf-8") as f:
        lit = json.load(f)
    roots = {n["frame"]["name"]: n for n in lit}
    check("outer" in roots and any(c["frame"]["name"] == "inner" for c in roots.get("outer", {}).get("children", [])),
          "hatchet literal: no outer -> inner: %s" % list(roots))
    if "outer" in roots:
        m = roots["outer"]["metrics"]
        check(m.get("perf::PAGE-FAULTS (inc)") == want.get("outer", {}).get("perf::PAGE-FAULTS"),
              "hatchet outer inclusive faults %s" % m)
        kids = sum(c["metrics"]["perf::PAGE-FAULTS (inc)"] for c in roots["outer"]["children"])
        check(m.get("perf::PAGE-FAULTS") == m.get("perf::PAGE-FAULTS (inc)") - kids,
              "hatchet exclusive = inclusive - children: %s" % m)
    reads = rows(os.path.join(out, "region_reads.csv"))
    check(any(r["name"] == "outer" and r["metric"] == "perf::PAGE-FAULTS" and r["read"] == "1"
              and r["value"] == "30" for r in reads), "region_reads has no outer read_1 = 30")


def main():
    p = argparse.ArgumentParser()
    for opt in ("--mpirun", "--wrapper", "--program", "--regions-program", "--tool"):
        p.add_argument(opt, required=True)
    p.add_argument("out")
    a = p.parse_args()
    shutil.rmtree(a.out, ignore_errors=True)
    work = os.path.join(a.out, "run")
    os.makedirs(work)
    rep, ranks = mpi_part(a, work)
    src, data = regions_part(a, work)
    out = os.path.join(a.out, "report")
    run([a.tool, "--mpi", work, "--regions", src, "-o", out, "--title", "check_papi_report"])
    check_mpi_tables(out, ranks)
    check_region_tables(out, data)
    with open(os.path.join(out, "report.html"), encoding="utf-8") as f:
        page = f.read()
    for fid in FIGURES:
        check('id="%s"' % fid in page, "the HTML has no figure %s" % fid)
    check("data-missing" not in page, "a figure was not drawn: %s" %
          [l for l in page.splitlines() if "data-missing" in l][:3])
    check("<script" not in page and "http" not in page.split("</style>")[0],
          "the page is not self-contained")
    print("check_papi_report: %s" % ("FAILED (%d)" % len(FAILURES) if FAILURES else "PASSED"))
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
