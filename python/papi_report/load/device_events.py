"""papi_report.load.device_events: what an event counts, a device, a package or a thread, and
its unit as papi_native_avail(1) gives it. The one place that decides it.

A device-level event (a GPU's, of nvml, rocm_smi or amdgpu) reads the device: its value
over an interval is the same for every thread and every process on the node that reads
it, so the report shows it once (never "own" beside "all threads") and never adds it up
over the threads of one process or the ranks of one host. A package-level event
(powercap's RAPL zones) is the CPU socket's: energy.py has its own rule for those.

The region file's marker wins where the library wrote one (event_definitions[name]
["scope"]: "device", and "units"); files without it (older releases, PAPI 7) are read by
the event's component prefix and name."""
import re

DEVICE, PACKAGE, THREAD = "device", "package", "thread"
DEVICE_COMPONENTS = ("nvml", "rocm_smi", "amdgpu")
PACKAGE_COMPONENTS = ("powercap", "rapl")

#: (component, pattern of the name after "component:::", unit): the components' own
#: tables (src-c/lib/components/gpu/*_component.c), as papi_native_avail lists them.
_UNITS = [
    ("nvml", r"(^|:)total_energy_consumption$", "mJ"),
    ("nvml", r"(^|:)power$", "mW"),
    ("nvml", r"_memory$", "B"),
    ("rocm_smi", r"(^|:)energy_count(:|$)", "uJ"),
    ("rocm_smi", r"(^|:)power_average(:|$)", "uW"),
    ("rocm_smi", r"(^|:)mem_(usage|total)_VRAM(:|$)", "B"),
    ("amdgpu", r":power\d*_(average|input)$", "uW"),
    ("amdgpu", r":mem_info_vram_(used|total)$", "B"),
]
_KINDS = {"J": "energy", "mJ": "energy", "uJ": "energy", "nJ": "energy",
          "W": "power", "mW": "power", "uW": "power", "B": "memory"}


def component(name):
    """The component an event name starts with ("nvml" of "nvml:::..."), "" for none."""
    return name.split(":::", 1)[0] if ":::" in name else ""


def _definition(definitions, name):
    d = (definitions or {}).get(name)
    return d if isinstance(d, dict) else {}


def scope(name, definitions=None):
    """DEVICE, PACKAGE or THREAD: the file's marker (definitions: a region file's
    event_definitions) where it has one, else the event's component."""
    marked = _definition(definitions, name).get("scope")
    if marked in (DEVICE, PACKAGE, THREAD):
        return marked
    comp = component(name)
    if comp in DEVICE_COMPONENTS:
        return DEVICE
    if comp in PACKAGE_COMPONENTS:
        return PACKAGE
    return THREAD


def is_device(name, definitions=None):
    return scope(name, definitions) == DEVICE


def native_unit(name, definitions=None):
    """The event's unit as papi_native_avail gives it ("mJ", "mW", "B"), "" when unknown:
    the file's "units" where it has them, else the component's table."""
    marked = _definition(definitions, name).get("units")
    if isinstance(marked, str) and marked:
        return marked
    comp, rest = component(name), name.split(":::", 1)[-1]
    for c, pattern, unit in _UNITS:
        if c == comp and re.search(pattern, rest):
            return unit
    return ""


def kind(name, definitions=None):
    """"energy", "power", "memory" of a device event by its unit; None otherwise."""
    return _KINDS.get(native_unit(name, definitions)) if is_device(name, definitions) else None
