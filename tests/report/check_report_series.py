#!/usr/bin/env python3
"""check_report_series.py --mpirun M --program P --tool T OUT: papi_report draws the MPI
wrapper's PAPI_INTERVAL series (tests/mpi/mpi_series.c on 4 ranks: rank r faults
(r + 1) x 640 pages over about 0.5 s; PAPI_INTERVAL=0.05). Checked against the JSON:
mpi_time_series.csv holds every sample of every rank and event with its count; the heat
map (series-heat) is drawn from the MPI report, one row per rank in rank order, and each
row's rates times the bin width add up to that rank's counter (so the ranks' rows grow
with the rank); the lines (series-lines) are one per rank whose rates times their
intervals add up to the counter; the page carries both figures; the figures pass the
report's readability checks. The region API's series per region (report_series_regions.c:
"touch" faults 100 pages every 10 ms, then "sleep" sleeps, twice; PAPI_INTERVAL=0.02):
region_spans.csv holds each instance's span, in order; the per-region lines
(series-regions) are "touch" and "sleep", each exactly the samples (threads summed) whose
interval's midpoint lies in one of the region's instances, and touch's rate is far above
sleep's. Exit 0 pass, 1 fail."""
import csv
import json
import math
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from figure_checks import figure_problems  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import report_check  # noqa: E402 (every report this test writes is checked: schema/README.md)
from report_job_args import job_args  # noqa: E402

report_check.guard()

from checks import check_said as check, fails as FAILURES, verdict  # noqa: E402 (tests/common/checks.py)
EVENTS = ["perf::PAGE-FAULTS", "perf::TASK-CLOCK"]
NP = 4


def close(a, b, rel=1e-9):
    return abs(a - b) <= rel * max(abs(a), abs(b), 1.0)


def run_job(a, run):
    env = dict(os.environ, PAPI_MPI_OUTPUT_DIR=run, PAPI_MPI_EVENTS=",".join(EVENTS),
               PAPI_INTERVAL="0.05")
    for k in ("PAPI_MPI_METRICS", "PAPI_EVENTS", "PAPI_MULTIPLEX"):
        env.pop(k, None)
    p = subprocess.run([a.mpirun, "-np", str(NP), a.program], env=env, capture_output=True,
                       text=True, timeout=120)
    check(p.returncode == 0, "mpirun -np %d exits 0 (%s)" % (NP, p.stderr[-300:]))
    with open(os.path.join(run, "papi_mpi_report.json")) as f:
        return json.load(f)


def check_csv(rep, report):
    with open(os.path.join(report, "mpi_time_series.csv")) as f:
        rows = list(csv.DictReader(f))
    want = {(r["rank"], k, e): s[e] for r in rep["ranks"] for k, s in enumerate(r["series"]["samples"])
            for e in EVENTS}
    got = {(int(x["rank"]), int(x["sample"]), x["event"]): float(x["count"]) for x in rows}
    check(len(rows) == len(want) and got == want,
          "mpi_time_series.csv: %d rows, every sample's count as the JSON's (%d)" % (len(rows), len(want)))


def check_heat(t, series, rep):
    from papi_report.load import units  # the figures' units (a CPU clock is drawn in CPUs)
    counters = {r["rank"]: r["counters"] for r in rep["ranks"]}
    fig = series.series_heat(t)
    check(not isinstance(fig, str), "series-heat is drawn (%s)" % (fig if isinstance(fig, str) else ""))
    if isinstance(fig, str):
        return
    panels = [a for a in fig.axes if a.images]
    check(len(panels) == len(EVENTS), "series-heat: one heat map per event (%d)" % len(panels))
    for a in panels:
        ev = next((e for e in EVENTS if a.get_title().startswith(e)), None)
        check(ev is not None and "(MPI report)" in a.get_title(),
              "series-heat panel %r: an event's, from the MPI report" % a.get_title())
        if ev is None:
            continue
        img = a.images[0].get_array()
        _, ranks, width = series.heat_grid(series._series_table(t)[0], ev)
        sums = [float(img[i].sum()) * width for i in range(img.shape[0])]
        scale = units.rate(ev)[0]  # the map's unit: CPUs for a CPU clock, counts otherwise
        want = [float(counters[r][ev]) * scale for r in range(NP)]
        check(ranks == list(range(NP)) and img.shape[0] == NP,
              "series-heat %s: rows are ranks 0..%d (%s)" % (ev, NP - 1, ranks))
        check(len(sums) == NP and all(close(s, w, 1e-6) for s, w in zip(sums, want)),
              "series-heat %s: each row adds up to its rank's counter (%s vs %s)" % (ev, sums, want))
        if ev == "perf::PAGE-FAULTS":
            check(all(b > a2 for a2, b in zip(sums, sums[1:])),
                  "series-heat %s: the rows grow with the rank (%s)" % (ev, sums))
    for why in figure_problems("series-heat", fig):
        check(False, why)


def check_lines(t, series, rep):
    from papi_report.load import units
    counters = {r["rank"]: r["counters"] for r in rep["ranks"]}
    fig = series.series_lines(t)
    check(not isinstance(fig, str), "series-lines is drawn")
    if isinstance(fig, str):
        return
    for a in fig.axes:
        ev = next((e for e in EVENTS if a.get_title().startswith(e)), None)
        if ev is None:
            continue
        lines = {ln.get_label(): ln for ln in a.get_lines()}
        check(sorted(lines) == ["rank %d" % r for r in range(NP)],
              "series-lines %s: one line per rank (%s)" % (ev, sorted(lines)))
        for r in range(NP):
            ln = lines.get("rank %d" % r)
            if ln is None:
                continue
            x, y = list(ln.get_xdata()), list(ln.get_ydata())
            dt = [x[0]] + [b - a2 for a2, b in zip(x, x[1:])]
            total = sum(v * d for v, d in zip(y, dt))
            check(close(total, counters[r][ev] * units.rate(ev)[0], 1e-6),
                  "series-lines %s rank %d: rate x interval adds up to %d (%g)" % (ev, r, counters[r][ev], total))
    for why in figure_problems("series-lines", fig):
        check(False, why)


def run_regions(a, out):
    env = dict(os.environ, PAPI_OUTPUT_DIRECTORY=out, PAPI_EVENTS="perf::PAGE-FAULTS",
               PAPI_INTERVAL="0.02")
    for k in ("PAPI_METRICS", "PAPI_MULTIPLEX", "PMI_RANK", "OMPI_COMM_WORLD_RANK", "PMIX_RANK",
              "SLURM_PROCID"):
        env.pop(k, None)
    p = subprocess.run([a.regions_program], env=env, capture_output=True, text=True, timeout=60)
    check(p.returncode == 0, "the region program exits 0 (%s)" % p.stderr[-300:])
    hl = os.path.join(out, "papi_hl_output")
    files = [os.path.join(hl, f) for f in os.listdir(hl) if f.endswith(".json")]
    with open(files[0]) as f:
        return json.load(f), hl


def expected_lines(d, ev):
    """{region: [(time_s, rate)]} from the region file alone."""
    series = d["series"]
    per = {}
    for samples in series["threads"].values():
        prev = 0
        for k, x in enumerate(samples):
            t = x["time_nsec"] * 1e-9
            c, _, dt = per.get(k, (0, t, t - prev))
            per[k] = (c + x[ev], t, max(dt, t - prev))
            prev = t
    out = {}
    for items in series["region_spans"].values():
        for sp in items:
            b, e = sp["begin_nsec"] * 1e-9, sp["end_nsec"] * 1e-9
            for k, (c, t, dt) in per.items():
                if b <= t - dt / 2 <= e:
                    out.setdefault(sp["name"], {})[k] = (t, c / dt)
    return {n: [v[k] for k in sorted(v)] for n, v in out.items()}, \
        {n: sum(1 for k1, k2 in zip(sorted(v), sorted(v)[1:]) if k2 > k1 + 1) for n, v in out.items()}


def check_regions(a, series):
    import papi_report
    d, hl = run_regions(a, os.path.join(a.out, "regions"))
    spans = [x for v in d["series"].get("region_spans", {}).values() for x in v]
    names = [x["name"] for x in sorted(spans, key=lambda x: x["begin_nsec"])]
    check(names == ["touch", "sleep", "touch", "sleep"] and
          all(x["begin_nsec"] < x["end_nsec"] for x in spans),
          "region_spans: touch, sleep, touch, sleep in order (%s)" % names)
    report = os.path.join(a.out, "regions_report")
    r = subprocess.run([sys.executable, a.tool, "--regions", hl, "-o", report], capture_output=True,
                       text=True, timeout=300)
    check(r.returncode == 0, "papi_report --regions exits 0 (%s)" % r.stderr[-300:])
    with open(os.path.join(report, "region_spans.csv")) as f:
        check(len(list(csv.DictReader(f))) == len(spans), "region_spans.csv: one row per instance")
    page = open(os.path.join(report, "report.html")).read()
    part = page.split('<figure id="series-regions"', 1)[-1].split("</figure>", 1)[0]
    check("<img" in part, "the page draws series-regions")
    t = papi_report.tables(regions=hl)
    fig = series.series_regions(t)
    check(not isinstance(fig, str), "series-regions is drawn (%s)" % (fig if isinstance(fig, str) else ""))
    if isinstance(fig, str):
        return
    ev = "perf::PAGE-FAULTS"
    want, gaps = expected_lines(d, ev)
    (ax,) = [x for x in fig.axes if x.get_title().startswith(ev)]
    got = {ln.get_label(): [(x, y) for x, y in zip(ln.get_xdata(), ln.get_ydata()) if not math.isnan(x)]
           for ln in ax.get_lines()}
    # A line breaks (NaN) between two stretches where its region ran, and nowhere else.
    breaks = {ln.get_label(): sum(1 for x in ln.get_xdata() if math.isnan(x)) for ln in ax.get_lines()}
    check(breaks == gaps and all(gaps.get(n, 0) >= 1 for n in ("touch", "sleep")),
          "series-regions: breaks %s, want one per gap between the region's samples %s" % (breaks, gaps))
    check(sorted(got) == ["sleep", "touch"], "series-regions: a line per region (%s)" % sorted(got))
    for name in ("touch", "sleep"):
        g, w = got.get(name, []), want.get(name, [])
        check(len(g) == len(w) and len(w) >= 5 and all(close(x1, x2, 1e-9) and close(y1, y2, 1e-9)
                                                       for (x1, y1), (x2, y2) in zip(g, w)),
              "series-regions %s: the samples whose midpoint is in its instances (%d, want %d)"
              % (name, len(g), len(w)))
    med = {n: sorted(y for _, y in v)[len(v) // 2] if v else 0 for n, v in got.items()}
    # touch faults 100 pages per 10 ms (10^4 a second on a quiet machine; a loaded one
    # slows it tenfold and more), sleep none.
    check(med.get("touch", 0) > max(10 * med.get("sleep", 0), 100),
          "series-regions: touch's median rate far above sleep's (%s)" % med)
    for why in figure_problems("series-regions", fig):
        check(False, why)


def main():
    a = job_args("--regions-program")
    run, report = os.path.join(a.out, "run"), os.path.join(a.out, "report")
    os.makedirs(run)
    rep = run_job(a, run)
    check(all("series" in r for r in rep["ranks"]), "every rank's row has a series")
    if FAILURES:
        sys.exit(1)
    r = subprocess.run([sys.executable, a.tool, "--mpi", run, "-o", report], capture_output=True,
                       text=True, timeout=300)
    check(r.returncode == 0, "papi_report exits 0 (%s)" % r.stderr[-300:])
    check_csv(rep, report)
    page = open(os.path.join(report, "report.html")).read()
    for fid in ("series-heat", "series-lines"):
        part = page.split('<figure id="%s"' % fid, 1)[-1].split("</figure>", 1)[0]
        check("<img" in part, "the page draws %s" % fid)
    sys.path.insert(0, os.path.dirname(os.path.realpath(a.tool)))
    import papi_report
    from papi_report.figures import series_figures as series  # the figures, and the helpers they use
    t = papi_report.tables(mpi=run)
    check_heat(t, series, rep)
    check_lines(t, series, rep)
    check_regions(a, series)
    return verdict("check_report_series")


if __name__ == "__main__":
    sys.exit(main())
