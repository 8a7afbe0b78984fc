"""papi_report.load.spill: what a reader must keep of every record, kept on disk instead of
in memory, so that its memory does not grow with the records (the wait states of a dead
job's event logs: event_logs.py).

Spill: one temporary file (tempfile's, in TMPDIR, unlinked at once: nothing is left behind
whatever ends the process), objects pickled into it and read back by where put() wrote them.

Buckets: items under an integer key (a rank), added in any order, taken back key by key in
increasing order, each key's in the order they were added. Up to a bound of items is
buffered; a full buffer is written as a run sorted by key; take() merges the runs k-way,
each read forward once. Memory: the buffer and one cursor a run, whatever the items.

Rows: a table of fixed-width rows of int64 fields (a rank's timeline: log_delays.py,
cause_timeline.py), appended a block of BLOCK rows at a time and read back on demand, a block
per os.pread into an array: random access keeps the last CACHED blocks the spill's tables
read (all tables together: memory independent of the tables and of their rows), never a
table (not mmap: the pages of a mapping it touches would count in the process's RSS until
unmapped). sort_rows() sorts rows into a Rows by runs of SORT_ROWS rows merged k-way
(heapq.merge, one block a run in memory).
The load layer: the standard library only."""
import bisect
import heapq
import itertools
import os
import pickle
import struct
import tempfile
from array import array

#: Items a Buckets buffers before it writes them as a run (a few MB of small tuples).
BOUND = 1 << 15
_HEAD = struct.Struct("<qq")  # a run's segment: its key, then its pickle's length
#: Rows a Rows block holds: what one read brings back (a few KB).
BLOCK = 128
#: Blocks the Rows of a Spill keep read, all of them together, the oldest dropped first
#: (random access moves around a few places of a few tables a rank), as arrays (at most
#: 11 KB each), and the last blocks bisect() searched as lists of tuples or a field's
#: values (at most 40 KB): a few MB whatever the ranks.
CACHED, CACHED_TUPLES = 256, 64
#: bisect()'s first steps whose probes a Rows keeps (2^TOP - 1 values).
TOP = 9
#: Rows sort_rows() sorts in memory at a time (a run).
SORT_ROWS = 1 << 13


class Spill:
    """Pickled objects in one unlinked temporary file."""

    def __init__(self):
        self._file = tempfile.TemporaryFile(prefix="papi_report.")
        self._fd = self._file.fileno()
        self.size = 0
        self.tables = 0  # the Rows made: each one's number, its blocks' key in the caches
        self.blocks, self.tuples = _Cache(CACHED), _Cache(CACHED_TUPLES)

    def put(self, obj):
        """Where obj is kept: (offset, length), for get()."""
        data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
        at = self.size
        self.append(data)
        return at, len(data)

    def get(self, where):
        at, n = where
        return pickle.loads(self.read(at, n))

    def append(self, data):
        view, at = memoryview(data), self.size
        while view:
            n = os.pwrite(self._fd, view, at)
            view, at = view[n:], at + n
        self.size = at

    def read(self, at, n):
        parts = []
        while n > 0:
            b = os.pread(self._fd, n, at)
            if not b:
                raise OSError("papi_report's temporary file ended early")
            parts.append(b)
            at, n = at + len(b), n - len(b)
        return b"".join(parts)

    def close(self):
        self._file.close()


class _Cache(dict):
    """{key: value}, at most `bound` of them: the oldest dropped first."""

    def __init__(self, bound):
        super().__init__()
        self.bound = bound

    def put(self, key, value):
        if len(self) >= self.bound:
            del self[next(iter(self))]
        self[key] = value
        return value


class Buckets:
    """add(key, item) in any order, then take(key) for keys in increasing order (a key
    never taken is passed over); add() after the first take() is refused."""

    def __init__(self, spill, bound=None):
        self._spill, self._bound = spill, bound or BOUND
        self._buf, self._n = {}, 0
        self._runs = []  # [next segment's offset, run's end, next key or None (not read)]
        self._taking = False

    def add(self, key, item):
        if self._taking:
            raise RuntimeError("Buckets.add after take")
        items = self._buf.get(key)
        if items is None:
            items = self._buf[key] = []
        items.append(item)
        self._n += 1
        if self._n >= self._bound:
            self._flush()

    def _flush(self):
        start = self._spill.size
        for key in sorted(self._buf):
            data = pickle.dumps(self._buf[key], protocol=pickle.HIGHEST_PROTOCOL)
            self._spill.append(_HEAD.pack(key, len(data)) + data)
        self._runs.append([start, self._spill.size, None])
        self._buf, self._n = {}, 0

    def take(self, key):
        """key's items, in the order added: from each run in turn (older first), then from
        the buffer, which is newest."""
        self._taking = True
        out = []
        for run in self._runs:
            while run[0] < run[1]:
                if run[2] is None:
                    run[2] = _HEAD.unpack(self._spill.read(run[0], _HEAD.size))
                k, n = run[2]
                if k > key:
                    break
                if k == key:
                    out.extend(pickle.loads(self._spill.read(run[0] + _HEAD.size, n)))
                run[0] += _HEAD.size + n
                run[2] = None
        out.extend(self._buf.pop(key, ()))
        return out


class Rows:
    """A table of rows of `width` int64 fields: append() them, then read them back by index
    (get: one field; row: a row as a tuple; len) or in order (scan, forward or backward),
    once the last is appended. Full blocks are written to the spill as they fill (their
    offsets kept: 8 bytes a block of BLOCK rows), the last one stays in memory."""

    def __init__(self, spill, width, block=None):
        self._spill, self.width = spill, width
        self._block = block or BLOCK
        self._at = array("q")  # the spill offset of each full block
        self._rows = []  # the last block's rows, not written yet
        self._n = 0
        spill.tables += 1
        self._id = spill.tables  # with a block's number, its key in the spill's caches
        self._tree = {}  # field -> _probes(): bisect()'s first TOP steps' rows and values

    def append(self, row):
        """A row: width ints (one past int64 kept as its 64 bits, signed)."""
        self._rows.append(row)
        if len(self._rows) == self._block:
            self._at.append(self._spill.size)
            self._spill.append(_packed(self._rows).tobytes())
            self._rows = []
        self._n += 1

    def __len__(self):
        return self._n

    def _read(self, b):
        """Block b as an array: the last (partial) one from memory, the others from disk."""
        if b == len(self._at):
            return _packed(self._rows)
        blk = array("q")
        blk.frombytes(self._spill.read(self._at[b], self._block * self.width * 8))
        return blk

    def _get_block(self, b):
        blocks = self._spill.blocks
        blk = blocks.get((self._id, b))
        return blk if blk is not None else blocks.put((self._id, b), self._read(b))

    def get(self, i, f):
        """Field f of row i (0 <= i < len)."""
        b, k = divmod(i, self._block)
        blk = self._spill.blocks.get((self._id, b))
        if blk is None:
            blk = self._get_block(b)
        return blk[k * self.width + f]

    def row(self, i):
        """Row i as a tuple."""
        b, k = divmod(i, self._block)
        blk = self._spill.blocks.get((self._id, b))
        if blk is None:
            blk = self._get_block(b)
        return tuple(blk[k * self.width:(k + 1) * self.width])

    def bisect(self, x, f=None, right=True):
        """bisect.bisect_right (right False: bisect_left) of x in the rows (their field f;
        None: the rows as tuples) by bisect's own probes, so that rows not quite in order
        give its answer: the probes of a search's first TOP steps (every search's: a tree
        of 2^TOP - 1 rows, searched by bisect over it in order, which probes it alike) kept,
        the last ones, once one block holds what is left, bisect's own over that block."""
        search = bisect.bisect_right if right else bisect.bisect_left
        lo, hi, per = 0, self._n, self._block
        tree = self._tree.get(f)
        if tree is None:
            tree = self._tree[f] = self._probes(f)
        if tree:
            at, values = tree
            p = search(values, x)
            lo = at[p - 1] + 1 if p else 0
            hi = at[p] if p < len(at) else self._n
        while lo < hi and lo // per != (hi - 1) // per:
            mid = (lo + hi) // 2
            v = self.row(mid) if f is None else self.get(mid, f)
            if (x < v) if right else not (v < x):
                hi = mid
            else:
                lo = mid + 1
        if lo >= hi:
            return lo
        base = lo // per * per
        return search(self._keys(lo // per, f), x, lo - base, hi - base) + base

    def _probes(self, f):
        """(rows, their values) of bisect's first TOP steps' probes over all rows, in
        order; () where the rows are too few for every step to probe one."""
        at = []

        def walk(lo, hi, depth):
            if depth < TOP and lo < hi:
                mid = (lo + hi) // 2
                walk(lo, mid, depth + 1)
                at.append(mid)
                walk(mid + 1, hi, depth + 1)
        walk(0, self._n, 0)
        if len(at) != (1 << TOP) - 1:
            return ()
        return at, [self.row(m) if f is None else self.get(m, f) for m in at]

    def _keys(self, b, f):
        """Block b's rows as tuples (f None) or its field f, kept beside the block."""
        key = (self._id, b, f)
        got = self._spill.tuples.get(key)
        if got is None:
            blk, w = self._get_block(b), self.width
            got = self._spill.tuples.put(key, [tuple(blk[k:k + w]) for k in range(
                0, len(blk), w)] if f is None else blk[f::w])
        return got

    def scan_from(self, i):
        """The rows as tuples from row i on, a block at a time."""
        w, per = self.width, self._block
        b, k = divmod(i, per)
        while b * per < self._n:
            blk = self._get_block(b)
            for m in range(k * w, len(blk), w):
                yield tuple(blk[m:m + w])
            b, k = b + 1, 0

    def scan(self, reverse=False):
        """The rows as tuples in order (backward with reverse), a block read at a time
        (the cache left alone)."""
        w, nb = self.width, (self._n + self._block - 1) // self._block
        for b in (range(nb - 1, -1, -1) if reverse else range(nb)):
            blk = self._read(b)
            rows = [tuple(blk[k:k + w]) for k in range(0, len(blk), w)]
            yield from (reversed(rows) if reverse else rows)


def _packed(rows):
    """rows (tuples of ints) as one array of int64s; a value past int64 as its 64 bits,
    signed."""
    try:
        return array("q", itertools.chain.from_iterable(rows))
    except OverflowError:
        return array("q", (((v + (1 << 63)) % (1 << 64)) - (1 << 63)
                           for v in itertools.chain.from_iterable(rows)))


def sort_rows(spill, rows, width, reverse=False):
    """A Rows of the rows (tuples of width ints, any number) sorted (descending with
    reverse): a Sorter's."""
    out = Sorter(spill, width, reverse)
    for r in rows:
        out.add(r)
    return out.rows()


class Sorter:
    """Rows given one at a time (add), then sorted (rows(): a Rows; descending with
    reverse): runs of SORT_ROWS rows sorted in memory and written, then merged."""

    def __init__(self, spill, width, reverse=False):
        self._spill, self._width, self._reverse = spill, width, reverse
        self._runs, self._buf = [], []

    def add(self, row):
        self._buf.append(row)
        if len(self._buf) >= SORT_ROWS:
            self._runs.append(_run(self._spill, self._buf, self._width, self._reverse))
            self._buf = []

    def rows(self):
        sp, w, rev = self._spill, self._width, self._reverse
        if not self._runs:
            return _run(sp, self._buf, w, rev)
        if self._buf:
            self._runs.append(_run(sp, self._buf, w, rev))
        out = Rows(sp, w)
        for r in heapq.merge(*(run.scan() for run in self._runs), reverse=rev):
            out.append(r)
        return out


def _run(spill, buf, width, reverse):
    buf.sort(reverse=reverse)
    out = Rows(spill, width)
    for r in buf:
        out.append(r)
    return out
