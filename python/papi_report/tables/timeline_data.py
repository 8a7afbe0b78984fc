"""papi_report.tables.timeline_data: the spans the timeline figure draws (timeline.py), from the
run's Chrome trace-event JSON traces (issue 49 item 5): every MPI call of every rank and
thread split into its wait state and the rest, the regions, and the counter samples.

Where the traces are: beside the MPI report, papi_mpi_trace.json (PAPI_MPI_TRACE=json:
the whole job on rank 0's clock), else the per-rank trace_rank_*.json of papi_hl_trace/
or papi_run_trace/ there (PAPI_TRACE=json, papi_run --trace json; papi_hl_output/ and
papi_run_output/ in runs written before issue 56), put on one time axis by their
base_ns. OTF2 archives are not read (otf2-print and Vampir read them).

The wait states are computed from the trace alone by the wrapper's rules
(load/wait_match.py, which the event-log merge applies too): the n-th collective on
world-congruent communicators ("comm" 0) of every rank is one collective, as the wrapper
numbers them; a barrier or N x N collective waits from its start until the last rank's
start, a 1-to-N one (Bcast, Scatter) on a non-root rank until the root's start (late
root), an N-to-1 one (Gather, Reduce) on the root until the last other rank's start
(early reduce), a collective without a wait kind (MPI_Scan, MPI_Exscan) for nothing; a
receive whose call started before its message's send waits until the send (late sender,
the flow pairs them), a blocking synchronous or rendezvous send (64 KiB or more) until its
receive's call started (late receiver). The wait is the first part of the call; the rest
is "other MPI". What the trace does not carry gets no wait: a nonblocking call's (it
waits in the Wait that completes it, which the trace does not link) and a collective's on
another communicator (matched by a group the trace does not name). Needs pandas only."""
import bisect
import collections
import collections.abc
import glob
import os

import pandas as pd

from ..load import mpi_rules, registry, trace_file, wait_match

#: The states, in the figure's order (the wait kinds of mpi-wrappers/wait_kinds.list, other
#: MPI, computation; a GPU track's kernels and its copies and memsets).
KINDS = mpi_rules.WAIT_KINDS + ["other_mpi", "computation", "gpu_kernel", "gpu_copy"]
#: A GPU track of the traces (the GPU activity layer's, per device and stream) is a thread
#: named so ("GPU 0 stream 7"); its operations' names say copies and memsets apart.
GPU_TRACK = "GPU "
GPU_COPIES = ("memcpy", "memset")
SPAN_COLUMNS = ["rank", "thread", "lane", "kind", "name", "t0_s", "t1_s"]
COUNTER_COLUMNS = ["rank", "thread", "counter", "t_s", "value"]
#: What the figure says when there is no trace: the variables that write one.
HOW = ("set PAPI_MPI_TRACE=json for an MPI run (papi_mpi_trace.json beside the report), or "
       "PAPI_TRACE=json / papi_run --trace json for the region API and papi_run")


#: A trace that cannot be read, is not JSON or breaks trace_json.schema.json (one line).
TraceUnreadable = trace_file.TraceError


def find_traces(report_path):
    """The JSON traces of the run whose MPI report (or directory) is report_path: [paths]."""
    d = report_path if os.path.isdir(report_path) else os.path.dirname(os.path.abspath(report_path))
    job = os.path.join(d, "papi_mpi_trace.json")
    if os.path.isfile(job):
        return [job]
    for sub in ("papi_hl_trace", "papi_run_trace", "papi_hl_output", "papi_run_output"):
        found = sorted(glob.glob(os.path.join(d, sub, "trace_rank_*.json")))
        if found:
            return found
    return []


def read_events(paths):
    """(events with "ts" in seconds on one axis, dropped records): the traces' events."""
    docs = [trace_file.load(p) for p in paths]
    if not docs:
        return [], 0
    base = min(d["otherData"]["base_ns"] for d in docs)
    out, dropped = [], 0
    for d in docs:
        shift = (d["otherData"]["base_ns"] - base) / 1e9
        dropped += int(d["otherData"].get("dropped", 0) or 0)
        for e in d["traceEvents"]:
            if not isinstance(e, dict):
                continue
            if e.get("ph") == "M":  # a track's name (the GPU lanes'): no time of its own
                e["ts"] = shift
                out.append(e)
            elif isinstance(e.get("ts"), (int, float)):
                e["ts"] = e["ts"] / 1e6 + shift  # seconds (the document is ours to change)
                out.append(e)
    return out, dropped


def _slices(events):
    """{(rank, thread): [[name, cat, t0, t1, depth]]} from the B/E pairs (an unmatched B
    closed at its thread's last event)."""
    open_, out, last = {}, {}, {}
    for e in events:
        key = (int(e.get("pid", 0)), int(e.get("tid", 0)))
        last[key] = max(last.get(key, e["ts"]), e["ts"])
        ph = e.get("ph")
        if ph == "B":
            stack = open_.setdefault(key, [])
            s = [e.get("name", "?"), e.get("cat", ""), e["ts"], None, len(stack)]
            stack.append(s)
            out.setdefault(key, []).append(s)
        elif ph == "E" and open_.get(key):
            open_[key].pop()[3] = e["ts"]
    for key, stack in open_.items():
        for s in stack:
            s[3] = last[key]
    return out


def _enclosing(slices, ts):
    """The MPI slice of a thread holding ts, or None: the latest MPI slice started at or
    before ts (a thread's MPI calls do not nest). slices: _slices' list, sorted by start,
    with its starts in slices.starts."""
    i = bisect.bisect_right(slices.starts, ts) - 1
    while i >= 0 and slices[i][1] != "mpi":
        i -= 1
    return slices[i] if i >= 0 and slices[i][3] >= ts else None


class _Thread(list):
    """A thread's slices sorted by start, with the starts for bisect."""

    def __init__(self, items):
        super().__init__(sorted(items, key=lambda s: (s[2], s[4])))
        self.starts = [s[2] for s in self]


def _collective_waits(colls, mpi_slices, wait, kind):
    """The waits at the collectives into wait and kind ({id(slice): seconds, wait kind's
    index}): those on world-congruent communicators matched by their order on each rank;
    a call that makes a request (its wait is in its Wait) waits for nothing here."""
    by_rank = {}
    for e in colls:
        if (e.get("args") or {}).get("comm", 0) == 0:
            by_rank.setdefault(int(e.get("pid", 0)), []).append(e)
    if not by_rank:
        return
    for evs in by_rank.values():
        evs.sort(key=lambda e: e["ts"])
    n = min(len(v) for v in by_rank.values())
    for k in range(n):
        group = {r: v[k] for r, v in by_rank.items()}
        if len({e.get("name") for e in group.values()}) != 1:
            continue  # out of step (a rank's trace cut): no wait said rather than a wrong one
        root = (group[min(group)].get("args") or {}).get("root", -1)
        arrivals = wait_match.Arrivals()
        for r, e in group.items():
            arrivals.add(e["ts"], r == root)
        for r, e in group.items():
            s = mpi_slices.get((r, int(e.get("tid", 0))))
            s = _enclosing(s, e["ts"]) if s else None
            rule = wait_match.collective_rule(s[0]) if s is not None and \
                s[0] in mpi_rules.BLOCKING_COLLS else None
            if rule is None or not wait_match.member_waits(rule[1], r == root):
                continue
            t = arrivals.moment(rule[1])
            if t is not None:
                wait_match.keep(wait, kind, id(s), wait_match.waited(s[2], s[3], t), rule[0])


def _p2p_waits(flows, slices, wait, kind):
    """Late senders at receives and late receivers at blocking synchronous or rendezvous
    sends into wait and kind, each message's send and receive paired by their flow's id
    (the wrapper's trace numbers the k-th message of a sender, tag and communicator so)."""
    sends, recvs = {}, {}
    for e in flows:
        (sends if e.get("ph") == "s" else recvs)[e.get("id")] = e
    for fid, f in recvs.items():
        s = sends.get(fid)
        if s is None:
            continue
        rs = slices.get((int(f.get("pid", 0)), int(f.get("tid", 0))))
        ss = slices.get((int(s.get("pid", 0)), int(s.get("tid", 0))))
        rslice = _enclosing(rs, f["ts"]) if rs else None
        sslice = _enclosing(ss, s["ts"]) if ss else None
        if rslice is None:
            continue
        wait_match.keep(wait, kind, id(rslice), wait_match.waited(rslice[2], rslice[3], s["ts"]),
                        wait_match.LATE_SENDER)
        if sslice is not None and sslice[0] in mpi_rules.BLOCKING_SENDS and wait_match.rendezvous(
                sslice[0] in mpi_rules.SYNC_SENDS, (s.get("args") or {}).get("bytes", 0)):
            wait_match.keep(wait, kind, id(sslice), wait_match.waited(sslice[2], sslice[3], rslice[2]),
                            wait_match.LATE_RECEIVER)


def _gpu_tracks(events):
    """{(rank, thread): track name} of the GPU tracks (their thread_name metadata)."""
    out = {}
    for e in events:
        if e.get("ph") == "M" and e.get("name") == "thread_name":
            name = str((e.get("args") or {}).get("name", ""))
            if name.startswith(GPU_TRACK):
                out[(int(e.get("pid", 0)), int(e.get("tid", 0)))] = name
    return out


def spans_from_events(events):
    """(spans DataFrame of SPAN_COLUMNS, counters DataFrame of COUNTER_COLUMNS) of the
    trace's events: an MPI call's wait span, then its "other_mpi" rest; regions as kind
    "region"; computation as the gaps between a thread's MPI calls; a GPU track's kernels
    as "gpu_kernel", its copies and memsets as "gpu_copy" (spans.attrs["gpu_lanes"]: each
    such lane's track name)."""
    gpu = _gpu_tracks(events)
    events = sorted(events, key=lambda e: e["ts"])
    slices = {k: _Thread(v) for k, v in _slices(events).items()}
    wait, kind = collections.defaultdict(float), {}  # {id(slice): seconds, kind's index}
    _collective_waits([e for e in events if e.get("ph") == "X" and
                       e.get("cat") == "mpi_collective"], slices, wait, kind)
    _p2p_waits([e for e in events if e.get("ph") in ("s", "f")], slices, wait, kind)
    keys = sorted(slices)
    lanes = {k: i for i, k in enumerate(keys)}
    rows = []
    for key in keys:
        rank, thread = key
        lane = lanes[key]
        if key in gpu:
            rows += [(rank, thread, lane, "gpu_copy" if s[0].startswith(GPU_COPIES) else
                      "gpu_kernel", s[0], s[2], s[3]) for s in slices[key]]
            continue
        t_first, t_last = None, None
        mpi_top = []
        for s in slices[key]:
            name, cat, t0, t1, depth = s
            t_first = t0 if t_first is None else min(t_first, t0)
            t_last = t1 if t_last is None else max(t_last, t1)
            if cat != "mpi":
                rows.append((rank, thread, lane, "region", name, t0, t1))
                continue
            if mpi_top and t0 < mpi_top[-1][1]:
                continue  # an MPI call inside another (the outer one's state holds it)
            mpi_top.append((t0, t1))
            w = wait.get(id(s), 0.0)
            if w > 0:
                rows.append((rank, thread, lane, wait_match.KINDS[kind[id(s)]], name, t0, t0 + w))
                t0 += w
            if t1 > t0:
                rows.append((rank, thread, lane, "other_mpi", name, t0, t1))
        cursor = t_first
        for t0, t1 in mpi_top:
            if t0 > cursor:
                rows.append((rank, thread, lane, "computation", "", cursor, t0))
            cursor = max(cursor, t1)
        if t_last is not None and t_last > cursor:
            rows.append((rank, thread, lane, "computation", "", cursor, t_last))
    spans = pd.DataFrame(rows, columns=SPAN_COLUMNS)
    spans.attrs["gpu_lanes"] = {lanes[k]: n for k, n in gpu.items() if k in lanes}
    counters = pd.DataFrame([(int(e.get("pid", 0)), int(e.get("tid", 0)), e.get("name", "?"),
                              e["ts"], (e.get("args") or {}).get("value"))
                             for e in events if e.get("ph") == "C"], columns=COUNTER_COLUMNS)
    return spans, counters


def _report_path(docs):
    for label, doc in docs:
        if isinstance(doc, dict) and isinstance(doc.get("ranks"), collections.abc.Sequence) and os.path.exists(label):
            return label
    return None


def _empty(why, not_given=False):
    df = pd.DataFrame(columns=SPAN_COLUMNS)
    df.attrs["why"] = why
    df.attrs["not_given"] = not_given  # no MPI report given: the page leaves the figure out
    return df


_CACHE = {}


def _timeline(docs):
    """(spans, counters) of the run's traces, read once per report path."""
    path = _report_path(docs)
    if path is None:
        return _empty("no trace: the timeline is drawn from an MPI run's trace beside its "
                      "report (%s)" % HOW, not_given=True), pd.DataFrame(columns=COUNTER_COLUMNS)
    traces = find_traces(path)
    key = tuple((p, os.path.getmtime(p)) for p in traces)
    if key in _CACHE:
        return _CACHE[key]
    if not traces:
        got = _empty("no JSON trace beside %s: %s" % (path, HOW)), pd.DataFrame(columns=COUNTER_COLUMNS)
    else:
        try:
            events, dropped = read_events(traces)
            spans, counters = spans_from_events(events)
            spans.attrs.update(source=", ".join(os.path.basename(p) for p in traces), dropped=dropped)
            if spans.empty:
                spans.attrs["why"] = "the trace %s holds no MPI call or region" % traces[0]
            got = spans, counters
        except TraceUnreadable as e:
            got = _empty(str(e)), pd.DataFrame(columns=COUNTER_COLUMNS)
        except (ValueError, TypeError, KeyError, AttributeError) as e:
            # A trace edited or cut by hand: the figure says so, the rest of the report stands.
            got = _empty("%s: unexpected content (%s: %s)" % (traces[0], type(e).__name__, e)), \
                pd.DataFrame(columns=COUNTER_COLUMNS)
    _CACHE.clear()
    _CACHE[key] = got
    return got


@registry.table("derived")
def timeline_spans(tables, docs, peaks):
    """Each rank's and thread's MPI states, regions and computation over time (seconds
    from the trace's start); attrs["why"] when there is no trace."""
    return _timeline(docs)[0]


@registry.table("derived")
def timeline_counters(tables, docs, peaks):
    """The trace's counter samples (a count since the counters started, per rank)."""
    return _timeline(docs)[1]
