"""EventSet: a PAPI event set counted by name, in the order the events were given.

read/stop/accum return a list of ints in event order; values_dict, values_array (numpy)
and values_series (pandas) present the last values. The read path is one ctypes call
into PAPI_read with a buffer allocated once (bench/python: within 2 us per call).

Threads: every call that touches the set or its buffers holds the set's lock, so a read
in one thread never writes into a buffer another thread's add or remove has just
outgrown (libpapi writes as many values as the set has events). A shutdown or a fork
makes the set forget its handle (lifecycle.py): it then refuses with PAPI_ENOINIT."""

import ctypes
import threading

from ._args import name_bytes, name_list
from ._library import lib, fast_read, CONSTANTS
from .errors import PapiError, check
from . import lifecycle

_PAPI_NULL = CONSTANTS["PAPI_NULL"]
_PAPI_read = fast_read


class EventSet:
    """EventSet(["PAPI_TOT_INS", "perf::PAGE-FAULTS"]): creates the set and adds each
    event (PapiError names the one that fails, and nothing is left behind). As a context
    manager it starts on entry and stops on exit (values then hold the counts). Safe to
    share between threads: one call at a time holds the set."""

    def __init__(self, events=()):
        names = name_list(events, "events")
        self._lock = threading.RLock()
        self._handle = _PAPI_NULL
        self._why = None  # why the handle was forgotten (shutdown, fork)
        self._names = []
        self._buffer = (ctypes.c_longlong * 0)()
        self._accum = (ctypes.c_longlong * 0)()
        self.values = []
        lifecycle.new_eventset(self)  # sets self._handle
        try:
            for name in names:
                self.add(name)
        except BaseException:
            self.close()
            raise

    @property
    def names(self):
        """The event names, in the order of the values."""
        with self._lock:
            return list(self._names)

    @property
    def handle(self):
        """The PAPI event set number (for papi.lib.PAPI_* calls)."""
        return self._handle

    def _live(self, function):
        if self._handle == _PAPI_NULL:
            if self._why:
                raise PapiError(CONSTANTS["PAPI_ENOINIT"], function, self._why)
            raise ValueError("this EventSet is closed")
        return self._handle

    def _forget(self, reason, fork_child):
        """The library's sets are gone (lifecycle.py): keep the handle from reaching the
        set that gets its number next. In a forked child the lock is new (the parent's
        may have been held by a thread that is not in the child)."""
        if fork_child:
            self._lock = threading.RLock()
        with self._lock:
            if self._handle != _PAPI_NULL:
                self._handle = _PAPI_NULL
                self._why = reason

    def _resize(self, keep):
        """New buffers for the events now in the set; keep: for each new slot, the old
        slot whose accumulated value and last value it keeps (None: zero)."""
        n = len(keep)
        accum = (ctypes.c_longlong * n)()
        for i, old in enumerate(keep):
            if old is not None:
                accum[i] = self._accum[old]
        values = [self.values[old] if old is not None and old < len(self.values) else 0
                  for old in keep]
        self._buffer = (ctypes.c_longlong * n)()
        self._accum = accum
        self.values = values

    def _codes(self):
        n = len(self._names)
        codes = (ctypes.c_int * max(n, 1))()
        count = ctypes.c_int(n)
        rc = lib.PAPI_list_events(self._handle, codes, ctypes.byref(count))
        check(rc, "PAPI_list_events")
        return codes[:count.value]

    def add(self, name):
        """Add one event by name (preset, native or component event) after the others;
        the accumulator of accum keeps the others' sums."""
        raw = name_bytes(name, "event name")
        with self._lock:
            check(lib.PAPI_add_named_event(self._live("PAPI_add_named_event"), raw),
                  "PAPI_add_named_event", name)
            self._names.append(name)
            self._resize(list(range(len(self._names) - 1)) + [None])

    def remove(self, name):
        """Remove one event by name; the others keep their order, values and sums."""
        raw = name_bytes(name, "event name")
        with self._lock:
            before = self._codes() if self._handle != _PAPI_NULL else []
            check(lib.PAPI_remove_named_event(self._live("PAPI_remove_named_event"), raw),
                  "PAPI_remove_named_event", name)
            after = self._codes()
            # The slot that went: the first that differs (names may be spelt otherwise).
            gone = next((i for i, c in enumerate(after) if c != before[i]), len(after))
            del self._names[gone]
            self._resize([i if i < gone else i + 1 for i in range(len(self._names))])

    def start(self):
        with self._lock:
            check(lib.PAPI_start(self._live("PAPI_start")), "PAPI_start")
        return self

    def read(self):
        """The counts since start (or the last reset/accum), in event order."""
        with self._lock:
            rc = _PAPI_read(self._handle, self._buffer)
            if rc:
                self._live("PAPI_read")
                check(rc, "PAPI_read")
            self.values = values = self._buffer[:]
        return values

    def accum(self):
        """Add the counts to an accumulator kept by this object, reset the counters and
        return the accumulated values."""
        with self._lock:
            check(lib.PAPI_accum(self._live("PAPI_accum"), self._accum), "PAPI_accum")
            self.values = values = self._accum[:]
        return values

    def reset(self):
        """Set the counters (and the accumulator of accum) back to zero."""
        with self._lock:
            check(lib.PAPI_reset(self._live("PAPI_reset")), "PAPI_reset")
            ctypes.memset(self._accum, 0, ctypes.sizeof(self._accum))

    def stop(self):
        """Stop counting; returns the final counts in event order."""
        with self._lock:
            check(lib.PAPI_stop(self._live("PAPI_stop"), self._buffer), "PAPI_stop")
            self.values = values = self._buffer[:]
        return values

    def running(self):
        state = ctypes.c_int(0)
        with self._lock:
            check(lib.PAPI_state(self._live("PAPI_state"), ctypes.byref(state)), "PAPI_state")
        return bool(state.value & CONSTANTS["PAPI_RUNNING"])

    def values_dict(self):
        """The last values by event name."""
        with self._lock:
            return dict(zip(self._names, self.values))

    def values_array(self):
        """The last values as a numpy int64 array (needs numpy: python3-numpy)."""
        import numpy
        return numpy.array(self.values, dtype=numpy.int64)

    def values_series(self):
        """The last values as a pandas Series indexed by event name (python3-pandas)."""
        import pandas
        with self._lock:
            values, names = self.values, list(self._names)
        return pandas.Series(values, index=names, dtype="int64", name="count")

    def close(self):
        """Stop if running, then clean up and destroy the event set (idempotent; nothing
        to do once a shutdown or fork made it forget its handle)."""
        with self._lock:
            if self._handle == _PAPI_NULL:
                return
            handle = ctypes.c_int(self._handle)
            if self.running():
                lib.PAPI_stop(self._handle, self._buffer)
            lib.PAPI_cleanup_eventset(self._handle)
            self._handle = _PAPI_NULL
            check(lib.PAPI_destroy_eventset(ctypes.byref(handle)), "PAPI_destroy_eventset")

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        with self._lock:
            if self._handle != _PAPI_NULL and self.running():
                self.stop()
        return False

    def __del__(self):
        try:
            self.close()
        except Exception:  # interpreter shutdown or a library already shut down
            pass

    def __repr__(self):
        return "papi.EventSet(%r)" % self._names
