"""papi_report.load.advice: what to fix first (`papi_report --advise DIR`): at most five
findings from the critical path (critical_path.walk) and the root causes of the waits
(root_causes.analyse) of the same timelines, ranked by the most each would save of the
wall time.

A finding is an activity on the path (a region's compute, an MPI call's communication, a
wait with no cause known, the start-up), its place (the activity, its call site, the
path's ranks in it, thread 0: the analyses compare each rank's thread 0), the evidence
and the change chosen by rule from it:
- compute whose waits (root causes) are mostly point-to-point (a late sender, a chain):
  "shorten R on rank P or overlap the sends"; brought down to what the ranks that waited
  for it spend in it (0 where they have none), the path shrinks by path_s - that;
- other compute (waits in collectives, or none caused): "balance R over ranks"; brought
  down to its mean per rank, the path shrinks by the critical-path imbalance indicator;
- a wait with no cause known, an MPI call's own time: "overlap C" (hidden behind work,
  the path shrinks by its time on it);
- the start-up (the ranks' first records apart): "start the ranks together", the
  indicator.
Each saving is an upper bound: the path shrinks by it, but another path may then set the
wall time. Findings under 2 % of the wall time (and 1 ms) are left out. Root causes of
waits off the path follow those on it: whatever their waits, their bound on the wall
time is 0, and the evidence says so. Plain Python, pure functions."""
from .critical_path import START, activity_text, by_activity, per_rank
from .root_causes import ranks_text, site_text

MOST = 5
#: Wait kinds of point-to-point calls: a compute that causes them delays a chain of ranks.
_P2P_KINDS = ("late_sender", "late_receiver")
#: The table's columns (mpi_advice.csv), in order.
COLUMNS = ("finding", "change", "advice", "activity", "site", "ranks", "thread", "on_path",
           "path_s", "wall_s", "mean_s", "reference_s", "saving_bound_s", "caused_wait_s",
           "wait_ranks", "evidence")
CSV_NAME = "mpi_advice.csv"


def _caused(costs, ranks, key):
    """(total ns, direct ns, propagated ns, {waiting rank}, ns of point-to-point waits) of
    the waits the activity key on ranks caused (root_causes.analyse's costs)."""
    direct = propagated = p2p = 0
    waiting = set()
    for r in ranks:
        for (kind, _call, wr), (d, p) in costs.get((r, key), {}).items():
            direct += d
            propagated += p
            waiting.add(wr)
            p2p += d + p if kind in _P2P_KINDS else 0
    return direct + propagated, direct, propagated, waiting, p2p


def _site(path, key, site_name):
    """The call site of the activity's longest part on the path: FILE:LINE where the log
    names it, else its address; "" none."""
    rank, (site, _before) = path["sites"].get(key, (0, (0, None)))
    return site_text(site_name, rank, site)


def _change(key, name, ranks, caused, spent, nranks):
    """(change, advice, reference ns per path rank) chosen by rule from the evidence: the
    activity, the waits it caused (_caused') and its time per rank."""
    total, _direct, _propagated, waiting, p2p = caused
    who = "rank%s %s" % ("s" if len(ranks) > 1 else "", ranks_text(ranks))
    if key == START:
        return "start", "start the ranks together (the work before %s's first MPI call, " \
            "the launch)" % who, sum(spent.values()) / nranks
    if key[0] == "wait":
        return "overlap", "overlap %s with work (its wait has no cause the logs show)" % key[1], 0
    if key[0] == "mpi":
        return "overlap", "overlap %s with work (its communication is on the path)" % key[1], 0
    if total > 0 and 2 * p2p >= total:  # late senders, a chain of them: mostly p2p
        others = waiting - set(ranks)  # what the ranks it delays spend in it
        ref = sum(spent.get(r, 0) for r in others) / max(1, len(others))
        return "shorten", "shorten `%s` on %s or overlap the sends" % (name, who), ref
    return "balance", "balance `%s` over ranks" % name, sum(spent.values()) / nranks


def _evidence(path_ns, wall, ranks, mean, top, caused):
    total, direct, propagated, waiting, _kinds = caused
    out = "on the critical path %.2f s of %.2f s (rank%s %s); mean %.2f s per rank, max %.2f s" \
        % (path_ns * 1e-9, wall * 1e-9, "s" if len(ranks) > 1 else "", ranks_text(ranks),
           mean * 1e-9, top * 1e-9)
    if total > 0:
        out += "; rank%s %s wait %.2f s for it (%.2f s direct, %.2f s propagated)" % (
            "s" if len(waiting) > 1 else "", ranks_text(waiting), total * 1e-9, direct * 1e-9,
            propagated * 1e-9)
    return out


def findings(path, causes, site_name=None, most=MOST):
    """At most `most` findings (dicts of COLUMNS but "finding") of a critical path
    (critical_path.walk's) and the root causes of the same timelines
    (root_causes.analyse's), the largest bound on the wall time's saving first, those off
    the path after them."""
    segs = path["segs"]
    if not segs:
        return []
    nranks = len(segs)
    wall = path["end"] - path["first"]
    least = max(1e6, 0.02 * wall)  # ns: below it a finding is noise
    spent = per_rank(path)
    costs = causes.get("costs", {})
    on_path = by_activity(path["path"])
    out = []
    for key, (ns, ranks) in on_path.items():
        by_rank = spent.get(key, {})
        name = activity_text(key, path["sites"].get(key, (0, (0, None)))[1][1])
        caused = _caused(costs, ranks, key)
        change, advice, ref = _change(key, name, ranks, caused, by_rank, nranks)
        bound = ns if change == "overlap" else max(0, ns - len(ranks) * ref)
        if bound < least:
            continue
        mean = sum(by_rank.values()) / nranks
        out.append({"change": change, "advice": advice, "activity": name,
                    "site": _site(path, key, site_name), "ranks": ranks_text(ranks),
                    "thread": 0, "on_path": True, "path_s": ns * 1e-9, "wall_s": wall * 1e-9,
                    "mean_s": mean * 1e-9, "reference_s": ref * 1e-9,
                    "saving_bound_s": bound * 1e-9, "caused_wait_s": caused[0] * 1e-9,
                    "wait_ranks": ranks_text(caused[3]),
                    "evidence": _evidence(ns, wall, ranks, mean,
                                          max(by_rank.values(), default=0), caused)})
    out.sort(key=lambda f: (-f["saving_bound_s"], f["activity"]))
    out += _off_path(path, causes, costs, spent, on_path, nranks, wall, least, site_name)
    out = out[:most]
    for n, f in enumerate(out, 1):
        f["finding"] = n
    return out


def _off_path(path, causes, costs, spent, on_path, nranks, wall, least, site_name):
    """The findings of root causes whose activity the path does not run through on their
    rank: bound 0, the waits they cause largest first."""
    grouped = {}
    for (r, key) in costs:
        if (r, key) not in path["path"]:
            grouped.setdefault(key, set()).add(r)
    out = []
    for key, ranks in grouped.items():
        caused = _caused(costs, ranks, key)
        if caused[0] < least:
            continue
        by_rank = spent.get(key, {})
        site, before = causes.get("sites", {}).get((min(ranks), key)) or (0, None)
        name = activity_text(key, before)
        change, advice, ref = _change(key, name, ranks, caused, by_rank, nranks)
        total, direct, propagated, waiting, _kinds = caused
        mean = sum(by_rank.values()) / nranks
        named = site_text(site_name, min(ranks), site)
        out.append({"change": change, "advice": advice, "activity": name, "site": named,
                    "ranks": ranks_text(ranks), "thread": 0, "on_path": False, "path_s": 0.0,
                    "wall_s": wall * 1e-9, "mean_s": mean * 1e-9, "reference_s": ref * 1e-9,
                    "saving_bound_s": 0.0, "caused_wait_s": total * 1e-9,
                    "wait_ranks": ranks_text(waiting),
                    "evidence": "not on the critical path (on rank%s %s): saves 0 s of the wall "
                                "time, another path sets it; rank%s %s wait %.2f s for it (%.2f s "
                                "direct, %.2f s propagated)"
                                % ("s" if len(ranks) > 1 else "", ranks_text(ranks),
                                   "s" if len(waiting) > 1 else "", ranks_text(waiting),
                                   total * 1e-9, direct * 1e-9, propagated * 1e-9)})
    out.sort(key=lambda f: (-f["caused_wait_s"], f["activity"]))
    return out


def text(found, wall_s):
    """--advise's lines: a head line, then three lines a finding."""
    out = ["what to fix first (the critical path and the root causes of the waits, each "
           "rank's thread 0; the run's wall time %.2f s): %d finding%s, the most each would "
           "save first" % (wall_s, len(found), "" if len(found) == 1 else "s")]
    for f in found:
        site = " (%s)" % f["site"] if f["site"] else ""
        saves = ("saves at most %.2f s" % f["saving_bound_s"] if f["on_path"] else
                 "saves 0 s of the wall time (not on the critical path)")
        out += ["%d. %s: %s" % (f["finding"], f["advice"], saves),
                "   where: `%s`%s, rank%s %s, thread %d"
                % (f["activity"], site, "s" if ("," in f["ranks"] or "-" in f["ranks"]) else "",
                   f["ranks"], f["thread"]),
                "   evidence: %s" % f["evidence"]]
    return out


def key_of(activity, path):
    """The activity key of a finding's activity name in a critical path (walk's), or None."""
    for (_r, key) in path["path"]:
        before = path["sites"].get(key, (0, (0, None)))[1][1]
        if activity_text(key, before) == activity:
            return key
    return None


def path_time(path, activity):
    """ns the activity (a finding's name) spent on a critical path (walk's); 0 not there."""
    key = key_of(activity, path)
    return sum(ns for (_r, k), ns in path["path"].items() if k == key) if key else 0


def checked(found, before, after):
    """--compare A B's lines: for each finding of A (findings' of the path before), the
    saving it predicted and what B (the path after) saved: the wall time's difference and
    the activity's on the critical path."""
    wall_a = (before["end"] - before["first"]) * 1e-9
    wall_b = (after["end"] - after["first"]) * 1e-9
    out = ["advice of A checked against B (wall time %.3f s -> %.3f s: B saved %.3f s)"
           % (wall_a, wall_b, wall_a - wall_b)]
    for f in found:
        a = path_time(before, f["activity"]) * 1e-9
        b = path_time(after, f["activity"]) * 1e-9
        predicted = ("predicted at most %.3f s" % f["saving_bound_s"] if f["on_path"] else
                     "predicted 0 s (not on the critical path)")
        out.append("advice %d: %s: %s; B saved %.3f s of the wall time, %.3f s of `%s` on the "
                   "critical path (%.3f s -> %.3f s)"
                   % (f["finding"], f["advice"], predicted, wall_a - wall_b, a - b,
                      f["activity"], a, b))
    return out
