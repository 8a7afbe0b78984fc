"""papi_report.load.check: what papi_report needs of a report file beyond its JSON Schema
(schema_check.py): only the rules a schema cannot say (one value against another, a
number JSON cannot hold), the first broken raising MalformedInput that names the file,
the field and why. Every type and bound is the schema's (schema/*.schema.json). The load
layer: the standard library only (no pandas), so papi_report --check and the loaders need
nothing else."""
import contextlib
import json
import math

from .input_file import InputRefused, read_text

#: Measurements every region entry has besides its events.
BUILTIN = ("cycles", "real_time_nsec")
#: The members of a region or papi_run file's run header ("run": the same for every rank
#: of one job) and their columns in region_run.
RUN_FIELDS = (("id", "run_id"), ("command", "command"), ("start", "start_utc"), ("host", "host"),
              ("cpu", "cpu"), ("version", "papi_compat_version"))


#: A century in seconds: no rank runs longer (plausible.py has the same bound in ns).
CENTURY_S = 100 * 365 * 86400

#: The metrics the roofline draws (metric_tables.py) and the peaks it takes from a report.
FLOP_METRICS = ("DP_FLOPS", "SP_FLOPS")
BYTES_METRIC = "MEM_BW"
PEAK_KEYS = ("flops_per_s", "bytes_per_s")


class ReportError(Exception):
    """A file that is missing or not in the expected format (the message says which)."""


class MalformedInput(ReportError):
    """A file that parses but is not in the expected format (papi_report exits with 2)."""


#: Documents _load_json read without a NaN or Infinity, by id (held, so no id is reused):
#: finite() skips them (walking 100k ranks for a value that cannot be there costs seconds).
_clean = {}


@contextlib.contextmanager
def json_errors(path):
    """What reading path's JSON raises, as papi_report says it: ReportError when it
    cannot be read, MalformedInput when it is refused (input_file.py) or is not JSON."""
    try:
        yield
    except OSError as e:
        raise ReportError("cannot read %s: %s" % (path, e.strerror))
    except InputRefused as e:
        raise MalformedInput(str(e))
    except (ValueError, RecursionError) as e:
        raise MalformedInput("%s is not JSON: %s" % (path, e))


def _load_json(path):
    seen = []

    def constant(name):  # NaN, Infinity, -Infinity: not JSON, but Python's json reads them
        seen.append(name)
        return float(name)
    with json_errors(path):
        doc = json.loads(read_text(path), parse_constant=constant)
    if not seen and isinstance(doc, (dict, list)):
        _clean[id(doc)] = doc
    return doc


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


def _ranks_of(c, rep):
    """nranks (the ranks listed when absent), at least the ranks listed: a count set
    against the length of a list, which a schema cannot compare."""
    return _nranks_for(c, rep.get("nranks"), len(rep["ranks"]), rep.get("finished_ranks"))


def _nranks_for(c, nranks, listed, finished=None):
    """nranks against the rows listed: the wrapper's rank 0 writes one row per rank of
    MPI_COMM_WORLD (a job that did not finish leaves rows, papi_mpi_collect(1), not a
    report), so a report with fewer rows than nranks is cut short or made up; finished
    ranks (finished_ranks) are among them."""
    nranks = listed if not _is_int(nranks) else nranks
    if nranks < listed:
        c.bad("nranks", "is %d for %d ranks listed" % (nranks, listed))
    if nranks > listed:
        c.bad("$.nranks", "is %d, but $.ranks lists %d row%s: a report has one row per rank"
              % (nranks, listed, "" if listed == 1 else "s"))
    if _is_int(finished) and finished > nranks:
        c.bad("$.finished_ranks", "is %d, more than the %d ranks ($.nranks)" % (finished, nranks))
    return nranks


def _check_mpi(path, rep):
    """What mpi_report.schema.json cannot say (load.py checked the file against it first:
    every type and bound, in one line naming the JSON path and the rule), row by row
    (MpiRowRules), then a number JSON cannot hold anywhere in the report."""
    c = _Checker(path)
    rules = MpiRowRules(c, _ranks_of(c, rep))
    for i, r in enumerate(rep["ranks"]):
        rules.row(i, r)
    finite(c, rep)


class MpiRowRules:
    """The rules of the MPI report's rank rows that relate two values, which a JSON Schema
    cannot: a rank below nranks and listed once (a schema's bounds are constants, its
    uniqueItems compares whole rows), a partner a rank of the run, MPI time within the same
    rank's wall time, a series' time never going back. One row at a time, so a report of
    any size is checked as it is read (rank_rows.py, which calls finite() on each row and
    end() after the last). nranks None: not known yet (a file whose nranks follows its
    rows); the ranks are then kept (~100 bytes each) and bounded in end(). Values of another
    type than the schema's are skipped (the schema said so, or its files are missing)."""

    def __init__(self, c, nranks):
        self.c, self.nranks, self.n = c, nranks, 0
        self.seen, self.more = bytearray(), set()  # a bit per rank below nranks; the others
        self.late = []  # nranks unknown: (where, rank) in order

    def row(self, i, r):
        self.n += 1
        if not isinstance(r, dict):
            return
        c, w = self.c, "ranks[%d]" % i
        n = r.get("rank")
        if _is_int(n):
            self._bound(w + ".rank", n)
            self._once(w + ".rank", n)
        wall, mpi = r.get("wall_s"), r.get("mpi_s")
        # Time in MPI is the wall-clock time any thread spent in it: never above the wall
        # time (the per-thread sum, mpi_thread_sum_s, may be: several threads at once).
        if _finite(wall) and wall <= 0 and r.get("finished") is True:
            # MPI_Init to MPI_Finalize takes time: a ratio against it (--compare) has none
            c.bad(w + ".wall_s", "is %s s for a rank that reached MPI_Finalize (finished): "
                  "no run takes no time" % _shown(wall))
        if _finite(wall) and wall > CENTURY_S:
            c.bad(w + ".wall_s", "is %g s (%.4g years): longer than any run (a century)"
                  % (wall, wall / (365 * 86400)))
        if _finite(wall) and _finite(mpi) and mpi > wall * (1 + 1e-9) + 1e-6:
            c.bad(w + ".mpi_s", "is %g s, more than the rank's wall time (wall_s %g s)" % (mpi, wall))
        partners = r.get("partners")
        for j, p in enumerate(partners if isinstance(partners, list) else []):
            if isinstance(p, dict) and _is_int(p.get("rank")):
                self._bound("%s.partners[%d].rank" % (w, j), p["rank"])
        series = r.get("series")
        if isinstance(series, dict):
            _check_samples(c, series.get("samples"), w + ".series.samples", [])

    def _bound(self, where, n):
        if self.nranks is None:
            self.late.append((where, n))
        elif n >= self.nranks:
            self.c.bad(where, "is %d, not a rank of the %d" % (n, self.nranks))

    def _once(self, where, n):
        if 0 <= n < (self.nranks or 0):
            if len(self.seen) <= n >> 3:
                self.seen.extend(bytes((n >> 3) + 1 - len(self.seen)))
            bit = 1 << (n & 7)
            twice = self.seen[n >> 3] & bit
            self.seen[n >> 3] |= bit
        else:
            twice = n in self.more
            self.more.add(n)
        if twice:
            self.c.bad(where, "%d is listed twice" % n)

    def end(self, nranks, finished=None):
        """After the last row: nranks (the report's member, None when absent) and
        finished_ranks against the rows; returns the run's nranks."""
        nranks = _nranks_for(self.c, nranks, self.n, finished)
        for where, n in self.late:
            if n >= nranks:
                self.c.bad(where, "is %d, not a rank of the %d" % (n, nranks))
        return nranks


def _check_regions(path, data):
    """What region.schema.json cannot say (load.py checked the file against it first):
    series running backwards and counts of the events the file defines as deltas, metric
    values of the metrics it defines (both: a member's rule set by another member's
    value), and a number JSON cannot hold (Infinity, NaN)."""
    c = _Checker(path)
    check_region_series(path, data)
    check_region_metrics(path, data)
    finite(c, data)


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _check_samples(c, samples, where, deltas):
    """A series' samples: time_nsec never going back (a value against the one before it)
    and the counts of delta events >= 0 (event_definitions says which events are deltas:
    an instant reading, a temperature, may be negative). The schema said the rest (types,
    time_nsec >= 0, metrics finite or null); values of another type are left to it."""
    if not isinstance(samples, list):
        return
    prev = None
    for k, s in enumerate(samples):
        if not isinstance(s, dict):
            continue
        w = "%s[%d]" % (where, k)
        t = s.get("time_nsec")
        if _finite(t):
            if prev is not None and t < prev[1]:
                c.bad(w + ".time_nsec", "is %.17g ns, before the previous sample's %.17g ns "
                      "(%s[%d].time_nsec): time runs backwards" % (t, prev[1], where, prev[0]))
            prev = (k, t)
        for ev in deltas:
            v = s.get(ev)
            if _finite(v) and v < 0:
                c.bad("%s['%s']" % (w, ev), "is %s, not a number >= 0" % _shown(v))


def _finite(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def check_region_series(path, data):
    """The series of a region file (papi_run --interval, PAPI_INTERVAL): MalformedInput
    naming the file and the field for a negative count of a delta event or a time running
    backwards (the rules that compare values; region.schema.json has the rest)."""
    c = _Checker(path)
    series = data.get("series")
    if not isinstance(series, dict):
        return
    defs = data.get("event_definitions")
    defs = defs if isinstance(defs, dict) else {}
    deltas = [e for e, d in defs.items() if not (isinstance(d, dict) and d.get("type") == "instant")]
    _check_samples(c, series.get("samples"), "series.samples", deltas)
    threads = series.get("threads")
    for tid, smp in (threads.items() if isinstance(threads, dict) else ()):
        _check_samples(c, smp, "series.threads['%s']" % tid, deltas)
    _check_samples(c, series.get("process_metrics"), "series.process_metrics", [])
    totals = series.get("totals")
    for ev in (deltas if isinstance(totals, dict) else ()):
        if _finite(totals.get(ev)) and totals[ev] < 0:
            c.bad("series.totals['%s']" % ev, "is %s, not a number >= 0" % _shown(totals[ev]))
    spans = series.get("region_spans")
    for tid, items in (spans.items() if isinstance(spans, dict) else ()):
        for j, x in enumerate(items if isinstance(items, list) else []):
            if not isinstance(x, dict):
                continue
            b, e = x.get("begin_nsec"), x.get("end_nsec")
            if _finite(b) and _finite(e) and e < b:
                c.bad("series.region_spans['%s'][%d].end_nsec" % (tid, j), "is %.17g ns, before "
                      "its begin_nsec %.17g ns: time runs backwards" % (e, b))


def check_region_metrics(path, data):
    """A metric the file defines (metrics.definitions) is a number or null wherever it is
    given: the schema cannot tie a member's name to another member's keys."""
    c = _Checker(path)
    m = data.get("metrics")
    if not isinstance(m, dict) or not isinstance(m.get("definitions"), dict):
        return
    names = list(m["definitions"])
    holders = []
    if isinstance(m.get("process"), dict):
        holders.append((m["process"], "metrics.process"))
    threads = m.get("threads")
    for tid, t in (threads.items() if isinstance(threads, dict) else ()):
        tw = "metrics.threads['%s']" % tid
        for part_of, hw in ((t, tw), ((t or {}).get("all_threads"), tw + ".all_threads")):
            for part in ("instances", "regions"):
                got = part_of.get(part) if isinstance(part_of, dict) else None
                for key, v in (got.items() if isinstance(got, dict) else ()):
                    holders.append((v, "%s.%s['%s']" % (hw, part, key)))
    for v, where in holders:
        for metric in names:
            if isinstance(v, dict) and metric in v and v[metric] is not None and not _finite(v[metric]):
                c.bad("%s['%s']" % (where, metric), "is neither a number nor null")


def forget(doc):
    """doc is no longer to be checked (refused, or checked): _load_json's note of it goes."""
    _clean.pop(id(doc), None)


def finite(c, doc, at="$"):
    """The first number that is not finite (Infinity, NaN: no JSON value, but Python's json
    writes and reads them), named by its JSON path (doc's own: at); iterative, any depth."""
    if _clean.pop(id(doc), None) is doc:
        return  # read without NaN or Infinity
    try:
        json.dumps(doc, allow_nan=False)  # C speed; the walk below only finds where
        return
    except ValueError:
        pass
    stack = [(doc, at)]
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
