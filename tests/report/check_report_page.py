#!/usr/bin/env python3
"""check_report_page.py PAPI_REPORT PAPI_RUN: what papi_report's page shows of what it was given
(issue 46).

- No placeholder for an input not given: a region-only report has no MPI figure, no MPI
  section and no "no MPI report input given" (it opened with six red boxes); an MPI-only
  report has no region figure and no "no region file input given". A figure whose input
  was given but has nothing to draw still says why in its place (region-reads without a
  PAPI_hl_read; the partner matrix of a wrapper that records no partners).
- Readable icicle labels: every label of the region tree's icicle is at least 9 px high
  on the page (they were ~6 px), lies inside its box (labels that do not fit are
  dropped: the 40 ms region's box is too narrow for one), and says its value in the
  units papi_metric_avail uses (3 s, 1.2 s; not 3000000000 or 3e+09 nanoseconds).
- A profile-only page (papi_run --sample's directory: its whole-program record and the
  profile, its job file merged by PAPI_RUN --merge) opens with the flame graph, says "Not
  drawn" for no input it was not given, and ends with one line of what more input would
  show (issue 56).
- No clipped bar: with one rank's MPI time 70x the others', every bar chart (the MPI ones,
  --compare's ratio chart) keeps its bars and their labels inside the axes; the stacked
  MPI chart labels each rank's total (issue 56).
- Per-region series drawn only where the region ran: "a" runs from 0 to 2.2 s and from 5.2
  to 8 s, "b" between; each sample (1 s) belongs to the region its midpoint lies in. The
  line of "a" (rate and metric) holds its samples 1, 2 then 6, 7, 8 with a NaN between
  (it joined sample 2 to sample 6 across the 3 s "a" did not run), "b" 3, 4, 5 unbroken.
Exit 0 pass, 1 fail."""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import report_check  # noqa: E402 (every report this test writes is checked: schema/README.md)

report_check.guard()

from checks import check, verdict  # noqa: E402 (tests/common/checks.py)
from profile_fixture import write_job  # noqa: E402 (the job's profile: papi_run --merge)
import region_file  # noqa: E402 (tests/common/region_file.py)
from region_file import region  # noqa: E402
EV = "perf::PAGE-FAULTS"
MPI_FIGURES = ("compute-vs-mpi", "mpi-time-by-call", "time-per-call-site", "message-sizes",
               "comm-matrix", "counters-per-rank")
REGION_FIGURES = ("region-tree", "region-by-rank", "region-by-thread", "region-reads",
                  "series-regions", "series-metric-regions")


def region_doc():
    return region_file.region_doc({"7": {"0": region("solve", -1, 3000000000, {EV: 5000}),
                                         "1": region("assemble", 0, 1200000000, {EV: 3000}),
                                         "2": region("io", -1, 40000000, {EV: 20})}}, events=[EV])


def mpi_doc():
    ranks = [{"rank": r, "wall_s": 2.0, "mpi_s": 0.5, "finished": True,
              "counters": {EV: 100 + r},
              "calls": {"MPI_Init": {"calls": 1, "time_s": 0.1},
                        "MPI_Allreduce": {"calls": 4, "time_s": 0.4, "bytes_sent": 32, "bytes_recv": 32}}}
             for r in range(2)]
    return {"nranks": 2, "events": [EV], "ranks": ranks}


def page_of(tool, d, name, args):
    out = os.path.join(d, name)
    p = subprocess.run([sys.executable, tool, "-o", out] + args, capture_output=True, text=True, timeout=600)
    check(p.returncode == 0, "%s: exit %d: %s" % (name, p.returncode, p.stderr[-1500:]))
    try:
        with open(os.path.join(out, "report.html"), encoding="utf-8") as f:
            return f.read()
    except OSError as e:
        check(False, "%s: no page: %s" % (name, e))
        return ""


def figure_part(page, fid):
    return page.split('<figure id="%s"' % fid, 1)[-1].split("</figure>", 1)[0] if fid in page else ""


def placeholders(tool, d, src, mpi):
    page = page_of(tool, d, "regions_only", ["--regions", src])
    ids = re.findall(r'<figure id="([^"]+)"', page)
    check(not set(ids) & set(MPI_FIGURES), "region-only page has MPI figures: %s" % ids)
    check("input given" not in page, "region-only page says an input was not given: %s"
          % re.findall(r'data-missing="([^"]*input given[^"]*)"', page))
    check("<h2>MPI</h2>" not in page, "region-only page has an MPI section")
    check("region-tree" in ids and "<img" in figure_part(page, "region-tree"), "region-only page draws the region tree")
    check('data-missing="the region_reads table is empty"' in figure_part(page, "region-reads"),
          "region-only page: region-reads (no PAPI_hl_read) does not say why: %s" % figure_part(page, "region-reads")[:300])
    page = page_of(tool, d, "mpi_only", ["--mpi", mpi])
    ids = re.findall(r'<figure id="([^"]+)"', page)
    check(not set(ids) & set(REGION_FIGURES), "MPI-only page has region figures: %s" % ids)
    check("input given" not in page, "MPI-only page says an input was not given")
    check("compute-vs-mpi" in ids and "<img" in figure_part(page, "compute-vs-mpi"), "MPI-only page draws compute-vs-mpi")
    check("data-missing=" in figure_part(page, "comm-matrix"),
          "MPI-only page: the matrix of a report without partners does not say why")


def papi_run_dir(papi_run, d):
    """What papi_run --sample -o DIR writes: its whole-program record (tool papi_run, one
    region) and the sampled profile of the same run."""
    src = os.path.join(d, "sampled", "papi_run_output")
    os.makedirs(src)
    run = {"id": "h-1-20260101T000000Z", "command": "prog", "start": "2026-01-01T00:00:00Z",
           "host": "h", "cpu": "c", "version": "1.0.0"}
    rank = {"papi_version": "7.0.0.0", "rank": None, "run": run, "tool": "papi_run", "pid": 5,
            "event_definitions": {"perf::TASK-CLOCK": {"component": "perf_event", "type": "delta"}},
            "threads": {"5": {"regions": {"0": {"name": "papi_run", "parent_region_id": -1,
                                                "region_count": 1, "real_time_nsec": 4000000,
                                                "cycles": 0, "perf::TASK-CLOCK": 4000000}}}}}
    with open(os.path.join(src, "rank_000005-%s.json" % run["id"]), "w") as f:
        json.dump(rank, f)
    prof = {"kind": "profile", "run": {k: run[k] for k in ("id", "command", "start", "host")},
            "pid": 5, "rank": None, "sampled_event": "perf::TASK-CLOCK", "period": 1000000,
            "call_graph": "fp", "kernel_frames": False, "events": ["perf::TASK-CLOCK"],
            "samples": 4, "lost_records": 0, "stack_cap": 65536, "distinct_stacks": 2,
            "dropped_samples": 0, "dropped_weight": 0, "notes": "",
            "frames": [{"name": "main", "module": "prog"}, {"name": "a", "module": "prog"},
                       {"name": "b", "module": "prog"}],
            "stacks": [{"tid": 5, "samples": 3, "counts": [3000000], "frames": [0, 1]},
                       {"tid": 5, "samples": 1, "counts": [1000000], "frames": [0, 2]}]}
    with open(os.path.join(src, "profile_%s_5.json" % run["id"]), "w") as f:
        json.dump(prof, f)
    write_job(papi_run, src, [prof])
    return os.path.dirname(src)


def profile_only(tool, papi_run, d):
    """papi_run --sample's directory alone: the page opens with the profile (the flame
    graph), no "Not drawn" for an input not given (it opened with seven: PAPI_hl_read,
    roofline, five time series), and one closing line lists what more input would show."""
    page = page_of(tool, d, "profile_only", [papi_run_dir(papi_run, d)])
    sections = re.findall(r"<h2>([^<]*)</h2>", page)
    ids = re.findall(r'<figure id="([^"]+)"', page)
    check(sections[:1] == ["Profile"] and ids[:1] == ["profile_flame_0"] and
          "<svg" in figure_part(page, "profile_flame_0"),
          "profile-only page opens with %s, figures %s; want the Profile section and its flame "
          "graph first" % (sections[:3], ids[:3]))
    missing = re.findall(r'data-missing="([^"]*)"', page)
    check(not missing, "profile-only page says Not drawn %d times: %s" % (len(missing), missing))
    more = re.findall(r'<p class="more-input"[^>]*>([^<]*)</p>', page)
    body = page.split("</body>")[0]
    check(len(more) == 1 and body.rstrip().endswith(more[0] + "</p>") and
          all(w in more[0] for w in ("MPI report", "PAPI_INTERVAL", "trace", "PAPI_hl_read",
                                     "FLOPS_DP")),
          "profile-only page: one closing line of what more input would show: %s" % more)


def icicle_labels(tool, src):
    sys.path.insert(0, os.path.dirname(os.path.abspath(tool)))
    import papi_report
    from papi_report.figures import figures
    t = papi_report.tables(regions=src)
    fig = figures.region_tree(t)
    dpi = getattr(figures, "PAGE_DPI", 90)  # the page's pictures (html.DPI)
    fig.set_dpi(dpi)
    renderer = fig.canvas.get_renderer()
    a = fig.axes[0]
    check("real time" in a.get_title() and "nsec" not in a.get_title(),
          "icicle title %r: not in a reader's units" % a.get_title())
    labels = {}
    for text in a.texts:
        px = text.get_fontsize() * dpi / 72.0
        check(px >= 9, "icicle label %r is %.1f px high, want at least 9" % (text.get_text(), px))
        e = text.get_window_extent(renderer)
        inside = [p for p in a.patches if p.get_window_extent(renderer).contains(e.x0 + 1, e.y0 + 1)
                  and p.get_window_extent(renderer).contains(e.x1 - 1, e.y1 - 1)]
        check(inside, "icicle label %r spills out of its box" % text.get_text())
        labels[text.get_text().split("\n")[0]] = text.get_text()
    check(labels.get("solve") == "solve\n3 s" and labels.get("assemble") == "assemble\n1.2 s",
          "icicle labels in seconds: %s" % labels)
    check("io" not in labels and not any("40 ms" in x for x in labels.values()),
          "the 40 ms region's box (%.0f px wide) has a label: %s"
          % (a.transData.transform((40e6 / 3.04e9, 0))[0] - a.transData.transform((0, 0))[0], labels))
    check(not any(re.search(r"\d{5,}|e\+", x) for x in labels.values()), "raw numbers in labels: %s" % labels)


def series_doc():
    smp = [{"time_nsec": k * 1000000000, EV: 10 * k, "metrics": {"CPU_UTILIZATION": k / 10}}
           for k in range(1, 9)]
    doc = region_doc()
    doc["series"] = {"interval_s": 1.0, "threads": {"7": smp},
                     "process_metrics": [{"time_nsec": x["time_nsec"], "metrics": x["metrics"]} for x in smp],
                     "region_spans": {"7": [{"id": 0, "name": "a", "begin_nsec": 0, "end_nsec": 2200000000},
                                            {"id": 1, "name": "b", "begin_nsec": 2200000000, "end_nsec": 5200000000},
                                            {"id": 2, "name": "a", "begin_nsec": 5200000000, "end_nsec": 8000000000}]}}
    return doc


def region_series(tool, d):
    import math
    src = os.path.join(d, "series", "papi_hl_output")
    os.makedirs(src)
    with open(os.path.join(src, "rank_000000.json"), "w") as f:
        json.dump(series_doc(), f)
    sys.path.insert(0, os.path.dirname(os.path.abspath(tool)))
    import papi_report
    from papi_report.figures import series_figures as series, series_metric_figures as series_metrics
    t = papi_report.tables(regions=src)

    def nan_safe(v):
        return None if math.isnan(v) else round(float(v), 9)

    # Sample k ends at k s and counts 10 k over 1 s: its rate is 10 k; its metric k / 10.
    for what, fig, want_a, want_b in (
            ("rate", series.series_regions(t), [(1, 10), (2, 20), None, (6, 60), (7, 70), (8, 80)],
             [(3, 30), (4, 40), (5, 50)]),
            ("metric", series_metrics.series_metric_regions(t),
             [(1, .1), (2, .2), None, (6, .6), (7, .7), (8, .8)], [(3, .3), (4, .4), (5, .5)])):
        if isinstance(fig, str):
            check(False, "series-regions (%s) not drawn: %s" % (what, fig))
            continue
        lines = {ln.get_label(): [None if nan_safe(x) is None else (nan_safe(x), nan_safe(y))
                                  for x, y in zip(ln.get_xdata(), ln.get_ydata())]
                 for ln in fig.axes[0].get_lines()}
        check(lines.get("a") == want_a, "per-region %s line of a: %s, want %s (a NaN between its "
              "two stretches)" % (what, lines.get("a"), want_a))
        check(lines.get("b") == want_b, "per-region %s line of b: %s, want %s" % (what, lines.get("b"), want_b))


def call_shares(tool, mpi):
    """MPI_Init lies outside the wall interval (MPI_Init's end to MPI_Finalize): no share of
    wall time (it read 798%); MPI_Allreduce's 0.8 s of the ranks' 4 s is 20%."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(tool)))
    import papi_report
    s = papi_report.tables(mpi=mpi)["mpi_call_summary"].set_index("call")
    init, allred = s.loc["MPI_Init", "pct_wall"], s.loc["MPI_Allreduce", "pct_wall"]
    check(init != init, "MPI_Init's pct_wall is %r, want empty (outside the wall interval)" % init)
    check(abs(allred - 20.0) < 1e-9, "MPI_Allreduce's pct_wall %r, want 20" % allred)


def time_units(tool, d):
    """perf::TASK-CLOCK (ns on a CPU) in s in the icicle, in CPUs in the series (0.6 CPU,
    not 6e8 per second), never a bare count such as "150 M"."""
    doc = series_doc()
    doc["event_definitions"]["perf::TASK-CLOCK"] = {"component": "perf_event", "type": "delta"}
    for r in doc["threads"]["7"]["regions"].values():
        r["perf::TASK-CLOCK"] = r["real_time_nsec"] * 6 // 10
    for smp in doc["series"]["threads"]["7"]:
        smp["perf::TASK-CLOCK"] = 600000000  # 0.6 s a 1 s interval: 0.6 CPU
    src = os.path.join(d, "clock", "papi_hl_output")
    os.makedirs(src)
    with open(os.path.join(src, "rank_000000.json"), "w") as f:
        json.dump(doc, f)
    import papi_report
    from papi_report.figures import figures, series_figures
    t = papi_report.tables(regions=src)
    fig = figures.region_tree(t)
    fig.canvas.draw()
    panel = [a for a in fig.axes if "TASK-CLOCK" in a.get_title()]
    labels = [x.get_text() for a in panel for x in a.texts]
    check(panel and labels and all(re.search(r"\n[\d.]+ (s|ms)$", x) for x in labels) and
          "(s)" in panel[0].get_title(),
          "TASK-CLOCK's icicle in seconds: %s %s" % (labels, panel and panel[0].get_title()))
    for fid, draw in (("series-lines", series_figures.series_lines),
                      ("series-regions", series_figures.series_regions)):
        f = draw(t)
        a = [x for x in f.axes if "TASK-CLOCK" in x.get_title()]
        ys = [y for ln in (a[0].get_lines() if a else []) for y in ln.get_ydata() if y == y]
        check(a and "CPUs" in a[0].get_ylabel() and ys and all(abs(y - 0.6) < 1e-9 for y in ys),
              "%s: TASK-CLOCK per second in CPUs, 0.6 (%s, %s)" % (fid, a and a[0].get_ylabel(), ys[:4]))
    return t


def region_colours(t):
    """One colour per region in every chart: the icicle's panels and the per-region lines."""
    from papi_report.figures import figures, series_figures
    want = figures.region_colours(t)
    fig = figures.region_tree(t)
    fig.canvas.draw()
    seen = {}
    for a in fig.axes:
        for x in a.texts:
            name = x.get_text().split("\n")[0]
            box = [p for p in a.patches if p.get_x() <= x.get_position()[0] <= p.get_x() + p.get_width()
                   and p.get_y() <= x.get_position()[1] <= p.get_y() + p.get_height()]
            if box:
                seen.setdefault(name, set()).add(tuple(round(c, 6) for c in box[0].get_facecolor()))
    check(seen and all(len(v) == 1 for v in seen.values()) and
          all(list(v)[0] == tuple(round(c, 6) for c in want[n]) for n, v in seen.items()),
          "icicle: each region one colour across panels, its own (%s)" % seen)
    f = series_figures.series_regions(t)
    lines = {ln.get_label(): ln.get_color() for a in f.axes for ln in a.get_lines()}
    check(lines and all(tuple(c) == tuple(want[n]) for n, c in lines.items()),
          "series-regions: each region's line in its colour (%s)" % lines)


def tall_bar(tool, d):
    """No clipped bar: rank 2 spends 40 s in MPI_Allreduce and 13.3 s in MPI_Send, the others
    0.5 s and 0.17 s. Every bar chart keeps every bar and label inside its axes, the
    stacked chart labels each rank's total (rank 2: 53.3 s) above its stack; the compare
    chart of a 3000x rise (drawn at its 1024x end) keeps the bar's end and its label in."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__))))
    sys.path.insert(0, os.path.dirname(os.path.abspath(tool)))
    import papi_report
    from figure_checks import bar_problems
    from papi_report.page import compare_page
    from papi_report.figures import figures
    ranks = [{"rank": r, "wall_s": 60.0, "mpi_s": (53.4 if r == 2 else 0.77), "finished": True,
              "counters": {EV: 1000 if r == 2 else 10},
              "calls": {"MPI_Init": {"calls": 1, "time_s": 0.1},
                        "MPI_Allreduce": {"calls": 4, "time_s": 40.0 if r == 2 else 0.5,
                                          "bytes_sent": 32, "bytes_recv": 32},
                        "MPI_Send": {"calls": 4, "time_s": 40.0 / 3 if r == 2 else 0.5 / 3,
                                     "bytes_sent": 32}}} for r in range(4)]
    path = os.path.join(d, "tall.json")
    with open(path, "w") as f:
        json.dump({"nranks": 4, "events": [EV], "ranks": ranks}, f)
    t = papi_report.tables(mpi=path)
    for fid, draw, axis in (("compute-vs-mpi", figures.compute_vs_mpi, "y"),
                            ("mpi-time-by-call", figures.mpi_time_by_call, "y"),
                            ("time-per-call-site", figures.time_per_call_site, "x"),
                            ("counters-per-rank", figures.counters_per_rank, "y")):
        fig = draw(t)
        check(not isinstance(fig, str), "%s not drawn: %s" % (fid, fig))
        if not isinstance(fig, str):
            problems = bar_problems(fid, fig, axis)
            check(not problems, "; ".join(problems))
            if fid == "mpi-time-by-call":
                a = fig.axes[0]
                top = max(p.get_y() + p.get_height() for p in a.patches)
                labels = [x.get_text() for x in a.texts if abs(x.get_position()[1] - top) < 1e-9]
                check(abs(top - 160.0 / 3) < 1e-9 and labels == ["53.3 s"],
                      "the tallest stack (%g s) labelled with its total: %s" % (top, labels))
    rows = [{"ratio": r, "load_free_ratio": float("nan"), "threshold": 0.1, "verdict": v, "q": q}
            for r, v, q in ((3000.0, "slower", "MPI_Send"), (1.05, "same", "MPI_Recv"),
                            (1 / 34.4, "faster", "MPI_Wait"))]
    fig = compare_page.chart_figure(rows, lambda r: r["q"], "MPI calls", "k")
    problems = bar_problems("compare chart", fig, "x")
    check(not problems, "; ".join(problems))


def main():
    tool = sys.argv[1]
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "papi_hl_output")
        region_file.write(src, region_doc())
        mpi = os.path.join(d, "papi_mpi_report.json")
        with open(mpi, "w") as f:
            json.dump(mpi_doc(), f)
        placeholders(tool, d, src, mpi)
        profile_only(tool, sys.argv[2], d)
        tall_bar(tool, d)
        icicle_labels(tool, src)
        region_series(tool, d)
        call_shares(tool, mpi)
        region_colours(time_units(tool, d))
    return verdict("check_report_page")


if __name__ == "__main__":
    sys.exit(main())
