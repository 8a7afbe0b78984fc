"""papi_report.load.critical_path: the run's critical path (Boehme et al., "Scalable
critical-path based performance analysis", IPDPS 2012): the chain of compute and
communication that sets the wall time, found by a backward replay over the matched waits.

It starts at the end of the rank that finished last and walks back through its activities
(activities.py's timeline). At a wait whose cause is known, the path leaves the waiting
rank and goes on, on the rank waited for (the sender of a late-sender wait, the receiver
of a late-receiver wait, the last arrival of a collective), from the point it was waited
for: the wait's end, within the record waited for (a send that returned before the wait
ended: from the send's end, the time between counted as the waiting call's
communication). A wait with no cause known stays on
its rank, as waiting. The walk ends at the first record of the rank it is on; that rank's
start after the first record of any rank is the path's start-up (MPI_Init and the launch
log no record).

Per activity: its time on the path, its mean and largest time per rank, and the critical-
path imbalance indicator: time on the path minus the mean (never below 0). Removing that
imbalance (the activity on the path brought down to its mean) shortens the path by at most
the indicator: an upper bound on the run's saving, since another path may then set the
wall time. Clocks that disagree can put the record waited for after the wait's end: the
overlap is walked twice and counted as the clock residual, so the path's total equals
the wall time within it (check()). Plain Python, pure functions."""
from . import cause_timeline as timeline
from .activities import activity_name
from .root_causes import ranks_text, site_text

#: The activity of a rank's time before its first record, after the first of any rank.
START = ("start", "", "")


def _before(tl, ci, t):
    """The index of the last Segment of a rank's timeline tl that starts before t, t within
    its call ci: found from the call, not by time alone (a rank's records can overlap by a
    few us, so its Segments' starts are not always in order)."""
    segs, n = tl.segs, tl.first_seg(ci)
    if n is None:  # a call of no time: by time
        return tl.bisect_starts(t, right=False) - 1
    if segs[n].t0 >= t:
        return n - 1
    while n + 1 < len(segs) and segs[n + 1].call == ci and segs[n + 1].t0 < t:
        n += 1
    return n


class _Jumped:
    """The waits the walk left their rank at, a bit a call per rank (each leaves it once)."""

    def __init__(self, tls):
        self._bits = {r: bytearray((len(tl) + 7) // 8) for r, tl in tls.items()}

    def __contains__(self, rc):
        r, i = rc
        return bool(self._bits[r][i >> 3] & (1 << (i & 7)))

    def add(self, rc):
        r, i = rc
        self._bits[r][i >> 3] |= 1 << (i & 7)


def walk(calls, regions=None, steps=True):
    """The critical path of calls ({rank: [Call] in time order}, or {rank: timeline}
    (cause_timeline.py: a dead job's on disk, log_delays.py); regions: {rank: [(t, +1/-1, name)]}
    of the lists): {"path": {(rank, key): ns}, "sites": {key: (rank, (site, call name)) of
    its longest part on the path}, "total": ns on the path, "end": ns the path ends (the
    last rank's end), "start": ns it starts, "first": ns of the earliest record of any rank,
    "residual": ns of clock overlap, "segs": {rank: Segments (a sequence)}, "timelines":
    {rank: its timeline} (of those ranks), "steps": [(rank,
    key, t0, t1, (site, call name))] the path's parts in time order (the trace's track of
    it; steps=False: [], the rest the same)}. Memory: the path's cells, a bit a call (the
    waits it left their rank at) and the steps it is asked for: over DiskTimelines nothing
    else grows with the records."""
    tls = timeline.of(calls, regions)
    segs = {r: tl.segs for r, tl in tls.items() if len(tl.segs)}
    out = {"path": {}, "sites": {}, "total": 0, "end": 0, "start": 0, "first": 0,
           "residual": 0, "segs": segs, "timelines": {r: tls[r] for r in segs}, "steps": []}
    if not segs:
        return out
    longest = {}

    def add(r, key, t0, t1, site):
        ns = t1 - t0
        if ns <= 0:
            return
        if steps:
            out["steps"].append((r, key, t0, t1, site))
        out["path"][(r, key)] = out["path"].get((r, key), 0) + ns
        out["total"] += ns
        if ns > longest.get(key, 0):
            longest[key] = ns
            out["sites"][key] = (r, site)

    r = max(segs, key=lambda q: (segs[q][-1].t1, -q))
    n, t = len(segs[r]) - 1, segs[r][-1].t1
    out["end"] = t
    out["first"] = min(s[0].t0 for s in segs.values())
    jumped = _Jumped(tls)  # each wait leaves its rank once: the walk ends whatever the clocks say
    while n >= 0:
        g = segs[r][n]
        upto = min(g.t1, t)
        c = tls[r][g.call] if g.call is not None else None
        cause = c.cause if c is not None and g.key is None else None
        if cause is not None and cause[0] in segs and cause[0] != r and (r, g.call) not in jumped \
                and 0 <= cause[1] < len(tls[cause[0]]):
            jumped.add((r, g.call))
            cr, ci = cause
            rec = tls[cr][ci]
            # from the point waited for: the wait's end, within the record waited for
            target = min(max(upto, rec.t0), rec.t1)
            if upto > target:  # the record ended before the wait did: the transfer
                add(r, tls[r].call_key(g.call) or ("mpi", c.name, ""), target, upto, g.site)
            out["residual"] += target - upto if target > upto else 0
            r, t = cr, target
            n = _before(tls[r], ci, target)
            continue
        key = g.key if g.key is not None else ("wait", c.name if c else "", "")
        add(r, key, g.t0, upto, g.site)
        t = g.t0
        n -= 1
    out["start"] = t
    # the ranks that logged earlier waited, in effect, for this one's start (MPI_Init and
    # the launch are no records): its late start is on the path, so the path spans the run
    add(r, START, out["first"], t, (0, None))
    out["steps"].reverse()  # walked backward
    return out


def check(result, tolerance=1e-6):
    """None when the path's total equals the run's wall time (its first record, any rank's,
    to its last) within the clock residual (and tolerance, relative), else why not."""
    wall = result["end"] - result["first"]
    if abs(result["total"] - wall) > result["residual"] + tolerance * max(1.0, wall):
        return ("critical path: %.9f s on the path != the wall time %.9f s (clock residual"
                " %.9f s)" % (result["total"] * 1e-9, wall * 1e-9, result["residual"] * 1e-9))
    return None


def per_rank(result):
    """{key: {rank: ns}}: each rank's time per activity (waits as ("wait", call, ""); its
    start after the first record of any rank as START), of a walk's result: over its
    timelines' coded Segments, summed by activity and translated once."""
    tls = result["timelines"]
    first = min((tl.segs[0].t0 for tl in tls.values()), default=0)
    out = {START: {r: tl.segs[0].t0 - first for r, tl in tls.items()}}
    for r, tl in tls.items():
        spent, names = {}, tl.names.values
        for t0, t1, key, site, _order in tl.coded_since(0):
            code = key if key >= 0 else -2 - site  # a wait by its call's site
            spent[code] = spent.get(code, 0) + t1 - t0
        for code, ns in spent.items():
            key = names[code] if code >= 0 else ("wait", names[-2 - code][1], "")
            cell = out.setdefault(key, {})
            cell[r] = cell.get(r, 0) + ns
    return out


def activity_text(key, before=None):
    """What the report calls an activity on the path (before: the call that ends its
    compute); a wait with no cause known: "waiting in CALL"."""
    if key == START:
        return "start-up (before the first record)"
    if key[0] == "wait":
        return "waiting in %s" % key[1]
    return activity_name(key, before)


def by_activity(path):
    """{activity key: [ns on the path, {ranks it ran on there}]} of a walk's path."""
    on_path = {}
    for (r, key), ns in path.items():
        cell = on_path.setdefault(key, [0, set()])
        cell[0] += ns
        cell[1].add(r)
    return on_path


def rows(result, site_name=None):
    """The table: one row per activity on the path, longest first: activity, site,
    path_ranks, path_s, mean_s (per rank, over every rank), max_s, imbalance_s (path_s -
    mean_s, at least 0), saving_bound_s (the most the run could save were that imbalance
    removed: the indicator). site: site_name(rank, site) where it names it ("FILE:LINE"),
    else its address; "" none."""
    nranks = max(1, len(result["segs"]))
    spent = per_rank(result)
    out = []
    for key, (ns, ranks) in by_activity(result["path"]).items():
        by_rank = spent.get(key, {})
        mean = sum(by_rank.values()) / nranks
        imbalance = max(0.0, ns - mean)
        rank, (site, before) = result["sites"].get(key, (0, (0, None)))
        named = site_text(site_name, rank, site)
        out.append({"activity": activity_text(key, before), "site": named,
                    "path_ranks": ranks_text(ranks), "path_s": ns * 1e-9, "mean_s": mean * 1e-9,
                    "max_s": max(by_rank.values(), default=0) * 1e-9,
                    "imbalance_s": imbalance * 1e-9, "saving_bound_s": imbalance * 1e-9})
    out.sort(key=lambda row: (-row["path_s"], row["activity"]))
    return out


def text(result, table, most=5):
    """The summary's lines: the path's total against the run's wall time (and the check),
    then its longest activities (most of them)."""
    wall = result["end"] - result["first"]
    late = result["start"] - result["first"]
    out = ["critical path (backward replay over the matched waits, each rank's thread 0): "
           "%.6f s on the path, the run's wall time %.6f s (first record to last, all ranks),"
           " %.6f s of it start-up before the path's first record; clock residual %.6f s"
           % (result["total"] * 1e-9, wall * 1e-9, late * 1e-9, result["residual"] * 1e-9)]
    why = check(result)
    if why:
        out.append("papi_report: %s" % why)
    for row in table[:most]:
        site = " (%s)" % row["site"] if row["site"] else ""
        out.append("critical path: %.2f s in `%s`%s on rank%s %s; mean %.2f s per rank, "
                   "imbalance %.2f s: removing it saves at most %.2f s"
                   % (row["path_s"], row["activity"], site,
                      "s" if ("," in row["path_ranks"] or "-" in row["path_ranks"]) else "",
                      row["path_ranks"], row["mean_s"], row["imbalance_s"],
                      row["saving_bound_s"]))
    return out
