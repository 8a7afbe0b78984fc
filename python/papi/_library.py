"""Load the libpapi of this install and bind its functions from the generated table.

_location.py (written at install time) names the library: a path relative to this
folder (a CMake install, so a moved tree still finds its own library) or an absolute one
(pip install, from pkg-config at build time). _api.py (generated from papif_api.def)
gives every function's types; the few that return pointers are declared here."""

import ctypes
import os

try:
    from . import _api, _location
except ImportError:  # the checkout's python/papi: its two generated files are missing
    raise ImportError("papi: %s is the source folder of the module, without its generated "
                      "_api.py and _location.py; import the built one (build/python), the "
                      "installed one (module load papi-compat) or pip install the checkout"
                      % os.path.dirname(os.path.abspath(__file__))) from None

CONSTANTS = dict(_api.CONSTANTS)

_TYPES = {"int": ctypes.c_int, "long_long": ctypes.c_longlong, "float": ctypes.c_float,
          "ulong": ctypes.c_ulong, "string": ctypes.c_char_p, "buffer": ctypes.c_char_p}


def _ctype(name):
    if name == "void":
        return None
    if name.endswith("*"):
        return ctypes.POINTER(_TYPES[name[:-1]])
    return _TYPES[name]


def _library_path():
    path = _location.LIBPAPI
    if not os.path.isabs(path):
        path = os.path.normpath(os.path.join(os.path.dirname(__file__), path))
    return path


def _load():
    path = _library_path()
    try:
        handle = ctypes.CDLL(path)
    except OSError as e:
        raise ImportError("papi: cannot load libpapi at %s (%s); reinstall papi-compat or "
                          "run the install's relocation script" % (path, e)) from None
    for name, result, args in _api.FUNCTIONS:
        func = getattr(handle, name, None)
        if func is None:
            continue  # a routine of the table this libpapi does not define
        func.restype = _ctype(result)
        func.argtypes = [_ctype(a) for a in args]
    # Functions returning pointers (not in the Fortran table): structures in hwinfo.py.
    handle.PAPI_strerror.restype = ctypes.c_char_p
    handle.PAPI_strerror.argtypes = [ctypes.c_int]
    handle.PAPI_strerror_detail.restype = ctypes.c_char_p
    handle.PAPI_strerror_detail.argtypes = []
    handle.PAPI_get_hardware_info.argtypes = []
    handle.PAPI_get_event_info.restype = ctypes.c_int
    return handle


lib = _load()
# The read path without argtypes: ctypes then converts nothing (about 140 ns less per
# call); only the module passes it its own int handle and its own c_longlong buffer.
_untyped = ctypes.CDLL(_library_path())
fast_read = _untyped.PAPI_read
fast_read.restype = ctypes.c_int


def library_version():
    """The PAPI API level libpapi implements, as "major.minor.revision.increment"."""
    v = CONSTANTS["PAPI_VERSION"]
    return "%d.%d.%d.%d" % (v >> 24 & 0xff, v >> 16 & 0xff, v >> 8 & 0xff, v & 0xff)
