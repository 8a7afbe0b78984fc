"""The report files checked against their JSON Schemas (<prefix>/share/papi/schema, the
project's schema/ folder in a checkout): which schema a file follows, and one line per
file that does not (the file, the JSON path and the rule broken). Needs jsonschema
(Debian: python3-jsonschema, 4.10 or later: draft 2020-12); nothing else of papi_report,
so `papi_report --check` works without pandas."""
import json
import os
import re
import sys

from . import csv_check, schema_fast
from .input_file import BrokenLine, InputRefused, json_lines, read_text

HERE = os.path.dirname(os.path.abspath(__file__))
# Three folders up, then schema/: in the source tree python/papi_report/load -> schema/,
# installed share/papi/python/papi_report/load -> share/papi/schema.
SCHEMA_DIRS = [os.path.join(HERE, "..", "..", "..", "schema")]



#: The recursion limit while a file is read: two levels of Python's json reader per level
#: of a region tree (a list and an object), well within the C stack.
DEEPEST = 20000


class SchemaUnavailable(Exception):
    """jsonschema or the schema files are missing (the message says which)."""


def schema_dir():
    for d in SCHEMA_DIRS:
        if os.path.isfile(os.path.join(d, "region.schema.json")):
            return os.path.abspath(d)
    raise SchemaUnavailable("no schema directory (looked in %s)" % ", ".join(
        os.path.abspath(d) for d in SCHEMA_DIRS))


def kind_of(path, doc):
    """The schema a document follows: by its own tool member, else by its file name."""
    name = os.path.basename(path)
    if isinstance(doc, list) and name.startswith("regions_hatchet"):
        return "regions_hatchet"  # papi_report's region tree for Hatchet: a list of nodes
    if isinstance(doc, dict):
        tool = doc.get("tool")
        if tool == "papi_mpi" and "ranks" in doc:
            return "mpi_report"
        if tool == "papi_mpi" and doc.get("kind") == "event_log":  # a line of *.events.jsonl
            return "mpi_event_log"
        if re.fullmatch(r"papi_mpi_rank\d+\.(partial|checkpoint|checkpoint\.prev)\.json", name):
            return "mpi_row"
        if tool == "papi_validate":
            return "validate"
        if tool == "papi_ompt":  # the OMPT tool's ompt_PID.json (src-c/ompt)
            return "ompt"
        if doc.get("kind") == "profile":  # papi_run --sample's profile_RUNID_PID.json
            return "profile"
        if doc.get("kind") == "profile_job":  # papi_run --sample's job_profile_RUNID.json
            return "profile_job"
        if doc.get("kind") == "gpu_activity":  # papi_run --gpu's gpu_activity_RUNID_PID.json
            return "gpu_activity"
        if "traceEvents" in doc:
            return "trace_json"
        if doc.get("format") == "papi-compat trace index":  # papi_mpi_trace.index.json
            return "trace_index"
        if "threads" in doc or "event_definitions" in doc or name.startswith("rank_"):
            return "region"
        for kind, keys in TOOL_SIGNATURES:
            if all(k in doc for k in keys):
                return kind
    return None


#: The utilities' --json documents carry no tool member: each is told by the members only
#: it has (first match wins; papi_avail -e and papi_native_avail -e share "event").
TOOL_SIGNATURES = (
    ("papi_run_stat_line", ("counter-value",)),
    ("papi_error_codes", ("error_codes",)), ("papi_clockres", ("timers",)),
    ("papi_decode", ("presets", "shown")), ("papi_avail", ("presets",)),
    ("papi_component_avail", ("active_components",)), ("papi_native_avail", ("total_events",)),
    ("papi_native_avail", ("event", "can_add")), ("papi_avail", ("event",)),
    ("papi_avail", ("event_name", "error")), ("papi_xml_event_info", ("components",)),
    ("papi_multiplex_cost", ("software_events_only",)), ("papi_cost", ("measurements",)),
    ("papi_event_chooser", ("compatible",)), ("papi_hardware_avail", ("devices",)),
    ("papi_mem_info", ("levels",)), ("papi_metric_avail", ("groups",)),
    ("papi_version", ("version",)), ("papi_command_line", ("events", "papi_version")),
    ("papi_report", ("written", "failed")), ("papi_mpi_collect", ("finished", "partial", "missing")),
)


def schemas():
    """{kind: schema} of every schema file."""
    if not _schemas:
        d = schema_dir()
        for n in sorted(os.listdir(d)):
            if n.endswith(".schema.json"):
                with open(os.path.join(d, n), encoding="utf-8") as f:
                    _schemas[n[:-len(".schema.json")]] = json.load(f)
    return _schemas


_schemas = {}
_fast = {}


def fast_checks():
    """{kind: check(doc) -> bool}: the schemas compiled (schema_fast.py)."""
    if not _fast:
        _fast.update(schema_fast.compile_all(schemas()))
    return _fast


def _validators():
    try:
        import jsonschema
    except ImportError:
        raise SchemaUnavailable("python3-jsonschema is not installed (Debian: apt-get install "
                                "python3-jsonschema)")
    schemas_ = schemas()
    cls = jsonschema.Draft202012Validator
    try:  # jsonschema >= 4.18: a registry of the schemas by $id
        from referencing import Registry, Resource
        reg = Registry().with_resources((s["$id"], Resource.from_contents(s)) for s in schemas_.values())
        return {k: cls(s, registry=reg) for k, s in schemas_.items()}
    except ImportError:  # Debian 12's 4.10: a resolver with a store
        store = {s["$id"]: s for s in schemas_.values()}
        return {k: cls(s, resolver=jsonschema.RefResolver.from_schema(s, store=store))
                for k, s in schemas_.items()}


_cache = {}


def validators():
    if not _cache:
        _cache.update(_validators())
    return _cache


def json_path(error):
    p = "$"
    for part in error.absolute_path:
        p += "[%d]" % part if isinstance(part, int) else (
            ".%s" % part if re.fullmatch(r"[A-Za-z_]\w*", str(part)) else "[%s]" % json.dumps(part))
    return p


def _reject_constant(name):
    raise ValueError("%s is not JSON (RFC 8259 has no NaN or Infinity)" % name)


def check_document(path, doc, kind=None):
    """None when doc follows its schema, else one line: file, JSON path, rule."""
    kind = kind or kind_of(path, doc)
    if kind is None:
        return "%s: not a report file papi-compat writes (no tool member, not rank_*.json)" % path
    if kind not in schemas():
        raise SchemaUnavailable("no schema %s.schema.json in %s" % (kind, schema_dir()))
    if kind == "regions_hatchet" and isinstance(doc, list):
        return _check_tree(path, doc, kind)
    fast = fast_checks().get(kind)
    if fast is not None and fast(doc):
        return None  # valid: jsonschema would say nothing, at a fraction of the cost
    try:
        v = validators()[kind]
    except SchemaUnavailable as e:  # refused all the same; only the words need jsonschema
        return "%s: breaks %s.schema.json (%s: it would name the JSON path and the rule)" % (
            path, kind, e)
    # unevaluatedProperties also names every member whose own subschema failed: the
    # failure itself is what to say.
    errors = sorted(v.iter_errors(doc), key=lambda e: (e.validator == "unevaluatedProperties",
                                                       len(list(e.absolute_path)),
                                                       list(map(str, e.absolute_path))))
    if not errors:
        return None
    e = errors[0]
    # The deepest reason of a oneOf/anyOf is what a reader can act on.
    while e.context:
        e = sorted(e.context, key=lambda c: -len(list(c.absolute_path)))[0]
    more = " (and %d more)" % (len(errors) - 1) if len(errors) > 1 else ""
    return "%s: %s: %s (rule %s of %s.schema.json)%s" % (
        path, json_path(e), e.message[:300], e.validator, kind, more)


_parts = {}


def part_check(kind, *keys):
    """check(value) -> bool of the part of schema kind at keys (an array's items: a large
    array checked an item at a time as it is read), compiled once (schema_fast.py); None
    without the schema files or where the compiler lacks a keyword."""
    at = (kind,) + keys
    if at not in _parts:
        try:
            whole = schemas()
            node = whole[kind]
            for k in keys:
                node = node[k]
            _parts[at] = schema_fast.compile_in(whole, kind, node)
        except (SchemaUnavailable, KeyError, schema_fast.Unsupported):
            _parts[at] = None
    return _parts[at]


def check_streamed(path, doc, kind, key, bad):
    """check_document of doc whose array at key was checked an item at a time as it was
    read (part_check) and is held here as []; bad: (index, item) of the first item that
    broke its schema, or None. That item is checked in its place and named by its index
    in the file."""
    if bad is not None:
        doc = dict(doc, **{key: [bad[1]]})
    why = check_document(path, doc, kind)
    if why and bad is not None:
        why = why.replace("$.%s[0]" % key, "$.%s[%d]" % (key, bad[0]), 1)
    return why


def _check_tree(path, doc, kind):
    """regions_hatchet.json node by node, without recursion: a region tree may be thousands
    of levels deep (any depth is written whole), deeper than a recursive validator goes.
    Each node is checked against $defs/node with its children's list taken as a list only;
    the children are then checked in turn. None, or one line as check_document's."""
    node = dict(schemas()[kind]["$defs"]["node"])
    node["properties"] = dict(node["properties"], children={"type": "array"})
    fast = schema_fast.compile_schema(node)
    stack = [(n, "$[%d]" % i) for i, n in reversed(list(enumerate(doc)))]
    while stack:
        n, where = stack.pop()
        if not fast(n):
            try:
                import jsonschema
            except ImportError:
                return "%s: %s: breaks %s.schema.json (python3-jsonschema would name the rule)" % (
                    path, where, kind)
            e = sorted(jsonschema.Draft202012Validator(node).iter_errors(n),
                       key=lambda x: list(map(str, x.absolute_path)))[0]
            return "%s: %s%s: %s (rule %s of %s.schema.json)" % (
                path, where, json_path(e)[1:], e.message[:300], e.validator, kind)
        kids = n["children"]
        stack.extend((c, "%s.children[%d]" % (where, i)) for i, c in reversed(list(enumerate(kids))))
    return None


def check_file(path):
    """None when the file follows its schema, else one line saying where and why not."""
    if path.endswith(".csv"):
        return csv_check.check_csv(path, schemas())
    if path.endswith(".jsonl"):
        return check_lines(path)
    limit = sys.getrecursionlimit()
    try:
        # json's reader recurses per level: a region tree papi_report wrote thousands of
        # levels deep (regions_hatchet.json) is still read
        sys.setrecursionlimit(max(limit, DEEPEST))
        doc = json.loads(read_text(path), parse_constant=_reject_constant)
    except OSError as e:
        return "%s: cannot read: %s" % (path, e.strerror)
    except InputRefused as e:
        return str(e)
    except RecursionError:
        return "%s: nested deeper than this checker reads (%d levels)" % (path, DEEPEST // 2)
    except (ValueError, UnicodeDecodeError) as e:
        lines = _check_lines(path)
        return "%s: not JSON: %s" % (path, e) if lines is None else (lines or None)
    finally:
        sys.setrecursionlimit(limit)
    return check_document(path, doc)


def _check_lines(path):
    """JSON Lines (papi_run --json's stdout, one object a line): None when not such a file
    (the caller says "not JSON"), "" when every line follows its schema, else the first
    line's fault."""
    try:
        lines = [(i, json.loads(ln, parse_constant=_reject_constant))
                 for i, ln in enumerate(read_text(path).split("\n"), 1) if ln.strip()]
    except (OSError, ValueError, InputRefused):
        return None
    if len(lines) < 2 or not all(isinstance(d, dict) for _i, d in lines):
        return None
    for i, d in lines:
        why = check_document("%s line %d" % (path, i), d)
        if why:
            return why
    return ""


def check_lines(path):
    """A JSON-lines file (the event logs): each line against its schema; a torn last line
    (its writer killed while it appended) is named too: the file is not whole."""
    try:
        lines, torn = json_lines(path, _reject_constant)
    except OSError as e:
        return "%s: cannot read: %s" % (path, e.strerror)
    except InputRefused as e:
        return str(e)
    except BrokenLine as e:
        return "%s: %s" % (path, e)
    except UnicodeDecodeError as e:
        return "%s: not UTF-8: %s" % (path, e)
    if not lines and not torn:  # the wrapper writes a whole line as it creates the file
        return "%s: empty: an event log holds one line at least" % path
    for n, doc in lines:
        why = check_document("%s: line %d" % (path, n), doc)
        if why:
            return why
    return "%s: line %d: %s" % (path, torn[0], torn[1]) if torn else None


def report_files(path):
    """The report files under a path: the file itself, or a run directory's."""
    if not os.path.isdir(path):
        return [path]
    found = []
    for base, dirs, names in os.walk(path):
        dirs.sort()
        for n in sorted(names):
            if n.endswith(".events.jsonl") and n.startswith("papi_mpi_rank"):
                found.append(os.path.join(base, n))
            elif n.endswith(".json") and (n.startswith("rank_") or n.startswith("papi_mpi_")
                                        or n.startswith("profile_") or n.startswith("job_profile_")
                                        or n.startswith("trace_rank_") or n.startswith("gpu_activity_")
                                        or re.fullmatch(r"ompt_\d+\.json", n)
                                        or n == "papi_validate.json" or n == "regions_hatchet.json"):
                found.append(os.path.join(base, n))
            elif csv_check.table_of(n, schemas()):  # the MPI wrapper's and papi_report's CSVs
                found.append(os.path.join(base, n))
    return found
