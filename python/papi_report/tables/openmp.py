"""papi_report.tables.openmp: OpenMP seen by the project's OMPT tool (issue 58) as tables:
per process its serial and parallel time and efficiencies, per parallel region its
instances, team, wall time, efficiencies, lost thread time and the threads with the
most work and the most wait, per region and thread the work and the waits (and the
counted events), per region and event the spread over threads, per construct (worksharing,
locks, tasks, waits: issue 73 item 2) and per construct and thread; from the MPI report the
job's hybrid parallel efficiency. The figures are the tool's (src-c/common/pop_factors.c:
the definitions are ompt.schema.json's $defs/efficiency and papi_report(1)'s), only laid
out: nothing is recomputed but sums. Inputs: load.openmp_files.processes. Needs pandas only."""
import pandas as pd

from ..load import registry

NS = 1e9
EFF = ["load_balance", "scheduling", "parallel_efficiency"]
# The factors on CPU time (ompt.schema.json's cpu_time, where the task clock was counted per
# thread): on_cpu well below 1 means the threads shared cores, and the wall-time
# load_balance then reads too high; cpu_load_balance is the one that survives it.
CPU = ["on_cpu", "cpu_load_balance"]
KEY = ["rank", "pid"]
PROCESS_COLUMNS = KEY + ["source", "runtime", "wall_s", "parallel_s", "serial_s",
                         "serialization"] + EFF + CPU + ["regions", "threads_seen", "events",
                                                   "not_measured"]
REGION_COLUMNS = KEY + ["region", "site", "instances", "outermost_instances", "team_size", "team_sizes",
                        "wall_s", "work_s", "wait_s", "lost_s", "lost_pct"] + EFF + CPU + \
    ["max_work_thread", "max_work_s", "max_wait_thread", "max_wait_s"]
THREAD_COLUMNS = KEY + ["region", "site", "thread", "implicit_tasks", "wall_s", "work_s", "barrier_wait_s",
                        "join_wait_s", "taskwait_wait_s", "wait_s"]
EVENT_COLUMNS = KEY + ["region", "site", "event", "threads", "min", "min_thread", "mean", "max",
                       "max_thread", "total"]
CONSTRUCT_COLUMNS = KEY + ["kind", "construct", "region", "entries", "threads", "time_s", "wait_s",
                           "max_wait_thread", "max_wait_s", "iterations", "schedule", "created"]
CONSTRUCT_THREAD_COLUMNS = KEY + ["kind", "construct", "thread", "entries", "time_s", "wait_s",
                                  "iterations", "created"]
HYBRID_COLUMNS = ["ranks_measured", "serialization"] + EFF + ["mpi_parallel_efficiency",
                                                              "hybrid_parallel_efficiency"] + CPU + ["note"]


def _s(ns):
    return None if ns is None else ns / NS


def _eff(e):
    """An efficiency object's columns (the schema's "parallel" is parallel_efficiency)."""
    return {"load_balance": e.get("load_balance"), "scheduling": e.get("scheduling"),
            "parallel_efficiency": e.get("parallel")}


def _cpu(c):
    """The cpu_time object's columns (none where the task clock was not counted)."""
    c = c or {}
    return {"on_cpu": c.get("on_cpu"), "cpu_load_balance": c.get("load_balance")}


def _site(r):
    """What tells the region apart from the others of its name (the tool's "site": the
    inlined calls that lead to its fork, its offset where those are alike); "" where its
    name is its own, and in files written before it was."""
    return r.get("site") or ""


def region_key(df):
    """A region as the tables tell it, one value per row of a table with region and site:
    its name, with its site in brackets where it has one ("NAME [SITE]"): the key of the
    figure's and --compare's regions."""
    site = df["site"].fillna("").astype(str)
    name = df["region"].astype(str)
    return name.where(site == "", name + " [" + site + "]")


def _wait_ns(t):
    """A thread's waits: at barriers inside the region, at its join barrier, at taskwait."""
    return t["barrier_wait_ns"] + (t["join_wait_ns"] or 0) + t["taskwait_wait_ns"]


def _frame(rows, columns, ints=()):
    df = pd.DataFrame(rows, columns=columns)
    for c in ints:
        df[c] = df[c].astype("Int64")
    return df


def openmp_processes(procs):
    """Per process: its wall time from the OpenMP runtime's start to its end, the time in
    outermost parallel regions and outside them, and the run's efficiencies
    (serialization = parallel_s / wall_s)."""
    rows = []
    for p in procs:
        d = p["doc"]
        drops = sum(v for k, v in d["not_measured"].items() if not k.endswith("_max"))
        rows.append(dict(rank=p["rank"], pid=p["pid"], source=p["source"], runtime=d["runtime"],
                         wall_s=_s(d["wall_ns"]), parallel_s=_s(d["parallel_ns"]),
                         serial_s=_s(d["serial_ns"]),
                         serialization=d["efficiency"].get("serialization"),
                         regions=len(d["regions"]), threads_seen=d["threads_seen"],
                         events=", ".join(d["counters"]["events"]), not_measured=drops,
                         **_eff(d["efficiency"]), **_cpu(d.get("cpu_time"))))
    return _frame(rows, PROCESS_COLUMNS, ("rank", "pid", "regions", "threads_seen", "not_measured"))


def _most(threads, value):
    """(thread number, seconds) of the thread with the largest value (the lowest number on
    a tie), (None, None) without threads."""
    if not threads:
        return None, None
    t = max(threads, key=lambda t: (value(t), -t["thread"]))
    return t["thread"], _s(value(t))


def openmp_regions(procs):
    """Per process and parallel region (its name, and its site where regions of one name
    are told apart: a fork inlined at several calls or copied), most thread time lost
    first: instances, the
    largest team and every team size (size x instances), the wall time, the threads'
    work, waits and lost time (lost_pct: its share of the process's lost thread time),
    the efficiencies, and the threads with the most work and with the most wait."""
    rows = []
    for p in procs:
        regions = p["doc"]["regions"]
        lost_all = sum(r["lost_ns"] for r in regions)
        for r in regions:
            th = r["threads"]
            mw, mw_s = _most(th, lambda t: t["work_ns"])
            xw, xw_s = _most(th, _wait_ns)
            rows.append(dict(
                rank=p["rank"], pid=p["pid"], region=r["name"], site=_site(r), instances=r["instances"],
                outermost_instances=r["outermost_instances"],
                team_size=max([s["size"] for s in r["team_sizes"]], default=None),
                team_sizes=" ".join("%dx%d" % (s["size"], s["instances"]) for s in r["team_sizes"]),
                wall_s=_s(r["wall_ns"]), work_s=_s(sum(t["work_ns"] for t in th)),
                wait_s=_s(sum(_wait_ns(t) for t in th)), lost_s=_s(r["lost_ns"]),
                lost_pct=100.0 * r["lost_ns"] / lost_all if lost_all else 0.0,
                max_work_thread=mw, max_work_s=mw_s, max_wait_thread=xw, max_wait_s=xw_s,
                **_eff(r["efficiency"]), **_cpu(r.get("cpu_time"))))
    df = _frame(rows, REGION_COLUMNS, ("rank", "pid", "instances", "outermost_instances", "team_size",
                                       "max_work_thread", "max_wait_thread"))
    return df.sort_values("lost_s", ascending=False, kind="stable").reset_index(drop=True)


def openmp_threads(procs):
    """Per process, parallel region and OpenMP thread number: implicit tasks, the wall time
    of the instances whose team had it, its work and its waits (at barriers inside the
    region, at the join barrier, at taskwait; wait_s their sum), and each counted event
    (a column per event, empty where a task of it was not counted)."""
    rows, events = [], []
    for p in procs:
        for e in p["doc"]["counters"]["events"]:
            if e not in events:
                events.append(e)
        for r in p["doc"]["regions"]:
            for t in r["threads"]:
                row = dict(rank=p["rank"], pid=p["pid"], region=r["name"], site=_site(r), thread=t["thread"],
                           implicit_tasks=t["implicit_tasks"], wall_s=_s(t["wall_ns"]),
                           work_s=_s(t["work_ns"]), barrier_wait_s=_s(t["barrier_wait_ns"]),
                           join_wait_s=_s(t["join_wait_ns"]),
                           taskwait_wait_s=_s(t["taskwait_wait_ns"]), wait_s=_s(_wait_ns(t)))
                row.update(t["events"])
                rows.append(row)
    return _frame(rows, THREAD_COLUMNS + events, ("rank", "pid", "thread", "implicit_tasks") + tuple(events))


def openmp_events(procs):
    """Per process, parallel region and counted event: the spread over the thread numbers
    counted whole (least, mean and largest sum with the thread that has each, total)."""
    rows = []
    for p in procs:
        for r in p["doc"]["regions"]:
            for name, e in r["events"].items():
                rows.append(dict({c: e.get(c) for c in EVENT_COLUMNS[5:]}, rank=p["rank"],
                                 pid=p["pid"], region=r["name"], site=_site(r), event=name))
    return _frame(rows, EVENT_COLUMNS, ("rank", "pid", "threads", "min", "min_thread", "max", "max_thread"))


def _constructs(p):
    """The process's constructs (issue 73 item 2; none in files written before them)."""
    return p["doc"].get("constructs") or []


def openmp_constructs(procs):
    """Per process and OpenMP construct (worksharing, mutual exclusion, explicit tasks by
    creating site, waits at taskwait, taskgroup and explicit barriers, reductions, masked
    and target regions), the longest time plus wait first: its kind, where it is, its
    parallel region, encounters, the thread numbers that met it, time inside and waiting
    summed over them, the thread that waited most, and per kind its iterations and
    schedule (loops) or the tasks created (task sites)."""
    rows = []
    for p in procs:
        for c in _constructs(p):
            th = c["threads"]
            xw, xw_s = _most(th, lambda t: t["wait_ns"])
            sched = c.get("schedule")
            rows.append(dict(rank=p["rank"], pid=p["pid"], kind=c["kind"], construct=c["name"],
                             region=c["region"], entries=c["entries"], threads=len(th),
                             time_s=_s(c["time_ns"]), wait_s=_s(c["wait_ns"]),
                             max_wait_thread=xw if xw_s else None, max_wait_s=xw_s if xw_s else None,
                             iterations=c.get("iterations"),
                             schedule=" ".join(sched) if sched else None, created=c.get("created")))
    df = _frame(rows, CONSTRUCT_COLUMNS, ("rank", "pid", "entries", "threads", "max_wait_thread",
                                          "iterations", "created"))
    cost = df["time_s"] + df["wait_s"]
    return df.loc[cost.sort_values(ascending=False, kind="stable").index].reset_index(drop=True)


def openmp_construct_threads(procs):
    """Per process, OpenMP construct and thread number: its encounters, time inside,
    waits, iterations (worksharing, where the runtime reports them; a single's
    executions) and tasks created (task sites)."""
    rows = []
    for p in procs:
        for c in _constructs(p):
            for t in c["threads"]:
                rows.append(dict(rank=p["rank"], pid=p["pid"], kind=c["kind"], construct=c["name"],
                                 thread=t["thread"], entries=t["entries"], time_s=_s(t["time_ns"]),
                                 wait_s=_s(t["wait_ns"]), iterations=t.get("iterations"),
                                 created=t.get("created")))
    return _frame(rows, CONSTRUCT_THREAD_COLUMNS, ("rank", "pid", "thread", "entries", "iterations",
                                                   "created"))


def openmp_hybrid(rep):
    """The MPI report's OpenMP line (wait_states.openmp): the job's OpenMP efficiencies,
    the MPI parallel efficiency and their product, the hybrid parallel efficiency. No row
    for a job none of whose ranks ran OpenMP under the tool, unless its note says why an
    OpenMP program could not be measured (libgomp without libomp: what to do)."""
    o = (rep.get("wait_states") or {}).get("openmp")
    rows = []
    if isinstance(o, dict) and (o.get("ranks_measured") or "libgomp" in (o.get("note") or "")):
        row = {c: o.get(c) for c in HYBRID_COLUMNS}
        row.update(_cpu(o.get("cpu_time")))
        rows.append(row)
    return _frame(rows, HYBRID_COLUMNS, ("ranks_measured",))


for _f in (openmp_processes, openmp_regions, openmp_threads, openmp_events, openmp_constructs,
           openmp_construct_threads):
    registry.table("openmp")(_f)
registry.table("mpi")(openmp_hybrid)
registry.view("openmp_hybrid", "Hybrid MPI x OpenMP parallel efficiency (the MPI report)", 1)
registry.view("openmp_processes", "OpenMP per process: serial and parallel time, efficiencies", 64)
registry.view("openmp_regions", "OpenMP parallel regions, most thread time lost first", 40)
registry.view("openmp_threads", "OpenMP threads per parallel region: work and waits", 128)
registry.view("openmp_events", "OpenMP counters per parallel region: spread over threads", 64)
registry.view("openmp_constructs", "OpenMP constructs: worksharing, locks, tasks, waits, longest first", 40)
registry.view("openmp_construct_threads", "OpenMP constructs per thread: entries, time, waits", 128)
