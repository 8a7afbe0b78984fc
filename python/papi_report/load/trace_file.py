"""papi_report.load.trace_file: one Chrome trace-event JSON trace read and checked against
trace_json.schema.json on load (the timeline figure and --merge-trace both read traces
through it): a file that breaks the schema is refused in one line naming the file, the
JSON path and the rule, as the MPI report and region files are (load.py). Without the
schema files the shape the readers need is checked here. The load layer: no pandas."""
import json

from . import schema_check
from .input_file import InputRefused, read_text


class TraceError(Exception):
    """A trace that cannot be read, is not JSON or breaks its schema (the message, one
    line, says which and where)."""


def _no_constant(name):
    raise ValueError("%s is not JSON (RFC 8259 has no NaN or Infinity)" % name)


def load(path):
    """The trace document at path, checked; TraceError when it cannot be used."""
    try:
        doc = json.loads(read_text(path), parse_constant=_no_constant)
    except OSError as e:
        raise TraceError("%s: cannot read: %s" % (path, e.strerror))
    except InputRefused as e:
        raise TraceError(str(e))
    except (ValueError, UnicodeDecodeError, RecursionError) as e:
        raise TraceError("%s: not JSON: %s" % (path, e))
    try:
        why = schema_check.check_document(path, doc, "trace_json")
    except schema_check.SchemaUnavailable:
        why = None
    if why:
        raise TraceError(why)
    other = doc.get("otherData") if isinstance(doc, dict) else None
    if not isinstance(other, dict) or other.get("format") != "papi-compat trace" or \
            not isinstance(doc.get("traceEvents"), list) or not isinstance(other.get("base_ns"), int):
        raise TraceError("%s: not a papi-compat JSON trace (otherData.format)" % path)
    return doc
