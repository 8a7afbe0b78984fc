"""papi_report.tables.waits: the MPI report's wait states and POP efficiencies (issue 49) as
tables: why MPI time was lost per rank, per call site and per MPI_Pcontrol region, and
the POP efficiencies of the run and of each region. The figures are the wrapper's
(wait_states.c, wait_report.c), only laid out; a report without "wait_states" (an older
wrapper, or PAPI_MPI_WAITS=0) gives empty tables. Needs pandas only."""
import pandas as pd

from ..load import log_delays, mpi_rules, registry

#: The wait kinds, in the report's order (mpi-wrappers/wait_kinds.list).
KINDS = mpi_rules.REPORT_KEYS
POP_COLUMNS = ["scope", "ranks", "runtime_s", "parallel_efficiency", "load_balance",
               "communication_efficiency", "serialisation_efficiency", "transfer_efficiency",
               "useful_mean_s", "useful_max_s", "ideal_runtime_s"]
#: The host/device factors beside them (pop.device, DLB TALP's: src-c/common/pop_factors.h).
DEVICE_FACTORS = ["offload_efficiency", "parallel_efficiency", "load_balance",
                  "communication_efficiency", "orchestration_efficiency"]
POP_COLUMNS += ["device_" + k for k in DEVICE_FACTORS]
RANK_COLUMNS = ["rank", "wall_s", "mpi_s"] + KINDS + ["rest_s", "wait_pct_of_mpi"]
SITE_COLUMNS = ["call", "function", "file", "line", "ranks", "calls", "time_s"] + KINDS + \
    ["wait_s", "wait_pct_of_time"]
REGION_COLUMNS = ["region", "rank", "entries", "wall_s", "mpi_s"] + KINDS + ["rest_s"]
CLOCK_COLUMNS = ["ranks", "max_offset_s", "residual_s", "method"]


def _waits(rep):
    w = rep.get("wait_states")
    return w if isinstance(w, dict) and w.get("on") else None


def _pct(part, whole):
    return 100.0 * part / whole if whole > 0 else 0.0


def mpi_wait_ranks(rep):
    """Per rank: wall and MPI time, each wait state, the rest of MPI time and the waits'
    share of the MPI time."""
    w = _waits(rep)
    rows = []
    for r in (w or {}).get("ranks", []):
        row = {c: r.get(c, 0.0) for c in RANK_COLUMNS if c != "wait_pct_of_mpi"}
        row["wait_pct_of_mpi"] = _pct(sum(r.get(k, 0.0) for k in KINDS), r.get("mpi_s", 0.0))
        rows.append(row)
    return pd.DataFrame(rows, columns=RANK_COLUMNS)


def mpi_wait_sites(rep):
    """Per call site with a wait (all ranks): each wait state, their sum and its share of
    the site's time; most waiting first."""
    rows = []
    if _waits(rep):
        for s in rep.get("callsites", {}).get("top", []):
            ws = s.get("waits") or {}
            total = sum(ws.get(k, 0.0) for k in KINDS)
            if total <= 0:
                continue
            row = {c: s.get(c) for c in SITE_COLUMNS[:7]}
            row.update({k: ws.get(k, 0.0) for k in KINDS})
            row["wait_s"] = total
            row["wait_pct_of_time"] = _pct(total, s.get("time_s", 0.0))
            rows.append(row)
    df = pd.DataFrame(rows, columns=SITE_COLUMNS)
    return df.sort_values("wait_s", ascending=False, kind="stable").reset_index(drop=True)


def mpi_wait_regions(rep):
    """Per MPI_Pcontrol region and rank: the waits while the region was open."""
    rows = []
    for g in (_waits(rep) or {}).get("regions", []):
        for r in g.get("per_rank", []):
            row = {"region": g["name"]}
            row.update({c: r.get(c, 0.0) for c in REGION_COLUMNS[1:]})
            rows.append(row)
    df = pd.DataFrame(rows, columns=REGION_COLUMNS)
    df["rank"] = df["rank"].astype("Int64")
    df["entries"] = df["entries"].astype("Int64")
    return df


def mpi_wait_clock(rep):
    """The clocks behind the waits: the largest offset between a rank's clock and rank
    0's, and the residual error left after applying the offsets (half the shortest
    ping-pong round trip, summed along a rank's path to rank 0 in the tree the offsets
    are measured in; 0 for ranks sharing rank 0's boot): every wait and the
    timeline are known to +- residual_s."""
    w = _waits(rep)
    rows = []
    if w and isinstance(w.get("clock"), dict):
        c = w["clock"]
        rows.append({"ranks": len(w.get("ranks", [])), "max_offset_s": c.get("max_offset_s", 0.0),
                     "residual_s": c.get("residual_s", 0.0), "method": c.get("method", "")})
    df = pd.DataFrame(rows, columns=CLOCK_COLUMNS)
    df["ranks"] = df["ranks"].astype("Int64")
    return df


def _pop_row(pop, scope):
    """One row: the MPI factors, and the host/device ones where the report has them."""
    dev = pop.get("device") or {}
    row = {k: v for k, v in pop.items() if k != "device"}
    row.update({"device_" + k: dev.get(k) for k in DEVICE_FACTORS})
    return dict(row, scope=scope)


def mpi_pop(rep):
    """The POP efficiencies: the run's, then each region's (scope "region NAME"); the
    host/device factors empty where the run recorded no GPU activity."""
    w = _waits(rep)
    rows = []
    if w and w.get("pop"):
        rows.append(_pop_row(w["pop"], "run"))
        for g in w.get("regions", []):
            rows.append(_pop_row(g["pop"], "region " + g["name"]))
    df = pd.DataFrame(rows, columns=POP_COLUMNS)
    df["ranks"] = df["ranks"].astype("Int64")
    return df


def mpi_root_causes(rep):
    """The root causes the ranks computed at MPI_Finalize (the report's root_causes, the
    largest 20): the columns of a dead job's mpi_root_causes.csv (log_delays.py)."""
    rc = rep.get("root_causes")
    rows = rc.get("rows", []) if isinstance(rc, dict) and rc.get("computed") else []
    return pd.DataFrame(rows, columns=list(log_delays.COLUMNS))


def mpi_critical_path(rep):
    """The run's critical path the ranks found at MPI_Finalize (the report's critical_path,
    its 20 longest activities): a dead job's mpi_critical_path.csv columns."""
    cp = rep.get("critical_path")
    rows = cp.get("rows", []) if isinstance(cp, dict) else []
    return pd.DataFrame(rows, columns=list(log_delays.PATH_COLUMNS))


for _f in (mpi_pop, mpi_wait_ranks, mpi_wait_sites, mpi_wait_regions, mpi_wait_clock,
           mpi_root_causes, mpi_critical_path):
    registry.table("mpi")(_f)
registry.view("mpi_pop", "POP efficiencies (run, and each MPI_Pcontrol region)", 20)
registry.view("mpi_wait_sites", "Wait states by call site (all ranks)", 40)
registry.view("mpi_wait_ranks", "Wait states by rank (MPI time split: waits, and the rest)", 64)
registry.view("mpi_wait_regions", "Wait states by MPI_Pcontrol region and rank", 80)
registry.view("mpi_wait_clock", "Clock offsets between ranks: waits are +- residual_s", 1)
registry.view("mpi_root_causes", "Root causes of the waits (computed by the ranks at "
              "MPI_Finalize): which activity on which rank made them wait, direct and "
              "propagated", 20)
registry.view("mpi_critical_path", "Critical path (found by the ranks at MPI_Finalize): the "
              "activities that set the wall time, the imbalance indicator bounding each one's "
              "saving", 20)
