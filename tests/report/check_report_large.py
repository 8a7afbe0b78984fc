#!/usr/bin/env python3
"""check_report_large.py TOOL: papi_report on large synthetic inputs, through its Python
module (as a user's script calls it) and its command line (run in this process).

  * an MPI report of 5,000 ranks (calls, counters, sizes, partners; rank 17's partner
    table overflowed): the report is written, every figure is a picture no larger than
    html.MAX_PIXELS a side, per-rank figures are heat strips, the matrix sums ranks
    into blocks and says so, the page and mpi_matrix.csv say partners were dropped;
  * the matrix of 100,000 ranks: at most MATRIX_SIDE^2 cells (peak memory bounded),
    its sums equal the bytes sent;
  * region files whose children sum to more than their parent (a counter read per
    thread that also counts other threads' work): every icicle box lies within its
    parent's extent, the picture keeps its size (the unbounded one was 230664 x 249
    pixels and lost the whole report), the Hatchet literal keeps region_count as it is
    and passes the literal reader's schema;
  * every figure of 100 and 5,000 ranks: legends beside the plots, rank axes on whole
    ranks (the blocked matrix at its blocks' first ranks), colour bars without offset;
  * a figure that raises: the page says which and why, the rest is written, exit 3;
  * the module's tables equal the inputs (values kept exactly);
    a fractional count is refused by the region schema, naming its JSON path.
Exit 0 pass, 1 fail."""
import base64
import importlib.util
import json
import os
import re
import struct
import sys
import tempfile
import time
import tracemalloc

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import report_check  # noqa: E402 (every report this test writes is checked: schema/README.md)

report_check.guard()

from checks import check, verdict  # noqa: E402 (tests/common/checks.py)


def png_size(uri):
    data = base64.b64decode(uri.split(",", 1)[1][:64] + "==")
    return struct.unpack(">II", data[16:24])


# ------------------------------------------------------------------ synthetic inputs

def mpi_report(nranks, dropped_rank=17, dropped=5):
    """Rank r computes 1 + r/nranks s, sends (r + 1) * 8 bytes to r+1 and r-1 (a ring)."""
    ranks = []
    for r in range(nranks):
        wall, mpi = 2.0 + r / nranks, 1.0
        right, left = (r + 1) % nranks, (r - 1) % nranks
        b = (r + 1) * 8
        row = {"rank": r, "finished": True, "threads": 1, "wall_s": wall, "mpi_s": mpi,
               "counters": {"perf::PAGE-FAULTS": 1000 + r % 97, "perf::TASK-CLOCK": 5e8 + r},
               "calls": {"MPI_Init": {"calls": 1, "time_s": 0.3, "bytes_sent": 0, "bytes_recv": 0},
                         "MPI_Isend": {"calls": 2, "time_s": 0.25, "bytes_sent": 2 * b, "bytes_recv": 0},
                         "MPI_Recv": {"calls": 2, "time_s": 0.5, "bytes_sent": 0, "bytes_recv": 0},
                         "MPI_Allreduce": {"calls": 1, "time_s": 0.25, "bytes_sent": 8, "bytes_recv": 8},
                         "MPI_Finalize": {"calls": 1, "time_s": 0.01, "bytes_sent": 0, "bytes_recv": 0}},
               "sizes": {"MPI_Isend": [{"bucket": b.bit_length(), "calls": 2, "time_s": 0.25}]},
               "partners": [{"rank": right, "sends": 1, "bytes_sent": b, "recvs": 1,
                             "bytes_recv": 8 * (right + 1), "time_s": 0.1},
                            {"rank": left, "sends": 1, "bytes_sent": b, "recvs": 1,
                             "bytes_recv": 8 * (left + 1), "time_s": 0.1}],
               "partners_dropped": dropped if r == dropped_rank else 0}
        ranks.append(row)
    return {"tool": "papi_mpi", "nranks": nranks, "finished_ranks": nranks,
            "events": ["perf::PAGE-FAULTS", "perf::TASK-CLOCK"], "ranks": ranks}


def region_file(rank, threads=2, fractional=False):
    """outer (10 faults) with children a (8) and b (7): the children exceed the parent;
    fill: 5 instances; every region read twice."""
    regs = {}
    rid = 0

    def add(name, parent, faults, reads=False):
        nonlocal rid
        v = {"name": name, "parent_region_id": parent, "region_count": 1,
             "cycles": 1000 * faults, "real_time_nsec": 100000 * faults,
             "perf::PAGE-FAULTS": faults}
        if fractional:
            v["perf::TASK-CLOCK"] = 10 ** 12 + faults + (0.25 if fractional == "bad" else 0)
        if reads:
            v["perf::PAGE-FAULTS"] = {"region_value": faults, "read_1": faults // 2,
                                      "read_2": faults - 1}
        regs[str(rid)] = v
        rid += 1
        return rid - 1

    outer = add("outer", -1, 10, reads=True)
    add("a", outer, 8)
    add("b", outer, 7)
    for _ in range(5):
        add("fill", -1, 3)
    events = {"perf::PAGE-FAULTS": {"component": "perf_event", "type": "delta"}}
    if fractional:
        events["perf::TASK-CLOCK"] = {"component": "perf_event", "type": "delta"}
    return {"papi_version": "7.0.0.0", "event_definitions": events, "rank": rank,
            "threads": {str(1000 + t): {"regions": regs} for t in range(threads)}}


# ------------------------------------------------------------------ Hatchet's literal schema

def literal_errors(nodes, where="root"):
    """What keeps Hatchet's literal reader (GraphFrame.from_literal) from loading nodes: a
    list of {"frame": {"name": str, "type": str}, "metrics": {str: number|null},
    "children": [...] (optional)}, the same metric names on every node (the reader takes
    the inclusive and exclusive metric lists from one root), "(inc)" marking inclusive."""
    errs, keys = [], set()

    def walk(ns, w):
        if not isinstance(ns, list):
            errs.append("%s: not a list" % w)
            return
        for i, n in enumerate(ns):
            p = "%s[%d]" % (w, i)
            if not isinstance(n, dict) or set(n) - {"frame", "metrics", "children"}:
                errs.append("%s: not a node dict: %s" % (p, list(n) if isinstance(n, dict) else n))
                continue
            f, m = n.get("frame"), n.get("metrics")
            if not (isinstance(f, dict) and isinstance(f.get("name"), str) and f["name"]
                    and isinstance(f.get("type"), str)):
                errs.append("%s: frame needs name and type strings: %s" % (p, f))
            if not isinstance(m, dict) or not m:
                errs.append("%s: metrics missing" % p)
                continue
            for k, v in m.items():
                if not isinstance(k, str) or k == "name" or not (
                        v is None or (isinstance(v, (int, float)) and not isinstance(v, bool))):
                    errs.append("%s: metric %r = %r" % (p, k, v))
            keys.add(tuple(sorted(m)))
            walk(n.get("children", []), p + ".children")

    walk(nodes, where)
    if len(keys) > 1:
        errs.append("nodes carry different metric names: %s" % sorted(keys))
    return errs


# ------------------------------------------------------------------ the checks

def check_large_mpi(pr, cli, out):
    import pandas as pd
    from papi_report.figures import figures
    from papi_report.page import html
    n = 5000
    rep = mpi_report(n)
    path = os.path.join(out, "papi_mpi_report.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(rep, f)
    t0 = time.time()
    rc = cli.main(["--mpi", path, "-o", os.path.join(out, "r5000"), "--title", "5000 ranks"])
    print("5,000 ranks: papi_report exit %d in %.1f s" % (rc, time.time() - t0))
    check(rc == 0, "5,000 ranks: exit %d" % rc)
    page = open(os.path.join(out, "r5000", "report.html"), encoding="utf-8").read()
    for fid in ("compute-vs-mpi", "mpi-time-by-call", "time-per-call-site", "message-sizes",
                "comm-matrix", "counters-per-rank"):
        m = re.search(r'<figure id="%s".*?</figure>' % fid, page, re.S)
        img = m and re.search(r'src="(data:image/png;base64,[^"]+)"', m.group(0))
        check(img, "5,000 ranks: figure %s has no picture: %s" % (fid, m and m.group(0)[:300]))
        if img:
            w, h = png_size(img.group(1))
            check(w <= html.MAX_PIXELS and h <= html.MAX_PIXELS and w < 2500,
                  "5,000 ranks: figure %s is %d x %d px" % (fid, w, h))
    m = re.search(r'<figure id="comm-matrix".*?</figure>', page, re.S).group(0)
    check("blocks of 10" in m and "INCOMPLETE: 5 partner records dropped" in m and "first rank 17" in m,
          "the matrix does not say it is in blocks and incomplete: %s" % re.sub(r'src="[^"]+"', "", m))
    mat = pd.read_csv(os.path.join(out, "r5000", "mpi_matrix.csv"))
    check(list(mat.columns) == ["src", "dst", "messages", "bytes", "time_s", "src_partners_dropped"],
          "mpi_matrix.csv columns %s" % list(mat.columns))
    bad = mat[(mat["src_partners_dropped"] != 0) != (mat["src"] == 17)]
    check(bad.empty and (mat[mat["src"] == 17]["src_partners_dropped"] == 5).all(),
          "src_partners_dropped wrong in %d rows" % len(bad))
    ranks = pd.read_csv(os.path.join(out, "r5000", "mpi_ranks.csv"))
    check(int(ranks.loc[ranks["rank"] == 17, "partners_dropped"].iloc[0]) == 5
          and int(ranks["partners_dropped"].sum()) == 5, "mpi_ranks.csv partners_dropped")
    check(int(mat["bytes"].sum()) == sum(2 * (r + 1) * 8 for r in range(n)), "matrix bytes")
    # Per-rank figures are heat strips: one image per strip, not one bar per rank.
    t = pr.tables(mpi=rep)
    fig = figures.counters_per_rank(t)
    check(fig.get_size_inches()[0] <= 12, "counters per rank %s in wide" % fig.get_size_inches()[0])
    labels = [tx.get_text() for a in fig.axes if a.get_legend() for tx in a.get_legend().get_texts()]
    check("min: rank 0 (1000)" in labels and "max: rank 96 (1096)" in labels,
          "counter strips do not mark the min and max ranks: %s" % labels)
    import matplotlib.pyplot as plt
    plt.close("all")


def check_figure_properties(pr):
    """Every figure of 100 and 5,000 ranks (heat strips, the matrix in blocks) as a reader
    needs it: legends beside the plots, rank axes on whole ranks (a blocked matrix ticked
    at its blocks' first ranks), colour bars without offset, bytes in one binary unit."""
    import matplotlib.pyplot as plt
    from figure_checks import figure_problems
    from papi_report.figures import figures
    from papi_report.page import html  # noqa: F401 (html loads every module's figures)
    for n in (100, 5000):
        t = pr.tables(mpi=mpi_report(n))
        for fid, _title, _sect, draw in figures.FIGURES:
            fig = draw(t)
            if isinstance(fig, str):
                continue
            for why in figure_problems(fid, fig):
                check(False, "%d ranks: %s" % (n, why))
            plt.close(fig)


def check_matrix_100k():
    import numpy as np
    import pandas as pd
    from papi_report.figures import figures
    from papi_report.page import html
    n = 100000
    src = np.repeat(np.arange(n), 2)
    dst = np.where(np.arange(2 * n) % 2 == 0, (src + 1) % n, (src - 1) % n)
    m = pd.DataFrame({"src": src, "dst": dst, "messages": 1, "bytes": (src + 1) * 8,
                      "time_s": 1e-6, "src_partners_dropped": 0})
    ranks = pd.DataFrame({"rank": np.arange(n), "partners_dropped": 0})
    tracemalloc.start()
    t0 = time.time()
    grid, block = figures.matrix_grid(m, n, "bytes")
    fig = figures.comm_matrix({"mpi_matrix": m, "mpi_ranks": ranks})
    uri = html.png_data_uri(fig)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print("100,000 ranks: matrix %d x %d cells (blocks of %d), %.1f s, peak %.1f MB traced"
          % (grid.shape[0], grid.shape[1], block, time.time() - t0, peak / 2 ** 20))
    want = -(-n // figures.MATRIX_SIDE)  # ranks per block
    check(grid.shape == (-(-n // want),) * 2 and block == want and grid.shape[0] <= figures.MATRIX_SIDE,
          "100k grid %s block %d" % (grid.shape, block))
    check(int(np.nansum(grid)) == int(m["bytes"].sum()), "100k grid sums %d, sent %d"
          % (np.nansum(grid), m["bytes"].sum()))
    check(peak < 200 * 2 ** 20, "100k matrix peak memory %.0f MB (a dense grid is 80 GB)" % (peak / 2 ** 20))
    check(max(png_size(uri)) < 2000, "100k matrix picture %s" % (png_size(uri),))


def check_regions(pr, cli, out):
    from papi_report.figures import figures
    rdir = os.path.join(out, "regions", "papi_hl_output")
    os.makedirs(rdir)
    nranks = 200
    for r in range(nranks):
        with open(os.path.join(rdir, "rank_%06d.json" % r), "w", encoding="utf-8") as f:
            json.dump(region_file(r, fractional=(r == 0)), f)
    files = pr.load_regions(rdir)
    t = pr.tables(regions=files)
    tree = t["region_tree"].set_index("path")
    per = 2 * nranks  # threads x ranks
    check(int(tree.loc["outer", "perf::PAGE-FAULTS"]) == 10 * per
          and int(tree.loc["outer/a", "perf::PAGE-FAULTS"]) == 8 * per
          and int(tree.loc["fill", "region_count"]) == 5 * per, "region tree totals %s" % tree.to_dict())
    inst = t["region_instances"]
    frac = inst[(inst["rank"] == 0) & (inst["name"] == "outer")]["perf::TASK-CLOCK"]
    check(len(frac) == 2 and all(int(v) == 10 ** 12 + 10 for v in frac), "value changed: %s" % list(frac))
    bad = os.path.join(out, "bad_regions")
    os.makedirs(bad)
    report_check.broken(os.path.join(bad, "rank_000000.json"))  # a fractional count on purpose
    with open(os.path.join(bad, "rank_000000.json"), "w", encoding="utf-8") as f:
        json.dump(region_file(0, fractional="bad"), f)
    try:
        pr.load_regions(bad)
        check(False, "a fractional count was accepted")
    except pr.MalformedInput as e:
        check("perf::TASK-CLOCK" in str(e) and "integer" in str(e), "fractional count refused: %s" % e)
    # Every box within its parent's extent; children exceeding their parent are scaled.
    for metric in ("perf::PAGE-FAULTS", "real_time_nsec"):
        boxes = figures.icicle_boxes(t["region_tree"], metric)
        where = {p: (x, w) for p, d, x, w, v, s in boxes}
        for p, d, x, w, v, s in boxes:
            check(0 <= x and x + w <= 1 + 1e-9, "%s box %s at %s..%s" % (metric, p, x, x + w))
            if "/" in p:
                px, pw = where[p.rsplit("/", 1)[0]]
                check(px - 1e-9 <= x and x + w <= px + pw + 1e-9,
                      "%s: %s (%g..%g) outside its parent (%g..%g)" % (metric, p, x, x + w, px, px + pw))
                check(s, "%s: %s not marked scaled" % (metric, p))
    fig = figures.region_tree(t)
    from papi_report.page import html
    w, h = png_size(html.png_data_uri(fig))
    check(w < 2000 and h < 2000, "region tree picture %d x %d px" % (w, h))
    # The Hatchet literal: the reader's schema, region_count as it is.
    lit = pr.region_tree_literal(files)
    errs = literal_errors(lit)
    check(not errs, "Hatchet literal: %s" % errs[:5])
    roots = {n["frame"]["name"]: n for n in lit}
    om = roots["outer"]["metrics"]
    check(om.get("region_count") == per and "region_count (inc)" not in om,
          "literal outer region_count %s" % om)
    check(om["perf::PAGE-FAULTS (inc)"] == 10 * per and om["perf::PAGE-FAULTS"] == (10 - 15) * per,
          "literal outer faults %s" % om)
    kids = {c["frame"]["name"]: c["metrics"] for c in roots["outer"]["children"]}
    check(kids.get("a", {}).get("region_count") == per, "literal a region_count %s" % kids.get("a"))
    # As Hatchet's reader builds its frame: one row per node, (inc) columns inclusive.
    import pandas as pd
    rows = []

    def walk(ns):
        for n in ns:
            rows.append(dict({"name": n["frame"]["name"]}, **n["metrics"]))
            walk(n.get("children", []))
    walk(lit)
    df = pd.DataFrame(rows)
    check(len(df) == 4 and sorted(c for c in df.columns if "(inc)" in c) ==
          ["cycles (inc)", "perf::PAGE-FAULTS (inc)", "perf::TASK-CLOCK (inc)", "real_time_nsec (inc)"],
          "literal as a frame: %s" % df.columns.tolist())
    # The whole page from the command line: region x rank past 64 ranks, capped series.
    rc = cli.main(["--regions", rdir, "-o", os.path.join(out, "rregions")])
    check(rc == 0, "regions: exit %d" % rc)
    page = open(os.path.join(out, "rregions", "report.html"), encoding="utf-8").read()
    for fid in ("region-tree", "region-by-rank", "region-by-thread", "region-reads"):
        m = re.search(r'<figure id="%s".*?</figure>' % fid, page, re.S)
        img = m and re.search(r'src="(data:image/png;base64,[^"]+)"', m.group(0))
        check(img and max(png_size(img.group(1))) < 3000, "regions: figure %s: %s" %
              (fid, png_size(img.group(1)) if img else m and m.group(0)[:200]))
    import matplotlib.pyplot as plt
    plt.close("all")


def check_failing_figure(pr, cli, out):
    from papi_report.figures import figures
    from papi_report.page import html  # noqa: F401 (html loads every module's figures)
    path = os.path.join(out, "small.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(mpi_report(4), f)

    def broken(t):
        raise ValueError("Image size of 230664x249 pixels is too large")
    saved = list(figures.FIGURES)
    figures.FIGURES.insert(1, ("broken", "A figure that fails", "MPI", broken))
    try:
        rc = cli.main(["--mpi", path, "-o", os.path.join(out, "rfail")])
    finally:
        figures.FIGURES[:] = saved
    check(rc == 3, "a failing figure: exit %d, want 3" % rc)
    page = open(os.path.join(out, "rfail", "report.html"), encoding="utf-8").read()
    m = re.search(r'<figure id="broken".*?</figure>', page, re.S)
    check(m and 'data-failed="ValueError: Image size of 230664x249 pixels is too large"' in m.group(0),
          "the page does not say which figure failed and why: %s" % (m and m.group(0)))
    check(page.count("<img ") == 6 and os.path.isfile(os.path.join(out, "rfail", "mpi_matrix.csv")),
          "the other figures or tables were lost (%d images)" % page.count("<img "))


def main():
    tool = os.path.abspath(sys.argv[1])
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    sys.path.insert(0, os.path.dirname(tool))
    import papi_report as pr
    spec = importlib.util.spec_from_file_location("papi_report_cli", tool)
    cli = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(cli)
    out = tempfile.mkdtemp(prefix="report_large_")
    t0 = time.time()
    check_large_mpi(pr, cli, out)
    check_figure_properties(pr)
    check_matrix_100k()
    check_regions(pr, cli, out)
    check_failing_figure(pr, cli, out)
    print("check_report_large: %.1f s" % (time.time() - t0))
    return verdict("check_report_large", scratch=out)


if __name__ == "__main__":
    sys.exit(main())
