"""The library's life as the module sees it: initialised on first use and again after a
shutdown, papi.shutdown(), and fork.

The module keeps a registry of the EventSets that hold a handle of libpapi. When the
library ends (papi.shutdown(), papi.lib.PAPI_shutdown(), or a shutdown found at the next
initialisation) or the process forks, each registered set forgets its handle: libpapi
numbers sets from 0 again after an initialisation, so an old handle would reach a new
set. A forgotten set refuses every call with PapiError PAPI_ENOINIT, saying why; close()
on it does nothing. This is PAPI 7's fork semantics (tests/conformance/test_fork.c): a
forked child starts from a clean library, its inherited sets cannot be used, and its
first use of the module initialises the library again.

Lock order: the registry's lock (_lock) before one set's lock; a set's methods never
take _lock, so a shutdown may wait for a call in flight on any set."""

import ctypes
import os
import threading
import weakref

from ._library import lib, CONSTANTS
from .errors import PapiError, check

_PAPI_NULL = CONSTANTS["PAPI_NULL"]
_lock = threading.RLock()  # initialisation, shutdown, the registry
_sets = weakref.WeakSet()  # the EventSets that hold a handle of the library
_c_shutdown = lib.PAPI_shutdown  # the C function (lib.PAPI_shutdown becomes shutdown)


def _forget_all(reason, fork_child=False):
    for es in list(_sets):
        es._forget(reason, fork_child)
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
    """PAPI_create_eventset into owner._handle (owner: an EventSet), the library
    initialised first; owner is registered in the same step, so no shutdown falls between
    the handle's making and its registration."""
    with _lock:
        _init_locked()
        handle = ctypes.c_int(_PAPI_NULL)
        check(lib.PAPI_create_eventset(ctypes.byref(handle)), "PAPI_create_eventset")
        owner._handle = handle.value
        _sets.add(owner)


def shutdown():
    """PAPI_shutdown: every event set is stopped and destroyed by the library, and every
    EventSet made so far refuses further calls with PapiError PAPI_ENOINIT (close() on it
    does nothing). The next use of the module (EventSet, avail, hardware_info)
    initialises the library again. Waits for calls in flight on the sets."""
    with _lock:
        _forget_all("papi.shutdown() ended the library after this EventSet was made; "
                    "make a new EventSet")
        _c_shutdown()


def _after_fork_in_child():
    # One thread now: a lock held by another thread of the parent at fork would never be
    # released here, so each is replaced, and the inherited sets are forgotten.
    global _lock
    _lock = threading.RLock()
    _forget_all("this EventSet was made in the parent process; a forked child starts from a "
                "clean library (PAPI 7's fork semantics): make a new EventSet in the child",
                fork_child=True)


# Through papi.lib too: the sets must be forgotten before their numbers are reused.
lib.PAPI_shutdown = shutdown
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)
