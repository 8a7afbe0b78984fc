"""papi_report.check: what papi_report needs of a report file beyond its JSON Schema
(schema_check.py): the values that cannot be, found in one pass, the first raising
MalformedInput that names the file, the field and why. The load layer: the standard
library only (no pandas), so papi_report --check and the loaders need nothing else."""
import json
import math

#: Measurements every region entry has besides its events.
BUILTIN = ("cycles", "real_time_nsec")
#: The members of a region or papi_run file's run header ("run": the same for every rank
#: of one job) and their columns in region_run.
RUN_FIELDS = (("id", "run_id"), ("command", "command"), ("start", "start_utc"), ("host", "host"),
              ("cpu", "cpu"), ("version", "papi_compat_version"))


class ReportError(Exception):
    """A file that is missing or not in the expected format (the message says which)."""


class MalformedInput(ReportError):
    """A file that parses but is not in the expected format (papi_report exits with 2)."""


def _load_json(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except OSError as e:
        raise ReportError("cannot read %s: %s" % (path, e.strerror))
    except (ValueError, RecursionError) as e:
        raise MalformedInput("%s is not JSON: %s" % (path, e))


# What each value must be for the tables (and the figures drawn from them) to hold it.
_KINDS = {
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v),
    "number >= 0": lambda v: _KINDS["number"](v) and v >= 0,
    "true or false": lambda v: isinstance(v, bool),
    "integer >= 0": lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= 0,
    "string": lambda v: isinstance(v, str),
    "string or null": lambda v: v is None or isinstance(v, str),
    "object": lambda v: isinstance(v, dict),
    "list": lambda v: isinstance(v, list),
}


def _shown(v):
    """A value as the file has it, cut short: -7, 1.9, Infinity, "3", {...}."""
    if isinstance(v, (dict, list)):
        return "an object" if isinstance(v, dict) else "a list"
    text = json.dumps(v)
    return text if len(text) <= 40 else text[:37] + "..."


class _Checker:
    """Checks one file's values; the first that is wrong raises MalformedInput naming the
    file and where the value is."""

    def __init__(self, path):
        self.path = path

    def bad(self, where, what):
        raise MalformedInput("%s: %s %s" % (self.path, where, what))

    def need(self, obj, key, kind, where, optional=False):
        if key not in obj:
            if optional:
                return None
            self.bad(where, "has no '%s'" % key)
        if not _KINDS[kind](obj[key]):
            self.bad("%s.%s" % (where, key) if where else key, "is %s, not %s%s"
                     % (_shown(obj[key]), "an " if kind[0] in "aeiou" else "a ", kind))
        return obj[key]

    def rank(self, obj, key, where, nranks):
        r = self.need(obj, key, "integer >= 0", where)
        if r >= nranks:
            self.bad("%s.%s" % (where, key), "is %d, not a rank of the %d" % (r, nranks))
        return r


def _check_mpi(path, rep):
    """What mpi_report.schema.json cannot say (load.py checked the file against it
    first: every type and bound, in one line naming the JSON path and the rule): each
    rank within nranks and listed once, a partner a rank of the run, MPI time within the
    wall time, every number finite (JSON has no Infinity, Python's json writes it)."""
    c = _Checker(path)
    ranks = rep["ranks"]
    nranks = c.need(rep, "nranks", "integer >= 0", "", optional=True)
    nranks = len(ranks) if nranks is None else nranks
    if not len(ranks) <= nranks <= 1 << 20:  # a rank x rank matrix is drawn
        c.bad("nranks", "is %d for %d ranks listed" % (nranks, len(ranks)))
    seen = set()
    for i, r in enumerate(ranks):
        w = "ranks[%d]" % i
        if not isinstance(r, dict):
            c.bad(w, "is not an object")
        n = c.rank(r, "rank", w, nranks)
        if n in seen:
            c.bad(w + ".rank", "%d is listed twice" % n)
        seen.add(n)
        wall = c.need(r, "wall_s", "number >= 0", w, optional=True)
        mpi = c.need(r, "mpi_s", "number >= 0", w, optional=True)
        # Time in MPI is the wall-clock time any thread spent in it: never above the wall
        # time (the per-thread sum, mpi_thread_sum_s, may be: several threads at once).
        if wall is not None and mpi is not None and mpi > wall * (1 + 1e-9) + 1e-6:
            c.bad(w + ".mpi_s", "is %g s, more than the rank's wall time (wall_s %g s)" % (mpi, wall))
        for j, p in enumerate(r.get("partners") or []):
            if isinstance(p, dict):
                c.rank(p, "rank", "%s.partners[%d]" % (w, j), nranks)
    check_mpi_series(path, rep)
    check_mpi_metrics(path, rep)
    finite(c, rep)


def _check_regions(path, data):
    c = _Checker(path)
    c.need(data, "event_definitions", "object", "")
    if "rank" in data and data["rank"] is not None:
        c.need(data, "rank", "integer >= 0", "")
    for thread, t in c.need(data, "threads", "object", "").items():
        tw = "threads['%s']" % thread
        if not isinstance(t, dict):
            c.bad(tw, "is not an object")
        for rid, r in (c.need(t, "regions", "object", tw, optional=True) or {}).items():
            w = "%s.regions['%s']" % (tw, rid)
            if not rid.isdigit():
                c.bad(w, "has an id that is not a number")
            if not isinstance(r, dict):
                c.bad(w, "is not an object")
            c.need(r, "name", "string", w)
            parent = r.get("parent_region_id", -1)
            if not (isinstance(parent, int) and not isinstance(parent, bool) or
                    isinstance(parent, str) and parent.lstrip("-").isdigit()):
                c.bad(w + ".parent_region_id", "is not a region id")
            for m in BUILTIN + ("region_count",):  # times and counts of instances
                if not isinstance(r.get(m), dict):  # (else its reads, checked below)
                    c.need(r, m, "number >= 0", w, optional=True)
            for m, v in r.items():
                if m in ("name", "parent_region_id") or _KINDS["number"](v):
                    continue
                if not isinstance(v, dict):
                    c.bad("%s['%s']" % (w, m), "is neither a number nor an object of reads")
                c.need(v, "region_value", "number", "%s['%s']" % (w, m))
                for k, x in v.items():
                    if k != "region_value" and not (k.startswith("read_") and k[5:].isdigit()):
                        c.bad("%s['%s']" % (w, m), "has '%s', not region_value or read_N" % k)
                    c.need(v, k, "number", "%s['%s']" % (w, m))
    run = c.need(data, "run", "object", "", optional=True)
    for key, _col in RUN_FIELDS if run is not None else ():
        c.need(run, key, "string", "run", optional=True)
    for tid, at in (c.need(data, "all_threads", "object", "", optional=True) or {}).items():
        aw = "all_threads['%s']" % tid
        if not isinstance(at, dict):
            c.bad(aw, "is not an object")
        for part in ("instances", "regions"):
            for key, v in (c.need(at, part, "object", aw, optional=True) or {}).items():
                vw = "%s.%s['%s']" % (aw, part, key)
                if not isinstance(v, dict):
                    c.bad(vw, "is not an object")
                for ev in v:
                    c.need(v, ev, "number", vw)
    check_region_series(path, data)
    check_region_metrics(path, data)
    finite(c, data)


def _check_samples(c, samples, where, events, instant=()):
    """A series' samples: time_nsec a finite number >= 0 that never goes back, each
    event's count a finite number (>= 0 unless the event is an instant reading), each
    metric a finite number or null. The first wrong value raises MalformedInput naming
    the file, the field and why."""
    if not isinstance(samples, list):
        c.bad(where, "is not a list of samples")
    prev = None
    for k, s in enumerate(samples):
        w = "%s[%d]" % (where, k)
        if not isinstance(s, dict):
            continue  # not a sample of any producer: left out (timed_samples)
        t = c.need(s, "time_nsec", "number >= 0", w, optional=True)
        if t is not None:
            if prev is not None and t < prev[1]:
                c.bad(w + ".time_nsec", "is %.17g ns, before the previous sample's %.17g ns "
                      "(%s[%d].time_nsec): time runs backwards" % (t, prev[1], where, prev[0]))
            prev = (k, t)
        for ev in events:
            if ev in s:
                c.need(s, ev, "number" if ev in instant else "number >= 0", "%s['%s']" % (w, ev))
        for name, v in (c.need(s, "metrics", "object", w, optional=True) or {}).items():
            if v is not None and not _finite(v):
                c.bad("%s.metrics['%s']" % (w, name), "is %r, neither a finite number nor null" % (v,))


def _finite(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def check_region_series(path, data):
    """The series of a region file (papi_run --interval, PAPI_INTERVAL): MalformedInput
    naming the file and the field for a negative, infinite or backwards value."""
    c = _Checker(path)
    series = c.need(data, "series", "object", "", optional=True)
    if series is None:
        return
    defs = data.get("event_definitions") or {}
    events = list(defs)
    instant = {e for e, d in defs.items() if isinstance(d, dict) and d.get("type") == "instant"}
    if series.get("interval_s") is not None and \
            (not _finite(series["interval_s"]) or series["interval_s"] <= 0):
        c.bad("series.interval_s", "is %r, not a number > 0" % (series["interval_s"],))
    if "samples" in series:
        _check_samples(c, series["samples"], "series.samples", events, instant)
    for tid, smp in (c.need(series, "threads", "object", "series", optional=True) or {}).items():
        _check_samples(c, smp, "series.threads['%s']" % tid, events, instant)
    if "process_metrics" in series:
        _check_samples(c, series["process_metrics"], "series.process_metrics", [], instant)
    for ev in (c.need(series, "totals", "object", "series", optional=True) or {}):
        c.need(series["totals"], ev, "number" if ev in instant else "number >= 0", "series.totals")
    for tid, items in (c.need(series, "region_spans", "object", "series", optional=True) or {}).items():
        for j, x in enumerate(items if isinstance(items, list) else []):
            w = "series.region_spans['%s'][%d]" % (tid, j)
            if not isinstance(x, dict):
                continue
            b = c.need(x, "begin_nsec", "number >= 0", w, optional=True)
            e = c.need(x, "end_nsec", "number >= 0", w, optional=True)
            if b is not None and e is not None and e < b:
                c.bad(w + ".end_nsec", "is %.17g ns, before its begin_nsec %.17g ns: time runs "
                      "backwards" % (e, b))


def check_mpi_series(path, rep):
    """The ranks' series of the MPI report (PAPI_INTERVAL): as check_region_series."""
    c = _Checker(path)
    events = [e for e in rep.get("events") or [] if isinstance(e, str)]
    for i, r in enumerate(rep["ranks"]):
        series = c.need(r, "series", "object", "ranks[%d]" % i, optional=True)
        if series is None:
            continue
        w = "ranks[%d].series" % i
        if series.get("interval_s") is not None and \
                (not _finite(series["interval_s"]) or series["interval_s"] <= 0):
            c.bad(w + ".interval_s", "is %r, not a number > 0" % (series["interval_s"],))
        if "samples" in series:
            _check_samples(c, series["samples"], w + ".samples", events)


FLOP_METRICS = ("DP_FLOPS", "SP_FLOPS")
BYTES_METRIC = "MEM_BW"
PEAK_KEYS = ("flops_per_s", "bytes_per_s")


def _number_or_null(c, obj, key, where):
    v = obj[key]
    if v is not None and not _KINDS["number"](v):
        c.bad("%s['%s']" % (where, key), "is neither a number nor null")
    return v


def check_mpi_metrics(path, rep):
    """MalformedInput naming the file and the value when a metric member is not as
    papi_mpi_report(5) says; nothing when the report has none (an older library)."""
    c = _Checker(path)
    for name, d in (c.need(rep, "named_metrics", "object", "", optional=True) or {}).items():
        w = "named_metrics['%s']" % name
        if not isinstance(d, dict):
            c.bad(w, "is not an object")
        c.need(d, "unit", "string", w)
        if d.get("job") is not None:
            c.need(d, "job", "number", w)
    for i, r in enumerate(rep["ranks"]):
        w = "ranks[%d].named_metrics" % i
        for name in (c.need(r, "named_metrics", "object", "ranks[%d]" % i, optional=True) or {}):
            _number_or_null(c, r["named_metrics"], name, w)
        c.need(r, "named_metrics_note", "string", "ranks[%d]" % i, optional=True)
        for name in (c.need(r, "named_metrics_shared_by", "object", "ranks[%d]" % i,
                            optional=True) or {}):
            c.need(r["named_metrics_shared_by"], name, "integer >= 0", w + "_shared_by")
    check_peaks(c, rep)


def check_peaks(c, doc):
    peaks = c.need(doc, "peaks", "object", "", optional=True) or {}
    for k in PEAK_KEYS:
        if k in peaks and (not _KINDS["number"](peaks[k]) or peaks[k] <= 0):
            c.bad("peaks.%s" % k, "is not a number > 0")


def check_region_metrics(path, data):
    c = _Checker(path)
    m = c.need(data, "metrics", "object", "", optional=True)
    if m is None:
        return
    for name, d in c.need(m, "definitions", "object", "metrics").items():
        if not isinstance(d, dict):
            c.bad("metrics.definitions['%s']" % name, "is not an object")
        c.need(d, "unit", "string", "metrics.definitions['%s']" % name)
    # papi_run -m writes the whole program's values ("process"), no per-thread regions
    proc = c.need(m, "process", "object", "metrics", optional=True)
    for metric in m["definitions"] if proc is not None else []:
        if metric in proc:
            _number_or_null(c, proc, metric, "metrics.process")
    for tid, t in (c.need(m, "threads", "object", "metrics", optional=proc is not None) or {}).items():
        tw = "metrics.threads['%s']" % tid
        if not isinstance(t, dict):
            c.bad(tw, "is not an object")
        parts = [(t, tw, part) for part in ("instances", "regions")]
        at = c.need(t, "all_threads", "object", tw, optional=True)
        if at is not None:
            parts += [(at, tw + ".all_threads", part) for part in ("instances", "regions")]
        for holder, hw, part in parts:
            for key, v in (c.need(holder, part, "object", hw, optional=True) or {}).items():
                vw = "%s.%s['%s']" % (hw, part, key)
                if not isinstance(v, dict):
                    c.bad(vw, "is not an object")
                for metric in m["definitions"]:
                    if metric in v:
                        _number_or_null(c, v, metric, vw)
    check_peaks(c, data)


def finite(c, doc):
    """The first number that is not finite (Infinity, NaN: no JSON value, but Python's json
    writes and reads them), named by its JSON path; iterative, any depth."""
    try:
        json.dumps(doc, allow_nan=False)  # C speed; the walk below only finds where
        return
    except ValueError:
        pass
    stack = [(doc, "$")]
    while stack:
        v, where = stack.pop()
        if isinstance(v, float) and not math.isfinite(v):
            c.bad(where, "is %s, not a finite number (JSON has no Infinity or NaN)" % _shown(v))
        elif isinstance(v, dict):
            stack.extend((x, "%s[%s]" % (where, json.dumps(k))) for k, x in v.items()
                         if isinstance(x, (dict, list, float)))
        elif isinstance(v, list):
            stack.extend((x, "%s[%d]" % (where, i)) for i, x in enumerate(v)
                         if isinstance(x, (dict, list, float)))
