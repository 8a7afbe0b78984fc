"""The library's life as the module sees it: initialised on first use and again when a
shutdown ended it.

The module keeps a registry of the EventSets that hold a handle of libpapi. When the
library was shut down (found at the next initialisation), each registered set forgets its
handle: libpapi numbers sets from 0 again after an initialisation, so an old handle would
reach a new set. A forgotten set refuses every call with PapiError PAPI_ENOINIT, saying
why; close() on it does nothing.

Lock order: the registry's lock (_lock) before one set's lock; a set's methods never
take _lock, so a shutdown may wait for a call in flight on any set."""

import ctypes
import threading
import weakref

from ._library import lib, CONSTANTS
from .errors import PapiError, check

_PAPI_NULL = CONSTANTS["PAPI_NULL"]
_lock = threading.RLock()  # initialisation, shutdown, the registry
_sets = weakref.WeakSet()  # the EventSets that hold a handle of the library


def _forget_all(reason):
    for es in list(_sets):
        es._forget(reason, False)
    _sets.clear()


def _init_locked():
    if lib.PAPI_is_initialized() != CONSTANTS["PAPI_NOT_INITED"]:
        return
    # Not initialised: the first use, or the library was shut down by a call that did
    # not come through shutdown() (C code of the process): its sets are gone.
    _forget_all("the library was shut down (PAPI_shutdown) after this EventSet was made")
    version = CONSTANTS["PAPI_VER_CURRENT"]
    got = lib.PAPI_library_init(version)
    if got != version:
        raise PapiError(got if got < 0 else CONSTANTS["PAPI_EINVAL"], "PAPI_library_init")


def ensure_init():
    """PAPI_library_init when the library is not initialised (the first use, after a
    shutdown, in a forked child); a failure raises PapiError with the library's reason."""
    with _lock:
        _init_locked()


def new_eventset(owner):
    """PAPI_create_eventset for owner (an EventSet), the library initialised first; owner
    is registered in the same step, so no shutdown or fork falls between the two."""
    with _lock:
        _init_locked()
        handle = ctypes.c_int(_PAPI_NULL)
        check(lib.PAPI_create_eventset(ctypes.byref(handle)), "PAPI_create_eventset")
        _sets.add(owner)
        return handle.value
