"""papi_report.load.units: values as a reader reads them, in the units papi_metric_avail(1)
names (s, ms, GB/s, ...): a time in s, ms, us or ns, a count or a rate with an SI prefix
(k, M, G, T), never a raw count of nanoseconds. Only for labels in figures: the tables
and CSV files keep the values as measured."""
import math

PREFIXES = ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k"))
TIME_UNITS = ((1.0, "s"), (1e-3, "ms"), (1e-6, "\u00b5s"), (1e-9, "ns"))
#: Measurements of a region file that are times in nanoseconds: the wall clock and the
#: kernel's CPU clocks (perf's TASK-CLOCK and CPU-CLOCK count nanoseconds on a CPU).
NANOSECONDS = ("real_time_nsec", "perf::TASK-CLOCK", "perf::CPU-CLOCK")


def _g(v):
    """Three significant digits, no exponent for the sizes an SI prefix leaves."""
    return "%.3g" % v if abs(v) < 1000 else "%.0f" % v


def seconds(v):
    """A time in seconds: "2.5 s", "12 ms", "850 µs", "40 ns"."""
    if not math.isfinite(v) or v == 0:
        return "%g s" % v
    for f, name in TIME_UNITS:
        if abs(v) >= f:
            return "%s %s" % (_g(v / f), name)
    return "%s ns" % _g(v / 1e-9)


def count(v, unit=""):
    """A count, or a rate of unit ("B/s"), with an SI prefix: "8197", "12.3 k", "4.5 GB/s"."""
    if math.isfinite(v) and not abs(v) < 1e4:  # 8197 stays whole: it reads as well as 8.2 k
        for f, p in PREFIXES:
            if abs(v) >= f:
                return "%s %s%s" % (_g(v / f), p, unit)
    text = "%d" % v if math.isfinite(v) and float(v).is_integer() else "%.3g" % v
    return ("%s %s" % (text, unit)).strip()


def measurement(v, name):
    """A region measurement (region_tree's columns): nanoseconds as a time, the rest as
    counts."""
    base = name.split(" (", 1)[0]
    return seconds(v * 1e-9) if is_time(base) else count(v)


def is_time(name):
    """Is the measurement (an event's name, "(all threads)" or not) nanoseconds?"""
    return name.split(" (", 1)[0] in NANOSECONDS


def rate(name):
    """(factor, unit) of an event's rate per second as a reader reads it: a CPU clock's
    nanoseconds per second are CPUs busy (6e8 ns/s is 0.6 CPU), the wall clock's too;
    any other count stays "<event> / s"."""
    return (1e-9, "CPUs") if is_time(name) else (1.0, "%s / s" % name)


def measurement_name(name):
    """A measurement's name for a title: "real time" for real_time_nsec."""
    base = name.split(" (", 1)[0]
    return "real time" if base == "real_time_nsec" else "%s (s)" % name if is_time(base) else name


#: A native unit (papi_native_avail's) -> (the unit a reader reads, its factor): energy in
#: J, power in W, memory in GB.
READABLE = {"J": ("J", 1.0), "mJ": ("J", 1e-3), "uJ": ("J", 1e-6), "nJ": ("J", 1e-9),
            "W": ("W", 1.0), "mW": ("W", 1e-3), "uW": ("W", 1e-6), "B": ("GB", 1e-9)}


def readable(unit):
    """(unit shown, factor) of a native unit: ("J", 1e-3) of "mJ"; (unit, 1.0) when none
    applies."""
    return READABLE.get(unit, (unit, 1.0))
