#!/usr/bin/env python3
"""check_report_all_threads.py PAPI_REPORT [REPORT_REGIONS]: all-thread totals beside own counts (issue 46:
`papi_report --regions` showed the master thread's own count, 2, where the file holds the
all-thread total, 8197, and no table, CSV or figure had the latter).

A region file as the region API writes it: the master thread's "parallel" (own page
faults 2, all threads 8197) with "inner" nested (1 and 4000), and a second thread's
"work" (8000, no all-thread values: only the main thread's regions get them by default).
Checked: region_instances.csv, region_totals.csv and region_tree.csv have the column
"perf::PAGE-FAULTS (all threads)" beside the own one, exact, empty for "work"; the page's
and the text's region tree label them "(own)" and "(all threads)" with both values in one
row; the icicle has a panel of the all-thread totals (titled so, its boxes the values) and
says "own" on the own panel; the Hatchet literal carries both. A file whose all-thread
value is not a number: exit 2 naming the field. With REPORT_REGIONS (report_regions.c), a
file of the region API itself: region_tree.csv's all-thread column of each main-thread
region equals the sum of its instances' values in the file's all_threads, and the
second thread's "work" has none. Exit 0 pass, 1 fail."""
import csv
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import report_check  # noqa: E402 (every report this test writes is checked: schema/README.md)

report_check.guard()

EV = "perf::PAGE-FAULTS"
AT = EV + " (all threads)"
from checks import check, verdict  # noqa: E402 (tests/common/checks.py)
import region_file  # noqa: E402 (tests/common/region_file.py)
from region_file import region  # noqa: E402


def region_doc():
    return region_file.region_doc(
        {"100": {"0": region("parallel", -1, 5000000, {EV: 2}), "1": region("inner", 0, 2000000, {EV: 1})},
         "101": {"0": region("work", -1, 4000000, {EV: 8000})}}, events=[EV],
        all_threads={"100": {"instances": {"0": {EV: 8197}, "1": {EV: 4000}},
                             "regions": {"parallel": {EV: 8197}, "inner": {EV: 4000}}}})


def rows(path):
    with open(path, encoding="utf-8") as f:
        return list(csv.DictReader(f))


def real_file(tool, d, program):
    """The region API's own file: the tree's all-thread totals are the file's."""
    work = os.path.join(d, "real")
    os.makedirs(work)
    env = dict(os.environ, PAPI_EVENTS=EV, PAPI_OUTPUT_DIRECTORY=work)
    for k in ("PAPI_HL_ALL_THREADS", "PAPI_REPORT", "OMPI_COMM_WORLD_RANK", "PMIX_RANK"):
        env.pop(k, None)
    p = subprocess.run([program, "3", "4", "5", "2", "3", "6"], env=env, capture_output=True, text=True,
                       timeout=300)
    check(p.returncode == 0, "report_regions: exit %d: %s" % (p.returncode, p.stderr[-500:]))
    src = os.path.join(work, "papi_hl_output")
    files = [os.path.join(src, f) for f in os.listdir(src)] if os.path.isdir(src) else []
    check(len(files) == 1, "report_regions wrote %s" % files)
    if len(files) != 1:
        return
    with open(files[0]) as f:
        data = json.load(f)
    want = {}
    for tid, t in data["threads"].items():
        alls = (data.get("all_threads") or {}).get(tid, {}).get("instances", {})
        for rid, r in t["regions"].items():
            if rid in alls:
                path = r["name"] if r["parent_region_id"] == -1 else \
                    "%s/%s" % (t["regions"][str(r["parent_region_id"])]["name"], r["name"])
                want[path] = want.get(path, 0) + alls[rid][EV]
    if not want:
        print("SKIPPED (part): the region API wrote no all-thread totals here (%s)"
              % data.get("note", ""))
        return
    out = os.path.join(work, "out")
    p = subprocess.run([sys.executable, tool, "--regions", src, "-o", out], capture_output=True, text=True,
                       timeout=600)
    check(p.returncode == 0, "report of report_regions' file: exit %d: %s" % (p.returncode, p.stderr[-1000:]))
    got = {r["path"]: r for r in rows(os.path.join(out, "region_tree.csv"))}
    for path, v in want.items():
        check(got.get(path, {}).get(AT) == str(v), "report_regions %s: all threads %r, the file's %d"
              % (path, got.get(path, {}).get(AT), v))
    check(got.get("work", {}).get(AT) == "" and got.get("work", {}).get(EV) not in ("", None),
          "report_regions work (second thread): own %r, all threads %r, want a count and none"
          % (got.get("work", {}).get(EV), got.get("work", {}).get(AT)))
    print("report_regions: all-thread totals %s" % want)


def main():
    tool = sys.argv[1]
    want = {"parallel": ("2", "8197"), "parallel/inner": ("1", "4000"), "work": ("8000", "")}
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "papi_hl_output")
        region_file.write(src, region_doc())
        out = os.path.join(d, "out")
        p = subprocess.run([sys.executable, tool, "--regions", src, "-o", out, "--text"],
                           capture_output=True, text=True, timeout=600)
        check(p.returncode == 0, "exit %d: %s" % (p.returncode, p.stderr[-1500:]))
        for table in ("region_instances", "region_totals", "region_tree"):
            try:
                got = {r["path"]: r for r in rows(os.path.join(out, table + ".csv"))}
            except (OSError, KeyError) as e:
                check(False, "%s.csv: %s" % (table, e))
                continue
            cols = list(next(iter(got.values())).keys()) if got else []
            check(AT in cols and cols.index(AT) == cols.index(EV) + 1,
                  "%s.csv: no %r column right after %r: %s" % (table, AT, EV, cols))
            for path, (own, alls) in want.items():
                r = got.get(path, {})
                check((r.get(EV), r.get(AT)) == (own, alls), "%s.csv %s: own %r, all threads %r; want %r, %r"
                      % (table, path, r.get(EV), r.get(AT), own, alls))
        # The text's region tree: own and all threads labelled, both in the row.
        text = p.stdout
        head = [ln for ln in text.splitlines() if "(own)" in ln and "(all threads)" in ln]
        check(len(head) == 1 and EV + " (own)" in head[0] and AT in head[0],
              "report text: no region tree header with %r (own) and %r: %s" % (EV, AT, head))
        line = [ln for ln in text.splitlines() if ln.split()[:1] == ["parallel"]]
        check(len(line) == 1 and re.search(r"\b2\s+8197\s*$", line[0]),
              "report text: the row of parallel does not end with own 2 and all threads 8197: %s" % line)
        # The page's table.
        with open(os.path.join(out, "report.html"), encoding="utf-8") as f:
            page = f.read()
        tbl = page.split('id="table-region_tree"', 1)[-1].split("</table>", 1)[0]
        heads = re.findall(r"<th>([^<]*)</th>", tbl)
        check(EV + " (own)" in heads and AT in heads, "page region tree header %s" % heads)
        cells = [re.findall(r"<td>([^<]*)</td>", tr) for tr in tbl.split("<tr>")[1:]]
        rowp = [c for c in cells if c and c[0] == "parallel"]
        if heads and rowp:
            k = heads.index(AT) if AT in heads else -1
            check(k >= 0 and rowp[0][k] == "8197" and rowp[0][heads.index(EV + " (own)")] == "2",
                  "page region tree row parallel: %s" % rowp[0])
        else:
            check(False, "page: no region tree row parallel")
        # The literal for Hatchet.
        with open(os.path.join(out, "regions_hatchet.json")) as f:
            lit = {n["frame"]["name"]: n["metrics"] for n in json.load(f)}
        m = lit.get("parallel", {})
        check(m.get(EV + " (inc)") == 2 and m.get(AT + " (inc)") == 8197 and m.get(AT) == 8197 - 4000,
              "regions_hatchet.json parallel: %s" % m)
        # The icicle, from the module as the page draws it.
        sys.path.insert(0, os.path.dirname(os.path.abspath(tool)))
        import papi_report
        from papi_report.figures import figures
        t = papi_report.tables(regions=src)
        fig = figures.region_tree(t)
        titles = [a.get_title() for a in fig.axes]
        own = [a for a in fig.axes if EV in a.get_title() and "own" in a.get_title()]
        alls = [a for a in fig.axes if EV in a.get_title() and "all threads" in a.get_title()]
        check(len(own) == 1 and len(alls) == 1, "icicle panels: one own and one all-thread panel "
              "of %s: %s" % (EV, titles))
        boxes = {p: v for p, _d, _x, _w, v, _s in figures.icicle_boxes(t["region_tree"], AT)} \
            if AT in t["region_tree"] else {}
        check(boxes == {"parallel": 8197.0, "parallel/inner": 4000.0},
              "icicle all-thread boxes %s" % boxes)
        boxes = {p: v for p, _d, _x, _w, v, _s in figures.icicle_boxes(t["region_tree"], EV)}
        check(boxes.get("parallel") == 2.0 and boxes.get("work") == 8000.0, "icicle own boxes %s" % boxes)
        # A value that is not a number: one line naming the field.
        bad = region_doc()
        bad["all_threads"]["100"]["instances"]["1"][EV] = "many"
        bsrc = os.path.join(d, "bad")
        path = region_file.write(bsrc, bad)
        report_check.broken(path)
        p = subprocess.run([sys.executable, tool, "--regions", bsrc, "-o", os.path.join(d, "bad_out")],
                           capture_output=True, text=True, timeout=600)
        field = '$.all_threads["100"].instances["1"]["%s"]: \'many\' is not of type \'integer\'' % EV
        check(p.returncode == 2 and path in p.stderr and field in p.stderr and "Traceback" not in p.stderr,
              "an all-thread value \"many\": exit %d, want 2 naming %s: %s" % (p.returncode, field, p.stderr))
        if len(sys.argv) > 2:
            real_file(tool, d, sys.argv[2])
    return verdict("check_report_all_threads")


if __name__ == "__main__":
    sys.exit(main())
