#!/usr/bin/env python3
"""POP computation scalability through papi_report --compare (issue 49 item 2, pop_compare.py)
on synthetic MPI reports with known useful times, instructions and cycles: the exact
computation, instruction, IPC and frequency scalability and global efficiency; perf's
names; a counter absent from one run or not read on one rank said, never 0; through the
command line (compare.txt, compare_pop_scalability.csv, compare.html).
Usage: check_pop_compare.py PYTHON_DIR (python/: papi_report.py and its package)"""
import csv
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import report_check  # noqa: E402 (every report this test writes is checked: schema/README.md)

report_check.guard()

from checks import check_said as check, verdict  # noqa: E402 (tests/common/checks.py)


def report(path, ranks, useful, mpi, ins, cyc, pe, names=("PAPI_TOT_INS", "PAPI_TOT_CYC")):
    """An MPI report: `ranks` ranks of `useful` s outside MPI and `mpi` s in it, ins and
    cyc per rank (None: not counted; a list: per rank, None there not read)."""
    rows = []
    for r in range(ranks):
        c = {}
        for name, v in zip(names, (ins, cyc)):
            if v is not None:
                c[name] = v[r] if isinstance(v, list) else v
        rows.append({"rank": r, "wall_s": useful + mpi, "mpi_s": mpi, "calls": {}, "counters": c})
    pop = {"ranks": ranks, "runtime_s": useful + mpi, "parallel_efficiency": pe, "load_balance": 1.0,
           "communication_efficiency": pe, "useful_mean_s": useful, "useful_max_s": useful}
    doc = {"tool": "papi_mpi", "nranks": ranks, "ranks": rows, "wait_states": {"on": True, "pop": pop}}
    os.makedirs(path, exist_ok=True)
    with open(os.path.join(path, "papi_mpi_report.json"), "w", encoding="utf-8") as f:
        json.dump(doc, f)
    return path


def exact(got, want, what):
    ok = got is not None and not (isinstance(got, float) and math.isnan(got)) and abs(got - want) <= 1e-12 * max(1, abs(want))
    return check(ok, "%s: %r, expected %r" % (what, got, want))


def main():
    sys.path.insert(0, sys.argv[1])
    from papi_report.page import compare
    tmp = tempfile.mkdtemp(prefix="papi_pop_compare_")
    try:
        # A: 2 ranks x 1 s useful, 1e9 instructions and 2e9 cycles each, parallel efficiency 0.8.
        # B: 4 ranks x 0.625 s useful, 0.625e9 instructions and 1e9 cycles each, 0.9.
        a = report(os.path.join(tmp, "a"), 2, 1.0, 0.25, 1000000000, 2000000000, 0.8)
        b = report(os.path.join(tmp, "b"), 4, 0.625, 0.25, 625000000, 1000000000, 0.9)
        df = compare.compare(a, b)
        pop = df.attrs["pop_scalability"]
        v = dict(zip(pop["factor"], pop["value"]))
        exact(v["computation scalability"], 2.0 / 2.5, "computation scalability = 2 s / 2.5 s")
        exact(v["instruction scalability"], 2e9 / 2.5e9, "instruction scalability")
        exact(v["IPC scalability"], (2.5e9 / 4e9) / (2e9 / 4e9), "IPC scalability (0.625 / 0.5)")
        exact(v["frequency scalability"], (4e9 / 2.5) / (4e9 / 2.0), "frequency scalability (1.6 / 2 GHz)")
        exact(v["instruction scalability"] * v["IPC scalability"] * v["frequency scalability"],
              v["computation scalability"], "the three factors multiply to it")
        exact(v["global efficiency of B"], 0.9 * 0.8, "global efficiency of B = 0.9 x 0.8")
        text = compare.render_text(df, "a", "b", 0.1)
        check("computation scalability 0.8 = instruction 0.8 x IPC 1.25 x frequency 0.8" in text,
              "the text says the split")
        check("global efficiency of B 0.72 = parallel efficiency 0.9 x computation scalability 0.8" in text,
              "the text says the global efficiency")

        # perf's names
        pa = report(os.path.join(tmp, "pa"), 2, 1.0, 0.25, 1000000000, 2000000000, 0.8,
                    names=("perf::INSTRUCTIONS", "perf::CPU-CYCLES"))
        pb = report(os.path.join(tmp, "pb"), 2, 2.0, 0.25, 2000000000, 4000000000, 0.8,
                    names=("perf::INSTRUCTIONS", "perf::CPU-CYCLES"))
        v = dict(zip(*[compare.compare(pa, pb).attrs["pop_scalability"][c] for c in ("factor", "value")]))
        exact(v["computation scalability"], 0.5, "perf names: computation scalability")
        exact(v["instruction scalability"], 0.5, "perf names: instruction scalability")
        exact(v["IPC scalability"], 1.0, "perf names: IPC scalability")
        exact(v["frequency scalability"], 1.0, "perf names: frequency scalability")

        # cycles absent from B, an instruction count not read on A's rank 1
        nb = report(os.path.join(tmp, "nb"), 4, 0.625, 0.25, 625000000, None, 0.9)
        pop = compare.compare(a, nb).attrs["pop_scalability"]
        v = dict(zip(pop["factor"], pop["value"]))
        exact(v["instruction scalability"], 0.8, "no cycles in B: instruction scalability still")
        check(math.isnan(v["IPC scalability"]) and math.isnan(v["frequency scalability"]),
              "no cycles in B: IPC and frequency scalability absent (NaN), not 0")
        note = pop[pop["factor"] == "IPC scalability"]["note"].iloc[0]
        check("B: not counted (PAPI_TOT_CYC" in note, "the note says B lacks cycles: %r" % note)
        na = report(os.path.join(tmp, "na"), 2, 1.0, 0.25, [1000000000, None], 2000000000, 0.8)
        pop = compare.compare(na, b).attrs["pop_scalability"]
        row = pop[pop["factor"] == "instruction scalability"].iloc[0]
        check(math.isnan(row["value"]) and "PAPI_TOT_INS not read on rank 1" in row["note"],
              "an instruction count not read on rank 1: said: %r" % row["note"])
        exact(dict(zip(pop["factor"], pop["value"]))["computation scalability"], 0.8,
              "computation scalability without counters")
        text = compare.render_text(compare.compare(na, b), "na", "b", 0.1)
        check("its split needs instructions and cycles in both runs" in text, "the text says why no split")

        # the command line
        out = os.path.join(tmp, "out")
        p = subprocess.run([sys.executable, os.path.join(sys.argv[1], "papi_report.py"), "--compare",
                            a, b, "-o", out], capture_output=True, text=True)
        check(p.returncode == 0, "papi_report --compare exits 0: %s" % p.stderr[-300:])
        check("POP computation scalability" in p.stdout, "its output holds the table")
        path = os.path.join(out, "compare_pop_scalability.csv")
        if check(os.path.exists(path), "compare_pop_scalability.csv written"):
            with open(path, encoding="utf-8") as f:
                rows = {r["factor"]: r for r in csv.DictReader(f)}
            exact(float(rows["computation scalability"]["value"]), 0.8, "the CSV's computation scalability")
        with open(os.path.join(out, "compare.html"), encoding="utf-8") as f:
            page = f.read()
        check("POP computation scalability" in page, "compare.html holds the table")
        pop_html = page[page.find("POP computation scalability"):]
        pop_html = pop_html[:pop_html.find("</table>")]
        cells = re.findall(r"<td>([^<]*)</td>", pop_html)
        check(cells[:3] == ["ranks", "2", "4"] and "None" not in cells and
              not any(re.fullmatch(r"-?\d+\.\d{6}", c) for c in cells),
              "compare.html's POP table: ranks whole (2, 4), no None, no 6-decimal floats (%s)" % cells[:12])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return verdict()


if __name__ == "__main__":
    sys.exit(main())
