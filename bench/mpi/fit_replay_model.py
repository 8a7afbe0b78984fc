#!/usr/bin/env python3
"""The root-cause replay's cost at MPI_Finalize from run_replay_cost.sh's output, its
measured growth in ranks and records, and a model projected to 10,000 and 100,000 ranks
(issue 72 item 6; bench/README.md "Root causes at MPI_Finalize").

Measured: for each input (an MPI) and (ranks P, records a rank R), the medians of
MPI_Finalize without (PAPI_MPI_ROOT_CAUSES=0) and with the replay, on rank 0 and on the
slowest rank, their ratios, the replay's own time (the slowest rank's) and its messages;
then growth exponents (t ~ P^a at fixed R, t ~ R^b at fixed P) and a least-squares fit
replay_ms = c P^a R^b over the medians. On an oversubscribed machine (more ranks than
cores) a message between two ranks waits for the receiver to be scheduled: the figures
there are the scheduler's, not the replay's.

Model (one rank per core, on paper), the replay's phases as cause_replay.c makes them
(main c0410c8: its start agreed in the finalize agreement, no collective of its own):
    t = steps(P) * ALPHA + bytes(P) / BETA
        + chain(W) * (ALPHA + WAIT_US + F(P) * FLOW_NS + message bytes / BETA)
        + rank 0's sort of the rows,
with W the waits a rank has a message for (one message per wait with a cause:
messages / P measured, a fraction of its records), chain(W) the longest sequence of
replay messages each sent only after the one before it was handled (2 W for a
neighbour-exchange program like papi_mpi_bench finalize-waits: a rank's waits and its
neighbours', interleaved, round by round, in parallel on all ranks; up to P * W for a
program whose waits form one chain through every rank), WAIT_US a message's fixed cost
on the chain (the receiver's wake-up and the sender's interval sums), measured where the
ranks had a core each (P = 2 on this 2-core VM, where the chain is every message) as the
replay's time over its messages, F(P)
the flows a message carries (waiting time by origin: waiting rank, call, kind; they
pile up as waits propagate, up to 2 P + 1 here: FLOWS_PER_RANK x P, 0.8 to 1.7 P
measured with a local diagnostic build; since main 10da877 at most FLOW_CAP = 64, the
smallest folded: --flows-cap, 0 for the replay before it), FLOW_NS the work per flow (sorting, merging,
spreading it over the cause's activities and waits: about 0.7 us a flow sent, perf's
cpu-clock samples in those functions over the flows, 16 ranks under Open MPI, the same
diagnostic build), 24 B a flow; ALPHA
and BETA as in fit_finalize_model.py (assumptions: 3 us, 10 GB/s).
Usage: fit_replay_model.py [--alpha-us 3] [--beta-gbs 10] [--wait-us US] [--records R]
       [--flows-per-rank 1] [--flow-ns 700] [--flows-cap 64] [--at P ...] [LABEL=]FILE..."""
import argparse
import math
import statistics
import sys

ROW_BYTES = 352  # struct pmpi_cause_row (cause_replay.h): 3 doubles, 8 B, 96 + 128 + 96 B
ROWS = 20  # PMPI_CAUSE_ROWS: the rows a rank sends to rank 0 at most (a path part: 360 B)
PATH_ROWS = 20  # PMPI_PATH_ROWS: the critical path's keys broadcast and reduced
QUERY_BYTES = 112  # a query (cause record, 4 candidate meetings) and its answer, about
FLOW_BYTES = 24  # struct flow (cause_replay.c): rank, call, kind, direct, waited, ns
MSG_BYTES = 40 + 4 * 16  # a message's head and about 4 activities of 16 B
PATH_PARTS = 2  # a rank's parts of the critical path (its activities on it), about
COLLS_PER_RECORD = 1 / 81  # world collectives a record in finalize-waits (one in 10 rounds)
CMP_NS = 20  # rank 0's sort of the gathered rows: ns a comparison (assumption)
# The wrapper's own sequence without the replay on paper (fit_finalize_model.py's model,
# bench/README.md "Issue 60 item 4": the MPI's own finalize not included)
SEQUENCE_MS = {10000: 206.0, 100000: 2047.0}


def lg(p):
    return math.ceil(math.log2(p)) if p > 1 else 0


def read(specs):
    """{label: {(P, R): {causes: [(rank0, max, replay, messages, records), ...]}}}"""
    data = {}
    for spec in specs:
        label, _, path = spec.rpartition("=")
        label = label or path
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                f = line.split()
                if len(f) not in (11, 12) or f[0] != "run" or f[-1] != "0":
                    continue
                try:
                    p, causes = int(f[1]), int(f[4])
                    vals = [float(x) for x in f[5:10]]
                    vals.append(float(f[10]) if len(f) == 12 else math.nan)  # CPU, s
                except ValueError:
                    continue
                if any(math.isnan(v) for v in vals[:5]):
                    continue
                rounds = int(f[2])
                data.setdefault(label, {}).setdefault((p, rounds), {}).setdefault(
                    causes, []).append(vals)
    return data


def med(rows, i):
    return statistics.median(r[i] for r in rows)


def num(v):
    return f"{v:,.0f}" if abs(v) >= 100 else f"{v:.3g}"


def fit(points):
    """Least squares of log t = log c + a log P + b log R: (c, a, b), or None."""
    pts = [(math.log(p), math.log(r), math.log(t)) for p, r, t in points if t > 0]
    if len(pts) < 3 or len({x for x, _, _ in pts}) < 2 or len({y for _, y, _ in pts}) < 2:
        return None
    n = len(pts)
    sx = [sum(a * b for a, b in zip(u, v)) for u, v in
          [((1,) * n, (1,) * n), ((1,) * n, [x for x, _, _ in pts]),
           ((1,) * n, [y for _, y, _ in pts]), ([x for x, _, _ in pts], [x for x, _, _ in pts]),
           ([x for x, _, _ in pts], [y for _, y, _ in pts]),
           ([y for _, y, _ in pts], [y for _, y, _ in pts])]]
    m = [[sx[0], sx[1], sx[2]], [sx[1], sx[3], sx[4]], [sx[2], sx[4], sx[5]]]
    rhs = [sum(z for _, _, z in pts), sum(x * z for x, _, z in pts),
           sum(y * z for _, y, z in pts)]
    det = _det(m)
    if abs(det) < 1e-12:
        return None
    sol = []
    for k in range(3):
        mk = [row[:] for row in m]
        for i in range(3):
            mk[i][k] = rhs[i]
        sol.append(_det(mk) / det)
    return math.exp(sol[0]), sol[1], sol[2]


def _det(m):
    return (m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
            m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
            m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]))


def measured(label, runs):
    """Prints the table; returns [(P, records, replay_ms, messages)] of the medians."""
    print(f"\n{label}: MPI_Finalize (ms), medians; ratio = with replay / without")
    head = ["ranks", "rounds", "records a rank", "runs", "without, rank 0", "with, rank 0",
            "ratio", "without, slowest", "with, slowest", "ratio", "replay (slowest rank)",
            "messages", "CPU in MPI_Finalize, all ranks, without / with (s)"]
    print("| " + " | ".join(head) + " |\n|" + "---|" * len(head))
    out = []
    for (p, rounds), by in sorted(runs.items()):
        off, on = by.get(0, []), by.get(1, [])
        if not off or not on:
            continue
        r0, r1, m0, m1 = med(off, 0), med(on, 0), med(off, 1), med(on, 1)
        rep, msgs, recs = med(on, 2), med(on, 3), med(on, 4)
        c0, c1 = med(off, 5), med(on, 5)
        cpu = f"{num(c0)} / {num(c1)}" if not math.isnan(c0 + c1) else ""
        print("| " + " | ".join([str(p), str(rounds), num(recs), f"{len(on)}", num(r0), num(r1),
                                 f"{r1 / r0:.2f}", num(m0), num(m1), f"{m1 / m0:.2f}",
                                 num(rep), num(msgs), cpu]) + " |")
        out.append((p, recs, rep, msgs))
    return out


def growth(pts):
    by_r, by_p = {}, {}
    for p, recs, rep, _ in pts:
        by_r.setdefault(round(recs, -1), []).append((p, rep))
        by_p.setdefault(p, []).append((recs, rep))
    for name, groups, var in (("ranks", by_r, "P"), ("records", by_p, "R")):
        for fixed, v in sorted(groups.items()):
            if len(v) < 2:
                continue
            (x0, y0), (x1, y1) = min(v), max(v)
            if x1 > x0 and y0 > 0 and y1 > 0:
                k = math.log(y1 / y0) / math.log(x1 / x0)
                other = "R" if var == "P" else "P"
                print(f"growth in {name}: replay ~ {var}^{k:.2f} from {var}={num(x0)} to "
                      f"{num(x1)} at {other}={num(fixed)}")
    f = fit([(p, recs, rep) for p, recs, rep, _ in pts])
    if f:
        print(f"least squares: replay_ms = {f[0]:.3g} x P^{f[1]:.2f} x R^{f[2]:.2f}")


def model(p, w, recs, args):
    """{phase: (class, steps, bytes, extra ms)} at P = p, w waits a rank, recs records."""
    flows = min(args.flows_per_rank * p, 2 * p + 1, args.flows_cap or math.inf)
    colls = recs * COLLS_PER_RECORD
    rows = (ROWS + PATH_PARTS) * p
    return {
        "the collectives' last arrivals (the wait rules' Iallreduce, 3 ints a world "
        "collective)": ("O(log P)", 2 * lg(p), 12 * colls * 2 * lg(p), 0),
        "queries and answers (Reduce_scatter_block of P ints, 2 sparse exchanges)":
            ("O(log P) + O(P) bytes a rank", lg(p) + 4, 4 * p + 2 * QUERY_BYTES * w, 0),
        "replay messages (one per wait, in dependency order)":
            ("O(W) chain x min(O(P), cap) flows", 0, 2 * w * (MSG_BYTES + FLOW_BYTES * flows),
             2 * w * (args.alpha_us + args.wait_us + flows * args.flow_ns * 1e-3) * 1e-3),
        "totals (1 Allreduce)": ("O(log P)", 2 * lg(p), 0, 0),
        "rows and path parts to rank 0 (Gather, Gatherv: <= 20 rows a rank; rank 0 sorts)":
            ("O(P) on rank 0", 2 * lg(p), ROW_BYTES * rows,
             rows * math.log2(rows) * CMP_NS * 1e-6),
        "path statistics (1 Bcast of 21 keys, 1 Reduce; each rank scans its segments)":
            ("O(log P) + O(R)", 2 * lg(p), 0, PATH_ROWS * recs * 1e-6),
    }


def projected(args, w):
    head = ["phase", "class"] + [f"at {p:,}" for p in args.at]
    print(f"\nmodel: {num(args.records)} records a rank, {num(w)} waits with a cause a rank, "
          f"ALPHA {args.alpha_us} us, BETA {args.beta_gbs} GB/s, WAIT_US {args.wait_us:.3g}, "
          f"{args.flows_per_rank:g} P flows a message"
          + (f" (at most {args.flows_cap:g})" if args.flows_cap else "")
          + f", FLOW_NS {args.flow_ns:g}")
    print("| " + " | ".join(head) + " |\n|" + "---|" * len(head))
    total = [0.0] * len(args.at)
    for name in model(2, w, args.records, args):
        cells = []
        for i, p in enumerate(args.at):
            cls, steps, nbytes, extra = model(p, w, args.records, args)[name]
            ms = steps * args.alpha_us * 1e-3 + nbytes / (args.beta_gbs * 1e9) * 1e3 + extra
            total[i] += ms
            cells.append(f"{num(ms)} ms" + (f", {num(nbytes / 1e6)} MB" if nbytes > 1e5 else ""))
        print("| " + " | ".join([name, cls] + cells) + " |")
    print("| " + " | ".join(["the replay", ""] + [f"{num(t)} ms" for t in total]) + " |")
    cells = [f"{1 + t / SEQUENCE_MS[p]:.2f}" if p in SEQUENCE_MS else "" for p, t in
             zip(args.at, total)]
    print("| " + " | ".join(["with / without (the wrapper's sequence on paper, issue 60 "
                             "item 4; the MPI's own finalize left out)", ""] + cells) + " |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--alpha-us", type=float, default=3.0)
    ap.add_argument("--beta-gbs", type=float, default=10.0)
    ap.add_argument("--wait-us", type=float, default=None,
                    help="work per replay message (default: measured at P = 2)")
    ap.add_argument("--records", type=float, default=8100, help="records a rank")
    ap.add_argument("--flows-per-rank", type=float, default=1.0,
                    help="flows a replay message carries, per rank of the job")
    ap.add_argument("--flow-ns", type=float, default=700.0, help="work per flow (ns)")
    ap.add_argument("--flows-cap", type=float, default=64,
                    help="flows a message carries at most (FLOW_CAP; 0: none, as before "
                         "main 10da877)")
    ap.add_argument("--at", type=int, nargs="*", default=[10000, 100000])
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    data = read(args.files)
    if not data:
        print("fit_replay_model: no runs in " + " ".join(args.files), file=sys.stderr)
        return 2
    waits_per_record, per_msg = [], []
    for label, runs in data.items():
        pts = measured(label, runs)
        growth(pts)
        for p, recs, rep, msgs in pts:
            waits_per_record.append(msgs / p / recs)
            if p == 2 and msgs > 0:
                per_msg.append(rep * 1e3 / msgs)
    wpr = statistics.median(waits_per_record)
    if args.wait_us is None:
        args.wait_us = statistics.median(per_msg) if per_msg else 10.0
    print(f"\nwaits with a cause: {wpr:.3f} a record (median over the runs); per message "
          f"at P = 2: {', '.join(f'{x:.1f}' for x in per_msg) or 'not measured'} us")
    projected(args, wpr * args.records)
    return 0


if __name__ == "__main__":
    sys.exit(main())
