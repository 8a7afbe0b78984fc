"""papi_report.energy: CPU energy and mean power per region and per rank, from the powercap
component's sums (powercap:::ENERGY_UJ:TOTAL, :PACKAGE, :CORE, :UNCORE, :DRAM, :PSYS, in
microjoules) counted by the region API or the MPI wrapper, else from the energy metrics
(CPU_ENERGY ..., in joules). Energy is the socket's (the node's), whoever spent it.

The rule of the total (the component's, src-c/lib/components/powercap/README.md): CPU
energy is the top-level powercap zones only (the packages; psys alone where there is one),
never a package plus its own subzones; core and uncore are parts of the package, DRAM is
shown beside and never added. Per rank, a socket's energy read once and shared by the N
ranks on it is marked "shared by N ranks" (the memory-bandwidth rule of the MPI report)."""
import math

import pandas as pd

from . import registry

PREFIX = "powercap:::ENERGY_UJ:"
KINDS = [("TOTAL", "energy_j", "CPU_ENERGY"), ("PACKAGE", "package_j", "PKG_ENERGY"),
         ("CORE", "core_j", "CORE_ENERGY"), ("UNCORE", "uncore_j", "UNCORE_ENERGY"),
         ("DRAM", "dram_j", "DRAM_ENERGY"), ("PSYS", "psys_j", "PSYS_ENERGY")]
RULE = ("energy_j: the top-level powercap zones only (packages, or psys alone where there is "
        "one), never a package plus its own subzones; DRAM beside, never added")
REGION_COLUMNS = (["rank", "thread", "region", "path", "real_time_s"] + [c for _, c, _ in KINDS]
                  + ["power_w", "rule"])
RANK_COLUMNS = ["rank", "wall_s"] + [c for _, c, _ in KINDS] + ["power_w", "shared_by", "rule"]


def _num(v):
    return None if v is None or (isinstance(v, float) and math.isnan(v)) else float(v)


def _power(joules, seconds):
    return joules / seconds if joules is not None and seconds else None


def region_energy(t):
    """One row per rank, thread and region (summed over its instances) with energy: J of
    each kind, the region's real time and mean power (energy_j over it). t: the tables."""
    tot, met = t.get("region_totals"), t.get("region_metrics")
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
        if all(row[c] is None for _, c, _ in KINDS):
            continue
        row["power_w"] = _power(row["energy_j"], row["real_time_s"])
        row["rule"] = RULE
        rows.append(row)
    return pd.DataFrame(rows, columns=REGION_COLUMNS)


def rank_energy(t):
    """One row per rank of an MPI report with energy: J of each kind from the rank's
    counters (or its energy metrics), the rank's wall time, mean power, and how many ranks
    share the figure (1: the rank's own reading)."""
    ranks, ctr, met = t.get("mpi_ranks"), t.get("mpi_counters"), t.get("mpi_rank_metrics")
    if ranks is None or not len(ranks):
        return pd.DataFrame(columns=RANK_COLUMNS)
    counters, metrics, shared = {}, {}, {}
    for r in ([] if ctr is None else ctr.to_dict("records")):
        counters[(int(r["rank"]), r["counter"])] = _num(r["value"])
    for r in ([] if met is None else met.to_dict("records")):
        metrics[(int(r["rank"]), r["metric"])] = _num(r["value"])
        if r["metric"] == "CPU_ENERGY":
            shared[int(r["rank"])] = int(r.get("shared_by") or 1)
    rows = []
    for r in ranks.to_dict("records"):
        rank = int(r["rank"])
        row = {"rank": rank, "wall_s": _num(r.get("wall_s"))}
        for kind, col, metric in KINDS:
            uj = counters.get((rank, PREFIX + kind))
            row[col] = uj / 1e6 if uj is not None else metrics.get((rank, metric))
        if all(row[c] is None for _, c, _ in KINDS):
            continue
        row["power_w"] = _power(row["energy_j"], row["wall_s"])
        row["shared_by"] = shared.get(rank, 1)
        row["rule"] = RULE + ("; a socket's energy shared by %d ranks" % row["shared_by"]
                              if row["shared_by"] > 1 else "")
        rows.append(row)
    return pd.DataFrame(rows, columns=RANK_COLUMNS)


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
    """What the page and the text show: the rule is in the heading, not on every row."""
    return df.drop(columns=["rule"]).fillna("")


registry.table("derived", "region_energy")(lambda t, _docs, _peaks: region_energy(t))
registry.table("derived", "rank_energy")(lambda t, _docs, _peaks: rank_energy(t))
registry.view("region_energy", "CPU energy and mean power per region and thread (J, W; " + RULE + ")",
              60, table_view)
registry.view("rank_energy", "CPU energy and mean power per rank (J, W over the rank's wall time)",
              64, table_view)


def pair_text(a, b):
    """'1.5 / 2.25' of a compare row's energies (J), '-' for a side without one."""
    f = [("%.4g" % v) if v is not None and not (isinstance(v, float) and math.isnan(v)) else "-"
         for v in (a, b)]
    return "" if f == ["-", "-"] else "%s / %s" % tuple(f)
