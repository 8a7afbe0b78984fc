#!/usr/bin/env python3
"""check_mpi_gpu_activity.py --mpirun MPIRUN --program PROG --records FILE --cupti DIR
[--np 2] [--checkpoint]: each rank's GPU activity in its row (mpi_gpu_activity.c on the
CUPTI double in DIR): rank r launched FILE (tests/gpu_activity/region/a.txt) r + 1
times, the last time just before MPI_Finalize, so its row's gpu.total is exact only if
the wrapper flushed CUPTI there: per device busy 2200 and 300 ns, 3 + 1 kernels, 4096 B
host to device, 1000 B back, 700 ns of synchronisation, each times r + 1. With
--checkpoint the ranks launch FILE once more after their last MPI call and end without
MPI_Finalize after more checkpoints: each rank's checkpoint row holds the same with r + 2
launches, and (PAPI_MPI_TRACE=otf2, where otf2-print is) each rank's checkpoint archive,
rewritten as the GPU work grew with no MPI call, a location per GPU device and stream
with each operation's enter and leave (a.txt's 5 on "GPU 0 stream 7" and 1 on "GPU 1
stream 2" per launch). The MPI_Pcontrol region "kern" around the last launch holds exactly one launch's work in both. The host/device POP factors (pop_factors.h) of
the run and of "kern" beside the MPI ones: over the 2 ranks' devices (useful 2500 and
5000 ns, active 3100 and 6200 ns) load balance 0.75 and communication efficiency
5000 / 6200 exact, orchestration, parallel and offload efficiency as the report's own
times give them; papi_report's GPU tables (mpi_gpu_kernels, mpi_gpu_ranks) exact. With --half RECORDS (region/half.txt) the ranks run only MPI_Pcontrol
region "half": 1 s, 500 ms of it waiting in a synchronisation, no GPU work: its
device offload efficiency 0.5 (to 1e-2: the region's wall is measured, a loaded machine's
late wake-ups in it), the device factors null. With --compare the job runs twice, the second time with every kernel of
RECORDS 4 times as long: papi_report --compare's kernel rows (scope "kernel") give each
kernel's time B/A = 4, "slower", in the run and in region kern, launches the same.
Every file follows its schema."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
from papi_report.load import schema_check  # noqa: E402
from papi_report.tables import gpu, waits  # noqa: E402

sys.path.insert(0, os.path.join(HERE, "..", "common"))
import cupti_records  # noqa: E402
from mpi_check import check, job_report, launch_args, run_ranks, verdict, wait_ranks_gone  # noqa: E402

args = launch_args(more=("--records", "--cupti"),
                   options={"--checkpoint": {"action": "store_true"}, "--half": {},
                            "--compare": {"action": "store_true"}})


def close(a, b, tol=2e-6):
    return a is not None and b is not None and abs(a - b) <= tol


def check_device(where, pop, per_rank, runtime_s, want):
    """pop's device member: want's figures exact, the rest as the report's times give them
    (per_rank: each rank's wall_s and mpi_s over the same set)."""
    dev = pop.get("device")
    if not check(dev is not None, "%s: pop has a device member (%s)" % (where, pop)):
        return
    print("%s: device POP %s" % (where, dev))
    for key, value in want.items():
        ok = dev.get(key) == value if not isinstance(value, float) else close(dev.get(key), value)
        check(ok, "%s: device %s %s, want %s" % (where, key, dev.get(key), value))
    host = sum(r["wall_s"] - r["mpi_s"] for r in per_rank)
    check(close(dev["runtime_s"], runtime_s, 1e-9),
          "%s: runtime_s %s, want %s" % (where, dev["runtime_s"], runtime_s))
    check(close(dev["offload_efficiency"], (host - runtime_s) / host),
          "%s: offload %s, want (%.9f - %.9f) / %.9f"
          % (where, dev["offload_efficiency"], host, runtime_s, host))
    if dev["gpus"]:
        T = pop["runtime_s"]
        check(close(dev["orchestration_efficiency"], dev["active_max_s"] / T),
              "%s: orchestration %s, want %.9f / %.9f" % (where, dev["orchestration_efficiency"],
                                                          dev["active_max_s"], T))
        check(close(dev["parallel_efficiency"], dev["useful_sum_s"] / (dev["gpus"] * T)),
              "%s: device parallel %s" % (where, dev["parallel_efficiency"]))


def check_pops(rep):
    ws = rep["wait_states"]
    exact = {"gpus": 2, "load_balance": 0.75, "communication_efficiency": round(5000 / 6200, 6),
             "useful_max_s": 5e-6, "active_max_s": 6.2e-6}
    check_device("run", ws["pop"], ws["ranks"], 2.1e-6, dict(exact, useful_sum_s=7.5e-6))
    kern = {g["name"]: g for g in ws["regions"]}.get("kern", {})
    check_device("region kern", kern.get("pop", {}), kern.get("per_rank", []), 1.4e-6,
                 dict(exact, load_balance=1.0, useful_sum_s=5e-6, useful_max_s=2.5e-6,
                      active_max_s=3.1e-6))
    # papi_report's mpi_pop table: the device factors beside the MPI ones
    rows = {r["scope"]: r for r in waits.mpi_pop(rep).to_dict("records")}
    got = {s: (r["device_load_balance"], r["device_communication_efficiency"])
           for s, r in rows.items()}
    check(got == {"run": (0.75, 0.806452), "region kern": (1.0, 0.806452)},
          "papi_report's mpi_pop: device load balance and communication %s" % got)


def check_tables(rep):
    """papi_report's GPU tables (tables/gpu.py): the kernel table of the run and of region
    kern over the 2 ranks, min (rank) and max (rank) exact; the per-rank figures."""
    ns = lambda s: round(s * 1e9)  # noqa: E731
    got = {(r["scope"], r["kernel"]): (r["ranks"], r["launches"], ns(r["total_s"]), r["rank_min"],
                                       ns(r["rank_min_s"]), r["rank_max"], ns(r["rank_max_s"]))
           for r in gpu.mpi_gpu_kernels(rep).to_dict("records")}
    want = {("run", "square(float*, int)"): (2, 9, 8100, 0, 2700, 1, 5400),
            ("run", "plain_kernel"): (2, 3, 900, 0, 300, 1, 600),
            ("region kern", "square(float*, int)"): (2, 6, 5400, 0, 2700, 0, 2700),
            ("region kern", "plain_kernel"): (2, 2, 600, 0, 300, 0, 300)}
    check(got == want, "papi_report's mpi_gpu_kernels %s, want %s" % (got, want))
    got = {(r["scope"], r["rank"]): (ns(r["busy_s"]), r["kernel_launches"], r["copy_bytes"],
                                     ns(r["sync_s"]))
           for r in gpu.mpi_gpu_ranks(rep).to_dict("records")}
    want = {("run", 0): (2500, 4, 5096, 700), ("run", 1): (5000, 8, 10192, 1400),
            ("region kern", 0): (2500, 4, 5096, 700), ("region kern", 1): (2500, 4, 5096, 700)}
    check(got == want, "papi_report's mpi_gpu_ranks %s, want %s" % (got, want))
    # the kernel figure: drawn from these tables, its reason without GPU activity
    from papi_report.figures import gpu_figures
    fig = gpu_figures.gpu_kernels({"mpi_gpu_kernels": gpu.mpi_gpu_kernels(rep)})
    check(hasattr(fig, "savefig") and len(fig.axes[0].patches) == 2,
          "papi_report's gpu-kernels figure: a bar per kernel (%r)" % (fig,))
    none = gpu_figures.gpu_kernels({"mpi_gpu_kernels": gpu.mpi_gpu_kernels({"ranks": []})})
    check(none == "no GPU kernels in the inputs", "no GPU activity: the figure says %r" % none)


def check_half(rep):
    ws = rep["wait_states"]
    half = {g["name"]: g for g in ws["regions"]}.get("half", {})
    nulls = {k: None for k in ("parallel_efficiency", "load_balance", "communication_efficiency",
                               "orchestration_efficiency")}
    check_device("region half", half.get("pop", {}), half.get("per_rank", []), 1.0,
                 dict(nulls, gpus=0))
    off = half.get("pop", {}).get("device", {}).get("offload_efficiency")
    check(close(off, 0.5, 1e-2), "region half: device offload efficiency %s, want 0.5" % off)


def check_region(where, rank, sec):
    """Region "kern": one launch of the records, whatever the rank."""
    sec = sec or {}
    devices = {d["device"]: d["busy_ns"] for d in sec.get("devices", [])}
    kernels = {(x["name"], x["device"]): (x["launches"], x["total_ns"]) for x in sec.get("kernels", [])}
    copies = {d: (v["count"], v["bytes"]) for d, v in sec.get("copies", {}).items()}
    check(devices == {0: 2200, 1: 300} and kernels == {("square(float*, int)", 0): (3, 2700),
                                                       ("plain_kernel", 1): (1, 300)}
          and copies == {"HtoD": (1, 4096), "DtoH": (1, 1000)}
          and sec.get("sync") == {"count": 1, "ns": 700} and "launched" not in sec,
          "%s: rank %d: region kern's GPU section exact (%s, %s, %s)"
          % (where, rank, devices, kernels, copies))


def check_rank(where, rank, gpu, late=0):
    k = rank + 1 + late  # its launches: late ones after its last MPI call (--checkpoint)
    act = (gpu or {}).get("activity", {})
    check(act.get("on") is True and act.get("reason") == "" and act.get("records") == 7 * k,
          "%s: rank %d: GPU activity on, %d records (%s)" % (where, rank, 7 * k, act))
    tot = (gpu or {}).get("total", {})
    devices = {d["device"]: d["busy_ns"] for d in tot.get("devices", [])}
    check(devices == {0: 2200 * k, 1: 300 * k},
          "%s: rank %d: busy per device %s, want %s" % (where, rank, devices, {0: 2200 * k, 1: 300 * k}))
    kernels = {(x["name"], x["device"]): (x["launches"], x["total_ns"]) for x in tot.get("kernels", [])}
    want = {("square(float*, int)", 0): (3 * k, 2700 * k), ("plain_kernel", 1): (k, 300 * k)}
    check(kernels == want, "%s: rank %d: kernels %s, want %s" % (where, rank, kernels, want))
    copies = {d: (v["count"], v["bytes"]) for d, v in tot.get("copies", {}).items()}
    check(copies == {"HtoD": (k, 4096 * k), "DtoH": (k, 1000 * k)},
          "%s: rank %d: copies %s" % (where, rank, copies))
    check(tot.get("sync") == {"count": k, "ns": 700 * k},
          "%s: rank %d: sync %s" % (where, rank, tot.get("sync")))


def compare_kernels(d):
    """Two runs, the second's kernels 4 times as long, compared by kernel."""
    from papi_report.page import compare
    slow = os.path.join(d, "slow.txt")
    cupti_records.slower(args.records, slow, 4)
    reports = []
    for side, records in (("a", args.records), ("b", slow)):
        out = os.path.join(d, side)
        os.mkdir(out)
        env = {"LD_LIBRARY_PATH": args.cupti, "PAPI_MPI_OUTPUT_DIR": out}
        p = run_ranks(args.mpirun, args.np, env, [args.program, records])
        check(p.returncode == 0, "run %s: exit 0" % side)
        reports.append(os.path.join(out, "papi_mpi_report.json"))
    if not all(check(os.path.exists(r), "%s written" % r) for r in reports):
        return
    df = compare.compare(reports[0], reports[1])
    got = {(r["entity"], r["quantity"]): (round(r["ratio"], 6), r["verdict"])
           for r in df[df["scope"] == "kernel"].to_dict("records")}
    want = {}
    for k in ("square(float*, int)", "plain_kernel"):
        for ent in (k, k + " @ kern"):
            want[(ent, "kernel_s")] = (4.0, "slower")
            want[(ent, "launches")] = (1.0, "same")
    print("kernel rows:", got)
    check(got == want, "--compare by kernel %s, want %s" % (got, want))


with tempfile.TemporaryDirectory() as d:
    if args.compare:
        compare_kernels(d)
        sys.exit(verdict())
    env = {"LD_LIBRARY_PATH": args.cupti, "PAPI_MPI_OUTPUT_DIR": d}
    argv = [args.program, args.half or args.records]
    if args.half:
        argv.append("half")
    otf2_print = shutil.which("otf2-print")
    if args.checkpoint:
        env["PAPI_MPI_CHECKPOINT"] = "0.5"
        argv.append("checkpoint")
        if otf2_print:
            env["PAPI_MPI_TRACE"] = "otf2"
    p = run_ranks(args.mpirun, args.np, env, argv)
    if args.checkpoint:
        wait_ranks_gone(d)
        # a rank's _exit can fall between a checkpoint's two steps (its snapshot moved to
        # .prev, the new one not yet linked): that rank's snapshot is then .prev, as
        # papi_mpi_collect reads it
        rows = []
        for r in range(args.np):
            base = os.path.join(d, "papi_mpi_rank%d.checkpoint" % r)
            rows += [p for p in (base + ".json", base + ".prev.json") if os.path.exists(p)][:1]
        check(len(rows) == args.np, "%d checkpoint rows, want %d" % (len(rows), args.np))
        for path in rows:
            bad = schema_check.check_file(path)
            check(bad is None, "%s follows mpi_row.schema.json: %s" % (path, bad))
            with open(path) as f:
                row = json.load(f)
            check_rank("checkpoint", row["rank"], row.get("gpu"), late=1)
            check_region("checkpoint", row["rank"], row.get("regions", {}).get("kern", {}).get("gpu"))
        for r in range(args.np) if otf2_print else ():
            anchor = os.path.join(d, "papi_mpi_trace.rank%d.checkpoint" % r, "traces.otf2")
            defs = subprocess.run([otf2_print, "-G", anchor], capture_output=True,
                                  text=True).stdout
            locs = {m.group(1): int(m.group(2)) for m in re.finditer(
                r'Name: "rank \d+ (GPU [^"]*)" <\d+>, Type: ACCELERATOR_STREAM, # Events: (\d+)',
                defs)}
            want = {"GPU 0 stream 7": 10 * (r + 2), "GPU 1 stream 2": 2 * (r + 2)}
            check(locs == want, "rank %d's checkpoint archive: GPU locations %s, want %s"
                  % (r, locs, want))
        sys.exit(verdict())
    check(p.returncode == 0, "-np %d: exit 0" % args.np)
    rep = job_report(d)
    if rep is None:
        sys.exit(verdict())
    if args.half:
        check_half(rep)
        sys.exit(verdict())
    check_pops(rep)
    check_tables(rep)
    ranks = sorted(rep["ranks"], key=lambda r: r["rank"])
    check(len(ranks) == args.np, "%d rank rows" % len(ranks))
    for r in ranks:
        check_rank("MPI_Finalize", r["rank"], r.get("gpu"))
        check_region("MPI_Finalize", r["rank"], r.get("regions", {}).get("kern", {}).get("gpu"))
sys.exit(verdict())
