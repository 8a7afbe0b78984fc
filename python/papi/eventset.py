"""EventSet: a PAPI event set counted by name, in the order the events were given.

read/stop/accum return a list of ints in event order; values_dict, values_array (numpy)
and values_series (pandas) present the last values. The read path is one ctypes call
into PAPI_read with a buffer allocated once (bench/python: within 2 us per call)."""

import ctypes

from ._args import name_bytes, name_list
from ._library import lib, ensure_init, fast_read, CONSTANTS
from .errors import check

_PAPI_NULL = CONSTANTS["PAPI_NULL"]
_PAPI_read = fast_read


class EventSet:
    """EventSet(["PAPI_TOT_INS", "perf::PAGE-FAULTS"]): creates the set and adds each
    event (PapiError names the one that fails, and nothing is left behind). As a context
    manager it starts on entry and stops on exit (values then hold the counts)."""

    def __init__(self, events=()):
        names = name_list(events, "events")
        ensure_init()
        handle = ctypes.c_int(_PAPI_NULL)
        check(lib.PAPI_create_eventset(ctypes.byref(handle)), "PAPI_create_eventset")
        self._handle = handle.value
        self._names = []
        self._buffer = (ctypes.c_longlong * 0)()
        self._accum = (ctypes.c_longlong * 0)()
        self.values = []
        try:
            for name in names:
                self.add(name)
        except BaseException:
            self.close()
            raise

    @property
    def names(self):
        """The event names, in the order of the values."""
        return list(self._names)

    @property
    def handle(self):
        """The PAPI event set number (for papi.lib.PAPI_* calls)."""
        return self._handle

    def _live(self):
        if self._handle == _PAPI_NULL:
            raise ValueError("this EventSet is closed")
        return self._handle

    def add(self, name):
        """Add one event by name (preset, native or component event)."""
        raw = name_bytes(name, "event name")
        check(lib.PAPI_add_named_event(self._live(), raw), "PAPI_add_named_event", name)
        self._names.append(name)
        n = len(self._names)
        self._buffer = (ctypes.c_longlong * n)()
        self._accum = (ctypes.c_longlong * n)()
        self.values = [0] * n

    def start(self):
        check(lib.PAPI_start(self._live()), "PAPI_start")
        return self

    def read(self):
        """The counts since start (or the last reset/accum), in event order."""
        rc = _PAPI_read(self._handle, self._buffer)
        if rc:
            self._live()
            check(rc, "PAPI_read")
        self.values = self._buffer[:]
        return self.values

    def accum(self):
        """Add the counts to an accumulator kept by this object, reset the counters and
        return the accumulated values."""
        check(lib.PAPI_accum(self._live(), self._accum), "PAPI_accum")
        self.values = self._accum[:]
        return self.values

    def reset(self):
        """Set the counters (and the accumulator of accum) back to zero."""
        check(lib.PAPI_reset(self._live()), "PAPI_reset")
        ctypes.memset(self._accum, 0, ctypes.sizeof(self._accum))

    def stop(self):
        """Stop counting; returns the final counts in event order."""
        check(lib.PAPI_stop(self._live(), self._buffer), "PAPI_stop")
        self.values = self._buffer[:]
        return self.values

    def running(self):
        state = ctypes.c_int(0)
        check(lib.PAPI_state(self._live(), ctypes.byref(state)), "PAPI_state")
        return bool(state.value & CONSTANTS["PAPI_RUNNING"])

    def values_dict(self):
        """The last values by event name."""
        return dict(zip(self._names, self.values))

    def values_array(self):
        """The last values as a numpy int64 array (needs numpy: python3-numpy)."""
        import numpy
        return numpy.array(self.values, dtype=numpy.int64)

    def values_series(self):
        """The last values as a pandas Series indexed by event name (python3-pandas)."""
        import pandas
        return pandas.Series(self.values, index=self._names, dtype="int64", name="count")

    def close(self):
        """Stop if running, then clean up and destroy the event set (idempotent)."""
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
