"""hardware_info(): PAPI_get_hardware_info as a dict (the PAPI_hw_info_t of papi.h)."""

import ctypes

from ._library import lib, CONSTANTS
from .lifecycle import ensure_init

_STR = CONSTANTS["PAPI_MAX_STR_LEN"]
_MH_LEVELS = CONSTANTS["PAPI_MH_MAX_LEVELS"]
_MEM_LEVELS = CONSTANTS["PAPI_MAX_MEM_HIERARCHY_LEVELS"]


class _Tlb(ctypes.Structure):
    _fields_ = [(n, ctypes.c_int) for n in ("type", "num_entries", "page_size", "associativity")]


class _Cache(ctypes.Structure):
    _fields_ = [(n, ctypes.c_int)
                for n in ("type", "size", "line_size", "num_lines", "associativity")]


class _Level(ctypes.Structure):
    _fields_ = [("tlb", _Tlb * _MH_LEVELS), ("cache", _Cache * _MH_LEVELS)]


class _MemHierarchy(ctypes.Structure):
    _fields_ = [("levels", ctypes.c_int), ("level", _Level * _MEM_LEVELS)]


class HwInfo(ctypes.Structure):
    """PAPI_hw_info_t, field for field."""
    _fields_ = [(n, ctypes.c_int) for n in ("ncpu", "threads", "cores", "sockets", "nnodes",
                                            "totalcpus", "vendor")] + [
        ("vendor_string", ctypes.c_char * _STR), ("model", ctypes.c_int),
        ("model_string", ctypes.c_char * _STR), ("revision", ctypes.c_float)] + [
        (n, ctypes.c_int) for n in ("cpuid_family", "cpuid_model", "cpuid_stepping",
                                    "cpu_max_mhz", "cpu_min_mhz")] + [
        ("mem_hierarchy", _MemHierarchy), ("virtualized", ctypes.c_int),
        ("virtual_vendor_string", ctypes.c_char * _STR),
        ("virtual_vendor_version", ctypes.c_char * _STR),
        ("mhz", ctypes.c_float), ("clock_mhz", ctypes.c_int), ("reserved", ctypes.c_int * 8)]


lib.PAPI_get_hardware_info.restype = ctypes.POINTER(HwInfo)


def _caches(mh):
    out = []
    for i in range(mh.levels):
        for c in mh.level[i].cache:
            if c.type:
                out.append({"level": i + 1, "type": c.type, "size": c.size,
                            "line_size": c.line_size, "associativity": c.associativity})
    return out


def hardware_info():
    """ncpu, threads, cores, sockets, nnodes, totalcpus, vendor(_string), model(_string),
    revision, cpuid_*, cpu_max/min_mhz, virtualized, virtual_vendor_*, mhz and caches."""
    ensure_init()
    ptr = lib.PAPI_get_hardware_info()
    if not ptr:
        from .errors import PapiError
        raise PapiError(CONSTANTS["PAPI_ENOINIT"], "PAPI_get_hardware_info")
    hw = ptr.contents
    info = {}
    for name, _ in HwInfo._fields_:
        value = getattr(hw, name)
        if isinstance(value, bytes):
            value = value.decode("utf-8", "replace")
        if name not in ("mem_hierarchy", "reserved"):
            info[name] = value
    info["caches"] = _caches(hw.mem_hierarchy)
    return info
