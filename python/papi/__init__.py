"""papi: count with papi-compat's libpapi from Python (ctypes, no compiler needed).

    import papi
    with papi.EventSet(["perf::PAGE-FAULTS"]) as es:
        work()
    print(es.values_dict())

EventSet (add, remove, start, read, accum, reset, stop, values_dict; numpy and pandas on
request), region (the region API as a context manager), hardware_info, avail, PapiError,
shutdown (PAPI_shutdown; the next use initialises the library again). The functions of
libpapi itself are papi.lib.PAPI_* and the constants of papi.h are papi.PAPI_* (both
generated from the API table of the Fortran module). See papi_python(3)."""

from ._library import lib, library_version, CONSTANTS
from .errors import PapiError
from .eventset import EventSet
from .region import region
from .hwinfo import hardware_info
from .avail import avail
from .lifecycle import shutdown

globals().update(CONSTANTS)

__all__ = ["EventSet", "PapiError", "region", "hardware_info", "avail", "lib",
           "library_version", "shutdown"] + sorted(CONSTANTS)
