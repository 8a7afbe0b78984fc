"""papi_report.tables.gpu: the GPU activity (issue 59: CUPTI's kernels through the
project's GPU activity layer, src-c/gpu_activity) as tables: the kernel table of the run
and of each MPI_Pcontrol region from the MPI report's rank rows ("gpu", each region's
"gpu"), and of each named region from the region files ("gpu_regions"): per kernel name
its launches, total and mean time, and its time per rank over the ranks, min (rank),
mean, max (rank), over the ranks whose GPUs ran it; and the region files' host/device POP
factors, the whole run's ("gpu_run_pop") and each region's ("gpu_pop"), per rank. The
figures are the layer's, only summed and laid out; and papi_run --gpu's per-process files
(gpu_activity_RUNID_PID.json) as the run_gpu_* tables: per process its kernels, what its
GPUs did, and its whole run's host/device POP factors (run_pop); with papi_run
--gpu-counters, the GPU's own counters per kernel (the files' kernel_counters) as
gpu_kernel_counters. Files without GPU activity give empty tables. Needs pandas only."""
import pandas as pd

from ..load import registry

KERNEL_COLUMNS = ["scope", "kernel", "ranks", "launches", "total_s", "mean_s", "rank_min_s",
                  "rank_min", "rank_mean_s", "rank_max_s", "rank_max"]
RANK_KERNEL_COLUMNS = ["scope", "rank", "kernel", "launches", "total_s"]
POP_FACTORS = ["offload_efficiency", "parallel_efficiency", "load_balance",
               "communication_efficiency", "orchestration_efficiency"]
POP_COLUMNS = (["scope", "rank", "thread", "wall_s", "gpus", "runtime_s", "useful_sum_s",
                "useful_max_s", "active_max_s"] + POP_FACTORS)
BUSY_COLUMNS = ["scope", "rank", "busy_s", "kernel_launches", "kernel_s", "copy_bytes",
                "copy_s", "memset_bytes", "sync_s", "dropped"]
RUN_KERNEL_COLUMNS = ["pid", "kernel", "launches", "total_s", "mean_s"]
RUN_BUSY_COLUMNS = ["pid"] + BUSY_COLUMNS[2:]
RUN_POP_COLUMNS = ["pid", "wall_s"] + POP_COLUMNS[4:]
KERNEL_COUNTER_COLUMNS = ["pid", "device", "kernel", "metric", "launches", "sum", "per_launch"]


def _per_kernel(section):
    """{kernel name: (launches, ns)} of one section, devices and streams summed."""
    out = {}
    for k in (section or {}).get("kernels", []):
        n, ns = out.get(k["name"], (0, 0))
        out[k["name"]] = (n + k["launches"], ns + k["total_ns"])
    return out


def _kernel_rows(scope, by_rank):
    """One row per kernel of a scope; by_rank: {rank: {kernel: (launches, ns)}}."""
    names = {}
    for rank, kernels in by_rank.items():
        for name, v in kernels.items():
            names.setdefault(name, {})[rank] = v
    rows = []
    for name, ranks in names.items():
        launches = sum(v[0] for v in ranks.values())
        ns = sum(v[1] for v in ranks.values())
        lo = min(ranks, key=lambda r: (ranks[r][1], r))
        hi = max(ranks, key=lambda r: (ranks[r][1], -r))
        rows.append({"scope": scope, "kernel": name, "ranks": len(ranks), "launches": launches,
                     "total_s": ns * 1e-9, "mean_s": ns * 1e-9 / launches if launches else None,
                     "rank_min_s": ranks[lo][1] * 1e-9, "rank_min": lo,
                     "rank_mean_s": ns * 1e-9 / len(ranks), "rank_max_s": ranks[hi][1] * 1e-9,
                     "rank_max": hi})
    rows.sort(key=lambda r: -r["total_s"])
    return rows


def _frame(rows, columns, ints):
    df = pd.DataFrame(rows, columns=columns)
    for c in ints:
        df[c] = df[c].astype("Int64")
    return df


def _mpi_sections(rep):
    """(scope, {rank: section}): the run's, then each MPI_Pcontrol region's."""
    run, regions = {}, {}
    for row in rep.get("ranks", []):
        gpu = row.get("gpu") or {}
        if gpu.get("total"):
            run[row["rank"]] = gpu["total"]
        for name, g in (row.get("regions") or {}).items():
            if isinstance(g, dict) and g.get("gpu"):
                regions.setdefault(name, {})[row["rank"]] = g["gpu"]
    return [("run", run)] + [("region " + n, s) for n, s in regions.items()]


def mpi_gpu_kernels(rep):
    """The kernel table of the run and of each MPI_Pcontrol region, over the ranks."""
    rows = []
    for scope, sections in _mpi_sections(rep):
        rows += _kernel_rows(scope, {r: _per_kernel(s) for r, s in sections.items()})
    return _frame(rows, KERNEL_COLUMNS, ["ranks", "launches", "rank_min", "rank_max"])


def _busy(s):
    """What a section's GPUs did: busy time, kernels, bytes copied, memsets, synchronisation."""
    copies = (s.get("copies") or {}).values()
    return {"busy_s": s["busy_ns"] * 1e-9, "kernel_launches": s["kernel_launches"],
            "kernel_s": s["kernel_ns"] * 1e-9, "copy_bytes": sum(c.get("bytes", 0) for c in copies),
            "copy_s": sum(c["ns"] for c in copies) * 1e-9,
            "memset_bytes": s["memset"].get("bytes", 0), "sync_s": s["sync"]["ns"] * 1e-9,
            "dropped": s["dropped"]}


def mpi_gpu_ranks(rep):
    """Per scope and rank: GPU busy time, kernels, bytes copied, memsets, synchronisation."""
    rows = [dict(_busy(s), scope=scope, rank=rank) for scope, sections in _mpi_sections(rep)
            for rank, s in sorted(sections.items())]
    return _frame(rows, BUSY_COLUMNS, ["rank", "kernel_launches", "copy_bytes", "memset_bytes",
                                       "dropped"])


def run_gpu_kernels(procs):
    """papi_run --gpu: per process (its file) and kernel, devices and streams summed: its
    launches, total and mean time."""
    rows = [{"pid": doc["pid"], "kernel": k, "launches": n, "total_s": ns * 1e-9,
             "mean_s": ns * 1e-9 / n if n else None}
            for _, doc in procs for k, (n, ns) in _per_kernel(doc["gpu"]["total"]).items()]
    rows.sort(key=lambda r: (r["pid"], -r["total_s"]))
    return _frame(rows, RUN_KERNEL_COLUMNS, ["pid", "launches"])


def run_gpu_processes(procs):
    """papi_run --gpu: per process, what its GPUs did over its whole run."""
    rows = [dict(_busy(doc["gpu"]["total"]), pid=doc["pid"]) for _, doc in procs]
    return _frame(rows, RUN_BUSY_COLUMNS, ["pid", "kernel_launches", "copy_bytes", "memset_bytes",
                                           "dropped"])


def run_gpu_pop(procs):
    """papi_run --gpu: per process, the host/device POP factors of its whole run (run_pop:
    from the program's start to its exit, wall_s its host time), as its file has them
    (null factors: not formed); a process whose layer did not record has no row."""
    rows = [dict(doc["run_pop"]["pop"], pid=doc["pid"], wall_s=doc["run_pop"]["wall_s"])
            for _, doc in procs if doc.get("run_pop")]
    return _frame(rows, RUN_POP_COLUMNS, ["pid", "gpus"])


def gpu_kernel_counters(procs):
    """papi_run --gpu-counters: per process, device, kernel name (a device's in the order of
    their first launch) and metric, its launches, the metric's sum over them and the sum
    per launch."""
    rows = [{"pid": doc["pid"], "device": k["device"], "kernel": k["kernel"], "metric": m,
             "launches": k["launches"],
             "sum": k["sums"].get(m), "per_launch": k["sums"].get(m) / k["launches"]
             if k["sums"].get(m) is not None else None}
            for _, doc in procs for k in (doc.get("kernel_counters") or {}).get("kernels", [])
            for m in doc["kernel_counters"]["metrics"]]
    return _frame(rows, KERNEL_COUNTER_COLUMNS, ["pid", "device", "launches"])


def region_gpu_kernels(files):
    """The kernel table of each named region (the region API's gpu_regions), its threads
    summed within a rank, over the ranks (a file without a rank is rank 0)."""
    rows = []
    for name, by_rank in _region_kernels(files).items():
        rows += _kernel_rows("region " + name, by_rank)
    return _frame(rows, KERNEL_COLUMNS, ["ranks", "launches", "rank_min", "rank_max"])


def _rank_kernel_rows(scopes):
    """One row per scope, rank and kernel; scopes: [(scope, {rank: {kernel: (n, ns)}})]."""
    return [{"scope": scope, "rank": rank, "kernel": k, "launches": n, "total_s": ns * 1e-9}
            for scope, by_rank in scopes for rank, kernels in sorted(by_rank.items())
            for k, (n, ns) in kernels.items()]


def mpi_gpu_kernel_ranks(rep):
    """Per scope (the run, each MPI_Pcontrol region), rank and kernel: launches and time
    (what --compare judges by kernel, the ranks its units)."""
    scopes = [(scope, {r: _per_kernel(s) for r, s in sections.items()})
              for scope, sections in _mpi_sections(rep)]
    return _frame(_rank_kernel_rows(scopes), RANK_KERNEL_COLUMNS, ["rank", "launches"])


def _region_kernels(files):
    """{region name: {rank: {kernel: (launches, ns)}}} of region files, threads summed."""
    by_region = {}
    for rank, doc in files:
        for regions in (doc.get("gpu_regions") or {}).values():
            for name, section in regions.items():
                mine = by_region.setdefault(name, {}).setdefault(rank or 0, {})
                for k, (n, ns) in _per_kernel(section).items():
                    a, b = mine.get(k, (0, 0))
                    mine[k] = (a + n, b + ns)
    return by_region


def region_gpu_kernel_ranks(files):
    """Per named region, rank and kernel: launches and time (threads summed)."""
    scopes = [("region " + n, by_rank) for n, by_rank in _region_kernels(files).items()]
    return _frame(_rank_kernel_rows(scopes), RANK_KERNEL_COLUMNS, ["rank", "launches"])


def region_gpu_pop(files):
    """Per region file (rank): the whole run's host/device POP factors (gpu_run_pop: from
    the GPU layer's start to the file's writing, wall_s its host time), then each region's
    per thread (gpu_pop: its wall time summed over its instances), as the file has them
    (null factors: not formed)."""
    rows = []
    for rank, doc in files:
        run = doc.get("gpu_run_pop")
        if run:
            rows.append(dict(run["pop"], scope="run", rank=rank or 0, thread=None,
                             wall_s=run["wall_s"]))
        for thread, regions in sorted((doc.get("gpu_pop") or {}).items()):
            for name, pop in regions.items():
                rows.append(dict(pop, scope="region " + name, rank=rank or 0, thread=int(thread),
                                 wall_s=None))
    return _frame(rows, POP_COLUMNS, ["rank", "thread", "gpus"])


registry.table("mpi")(mpi_gpu_kernels)
registry.table("mpi")(mpi_gpu_kernel_ranks)
registry.table("regions")(region_gpu_kernel_ranks)
registry.table("mpi")(mpi_gpu_ranks)
registry.table("regions")(region_gpu_kernels)
registry.table("regions")(region_gpu_pop)
registry.table("gpu")(run_gpu_kernels)
registry.table("gpu")(run_gpu_processes)
registry.table("gpu")(run_gpu_pop)
registry.table("gpu")(gpu_kernel_counters)
registry.view("run_gpu_kernels", "GPU kernels per process (papi_run --gpu)", 40)
registry.view("run_gpu_processes", "GPU activity per process (papi_run --gpu)", 64)
registry.view("run_gpu_pop", "Host/device POP per process over its whole run (papi_run --gpu)", 40)
registry.view("gpu_kernel_counters", "GPU counters per kernel and metric (papi_run "
              "--gpu-counters: launches, sum, per launch)", 40)
registry.view("mpi_gpu_kernels", "GPU kernels (run, and each MPI_Pcontrol region; time per "
              "rank min (rank), mean, max (rank))", 40)
registry.view("mpi_gpu_ranks", "GPU activity per rank (run, and each MPI_Pcontrol region)", 64)
registry.view("region_gpu_kernels", "GPU kernels per named region (time per rank min (rank), "
              "mean, max (rank))", 40)
registry.view("region_gpu_pop", "Host/device POP per process (the whole run, and each named "
              "region)", 40)
