"""papi_report.load.activities: a rank's time as activities, the one timeline both the delay
analysis (root_causes.py) and the critical path (critical_path.py) walk: MPI calls (each
with the wait matched for it and what it waited for), compute between them split at
MPI_Pcontrol region boundaries, and each call's wait apart from the rest of it. Plain
Python, pure functions."""
from collections import namedtuple

#: An MPI call on a rank's timeline (one thread's): t0, t1 (ns, one clock for all ranks),
#: name, site (its call site's key), sync (an id every record of the same meeting shares:
#: a message's send and receive, a collective's members; None), wait (ns waited from t0,
#: 0 none), kind (the wait's kind's name), cause ((rank, call index) of the record waited
#: for; None unknown).
Call = namedtuple("Call", "t0 t1 name site sync wait kind cause")
#: A part of a rank's time: t0, t1, key (the activity; None for waiting), site ((site, name)
#: of its call, or of the call that ends its compute), call (the waiting call's index).
Segment = namedtuple("Segment", "t0 t1 key site call")


def segments(calls, regions):
    """A rank's time as Segments, in order, from its first call: compute between calls
    split at region boundaries (regions: (t, +1 enter / -1 exit, name) in time order), each
    call's wait then the rest of it."""
    return list(iter_segments(calls, regions))


def iter_segments(calls, regions):
    """segments() one at a time, each as soon as the call it ends with is read (calls: an
    iterable; regions: a sequence), for a timeline written to disk (cause_timeline.py)."""
    stack, k, prev = [], 0, None
    for i, c in enumerate(calls):
        if prev is not None:
            t = prev
            while k < len(regions) and regions[k][0] <= c.t0:
                rt, step, name = regions[k]
                if rt > t:
                    yield _compute(t, rt, stack, c)
                    t = rt
                if step > 0:
                    stack.append(name)
                elif name in stack:  # the innermost open with that name closes
                    del stack[len(stack) - 1 - stack[::-1].index(name)]
                k += 1
            if c.t0 > t:
                yield _compute(t, c.t0, stack, c)
        else:  # regions entered before the first call: open from it on
            while k < len(regions) and regions[k][0] <= c.t0:
                _rt, step, name = regions[k]
                if step > 0:
                    stack.append(name)
                elif name in stack:
                    stack.remove(name)
                k += 1
        w = min(max(c.wait, 0), c.t1 - c.t0)
        if w > 0:
            yield Segment(c.t0, c.t0 + w, None, (c.site, c.name), i)
        if c.t1 > c.t0 + w:
            yield Segment(c.t0 + w, c.t1, ("mpi", c.name, stack[-1] if stack else ""),
                          (c.site, c.name), i)
        prev = max(c.t1, prev if prev is not None else c.t1)


def _compute(t0, t1, stack, nxt):
    """Compute time: its region's (the innermost; "" outside any), so that the same work
    compares alike on every rank whatever call follows it; its site is the next call's
    (where the report can say it ended)."""
    return Segment(t0, t1, ("compute", stack[-1] if stack else "", ""), (nxt.site, nxt.name), None)


def activity_name(key, before=None):
    """What a report calls an activity key (before: the call that ends its compute)."""
    what, a, b = key
    if what == "compute":
        return a if a else "compute before %s" % before if before else "compute"
    return "%s (in %s)" % (a, b) if b else a
