#!/usr/bin/env python3
"""check_report_openmp_names.py PAPI_REPORT: OpenMP regions of one name told apart by
their site (issue 69 item 4), on hand-made tool files (schema/ompt.schema.json): two
regions of one long C++ signature forked from two inlined calls (sites "main
(solver.cpp:10)" and ":11"), side A walls 10 and 30 ms, side B 20 and 30 ms.
openmp_regions.csv and openmp_threads.csv carry the site; --compare has one row per
(name, site), "NAME [SITE]": the first 10 ms slower, the second the same (not one row
averaged); the figure has a panel of 2 threads per region, each title keeping the name's
"(solver.cpp:42)" whole and its site, the signature cut. Exit 0 pass, 1 fail."""
import csv
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import report_check  # noqa: E402 (every report this test writes is checked: schema/README.md)

report_check.guard()

from checks import check, verdict  # noqa: E402 (tests/common/checks.py)

MS = 1000000
FN = ("ns::Solver<double, std::vector<double, std::allocator<double> > >::scale(double, "
      "std::vector<double, std::allocator<double> > const&)")
NAME = FN + " (solver.cpp:42)"
SITES = ("main (solver.cpp:10)", "main (solver.cpp:11)")


def region(site, wall_ms, address):
    wall = wall_ms * MS
    threads = [{"thread": t, "implicit_tasks": 1, "work_ns": wall // (t + 1), "barrier_wait_ns": 0,
                "taskwait_wait_ns": 0, "wall_ns": wall, "join_wait_ns": wall - wall // (t + 1),
                "counted_tasks": 0, "events": {}} for t in range(2)]
    return {"name": NAME, "function": FN, "file": "solver.cpp", "line": 42, "module": "/bin/solver",
            "address": address, "site": site, "named_region": None, "mpi_region": None,
            "instances": 1, "outermost_instances": 1, "wall_ns": wall,
            "team_sizes": [{"size": 2, "instances": 1, "wall_ns": wall}], "other_team_size_instances": 0,
            "efficiency": {"load_balance": 0.75, "scheduling": 1.0, "parallel": 0.75},
            "lost_ns": wall // 2, "events": {}, "threads": threads}


def doc(walls):
    parallel = sum(walls) * MS
    return {"tool": "papi_ompt", "kind": "ompt", "pid": 4242, "runtime": "LLVM OMP version: 5.0",
            "omp_version": 201611, "unsupported_callbacks": [], "names": "libdw",
            "wall_ns": 100 * MS, "parallel_ns": parallel, "serial_ns": 100 * MS - parallel,
            "threads_seen": 2, "threads_ended": 2,
            "not_measured": {"region_instances_dropped": 0, "regions_max": 1024,
                             "implicit_tasks_too_deep": 0, "nesting_max": 8, "implicit_tasks_no_room": 0,
                             "events_of_threads_past_max": 0, "threads_max": 1024,
                             "instances_context_dropped": 0, "contexts_max": 256},
            "counters": {"source": "", "events": [], "threads_counted": 0, "threads_not_counted": 0,
                         "reason": ""},
            "regions": [region(s, w, "0x%x" % (0x401000 + 0x40 * i))
                        for i, (s, w) in enumerate(zip(SITES, walls))],
            "efficiency": {"serialization": parallel / (100 * MS), "load_balance": 0.75, "scheduling": 1.0,
                           "parallel": 0.75}}


def write(tmp, side, walls):
    d = os.path.join(tmp, side, "papi_ompt_output")
    os.makedirs(d)
    with open(os.path.join(d, "ompt_4242.json"), "w") as f:
        json.dump(doc(walls), f)
    return d


def rows(out, name):
    with open(os.path.join(out, name + ".csv"), newline="") as f:
        return list(csv.DictReader(f))


def main(tool):
    tmp = tempfile.mkdtemp(prefix="openmp_names_")
    a, b = write(tmp, "a", (10, 30)), write(tmp, "b", (20, 30))
    out = os.path.join(tmp, "report")
    p = subprocess.run([sys.executable, tool, a, "-o", out], capture_output=True, text=True, timeout=300)
    if check(p.returncode == 0, "papi_report A: exit %d %s" % (p.returncode, p.stderr)):
        regs = rows(out, "openmp_regions")
        check(sorted((r["region"], r.get("site")) for r in regs) == [(NAME, s) for s in SITES],
              "openmp_regions.csv: the two regions by name and site: %s"
              % [(r["region"][-16:], r.get("site")) for r in regs])
        th = rows(out, "openmp_threads")
        check(sorted((r.get("site"), r["thread"]) for r in th) ==
              [(s, t) for s in SITES for t in ("0", "1")], "openmp_threads.csv: 2 threads per site")
    out = os.path.join(tmp, "compare")
    p = subprocess.run([sys.executable, tool, "--compare", a, b, "-o", out], capture_output=True,
                       text=True, timeout=300)
    if check(p.returncode == 0, "papi_report --compare A B: exit %d %s" % (p.returncode, p.stderr)):
        got = {r["entity"]: r for r in rows(out, "compare_openmp")}
        want = ["%s [%s]" % (NAME, s) for s in SITES]
        check(sorted(got) == sorted(want + ["(processes)"]), "a row per (name, site): %s" % sorted(got))
        first, second = got.get(want[0]), got.get(want[1])
        check(first is not None and abs(float(first["wall_s_a"]) - 0.010) < 1e-12
              and abs(float(first["wall_s_delta"]) - 0.010) < 1e-12 and first["wall_verdict"] == "slower",
              "the first site's wall 10 -> 20 ms, slower: %s" % (first and first["wall_s_delta"]))
        check(second is not None and abs(float(second["wall_s_a"]) - 0.030) < 1e-12
              and float(second["wall_s_delta"]) == 0 and second["wall_verdict"] == "same",
              "the second site's wall 30 ms on both sides, the same")
    sys.path.insert(0, os.path.dirname(os.path.abspath(tool)))
    import papi_report
    from papi_report.tables import catalog
    catalog.load("figures")
    from papi_report.figures import openmp_figures
    fig = openmp_figures.openmp_regions(papi_report.tables(openmp=[a]))
    if check(not isinstance(fig, str), "the figure is drawn"):
        panels = fig.axes[0::2]
        titles = [x.get_title(loc="left") for x in panels]
        check(len(panels) == 2 and all(len(x.patches) == 2 * 4 for x in panels),
              "a panel of 2 threads x work and 3 waits per site: %s" % [len(x.patches) for x in panels])
        check(sorted(t.split(": ")[0] for t in titles) ==
              sorted(FN[:70 - len(" (solver.cpp:42)") - 3] + "... (solver.cpp:42) [%s]" % s for s in SITES),
              "titles keep (solver.cpp:42) and the site, the signature cut: %s" % titles)
    return verdict("papi_report_openmp_names", scratch=tmp)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
