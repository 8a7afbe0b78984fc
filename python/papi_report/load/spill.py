"""papi_report.load.spill: what a reader must keep of every record, kept on disk instead of
in memory, so that its memory does not grow with the records (the wait states of a dead
job's event logs: event_logs.py).

Spill: one temporary file (tempfile's, in TMPDIR, unlinked at once: nothing is left behind
whatever ends the process), objects pickled into it and read back by where put() wrote them.

Buckets: items under an integer key (a rank), added in any order, taken back key by key in
increasing order, each key's in the order they were added. Up to a bound of items is
buffered; a full buffer is written as a run sorted by key; take() merges the runs k-way,
each read forward once. Memory: the buffer and one cursor a run, whatever the items.
The load layer: the standard library only."""
import os
import pickle
import struct
import tempfile

#: Items a Buckets buffers before it writes them as a run (a few MB of small tuples).
BOUND = 1 << 15
_HEAD = struct.Struct("<qq")  # a run's segment: its key, then its pickle's length


class Spill:
    """Pickled objects in one unlinked temporary file."""

    def __init__(self):
        self._file = tempfile.TemporaryFile(prefix="papi_report.")
        self._fd = self._file.fileno()
        self.size = 0

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
