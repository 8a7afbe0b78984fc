#!/usr/bin/env python3
"""Fit a per-phase cost model to run_finalize_profile.sh's CSV and project it to
10,000 and 100,000 ranks (issue 60 item 4; bench/README.md states the model).

Each phase's rank-0 value is the median of its runs at each rank count P. The ranks ran
oversubscribed on CORES cores with MPICH's ranks polling while they wait, so a phase's
wall time there is its CPU work summed over the ranks sharing the cores: a phase is
normalised to one rank per core by CORES / P before fitting (--cores 0: not
normalised, for a value that is not a time, as report_bytes). Each phase is then fitted,
by least squares, to a + b * f(P) for f in 1 (O(1)), log2 P (O(log P)) and P (O(P)); the
class is the one the phase has by construction when the CLASSES table below names it,
otherwise the best fit (smallest residual, the simpler class on a tie within 10 %).
Usage: fit_finalize_model.py [--cores N] [--at P ...] CSV..."""
import argparse
import csv
import math
import statistics
import sys

FUNCS = {"O(1)": lambda p: 0.0, "O(log P)": math.log2, "O(P)": float}
# By construction (mpi-wrappers/README.md): tree collectives, the gather to rank 0 and
# the files rank 0 writes (every rank's row), the senders' count (a vector of P).
CLASSES = {"MPI_Allreduce_ms": "O(log P)", "MPI_Reduce_ms": "O(log P)",
           "MPI_Bcast_ms": "O(log P)", "MPI_Gather_ms": "O(P)",
           "MPI_Reduce_scatter_block_ms": "O(P)", "other_ms": "O(P)", "report_bytes": "O(P)"}
NOT_TIMES = {"report_bytes", "exit"}


def fit(points, f):
    """Least squares a + b f(P) over [(P, y)]: (a, b, residual sum of squares)."""
    xs = [f(p) for p, _ in points]
    ys = [y for _, y in points]
    n, mx, my = len(xs), statistics.fmean(xs), statistics.fmean(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx if sxx > 0 else 0.0
    a = my - b * mx if sxx > 0 else my
    if n == 0:
        return 0.0, 0.0, 0.0
    return a, b, sum((a + b * x - y) ** 2 for x, y in zip(xs, ys))


def choose(phase, points):
    if phase in CLASSES:
        name = CLASSES[phase]
        return (name,) + fit(points, FUNCS[name])
    fits = [(name,) + fit(points, f) for name, f in FUNCS.items()]
    best = min(r[3] for r in fits)
    for r in fits:  # simplest first (the dict's order)
        if r[3] <= best * 1.1 + 1e-12:
            return r
    return fits[-1]


def num(v):
    """Three significant figures, thousands separated."""
    return f"{v:,.0f}" if abs(v) >= 100 else f"{v:.3g}"


def read(paths):
    runs = {}
    for path in paths:
        with open(path, encoding="utf-8") as fh:
            for row in csv.DictReader(fh):
                try:
                    v = float(row["value"])
                except (KeyError, ValueError):
                    continue
                runs.setdefault(row["phase"], {}).setdefault(int(row["ranks"]), []).append(v)
    return runs


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cores", type=int, default=2)
    ap.add_argument("--at", type=int, nargs="*", default=[10000, 100000])
    ap.add_argument("csv", nargs="+")
    args = ap.parse_args()
    runs = read(args.csv)
    if not runs:
        print("fit_finalize_model: no rows in " + " ".join(args.csv), file=sys.stderr)
        return 2
    ps = sorted({p for v in runs.values() for p in v})
    head = ["phase"] + [f"P={p}" for p in ps] + ["model (one rank per core)"] + \
           [f"at {p:,}" for p in args.at]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for phase in sorted(runs):
        if phase == "exit":
            continue
        med = {p: statistics.median(v) for p, v in runs[phase].items()}
        time = phase not in NOT_TIMES and args.cores > 0
        pts = [(p, y * args.cores / p if time and p > args.cores else y) for p, y in med.items()]
        name, a, b, _ = choose(phase, pts)
        unit = "ms" if time else ""
        model = f"{name}: {a:.3g} + {b:.3g}" + ("" if name == "O(1)" else
                                               " log2 P" if name == "O(log P)" else " P")
        proj = [a + b * FUNCS[name](p) for p in args.at]
        cells = [phase] + [f"{med[p]:,.1f}" if p in med else "" for p in ps] + \
                [f"{model} {unit}".strip()] + [f"{num(v)} {unit}".strip() for v in proj]
        print("| " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
