#!/usr/bin/env python3
"""check_report_metrics.py --tool T --regions-program R [--mpirun M --program P] OUT

papi_report's named metrics against the JSON they came from. Real runs: mpi_metrics on 4
ranks (PAPI_MPI_METRICS=CPU_UTILIZATION; rank r uses (r + 1) x 0.05 s of CPU) and
metric_regions_workload (PAPI_METRICS=CPU_UTILIZATION,DP_FLOPS: a spinning and a sleeping
thread): every value of the CSV tables, the page's tables and the text report equals the
JSON's, with the ranks of the min and max the report names (that they grow with the rank
is check_mpi_metrics.py's, under no other load);
with no FLOP metric countable here the roofline is not drawn and says why (the region
file's reason for DP_FLOPS). A run with DP_FLOPS and MEM_BW (the reports above with those
metrics added, known values) draws the roofline: each point at FLOPs / bytes and FLOP/s,
the roof from the report's peaks or the options, the sources said on the chart; a rank
whose FLOP rate is null gives the row's reason. A metric that is not a number and a peak
that is not a finite number > 0 are refused with one line (exit 2). Exit 0 pass, 1 fail."""
import csv
import glob
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from figure_checks import figure_problems  # noqa: E402
from report_html import read_page  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import report_check  # noqa: E402 (every report this test writes is checked: schema/README.md)
from report_job_args import job_args  # noqa: E402

report_check.guard()

from checks import check_said as check, verdict  # noqa: E402 (tests/common/checks.py)


def close(a, b, rel=1e-5):
    return abs(float(a) - float(b)) <= rel * max(abs(float(a)), abs(float(b)), 1e-300)


def rows(path):
    with open(path, encoding="utf-8") as f:
        return list(csv.DictReader(f))


def run(cmd, env):
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=180)
    check(p.returncode == 0, "%s exits 0 (%s)" % (os.path.basename(cmd[0]), p.stderr[-400:]))
    return p


def clean_env(**kw):
    env = {k: v for k, v in os.environ.items() if not k.startswith("PAPI_")}
    env.update(kw)
    return env


def mpi_run(a, out):
    d = os.path.join(out, "mpi")
    os.makedirs(d)
    run([a.mpirun, "-np", "4", a.program], clean_env(PAPI_MPI_OUTPUT_DIR=d,
                                                      PAPI_MPI_METRICS="CPU_UTILIZATION"))
    with open(os.path.join(d, "papi_mpi_report.json"), encoding="utf-8") as f:
        return d, json.load(f)


def regions_run(a, out):
    d = os.path.join(out, "regions")
    os.makedirs(d)
    run([a.regions_program], clean_env(PAPI_OUTPUT_DIRECTORY=d,
                                       PAPI_METRICS="CPU_UTILIZATION,DP_FLOPS"))
    files = glob.glob(os.path.join(d, "papi_hl_output", "*.json"))
    check(len(files) == 1, "one region file (%s)" % files)
    with open(files[0], encoding="utf-8") as f:
        return os.path.join(d, "papi_hl_output"), files[0], json.load(f)


def report(a, out, *inputs, extra=()):
    dest = os.path.join(out, "report")
    shutil.rmtree(dest, ignore_errors=True)
    p = subprocess.run([sys.executable, a.tool, "-o", dest, "--text"] + list(extra) + list(inputs),
                       capture_output=True, text=True, timeout=180)
    check(p.returncode == 0, "papi_report exits 0 (%s)" % p.stderr[-600:])
    with open(os.path.join(dest, "report.html"), encoding="utf-8") as f:
        page = f.read()
    return dest, page, p.stdout


def check_mpi_tables(dest, page, text, rep):
    ranks = sorted(rep["ranks"], key=lambda r: r["rank"])
    want = {r["rank"]: r["named_metrics"]["CPU_UTILIZATION"] for r in ranks}
    got = {int(r["rank"]): float(r["value"]) for r in rows(os.path.join(dest, "mpi_rank_metrics.csv"))
           if r["metric"] == "CPU_UTILIZATION"}
    check(sorted(got) == [0, 1, 2, 3] and all(close(got[k], want[k]) for k in want),
          "mpi_rank_metrics.csv equals each row's named_metrics: %s" % got)
    vals = [want[k] for k in sorted(want)]
    s = rows(os.path.join(dest, "mpi_metric_summary.csv"))[0]
    m, nm = rep["metrics"]["CPU_UTILIZATION"], rep["named_metrics"]["CPU_UTILIZATION"]
    # Which rank holds the max is the workload's (check_mpi_metrics.py); here: the JSON's.
    check(s["metric"] == "CPU_UTILIZATION" and s["unit"] == "CPUs"
          and int(s["max_rank"]) == m["max_rank"] and int(s["min_rank"]) == m["min_rank"],
          "the summary's min and max ranks are the report's")
    check(all(close(s[k], m[k]) for k in ("min", "mean", "max")) and close(s["job"], nm["job"])
          and int(s["ranks_with_value"]) == nm["ranks_with_value"] == 4,
          "the summary's min, mean, max and job equal the report's")
    _h, tables = read_page(page)
    per_rank = tables.get("table-mpi_rank_metrics", [])
    check(len(per_rank) == 4 and all(close(r["CPU_UTILIZATION [CPUs]"], want[int(r["rank"])], 1e-5)
                                     for r in per_rank), "the page's per-rank table equals the JSON")
    summ = tables.get("table-mpi_metric_summary", [{}])[0]
    check(summ.get("max (rank)") == "%.6g (%d)" % (m["max"], m["max_rank"])
          and summ.get("min (rank)") == "%.6g (%d)" % (m["min"], m["min_rank"])
          and summ.get("mean") == "%.6g" % m["mean"] and summ.get("job") == "%.6g" % nm["job"],
          "the page's summary: %s" % summ)
    check("Named metrics per rank" in text and ("%.6g (%d)" % (m["max"], m["max_rank"])) in text and
          all(("%.6g" % v) in text for v in vals), "the text report has every rank's value and the max's rank")


def check_region_tables(dest, page, text, doc, rank):
    m = doc["metrics"]
    want = {(int(tid), name): v["CPU_UTILIZATION"] for tid, t in m["threads"].items()
            for name, v in t["regions"].items()}
    got = {(int(r["thread"]), r["region"]): float(r["value"])
           for r in rows(os.path.join(dest, "region_metrics.csv")) if r["metric"] == "CPU_UTILIZATION"}
    check(set(got) == set(want) and all(close(got[k], want[k]) for k in want),
          "region_metrics.csv equals the region file's metrics per region and thread")
    inst = {(int(tid), int(i)): v["CPU_UTILIZATION"] for tid, t in m["threads"].items()
            for i, v in t["instances"].items()}
    got = {(int(r["thread"]), int(r["id"])): float(r["value"])
           for r in rows(os.path.join(dest, "region_instance_metrics.csv"))}
    check(set(got) == set(inst) and all(close(got[k], inst[k]) for k in inst),
          "region_instance_metrics.csv equals the file's instances")
    check({n for _t, n in want} == {"spin", "sleep", "team"}, "a value for each region of the workload")
    team = {(int(tid), name): v["CPU_UTILIZATION"] for tid, t in m["threads"].items()
            for name, v in (t.get("all_threads") or {}).get("regions", {}).items()}
    got = {(int(r["thread"]), r["region"]): float(r["value"])
           for r in rows(os.path.join(dest, "region_all_thread_metrics.csv"))}
    check(len(team) == 1 and set(got) == set(team) and all(close(got[k], team[k]) for k in team),
          "region_all_thread_metrics.csv equals the file's all-thread metrics (%s)" % got)
    _h, tables = read_page(page)
    pr = tables.get("table-region_metrics", [])
    check(len(pr) == len(want) and all(close(r["CPU_UTILIZATION [CPUs]"], want[(int(r["thread"]), r["region"])])
                                       and int(r["rank"]) == rank for r in pr),
          "the page's region table equals the file")
    pa = tables.get("table-region_all_thread_metrics", [])
    check(len(pa) == len(team) and all(close(r["CPU_UTILIZATION [CPUs]"], team[(int(r["thread"]), r["region"])])
                                       for r in pa), "the page's all-thread region table equals the file")
    check(all(("%.6g" % v) in text for v in want.values()), "the text report has every region's value")
    skipped = rows(os.path.join(dest, "region_metrics_skipped.csv"))
    check([r["metric"] for r in skipped] == ["DP_FLOPS"], "DP_FLOPS is listed as skipped here (no PMU)")
    why = "" if not skipped else skipped[0]["reason"]
    check(why and ('data-missing="no FLOP metric' in page) and why.split(":")[0] in page,
          "the roofline is not drawn and says why, with the library's reason (%s)" % why[:80])


def synthetic(rep, doc):
    """The reports with DP_FLOPS, SP_FLOPS and MEM_BW: rank r: (r + 1) GFLOP/s DP (2, 2, 3),
    1 GFLOP/s SP on rank 0 only, 4 GB/s; rank 3's DP null with a reason; region 'spin'
    of each thread: 2 GFLOP/s over 0.5 GB/s; peaks in the MPI report."""
    rep, doc = json.loads(json.dumps(rep)), json.loads(json.dumps(doc))
    rep["named_metrics"].update({k: {"unit": u, "ranks_with_value": 3, "job": None, "job_from": ""}
                                 for k, u in (("DP_FLOPS", "FLOP/s"), ("SP_FLOPS", "FLOP/s"),
                                              ("MEM_BW", "bytes/s"))})
    for r in rep["ranks"]:
        n = r["rank"]
        r["named_metrics"].update(DP_FLOPS=None if n == 3 else (n + 1) * 1e9,
                                  SP_FLOPS=1e9 if n == 0 else 0.0, MEM_BW=4e9)
        if n == 3:
            r["named_metrics_note"] = "DP_FLOPS: metric DP_FLOPS: a zero count in a denominator"
    rep["peaks"] = {"flops_per_s": 2e10, "bytes_per_s": 1e10}
    doc["metrics"]["definitions"].update(DP_FLOPS={"unit": "FLOP/s"}, MEM_BW={"unit": "bytes/s"})
    for t in doc["metrics"]["threads"].values():
        for v in t["regions"].values():
            v.update(DP_FLOPS=2e9, MEM_BW=5e8)
    return rep, doc


def check_roofline(a, out, rep, doc, rank):
    d = os.path.join(out, "synthetic")
    os.makedirs(os.path.join(d, "papi_hl_output"))
    with open(os.path.join(d, "papi_mpi_report.json"), "w") as f:
        json.dump(rep, f)
    with open(os.path.join(d, "papi_hl_output", "rank_%d.json" % rank), "w") as f:
        json.dump(doc, f)
    dest, page, _t = report(a, out, d)
    pts = rows(os.path.join(dest, "roofline.csv"))
    want = {"rank 0": (2e9, 4e9), "rank 1": (2e9, 4e9), "rank 2": (3e9, 4e9)}
    nthreads = len(doc["metrics"]["threads"])
    by = {p["label"]: p for p in pts}
    check(all(close(by[k]["flops_per_s"], f) and close(by[k]["intensity"], f / b)
              for k, (f, b) in want.items() if k in by) and "rank 3" not in by
          and sum(p["kind"] == "region" for p in pts) == nthreads and len(pts) == 3 + nthreads,
          "roofline.csv: ranks at DP + SP over MEM_BW, rank 3 (null) left out, a point per region")
    check(all(close(p["intensity"], 4.0) for p in pts if p["kind"] == "region"), "regions at 4 FLOPs/byte")
    check('id="roofline"' in page and "data-missing" not in page.split('id="roofline"')[1].split("</figure>")[0]
          and "papi_mpi_report.json (peaks.flops_per_s)" in page, "the page draws it and says where the peaks come from")
    sys.path.insert(0, os.path.join(os.path.dirname(a.tool)))
    import papi_report
    from papi_report.figures import metric_figures
    t = papi_report.tables(mpi=os.path.join(d, "papi_mpi_report.json"),
                           regions=os.path.join(d, "papi_hl_output"))
    fig = metric_figures.roofline(t)
    ax = fig.axes[0]
    got = sorted(tuple(x) for c in ax.collections for x in c.get_offsets())
    exp = sorted([(f / 4e9, f) for f, _b in want.values()] + [(4.0, 2e9)] * nthreads)
    check(len(got) == len(exp) and all(close(g[0], e[0]) and close(g[1], e[1]) for g, e in zip(got, exp)),
          "the figure's points are the table's (%s)" % got)
    roof = [ln for ln in ax.get_lines() if ln.get_label().startswith("roof")]
    x, y = (roof[0].get_xdata(), roof[0].get_ydata()) if roof else ([], [])
    check(roof and all(close(yy, min(2e10, 1e10 * xx)) for xx, yy in zip(x, y)),
          "the roof is min(peak FLOP/s, peak bandwidth x intensity)")
    check(ax.get_xscale() == "log" and ax.get_yscale() == "log" and "peaks.bytes_per_s" in ax.get_title(),
          "log-log, the title says where the peaks come from")
    check(figure_problems("roofline", fig) == [], "figure checks: %s" % figure_problems("roofline", fig))
    t2 = papi_report.tables(mpi=os.path.join(d, "papi_mpi_report.json"), peaks={"flops_per_s": 5e10})
    check(list(t2["roofline_peaks"]["source"])[0] == "option --peak-flops", "an option's peak comes first")
    for r in rep["ranks"]:
        r["named_metrics"]["DP_FLOPS"] = None
        r["named_metrics"]["SP_FLOPS"] = None
        r["named_metrics_note"] = "DP_FLOPS: the count of PAPI_DP_OPS is 0 over 1 s"
    why = metric_figures.roofline(papi_report.tables(mpi=rep))
    check(isinstance(why, str) and "only as null" in why and "PAPI_DP_OPS is 0" in why,
          "no FLOP value on any rank: the reason is the rows' (%s)" % why)


def check_hostile(a, out, rep):
    """A metric value that is not a number, a peak <= 0 (in a report or an option): exit 2
    and one line naming the file and the value."""
    d = os.path.join(out, "hostile")
    os.makedirs(d)
    cases = []
    bad = json.loads(json.dumps(rep))
    bad["ranks"][1]["named_metrics"]["CPU_UTILIZATION"] = "fast"
    cases.append((bad, [], "$.ranks[1].named_metrics.CPU_UTILIZATION: 'fast' is not of type 'number'"))
    bad = json.loads(json.dumps(rep))
    bad["peaks"] = {"bytes_per_s": -3}
    cases.append((bad, [], "$.peaks.bytes_per_s: -3 is less than or equal to the minimum of 0 (rule exclusiveMinimum"))
    cases.append((rep, ["--peak-flops", "inf"], "it must be a finite number > 0"))
    for i, (doc, extra, want) in enumerate(cases):
        path = os.path.join(d, "r%d.json" % i)
        with open(path, "w") as f:
            json.dump(doc, f)
        p = subprocess.run([sys.executable, a.tool, "--mpi", path, "-o", os.path.join(d, "o")] + extra,
                           capture_output=True, text=True, timeout=120)
        check(p.returncode == 2 and want in p.stderr and "Traceback" not in p.stderr
              and len(p.stderr.strip().splitlines()) == 1, "hostile %d: exit 2, %r (%s)" % (i, want, p.stderr[-300:]))


def main():
    a = job_args("--regions-program")
    os.makedirs(a.out)
    mdir, rep = mpi_run(a, a.out)
    rdir, _rfile, doc = regions_run(a, a.out)
    rank = doc.get("rank")
    if rank is None:  # a file without MPI has no rank: readers number the one process 0
        rank = 0
    dest, page, text = report(a, a.out, "--mpi", mdir, "--regions", rdir)
    check_mpi_tables(dest, page, text, rep)
    check_region_tables(dest, page, text, doc, rank)
    srep, sdoc = synthetic(rep, doc)
    check_roofline(a, a.out, srep, sdoc, rank)
    check_hostile(a, a.out, rep)
    return verdict("check_report_metrics")


if __name__ == "__main__":
    sys.exit(main())
