"""papi_report.load.cause_timeline: a rank's timeline as the delay analysis (root_causes.py) and
the critical path (critical_path.py) read it: one interface over two stores, so that each
analysis is written once.
- ListTimeline: activities.Call in a list and the rank's regions, its Segments, sync
  index and waits made in memory (the analyses' in-memory API: analyse(calls, regions)
  and walk(calls, regions) on lists, small inputs);
- DiskTimeline: the same read from spill.Rows tables on disk (a dead job's event logs:
  log_delays.py writes each rank's once), a block of rows at a time: its calls' columns,
  its Segments' columns, its regions, its sync ids sorted (searched with bisect) and its
  waits sorted latest first; the names, call sites, activity keys and groups they hold
  as small numbers (Interned: the program's few, not the records).

What both give: len(tl), tl[i] (call i, a Call), iteration over the calls, tl.span(i)
(call i's t0, t1); tl.segs (the Segments, a sequence), tl.starts (their t0s, for
bisect), tl.bisect_starts(t) (bisect_right of t in them; right=False: bisect_left),
tl.coded_since(n) (the Segments from the n-th on as (t0, t1, key, site, order): key and
site as numbers of tl.names, the timelines' shared Interned, -1 the key of waiting;
order 2i + 1 for call i's own, even for compute), tl.regions ((t, +1/-1, name) in time
order); tl.sync(i) (call i's sync id, None), tl.met(s) (the index of the call with sync
id s, the last one; None), tl.first_seg(i) (the index of call i's first Segment; None: a
call of no time), tl.call_key(i) (the activity key of call i's part not spent waiting;
None), tl.end(i) (call i's wait's end, t0 + wait: the replay's order) and tl.waits(rank)
((end, rank, i) of the calls that waited, latest first: heapq.merge of the ranks' is the
job's order). Plain Python."""
import bisect

from . import spill
from .activities import Call, Segment, iter_segments, segments


def of(calls, regions=None):
    """{rank: timeline} of calls ({rank: [Call] in time order, or a timeline}; regions:
    {rank: [(t, +1/-1, name)]} for the lists), all of one Interned."""
    regions = regions or {}
    names = next((cs.names for cs in calls.values() if isinstance(cs, _Timeline)), None)
    names = names or Interned()
    return {r: cs if isinstance(cs, _Timeline) else ListTimeline(cs, regions.get(r, []), names)
            for r, cs in calls.items()}


class _Timeline:
    """What both stores share: call_key from the Segments."""

    def call_key(self, i):
        n = self.first_seg(i)
        if n is None:
            return None
        for m in (n, n + 1):  # a call's Segments: its wait, then the rest of it
            if m < len(self.segs):
                g = self.segs[m]
                if g.call == i and g.key is not None and g.key[0] == "mpi":
                    return g.key
        return None


class ListTimeline(_Timeline):
    """A rank's timeline from Calls in a list and its regions, all in memory (names: the
    Interned of the timelines analysed together)."""

    def __init__(self, calls, regions, names=None):
        self._calls, self.regions = calls, regions
        self.names = names = names or Interned()
        self.segs = segments(calls, regions)
        self.starts = [g.t0 for g in self.segs]
        self._coded = [(g.t0, g.t1, -1 if g.key is None else names.id(g.key), names.id(g.site),
                        0 if g.call is None else 2 * g.call + 1) for g in self.segs]
        self._met = {c.sync: i for i, c in enumerate(calls) if c.sync is not None}
        self._firsts = {}
        for n, g in enumerate(self.segs):
            if g.call is not None:
                self._firsts.setdefault(g.call, n)

    def __len__(self):
        return len(self._calls)

    def __getitem__(self, i):
        return self._calls[i]

    def __iter__(self):
        return iter(self._calls)

    def span(self, i):
        c = self._calls[i]
        return c.t0, c.t1

    def sync(self, i):
        return self._calls[i].sync

    def met(self, s):
        return self._met.get(s)

    def first_seg(self, i):
        return self._firsts.get(i)

    def bisect_starts(self, t, right=True):
        """bisect_right (right False: bisect_left) of t in the Segments' starts."""
        return (bisect.bisect_right if right else bisect.bisect_left)(self.starts, t)

    def coded_since(self, n):
        coded = self._coded
        return (coded[k] for k in range(n, len(coded)))

    def end(self, i):
        c = self._calls[i]
        return c.t0 + c.wait

    def waits(self, rank):
        return iter(sorted(((c.t0 + c.wait, rank, i) for i, c in enumerate(self._calls)
                            if c.wait > 0), reverse=True))


class Interned:
    """Values (call names, sites, wait kinds, activity keys, region names, groups) as
    small numbers and back; a job's are few."""

    def __init__(self):
        self._ids, self.values = {}, []

    def id(self, v):
        n = self._ids.get(v)
        if n is None:
            n = self._ids[v] = len(self.values)
            self.values.append(v)
        return n


#: A DiskTimeline's call row: t0, t1, name, site, sync (type: 0 none, 1 p2p, 2 coll; two
#: numbers), wait (ns: the logs' times are whole ns), kind, cause rank, cause's record.
_T0, _T1, _NAME, _SITE, _STYPE, _SA, _SB, _WAIT, _KIND, _CRANK, _CREC = range(11)
_SYNC_TAG = (None, "p2p", "coll")


class DiskTimeline(_Timeline):
    """A rank's timeline in spill.Rows tables (spill: a spill.Spill; names: the job's
    Interned): add_call, add_region and add_index while its records are read, then
    finish(), then resolve() once every rank's is finished."""

    def __init__(self, spill_file, names):
        self._spill, self._names = spill_file, names
        self.names = names
        self._calls = spill.Rows(spill_file, 11)
        self._regions = spill.Rows(spill_file, 3)
        self._index = spill.Rows(spill_file, 1)  # comm record -> call index, -1 none
        self._segs = self._met = self._waits = self._others = None
        self.segs = _Segs(self)
        self.starts = _Column(self, 0)
        self.regions = _Regions(self)

    # -- building
    def add_call(self, t0, t1, name, site, sync, wait, kind, cause_rank, cause_rec):
        """A call (sync: (1 p2p / 2 coll, a, b) or None; a coll's a a group, interned)."""
        n = self._names
        st, sa, sb = sync if sync is not None else (0, 0, 0)
        if st == 2:
            sa = n.id(("group", sa))
        self._calls.append((t0, t1, n.id(name), n.id(site), st, sa, sb, int(round(wait)),
                            n.id(kind), cause_rank, cause_rec))

    def add_region(self, t, step, name):
        self._regions.append((t, step, self._names.id(name)))

    def add_index(self, call):
        """The next comm record's call index (-1: not one of this timeline's calls)."""
        self._index.append((call,))

    def finish(self):
        """Its Segments (each with its place in call order: 2i before call i, 2i + 1 call
        i's own), its sync ids sorted, its waits sorted by their end where its calls do
        not give them in that order (they nearly always do)."""
        names, segs = self._names, spill.Rows(self._spill, 5)
        calls = _Plain(self)
        for g in iter_segments(calls, self.regions):
            segs.append((int(g.t0), int(g.t1), -1 if g.key is None else names.id(g.key),
                         names.id(g.site), 2 * calls.at if g.call is None else 2 * g.call + 1))
        self._segs, self._met = segs, calls.met.rows()
        if not calls.waits_in_order:
            self._waits = spill.sort_rows(self._spill, ((r[_T0] + r[_WAIT], i) for i, r in
                                                        enumerate(self._calls.scan())
                                                        if r[_WAIT] > 0), 2)

    def resolve(self, timelines):
        """Its calls' causes found, as (rank, call index), through the causing rank's index
        (timelines: {rank: DiskTimeline}, every one finished); None where the record waited
        for is not one of its rank's calls (another thread's)."""
        self._others = timelines

    def _cause(self, r):
        other = self._others.get(r[_CRANK]) if r[_CRANK] >= 0 else None
        if other is None or not 0 <= r[_CREC] < len(other._index):
            return None
        ci = other._index.get(r[_CREC], 0)
        return (r[_CRANK], ci) if ci >= 0 else None

    # -- reading
    def __len__(self):
        return len(self._calls)

    def __getitem__(self, i):
        if i < 0:
            i += len(self._calls)
        r = self._calls.row(i)
        v = self._names.values
        return Call(r[_T0], r[_T1], v[r[_NAME]], v[r[_SITE]], self._sync_value(r),
                    float(r[_WAIT]) if r[_WAIT] else 0, v[r[_KIND]], self._cause(r))

    def __iter__(self):
        return (self[i] for i in range(len(self._calls)))

    def _sync_value(self, r):
        st = r[_STYPE]
        if st == 0:
            return None
        a = self._names.values[r[_SA]][1] if st == 2 else r[_SA]
        return (_SYNC_TAG[st], a, r[_SB])

    def span(self, i):
        c = self._calls
        return c.get(i, _T0), c.get(i, _T1)

    def sync(self, i):
        r = self._calls.row(i)
        return r[_STYPE:_SB + 1] if r[_STYPE] else None

    def met(self, s):
        m = self._met
        n = m.bisect(s + (len(self._calls),)) - 1
        if n < 0:
            return None
        row = m.row(n)
        return row[3] if row[:3] == s else None

    def bisect_starts(self, t, right=True):
        return self._segs.bisect(t, 0, right)

    def coded_since(self, n):
        return self._segs.scan_from(n)

    def first_seg(self, i):
        segs = self._segs
        n = segs.bisect(2 * i + 1, 4, right=False)
        return n if n < len(segs) and segs.get(n, 4) == 2 * i + 1 else None

    def end(self, i):
        return self._calls.get(i, _T0) + self._calls.get(i, _WAIT)

    def waits(self, rank):
        if self._waits is not None:
            return ((end, rank, i) for end, i in self._waits.scan(reverse=True))
        n = len(self._calls)
        return ((r[_T0] + r[_WAIT], rank, i) for i, r in
                zip(range(n - 1, -1, -1), self._calls.scan(reverse=True)) if r[_WAIT] > 0)


class _Plain:
    """A DiskTimeline's calls read in order for segments() (no causes yet; at: the index
    of the last one read), their sync ids given to a spill.Sorter as they go by (met), and
    whether their waits' ends come in increasing order (waits_in_order)."""

    def __init__(self, tl):
        self._tl, self.at = tl, -1
        self.met, self.waits_in_order = spill.Sorter(tl._spill, 4), True

    def __iter__(self):
        v, last, met = self._tl._names.values, None, self.met
        for i, r in enumerate(self._tl._calls.scan()):
            self.at = i
            if r[_STYPE]:
                met.add((r[_STYPE], r[_SA], r[_SB], i))
            if r[_WAIT] > 0:
                w = (r[_T0] + r[_WAIT], i)
                if last is not None and w < last:
                    self.waits_in_order = False
                last = w
            yield Call(r[_T0], r[_T1], v[r[_NAME]], v[r[_SITE]], None,
                       float(r[_WAIT]) if r[_WAIT] else 0, v[r[_KIND]], None)


class _Segs:
    """A DiskTimeline's Segments as a sequence."""

    def __init__(self, tl):
        self._tl = tl

    def __len__(self):
        return len(self._tl._segs)

    def __getitem__(self, n):
        rows = self._tl._segs
        if n < 0:
            n += len(rows)
        if not 0 <= n < len(rows):
            raise IndexError(n)
        r, v = rows.row(n), self._tl._names.values
        return Segment(r[0], r[1], None if r[2] < 0 else v[r[2]], v[r[3]],
                       r[4] >> 1 if r[4] & 1 else None)

    def __iter__(self):
        return self._decoded(self._tl._segs.scan())

    def _decoded(self, rows):
        v = self._tl._names.values
        for r in rows:
            yield Segment(r[0], r[1], None if r[2] < 0 else v[r[2]], v[r[3]],
                          r[4] >> 1 if r[4] & 1 else None)


class _Column:
    """One field of a DiskTimeline's Segments as a sequence (their starts, for bisect)."""

    def __init__(self, tl, f):
        self._tl, self._f = tl, f

    def __len__(self):
        return len(self._tl._segs)

    def __getitem__(self, n):
        return self._tl._segs.get(n, self._f)


class _Regions:
    """A DiskTimeline's regions as a sequence of (t, +1/-1, name)."""

    def __init__(self, tl):
        self._tl = tl

    def __len__(self):
        return len(self._tl._regions)

    def __getitem__(self, k):
        r = self._tl._regions.row(k)
        return r[0], r[1], self._tl._names.values[r[2]]

    def __iter__(self):
        v = self._tl._names.values
        return ((t, step, v[n]) for t, step, n in self._tl._regions.scan())
