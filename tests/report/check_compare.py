#!/usr/bin/python3
"""check_compare.py --tool papi_report.py --regions report_regions: papi_report --compare.

1. Synthetic region runs with known ratios and spreads, verdicts exact: region "solve" on 4
   threads with times 90, 100, 110, 100 ms in A (cv 0.082) and 1.5 x in B: slower (1.5 is
   past max(10%, 2 x sqrt(2) x 0.082 = 23%)); "io" 1.05 x: same (within 10%); "noisy"
   1.3 x with a cv of 0.2 on each side: same (threshold 2 x 0.28 = 57%); an event only in
   A: "only in A", never 0; counts "higher"/"lower". Repeated runs (A1,A2,A3 vs B1,B2,B3):
   the noise is the spread of the runs' means. One run a side, a region's wall time
   moved 2.1 x by the load with its CPU time the same is "same" on its load-free ratio
   (exact), 4 x wall with 2 x CPU time slower (load-free 2.0); --fail-if reads that ratio.
2. Synthetic MPI reports: the job's wall time 2 x: slower; a counter the same.
3. A real pair: report_regions with the work region's pages doubled (2000 -> 4000), three
   runs a side taken in turn: that region's page faults exactly 2 x ("higher"), its CPU
   time and its verdict slower, every other region's page faults "same" (exact).
4. --fail-if: exit 4 when a ratio meets the condition, 0 when none does, 2 for a malformed
   one; the pandas API (papi_report.compare.compare) gives the same rows."""
import argparse
import csv
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import report_check  # noqa: E402 (every report this test writes is checked: schema/README.md)

report_check.guard()

from checks import check_said as check, verdict  # noqa: E402 (tests/common/checks.py)


def region_file(path, regions, events=("perf::PAGE-FAULTS",)):
    """regions: {name: [per-thread (real_time_ns, {event: count})]}"""
    threads = {}
    for name, per_thread in regions.items():
        for t, (ns, counts) in enumerate(per_thread):
            th = threads.setdefault(str(1000 + t), {"regions": {}})
            rid = str(len(th["regions"]))
            th["regions"][rid] = dict({"name": name, "parent_region_id": -1, "region_count": 1,
                                       "cycles": ns * 2, "real_time_nsec": ns}, **counts)
    doc = {"papi_version": "7.0.0.0", "event_definitions": {e: {"component": "perf_event", "type": "delta"}
                                                            for e in events},
           "rank": 0, "threads": threads}
    os.makedirs(path, exist_ok=True)
    with open(os.path.join(path, "rank_000000.json"), "w") as f:
        json.dump(doc, f)


def mpi_report(path, walls, faults):
    ranks = [{"rank": r, "finished": True, "threads": 1, "wall_s": w, "mpi_s": w / 4,
              "counters": {"perf::PAGE-FAULTS": faults}, "calls": {"MPI_Barrier": {"calls": 2, "time_s": w / 4}}}
             for r, w in enumerate(walls)]
    os.makedirs(path, exist_ok=True)
    with open(os.path.join(path, "papi_mpi_report.json"), "w") as f:
        json.dump({"tool": "papi_mpi", "nranks": len(walls), "events": ["perf::PAGE-FAULTS"], "ranks": ranks}, f)


def run(tool, *args):
    p = subprocess.run([sys.executable, tool, *args], capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


def rows(out_dir):
    with open(os.path.join(out_dir, "compare.csv")) as f:
        return {(r["scope"], r["entity"], r["quantity"]): r for r in csv.DictReader(f)}


def synthetic(a, tmp):
    """Sections 1, 2 and 4: synthetic runs, whose verdicts no load on the machine moves."""
    ms = 1000000
    # 1. Synthetic region runs.
    base = [90, 100, 110, 100]
    noisy_a, noisy_b = [80, 120, 80, 120], [104, 156, 104, 156]  # cv 0.23 each, ratio 1.3
    region_file(os.path.join(tmp, "A"), {
        "solve": [(t * ms, {"perf::PAGE-FAULTS": 1000, "perf::MINOR-FAULTS": 5}) for t in base],
        "io": [(100 * ms, {"perf::PAGE-FAULTS": 100, "perf::MINOR-FAULTS": 5})],
        "noisy": [(t * ms, {"perf::PAGE-FAULTS": 10, "perf::MINOR-FAULTS": 5}) for t in noisy_a]},
        events=("perf::PAGE-FAULTS", "perf::MINOR-FAULTS"))
    region_file(os.path.join(tmp, "B"), {
        "solve": [(int(t * 1.5) * ms, {"perf::PAGE-FAULTS": 2000}) for t in base],
        "io": [(105 * ms, {"perf::PAGE-FAULTS": 50})],
        "noisy": [(t * ms, {"perf::PAGE-FAULTS": 10}) for t in noisy_b]})
    rc, out, err = run(a.tool, "--compare", os.path.join(tmp, "A"), os.path.join(tmp, "B"),
                       "-o", os.path.join(tmp, "out1"))
    print(out, err)
    check(rc == 0, "synthetic compare exits 0 (%d)" % rc)
    r = rows(os.path.join(tmp, "out1"))
    want = {("solve", "real_time_nsec"): ("slower", 1.5), ("io", "real_time_nsec"): ("same", 1.05),
            ("noisy", "real_time_nsec"): ("same", 1.3), ("solve", "perf::PAGE-FAULTS"): ("higher", 2.0),
            ("io", "perf::PAGE-FAULTS"): ("lower", 0.5), ("noisy", "perf::PAGE-FAULTS"): ("same", 1.0)}
    for (reg, q), (said, ratio) in want.items():
        row = r.get(("region", reg, q))
        got = (row["verdict"], round(float(row["ratio"]), 6)) if row else None
        check(got == (said, ratio), "%s %s: %s, want %s x%g" % (reg, q, got, said, ratio))
    row = r.get(("region", "solve", "perf::MINOR-FAULTS"))
    check(row is not None and row["verdict"] == "only in A" and row["b"] == "" and row["ratio"] in ("", "nan"),
          "an event only in A is 'only in A' with no B value and no ratio (%s)" % (row and dict(row)))
    # compare.html: a ratio chart per region and per quantity, titled by its verdict.
    with open(os.path.join(tmp, "out1", "compare.html")) as f:
        charts = dict(((k, n), v) for k, n, v in re.findall(
            r'<figure class="ratio" data-kind="(\w+)" data-name="([^"]*)" data-verdict="([^"]*)"><img ', f.read()))
    want_charts = {("region", "solve"): "slower", ("region", "io"): "same", ("region", "noisy"): "same",
                   ("quantity", "real_time_nsec"): "slower", ("quantity", "perf::PAGE-FAULTS"): "higher",
                   ("quantity", "perf::MINOR-FAULTS"): "only in A"}
    check(all(charts.get(k) == v for k, v in want_charts.items()),
          "compare.html: a chart per region and quantity with its verdict (%s)" % sorted(charts.items()))
    noise = float(r[("region", "solve", "real_time_nsec")]["noise_a"])
    check(abs(noise - 0.0816) < 0.001, "solve's noise in A is the threads' cv 0.0816 (%g)" % noise)

    # The band is symmetric in ratio (1/(1+x) .. 1+x): a 29x drop against a noise of 147%
    # (band x = 2.93) is faster, as a 29x rise is slower; before, 1 - 2.54 < 0 made every
    # drop "same" once the noise passed 50%.
    spread = [100, 100, 100, 1200]  # mean 375 ms, cv 1.47 (the sample's)
    region_file(os.path.join(tmp, "DA"), {"send": [(t * ms, {}) for t in spread]})
    region_file(os.path.join(tmp, "DB"), {"send": [(12800000, {})] * 4})
    for name, sides, want in (("drop", ("DA", "DB"), "faster"), ("rise", ("DB", "DA"), "slower")):
        rc, out, err = run(a.tool, "--compare", os.path.join(tmp, sides[0]), os.path.join(tmp, sides[1]),
                           "-o", os.path.join(tmp, "out_" + name))
        row = rows(os.path.join(tmp, "out_" + name)).get(("region", "send", "real_time_nsec"), {})
        check(rc == 0 and row.get("verdict") == want and float(row.get("threshold", 0)) > 2.5,
              "a 29x %s with noise 147%%: %s (%s, band %s)" % (name, want, row.get("verdict"),
                                                                row.get("threshold")))
    sys.path.insert(0, os.path.dirname(os.path.abspath(a.tool)))
    from papi_report.page.compare import verdict as one_verdict
    check(one_verdict("real_time_nsec", 441.0, 12.8, 0.87, 0.0, 0.1)[2] == "faster" and
          one_verdict("real_time_nsec", 12.8, 441.0, 0.87, 0.0, 0.1)[2] == "slower" and
          one_verdict("x", 100.0, 1 / 1.3 * 100, 0.1, 0.0, 0.1)[2] == "lower" and
          one_verdict("x", 100.0, 1 / 1.2 * 100 + 1e-9, 0.1, 0.0, 0.1)[2] == "same",
          "verdict(): MPI_Send 441 ms -> 12.8 ms at noise 87% is faster; the band ends at 1/1.2")

    # Repeated runs: per-run means 100, 101, 99 (cv 0.01) vs 112, 111, 113: 1.12 x, past 10%.
    for side, means in (("A", (100, 101, 99)), ("B", (112, 111, 113))):
        for i, m in enumerate(means):
            region_file(os.path.join(tmp, "%s%d" % (side, i)), {"solve": [(m * ms, {"perf::PAGE-FAULTS": 7})]})
    sides = [",".join(os.path.join(tmp, "%s%d" % (s, i)) for i in range(3)) for s in "AB"]
    rc, out, err = run(a.tool, "--compare", sides[0], sides[1], "-o", os.path.join(tmp, "out2"))
    r = rows(os.path.join(tmp, "out2"))
    row = r[("region", "solve", "real_time_nsec")]
    check(rc == 0 and row["verdict"] == "slower" and row["runs_a"] == "3" and abs(float(row["noise_a"]) - 0.01) < 1e-6,
          "3 runs a side: 1.12 x with run noise 1%%: slower (%s, noise %s)" % (row["verdict"], row["noise_a"]))
    # The same ratio with noisy runs (means 80, 100, 120: cv 0.2) is the same.
    for i, m in enumerate((80, 100, 120)):
        region_file(os.path.join(tmp, "N%d" % i), {"solve": [(m * ms, {"perf::PAGE-FAULTS": 7})]})
    noisy = ",".join(os.path.join(tmp, "N%d" % i) for i in range(3))
    rc, out, err = run(a.tool, "--compare", noisy, sides[1], "-o", os.path.join(tmp, "out3"))
    row = rows(os.path.join(tmp, "out3"))[("region", "solve", "real_time_nsec")]
    check(row["verdict"] == "same", "1.12 x against runs of cv 0.2: same (%s)" % row["verdict"])

    # One run a side, a region's wall time judged on its load-free ratio (issue 47; the real
    # pair of check_compare_pair.py now runs twice a side): steady's wall time 2.1 x with
    # the same CPU time (A 95 ms of 100 on a CPU, B 96 of 210: off 5% and 54.3%) is the
    # load, load-free 2.1 x 0.457 / 0.95 = 1.011: same; work's 4 x wall with 2 x CPU time
    # is slower, load-free 2.0; --fail-if reads the load-free ratio.
    tc = "perf::TASK-CLOCK"
    region_file(os.path.join(tmp, "LA"), {"steady": [(100 * ms, {tc: 95 * ms})],
                                          "work": [(100 * ms, {tc: 95 * ms})]}, events=(tc,))
    region_file(os.path.join(tmp, "LB"), {"steady": [(210 * ms, {tc: 96 * ms})],
                                          "work": [(400 * ms, {tc: 190 * ms})]}, events=(tc,))
    for cond, want_rc in (("region:steady:real_time_nsec>1.5", 0), ("region:work:real_time_nsec>1.5", 4)):
        rc, out, err = run(a.tool, "--compare", os.path.join(tmp, "LA"), os.path.join(tmp, "LB"),
                           "-o", os.path.join(tmp, "out_load"), "--fail-if", cond)
        check(rc == want_rc, "one run a side: --fail-if %s on the load-free ratio: exit %d (%d: %s)" % (
            cond, want_rc, rc, err.strip()[-300:]))
    r = rows(os.path.join(tmp, "out_load"))
    for reg, ratio, load_free, off_b, said in (("steady", 2.1, 2.1 * (96 / 210) / 0.95, 1 - 96 / 210, "same"),
                                               ("work", 4.0, 2.0, 0.525, "slower")):
        row = r.get(("region", reg, "real_time_nsec"), {})
        got = tuple(float(row.get(k) or "nan") for k in ("ratio", "load_free_ratio", "offcpu_a", "offcpu_b"))
        check(row.get("verdict") == said and all(abs(g - w) < 1e-9 for g, w in zip(got, (ratio, load_free, 0.05, off_b))),
              "one run a side: %s's wall time %g x, off a CPU 5%%/%.1f%%, load-free %.3f: %s (%s, %s)" % (
                  reg, ratio, 100 * off_b, load_free, said, row.get("verdict"), got))

    # 2. MPI reports.
    mpi_report(os.path.join(tmp, "MA"), [1.0, 1.0], 500)
    mpi_report(os.path.join(tmp, "MB"), [2.0, 2.0], 500)
    rc, out, err = run(a.tool, "--compare", os.path.join(tmp, "MA"), os.path.join(tmp, "MB"),
                       "-o", os.path.join(tmp, "out4"), "--fail-if", "wall_s>1.5")
    r = rows(os.path.join(tmp, "out4"))
    check(r[("job", "", "wall_s")]["verdict"] == "slower" and float(r[("job", "", "wall_s")]["ratio"]) == 2.0,
          "MPI: the job's wall time 2 x is slower")
    check(r[("job", "", "perf::PAGE-FAULTS")]["verdict"] == "same", "MPI: equal counters are the same")
    check(r[("mpi call", "MPI_Barrier", "time_s")]["verdict"] == "slower", "MPI: a call's time 2 x is slower")
    check(rc == 4 and "wall_s>1.5" in err, "--fail-if wall_s>1.5 held: exit 4 and said (%d: %s)" % (rc, err.strip()))
    rc, out, err = run(a.tool, "--compare", os.path.join(tmp, "MA"), os.path.join(tmp, "MB"),
                       "-o", os.path.join(tmp, "out5"), "--fail-if", "wall_s>2.5")
    check(rc == 0, "--fail-if wall_s>2.5 did not hold: exit 0 (%d)" % rc)
    rc, out, err = run(a.tool, "--compare", os.path.join(tmp, "MA"), os.path.join(tmp, "MB"),
                       "-o", os.path.join(tmp, "out6"), "--fail-if", "wall_s>>x")
    check(rc == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err,
          "a malformed --fail-if: exit 2 and one line (%d: %s)" % (rc, err.strip()))
    rc, out, err = run(a.tool, "--compare", os.path.join(tmp, "MA"), os.path.join(tmp, "nothing_here"))
    check(rc == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1,
          "a side that is no run: exit 2, one line (%d: %s)" % (rc, err.strip()))

    # 4. The pandas API gives the same rows, by the name papi_report(1) gives it.
    sys.path.insert(0, os.path.dirname(os.path.abspath(a.tool)))
    import papi_report
    df = papi_report.compare.compare(os.path.join(tmp, "A"), os.path.join(tmp, "B"))
    got = df[(df.entity == "solve") & (df.quantity == "real_time_nsec")].iloc[0]
    check(got["verdict"] == "slower" and abs(got["ratio"] - 1.5) < 1e-9, "pandas API: solve slower, 1.5")


def real_pair(a, tmp):
    """Section 3: report_regions run here, three times a side."""
    # 3. A real pair: the work region's pages doubled, three runs a side.
    # Runs taken in turn (A B A B A B): a change of the machine's load between runs shows
    # in each side's spread (the noise), not as a difference between the sides.
    real = {"RA": [], "RB": []}
    for i in range(3):
        for side, pages in (("RA", 2000), ("RB", 4000)):
            d = os.path.join(tmp, "%s%d" % (side, i))
            os.makedirs(d)
            env = dict(os.environ, PAPI_EVENTS="perf::PAGE-FAULTS,perf::TASK-CLOCK", PAPI_OUTPUT_DIRECTORY=d)
            p = subprocess.run([a.regions, "100", "200", "300", "50", "3", str(pages)], env=env,
                               capture_output=True, text=True, timeout=120)
            check(p.returncode == 0, "report_regions %s %d ran" % (side, i))
            real[side].append(d)
    rc, out, err = run(a.tool, "--compare", ",".join(real["RA"]), ",".join(real["RB"]),
                       "-o", os.path.join(tmp, "out7"), "--fail-if", "region:work:perf::PAGE-FAULTS>1.5")
    print(out, err)
    r = rows(os.path.join(tmp, "out7"))
    work_pf = r.get(("region", "work", "perf::PAGE-FAULTS"))
    check(work_pf is not None and float(work_pf["ratio"]) == 2.0 and work_pf["verdict"] == "higher",
          "real pair: the work region's page faults exactly 2 x, higher (%s)" % (work_pf and dict(work_pf)))
    # Its time: the CPU clock, whose spread over the runs is the program's; the wall time's
    # spread is the machine's load (75% over 3 runs here beside other work: "same", rightly).
    work_t = r.get(("region", "work", "perf::TASK-CLOCK"))
    check(work_t is not None and work_t["verdict"] == "slower" and float(work_t["ratio"]) > 1.2,
          "real pair: the work region's CPU time is slower (B/A %s, %s)" % (
              work_t and work_t["ratio"], work_t and work_t["verdict"]))
    with open(os.path.join(tmp, "out7", "compare_regions.csv")) as f:
        verdicts = {row["region"]: row["verdict"] for row in csv.DictReader(f)}
    check(verdicts.get("work") == "slower", "real pair: the work region's verdict is slower (%s)" % verdicts)
    others = [k for k in r if k[0] == "region" and k[2] == "perf::PAGE-FAULTS" and k[1] != "work"]
    check(len(others) >= 3 and all(r[k]["verdict"] == "same" and float(r[k]["ratio"]) == 1.0 for k in others),
          "real pair: every other region's page faults are the same, exactly (%s)" % others)
    check(rc == 4, "real pair: --fail-if region:work:perf::PAGE-FAULTS>1.5 held: exit 4 (%d)" % rc)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--regions", required=True)
    # Two ctests: the real pair runs alone (RUN_SERIAL), the synthetic runs beside others.
    ap.add_argument("--part", choices=("synthetic", "real-pair"), help="one part only (default: both)")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="papi_compare.")
    if a.part != "real-pair":
        synthetic(a, tmp)
    if a.part != "synthetic":
        real_pair(a, tmp)
    return verdict("check_compare", scratch=tmp)


if __name__ == "__main__":
    sys.exit(main())
