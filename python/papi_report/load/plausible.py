"""papi_report.load.plausible: values no run can reach, which the schemas let by (their
bounds are those of the writers' integer types, 2^64 - 1): a time of over a century in
nanoseconds, or more operations of one kind than one a nanosecond for 104 days (2^53, the
largest count a double holds exactly; past it pandas' int64 columns overflow into
TypeErrors). Such a value is a writer's -1 or a corrupted file, never a measurement; the
first found raises MalformedInput naming the file and its JSON path (issue 69). The load
layer: the standard library only."""
import json

from .check import _Checker, _is_int

#: A century, in nanoseconds: no run, region or wait lasts longer.
MAX_NS = 100 * 365 * 86400 * 10**9
#: The most operations (launches, records, instances ...) one file may count.
MAX_COUNT = 2**53
#: Members that hold a count of operations (the OMPT tool's, papi_run --gpu's, the region
#: API's GPU sections).
COUNT_KEYS = frozenset((
    "launches", "kernel_launches", "count", "records", "dropped", "buffers_refused",
    "incomplete", "kernels_untabled", "unlinked_launches", "instances", "outermost_instances",
    "implicit_tasks", "counted_tasks", "other_team_size_instances", "threads_seen",
    "threads_ended", "region_count", "tables_unread"))


def is_time(key):
    """A member holding nanoseconds: "..._ns", "..._nsec" or a sum's "ns"."""
    return key == "ns" or key.endswith("_ns") or key.endswith("_nsec")


def bounded(path, doc, at="$", skip=()):
    """MalformedInput at the first time past MAX_NS or count past MAX_COUNT in doc (its
    JSON path: at, then the members' names); members named in skip (at the top) are not
    walked. Iterative: any depth."""
    c = _Checker(path)
    stack = [(doc, at, True)]
    while stack:
        v, where, top = stack.pop()
        if isinstance(v, dict):
            for k, x in v.items():
                w = "%s.%s" % (where, k) if k.isidentifier() else "%s[%s]" % (where, json.dumps(k))
                if _is_int(x):
                    if x > MAX_NS and is_time(k):
                        c.bad(w, "is %d ns (%.4g years): longer than any run (a century)"
                              % (x, x / (365 * 86400 * 1e9)))
                    if x > MAX_COUNT and k in COUNT_KEYS:
                        c.bad(w, "is %d: more than any run counts (2^53 = %d, one a "
                              "nanosecond for 104 days)" % (x, MAX_COUNT))
                elif isinstance(x, (dict, list)) and not (top and k in skip):
                    stack.append((x, w, False))
        elif isinstance(v, list):
            stack.extend((x, "%s[%d]" % (where, i), False) for i, x in enumerate(v)
                         if isinstance(x, (dict, list)))


def region_times(path, data):
    """bounded() for a region file, whose "threads" (every instance of every region of
    every thread: the bulk of a large file) are not walked: their one time, each region's
    real_time_nsec, looked up directly (a region's reads are a member of their own)."""
    bounded(path, data, skip=("threads",))
    threads = data.get("threads")
    for tid, t in threads.items() if isinstance(threads, dict) else ():
        regions = t.get("regions") if isinstance(t, dict) else None
        for rid, r in regions.items() if isinstance(regions, dict) else ():
            v = r.get("real_time_nsec") if isinstance(r, dict) else None
            if _is_int(v) and v > MAX_NS:
                _Checker(path).bad('$.threads["%s"].regions["%s"].real_time_nsec' % (tid, rid),
                                   "is %d ns (%.4g years): longer than any run (a century)"
                                   % (v, v / (365 * 86400 * 1e9)))
