"""papi_report.load.schema_fast: the schemas compiled to plain Python checks, for papi_report's
inputs. python3-jsonschema walks a 100k-rank MPI report in minutes (its generic
validator costs ~1.6 ms a row); these closures do the same rules in a few percent of
papi_report's time. They answer only "valid or not": on the first failure schema_check
asks jsonschema for the whole message (the JSON path and the rule), so a fault is said in
the same words either way. A keyword they do not know makes compile() return None, and
the caller validates with jsonschema alone.

Keywords: type, enum, const, minimum, maximum, exclusiveMinimum, exclusiveMaximum,
minLength, maxLength, pattern, required, properties, additionalProperties,
patternProperties, propertyNames, minProperties, maxProperties, prefixItems, items,
minItems, maxItems, oneOf, anyOf, allOf, $ref
(within a schema and to another by file name), and the annotations (description ...)."""
import re

INF = float("inf")

ANNOTATIONS = {"description", "title", "$schema", "$id", "$comment", "$defs", "default",
               "examples", "deprecated", "readOnly", "writeOnly",
               "x-columns", "x-unit"}  # csv_tables.schema.json's column order and units


def _ALWAYS(v):
    """The check of a schema that allows anything (left out of the object and array loops)."""
    return True


class Unsupported(Exception):
    """A keyword this compiler does not implement."""


def _is_int(v):
    return (isinstance(v, int) and not isinstance(v, bool)) or (isinstance(v, float) and v.is_integer())


_TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "integer": _is_int,
}


class _Compiler:
    def __init__(self, schemas):
        self.by_name = schemas  # file name -> schema
        self.done = {}  # id(node) -> check (filled before compiling: refs may recurse)

    def ref(self, base, ref):
        name, _, frag = ref.partition("#")
        doc = self.by_name[name] if name else base
        node = doc
        for part in [p for p in frag.split("/") if p]:
            node = node[part.replace("~1", "/").replace("~0", "~")]
        return doc, node

    def compile(self, base, node):
        key = id(node)
        if key in self.done:
            return self.done[key]
        cell = []
        self.done[key] = lambda v: cell[0](v)  # a recursive $ref sees the finished check
        f = self._compile(base, node)
        cell.append(f)
        self.done[key] = f
        return f

    def _compile(self, base, s):
        if s is True:
            return _ALWAYS
        if s is False:
            return lambda v: False
        unknown = set(s) - ANNOTATIONS - {
            "type", "enum", "const", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
            "minLength", "maxLength", "pattern", "required", "properties", "additionalProperties",
            "patternProperties", "propertyNames", "minProperties", "maxProperties", "prefixItems",
            "items", "minItems", "maxItems", "oneOf", "anyOf", "allOf", "$ref"}
        if unknown:
            raise Unsupported(", ".join(sorted(unknown)))
        scalar = self._scalar(s)
        if scalar is not None:
            return scalar
        checks = []
        if "$ref" in s:
            doc, target = self.ref(base, s["$ref"])
            checks.append(self.compile(doc, target))
        objectish = any(k in s for k in ("required", "properties", "additionalProperties",
                                         "patternProperties", "propertyNames"))
        arrayish = any(k in s for k in ("prefixItems", "items", "minItems", "maxItems"))
        # "type": "object" (or "array") with its keywords: one closure that also says the
        # type (one call a value instead of two).
        strict = s.get("type") == "object" and objectish or s.get("type") == "array" and arrayish
        if "type" in s and not strict:
            types = [s["type"]] if isinstance(s["type"], str) else s["type"]
            fs = [_TYPES[t] for t in types]
            checks.append(fs[0] if len(fs) == 1 else (lambda v, fs=fs: any(f(v) for f in fs)))
        if "enum" in s:
            allowed = s["enum"]
            checks.append(lambda v: any(v == a and type(v) is type(a) or
                                        (_TYPES["number"](v) and _TYPES["number"](a) and v == a)
                                        for a in allowed))
        if "const" in s:
            c = s["const"]
            checks.append(lambda v: v == c and isinstance(v, bool) == isinstance(c, bool))
        num = _TYPES["number"]
        for k, op in (("minimum", lambda v, b: v >= b), ("maximum", lambda v, b: v <= b),
                      ("exclusiveMinimum", lambda v, b: v > b), ("exclusiveMaximum", lambda v, b: v < b)):
            if k in s:
                checks.append(lambda v, b=s[k], op=op: not num(v) or op(v, b))
        if "minLength" in s:
            checks.append(lambda v, n=s["minLength"]: not isinstance(v, str) or len(v) >= n)
        if "maxLength" in s:
            checks.append(lambda v, n=s["maxLength"]: not isinstance(v, str) or len(v) <= n)
        if "pattern" in s:
            rx = re.compile(s["pattern"])
            checks.append(lambda v: not isinstance(v, str) or rx.search(v) is not None)
        if "minProperties" in s or "maxProperties" in s:
            lo, hi = s.get("minProperties", 0), s.get("maxProperties", INF)
            checks.append(lambda v: not isinstance(v, dict) or lo <= len(v) <= hi)
        if objectish:
            checks.append(self._object(base, s, strict))
        if arrayish:
            checks.append(self._array(base, s, strict))
        for k in ("oneOf", "anyOf", "allOf"):
            if k in s:
                subs = [self.compile(base, x) for x in s[k]]
                if k == "allOf":
                    checks.append(lambda v, subs=subs: all(f(v) for f in subs))
                elif k == "anyOf":
                    checks.append(lambda v, subs=subs: any(f(v) for f in subs))
                else:
                    checks.append(lambda v, subs=subs: sum(1 for f in subs if f(v)) == 1)
        if not checks:
            return _ALWAYS
        if len(checks) == 1:
            return checks[0]
        if len(checks) == 2:
            f, g = checks
            return lambda v: f(v) and g(v)
        return lambda v: all(f(v) for f in checks)

    @staticmethod
    def _scalar(s):
        """One closure for the common leaves: a number or integer with bounds, a string,
        a boolean (one call a value instead of one per keyword)."""
        keys = set(s) - ANNOTATIONS
        t = s.get("type")
        bounds = keys & {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"}
        if t in ("integer", "number") and keys <= {"type"} | bounds:
            lo, hi = s.get("minimum", -INF), s.get("maximum", INF)
            xlo, xhi = s.get("exclusiveMinimum", -INF), s.get("exclusiveMaximum", INF)
            if t == "integer" and xlo == -INF and xhi == INF:
                return lambda v: (type(v) is int or (type(v) is float and v.is_integer())) and lo <= v <= hi
            if t == "integer":
                return lambda v: (type(v) is int or (type(v) is float and v.is_integer())) and \
                    lo <= v <= hi and xlo < v < xhi
            return lambda v: (type(v) is int or type(v) is float) and lo <= v <= hi and \
                (xlo == -INF or v > xlo) and (xhi == INF or v < xhi)
        if keys == {"type"} and t in ("string", "boolean"):
            cls = str if t == "string" else bool
            return lambda v: type(v) is cls
        return None

    def _object(self, base, s, strict):
        """The object keywords, for a dict; anything else passes unless strict (the schema's
        type is object). Rows of a report share their keys: the check of each key (its
        property's, pattern's or additionalProperties', and propertyNames) is found once per
        key tuple and kept, so a row costs one call per value and no lookups."""
        required = tuple(s.get("required", ()))
        props = {k: self.compile(base, x) for k, x in (s.get("properties") or {}).items()}
        pats = [(re.compile(p), self.compile(base, x)) for p, x in (s.get("patternProperties") or {}).items()]
        extra = s.get("additionalProperties", True)
        extra = None if extra is True else self.compile(base, extra)
        names = self.compile(base, s["propertyNames"]) if "propertyNames" in s else None
        shapes = {}  # key tuple -> [(index, check)], or None when the keys break a rule

        def plan(keys):
            if any(k not in keys for k in required) or \
                    (names is not None and not all(names(k) for k in keys)):
                return None
            steps = []
            for i, k in enumerate(keys):
                fs = [props[k]] if k in props else []
                fs += [g for rx, g in pats if rx.search(k)]
                if not fs and extra is not None:
                    fs = [extra]
                steps += [(i, f) for f in fs if f is not _ALWAYS]
            return steps

        def check(v):
            if type(v) is dict:
                keys = tuple(v)
                steps = shapes.get(keys, False)
                if steps is False:
                    steps = plan(keys)
                    if len(shapes) < 1024:  # keys that vary from object to object: not kept
                        shapes[keys] = steps
            elif isinstance(v, dict):
                steps = plan(tuple(v))
            else:
                return not strict
            if steps is None:
                return False
            if steps:
                vals = list(v.values())
                for i, f in steps:
                    if not f(vals[i]):
                        return False
            return True
        return check

    def _array(self, base, s, strict):
        item = self.compile(base, s["items"]) if "items" in s else None
        item = None if item is _ALWAYS else item
        lo, hi = s.get("minItems", 0), s.get("maxItems")
        # prefixItems: a check per leading position; items then holds for the rest
        prefix = [self.compile(base, x) for x in s.get("prefixItems", ())]
        np = len(prefix)

        def check(v):
            if type(v) is not list:
                return not strict and not isinstance(v, list)
            if len(v) < lo or (hi is not None and len(v) > hi):
                return False
            if np and not all(f(x) for f, x in zip(prefix, v)):
                return False
            return item is None or all(map(item, v[np:] if np else v))
        return check


def compile_schema(schema):
    """check(doc) -> bool of one schema with no $ref to another file (a CSV row's);
    raises Unsupported for a keyword this compiler does not implement."""
    return _Compiler({}).compile(schema, schema)


def compile_in(schemas, kind, node):
    """check(value) -> bool of node, a part of schemas[kind] ({kind: schema}), its $refs
    resolved as the whole schema's (one item of a large array checked at a time)."""
    by_name = {k + ".schema.json": s for k, s in schemas.items()}
    return _Compiler(by_name).compile(schemas[kind], node)


def compile_all(schemas):
    """{kind: check(doc) -> bool} for the schemas ({kind: schema}) this compiler handles;
    a kind using an unknown keyword is left out (the caller uses jsonschema for it)."""
    by_name = {k + ".schema.json": s for k, s in schemas.items()}
    out = {}
    for kind, s in schemas.items():
        try:
            out[kind] = _Compiler(by_name).compile(s, s)
        except (Unsupported, KeyError, re.error):
            continue
    return out
