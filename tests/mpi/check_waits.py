#!/usr/bin/env python3
"""Wait states and POP efficiencies (issue 49) on staged programs (mpi_waits.c, and the
Fortran mpi_waits_f.f90), oversubscribed: each run's report is validated by
schema/mpi_report.schema.json, and its waits compared with what the program measured
(its "EXPECT mode rank seconds" lines: one clock on one node) within 30 ms, and with
the nominal sleeps (200 ms late sender, (3 - r) x 100 ms at the barrier) within 30 ms
unless the program's own clock shows the machine delayed a rank past that (then said,
and the waits still have to match what happened).
Part matching: MPI_Waitany, persistent requests, a barrier on MPI_Comm_split halves.
Part nxn: one late rank at Alltoall, Allgather and Iallreduce + Wait: each other rank's
N x N wait in the call's region is what it measured.
Part transfer: serialisation and transfer efficiency of a staged exchange, computed from
what the ranks measured (and serialisation 0.5 nominal).
Part nomem: a log size in range whose allocation fails (ulimit -v): one line, wait states
off with the reason, rows and counters written.
Usage: check_waits.py --mpirun M --program PROG --source SRC
  --part waits|pop|bad|fortran|matching|nxn|transfer|nomem"""
import csv
import json
import os
import re
import shutil
import sys
import tempfile

from mpi_check import check, expect_values, rank_env, run_cmd, launch_args, schemas_unavailable, verdict

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
from papi_report.load import schema_check  # noqa: E402

TOL = 0.030


def marker_lines(source):
    """{"RECV_LINE": n, ...}: the lines of the staged calls."""
    out = {}
    with open(source, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            for m in re.findall(r"\b([A-Z_]+_LINE)\b", line):
                out[m] = n
    return out


def run(args, np, mode, env=None, keep=None, expect_file=False, wrap=()):
    """Runs one stage; returns (report or None, EXPECT {(what, rank): s}, output); keep:
    where to copy the report; expect_file: the program writes its EXPECT lines into the
    file named by its second argument (a rank other than the report's own, whose lines
    the launcher could cut in the merged output); wrap: a command each rank runs the
    program under."""
    out = tempfile.mkdtemp(prefix="papi_mpi_waits_")
    side = tempfile.mkdtemp(prefix="papi_mpi_waits_expect_") if expect_file else None
    try:
        e = {"PAPI_MPI_OUTPUT_DIR": out}
        e.update(env or {})
        extra = [os.path.join(side, "expect.txt")] if side else []
        p = run_cmd([args.mpirun, "-np", str(np)] + rank_env(args.mpirun, e) + list(wrap) +
                    [args.program, mode] + extra, tail=3000)
        check(p.returncode == 0, f"{mode}: exit status {p.returncode}")
        expect = expect_values(p.stdout)
        if side:
            check(os.path.exists(extra[0]), f"{mode}: the program wrote {extra[0]}")
            if os.path.exists(extra[0]):
                with open(extra[0], encoding="utf-8") as f:
                    text = f.read()
                print(text, end="")
                expect.update(expect_values(text))
        path = os.path.join(out, "papi_mpi_report.json")
        if not check(os.path.exists(path), f"{mode}: report written"):
            return None, expect, p.stdout
        if keep:
            shutil.copy(path, keep)
        bad = schema_check.check_file(path)
        check(bad is None, f"{mode}: report follows mpi_report.schema.json: {bad}")
        with open(path, encoding="utf-8") as f:
            return json.load(f), expect, p.stdout
    finally:
        shutil.rmtree(out, ignore_errors=True)
        if side:
            shutil.rmtree(side, ignore_errors=True)


def site(rep, call, line):
    for s in rep["callsites"]["top"]:
        if s["call"] == call and s["line"] == line:
            return s
    check(False, f"a {call} site at line {line}")
    return None


def near(got, want, what, tol=TOL):
    ok = abs(got - want) <= tol
    print(f"{what}: {got:.4f} s, expected {want:.4f} s +- {tol:.3f}: {'ok' if ok else 'NO'}")
    return check(ok, f"{what}: {got:.4f} s, expected {want:.4f} +- {tol:.3f}")


def nominal(got, measured, want, what):
    """The nominal figure, unless the program's clock shows the machine delayed past it."""
    if abs(measured - want) > TOL:
        print(f"{what}: the program measured {measured:.4f} s against the nominal {want:.3f} s "
              "(a loaded machine delayed a rank): checked against what happened only")
        return True
    return near(got, want, what + " (nominal)")


def part_waits(args, lines, fortran=False):
    # late sender at MPI_Recv and at the MPI_Wait of an MPI_ANY_SOURCE Irecv
    for env in ({}, {"PAPI_MPI_CLOCK_PINGPONG": "1"}):
        rep, exp, banner = run(args, 2, "late_sender", env, expect_file=fortran)
        if not rep:
            continue
        w = rep["wait_states"]
        if not check(w["on"], "wait states on by default"):
            continue
        res = w["clock"]["residual_s"]
        tol = TOL + res
        print(f"clock: max offset {w['clock']['max_offset_s']} s, residual {res} s ({env or 'one boot'})")
        # the residual is stated in the banner's wait-state line too, the JSON's figure
        m = re.search(r"papi_mpi: wait states \(all ranks, s\):.*; clock residual ([0-9.]+)", banner)
        if check(m is not None, "the banner's wait-state line states the clock residual"):
            check(abs(float(m.group(1)) - res) < 1e-9,
                  f"banner's clock residual {m.group(1)} = the report's {res}")
        if env:
            check(res > 0, "the ping-pong measured a residual")
        else:
            check(res == 0 and w["clock"]["max_offset_s"] == 0, "one boot: offset 0 exactly")
        stages = (("late_sender_recv", "MPI_Recv", "RECV_LINE"),
                  ("late_sender_wait", "MPI_Wait", "WAIT_LINE"))
        if fortran:  # wildcard receives completed by Waitall/Waitsome(MPI_STATUSES_IGNORE)
            stages += (("late_sender_waitall", "MPI_Waitall", "WAITALL_LINE"),
                       ("late_sender_waitsome", "MPI_Waitsome", "WAITSOME_LINE"))
        for what, call, line in stages:
            if fortran:  # the one site of the call: gfortran's line table may name a line
                # near it (Open MPI's `use mpi` module, -O1: the Wait on the branch's line)
                found = [x for x in rep["callsites"]["top"] if x["call"] == call]
                s = found[0] if check(len(found) == 1, f"one {call} site: {found}") else None
            else:
                s = site(rep, call, lines[line])
            m = exp.get((what, 1))
            if s and check(m is not None, f"EXPECT {what}"):
                near(s["waits"]["late_sender_s"], m, f"rank 1 late sender at {call} line {lines[line]}", tol)
                nominal(s["waits"]["late_sender_s"], m, 0.200, f"rank 1 late sender at {call}")
                check(s["rank_max"] == 1 and s["ranks"] == 1, f"{call}: rank 1's site")
        r1 = w["ranks"][1]
        check(r1["late_sender_s"] >= 0.95 * sum(exp.get((w_, 1), 0) for w_, _c, _l in stages) - tol,
              f"rank 1's late-sender total {r1['late_sender_s']} holds every stage")
        check(w["matched"]["p2p_unmatched"] == 0, f"every receive matched: {w['matched']}")
    if fortran:
        return
    rep, exp, _ = run(args, 2, "late_receiver")
    if rep:
        s = site(rep, "MPI_Ssend", lines["SSEND_LINE"])
        if s and check(("late_receiver", 0) in exp, "EXPECT late_receiver"):
            near(s["waits"]["late_receiver_s"], exp[("late_receiver", 0)], "rank 0 late receiver at MPI_Ssend")
    rep, exp, _ = run(args, 2, "late_receiver_issend")
    if rep:
        s = site(rep, "MPI_Wait", lines["ISSEND_WAIT_LINE"])
        if s and check(("late_receiver", 0) in exp, "EXPECT late_receiver"):
            near(s["waits"]["late_receiver_s"], exp[("late_receiver", 0)],
                 "rank 0 late receiver at the MPI_Wait of its MPI_Issend (however small)")
    rep, exp, _ = run(args, 4, "barrier")
    if rep:
        s = site(rep, "MPI_Barrier", lines["BARRIER_LINE"])
        for r in range(4):
            m = exp.get(("barrier", r))
            got = rep["wait_states"]["ranks"][r]["wait_barrier_s"]
            if check(m is not None, f"EXPECT barrier {r}"):
                near(got, m, f"rank {r} wait at barrier", TOL)
                nominal(got, m, (3 - r) * 0.100, f"rank {r} wait at barrier")
        if s:
            near(s["waits"]["wait_barrier_s"], sum(exp.get(("barrier", r), 0) for r in range(4)),
                 "the barrier site, all ranks", 4 * TOL)
    rep, exp, _ = run(args, 3, "collectives")
    if rep:
        for what, call, line, kind, ranks in (
                ("nxn", "MPI_Allreduce", "ALLREDUCE_LINE", "wait_nxn_s", (0, 1, 2)),
                ("late_root", "MPI_Bcast", "BCAST_LINE", "late_root_s", (1, 2)),
                ("early_reduce", "MPI_Reduce", "REDUCE_LINE", "early_reduce_s", (0,))):
            s = site(rep, call, lines[line])
            want = sum(exp.get((what, r), 0) for r in ranks)
            if s:
                near(s["waits"][kind], want, f"{kind} at {call}, ranks {ranks}", TOL * len(ranks))
                others = [k for k, v in s["waits"].items() if v > 0 and k != kind]
                check(not others, f"{call}: no other wait kind there: {others}")


def part_matching(args, lines):
    """Requests completed by MPI_Waitany, persistent requests, a barrier on the halves of
    an MPI_Comm_split: each wait as the program measured it (+- 30 ms) and nominal."""
    for mode, call, line in (("waitany", "MPI_Waitany", "WAITANY_LINE"),
                             ("persistent", "MPI_Wait", "PERSIST_WAIT_LINE")):
        rep, exp, _ = run(args, 2, mode)
        if not rep:
            continue
        s = site(rep, call, lines[line])
        m = exp.get((mode, 1))
        if s and check(m is not None, f"EXPECT {mode}"):
            near(s["waits"]["late_sender_s"], m, f"{mode}: rank 1 late sender at {call} line {lines[line]}")
            nominal(s["waits"]["late_sender_s"], m, 0.200, f"{mode}: rank 1 late sender at {call}")
            check(s["rank_max"] == 1 and s["ranks"] == (1 if mode == "waitany" else 2),
                  f"{mode}: rank 1's site (and rank 0's persistent send's MPI_Wait)")
        check(rep["wait_states"]["matched"]["p2p_unmatched"] == 0,
              f"{mode}: every receive matched: {rep['wait_states']['matched']}")
    rep, _, _ = run(args, 2, "testany")
    if rep:
        m = rep["wait_states"]["matched"]
        check(m["p2p"] == 3 and m["p2p_unmatched"] == 0,
              f"testany: the 3 wildcard receives completed by MPI_Testany/Testsome matched: {m}")
    rep, exp, _ = run(args, 4, "split_barrier")
    if rep:
        for r in range(4):
            m = exp.get(("split_barrier", r))
            got = rep["wait_states"]["ranks"][r]["wait_barrier_s"]
            if check(m is not None, f"EXPECT split_barrier {r}"):
                near(got, m, f"rank {r} wait at its half's barrier")
                nominal(got, m, 0.200 if r < 2 else 0.0, f"rank {r} wait at its half's barrier")
        s = site(rep, "MPI_Barrier", lines["SPLIT_BARRIER_LINE"])
        if s:
            near(s["waits"]["wait_barrier_s"], sum(exp.get(("split_barrier", r), 0) for r in range(4)),
                 "the split barrier's site, all ranks", 4 * TOL)
        check(rep["wait_states"]["matched"]["collectives_unmatched"] == 0,
              f"split_barrier: every collective matched: {rep['wait_states']['matched']}")
    # an intercommunicator between the even and the odd ranks: its barrier and a Bcast
    # whose root is in one group and whose receivers are the other
    rep, exp, _ = run(args, 4, "intercomm")
    if rep:
        for r in range(4):
            w = rep["wait_states"]["ranks"][r]
            m = exp.get(("inter_barrier", r))
            if check(m is not None, f"EXPECT inter_barrier {r}"):
                near(w["wait_barrier_s"], m, f"rank {r} wait at the intercommunicator's barrier")
                nominal(w["wait_barrier_s"], m, 0.1 * (3 - r), f"rank {r} wait at the intercommunicator's barrier")
            m = exp.get(("inter_bcast", r), 0.0 if r % 2 == 0 else None)
            if check(m is not None, f"EXPECT inter_bcast {r}"):
                near(w["late_root_s"], m, f"rank {r} late root at the intercommunicator's Bcast")
        s = site(rep, "MPI_Barrier", lines["INTER_BARRIER_LINE"])
        if s:
            check(s["ranks"] == 4, f"the intercommunicator's barrier site has the 4 ranks: {s['ranks']}")
        s = site(rep, "MPI_Bcast", lines["INTER_BCAST_LINE"])
        if s:
            near(s["waits"]["late_root_s"], exp.get(("inter_bcast", 1), 0) + exp.get(("inter_bcast", 3), 0),
                 "the intercommunicator's Bcast site, all ranks", 2 * TOL)
        check(rep["wait_states"]["matched"]["collectives_unmatched"] == 0,
              f"intercomm: every collective matched: {rep['wait_states']['matched']}")


def papi_report_tables(path):
    """papi_report's wait and POP tables (waits.py) of a report, through the tool."""
    out = tempfile.mkdtemp(prefix="papi_report_waits_")
    try:
        p = run_cmd(["/usr/bin/python3", os.path.join(HERE, "..", "..", "python", "papi_report.py"),
                     "--mpi", path, "-o", out, "--text"], tail=2500)
        check(p.returncode == 0, f"papi_report exit status {p.returncode}")
        check("POP efficiencies" in p.stdout and "Wait states by call site" in p.stdout,
              "papi_report's text shows the POP and wait-state tables")
        tabs = {}
        check("Clock offsets between ranks: waits are +- residual_s" in p.stdout,
              "papi_report's text states the clocks' residual error")
        page = os.path.join(out, "report.html")
        if check(os.path.exists(page), "papi_report wrote report.html"):
            with open(page, encoding="utf-8") as fh:
                check("Clock offsets between ranks: waits are +- residual_s" in fh.read(),
                      "papi_report's page states the clocks' residual error")
        for name in ("mpi_pop", "mpi_wait_ranks", "mpi_wait_sites", "mpi_wait_regions",
                     "mpi_wait_clock"):
            f = os.path.join(out, name + ".csv")
            if check(os.path.exists(f), f"papi_report wrote {name}.csv"):
                with open(f, encoding="utf-8") as fh:
                    tabs[name] = list(csv.DictReader(fh))
        return tabs
    finally:
        shutil.rmtree(out, ignore_errors=True)


def part_pop(args):
    kept = tempfile.mktemp(prefix="papi_mpi_pop_", suffix=".json")
    # ping-pong even on one boot: a residual above 0 for papi_report to state
    rep, exp, out = run(args, 2, "pop", {"PAPI_MPI_CLOCK_PINGPONG": "1"}, keep=kept)
    if not rep:
        return
    # The load balance the ranks' own clocks give (0.75 when nothing stretched a sleep):
    # a loaded machine lengthens the work, never shortens it.
    useful = [exp.get(("pop_useful", r)) for r in (0, 1)]
    if not check(None not in useful and useful[0] >= 0.4 and useful[1] >= 0.2,
                 f"EXPECT pop_useful of both ranks, at least the sleeps: {useful}"):
        return
    want_lb = sum(useful) / (2 * max(useful))
    print(f"work measured by the ranks: {useful[0]:.4f} s, {useful[1]:.4f} s: load balance {want_lb:.4f}")
    try:
        tabs = papi_report_tables(kept)
    finally:
        os.unlink(kept)
    if tabs:
        pops = {r["scope"]: r for r in tabs.get("mpi_pop", [])}
        check(set(pops) == {"run", "region work"}, f"mpi_pop scopes: {list(pops)}")
        for scope, r in pops.items():
            check(abs(float(r["load_balance"]) - rep["wait_states"]["pop"]["load_balance"]) < 1e-5
                  if scope == "run" else abs(float(r["load_balance"]) - want_lb) <= 0.03,
                  f"mpi_pop {scope}: load balance {r['load_balance']}")
        ranks = tabs.get("mpi_wait_ranks", [])
        check(len(ranks) == 2 and abs(float(ranks[1]["wait_barrier_s"]) -
                                      rep["wait_states"]["ranks"][1]["wait_barrier_s"]) < 1e-6,
              f"mpi_wait_ranks: rank 1's barrier wait as in the report: {ranks}")
        sites = tabs.get("mpi_wait_sites", [])
        check(sites and sites[0]["call"] == "MPI_Barrier" and float(sites[0]["wait_barrier_s"]) > 0.15,
              f"mpi_wait_sites: the barrier first: {sites[:1]}")
        regs = tabs.get("mpi_wait_regions", [])
        check(len(regs) == 2 and all(r["region"] == "work" for r in regs),
              f"mpi_wait_regions: both ranks in 'work': {regs}")
        clk = tabs.get("mpi_wait_clock", [])
        res = rep["wait_states"]["clock"]["residual_s"]
        check(res > 0 and len(clk) == 1 and abs(float(clk[0]["residual_s"]) - res) < 1e-12 and
              clk[0]["ranks"] == "2", f"mpi_wait_clock: the report's residual {res} s: {clk}")
    pop = rep["wait_states"]["pop"]
    near(pop["load_balance"], want_lb, "load balance (work split 2:1)", 0.03)
    check(abs(pop["parallel_efficiency"] - pop["load_balance"] * pop["communication_efficiency"]) < 1e-5,
          f"parallel = load balance x communication efficiency: {pop}")
    check(abs(pop["communication_efficiency"] - pop["serialisation_efficiency"] *
              pop["transfer_efficiency"]) < 1e-5, f"communication = serialisation x transfer: {pop}")
    regs = {g["name"]: g for g in rep["wait_states"]["regions"]}
    if check("work" in regs, f"region 'work' in wait_states.regions: {list(regs)}"):
        g = regs["work"]
        near(g["pop"]["load_balance"], want_lb, "region 'work' load balance", 0.03)
        check(len(g["per_rank"]) == 2, "both ranks in the region")
        near(g["per_rank"][1]["wait_barrier_s"], exp.get(("pop_barrier", 1), 0.2),
             "rank 1's barrier wait inside 'work'", 0.05)
    check("POP: parallel efficiency" in out, "the banner's POP line")


def part_bad(args):
    for value in ("0", "abc", "99999999999"):
        rep, _, out = run(args, 2, "barrier", {"PAPI_MPI_LOG_RECORDS": value})
        lines = [x for x in out.splitlines() if "PAPI_MPI_LOG_RECORDS" in x]
        check(len(lines) == 1, f"PAPI_MPI_LOG_RECORDS={value}: one line ({lines})")
        if rep:
            w = rep["wait_states"]
            check(not w["on"] and "PAPI_MPI_LOG_RECORDS" in w.get("note", ""),
                  f"PAPI_MPI_LOG_RECORDS={value}: wait states off, note says why: {w}")
            check(len(rep["ranks"]) == 2 and rep["ranks"][0]["calls"],
                  f"PAPI_MPI_LOG_RECORDS={value}: rows and calls still written")
    rep, _, out = run(args, 2, "barrier", {"PAPI_MPI_LOG_RECORDS": "3"})
    if rep:
        w = rep["wait_states"]
        check(w["on"] and w["log"]["dropped"] > 0 and "full" in w.get("note", ""),
              f"a log of 3 records: drops counted and said: {w.get('log')} {w.get('note')}")
    rep, _, _ = run(args, 2, "barrier", {"PAPI_MPI_WAITS": "0"})
    if rep:
        check(not rep["wait_states"]["on"], "PAPI_MPI_WAITS=0: off")
        check(all("waits" not in s for s in rep["callsites"]["top"]), "no site waits when off")


def part_nxn(args, lines):
    """Rank 1 enters each call 200 ms after the others (3 ranks): ranks 0 and 2 wait at
    N x N for it, each call in its own region (the region's per-rank waits are the
    call's); the site holds the sum."""
    rep, exp, _ = run(args, 3, "nxn_more")
    if not rep:
        return
    regs = {g["name"]: g for g in rep["wait_states"]["regions"]}
    for name, calls in (("alltoall", (("MPI_Alltoall", "ALLTOALL_LINE"),)),
                        ("allgather", (("MPI_Allgather", "ALLGATHER_LINE"),)),
                        ("iallreduce", (("MPI_Wait", "IALL_WAIT_LINE"),))):
        if not check(name in regs, f"region {name} in wait_states.regions: {list(regs)}"):
            continue
        per = {x["rank"]: x for x in regs[name]["per_rank"]}
        if not check(sorted(per) == [0, 1, 2], f"{name}: the 3 ranks in its region: {sorted(per)}"):
            continue
        for r in range(3):
            m = exp.get((name, r))
            if not check(m is not None, f"EXPECT {name} {r}"):
                continue
            near(per[r]["wait_nxn_s"], m, f"{name}: rank {r} wait at N x N")
            nominal(per[r]["wait_nxn_s"], m, 0.0 if r == 1 else 0.200, f"{name}: rank {r} wait at N x N")
            others = {k: v for k, v in per[r].items() if k.endswith("_s") and k not in
                      ("wait_nxn_s", "wall_s", "mpi_s", "rest_s") and v > 0.005}
            check(not others, f"{name}: rank {r} has no other wait there: {others}")
        got = 0.0
        for call, line in calls:
            for x in rep["callsites"]["top"]:
                if x["call"] == call and x["line"] == lines[line]:
                    got += x.get("waits", {}).get("wait_nxn_s", 0.0)
                    print(f"{name}: {call} line {x['line']}: {x.get('waits')}")
        near(got, sum(exp.get((name, r), 0) for r in range(3)), f"{name}: its sites, all ranks", 3 * TOL)
    s = site(rep, "MPI_Iallreduce", lines["IALLREDUCE_LINE"])  # it returns at once: the
    if s:  # Wait that blocked holds the wait
        check(s.get("waits", {}).get("wait_nxn_s", 0) < 0.005, f"MPI_Iallreduce's own site waits none: {s}")
    check(rep["wait_states"]["matched"]["collectives_unmatched"] == 0,
          f"nxn_more: every collective matched: {rep['wait_states']['matched']}")


def part_transfer(args):
    """Region xfer (2 ranks): rank 0 works 300 ms and sends 256 MiB to rank 1 waiting in
    MPI_Recv (late sender, then the copy); rank 1 works 300 ms and sends 8 bytes to rank 0
    waiting in MPI_Recv. Per the model (wait_report.c): transfer_r = MPI time - waits,
    T_ideal = max(span_r - transfer_r), serialisation = max(useful) / T_ideal, transfer
    efficiency = T_ideal / max(span). The ranks measured span, work and copy: from those
    the expected values (+- 0.03), and serialisation 0.5 +- 0.05 when each worked 300 ms."""
    rep, exp, _ = run(args, 2, "pop_transfer", expect_file=True)
    if not rep:
        return
    regs = {g["name"]: g for g in rep["wait_states"]["regions"]}
    got = [[exp.get((k, r)) for r in (0, 1)] for k in ("xfer_span", "xfer_work", "xfer_copy")]
    if not check("xfer" in regs and None not in sum(got, []), f"region xfer and EXPECT xfer_*: {got}"):
        return
    span, work, copy = got
    ideal = max(span[r] - copy[r] for r in (0, 1))
    want_ser, want_te = max(work) / ideal, ideal / max(span)
    print(f"measured: span {span}, work {work}, copy {copy}: T_ideal {ideal:.4f} s, serialisation "
          f"{want_ser:.4f}, transfer efficiency {want_te:.4f}")
    pop = regs["xfer"]["pop"]
    print("region xfer:", pop)
    near(pop["serialisation_efficiency"], want_ser, "region xfer: serialisation efficiency", 0.03)
    near(pop["transfer_efficiency"], want_te, "region xfer: transfer efficiency", 0.03)
    near(pop["ideal_runtime_s"], ideal, "region xfer: T_ideal", TOL)
    if all(abs(w - 0.300) <= TOL for w in work):
        near(pop["serialisation_efficiency"], 0.5, "region xfer: serialisation (nominal)", 0.05)
    check(pop["transfer_efficiency"] < 1 - 0.5 * max(copy) / max(span),
          f"the copy lowers the transfer efficiency: {pop['transfer_efficiency']}")
    check(abs(pop["communication_efficiency"] - pop["serialisation_efficiency"] *
              pop["transfer_efficiency"]) < 1e-5, f"communication = serialisation x transfer: {pop}")
    per = {x["rank"]: x for x in regs["xfer"]["per_rank"]}
    for r in (0, 1):
        if check(r in per, f"rank {r} in region xfer"):
            near(per[r]["rest_s"], copy[r], f"rank {r}: transfer (MPI time - waits) in xfer", TOL)
            near(per[r]["late_sender_s"], span[r] - work[r] - copy[r], f"rank {r}: late sender in xfer", TOL)


def part_nomem(args):
    """PAPI_MPI_LOG_RECORDS=16777216 (in range: 16M x 56 B = 940 MB) under a ulimit -v of
    the rank's own peak plus 512 MiB: the log's malloc fails, nothing else does."""
    _, exp, _ = run(args, 2, "vm")
    peak = exp.get(("vm_peak_kb", 0))
    if not check(peak is not None and peak > 0, f"the rank's peak virtual memory: {peak}"):
        return
    limit = int(peak) + 512 * 1024
    print(f"rank 0 peaked at {int(peak)} kB: ulimit -v {limit}")
    wrap = ["/bin/sh", "-c", f'ulimit -v {limit} && exec "$0" "$@"']
    env = {"PAPI_MPI_LOG_RECORDS": "16777216", "PAPI_MPI_EVENTS": "perf::PAGE-FAULTS"}
    rep, _, out = run(args, 2, "barrier", env, wrap=wrap)
    lines = [x for x in out.splitlines() if "event log" in x]
    check(len(lines) == 1 and "no memory for an event log of 16777216 records" in lines[0],
          f"one line saying the log had no memory: {lines}")
    if not rep:
        return
    w = rep["wait_states"]
    check(not w["on"] and "no memory" in w.get("note", "") and "PAPI_MPI_LOG_RECORDS" in w.get("note", ""),
          f"wait states off, the note says why: {w.get('on')} {w.get('note')}")
    check(len(rep["ranks"]) == 2 and all(r["calls"].get("MPI_Barrier", {}).get("calls") == 1
                                         for r in rep["ranks"]),
          f"each rank's row and its MPI_Barrier call written: {[r['calls'] for r in rep['ranks']]}")
    faults = [r["counters"].get("perf::PAGE-FAULTS") for r in rep["ranks"]]
    check(all(isinstance(x, int) and x > 0 for x in faults), f"each rank's counters written: {faults}")


def main():
    parts = {"waits": lambda a, lines: part_waits(a, lines),
             "fortran": lambda a, lines: part_waits(a, lines, fortran=True),
             "matching": part_matching, "nxn": part_nxn,
             "pop": lambda a, lines: part_pop(a), "transfer": lambda a, lines: part_transfer(a),
             "nomem": lambda a, lines: part_nomem(a), "bad": lambda a, lines: part_bad(a)}
    args = launch_args(more=("--source",), options={"--part": dict(required=True, choices=tuple(parts))})
    if schemas_unavailable():
        return 77
    parts[args.part](args, marker_lines(args.source))
    return verdict()


if __name__ == "__main__":
    sys.exit(main())
