"""papi_report.tables.openmp_causes: the root cause of the waits inside OpenMP parallel
regions (issue 72 item 1, its OpenMP part): a thread waits at a region's barriers and at
its join for the team's slowest thread, so the cause of a region's waits is the work of the
thread that worked most, and its direct delay cost (Boehme et al.) is the team's imbalance
against it, sum over threads of (its work - theirs). No wait propagates across a fork and
join (the team's master continues only after the join), so there is no propagated cost.

The tool's files sum each thread's work over the region's instances: where one thread is
the slow one in every instance the cost explains the waits whole; where the slow thread
moved between instances the waits exceed it, and the residual (waits - cost) says how much
one thread does not explain. Inputs: load.openmp_files.processes. Needs pandas only."""
from ..load import registry
from ..load.root_causes import ranks_text
from .openmp import KEY, _frame, _site

NS = 1e9
#: the share of a region's thread time (team x wall) its imbalance (the direct cost) must
#: reach for a row: waits the imbalance does not explain (fork, join and barrier overhead
#: of a balanced region on a loaded machine) have no thread to blame
MIN_SHARE = 0.01
COLUMNS = KEY + ["region", "site", "instances", "team_size", "wait_s", "waiting_threads",
                 "cause_thread", "cause_work_s", "mean_work_s", "direct_s", "residual_s"]


def _waits(t):
    """A thread's waits for its team: at the barriers inside the region and at its join."""
    return t["barrier_wait_ns"] + (t["join_wait_ns"] or 0)


def openmp_root_causes(procs):
    """Per process and parallel region whose threads waited for an imbalance of at least 1 %
    of its thread time, most wait first: the waits, the threads that waited, the thread that
    caused them (the most work) with its work and the team's mean, the direct cost, and the
    residual the one thread does not explain."""
    rows = []
    for p in procs:
        for r in p["doc"]["regions"]:
            th = r["threads"]
            wait = sum(_waits(t) for t in th)
            team = max([s["size"] for s in r["team_sizes"]], default=len(th))
            if not th or wait <= 0:
                continue
            cause = max(th, key=lambda t: (t["work_ns"], -t["thread"]))
            waiting = [t["thread"] for t in th if t is not cause and _waits(t) > 0]
            if not waiting:  # only the slowest waited (the runtime's own time): no cause
                continue
            direct = sum(cause["work_ns"] - t["work_ns"] for t in th)
            if direct <= MIN_SHARE * team * r["wall_ns"]:
                continue
            rows.append(dict(
                rank=p["rank"], pid=p["pid"], region=r["name"], site=_site(r),
                instances=r["instances"], team_size=team, wait_s=wait / NS,
                waiting_threads=ranks_text(waiting),
                cause_thread=cause["thread"], cause_work_s=cause["work_ns"] / NS,
                mean_work_s=sum(t["work_ns"] for t in th) / len(th) / NS, direct_s=direct / NS,
                residual_s=(wait - direct) / NS))
    df = _frame(rows, COLUMNS, ("rank", "pid", "instances", "team_size", "cause_thread"))
    return df.sort_values("wait_s", ascending=False, kind="stable").reset_index(drop=True)


registry.table("openmp")(openmp_root_causes)
registry.view("openmp_root_causes", "OpenMP waits by root cause: the thread whose work the team waited for", 20)
