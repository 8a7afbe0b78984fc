#!/usr/bin/env python3
"""check_papi_report.py --mpirun M --program P --regions-program R --tool T OUT

Runs report_traffic (linked to one MPI's wrapper library) on 4 ranks and report_regions
(region files, page counts given on its command line), runs papi_report on both, and
checks that its tables equal what the programs did and the JSON they came from: compute
time per rank (wall - MPI) as the rows say and increasing with rank (rank r computes
r + 1 units), the per-call sums over ranks, the rank x rank matrix equal to the bytes
and messages the program sent to each partner (on MPI_COMM_WORLD, on a communicator
with its ranks reversed through persistent requests started 3 times, on a Cartesian
one, on a duplicate, on communicators freed and made again), the message-size buckets;
the wrapper's banner against the same JSON (compute time min/mean/max with ranks, per
call the mean, %MPI, %wall and COV, Init/Finalize apart); the region tree's inclusive
totals, the PAPI_hl_read series and the instances against the program's page counts;
the Hatchet literal export; the HTML names every figure.
The output directory OUT is kept for the browser check. Exit 0 pass, 1 fail, 77 skipped."""
import csv
import json
import math
import os
import re
import shlex
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from figure_checks import bytes_colorbar_problem, figure_problems  # noqa: E402
from report_html import read_page  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import report_check  # noqa: E402 (every report this test writes is checked: schema/README.md)
from report_job_args import job_args, plotting_missing  # noqa: E402

report_check.guard()

from checks import check, verdict  # noqa: E402 (tests/common/checks.py)
FIGURES = ["compute-vs-mpi", "mpi-time-by-call", "time-per-call-site", "message-sizes",
           "comm-matrix", "counters-per-rank", "region-tree", "region-by-rank",
           "region-by-thread", "region-reads"]
NP = 4
REPS = 3  # report_traffic.c: starts of its persistent requests
# report_regions A B C D N E: outer A pages, inner B, read, C more; fill N x D; work E.
PAGES = {"A": 12, "B": 21, "C": 30, "D": 17, "N": 5, "E": 40}
APART = ("MPI_Init", "MPI_Init_thread", "MPI_Finalize")


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
    env = dict(os.environ, PAPI_MPI_OUTPUT_DIR=work, PAPI_MPI_EVENTS="perf::PAGE-FAULTS,perf::TASK-CLOCK",
               PAPI_MPI_TRACE="json")  # every figure drawn: the timeline's too
    p = run([a.mpirun, "-np", str(NP), a.program, "80"], env=env)
    with open(os.path.join(work, "papi_mpi_report.json"), encoding="utf-8") as f:
        rep = json.load(f)
    ranks = {r["rank"]: r for r in rep["ranks"]}
    check(sorted(ranks) == list(range(NP)), "ranks %s" % sorted(ranks))
    return rep, ranks, p.stdout


def expected_traffic():
    """{(src, dst): [bytes, messages]} that report_traffic.c sends (world ranks)."""
    want = {}

    def add(s, d, b, n=1):
        w = want.setdefault((s, d % NP), [0, 0])
        w[0] += b
        w[1] += n
    for r in range(NP):
        for q in range(NP):
            if q != r:
                add(r, q, (r + 1) * (q + 1) * 100)          # 2. MPI_Isend on MPI_COMM_WORLD
        add(r, r - 1, REPS * (1000 + 10 * r), REPS)         # 3. persistent, reversed ranks
        add(r, r - (2 if NP >= 3 else 1), 50 * (r + 1))    # 4. Cartesian, shift 2
        add(r, r + 1, 7 * (r + 1))                          # 5. duplicate of WORLD
        add(r, r + 1, 11 * (r + 1))                         # 6. made, freed, ...
        add(r, r - 1, 22 * (r + 1))                         #    ... made reversed
    return want


def check_mpi_tables(out, ranks):
    # Compute time per rank: wall - MPI of each row, increasing with rank.
    mr = {int(r["rank"]): r for r in rows(os.path.join(out, "mpi_ranks.csv"))}
    for k, r in ranks.items():
        check(close(mr[k]["compute_s"], r["wall_s"] - r["mpi_s"]),
              "rank %d compute_s %s, JSON wall - MPI %s" % (k, mr[k]["compute_s"], r["wall_s"] - r["mpi_s"]))
        check(int(mr[k]["partners_dropped"]) == r["partners_dropped"] == 0,
              "rank %d partners_dropped %s / %s" % (k, mr[k]["partners_dropped"], r["partners_dropped"]))
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
        check(summary[c]["apart"] == str(c in APART), "%s apart=%s" % (c, summary[c]["apart"]))
    # The matrix: what the program sent to each partner, on every communicator.
    mat = {(int(r["src"]), int(r["dst"])): r for r in rows(os.path.join(out, "mpi_matrix.csv"))}
    want = expected_traffic()
    for s in range(NP):
        for d in range(NP):
            wb, wm = want.get((s, d), [0, 0])
            got = mat.get((s, d))
            gb, gm = (int(got["bytes"]), int(got["messages"])) if got else (0, 0)
            check((gb, gm) == (wb, wm), "matrix %d -> %d: %d bytes in %d messages, the program sent "
                  "%d in %d" % (s, d, gb, gm, wb, wm))
            check(not got or got["src_partners_dropped"] == "0", "matrix %d -> %d dropped %s" % (s, d, got))
        # The row equals the point-to-point bytes_sent of the calls, a persistent
        # request's bytes counted per start (its *_init call counts them once; the
        # program also frees a 1-byte MPI_Send_init unstarted).
        c = ranks[s]["calls"]
        p2p = sum(c.get(k, {}).get("bytes_sent", 0) for k in ("MPI_Isend", "MPI_Sendrecv"))
        p2p += REPS * (1000 + 10 * s)
        check(c.get("MPI_Send_init", {}).get("bytes_sent") == 1000 + 10 * s + 1,
              "rank %d MPI_Send_init bytes_sent %s" % (s, c.get("MPI_Send_init")))
        row = sum(int(r["bytes"]) for (x, _), r in mat.items() if x == s)
        check(row == p2p, "rank %d: matrix row %d bytes, point-to-point bytes_sent %d" % (s, row, p2p))
    # Call sites: one site per call in this program, so a site's spread across ranks is
    # the call's per-rank time.
    per_call_sites = {}
    for r in rows(os.path.join(out, "mpi_callsites.csv")):
        per_call_sites.setdefault(r["call"], []).append(r)
    for call, sites in per_call_sites.items():
        if len(sites) != 1:
            continue
        r = sites[0]
        per_rank = [ranks[k]["calls"].get(call, {}).get("time_s", 0) for k in range(NP)]
        check(close(r["rank_min_s"], min(per_rank), 1e-5) and close(r["rank_max_s"], max(per_rank), 1e-5)
              and per_rank[int(r["rank_max"])] == max(per_rank),
              "site %s: spread %s..%s (rank %s), rows %s" % (call, r["rank_min_s"], r["rank_max_s"],
                                                            r["rank_max"], per_rank))
    # Message sizes: every MPI_Isend in its power-of-two bucket.
    sizes = rows(os.path.join(out, "mpi_sizes.csv"))
    for s in range(NP):
        got = sorted((int(r["bucket"]), int(r["calls"])) for r in sizes
                     if int(r["rank"]) == s and r["call"] == "MPI_Isend")
        want_b = {}
        for b in [(s + 1) * (d + 1) * 100 for d in range(NP) if d != s] + [7 * (s + 1), 11 * (s + 1),
                                                                         22 * (s + 1)]:
            want_b[b.bit_length()] = want_b.get(b.bit_length(), 0) + 1
        check(got == sorted(want_b.items()), "rank %d Isend sizes %s, want %s" % (s, got, sorted(want_b.items())))


# ---------------------------------------------------------------- the banner

def num(x):
    return float(x)


def check_banner(text, ranks, top=None):
    """The banner rank 0 printed, against the ranks' rows of the JSON."""
    P = len(ranks)
    comp = {k: r["wall_s"] - r["mpi_s"] for k, r in ranks.items()}

    def stats(vals):  # min, rank, mean, max, rank, cov (population); ties: the lower rank
        lo = min(vals, key=lambda k: (vals[k], k))
        hi = min(vals, key=lambda k: (-vals[k], k))
        mean = sum(vals.values()) / P
        var = sum(v * v for v in vals.values()) / P - mean * mean
        return vals[lo], lo, mean, vals[hi], hi, (math.sqrt(var) / mean if mean > 0 and var > 0 else 0.0)

    m = re.search(r"compute time \(wall - MPI\) per rank: min ([\d.]+) s \(rank (\d+)\), mean ([\d.]+) s, "
                  r"max ([\d.]+) s \(rank (\d+)\), max/mean ([\d.]+), COV ([\d.]+)", text)
    check(m, "banner: no compute-time line:\n%s" % text[:1500])
    if m:
        lo, lor, mean, hi, hir, cov = stats(comp)
        got = m.groups()
        check(abs(num(got[0]) - lo) < 2e-6 and int(got[1]) == lor and abs(num(got[2]) - mean) < 2e-6
              and abs(num(got[3]) - hi) < 2e-6 and int(got[4]) == hir
              and abs(num(got[5]) - hi / mean) < 2e-3 and abs(num(got[6]) - cov) < 2e-3,
              "banner compute time %s, JSON min %.6f (%d) mean %.6f max %.6f (%d) cov %.3f"
              % (got, lo, lor, mean, hi, hir, cov))
    # Per call: calls, time, mean per call, %MPI, %wall, COV, max (rank); sorted by time.
    mpi, wall = sum(r["mpi_s"] for r in ranks.values()), sum(r["wall_s"] for r in ranks.values())
    calls = {}
    for k, r in ranks.items():
        for c, v in r["calls"].items():
            if v["calls"]:
                calls.setdefault(c, {})[k] = v
    head = text.find("call (all ranks)")
    check(head >= 0, "banner: no per-call table")
    lines = text[head:].splitlines()[1:]
    shown = []
    row = re.compile(r"^  (MPI_\w+)\s+(\d+)\s+([\d.]+)\s+([\d.e+-]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+"
                     r"([\d.]+) \((\d+)\)$")
    for line in lines:
        mm = row.match(line)
        if not mm:
            break
        shown.append(mm.groups())
    expect = sorted((c for c in calls if c not in APART),
                    key=lambda c: -sum(v["time_s"] for v in calls[c].values()))
    names, times = [g[0] for g in shown], [num(g[2]) for g in shown]
    total = {c: sum(v["time_s"] for v in calls[c].values()) for c in expect}
    check(shown and times == sorted(times, reverse=True) and set(names) <= set(expect)
          and all(c in names for c in expect if total[c] > times[-1] + 2e-6),
          "banner calls %s (times %s), JSON by time %s" % (names, times, expect))
    more = re.search(r"\.\.\. (\d+) more calls", text)
    check(len(shown) + (int(more.group(1)) if more else 0) == len(expect),
          "banner shows %d calls (+%s more), JSON has %d" % (len(shown), more and more.group(1), len(expect)))
    for g in shown:
        c = g[0]
        per = {k: calls[c].get(k, {}).get("time_s", 0.0) for k in ranks}
        n = sum(v["calls"] for v in calls[c].values())
        t = sum(per.values())
        lo, lor, mean, hi, hir, cov = stats(per)
        ok = (int(g[1]) == n and abs(num(g[2]) - t) < 2e-6 and abs(num(g[3]) - t / n) <= 0.006 * t / n + 1e-9
              and abs(num(g[4]) - 100 * t / mpi) < 0.06 and abs(num(g[5]) - 100 * t / wall) < 0.06
              and abs(num(g[6]) - cov) < 0.006 and abs(num(g[7]) - hi) < 2e-6
              and (int(g[8]) == hir or abs(per[int(g[8])] - hi) < 1e-9))
        check(ok, "banner %s: %s; JSON calls %d time %.6f mean %.3g %%MPI %.1f %%wall %.1f COV %.2f max %.6f (%d)"
              % (c, g[1:], n, t, t / n, 100 * t / mpi, 100 * t / wall, cov, hi, hir))
    # Init and Finalize apart: min, mean, max of their per-rank times with ranks.
    for c in ("MPI_Init", "MPI_Finalize"):
        mm = re.search(r"^  %s\s+\(apart from time in MPI\) min ([\d.]+) s \(rank (\d+)\), mean ([\d.]+) s, "
                       r"max ([\d.]+) s \(rank (\d+)\)$" % c, text, re.M)
        check(mm, "banner: %s not reported apart" % c)
        check(not any(g[0] == c for g in shown), "banner: %s among the calls in MPI" % c)
        if mm:
            per = {k: ranks[k]["calls"].get(c, {}).get("time_s", 0.0) for k in ranks}
            lo, lor, mean, hi, hir, _ = stats(per)
            got = mm.groups()
            check(abs(num(got[0]) - lo) < 2e-6 and abs(num(got[2]) - mean) < 2e-6
                  and abs(num(got[3]) - hi) < 2e-6
                  and (int(got[1]) == lor or abs(per[int(got[1])] - lo) < 1e-9)
                  and (int(got[4]) == hir or abs(per[int(got[4])] - hi) < 1e-9),
                  "banner %s apart %s, JSON min %.6f (%d) mean %.6f max %.6f (%d)" % (c, got, lo, lor, mean, hi, hir))


# ---------------------------------------------------------------- regions

def regions_part(a, work):
    # PAPI_INTERVAL: the region file also has a time series, for the series figures
    env = dict(os.environ, PAPI_OUTPUT_DIRECTORY=work, PAPI_EVENTS="perf::PAGE-FAULTS", PMI_RANK="2",
               PAPI_INTERVAL="0.01")
    for k in ("OMPI_COMM_WORLD_RANK", "PMIX_RANK", "SLURM_PROCID", "MPI_LOCALRANKID", "PAPI_REPORT"):
        env.pop(k, None)
    run([a.regions_program] + [str(PAGES[k]) for k in "ABCDNE"], env=env)
    src = os.path.join(work, "papi_hl_output")
    files = [os.path.join(src, f) for f in os.listdir(src)]
    check(len(files) == 1, "region files %s" % files)
    with open(files[0], encoding="utf-8") as f:
        return src, json.load(f)


def check_region_tables(out, data):
    P = PAGES
    F = "perf::PAGE-FAULTS"
    # What report_regions does, from its parameters: path -> (instances, page faults).
    want = {"outer": (1, P["A"] + P["B"] + P["C"]), "outer/inner": (1, P["B"]),
            "fill": (P["N"], P["N"] * P["D"]), "work": (1, P["E"])}
    tree = {r["path"]: r for r in rows(os.path.join(out, "region_tree.csv"))}
    for path, (n, faults) in want.items():
        got = tree.get(path)
        check(got and int(got["region_count"]) == n and int(got[F]) == faults,
              "region tree %s: %s, the program made %d instances of %d faults" %
              (path, got and (got["region_count"], got[F]), n, faults))
    inst = [r for r in rows(os.path.join(out, "region_instances.csv")) if r["name"] == "fill"]
    check(len(inst) == P["N"] and all(int(r[F]) == P["D"] for r in inst),
          "fill instances %s, want %d x %d" % ([r[F] for r in inst], P["N"], P["D"]))
    threads = {r["thread"] for r in rows(os.path.join(out, "region_totals.csv")) if r["name"] == "work"} - \
        {r["thread"] for r in rows(os.path.join(out, "region_totals.csv")) if r["name"] == "outer"}
    check(len(threads) == 1, "work is not in a thread of its own: %s" % threads)
    # The file's own per-name totals (region_totals) agree with the tree.
    for tid, regs in data["region_totals"].items():
        for name, t in regs.items():
            path = name if t["parent"] is None else "%s/%s" % (t["parent"], name)
            if path in want:
                check((t["region_count"], t[F]) == want[path], "region_totals %s: %s" % (path, t))
    with open(os.path.join(out, "regions_hatchet.json"), encoding="utf-8") as f:
        lit = json.load(f)
    from check_report_large import literal_errors  # Hatchet's literal reader's schema
    errs = literal_errors(lit)
    check(not errs, "regions_hatchet.json: %s" % errs[:5])
    why = report_check.violation("regions_hatchet", lit, "regions_hatchet.json")
    check(why is None, "regions_hatchet.json breaks regions_hatchet.schema.json: %s" % why)
    roots = {n["frame"]["name"]: n for n in lit}
    outer = roots.get("outer", {})
    check(any(c["frame"]["name"] == "inner" for c in outer.get("children", [])),
          "hatchet literal: no outer -> inner: %s" % list(roots))
    if outer:
        m = outer["metrics"]
        check(m.get(F + " (inc)") == want["outer"][1] and m.get(F) == P["A"] + P["C"]
              and m.get("region_count") == 1, "hatchet outer: %s" % m)
    reads = rows(os.path.join(out, "region_reads.csv"))
    got = [int(r["value"]) for r in reads if r["name"] == "outer" and r["metric"] == F]
    check(got == [P["A"] + P["B"]], "outer's PAPI_hl_read series %s, the program read after %d pages"
          % (got, P["A"] + P["B"]))


# report_traffic.c's MPI_Pcontrol regions: name -> (ranks that enter it, entries per rank).
PCONTROL = {"persistent": (list(range(NP)), 1), "start": (list(range(NP)), REPS),
            "odd_ranks": ([r for r in range(NP) if r % 2], 1)}


def check_run_tables(out, rep, ranks, page, banner):
    """The run header, the call-site and call x size tables, the Pcontrol regions: in the
    CSV tables and the pandas API, on the page, and (regions) in the banner."""
    run = rows(os.path.join(out, "mpi_run.csv"))
    check(len(run) == 1, "mpi_run.csv: %d rows" % len(run))
    if run:
        r = run[0]
        cmd = rep.get("command") or []
        check(cmd and os.path.basename(cmd[0]).startswith("report_traffic") and cmd[-1] == "80",
              "the report's command %s" % cmd)
        check(r["command"].split()[-1] == "80" and r["start_utc"] == rep.get("start_utc")
              and re.match(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$", r["start_utc"] or ""),
              "mpi_run command/start: %s" % r)
        hosts = {x["host"] for x in rep["ranks"]}
        check(int(r["nranks"]) == NP and int(r["hosts"]) == len(hosts) and hosts and "" not in hosts,
              "mpi_run ranks/hosts: %s (report hosts %s)" % (r, hosts))
        check(close(r["wall_s"], max(x["wall_s"] for x in rep["ranks"])), "mpi_run wall_s %s" % r["wall_s"])
    # A job without OpenMP: its report says no rank ran the OMPT tool, and papi_report shows
    # no hybrid line (the table's CSV has its header alone).
    omp = (rep.get("wait_states") or {}).get("openmp")
    if omp is not None:
        check(omp["ranks_measured"] == 0 and not rows(os.path.join(out, "openmp_hybrid.csv")),
              "no OpenMP in the job: no openmp_hybrid row (%s)" % omp)
        head = page.split('id="run-header"', 1)[-1].split("</table>", 1)[0]
        for field in ("command", "started", "ranks", "hosts", "wall"):
            check('data-field="%s"' % field in head, "the page's run header has no %s" % field)
        check(rep["start_utc"] in head and "report_traffic" in head, "the page's header: %s" % head[:300])
        # Each field of the header as the reader sees it, against the JSON.
        header, _ = read_page(page)
        names = list(dict.fromkeys(x["host"] for x in sorted(rep["ranks"], key=lambda x: x["rank"])))
        want_h = {"command": " ".join(shlex.quote(x) for x in cmd), "started": rep["start_utc"],
                  "ranks": "%d (%d finished)" % (rep["nranks"], sum(1 for x in rep["ranks"] if x["finished"])),
                  "hosts": "%d: %s" % (len(names), ", ".join(names))}
        for field, value in want_h.items():
            check(header.get(field) == value, "the page's header %s is %r, the JSON says %r"
                  % (field, header.get(field), value))
        m = re.match(r"([\d.e+-]+) s ", header.get("wall", ""))
        check(m and close(m.group(1), max(x["wall_s"] for x in rep["ranks"]), 1e-5),
              "the page's wall time %r, the JSON's longest rank %s" % (header.get("wall"),
                                                                    max(x["wall_s"] for x in rep["ranks"])))
    # Call x message size: the ranks' histograms summed.
    want = {}
    for x in rep["ranks"]:
        for call, buckets in x.get("sizes", {}).items():
            for b in buckets:
                k = (call, b["bucket"])
                want[k] = want.get(k, 0) + b["calls"]
    got = {(c["call"], int(c["bucket"])): int(c["calls"]) for c in rows(os.path.join(out, "mpi_call_sizes.csv"))}
    check(got == want and got, "mpi_call_sizes: %d cells, the ranks' histograms %d" % (len(got), len(want)))
    check('id="table-mpi_call_sizes"' in page, "the page has no call x size table")
    # The page's grid: a row per call, a column per size ("[8 B, 16 B)"), "calls (seconds)".
    _, tables = read_page(page)
    grid = {r["call \\ size"]: r for r in tables.get("table-mpi_call_sizes", [])}
    label = {int(c["bucket"]): c["size"] for c in rows(os.path.join(out, "mpi_call_sizes.csv"))}
    for (call, bucket), n in want.items():
        cell = grid.get(call, {}).get(label.get(bucket), "")
        check(cell.startswith("%d (" % n), "the page's call x size cell %s %s is %r, the ranks' "
              "histograms sum to %d calls" % (call, label.get(bucket), cell, n))
    check(sum(1 for r in grid.values() for k, v in r.items() if k != "call \\ size" and v) == len(want),
          "the page's call x size grid has cells the JSON has not")
    # Call sites: the report's, on the page.
    sites = rows(os.path.join(out, "mpi_callsites.csv"))
    top = rep["callsites"]["top"] if isinstance(rep.get("callsites"), dict) else rep.get("callsites", [])
    check(len(sites) == len(top) and sites, "mpi_callsites.csv %d rows, the report %d" % (len(sites), len(top)))
    check('id="table-mpi_callsites"' in page, "the page has no call-site table")
    # Every site of the report on the page (call, function, file:line, calls, time and
    # its spread over ranks, bytes), and the sites of each call add up to the call's
    # calls, time and bytes over the ranks (this report keeps every site).
    check(rep["callsites"]["sites"] == len(top) and rep["callsites"]["sites_dropped"] == 0,
          "the report keeps %d of %d sites" % (len(top), rep["callsites"]["sites"]))
    shown = {(r["call"], r["file"], int(r["line"])): r for r in tables.get("table-mpi_callsites", [])}
    for site in top:
        r = shown.get((site["call"], site["file"], site["line"]))
        check(r is not None and r["function"] == str(site["function"]) and int(r["calls"]) == site["calls"]
              and int(r["ranks"]) == site["ranks"] and close(r["time_s"], site["time_s"], 1e-5)
              and close(r["rank_min_s"], site["rank_min_s"], 1e-5) and int(r["rank_min"]) == site["rank_min"]
              and close(r["rank_max_s"], site["rank_max_s"], 1e-5) and int(r["rank_max"]) == site["rank_max"]
              and int(r["bytes_sent"]) == site["bytes_sent"] and int(r["bytes_recv"]) == site["bytes_recv"],
              "the page's call site %s %s:%s is %s, the report's %s" % (site["call"], site["file"], site["line"],
                                                                       r, site))
    for call in {x["call"] for x in top}:
        for col in ("calls", "time_s", "bytes_sent", "bytes_recv"):
            by_site = sum(x[col] for x in top if x["call"] == call)
            by_rank = sum(x["calls"].get(call, {}).get(col, 0) for x in rep["ranks"])
            check(close(by_site, by_rank, 1e-5), "%s %s: the sites add up to %s, the ranks to %s"
                  % (call, col, by_site, by_rank))
    # Pcontrol regions: every rank's, united.
    reg = {(int(x["rank"]), x["region"]): int(x["entries"]) for x in rows(os.path.join(out, "mpi_regions.csv"))}
    want_reg = {(k, name): n for name, (rk, n) in PCONTROL.items() for k in rk}
    check(reg == want_reg, "mpi_regions: %s, want %s" % (sorted(reg.items()), sorted(want_reg.items())))
    summ = {x["region"]: x for x in rows(os.path.join(out, "mpi_region_summary.csv"))}
    for name, (rk, n) in PCONTROL.items():
        s = summ.get(name)
        check(s is not None and int(s["ranks"]) == len(rk) and int(s["entries"]) == n * len(rk)
              and int(s["min_rank"]) in rk and int(s["max_rank"]) in rk,
              "mpi_region_summary %s: %s" % (name, s))
        check(re.search(r"^  %-24s ranks %d, entries %d, wall min " % (re.escape(name), len(rk), n * len(rk)),
                        banner, re.M), "the banner has no line for region %s" % name)
        check(">%s<" % name in page, "the page's region table has no %s" % name)


def check_colorbar_cases():
    """The rank x rank bytes colour bar on synthetic matrices: values close together
    (about 2.33e7 bytes each: matplotlib's default shows an offset "+2.33e7" that reads as
    a negative number of bytes), a wide range (bytes to GiB), a small one (bytes)."""
    import matplotlib.pyplot as plt
    import pandas as pd
    from papi_report.figures import figures
    cases = {"close": lambda i: 23300000 + 997 * i, "wide": lambda i: 1000 * 7 ** i,
             "small": lambda i: 10 + 70 * i}
    for name, value in cases.items():
        cells = [(s, d) for s in range(4) for d in range(4) if s != d]
        m = pd.DataFrame([{"src": s, "dst": d, "messages": 1, "bytes": value(i), "time_s": 0.001 * (i + 1),
                           "src_partners_dropped": 0} for i, (s, d) in enumerate(cells)])
        r = pd.DataFrame({"rank": range(4), "partners_dropped": [0] * 4})
        fig = figures.comm_matrix({"mpi_matrix": m, "mpi_ranks": r})
        fig.canvas.draw()
        bars = [a for a in fig.axes if a.get_label() == "<colorbar>" and a.get_ylabel() == "bytes sent"]
        check(len(bars) == 1, "synthetic %s matrix: %d bytes colour bars" % (name, len(bars)))
        for a in bars:
            why = bytes_colorbar_problem(a, round_ticks=name != "close")
            check(not why, "synthetic %s matrix (%d..%d bytes): the colour bar %s"
                  % (name, m["bytes"].min(), m["bytes"].max(), why))
        plt.close(fig)


def check_figures(out, tool):
    """Readable figures, inspected on the Figure objects the report draws: legends outside
    the axes, rank axes on whole numbers, colour bars without an offset."""
    sys.path.insert(0, os.path.dirname(os.path.realpath(tool)))
    for cand in (os.path.join(os.path.dirname(os.path.realpath(tool)), "..", "share", "papi", "python"),):
        if os.path.isdir(cand):
            sys.path.insert(0, cand)
    import papi_report
    from papi_report.figures import figures
    from papi_report.page import html  # noqa: F401 (html loads every module's figures)
    t = papi_report.tables(mpi=os.path.join(out, "..", "run"))
    for fid, _title, _sect, draw in figures.FIGURES:
        fig = draw(t)
        if isinstance(fig, str):
            continue
        for why in figure_problems(fid, fig):
            check(False, why)
        import matplotlib.pyplot as plt
        plt.close(fig)
    check_colorbar_cases()


def main():
    if plotting_missing():
        return 77
    a = job_args("--regions-program")
    work = os.path.join(a.out, "run")
    os.makedirs(work)
    rep, ranks, banner = mpi_part(a, work)
    check_banner(banner, ranks)
    src, data = regions_part(a, work)
    out = os.path.join(a.out, "report")
    run([a.tool, "--mpi", work, "--regions", src, "-o", out, "--title", "check_papi_report"])
    check_mpi_tables(out, ranks)
    check_region_tables(out, data)
    with open(os.path.join(out, "report.html"), encoding="utf-8") as f:
        page = f.read()
    for fid in FIGURES:
        check('id="%s"' % fid in page, "the HTML has no figure %s" % fid)
    # The roofline needs FLOP and bandwidth metrics, and the metric series metrics, which
    # this run does not ask for (check_report_metrics.py, check_report_series_metrics.py
    # draw them): no place held for them, the page's closing line lists them (issue 56).
    for fid in ("roofline", "series-metric-heat", "series-metric-regions"):
        check('id="%s"' % fid not in page, "%s (not asked for) holds a place on the page" % fid)
    more = re.findall(r'<p class="more-input"[^>]*>([^<]*)</p>', page)
    check(len(more) == 1 and "FLOPS_DP" in more[0] and "metrics over time" in more[0],
          "the closing line lists the roofline and the metric series: %s" % more)
    check("data-missing" not in page and "data-failed" not in page, "a figure was not drawn: %s" %
          [l for l in page.splitlines() if "data-missing" in l or "data-failed" in l][:3])
    check("<script" not in page and "http" not in page.split("</style>")[0],
          "the page is not self-contained")
    check_run_tables(out, rep, ranks, page, banner)
    check_figures(out, a.tool)
    # `papi_report DIR`: the run's directory alone, as a user types it.
    out2 = os.path.join(a.out, "report_dir")
    p = run([a.tool, work, "-o", out2, "--json"])
    try:
        said = json.loads(p.stdout)
    except ValueError:
        said = None
    why = report_check.violation("papi_report", said, "papi_report --json")
    check(said is not None and why is None, "papi_report --json breaks papi_report.schema.json: %s" % why)
    check(said is not None and said.get("failed") == {} and
          all(os.path.isfile(w) for w in said.get("written", [])) and
          os.path.join(out2, "regions_hatchet.json") in said.get("written", []),
          "papi_report --json does not list the files it wrote: %s" % p.stdout[-500:])
    check(os.path.isfile(os.path.join(out2, "report.html")) and
          os.path.isfile(os.path.join(out2, "mpi_ranks.csv")) and
          os.path.isfile(os.path.join(out2, "region_tree.csv")),
          "papi_report DIR did not read the directory's MPI report and region files")
    return verdict("check_papi_report")


if __name__ == "__main__":
    sys.exit(main())
