#!/usr/bin/env python3
"""Run an MPI program under the PMPI wrapper library and check its report exactly.

The expected calls and bytes of every rank are those of the fixed pattern in
mpi_pattern.c (and its Fortran twins). Checks: per-rank counts and bytes exact in the
JSON rows and the CSV; min/mean/max/imbalance and the ranks holding min and max equal
what the rows say; each rank's page faults >= (rank+1) x N and within a baseline
measured by a run with N = 0. Exit 0 pass, 1 fail, 77 skip."""
import argparse
import csv
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import report_check  # noqa: E402 (every report this test writes is checked: schema/README.md)
from checks import check, verdict  # noqa: E402 (tests/common/checks.py)

report_check.guard()

SIZES = [0, 8, 1000, 65536]
REPS = 5


def expected(rank, size, fortran):
    """{call: (calls, bytes_sent, bytes_recv)} of one rank."""
    e = {}

    def add(name, n=1, sent=0, recv=0):
        c, s, r = e.get(name, (0, 0, 0))
        e[name] = (c + n, s + sent, r + recv)

    add("MPI_Init")
    add("MPI_Comm_rank")
    add("MPI_Comm_size")
    partner = rank ^ 1
    if partner < size:
        for s in SIZES:
            add("MPI_Send", REPS, sent=REPS * s)
            add("MPI_Recv", REPS, recv=REPS * s)
        add("MPI_Irecv", recv=800)
        add("MPI_Isend", sent=800)
        add("MPI_Waitall")
        add("MPI_Sendrecv", sent=40, recv=40)
        if fortran:  # persistent requests (bytes of one start, at *_init), started twice
            add("MPI_Send_init", sent=800)
            add("MPI_Recv_init", recv=800)
            add("MPI_Startall", 2)
            add("MPI_Waitall", 2)
            add("MPI_Request_free", 2)
        if rank % 2 == 0:
            add("MPI_Send", sent=12)
        else:
            add("MPI_Probe")
            add("MPI_Recv", recv=12)
    root = rank == 0
    add("MPI_Bcast", sent=800 if root else 0, recv=0 if root else 800)
    add("MPI_Allreduce", sent=40, recv=40)
    add("MPI_Reduce", sent=40, recv=40 if root else 0)
    add("MPI_Gather", sent=4, recv=4 * size if root else 0)
    add("MPI_Alltoall", sent=8 * size, recv=8 * size)
    add("MPI_Barrier", 4)  # the last one inside an MPI_Pcontrol region
    add("MPI_Ibarrier")
    add("MPI_Wait", 2)
    add("MPI_Iallreduce", sent=32, recv=32)
    add("MPI_Comm_rank", 100)
    add("MPI_Pcontrol", 2)
    if not fortran:
        add("MPI_Send")  # to MPI_PROC_NULL: a call, no bytes
        add("MPI_Recv")
    add("MPI_Finalize")
    return e


def expected_partners(rank, size, fortran):
    """[(partner, sends, bytes_sent, recvs, bytes_recv)] of one rank: the point-to-point
    calls to and from rank ^ 1 (MPI_PROC_NULL calls name no partner)."""
    partner = rank ^ 1
    if partner >= size:
        return []
    n, b = len(SIZES) * REPS, REPS * sum(SIZES)
    sends, sent, recvs, recvd = n + 2, b + 840, n + 2, b + 840  # + Isend/Irecv, Sendrecv
    if fortran:  # two starts of the persistent pair
        sends, sent, recvs, recvd = sends + 2, sent + 1600, recvs + 2, recvd + 1600
    if rank % 2 == 0:
        sends, sent = sends + 1, sent + 12
    else:
        recvs, recvd = recvs + 1, recvd + 12
    return [(partner, sends, sent, recvs, recvd)]


def run(args, outdir, pages):
    env = dict(os.environ, PAPI_MPI_OUTPUT_DIR=outdir)
    if args.preload:
        env["LD_PRELOAD"] = args.preload
    env.pop("PAPI_MPI_EVENTS", None)
    env.pop("PAPI_EVENTS", None)
    if args.events:
        env[args.events_var] = args.events
    if args.checkpoint:
        env["PAPI_MPI_CHECKPOINT"] = args.checkpoint
    cmd = [args.mpirun, "-np", str(args.np), args.program, str(pages)] + args.extra
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, timeout=120)
    sys.stdout.write(p.stdout)
    args.output = p.stdout
    return p.returncode


def load(outdir):
    with open(os.path.join(outdir, "papi_mpi_report.json"), encoding="utf-8") as f:
        rep = json.load(f)
    # papi_mpi_summary.csv: a line per rank; papi_mpi_ranks.csv: a line per call made.
    with open(os.path.join(outdir, "papi_mpi_summary.csv"), encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    with open(os.path.join(outdir, "papi_mpi_ranks.csv"), encoding="utf-8") as f:
        long_rows = list(csv.DictReader(f))
    for r in rows:
        r["calls"] = {c["call"]: c for c in long_rows if c["rank"] == r["rank"]}
        r["ncall_lines"] = sum(c["rank"] == r["rank"] for c in long_rows)
    return rep, rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mpirun", required=True)
    ap.add_argument("--np", type=int, required=True)
    ap.add_argument("--program", required=True)
    ap.add_argument("--pages", type=int, default=500)
    ap.add_argument("--preload", default="")
    ap.add_argument("--fortran", action="store_true")
    ap.add_argument("--events", default="", help="PAPI_MPI_EVENTS for the runs")
    ap.add_argument("--events-var", default="PAPI_MPI_EVENTS",
                    help="the variable --events goes in (PAPI_EVENTS: the region API's list, "
                         "read when PAPI_MPI_EVENTS is unset)")
    ap.add_argument("--collect", default="", help="papi_mpi_collect.py: check it too")
    ap.add_argument("--checkpoint", default="",
                    help="PAPI_MPI_CHECKPOINT: no snapshot may outlive a finished run")
    ap.add_argument("--expect-events", default="",
                    help="comma-separated events the report must list (the others failed)")
    ap.add_argument("extra", nargs="*")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="papi_mpi_test_", ignore_cleanup_errors=True) as tmp:
        base_dir, run_dir = os.path.join(tmp, "base"), os.path.join(tmp, "run")
        os.makedirs(base_dir)
        os.makedirs(run_dir)
        if run(args, base_dir, 0) != 0 or run(args, run_dir, args.pages) != 0:
            print("FAIL: the MPI program failed")
            return 1
        base, _ = load(base_dir)
        rep, csv_rows = load(run_dir)
        P = args.np
        # The banner's note: one short line, each cause said once; the JSON keeps it whole.
        notes = [l for l in args.output.splitlines() if l.startswith("papi_mpi: note:")]
        check(len(notes) <= 1, f"one note line in the banner: {notes}")
        for line in notes:
            check(len(line) <= 320, f"banner note of {len(line)} characters (at most 320): {line}")
            check(line.count("No hardware PMU") <= 1, f"a cause said twice: {line}")
            check(rep["counter_note"] and len(rep["counter_note"]) >= len(line) - 40,
                  "the report's counter_note keeps the whole reasons")
        check(rep["nranks"] == P and rep["finished_ranks"] == P, "nranks/finished_ranks")
        if args.expect_events:
            want_ev = args.expect_events.split(",")
            check(rep["events"] == want_ev, f"events {rep['events']} want {want_ev}")
            for bad in set(args.events.split(",")) - set(want_ev):
                check(bad in rep["counter_note"], f"the note names the failed event {bad}")
            for r in rep["ranks"]:
                check(sorted(r["counters"]) == sorted(want_ev), f"rank {r['rank']} counters")
        ranks = sorted(rep["ranks"], key=lambda r: r["rank"])
        check([r["rank"] for r in ranks] == list(range(P)), "one JSON row per rank")
        check(len(csv_rows) == P, "one summary CSV row per rank")
        pf = "perf::PAGE-FAULTS"
        for r in ranks:
            k = r["rank"]
            check(r["finished"] is True, f"rank {k} finished")
            exp = expected(k, P, args.fortran)
            got = {n: (c["calls"], c["bytes_sent"], c["bytes_recv"]) for n, c in r["calls"].items()}
            check(got == exp, f"rank {k} calls/bytes: got {got} want {exp}")
            got_p = sorted((p["rank"], p["sends"], p["bytes_sent"], p["recvs"], p["bytes_recv"])
                           for p in r["partners"])
            want_p = expected_partners(k, P, args.fortran)
            check(got_p == want_p, f"rank {k} partners (rank, sends, bytes, recvs, bytes): "
                                   f"got {got_p} want {want_p}")
            if args.fortran:  # Fortran passes the level only: MPI_Pcontrol(+-2) marks nothing
                check(r["regions"] == {}, f"rank {k}: Fortran's MPI_Pcontrol(2/-2), no region: "
                                          f"{r['regions']}")
            else:
                reg = r["regions"].get("tail", {})
                check(reg.get("entries") == 1 and reg.get("wall_s", 0) > 0,
                      f"rank {k} MPI_Pcontrol region: {reg}")
            crow = next((c for c in csv_rows if int(c["rank"]) == k), None)
            check(crow is not None, f"CSV row of rank {k}")
            if crow:
                got_csv = {n: (int(c["calls"]), int(c["bytes_sent"]), int(c["bytes_recv"]))
                           for n, c in crow["calls"].items()}
                check(got_csv == exp, f"CSV rank {k}: got {got_csv} want {exp}")
                check(crow["ncall_lines"] == len(exp), f"CSV rank {k}: one line per call made")
            if pf in r["counters"]:
                want = (k + 1) * args.pages
                b = [x for x in base["ranks"] if x["rank"] == k][0]["counters"][pf]
                got_pf = r["counters"][pf]
                slack = 2 * b + 64
                print(f"rank {k}: {pf} {got_pf} (touched {want}, baseline run {b})")
                check(want <= got_pf <= want + slack,
                      f"rank {k} page faults {got_pf} not in [{want}, {want + slack}]")
                if crow:
                    check(int(crow[pf]) == got_pf, f"CSV page faults rank {k}")
        # The banner's regions: every rank's MPI_Pcontrol regions, united, with the ranks
        # that entered each and their entries as the rows say.
        names = sorted({n for r in ranks for n in r["regions"]})
        lines = args.output.splitlines()
        check(bool(names) == any(l.startswith("papi_mpi: regions") for l in lines),
              "the banner lists the regions")
        for n in names:
            have = [r for r in ranks if n in r["regions"]]
            want = "  %-24s ranks %d, entries %d, wall min " % (
                n, len(have), sum(r["regions"][n]["entries"] for r in have))
            got = [l for l in lines if l.startswith(want)]
            check(len(got) == 1, f"banner line {want!r}")
            # min and max wall with their ranks (the lowest rank of a tie), as the rows say
            ns = sorted((round(r["regions"][n]["wall_s"] * 1e9), r["rank"]) for r in have)
            lo = ns[0]
            hi = min((x for x in ns if x[0] == ns[-1][0]), key=lambda x: x[1])
            m = re.search(r"wall min ([0-9.]+) s \(rank (\d+)\), mean [0-9.]+ s, "
                          r"max ([0-9.]+) s \(rank (\d+)\)", got[0] if got else "")
            check(m is not None and int(m.group(2)) == lo[1] and int(m.group(4)) == hi[1] and
                  abs(float(m.group(1)) - lo[0] * 1e-9) < 2e-6 and
                  abs(float(m.group(3)) - hi[0] * 1e-9) < 2e-6,
                  f"region {n}: min {lo} max {hi} in {got}")
        left = [f for f in os.listdir(run_dir)
                if "partial" in f or "checkpoint" in f or f.startswith(".")]
        check(not left, f"snapshot files left after MPI_Finalize: {left}")
        if args.collect:
            c = subprocess.run([sys.executable, args.collect, run_dir], stdout=subprocess.PIPE,
                               text=True, check=False)
            summary = json.loads(c.stdout)
            check(summary.pop("run_id") == rep["run_id"], "collector: this run's id")
            check(summary == {"nranks": P, "finished": list(range(P)), "partial": [],
                              "missing": [], "ignored": []}, f"collector: {summary}")
        # Aggregates equal what the rows say.
        def values(name):
            out = []
            for r in ranks:
                if name in ("wall_s", "mpi_s"):
                    out.append(r[name])
                elif name == "compute_s":  # compute time: wall - MPI
                    out.append(r["wall_s"] - r["mpi_s"])
                elif name in r["counters"]:
                    out.append(r["counters"][name])
                elif name in r.get("named_metrics", {}):
                    if r["named_metrics"][name] is not None:
                        out.append(r["named_metrics"][name])
                else:
                    call, field = name.rsplit(".", 1)
                    c = r["calls"].get(call)
                    out.append(c[field] if c else 0)
            return out
        for name, m in rep["metrics"].items():
            if name == "mpi_pct":
                continue
            v = values(name)
            tol = 1e-6 * max(1.0, max(abs(x) for x in v))
            lo, hi = min(v), max(v)
            mean = sum(v) / len(v)
            check(abs(m["min"] - lo) <= tol and abs(m["max"] - hi) <= tol, f"{name} min/max")
            check(abs(v[m["min_rank"]] - lo) <= tol and abs(v[m["max_rank"]] - hi) <= tol,
                  f"{name} min_rank/max_rank")
            check(abs(m["mean"] - mean) <= tol, f"{name} mean")
            imb = hi / mean if mean > 0 else 0
            check(abs(m["imbalance"] - imb) <= 1e-5 * max(1, imb), f"{name} imbalance")
            sd = (sum((x - mean) ** 2 for x in v) / len(v)) ** 0.5
            cov = sd / mean if mean > 0 else 0
            check(abs(m["cov"] - cov) <= 1e-4 * max(1, cov), f"{name} cov {m['cov']}, rows give {cov}")
        check(pf not in rep["events"] or rep["metrics"][pf]["max_rank"] == P - 1,
              "the rank touching most pages holds the max")
    return verdict()


if __name__ == "__main__":
    sys.exit(main())
