#!/usr/bin/env python3
"""check_report_pcontrol.py --mpirun M --program P --tool T OUT

Runs report_pcontrol (linked to one MPI's wrapper library) on 4 ranks: MPI_Pcontrol
regions with known MPI calls per rank (report_pcontrol.c says which). Checks
  * the report's regions: entries, mpi_calls and the calls per MPI call of every rank as
    the program made them (a paused call counted nowhere, MPI_Pcontrol not a call of the
    region, at most 16 calls listed and the rest in calls_unlisted), mpi_s within the
    wall time and, in a region whose calls are all listed, equal to their times;
  * papi_report's pandas tables (mpi_regions, mpi_region_calls, mpi_region_summary,
    mpi_region_call_summary) against that JSON: sums, per-rank min/mean/max and the
    ranks holding them;
  * the same numbers in the page's two region tables and in the text report
    (papi_report --text, report.txt);
  * a report of an older wrapper library (no start_utc, command, host, nor MPI calls in
    its regions): papi_report still writes it, the header says "(not recorded)", the
    region table keeps its entries and wall time with the MPI columns empty.
Exit 0 pass, 1 fail, 77 skipped."""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report_html import read_page  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import report_check  # noqa: E402 (every report this test writes is checked: schema/README.md)
from report_job_args import job_args, plotting_missing  # noqa: E402

report_check.guard()

from checks import check, verdict  # noqa: E402 (tests/common/checks.py)
NP = 4
LISTED = 16  # calls a region lists (PMPI_REGION_CALLS)
MANY = {"MPI_Comm_rank": 1, "MPI_Comm_size": 1, "MPI_Comm_group": 1, "MPI_Group_size": 1,
        "MPI_Group_rank": 1, "MPI_Group_compare": 1, "MPI_Group_incl": 1, "MPI_Group_union": 1,
        "MPI_Group_intersection": 1, "MPI_Group_difference": 1, "MPI_Group_translate_ranks": 1,
        "MPI_Group_free": 5, "MPI_Comm_compare": 1, "MPI_Comm_test_inter": 1,
        "MPI_Error_class": 1, "MPI_Dims_create": 1, "MPI_Topo_test": 1, "MPI_Comm_get_attr": 1}


def close(a, b, rel=1e-5, absolute=2e-9):
    return abs(float(a) - float(b)) <= absolute + rel * max(abs(float(a)), abs(float(b)))


def expected(r):
    """{region: (entries, {call: calls})} of rank r (report_pcontrol.c)."""
    phase1 = {"MPI_Sendrecv": 2 * (r + 1), "MPI_Barrier": 2, "MPI_Allreduce": 2}
    want = {"phase1": (2, phase1), "many": (1, dict(MANY))}
    everything = dict(phase1)
    everything.update(MANY)
    everything["MPI_Gather"] = 1
    if r % 2 == 0 and r + 1 < NP:
        want["phase2"] = (1, {"MPI_Send": 3})
        everything["MPI_Send"] = 3
    elif r % 2 == 1:
        everything["MPI_Recv"] = 3
    want["all"] = (1, everything)
    return want


def run(cmd, env=None):
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)
    if p.returncode != 0:
        sys.stdout.write(p.stdout[-3000:])
        sys.stderr.write(p.stderr[-3000:])
    check(p.returncode == 0, "%s exited %d" % (" ".join(cmd[:3]), p.returncode))
    return p


def check_json(ranks):
    for k, row in ranks.items():
        regs = row.get("regions", {})
        want = expected(k)
        check(sorted(regs) == sorted(want), "rank %d regions %s, want %s" % (k, sorted(regs), sorted(want)))
        # The MPI_Barrier made while recording was paused is counted nowhere.
        check(row["calls"].get("MPI_Barrier", {}).get("calls") == 3,
              "rank %d MPI_Barrier %s, want 3 (one before the regions, 2 in phase1; the "
              "paused one not counted)" % (k, row["calls"].get("MPI_Barrier")))
        for name, (entries, calls) in want.items():
            g = regs.get(name)
            if g is None:
                continue
            listed = {c: v["calls"] for c, v in g.get("calls", {}).items()}
            w = "rank %d region %s" % (k, name)
            check(g["entries"] == entries, "%s entries %s, want %d" % (w, g["entries"], entries))
            check(g.get("mpi_calls") == sum(calls.values()),
                  "%s mpi_calls %s, the program made %d" % (w, g.get("mpi_calls"), sum(calls.values())))
            check("MPI_Pcontrol" not in listed, "%s lists MPI_Pcontrol" % w)
            check(len(listed) <= LISTED and all(listed[c] == calls.get(c) for c in listed),
                  "%s calls %s, the program made %s" % (w, listed, calls))
            check(sum(listed.values()) + g.get("calls_unlisted", -1) == sum(calls.values()),
                  "%s: %d listed + %s unlisted calls, the program made %d"
                  % (w, sum(listed.values()), g.get("calls_unlisted"), sum(calls.values())))
            if len(calls) <= LISTED:
                check(set(listed) == set(calls) and g.get("calls_unlisted") == 0,
                      "%s lists %s, want every call of %s" % (w, sorted(listed), sorted(calls)))
            else:
                check(len(listed) == LISTED, "%s lists %d calls of %d, want %d"
                      % (w, len(listed), len(calls), LISTED))
            check(0 <= g["mpi_s"] <= g["wall_s"] + 1e-6, "%s mpi_s %s, wall_s %s" % (w, g["mpi_s"], g["wall_s"]))
            for c, v in g.get("calls", {}).items():
                check(v["time_s"] <= row["calls"][c]["time_s"] + 1e-6,
                      "%s %s time %s, more than the rank's %s" % (w, c, v["time_s"], row["calls"][c]["time_s"]))
            if not g.get("calls_unlisted"):
                t = sum(v["time_s"] for v in g["calls"].values())
                check(abs(g["mpi_s"] - t) <= 2e-6 + 1e-6 * len(listed),
                      "%s mpi_s %.9f, its calls' times add up to %.9f" % (w, g["mpi_s"], t))
        if "phase1" in regs and "all" in regs:  # nested: the outer region holds the inner's calls
            inner, outer = regs["phase1"]["calls"], regs["all"]["calls"]
            check(all(outer.get(c, {}).get("calls", 0) >= v["calls"] for c, v in inner.items()
                      if c in outer), "rank %d: all's calls %s, phase1's %s" % (k, outer, inner))


def spread(per):
    """(min, ranks holding it, mean, max, ranks holding it) of {rank: value}."""
    lo, hi = min(per.values()), max(per.values())
    return (lo, {k for k, v in per.items() if v == lo}, sum(per.values()) / len(per), hi,
            {k for k, v in per.items() if v == hi})


def region_facts(ranks):
    """Per region, from the JSON: {rank: region's object} of the ranks that entered it."""
    out = {}
    for k, row in ranks.items():
        for name, g in row.get("regions", {}).items():
            out.setdefault(name, {})[k] = g
    return out


def check_pandas(tool, work, ranks):
    sys.path.insert(0, os.path.dirname(os.path.realpath(tool)))
    import papi_report
    from papi_report.tables.tables import UNLISTED
    t = papi_report.tables(mpi=work)
    facts = region_facts(ranks)
    # A row per rank and region, equal to the JSON.
    reg = t["mpi_regions"]
    got = {(int(r.rank), r.region): (int(r.entries), int(r.mpi_calls), int(r.calls_unlisted))
           for r in reg.itertuples()}
    want = {(k, n): (g["entries"], g["mpi_calls"], g["calls_unlisted"])
            for n, per in facts.items() for k, g in per.items()}
    check(got == want, "mpi_regions %s, JSON %s" % (sorted(got.items()), sorted(want.items())))
    for r in reg.itertuples():
        g = ranks[int(r.rank)]["regions"][r.region]
        check(close(r.wall_s, g["wall_s"]) and close(r.mpi_s, g["mpi_s"]),
              "mpi_regions rank %d %s times %s/%s, JSON %s/%s" % (r.rank, r.region, r.wall_s, r.mpi_s,
                                                                   g["wall_s"], g["mpi_s"]))
    calls = {(int(r.rank), r.region, r.call): int(r.calls) for r in t["mpi_region_calls"].itertuples()}
    want = {(k, n, c): v["calls"] for n, per in facts.items() for k, g in per.items()
            for c, v in g["calls"].items()}
    check(calls == want, "mpi_region_calls: %d rows, JSON %d (differences %s)"
          % (len(calls), len(want), sorted(set(calls.items()) ^ set(want.items()))[:6]))
    # The summary: per region over the ranks that entered it.
    summ = {r["region"]: r for r in t["mpi_region_summary"].to_dict("records")}
    check(set(summ) == set(facts), "mpi_region_summary regions %s, JSON %s" % (sorted(summ), sorted(facts)))
    for name, per in facts.items():
        s = summ.get(name)
        if s is None:
            continue
        w = "mpi_region_summary %s" % name
        check(s["ranks"] == len(per) and s["entries"] == sum(g["entries"] for g in per.values())
              and s["mpi_calls"] == sum(g["mpi_calls"] for g in per.values()),
              "%s ranks/entries/calls %s/%s/%s" % (w, s["ranks"], s["entries"], s["mpi_calls"]))
        for col, key, tag in (("wall_s", "wall_s", ""), ("mpi_s", "mpi_s", "mpi_"),
                              (None, "mpi_calls", "calls_")):
            lo, lor, mean, hi, hir = spread({k: g[key] for k, g in per.items()})
            sfx = "_s" if key != "mpi_calls" else ""
            if col:
                check(close(s[col], sum(g[key] for g in per.values())), "%s %s %s" % (w, col, s[col]))
            check(close(s[tag + "min" + sfx], lo) and s[tag + "min_rank"] in lor
                  and close(s[tag + "mean" + sfx], mean) and close(s[tag + "max" + sfx], hi)
                  and s[tag + "max_rank"] in hir,
                  "%s %s: min %s (%s) mean %s max %s (%s), JSON min %s %s mean %s max %s %s"
                  % (w, key, s[tag + "min" + sfx], s[tag + "min_rank"], s[tag + "mean" + sfx],
                     s[tag + "max" + sfx], s[tag + "max_rank"], lo, lor, mean, hi, hir))
    # Per region and call: sums and the per-rank spread (0 for a rank in the region
    # without the call); the calls not listed in one row.
    rcs = {(r["region"], r["call"]): r for r in t["mpi_region_call_summary"].to_dict("records")}
    for name, per in facts.items():
        names = {c for g in per.values() for c in g["calls"]}
        for c in names:
            row = rcs.get((name, c))
            counts = {k: g["calls"].get(c, {}).get("calls", 0) for k, g in per.items()}
            lo, _, mean, hi, _ = spread(counts)
            check(row is not None and row["calls"] == sum(counts.values())
                  and row["ranks"] == sum(1 for v in counts.values() if v)
                  and (row["calls_min"], row["calls_max"]) == (lo, hi) and close(row["calls_mean"], mean)
                  and close(row["time_s"], sum(g["calls"].get(c, {}).get("time_s", 0) for g in per.values())),
                  "mpi_region_call_summary %s %s: %s, JSON per rank %s" % (name, c, row, counts))
        unl = sum(g["calls_unlisted"] for g in per.values())
        row = rcs.get((name, UNLISTED))
        check((row is None) == (unl == 0) and (row is None or row["calls"] == unl),
              "mpi_region_call_summary %s: unlisted row %s, JSON unlisted %d" % (name, row, unl))
    return t


def cell_int(text):
    return int(text) if text.strip() else None


def check_page_and_text(page, text, ranks):
    facts = region_facts(ranks)
    _header, tables = read_page(page)
    rows = {r["region"]: r for r in tables.get("table-mpi_region_summary", [])}
    check(set(rows) == set(facts), "the page's region table has %s, JSON %s" % (sorted(rows), sorted(facts)))
    sec = text.split("MPI_Pcontrol regions", 1)[-1].split("\n\n", 1)[0]
    lines = {ln.split()[0]: ln for ln in sec.splitlines()[3:] if ln.strip()}
    for name, per in facts.items():
        r = rows.get(name, {})
        calls = {k: g["mpi_calls"] for k, g in per.items()}
        lo, lor, mean, hi, hir = spread(calls)
        mins = ["%d (%d)" % (lo, k) for k in lor]
        maxs = ["%d (%d)" % (hi, k) for k in hir]
        check(cell_int(r.get("ranks", "")) == len(per)
              and cell_int(r.get("entries", "")) == sum(g["entries"] for g in per.values())
              and cell_int(r.get("MPI calls", "")) == sum(calls.values())
              and r.get("calls min (rank)") in mins and r.get("calls max (rank)") in maxs
              and close(r.get("calls mean", "nan"), mean, 1e-3)
              and close(r.get("MPI s", "nan"), sum(g["mpi_s"] for g in per.values()))
              and close(r.get("wall s", "nan"), sum(g["wall_s"] for g in per.values())),
              "the page's region %s: %s; JSON ranks %d, MPI calls %s, min %s max %s mean %s"
              % (name, r, len(per), calls, mins, maxs, mean))
        ln = lines.get(name, "")
        check(re.search(r"^\s*%s\s+%d\s+%d\s" % (re.escape(name), len(per),
                                                 sum(g["entries"] for g in per.values())), ln)
              and " %d " % sum(calls.values()) in ln
              and any(m in ln for m in mins) and any(m in ln for m in maxs),
              "the text report's region %s: %r; want MPI calls %d, min %s, max %s"
              % (name, ln, sum(calls.values()), mins, maxs))
    calls = {(r["region"], r["call"]): cell_int(r["calls"]) for r in tables.get("table-mpi_region_call_summary", [])}
    for name, per in facts.items():
        for c in {c for g in per.values() for c in g["calls"]}:
            want = sum(g["calls"].get(c, {}).get("calls", 0) for g in per.values())
            check(calls.get((name, c)) == want, "the page's region call table %s %s: %s, JSON %d"
                  % (name, c, calls.get((name, c)), want))
    check(re.search(r"^\s*phase1\s+MPI_Sendrecv\s+%d\s+%d\s" % (NP, sum(2 * (k + 1) for k in range(NP))),
                    text, re.M), "the text report has no phase1 MPI_Sendrecv row with %d calls"
          % sum(2 * (k + 1) for k in range(NP)))


def check_older(tool, out, rep):
    """A report as older wrapper libraries wrote it."""
    old = json.loads(json.dumps(rep))
    for k in ("start_utc", "command"):
        old.pop(k, None)
    for row in old["ranks"]:
        row.pop("host", None)
        for g in row.get("regions", {}).values():
            for k in ("mpi_s", "mpi_calls", "calls", "calls_unlisted"):
                g.pop(k, None)
    d = os.path.join(out, "older")
    os.makedirs(d)
    with open(os.path.join(d, "papi_mpi_report.json"), "w", encoding="utf-8") as f:
        json.dump(old, f)
    p = run([tool, d, "-o", os.path.join(d, "report"), "--text"])
    header, tables = read_page(read(os.path.join(d, "report", "report.html")))
    for field in ("command", "started", "hosts"):
        check(header.get(field) == "(not recorded)", "older report: the header's %s is %r"
              % (field, header.get(field)))
    check(header.get("ranks", "").startswith("%d " % NP), "older report: ranks %r" % header.get("ranks"))
    rows = {r["region"]: r for r in tables.get("table-mpi_region_summary", [])}
    facts = region_facts({r["rank"]: r for r in old["ranks"]})
    check(set(rows) == set(facts) and all(
        cell_int(rows[n]["entries"]) == sum(g["entries"] for g in per.values())
        and rows[n]["MPI s"] == "" and rows[n]["MPI calls"] == "" for n, per in facts.items()),
        "older report: the region table %s" % rows)
    check("table-mpi_region_call_summary" not in tables, "older report: a region call table without calls")
    check("phase1" in p.stdout and "(not recorded)" in p.stdout, "older report: the text %r" % p.stdout[:400])


def read(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError as e:
        check(False, "cannot read %s: %s" % (path, e.strerror))
        return ""


def section(fn, *args):
    """One group of checks; an exception fails it (as a check) and the others still run."""
    try:
        fn(*args)
    except Exception as e:  # noqa: BLE001
        import traceback
        traceback.print_exc()
        check(False, "%s stopped: %s: %s" % (fn.__name__, type(e).__name__, e))


def main():
    if plotting_missing():
        return 77
    a = job_args()
    work = os.path.join(a.out, "run")
    os.makedirs(work)
    env = dict(os.environ, PAPI_MPI_OUTPUT_DIR=work, PAPI_MPI_EVENTS="perf::PAGE-FAULTS")
    run([a.mpirun, "-np", str(NP), a.program, "5"], env=env)
    with open(os.path.join(work, "papi_mpi_report.json"), encoding="utf-8") as f:
        rep = json.load(f)
    ranks = {r["rank"]: r for r in rep["ranks"]}
    check(sorted(ranks) == list(range(NP)), "ranks %s" % sorted(ranks))
    check_json(ranks)
    out = os.path.join(a.out, "report")
    p = run([a.tool, work, "-o", out, "--text"])
    check(read(os.path.join(out, "report.txt")) == p.stdout and p.stdout,
          "report.txt is missing or not what --text printed")
    page = read(os.path.join(out, "report.html"))
    section(check_pandas, a.tool, work, ranks)
    section(check_page_and_text, page, p.stdout, ranks)
    section(check_older, a.tool, a.out, rep)
    return verdict("check_report_pcontrol")


if __name__ == "__main__":
    sys.exit(main())
