"""papi_report.load.root_causes: the delay analysis of MPI wait states (Boehme, Geimer,
Wolf et al., "Identifying the root causes of wait states in large-scale parallel
applications", ICPP 2010): which rank's extra work, in which region or before which call,
made others wait, directly or through waits it caused in turn.

The waits come matched (event_logs.py by wait_match.py's rules: each wait knows the record
it waited for, its cause); nothing here says what waits for what. For each wait:
- its synchronisation interval: on the waiting rank from the end of its latest call that
  met the delaying rank (a message between them, a collective of both: the same sync id)
  to the wait's start; on the delaying rank from its end of that same meeting to the start
  of the record waited for;
- the delaying rank's excess in it, per activity: its time in the activity minus the
  waiting rank's in the same activity (never below 0). An activity is compute (between
  calls: in the innermost MPI_Pcontrol region, or outside any "before" the next call) or
  the part of an MPI call that is not waiting. Waiting is not excess: it is a delay the
  delaying rank suffered, and the wait passes on to it;
- the wait is spread over those delays in proportion: the excesses get direct cost, the
  delaying rank's own waits in the interval get the share to pass back to their causes.
The replay runs backward in time: a wait gets what later waits passed to it before its
own (and that) is spread, the part reaching an activity counted as propagated cost. Every
ns of waiting ends at an activity or in the residual (no cause, no delay in the interval,
or passed to an earlier-processed wait by clocks that disagree): direct + propagated +
residual = the waits (check()). Asked per wait (analyse(per_wait=True): the trace's links,
papi_report --merge-trace), each wait's own costs are kept too, with where on the delaying
rank its largest share landed. Plain Python, pure functions over the records given."""
import heapq

from . import cause_timeline as timeline
from .activities import activity_name


def _in_interval(tl, s, e):
    """({activity: ns}, {waiting call index: ns}, {activity: site of its longest part},
    {activity: (t0, t1) of the Segment that part is of}) of timeline tl's Segments within
    [s, e], activities and sites as numbers of tl.names."""
    time, waits, sites, longest, spans = {}, {}, {}, {}, {}
    for t0, t1, key, site, order in tl.coded_since(max(0, tl.bisect_starts(s) - 1)):
        if t0 >= e:
            break
        d = min(t1, e) - max(t0, s)
        if d <= 0:
            continue
        if key < 0:
            call = order >> 1
            waits[call] = waits.get(call, 0) + d
        else:
            time[key] = time.get(key, 0) + d
            if d > longest.get(key, 0):
                longest[key], sites[key] = d, site
                spans[key] = (t0, t1)
    return time, waits, sites, spans


def interval(tls, w, b, c, ci):
    """The synchronisation interval of rank w's wait at call b for rank c's call ci (tls:
    {rank: timeline}): ((start on w, end on w), (start on c, end on c)); from the ranks'
    first calls where they never met before. The latest meeting is usually a few calls
    back: the scan stops there."""
    tw, tc = tls[w], tls[c]
    for j in range(b - 1, -1, -1):
        s = tw.sync(j)
        k = tc.met(s) if s is not None else None
        if k is not None and k < ci:
            return (tw.span(j)[1], tw.span(b)[0]), (tc.span(k)[1], tc.span(ci)[0])
    return (tw.span(0)[0], tw.span(b)[0]), (tc.span(0)[0], tc.span(ci)[0])


def analyse(calls, regions=None, per_wait=False):
    """The root causes of the waits of calls ({rank: [Call] in time order}, or {rank:
    timeline} (cause_timeline.py: a dead job's on disk, log_delays.py); regions: {rank: [(t,
    +1/-1, name)]} of the lists): {"costs": {(cause rank, activity key): {(wait kind, wait
    call, waiting rank): [direct ns, propagated ns]}}, "sites": {(rank, key): (site, call)},
    "waits": ns of waiting, "residual": ns not explained, "waits_by": {(kind, call, rank):
    ns}}; with per_wait also "by_wait": {(waiting rank, call index): {(cause rank, activity
    key): [direct ns, propagated ns, (t0, t1) of the cause's Segment where most of it
    landed, ns that landed there]}}: the costs split by the wait whose time they are (summed
    over a rank's waits of one kind and call, the costs' cells). A wait's time passed on
    through other waits is then followed wait by wait: more work than by kind, call and
    rank.
    Memory: the waits come latest first from a k-way merge of the ranks' (heapq.merge: one
    a rank at a time); a wait was processed iff its key (end, rank, call) sorts after the
    current one's; the inbox (what later waits passed to a wait not yet processed) and the
    costs are results. Over DiskTimelines nothing grows with the records."""
    tls = timeline.of(calls, regions)
    names = next(iter(tls.values())).names.values if tls else []
    order = heapq.merge(*(tl.waits(r) for r, tl in tls.items()), reverse=True)
    inbox = {}  # (rank, call) -> {origin (kind, call, rank[, call index]): ns passed to it}
    out = {"costs": {}, "sites": {}, "waits": 0, "residual": 0, "waits_by": {}}
    if per_wait:
        out["by_wait"] = {}
    for now in order:  # backward replay: a wait after those it passes cost to
        _end, w, b = now
        c = tls[w][b]
        origin = (c.kind, c.name, w, b) if per_wait else (c.kind, c.name, w)
        out["waits"] += c.wait
        out["waits_by"][origin[:3]] = out["waits_by"].get(origin[:3], 0) + c.wait
        # what this wait spreads: its own (direct where it lands) and what it was passed
        flow = {(origin, True): c.wait}
        for o, ns in inbox.pop((w, b), {}).items():
            flow[(o, False)] = flow.get((o, False), 0) + ns
        total = sum(flow.values())
        if c.cause is None or c.cause[0] not in tls or c.cause[0] == w:
            out["residual"] += total
            continue
        cr, ci = c.cause
        (ws, we), (cs, ce) = interval(tls, w, b, cr, ci)
        mine = _in_interval(tls[w], ws, we)[0]
        theirs, waits, sites, spans = _in_interval(tls[cr], cs, ce)
        excess = {k: t - mine.get(k, 0) for k, t in theirs.items() if t > mine.get(k, 0)}
        delay = sum(excess.values()) + sum(waits.values())
        if delay <= 0:
            out["residual"] += total
            continue
        for code, x in excess.items():  # the cause's extra work: the cost lands here
            key = names[code]
            cell = out["costs"].setdefault((cr, key), {})
            out["sites"].setdefault((cr, key), names[sites[code]])
            for (o, direct), ns in flow.items():
                dp = cell.setdefault(o[:3], [0, 0])
                dp[0 if direct else 1] += ns * x / delay
                if per_wait:
                    _by_wait(out, o, direct, (cr, key), ns * x / delay, spans[code])
        for v, x in waits.items():  # the cause's own waits: passed back to their causes
            if (tls[cr].end(v), cr, v) > now:  # processed already: clocks that disagree
                out["residual"] += total * x / delay  # put it later; not passed twice
                continue
            box = inbox.setdefault((cr, v), {})
            for (o, _direct), ns in flow.items():
                box[o] = box.get(o, 0) + ns * x / delay
    for box in inbox.values():  # passed to a call that waited for nothing: cannot happen
        out["residual"] += sum(box.values())
    return out


def _by_wait(out, origin, direct, cause, ns, span):
    """ns of wait origin's (kind, call, rank, call index) time landed at cause (rank,
    activity key) in span: analyse's by_wait."""
    cell = out["by_wait"].setdefault((origin[2], origin[3]), {})
    got = cell.get(cause)
    if got is None:
        got = cell[cause] = [0, 0, span, 0]
    got[0 if direct else 1] += ns
    if ns > got[3]:
        got[2], got[3] = span, ns


def check(result, tolerance=1e-6):
    """The conservation check: None when direct + propagated costs + residual add up to
    the waits (within tolerance, relative), else why not."""
    explained = sum(d + p for cell in result["costs"].values() for d, p in cell.values())
    total = explained + result["residual"]
    if abs(total - result["waits"]) > tolerance * max(1.0, result["waits"]):
        return ("root causes: %.9f s explained + %.9f s residual != %.9f s of waiting"
                % (explained * 1e-9, result["residual"] * 1e-9, result["waits"] * 1e-9))
    return None


def ranks_text(ranks):
    """Ranks as runs: "1-3,7"."""
    out, run = [], []
    for r in sorted(set(ranks)):
        if run and r == run[-1] + 1:
            run.append(r)
            continue
        if run:
            out.append(_run(run))
        run = [r]
    if run:
        out.append(_run(run))
    return ",".join(out)


def _run(run):
    return str(run[0]) if len(run) == 1 else "%d-%d" % (run[0], run[-1])


def rows(result, site_name=None):
    """The table: one row per cause (rank, activity) and the waits it explains (kind and
    call), largest first: cause_rank, cause, cause_site, wait_kind, wait_call, wait_ranks,
    direct_s, propagated_s, total_s; and the waits' total (s) those waits had. cause_site:
    site_name(rank, site) where it names the site ("FILE:LINE"), else its address."""
    grouped = {}
    for (cr, key), cell in result["costs"].items():
        for (kind, call, wr), (d, p) in cell.items():
            g = grouped.setdefault((cr, key, kind, call), [0, 0, set()])
            g[0] += d
            g[1] += p
            g[2].add(wr)
    out = []
    for (cr, key, kind, call), (d, p, wranks) in grouped.items():
        waited = sum(ns for (k, c, r), ns in result["waits_by"].items()
                     if k == kind and c == call and r in wranks)
        site, before = result["sites"].get((cr, key)) or (0, None)
        out.append({"cause_rank": cr, "cause": activity_name(key, before),
                    "cause_site": site_text(site_name, cr, site),
                    "wait_kind": kind, "wait_call": call, "wait_ranks": ranks_text(wranks),
                    "direct_s": d * 1e-9, "propagated_s": p * 1e-9, "total_s": (d + p) * 1e-9,
                    "waited_s": waited * 1e-9})
    out.sort(key=lambda row: (-row["total_s"], row["cause_rank"], row["cause"]))
    return out


def site_text(site_name, rank, site):
    """A call site (a return address in rank's process) as the tables give it: its name
    (site_name(rank, site): "FILE:LINE"), else its address; "" none."""
    if not site:
        return ""
    return (site_name and site_name(rank, site)) or "0x%x" % site


def banner(row):
    """The one line of a row: what waiting it explains and how."""
    site = " (%s)" % row["cause_site"] if row["cause_site"] else ""
    many = "," in row["wait_ranks"] or "-" in row["wait_ranks"]
    return ("%.2f s of waiting in %s (%s) on rank%s %s is caused by `%s`%s on rank %d: "
            "%.2f s direct, %.2f s propagated"
            % (row["total_s"], row["wait_call"], row["wait_kind"], "s" if many else "",
               row["wait_ranks"],
               row["cause"], site, row["cause_rank"], row["direct_s"], row["propagated_s"]))
