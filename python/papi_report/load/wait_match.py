"""papi_report.load.wait_match: the MPI wrapper's wait rules (mpi-wrappers/waits/wait_rules.c)
once in Python, for both that recompute waits: a dead job's event logs (event_logs.py) and
the timeline of a trace (tables/timeline_data.py). Each finds in its own input which
records meet (the k-th send of a sender, tag and communicator class with the k-th receive;
the members of one collective) and which span each blocked in (its own, or the Wait that
completed a nonblocking call); the rules here say what it waited for and how long:
- a record's wait is the part of its span before the moment it waited for (waited), the
  longest when several rules apply, of that one kind (keep);
- a receive waits for its message's send to start; a synchronous or rendezvous send
  (rendezvous) for its receive to be posted;
- a collective waits for the last arrival of its members, the root's (on the other
  members) or the last non-root's (on the root), as its call's wait kind says
  (mpi_calls.list's wait= column); a call without one waits for nothing (MPI_Scan,
  MPI_Exscan, the neighbourhood collectives: collective_rule gives None).
The kinds are indices into mpi_rules.WAIT_KINDS, found by what they wait for
(wait_kinds.list): no kind is named here. A leaf: plain Python."""
import math

from . import event_record, mpi_rules

#: The wait kinds' names in the report's order (the kinds below index them).
KINDS = mpi_rules.WAIT_KINDS
#: The arrivals a collective's kind waits for, as wait_rules.c indexes them (PMPI_ARR_*).
ALL, ROOT, NONROOT = range(3)
_ARRIVALS = {"all": ALL, "root": ROOT, "nonroot": NONROOT}


def _kind_waiting_for(moment):
    """The one wait kind that waits for a point-to-point moment ("send", "receive")."""
    found = [i for i, k in enumerate(KINDS) if mpi_rules.WAITS_FOR[k] == moment]
    if len(found) != 1:
        raise ImportError("papi_report: wait_kinds.list has %d kinds waiting for the %s, "
                          "the wait rules one" % (len(found), moment))
    return found[0]


#: A receive's wait for its send (late sender), a send's for its receive (late receiver).
LATE_SENDER = _kind_waiting_for("send")
LATE_RECEIVER = _kind_waiting_for("receive")


def waited(t0, t1, t):
    """The wait of a span from t0 to t1 blocked until moment t (none when <= 0): the span's
    part before t."""
    return min(t, t1) - t0


def keep(wait, kind, b, w, k):
    """Record b's wait w of kind k kept where longer than the one it has (wait[b] and
    kind[b]: columns or mappings): a record several rules apply to keeps the longest."""
    if w > wait[b]:
        wait[b], kind[b] = w, k


def rendezvous(sync, nbytes):
    """Whether a send waits for its receive: a synchronous one (Ssend, Issend), or one of
    RENDEZVOUS_BYTES or more (MPICH's and Open MPI's eager limits are below it)."""
    return bool(sync) or nbytes >= event_record.RENDEZVOUS_BYTES


_rules = {}


def collective_rule(call):
    """(wait kind, arrival it waits for: ALL, ROOT or NONROOT) of a collective call
    ("MPI_Bcast"), or None: a call whose wait= column is "-" waits for nothing."""
    if call not in _rules:
        kind = mpi_rules.COLL_WAITS.get(call)
        _rules[call] = None if kind is None else \
            (KINDS.index(kind), _ARRIVALS[mpi_rules.WAITS_FOR[kind]])
    return _rules[call]


def member_waits(arrival, is_root):
    """Whether a member waits for that arrival: every one for ALL, the others for the
    root's, the root alone for the last non-root's."""
    return not ((arrival == ROOT and is_root) or (arrival == NONROOT and not is_root))


class Arrivals:
    """One collective's members and last arrivals (ALL, ROOT, NONROOT; -inf none), and who
    made each (the caller's token: what a wait waited for, for root_causes.py)."""
    __slots__ = ("members", "last", "who")

    def __init__(self):
        self.members = 0
        self.last = [-math.inf, -math.inf, -math.inf]
        self.who = [None, None, None]

    def add(self, t, is_root, idle=False, who=None):
        """A member arriving at t; an idle one (EVF_IDLE: it moves nothing) counts as a
        member without an arrival."""
        self.members += 1
        if idle:
            return
        w = ROOT if is_root else NONROOT
        for a in (ALL, w):
            if t > self.last[a]:
                self.last[a], self.who[a] = t, who

    def moment(self, arrival):
        """The arrival's time, or None where no member made it."""
        t = self.last[arrival]
        return t if math.isfinite(t) else None
