"""papi_report.load.trace_file: one Chrome trace-event JSON trace read and checked against
trace_json.schema.json on load (the timeline figure and --merge-trace both read traces
through it): a file that breaks the schema is refused in one line naming the file, the
JSON path and the rule, as the MPI report and region files are (load.py). Without the
schema files the shape the readers need is checked here. scan() and events() read a trace
one event at a time (--merge-trace: memory independent of its length). The load layer: no
pandas."""
import contextlib
import json

from . import json_stream, schema_check
from .input_file import InputRefused, open_text, read_text


class TraceError(Exception):
    """A trace that cannot be read, is not JSON or breaks its schema (the message, one
    line, says which and where)."""


#: The trace layouts this reader knows (otherData.version; trace_json.c writes 1).
VERSIONS = (1,)


def _no_constant(name):
    raise ValueError("%s is not JSON (RFC 8259 has no NaN or Infinity)" % name)


def read_json(path, error):
    """The JSON document at path, read whole and bounded (no NaN or Infinity); error(why)
    raised when it cannot be read or is not JSON: the trace's and its index's one reader."""
    try:
        return json.loads(read_text(path), parse_constant=_no_constant)
    except OSError as e:
        raise error("%s: cannot read: %s" % (path, e.strerror))
    except InputRefused as e:
        raise error(str(e))
    except (ValueError, UnicodeDecodeError, RecursionError) as e:
        raise error("%s: not JSON: %s" % (path, e))


def load(path):
    """The trace document at path, checked; TraceError when it cannot be used."""
    doc = read_json(path, TraceError)
    _accept(path, doc)
    return doc


def _accept(path, doc, bad=None):
    """The otherData of trace document doc, checked against the schema (its traceEvents
    read one by one when bad is given: schema_check.check_streamed) and for what the
    readers need; TraceError when it cannot be used."""
    try:
        why = schema_check.check_streamed(path, doc, "trace_json", "traceEvents", bad)
    except schema_check.SchemaUnavailable:
        why = None
    if why:
        raise TraceError(why)
    other = doc.get("otherData") if isinstance(doc, dict) else None
    if not isinstance(other, dict) or other.get("format") != "papi-compat trace" or \
            not isinstance(doc.get("traceEvents"), list) or not isinstance(other.get("base_ns"), int):
        raise TraceError("%s: not a papi-compat JSON trace (otherData.format)" % path)
    if other.get("version") not in VERSIONS:  # another layout: its events would be misread
        raise TraceError("%s: $.otherData.version is %s: this papi_report reads the trace "
                         "layout of version %s only" % (path, json.dumps(other.get("version")),
                                                        ", ".join(map(str, VERSIONS))))
    return other


@contextlib.contextmanager
def _stream_errors(path):
    """What reading the trace at path a piece at a time raises, as TraceError."""
    try:
        yield
    except OSError as e:
        raise TraceError("%s: cannot read: %s" % (path, e.strerror))
    except InputRefused as e:
        raise TraceError(str(e))
    except json_stream.NotAnObject:
        load(path)  # what is wrong, said as load says it
        raise TraceError("%s: not a papi-compat JSON trace (not an object)" % path)
    except (ValueError, UnicodeDecodeError) as e:
        raise TraceError("%s: not JSON: %s" % (path, e))


def _items(path, items):
    """A streamed array's items, read as they are asked for: their errors TraceError too."""
    with _stream_errors(path):
        yield from items


def _members(path):
    """json_stream.members of the trace at path, a streamed array's items included, its
    errors as TraceError."""
    with _stream_errors(path):
        with open_text(path) as f:
            for k, v in json_stream.members(f, ("traceEvents",), _no_constant):
                yield k, (_items(path, v) if hasattr(v, "__next__") else v)


def scan(path):
    """(otherData, number of events) of the trace at path, read one event at a time and
    checked as load() checks the whole document; TraceError when it cannot be used."""
    ok, first_bad, n, top = schema_check.part_check("trace_json", "$defs", "event"), None, 0, {}
    for k, v in _members(path):
        if k in top:
            raise TraceError("%s: $.%s: the member is given twice" % (path, k))
        if k == "traceEvents" and hasattr(v, "__next__"):  # an array, streamed
            for n, e in enumerate(v, 1):
                if first_bad is None and ok is not None and not ok(e):
                    first_bad = (n - 1, e)
            v = []
        top[k] = v
    return _accept(path, top, first_bad), n


def events(path):
    """The events of a trace scan() accepted, one at a time."""
    for k, v in _members(path):
        if k == "traceEvents" and hasattr(v, "__next__"):
            yield from v
