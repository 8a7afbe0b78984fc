"""papi_report.load.trace_causes: what papi_report --merge-trace adds to a finished job's
merged JSON trace (or, page/trace_otf2.py, to a copy of its OTF2 archive: each ENTER and
LEAVE given to tag() as a B and an E, path_slices() its critical path's location) when the
job's event logs are found beside its traces: the critical
path (critical_path.walk) as a process of its own, and each wait linked to its root causes
(root_causes.analyse per wait), both computed over log_delays' timelines as `papi_report
DIR` and --advise compute them; nothing is computed here but where things go in the trace.

- "critical path": a process (pid: the number of ranks, after them) with one track whose
  slices (X, cat critical_path) are the path's parts in time order, each named by its
  activity, with args rank, activity and site;
- on each rank whose work caused a wait, a track "delays (root causes of waits)" (tid
  DELAY_TID) with a slice (X, cat delay) per delaying part (the activity's Segment where
  the largest share of a wait landed), its args the activity's costs over all its waits;
- each wait's slice (the MPI call's B on its rank) gets args: its wait kind's seconds and
  "causes" (empty for a wait the analysis found no cause of: its time the residual), its
  largest causes (MOST_CAUSES, the rest summed in others_s) with their rank,
  activity and site as the root-cause table names them, the direct and propagated cost of
  this wait (s) and the id of a flow: s on the delay's slice, f bound to the wait's slice
  (cat root_cause); Perfetto draws it as an arrow from the delay to the wait.

Clocks: the logs and the trace count the same ticks, each converted to CLOCK_MONOTONIC ns
on rank 0's clock, but not alike: a log line's records with the ns per tick measured when
that checkpoint was written (the first ones 10 ms into the run), the trace's with the one
measured at MPI_Finalize, its offset to rank 0 interpolated over the run (trace_export.c);
log_delays' timelines take the logs' times minus offset_ns. The two drift apart by tens
of ppm (20 us over 0.4 s on this project's VM). So each MPI call's and region's B and E
is matched to its record by rank, name and time, the time predicted by the rank's last
record found (a drift of at most DRIFT, else WIDE_DRIFT), and every time of the timelines
put on the merged axis by the rank's records found around it (the difference, trace minus
log, interpolated between them): the critical path's and the delays' slices lie on the
trace's own (a region's to the ns). The timelines and the analyses are log_delays' (on
disk, memory independent of the records); what is kept here is per record and per wait
(a few numbers each: the matching's times, each wait's args) and the path's parts; the
trace itself streams through tag(). The load layer: plain Python."""
import bisect
import os

from . import critical_path, event_logs, log_delays, root_causes
from .activities import activity_name

#: The causes a wait's args list, largest first (the rest summed in others_s).
MOST_CAUSES = 4
#: The causes' flow ids start above the messages' (a 52-bit hash: trace_json.c).
FLOW_ID_BASE = 1 << 52
#: The delays' track in a causing rank's process: no OS thread has this id.
DELAY_TID = 4294967294
PATH_TID = 0
#: How far apart the log's and the trace's times of a call may start: 5 us, and the
#: clocks' drift since the rank's last call found (at most 100 ppm).
SLACK_US, DRIFT = 5.0, 1e-4
#: Where none is that close, the nearest within 0.5 ms and 0.5 % of the time since the
#: rank's last call found: the trace moves a rank's times by its offset to rank 0
#: interpolated from MPI_Init's measurement to MPI_Finalize's, the log by MPI_Init's alone,
#: and on a loaded node the two measurements differ by tens of us or more (a 0.3 s region
#: with no call in it drifted past 100 ppm in CI).
WIDE_SLACK_US, WIDE_DRIFT = 500.0, 5e-3


class TraceCausesError(Exception):
    """Event logs found but not of the traces' job (another run, other ranks)."""


def find_logs(paths):
    """The directory holding the event logs of the traces at paths: the first trace's own
    directory, or the one above it (a rank's file in papi_mpi_trace.ranks/); None none."""
    if not paths:
        return None
    d = os.path.dirname(os.path.abspath(paths[0]))
    for cand in (d, os.path.dirname(d)):
        if event_logs.has_logs(cand):
            return cand
    return None


def load(paths, base, trace_ranks, run_id=None, notes=None):
    """Causes of the event logs beside the traces at paths, or None where there are none;
    TraceCausesError (or event_logs.EventLogError) where they cannot be used."""
    directory = find_logs(paths)
    if directory is None:
        return None
    return Causes(event_logs.load(directory, notes), directory, base, trace_ranks, run_id)


class Causes:
    """The critical path and the waits' causes of a job's event logs (Logs), to be put
    into its merged trace (base: its base_ns; trace_ranks: the ranks it holds; run_id:
    its run): tag() each event as it streams by, then extra() the events added;
    summary() for otherData."""

    def __init__(self, logs, directory, base, trace_ranks, run_id=None):
        nranks = max(r["nranks"] for r in logs.values())
        log_run = next(iter(logs.values()))["run_id"]
        if run_id and log_run and run_id != log_run:
            raise TraceCausesError("the event logs in %s are of run %s, the traces of run %s"
                                   % (directory, log_run, run_id))
        if trace_ranks != nranks or len(logs) != nranks:
            raise TraceCausesError("the traces hold %d ranks, the event logs in %s %d of %d"
                                   % (trace_ranks, directory, len(logs), nranks))
        calls, regions = log_delays.timelines(logs)
        self.result = root_causes.analyse(calls, regions, per_wait=True)
        self.path = critical_path.walk(calls, regions)
        self.site_name = log_delays.site_names(logs)
        self.directory, self.base, self.nranks, self.calls = directory, base, nranks, calls
        # each rank's records by (cat, name, ph): [log us], [call index; -1 - n the n-th
        # region record], in time order: a call's start (B) and end (E) (cat mpi), a
        # region's entry (B) and exit (E) (cat region)
        self.by_name = {}

        def put(r, key, t, i):
            ts, ix = self.by_name.setdefault((r,) + key, ([], []))
            ts.append(self._log_us(t))
            ix.append(i)
        for r, cs in calls.items():
            for i, c in enumerate(cs):
                put(r, ("mpi", c.name, "B"), c.t0, i)
            for i, c in enumerate(cs):
                put(r, ("mpi", c.name, "E"), c.t1, i)
            for n, (t, step, name) in enumerate(regions.get(r, ())):
                put(r, ("region", name, "B" if step > 0 else "E"), t, -1 - n)
        for ts, ix in self.by_name.values():
            if any(a > b for a, b in zip(ts, ts[1:])):  # records that overlap by a few us
                order = sorted(range(len(ts)), key=ts.__getitem__)
                ts[:], ix[:] = [ts[j] for j in order], [ix[j] for j in order]
        self.taken = set()  # (rank, phase, record) of the events found
        self.anchors = {}  # rank -> [(log us, trace us - log us)] of its records found
        self.found = {}  # wait (rank, call index) -> (tid, ts) of its slice
        self.args, self.flows = {}, []  # wait -> its slice's args; (flow id, wait, rank, span)
        self._waits()
        self.parts = self._path_parts()

    def _log_us(self, t):
        """A time of the timelines (ns) as us from the trace's base, the log's conversion."""
        return (t - self.base) / 1000.0

    def _us(self, rank, t):
        """A time of rank's timeline (ns) on the merged trace's axis (us, 3 decimals, never
        below 0): the log's, moved by the difference of rank's calls found around it."""
        x = self._log_us(t)
        a = self.anchors.get(rank)
        if a:
            i = bisect.bisect_left(a, (x,))
            if i == 0 or i == len(a):
                x += a[min(i, len(a) - 1)][1]
            else:
                (x0, d0), (x1, d1) = a[i - 1], a[i]
                x += d0 + (d1 - d0) * (x - x0) / (x1 - x0) if x1 > x0 else d0
        return max(0.0, round(x, 3))

    def _cause(self, cr, key):
        """(activity, site) of a cause, as the root-cause table names them."""
        site, before = self.result["sites"].get((cr, key)) or (0, None)
        return activity_name(key, before), root_causes.site_text(self.site_name, cr, site)

    def _waits(self):
        """Each wait's args (its causes, largest first; none where the analysis found none:
        its time all residual) and flows."""
        by_wait = self.result["by_wait"]
        waits = sorted((w, b) for w, cs in self.calls.items() for b, c in enumerate(cs)
                       if c.wait > 0)
        for w, b in waits:
            cell = by_wait.get((w, b), {})
            c = self.calls[w][b]
            ranked = sorted(cell.items(), key=lambda kv: (-(kv[1][0] + kv[1][1]), kv[0][0]))
            causes, rest = [], 0
            for n, ((cr, key), (d, p, span, _ns)) in enumerate(ranked):
                if n >= MOST_CAUSES:
                    rest += d + p
                    continue
                flow = FLOW_ID_BASE + len(self.flows)
                self.flows.append((flow, (w, b), cr, span, key))
                activity, site = self._cause(cr, key)
                causes.append({"cause_rank": cr, "cause": activity, "cause_site": site,
                               "direct_s": round(d * 1e-9, 9),
                               "propagated_s": round(p * 1e-9, 9), "flow": flow})
            args = {"%s_s" % c.kind: round(c.wait * 1e-9, 9), "causes": causes}
            if rest:
                args["others_s"] = round(rest * 1e-9, 9)
            self.args[(w, b)] = args

    def tag(self, e):
        """The event e; an MPI call's or a region's B or E matched to its record (same
        rank, name and phase, its time within SLACK_US and DRIFT of where the rank's last
        record found predicts it, else the nearest within WIDE_SLACK_US and WIDE_DRIFT)
        gives that rank's clock difference there, and a wait's slice (its B) gets its
        causes."""
        ph = e.get("ph")
        if (ph != "B" and ph != "E") or e.get("cat") not in ("mpi", "region"):
            return e
        r = e.get("pid")
        got = self.by_name.get((r, e["cat"], e.get("name"), ph))
        if not got:
            return e
        ts, ix = got
        a = self.anchors.setdefault(r, [])
        last_x, delta = a[-1] if a else (0.0, 0.0)
        want = e["ts"] - delta
        best = self._nearest(r, ph, ts, ix, want, SLACK_US + DRIFT * abs(want - last_x))
        if best is None:
            best = self._nearest(r, ph, ts, ix, want,
                                 WIDE_SLACK_US + WIDE_DRIFT * abs(want - last_x))
        if best is None:
            return e
        k = (r, ix[best])
        self.taken.add((r, ph, ix[best]))
        if not a or ts[best] >= a[-1][0]:
            a.append((ts[best], e["ts"] - ts[best]))
        if ph != "B" or e["cat"] != "mpi" or k not in self.args:
            return e
        self.found[k] = (e["tid"], e["ts"])
        return dict(e, args=dict(e.get("args", {}), **self.args[k]))

    def _nearest(self, r, ph, ts, ix, want, slack):
        """The index in ts of the record not yet taken nearest want, within slack; None."""
        best = None
        for j in range(bisect.bisect_left(ts, want - slack), len(ts)):
            if ts[j] > want + slack:
                break
            if (r, ph, ix[j]) not in self.taken and \
                    (best is None or abs(ts[j] - want) < abs(ts[best] - want)):
                best = j
        return best

    def extra(self):
        """The events added after the traces' own: the critical path's process, the delays'
        tracks and the flows of the waits whose slices tag() found."""
        yield from self._path_events()
        delays = self._delay_slices()
        for r in sorted({cr for cr, _span in delays}):
            yield {"ph": "M", "pid": r, "tid": DELAY_TID, "name": "thread_name",
                   "args": {"name": "delays (root causes of waits)"}}
        yield from (e for e in delays.values())
        for flow, k, cr, span, _key in self.flows:
            if k not in self.found:
                continue
            tid, ts = self.found[k]
            d = delays[(cr, span)]
            yield {"ph": "s", "pid": cr, "tid": DELAY_TID, "name": "delay", "cat": "root_cause",
                   "ts": round(d["ts"] + d["dur"] / 2, 3), "id": flow}
            wait = self.calls[k[0]][k[1]].wait
            yield {"ph": "f", "pid": k[0], "tid": tid, "name": "delay", "cat": "root_cause",
                   "ts": round(ts + wait / 2000.0, 3), "bp": "e", "id": flow}

    def _delay_slices(self):
        """{(rank, span): its slice} of the delays the flows start at, per rank in time
        order (a start cut where records overlap by a few us: no slice misnested)."""
        keyed = {(cr, span): key for _f, _k, cr, span, key in self.flows}
        out, prev = {}, {}
        for (cr, span) in sorted(keyed):
            key = keyed[(cr, span)]
            t0, t1 = self._us(cr, span[0]), self._us(cr, span[1])
            t0 = min(max(t0, prev.get(cr, t0)), t1)
            prev[cr] = max(t1, prev.get(cr, t1))
            activity, site = self._cause(cr, key)
            cell = self.result["costs"].get((cr, key), {})
            out[(cr, span)] = {
                "ph": "X", "pid": cr, "tid": DELAY_TID, "name": activity, "cat": "delay",
                "ts": t0, "dur": round(t1 - t0, 3),
                "args": {"activity": activity, "site": site,
                         "direct_s": round(sum(d for d, _p in cell.values()) * 1e-9, 9),
                         "propagated_s": round(sum(p for _d, p in cell.values()) * 1e-9, 9)}}
        return out

    def _path_parts(self):
        """The path's steps in time order (rank, key, t0, t1, site), adjacent ones of one
        rank and activity joined, none overlapping (the clock residual's overlap cut)."""
        parts = []
        for r, key, t0, t1, site in self.path["steps"]:
            if parts:
                t0 = max(t0, parts[-1][3])
            if t1 <= t0:
                continue
            if parts and parts[-1][0] == r and parts[-1][1] == key and parts[-1][3] == t0:
                parts[-1][3] = t1
                continue
            parts.append([r, key, t0, t1, site])
        return parts

    def _path_events(self):
        """The critical path's process: its parts as slices on the merged axis."""
        pid = self.nranks
        yield {"ph": "M", "pid": pid, "tid": PATH_TID, "name": "process_name",
               "args": {"name": "critical path"}}
        yield {"ph": "M", "pid": pid, "tid": PATH_TID, "name": "process_sort_index",
               "args": {"sort_index": pid}}
        yield {"ph": "M", "pid": pid, "tid": PATH_TID, "name": "thread_name",
               "args": {"name": "critical path (backward replay over the matched waits)"}}
        yield from self.path_slices()

    def path_slices(self):
        """The critical path's parts on the merged axis, in time order, none overlapping:
        X events (ts and dur in us) with args rank, activity and site; the JSON trace's
        process and the OTF2 archive's location (page/trace_otf2.py) alike."""
        pid = self.nranks
        end = 0.0
        for r, key, t0, t1, site in self.parts:
            u0, u1 = max(self._us(r, t0), end), self._us(r, t1)
            if u1 <= u0:  # two ranks' conversions meet: no overlap
                continue
            end = u1
            activity = critical_path.activity_text(key, site[1])
            yield {"ph": "X", "pid": pid, "tid": PATH_TID, "name": activity,
                   "cat": "critical_path", "ts": u0, "dur": round(u1 - u0, 3),
                   "args": {"rank": r, "activity": activity,
                            "site": root_causes.site_text(self.site_name, r, site[0])}}

    def count(self):
        """The most events extra() adds (the writer counts what it wrote)."""
        spans = {(cr, span) for _f, _k, cr, span, _key in self.flows}
        return 3 + len(self.parts) + len({cr for cr, _s in spans}) + len(spans) + \
            2 * len(self.flows)

    def summary(self):
        """otherData's root_causes: where from, the waits and how many were linked."""
        res, path = self.result, self.path
        return {"event_logs": self.directory,
                "waits_s": round(res["waits"] * 1e-9, 9),
                "explained_s": round((res["waits"] - res["residual"]) * 1e-9, 9),
                "critical_path_s": round(path["total"] * 1e-9, 9),
                "wall_s": round((path["end"] - path["first"]) * 1e-9, 9),
                "waits_linked": len(self.found),
                "waits_not_found": len(self.args) - len(self.found)}
