"""avail(): the presets and native events of this machine with their availability, as
papi_avail and papi_native_avail list them (a list of dicts, or a pandas DataFrame)."""

import ctypes

from ._library import lib, CONSTANTS
from .lifecycle import ensure_init

_HUGE, _MIN, _2MAX = (CONSTANTS[n] for n in ("PAPI_HUGE_STR_LEN", "PAPI_MIN_STR_LEN",
                                             "PAPI_2MAX_STR_LEN"))
_TERMS = CONSTANTS["PAPI_MAX_INFO_TERMS"]


class EventInfo(ctypes.Structure):
    """PAPI_event_info_t, field for field."""
    _fields_ = [("event_code", ctypes.c_uint), ("symbol", ctypes.c_char * _HUGE),
                ("short_descr", ctypes.c_char * _MIN), ("long_descr", ctypes.c_char * _HUGE),
                ("component_index", ctypes.c_int), ("units", ctypes.c_char * _MIN)] + [
        (n, ctypes.c_int) for n in ("location", "data_type", "value_type", "timescope",
                                    "update_type", "update_freq")] + [
        ("count", ctypes.c_uint), ("event_type", ctypes.c_uint),
        ("derived", ctypes.c_char * _MIN), ("postfix", ctypes.c_char * _2MAX),
        ("code", ctypes.c_uint * _TERMS), ("name", (ctypes.c_char * _2MAX) * _TERMS),
        ("note", ctypes.c_char * _HUGE)]


lib.PAPI_get_event_info.argtypes = [ctypes.c_int, ctypes.POINTER(EventInfo)]
lib.PAPI_enum_cmp_event.argtypes = [ctypes.POINTER(ctypes.c_int), ctypes.c_int, ctypes.c_int]
lib.PAPI_enum_cmp_event.restype = ctypes.c_int


def _text(raw):
    return raw.decode("utf-8", "replace")


def _walk(first_code, kind, cidx=None):
    """Presets (PAPI_enum_event) or the native events of component cidx."""
    code = ctypes.c_int(first_code)
    info = EventInfo()

    def step(modifier):
        if cidx is None:
            return lib.PAPI_enum_event(ctypes.byref(code), modifier)
        return lib.PAPI_enum_cmp_event(ctypes.byref(code), modifier, cidx)
    if step(CONSTANTS["PAPI_ENUM_FIRST"]) != 0:
        return
    while True:
        if lib.PAPI_get_event_info(code.value, ctypes.byref(info)) == 0:
            yield {"name": _text(info.symbol), "kind": kind, "code": code.value,
                   "available": lib.PAPI_query_event(code.value) == 0,
                   "component": info.component_index,
                   "description": _text(info.long_descr), "units": _text(info.units)}
        if step(CONSTANTS["PAPI_ENUM_EVENTS"]) != 0:
            return


def avail(presets=True, natives=True, available_only=False, pandas=False):
    """Every preset ("kind": "preset") and native event ("native") with "available"
    (PAPI_query_event: it can be counted here), code, component, description, units.
    pandas=True gives a DataFrame (python3-pandas)."""
    for flag in (presets, natives, available_only, pandas):
        if not isinstance(flag, bool):
            raise TypeError("avail() takes True or False, not %r" % (flag,))
    ensure_init()
    rows = []
    if presets:
        rows += _walk(CONSTANTS["PAPI_PRESET_MASK"], "preset")
    if natives:
        for cidx in range(lib.PAPI_num_components()):
            rows += _walk(CONSTANTS["PAPI_NATIVE_MASK"], "native", cidx)
    if available_only:
        rows = [r for r in rows if r["available"]]
    if pandas:
        import pandas as pd
        return pd.DataFrame(rows, columns=["name", "kind", "available", "code", "component",
                                           "description", "units"])
    return rows
