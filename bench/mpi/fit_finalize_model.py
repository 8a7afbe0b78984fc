#!/usr/bin/env python3
"""MPI_Finalize's phases from run_finalize_profile.sh's CSV, their measured scaling and
the model projected to 10,000 and 100,000 ranks (issue 60 item 4; bench/README.md).

Measured: each phase's rank-0 median over its runs at each rank count P, and its growth
exponent k (t ~ P^k between the smallest and largest P). On an oversubscribed machine
every phase grows about linearly (k ~ 1): the ranks share the cores, and each step waits
for the scheduler to run the ranks it needs; the figures say what the wrapper adds
there, not what one rank per core would take.

Model (one rank per core, on paper): each phase's cost by construction,
    t = steps(P) * ALPHA + bytes_on_rank0(P) / BETA + per_rank0(P) * RANK0_US,
with steps the messages in sequence (a binomial tree: ceil(log2 P) per tree pass),
bytes what rank 0 receives, per_rank0 the ranks whose data rank 0 handles one by one,
ALPHA a small message's latency, BETA a link's bandwidth, RANK0_US rank 0's own work
per rank (formatting its row and wait-report line, copying its stream). The report's
bytes per rank come from the CSV's report_bytes (a least-squares line in P).
Usage: fit_finalize_model.py [--alpha-us 3] [--beta-gbs 10] [--rank0-us 10]
       [--at P ...] CSV..."""
import argparse
import csv
import math
import statistics
import sys

WAIT_PART = 2904  # bytes of a rank's wait-report part (16 region slots of 136 B and more)
ARRIVALS = 1024 * 24  # the collectives' arrivals riding in the agreement round (24 KiB)


def lg(p):
    return math.ceil(math.log2(p)) if p > 1 else 0


def model(p, per_rank_bytes):
    """{phase: (class, steps, bytes, ranks rank 0 handles[, whose bytes])} at P = p."""
    return {
        "agreement round with the collectives' arrivals (1 Allreduce, 24 KiB)":
            ("O(log P)", 2 * lg(p), ARRIVALS * 2 * lg(p), 0, "to rank 0"),
        "clock offsets (tree of ping-pongs)": ("O(log P)", 10 * lg(p), 0, 0),
        "senders' count (Reduce_scatter_block of 2P ints)": ("O(log P) + O(P) bytes a rank",
                                                           lg(p), 8 * p, 0, "a rank sends"),
        "sparse exchanges (partners only)": ("O(partners)", 4, 0, 0),
        "call sites (merge tree)": ("O(log P)", lg(p), 0, 0),
        "report's metrics (1 Reduce, 36 KB)": ("O(log P)", lg(p), 36000 * lg(p), 0, "to rank 0"),
        "regions (1 Reduce)": ("O(log P)", lg(p), 0, 0),
        "wait report's parts (in the files' pull)": ("O(P) on rank 0", 0, WAIT_PART * p, p,
                                                     "to rank 0"),
        "report files (rank 0 pulls every rank)": ("O(P) on rank 0", 2 * math.isqrt(p),
                                                   per_rank_bytes * p, p, "to rank 0"),
        "published (1 Bcast)": ("O(log P)", lg(p), 0, 0),
    }


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


def bytes_per_rank(runs):
    """The report's bytes as a + b P (least squares over the medians): (a, b)."""
    pts = [(p, statistics.median(v)) for p, v in runs.get("report_bytes", {}).items()]
    if len(pts) < 2:
        return 0.0, 0.0
    mx = statistics.fmean(p for p, _ in pts)
    my = statistics.fmean(y for _, y in pts)
    b = sum((p - mx) * (y - my) for p, y in pts) / sum((p - mx) ** 2 for p, _ in pts)
    return my - b * mx, b


def num(v):
    """Three significant figures, thousands separated."""
    return f"{v:,.0f}" if abs(v) >= 100 else f"{v:.3g}"


def measured(runs):
    ps = sorted({p for v in runs.values() for p in v})
    head = ["phase (rank 0)"] + [f"P={p}" for p in ps] + ["growth k (t ~ P^k)"]
    print("| " + " | ".join(head) + " |\n|" + "---|" * len(head))
    for phase in sorted(runs):
        if phase == "exit":
            continue
        med = {p: statistics.median(v) for p, v in runs[phase].items()}
        lo, hi = min(med), max(med)
        k = (math.log(med[hi] / med[lo]) / math.log(hi / lo)
             if hi > lo and med[lo] > 0 and med[hi] > 0 else float("nan"))
        print("| " + " | ".join([phase] + [num(med[p]) if p in med else "" for p in ps] +
                                [f"{k:.2f}"]) + " |")


def projected(args, per_rank_bytes):
    head = ["phase", "class"] + [f"at {p:,}" for p in args.at]
    print("| " + " | ".join(head) + " |\n|" + "---|" * len(head))
    total = [0.0] * len(args.at)
    for name in model(2, per_rank_bytes):
        cells = []
        for i, p in enumerate(args.at):
            cls, steps, nbytes, ranks, *where = model(p, per_rank_bytes)[name]
            ms = (steps * args.alpha_us + ranks * args.rank0_us) * 1e-3 + \
                nbytes / (args.beta_gbs * 1e9) * 1e3
            total[i] += ms
            cells.append(f"{num(ms)} ms" +
                         (f", {num(nbytes / 1e6)} MB {where[0]}" if nbytes else ""))
        print("| " + " | ".join([name, cls] + cells) + " |")
    print("| " + " | ".join(["the wrapper's sequence", ""] + [f"{num(t)} ms" for t in total]) + " |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--alpha-us", type=float, default=3.0)
    ap.add_argument("--beta-gbs", type=float, default=10.0)
    ap.add_argument("--rank0-us", type=float, default=10.0)
    ap.add_argument("--at", type=int, nargs="*", default=[10000, 100000])
    ap.add_argument("csv", nargs="+")
    args = ap.parse_args()
    runs = read(args.csv)
    if not runs:
        print("fit_finalize_model: no rows in " + " ".join(args.csv), file=sys.stderr)
        return 2
    measured(runs)
    a, b = bytes_per_rank(runs)
    print(f"\nreport files: {num(a)} + {num(b)} B per rank (least squares over the medians)\n")
    projected(args, b)
    return 0


if __name__ == "__main__":
    sys.exit(main())
