"""papi_report.tables.energy: CPU energy and mean power per region and per rank, from the powercap
component's sums (powercap:::ENERGY_UJ:TOTAL, :PACKAGE, :CORE, :UNCORE, :DRAM, :PSYS, in
microjoules) counted by the region API or the MPI wrapper, else from the energy metrics
(CPU_ENERGY ..., in joules). Energy is the socket's (the node's), whoever spent it.

The rule of the total (the component's, src-c/lib/components/powercap/README.md): CPU
energy is the top-level powercap zones only (the packages; psys alone where there is one),
never a package plus its own subzones; core and uncore are parts of the package, DRAM is
shown beside and never added. Per rank, a socket's energy read once and shared by the N
ranks on it is marked "shared by N ranks" (the memory-bandwidth rule of the MPI report).

GPU energy beside it (gpu_j, gpu_w): the device-level energy events (device_events.py:
nvml's total_energy_consumption in mJ, rocm_smi's energy_count in uJ) in J, each device
counted once and summed over the node's devices, and its mean power over the same time."""
import math

import pandas as pd

from ..load import device_events, registry
from .tables import ALL_THREADS
from ..load.units import readable

PREFIX = "powercap:::ENERGY_UJ:"
KINDS = [("TOTAL", "energy_j", "CPU_ENERGY"), ("PACKAGE", "package_j", "PKG_ENERGY"),
         ("CORE", "core_j", "CORE_ENERGY"), ("UNCORE", "uncore_j", "UNCORE_ENERGY"),
         ("DRAM", "dram_j", "DRAM_ENERGY"), ("PSYS", "psys_j", "PSYS_ENERGY")]
RULE = ("energy_j: the top-level powercap zones only (packages, or psys alone where there is "
        "one), never a package plus its own subzones; DRAM beside, never added")
GPU_RULE = "gpu_j: every GPU's board energy (nvml, rocm_smi) once, summed over the devices"
REGION_COLUMNS = (["rank", "thread", "region", "path", "real_time_s"] + [c for _, c, _ in KINDS]
                  + ["power_w", "gpu_j", "gpu_w", "rule"])
RANK_COLUMNS = (["rank", "wall_s"] + [c for _, c, _ in KINDS] + ["power_w", "shared_by", "gpu_j",
                                                                  "gpu_w", "gpu_shared_by", "rule"])


def _num(v):
    return None if v is None or (isinstance(v, float) and math.isnan(v)) else float(v)


def _power(joules, seconds):
    return joules / seconds if joules is not None and seconds else None


def _definitions(docs):
    """Every region file's event_definitions in one dict (the device marker, the units)."""
    out = {}
    for _label, d in docs or []:
        if isinstance(d, dict) and isinstance(d.get("event_definitions"), dict):
            for k, v in d["event_definitions"].items():
                out.setdefault(k, v)
    return out


def gpu_energy_events(names, definitions=None):
    """{event: factor to J} of the device energy events among names."""
    out = {}
    for n in names:
        if device_events.kind(n, definitions) == "energy":
            unit, factor = readable(device_events.native_unit(n, definitions))
            if unit == "J":
                out[n] = factor
    return out


def _gpu_joules(values, events):
    """The devices' joules summed (values: {event: count}); None when none has a value.
    An event's own value, else its all-thread one: a device's is the same for both."""
    total = None
    for ev, factor in events.items():
        v = _num(values.get(ev))
        if v is None:
            v = _num(values.get(ev + ALL_THREADS))
        if v is not None:
            total = (total or 0.0) + v * factor
    return total


def region_energy(t, docs=None):
    """One row per rank, thread and region (summed over its instances) with energy: J of
    each kind, the region's real time and mean power (energy_j over it), and the GPUs'
    energy and mean power (gpu_j, gpu_w). t: the tables; docs: the loaded region files."""
    tot, met = t.get("region_totals"), t.get("region_metrics")
    gpu = gpu_energy_events([] if tot is None else
                            [c for c in tot.columns if not c.endswith(ALL_THREADS)], _definitions(docs))
    by_metric = {}
    if met is not None and len(met):
        for r in met.to_dict("records"):
            by_metric[(r["rank"], r["thread"], r["region"], r["metric"])] = _num(r["value"])
    rows = []
    for r in ([] if tot is None else tot.to_dict("records")):
        key = (r["rank"], r["thread"], r["name"])
        row = {"rank": r["rank"], "thread": r["thread"], "region": r["name"], "path": r["path"],
               "real_time_s": _num(r.get("real_time_nsec"))}
        if row["real_time_s"] is not None:
            row["real_time_s"] /= 1e9
        for kind, col, metric in KINDS:
            uj = _num(r.get(PREFIX + kind))
            row[col] = uj / 1e6 if uj is not None else by_metric.get(key + (metric,))
        row["gpu_j"] = _gpu_joules(r, gpu)
        if all(row[c] is None for _, c, _ in KINDS) and row["gpu_j"] is None:
            continue
        row["power_w"] = _power(row["energy_j"], row["real_time_s"])
        row["gpu_w"] = _power(row["gpu_j"], row["real_time_s"])
        row["rule"] = "; ".join(([RULE] if row["energy_j"] is not None else []) +
                                ([GPU_RULE] if row["gpu_j"] is not None else []))
        rows.append(row)
    return pd.DataFrame(rows, columns=REGION_COLUMNS)


def rank_energy(t):
    """One row per rank of an MPI report with energy: J of each kind from the rank's
    counters (or its energy metrics), the rank's wall time, mean power, and how many ranks
    share the figure (1: the rank's own reading)."""
    ranks, ctr, met = t.get("mpi_ranks"), t.get("mpi_counters"), t.get("mpi_rank_metrics")
    if ranks is None or not len(ranks):
        return pd.DataFrame(columns=RANK_COLUMNS)
    # Only the energy rows are looked at, and the ranks only when there are some: a job
    # of 10^5 ranks without energy events builds nothing per rank here (a dict per
    # counter row was ~80 MB of papi_report's peak for two counters a rank).
    gpu = gpu_energy_events([] if ctr is None else list(dict.fromkeys(ctr["counter"])))
    wanted = set(PREFIX + kind for kind, _, _ in KINDS) | set(gpu)
    if ctr is not None and len(ctr):
        ctr = ctr[ctr["counter"].isin(wanted)]
    if met is not None and len(met):
        met = met[met["metric"].isin(set(m for _, _, m in KINDS))]
    some = (ctr is not None and len(ctr)) or (met is not None and len(met))
    counters, metrics, shared, per_rank = {}, {}, {}, {}
    for r in ([] if ctr is None else ctr.to_dict("records")):
        counters[(int(r["rank"]), r["counter"])] = _num(r["value"])
        per_rank.setdefault(int(r["rank"]), {})[r["counter"]] = r["value"]
    gpu_shared = _gpu_shared_by(t.get("mpi_region_energy_ranks"), gpu)
    for r in ([] if met is None else met.to_dict("records")):
        metrics[(int(r["rank"]), r["metric"])] = _num(r["value"])
        if r["metric"] == "CPU_ENERGY":
            shared[int(r["rank"])] = int(r.get("shared_by") or 1)
    rows = []
    for rank, wall in zip(ranks["rank"], ranks["wall_s"]) if some else ():
        rank = int(rank)
        row = {"rank": rank, "wall_s": _num(wall)}
        for kind, col, metric in KINDS:
            uj = counters.get((rank, PREFIX + kind))
            row[col] = uj / 1e6 if uj is not None else metrics.get((rank, metric))
        row["gpu_j"] = _gpu_joules(per_rank.get(rank, {}), gpu)
        if all(row[c] is None for _, c, _ in KINDS) and row["gpu_j"] is None:
            continue
        row["power_w"] = _power(row["energy_j"], row["wall_s"])
        row["shared_by"] = shared.get(rank, 1) if row["energy_j"] is not None else None
        row["gpu_w"] = _power(row["gpu_j"], row["wall_s"])
        row["gpu_shared_by"] = gpu_shared.get(rank) if row["gpu_j"] is not None else None
        rule = []
        if row["energy_j"] is not None:
            rule.append(RULE + ("; a socket's energy shared by %d ranks" % row["shared_by"]
                                if row["shared_by"] > 1 else ""))
        if row["gpu_j"] is not None:
            rule.append(GPU_RULE + ("; the node's GPUs shared by %d ranks" % row["gpu_shared_by"]
                                    if (row["gpu_shared_by"] or 1) > 1 else ""))
        row["rule"] = "; ".join(rule)
        rows.append(row)
    df = pd.DataFrame(rows, columns=RANK_COLUMNS)
    for k in ("shared_by", "gpu_shared_by"):
        df[k] = df[k].astype("Int64")  # whole numbers, empty where not known
    return df


def _gpu_shared_by(region_ranks, gpu):
    """{rank: ranks of its node sharing its GPUs' figure}, from the MPI report's region
    energy (the wrapper's shared_by of a node-scope event); absent where not recorded."""
    out = {}
    if region_ranks is None or not len(region_ranks):
        return out
    for r in region_ranks.to_dict("records"):
        if r["event"] in gpu:
            out[int(r["rank"])] = max(out.get(int(r["rank"]), 1), int(r["shared_by"]))
    return out


def entity_energy(summary):
    """{(scope, entity): mean joules} of a compare side's summary ({(scope, entity,
    quantity): (unit, mean, cv, n)}): CPU_ENERGY, else powercap:::ENERGY_UJ:TOTAL in J."""
    out = {}
    for (scope, entity, q), (_unit, mean, _cv, _n) in summary.items():
        if q == PREFIX + "TOTAL" and (scope, entity) not in out:
            out[(scope, entity)] = mean / 1e6
    for (scope, entity, q), (_unit, mean, _cv, _n) in summary.items():
        if q == "CPU_ENERGY":
            out[(scope, entity)] = mean
    return out


def table_view(df, _tables=None):
    """What the page and the text show: the rule is in the heading, not on every row, and
    no column that is empty in every row (a GPU node without powercap, a CPU without GPU)."""
    return df.drop(columns=["rule"]).dropna(axis=1, how="all").fillna("")


MPI_REGION_RANK_COLUMNS = ["rank", "region", "event", "joules", "watts", "shared_by", "scope"]
MPI_REGION_COLUMNS = ["region", "event", "joules", "ranks", "scope", "rule"]


def mpi_region_energy_ranks(rep):
    """Energy per MPI_Pcontrol region and rank (the wrapper's regions[...].energy): the
    socket's (node device's) joules while the rank was in the region, its mean power, and
    the ranks sharing that figure."""
    rows = []
    for r in rep.get("ranks") or []:
        for name, g in (r.get("regions") or {}).items():
            for event, e in (g.get("energy") or {}).items():
                rows.append({"rank": int(r["rank"]), "region": str(name), "event": str(event),
                             "joules": _num(e.get("joules")), "watts": _num(e.get("watts")),
                             "shared_by": int(e.get("shared_by", 1)), "scope": str(e.get("scope", ""))})
    return pd.DataFrame(rows, columns=MPI_REGION_RANK_COLUMNS)


def mpi_region_energy(rep):
    """Energy per MPI_Pcontrol region over the job (the report's region_energy: every
    socket or device counted once, the rule in its column)."""
    re_ = rep.get("region_energy") or {}
    rows = [{"region": str(name), "event": str(event), "joules": _num(e.get("joules")),
             "ranks": int(e.get("ranks", 0)), "scope": str(e.get("scope", "")),
             "rule": str(re_.get("rule", ""))}
            for name, events in (re_.get("regions") or {}).items() for event, e in events.items()]
    return pd.DataFrame(rows, columns=MPI_REGION_COLUMNS)


registry.table("mpi")(mpi_region_energy)
registry.table("mpi")(mpi_region_energy_ranks)
registry.view("mpi_region_energy", "Energy per MPI_Pcontrol region over the job (J; each socket or "
              "GPU counted once: a rank adds its figure over the ranks of its socket in the region)",
              40, table_view)
registry.view("mpi_region_energy_ranks", "Energy per MPI_Pcontrol region and rank (J, W; the "
              "socket's or device's figure, shared_by ranks)", 80)


registry.table("derived", "region_energy")(lambda t, docs, _peaks: region_energy(t, docs))
registry.table("derived", "rank_energy")(lambda t, _docs, _peaks: rank_energy(t))
registry.view("region_energy", "CPU energy and mean power per region and thread, GPU energy and power "
              "beside (J, W; " +
              RULE + "; " + GPU_RULE + ")", 60, table_view)
registry.view("rank_energy", "CPU energy and mean power per rank, GPU energy and power beside (J, W over the rank's "
              "wall time; " + GPU_RULE + ")", 64, table_view)


def pair_text(a, b):
    """'1.5 / 2.25' of a compare row's energies (J), '-' for a side without one."""
    f = [("%.4g" % v) if v is not None and not (isinstance(v, float) and math.isnan(v)) else "-"
         for v in (a, b)]
    return "" if f == ["-", "-"] else "%s / %s" % tuple(f)
