"""papi_report --merge-trace OUT DIR: a job that died before MPI_Finalize (no
papi_mpi_report.json) still has each rank's event log up to its last checkpoint or its
exit path, in DIR/papi_mpi_rank<N>.events.jsonl (schema/mpi_event_log.schema.json, written
by mpi-wrappers/event_log/event_log_file.c). This module reads them, computes the wait states the
wrapper computes at MPI_Finalize (wait_states.c) from what was logged, by its rules
(wait_match.py: what a record waits for and how long; which records meet is found here), and
makes one Chrome trace-event JSON document of them: a track per rank and thread (the
record's thread slot: MPI_THREAD_MULTIPLE programs), the MPI calls and regions as slices
with their waits, PAPI_INTERVAL's samples as counter tracks (each event's count since
MPI_Init), and in otherData the waits per rank and the ranks that did not finish, with
why. The logs are read a line at a time (event_log_read.py), twice. The wait states need
each point-to-point, collective and wait record's times and peers (Comm: compact columns,
one rank's at a time); they are kept on disk (spill.py: a temporary file in TMPDIR, about
60 bytes a record), each send bucketed by its destination and each collective's
arrivals folded into one entry, then matched rank by rank: memory grows with the records
of the largest rank, the collectives and the ranks, not with the job's records. The trace
is then written as the logs are read again. Plain Python, no pandas."""
import glob
import os
import tempfile
from array import array

from . import event_log_read, mpi_rows, mpi_rules, spill, wait_match
from .event_log_read import EventLogError
# What a record is, as the wrapper's header says (the build's table, generated from it).
from .event_record import (CALL, COLL, COUNTER, EVF_GROUP, EVF_IDLE, EVF_POLL, EVF_ROOT,
                           EVF_SYNC, EVF_WORLD, RECV, REGION_ENTER, REGION_EXIT, SEND, WAIT)
from .progress import Progress

#: The log keeps a named metric (a double) as an integer in millionths, its name saying so;
#: the trace takes the number itself.
METRIC_SUFFIX = " (millionths)"
ANY_TAG = -1  # MPICH's and Open MPI's MPI_ANY_TAG
KINDS = mpi_rules.REPORT_KEYS  # mpi-wrappers/wait_kinds.list, the report's order


def has_logs(path):
    return os.path.isdir(path) and bool(glob.glob(os.path.join(path, event_log_read.PATTERN)))


_COMM = (SEND, RECV, COLL, WAIT)
#: Comm's columns and their array types (a value an int64 cannot hold turns its column into
#: a list).
_COLUMNS = (("kind", "b"), ("t0", "q"), ("t1", "q"), ("peer", "q"), ("tag", "q"), ("flags", "q"),
            ("group", "q"), ("big", "b"), ("cls", "b"), ("waiter", "q"), ("wait", "d"),
            ("wkind", "b"), ("cause_rank", "q"), ("cause", "q"), ("mate_rank", "q"),
            ("mate", "q"))


class Comm:
    """One rank's point-to-point, collective and wait records (the only ones the wait
    states involve), in log order, a column each: kind, t0 and t1 (ns, on rank 0's clock),
    peer and tag (a wildcard receive's from its Wait), flags, group, big (a send that
    waits for its receive: wait_match.rendezvous), cls (its collective's wait rule,
    _coll_class; -1 none), waiter (the record that blocks for it: itself, its Wait, or
    -1), and what wait_states gives: wait (ns) and wkind, what the wait waited for
    (cause_rank, cause: its record; -1 none) and a receive's send (mate_rank, mate; -1
    none), for root_causes.py."""

    def __init__(self):
        for name, code in _COLUMNS:
            setattr(self, name, array(code))

    def append(self, *values):
        for (name, _code), v in zip(_COLUMNS, values):
            col = getattr(self, name)
            try:
                col.append(v)
            except OverflowError:  # beyond int64: a list holds it
                col = list(col)
                col.append(v)
                setattr(self, name, col)

    def __len__(self):
        return len(self.kind)


def _coll_class(name):
    """A collective's wait rule in one small integer (wait kind * 3 + arrival:
    wait_match.collective_rule), or -1 for none."""
    rule = wait_match.collective_rule(name)
    return -1 if rule is None else rule[0] * 3 + rule[1]


def _thread(rec):
    """A record's thread slot (a log of a wrapper before threads were logged: one thread)."""
    return rec[11] if len(rec) > 11 else 0


def _read(r):
    """r's Comm, returned; its threads, earliest t0 ("t0_min", None without records) and
    the trace's events for it ("events") kept in r; from one pass over its records; each
    nonblocking record linked to its Wait (the latest I-record with that request before
    it), a wildcard receive given its Wait's source and tag."""
    c, open_req, threads, t0_min, events = Comm(), {}, set(), None, 0
    off = r["offset_ns"]
    for rec in event_log_read.records(r):
        kind, t0 = rec[0], rec[2] - off
        threads.add(_thread(rec))
        t0_min = t0 if t0_min is None or t0 < t0_min else t0_min
        events += 1 if kind in (COUNTER, REGION_ENTER, REGION_EXIT) else 2
        if kind not in _COMM:
            continue
        j, peer, tag, req, flags = len(c), rec[4], rec[5], rec[7], rec[8]
        c.append(kind, t0, rec[3] - off, peer, tag, flags, rec[10],
                 1 if wait_match.rendezvous(flags & EVF_SYNC, rec[6]) else 0,
                 _coll_class(rec[1]) if kind == COLL else -1, -1 if req else j, 0.0, -1,
                 -1, -1, -1, -1)
        if not req:
            continue
        if kind != WAIT:
            open_req[req] = j
        elif req in open_req:
            m = open_req.pop(req)
            c.waiter[m] = j
            if c.kind[m] == RECV and c.flags[m] & EVF_WORLD:
                if c.peer[m] < 0 and peer >= 0:
                    c.peer[m] = peer
                if c.tag[m] == ANY_TAG and tag >= 0:
                    c.tag[m] = tag
    r.update(threads=sorted(threads), t0_min=t0_min, events=events + 2 + len(threads))
    return c


class Logs(dict):
    """{rank: scan()'s entry, with its threads, t0_min, events and where its Comm is kept
    ("comm_at")}, and what the job's wait states need across ranks, off the heap: the
    spill (each rank's Comm), the sends bucketed by destination rank, and one entry of
    arrivals a collective (not a record)."""

    def __init__(self, ranks):
        super().__init__(ranks)
        self.spill = spill.Spill()
        self.sends = spill.Buckets(self.spill)
        self.arrivals = {}  # _coll_key -> wait_match.Arrivals
        self.waits = None  # wait_states()'s result, once computed

    def keep(self, rank, c):
        """Rank's Comm spilled, its sends to logged ranks bucketed, its collectives'
        arrivals folded in."""
        self[rank]["comm_at"] = self.spill.put(c)
        for j in range(len(c)):
            kind = c.kind[j]
            if kind == SEND and c.peer[j] in self:
                world = 1 if c.flags[j] & EVF_WORLD else 0
                self.sends.add(c.peer[j], (rank, c.tag[j], world, j, c.t0[j], c.big[j]))
            elif kind == COLL:
                key = _coll_key(c, j)
                a = self.arrivals.get(key)
                if a is None:
                    a = self.arrivals[key] = wait_match.Arrivals()
                a.add(c.t0[j], c.flags[j] & EVF_ROOT, idle=c.flags[j] & EVF_IDLE, who=(rank, j))


def load(directory, notes=None):
    """Logs of the newest run's logs (event_log_read.scan, then _read rank by rank, each
    rank's Comm kept on disk); a torn last line, from a rank killed while it appended, left
    out and said in notes (a list, one line each)."""
    scanned = event_log_read.scan(directory, notes)
    try:
        ranks = Logs(scanned)
        progress = Progress("reading the event logs", len(ranks), "ranks")
        for rank in sorted(ranks):
            ranks.keep(rank, _read(ranks[rank]))
            progress.step()
    except OSError as e:  # the logs' own read errors are EventLogErrors already
        raise _spill_error(e)
    progress.done()
    return ranks


def _spill_error(e):
    return EventLogError("papi_report's temporary file for the wait states, in %s (TMPDIR): %s"
                         % (tempfile.gettempdir(), e.strerror or e))


def _add_wait(c, b, t, kind, cause=None):
    """Record b of c (a blocker: -1 none) blocked until moment t (wait_match's rules), made
    by cause ((rank, record) or None) when that is the wait b keeps."""
    if b >= 0:
        w = wait_match.waited(c.t0[b], c.t1[b], t)
        if w > c.wait[b] and cause is not None:
            c.cause_rank[b], c.cause[b] = cause
        wait_match.keep(c.wait, c.wkind, b, w, kind)


def _receives(rank, c, into, senders, stats):
    """c's receives, the k-th of (sender, tag, world) matched with the k-th send of the
    same into c's rank (into: Logs.sends' items for it, each sender's in its order): the
    receive's wait added to c, a synchronous or rendezvous send's added to senders (its
    rank's bucket: the send's index and the receive's start)."""
    sends = {}  # (src, tag, world) -> [(t0, index, sync) in order]: this rank's only
    for src, tag, world, j, t0, sync in into:
        sends.setdefault((src, tag, world), []).append((t0, j, sync))
    taken = {}
    for i in range(len(c)):
        if c.kind[i] != RECV:
            continue
        key = (c.peer[i], c.tag[i], 1 if c.flags[i] & EVF_WORLD else 0)
        k = taken.get(key, 0)
        lst = sends.get(key, ())
        if c.peer[i] < 0 or c.tag[i] < 0 or k >= len(lst):
            stats["p2p_unmatched"] += 1
            continue
        taken[key] = k + 1
        t0, si, sync = lst[k]
        stats["p2p_matched"] += 1
        c.mate_rank[i], c.mate[i] = key[0], si
        _add_wait(c, c.waiter[i], t0, wait_match.LATE_SENDER, (key[0], si))
        if sync:
            senders.add(key[0], (si, c.t0[i], rank, i))


def _coll_key(c, i):
    """A collective's identity across ranks: (0, number) on world-congruent communicators,
    (group key, number in the group) on others."""
    return (c.group[i] if c.flags[i] & EVF_GROUP else 0, c.tag[i])


def _collectives(c, arrivals, size, nranks, stats):
    """c's collectives given the last arrival (all, root, non-root) over their members;
    only the collectives every member logged (a rank's log that ends before one leaves its
    arrival unknown): nranks of them on world-congruent communicators, as many as the most
    any collective of that group had (size: its size) on others."""
    for i in range(len(c)):
        if c.kind[i] != COLL:
            continue
        k = _coll_key(c, i)
        a = arrivals[k]
        if a.members < (size[k[0]] if k[0] else nranks):
            stats["coll_unmatched"] += 1
            continue
        stats["coll_matched"] += 1
        cls = c.cls[i]
        if cls < 0 or c.flags[i] & EVF_IDLE:
            continue
        kind, arrival = divmod(cls, 3)
        if not wait_match.member_waits(arrival, c.flags[i] & EVF_ROOT):
            continue
        t = a.moment(arrival)
        if t is not None:
            _add_wait(c, c.waiter[i], t, kind, a.who[arrival])


def _causes(c):
    """c's columns of what its waits waited for and its receives' sends."""
    return c.cause_rank, c.cause, c.mate_rank, c.mate


#: The columns of a rank's Comm that its timeline for the root causes reads (log_delays.py),
#: in a spill.Rows written once its waits are known (Logs' "rows_at"): read back a block at
#: a time, not the whole Comm. wait in whole ns (the logs' times are); a group or tag past
#: int64 as its 64 bits, signed.
ROW_COLUMNS = ("kind", "flags", "group", "tag", "waiter", "mate_rank", "mate", "wait", "wkind",
               "cause_rank", "cause")


def _rows(sp, c):
    """c's ROW_COLUMNS as a spill.Rows in sp."""
    out = spill.Rows(sp, len(ROW_COLUMNS))
    for row in zip(c.kind, c.flags, c.group, c.tag, c.waiter, c.mate_rank, c.mate,
                   (int(w) for w in c.wait), c.wkind, c.cause_rank, c.cause):
        out.append(row)
    return out


def wait_states(ranks):
    """The waits per rank ({"rank", "records", "<kind>_s"...}) and the matching counts, of
    Logs: each rank's receives and collectives (its Comm back from disk, the sends into it
    from their bucket), then each rank's synchronous sends given their receives' starts;
    each rank's waits kept on disk ("waits_at") for the trace, and ROW_COLUMNS ("rows_at")
    for its timeline."""
    if ranks.waits is not None:
        return ranks.waits
    nranks = max([r["nranks"] for r in ranks.values()] + [max(ranks) + 1])
    stats = {"p2p_matched": 0, "p2p_unmatched": 0, "coll_matched": 0, "coll_unmatched": 0}
    size = {}
    for (g, _), a in ranks.arrivals.items():
        size[g] = max(size.get(g, 0), a.members)
    try:
        ranks.waits = _matched(ranks, nranks, stats, size)
    except OSError as e:
        raise _spill_error(e)
    return ranks.waits


def _matched(ranks, nranks, stats, size):
    """wait_states' two passes over the ranks (size: each group's members)."""
    senders = spill.Buckets(ranks.spill)
    progress = Progress("matching the messages and collectives", 2 * len(ranks), "ranks")
    for rank in sorted(ranks):
        r = ranks[rank]
        c = ranks.spill.get(r["comm_at"])
        _receives(rank, c, ranks.sends.take(rank), senders, stats)
        _collectives(c, ranks.arrivals, size, nranks, stats)
        r["waits_at"] = ranks.spill.put((c.wait, c.wkind))
        r["causes_at"] = ranks.spill.put(_causes(c))
        progress.step()
    out = []
    for rank in sorted(ranks):
        r = ranks[rank]
        c = ranks.spill.get(r["comm_at"])
        c.wait, c.wkind = ranks.spill.get(r["waits_at"])
        c.cause_rank, c.cause, c.mate_rank, c.mate = ranks.spill.get(r["causes_at"])
        for si, t, rr, ri in senders.take(rank):
            _add_wait(c, c.waiter[si], t, wait_match.LATE_RECEIVER, (rr, ri))
        r["waits_at"] = ranks.spill.put((c.wait, c.wkind))
        r["causes_at"] = ranks.spill.put(_causes(c))
        r["rows_at"] = _rows(ranks.spill, c)
        row = {"rank": rank, "records": r["count"], "dropped": r["dropped"]}
        row.update({k: 0.0 for k in KINDS})
        for wait, wkind in zip(c.wait, c.wkind):
            if wait > 0:
                row[KINDS[wkind]] += wait * 1e-9
        out.append(row)
        progress.step()
    progress.done()
    return out, stats, nranks


NO_LOG = "no event log (killed before its first checkpoint)"
#: the reason of a log's last line where its rank finished (PAPI_MPI_KEEP_EVENT_LOG=1)
FINISHED = "MPI_Finalize"


def unfinished(ranks, nranks, rows=None):
    """The ranks that did not reach MPI_Finalize, with what ended their log; a rank without
    a log that left a row (rows: mpi_rows.Found.rows) is said by its row. Ranks that left
    neither are one entry per run of them ("rank" to "last_rank"): the work is the files',
    whatever nranks the logs claim."""
    rows = rows or {}
    out, prev = [], -1
    end = max([nranks] + [k + 1 for k in rows])
    for rank in sorted(set(ranks) | set(rows)) + [end]:
        if rank in ranks and ranks[rank]["reason"] == FINISHED:
            prev = rank  # its log kept past MPI_Finalize (PAPI_MPI_KEEP_EVENT_LOG)
            continue
        if rank > prev + 1:  # prev+1 .. rank-1 left nothing
            out.append({"rank": prev + 1, "exit_reason": NO_LOG})
            if rank - 1 > prev + 1:
                out[-1]["last_rank"] = rank - 1
        prev = rank
        if rank == end:
            break
        r = ranks.get(rank)
        if r is None:
            _kind, name, row = rows[rank]
            why = "no event log; its row %s says %s" % (name, row.get("exit_reason") or "nothing")
        else:
            why = "killed after its last checkpoint (no exit path ran)" if r["reason"] == "checkpoint" \
                else r["reason"]
        out.append({"rank": rank, "exit_reason": why})
    return out


def unfinished_line(g):
    """papi_report's line for an entry of unfinished()."""
    if "last_rank" in g:
        return "papi_report: ranks %d-%d did not finish: %s" % (g["rank"], g["last_rank"], g["exit_reason"])
    return "papi_report: rank %d did not finish: %s" % (g["rank"], g["exit_reason"])


def trace(directory, notes=None):
    """(otherData, number of events, events) of the Chrome trace-event document of the
    event logs in directory (notes: load's); the events an iterator, each rank's log read
    again as they are asked for."""
    ranks = load(directory, notes)
    waits, stats, nranks = wait_states(ranks)
    times = [r["t0_min"] for r in ranks.values() if r["t0_min"] is not None]
    base = max(0, int(min(times))) if times else 0
    gone = unfinished(ranks, nranks)
    why_of = {g["rank"]: g["exit_reason"] for g in gone}
    other = {"format": "papi-compat trace", "version": 1, "base_ns": base, "ranks": len(ranks),
             "dropped": sum(r["dropped"] for r in ranks.values()),
             "run_id": next(iter(ranks.values()))["run_id"] or "",
             "creator": "papi_report --merge-trace (event logs of a run without "
                        "papi_mpi_report.json)",
             "wait_states": {"ranks": waits, "matched": stats},
             "unfinished": gone}

    def events():
        for rank in sorted(ranks):
            r = ranks[rank]
            yield from _rank_events(rank, r, why_of[rank], base, ranks.spill.get(r["waits_at"]))
    return other, sum(r["events"] for r in ranks.values()), events()


def _rank_events(rank, r, why, base, waits):
    """The trace events of one rank: its name and tracks, then its records' slices (waits:
    its Comm's wait and wkind columns, wait_states')."""
    def us(t):
        return max(0.0, round((t - base) / 1000.0, 3))
    yield {"ph": "M", "pid": rank, "tid": 0, "name": "process_name",
           "args": {"name": "rank %d (did not finish: %s)" % (rank, why)}}
    yield {"ph": "M", "pid": rank, "tid": 0, "name": "process_sort_index",
           "args": {"sort_index": rank}}
    # a track per thread slot: 0 the thread of MPI_Init, the others by first MPI call
    for th in r["threads"]:
        yield {"ph": "M", "pid": rank, "tid": th, "name": "thread_name",
               "args": {"name": "thread %d" % th if th else "main thread"}}
    (wait, wkind), j, off = waits, 0, r["offset_ns"]
    for rec in event_log_read.records(r):
        kind, name, t0 = rec[0], rec[1], rec[2] - off
        tid = _thread(rec)
        if kind == COUNTER:  # a PAPI_INTERVAL sample: the count since MPI_Init
            value = rec[6]
            if name.endswith(METRIC_SUFFIX):  # a region's metric, logged in millionths
                name, value = name[:-len(METRIC_SUFFIX)], value * 1e-6
            yield {"ph": "C", "pid": rank, "tid": 0, "name": name, "cat": "counter",
                   "ts": us(t0), "args": {"value": value}}
            continue
        if kind in (REGION_ENTER, REGION_EXIT):
            yield {"ph": "B" if kind == REGION_ENTER else "E", "pid": rank, "tid": tid,
                   "name": name or "region", "cat": "region", "ts": us(t0)}
            continue
        b = {"ph": "B", "pid": rank, "tid": tid, "name": name, "cat": "mpi", "ts": us(t0)}
        if kind in _COMM:
            if wait[j] > 0:
                b["args"] = {KINDS[wkind[j]]: round(wait[j] * 1e-9, 9)}
            j += 1
        if rec[8] & EVF_POLL:  # folded polls: the count the in-process trace gives
            b.setdefault("args", {})["calls"] = rec[12] if len(rec) > 12 else 1
        yield b
        yield {"ph": "E", "pid": rank, "tid": tid, "name": name, "cat": "mpi",
               "ts": us(rec[3] - off)}


def has_rows(path):
    """Per-rank rows of a job that did not finish (papi_mpi_rank<N>.partial/checkpoint.json)."""
    return mpi_rows.has_rows(path)


def _rows_text(found):
    """The table of the rows (mpi_rows.read: the newest run's, each rank's that wins) and a
    line per row of an earlier run left out."""
    out = []
    if found.rows:
        out.append("rows (the ranks' own, papi_mpi_rank<N>.*.json, run %s):" % found.run_id)
        out.append("%5s %10s %10s  %s" % ("rank", "wall_s", "mpi_s", "exit_reason"))
        for rank in sorted(found.rows):
            kind, name, r = found.rows[rank]
            why = r.get("exit_reason") or "-"
            if kind == "checkpoint.prev":
                why += " (from %s)" % name
            out.append("%5d %10.6f %10.6f  %s" % (rank, float(r.get("wall_s") or 0),
                                                  float(r.get("mpi_s") or 0), why))
    for name in found.ignored:
        out.append("papi_report: %s: an earlier run's row (this run is %s): left out"
                   % (os.path.join(found.directory, name), found.run_id))
    return out


def summary(directory, more=None):
    """(text, malformed): the text `papi_report DIR` prints for a job that left event logs
    or rows but no papi_mpi_report.json (the wait states per rank the logs give, how the
    requests matched, and the ranks that did not finish: the same figures --merge-trace
    puts in its trace's otherData; each rank's own row), and one line per row left out
    because it is not JSON or breaks its schema ("FILE: what is wrong"). more: a function
    of the Logs giving lines to add after the matching counts (the root causes of the
    waits: a module above this one, log_delays.py)."""
    found = mpi_rows.read(directory, report=False)
    why = "no event log"
    try:
        ranks = load(directory, found.malformed) if has_logs(directory) else None
    except EventLogError as e:
        if not found.rows:
            raise
        ranks, why = None, "event logs that cannot be used"
        found.malformed.append(str(e))  # said on stderr; the rows shown
    if ranks is None:  # rows only: no wait states without the event logs
        return "\n".join(["papi_report: %s holds no papi_mpi_report.json (the job did not "
                          "reach MPI_Finalize) and %s (no wait states): what its rows hold"
                          % (directory, why)] + _rows_text(found)) + "\n", found.malformed
    waits, stats, nranks = wait_states(ranks)
    run_id = next(iter(ranks.values()))["run_id"] or "?"
    finished = all(r["reason"] == FINISHED for r in ranks.values()) and len(ranks) == nranks
    out = ["papi_report: %s holds no papi_mpi_report.json (%s): what its event logs hold "
           "(run %s, %d of %d ranks logged)"
           % (directory, "every rank's log kept past MPI_Finalize" if finished else
              "the job did not reach MPI_Finalize", run_id, len(ranks), nranks),
           "%5s %8s %8s" % ("rank", "records", "dropped") + "".join(" %15s" % k for k in KINDS)]
    for w in waits:
        out.append("%5d %8d %8d" % (w["rank"], w["records"], w["dropped"]) +
                   "".join(" %15.6f" % w[k] for k in KINDS))
    out.append("matched: point-to-point %d (unmatched %d), collectives %d (unmatched %d)"
               % (stats["p2p_matched"], stats["p2p_unmatched"], stats["coll_matched"],
                  stats["coll_unmatched"]))
    if more is not None:
        out += more(ranks)
    out += _rows_text(found)
    out += [unfinished_line(g) for g in unfinished(ranks, nranks, found.rows)]
    out.append("papi_report: the timeline of these logs: papi_report --merge-trace OUT.json %s"
               % directory)
    return "\n".join(out) + "\n", found.malformed
