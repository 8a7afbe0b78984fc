"""papi_report.load.profile_metrics: the -m metrics of papi_run --sample evaluated on any sum of
a profile's counts (a function's self counts, a stack's): the profile's "metrics" give each
metric's formula (papi_metrics(3): numbers, + - * / and brackets over event names, bare or
in braces) and the place of each event among "events". The grammar is the library's
(metric_formula.c: tests/metrics/metric_formula_cases.txt holds the cases both pass); a
denominator of 0 gives None, as papi_run's banner prints "-"."""
import math
import re

# Numbers as the library's strtod reads them: decimal, or hexadecimal (0x10, 0x1p4).
_TOKEN = re.compile(r"\s*(?:(0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)(?:[pP][-+]?\d+)?"
                    r"|\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?)|\{([^{}]*)\}"
                    r"|([A-Za-z_][A-Za-z0-9_]*)|(.))")
#: The library's bounds (metric_formula.h): event names, their length, operations.
MAX_TERMS, NAME_LEN, MAX_OPS = 16, 256, 128


def _number(text, num):
    v = float.fromhex(num) if num[:2] in ("0x", "0X") else float(num)
    if not math.isfinite(v):
        raise ValueError("bad number %s in %r" % (num, text))
    return v


def _tokens(text):
    out = []
    for m in _TOKEN.finditer(text):
        num, braced, bare, op = m.groups()
        if num is not None:
            out.append(("num", _number(text, num)))
        elif braced is not None:
            out.append(("name", braced))
        elif bare is not None:
            out.append(("time", None) if bare == "time" else ("name", bare))
        elif op is not None and not op.isspace():
            out.append(("op", op))
    return out


def compile_formula(text):
    """(postfix program, names in first-use order); ValueError on a formula it cannot read."""
    toks, pos, prog, names = _tokens(text), [0], [], []

    def peek():
        return toks[pos[0]] if pos[0] < len(toks) else ("end", None)

    def take():
        t = peek()
        pos[0] += 1
        return t

    def factor():
        kind, v = take()
        if kind == "op" and v == "(":
            expr()
            if take() != ("op", ")"):
                raise ValueError("')' expected in %r" % text)
        elif kind == "op" and v == "-":
            factor()
            prog.append(("neg",))
        elif kind == "num":
            prog.append(("num", v))
        elif kind == "name":
            if not v or len(v) >= NAME_LEN:
                raise ValueError("%s event name in %r" % ("an empty" if not v else "a too long", text))
            if v not in names:
                names.append(v)
            prog.append(("term", names.index(v)))
        elif kind == "time":
            prog.append(("time",))
        else:
            raise ValueError("a number, an event name or '(' expected in %r" % text)

    def binary(sub, ops):
        sub()
        while peek()[0] == "op" and peek()[1] in ops:
            op = take()[1]
            sub()
            prog.append((op,))

    def product():
        binary(factor, "*/")

    def expr():
        binary(product, "+-")

    expr()
    if pos[0] != len(toks):
        raise ValueError("operator expected in %r" % text)
    if not names and ("time",) not in prog:
        raise ValueError("no event and no time in %r" % text)
    if len(names) > MAX_TERMS or len(prog) > MAX_OPS:
        raise ValueError("more than %d event names or %d operations in %r" % (MAX_TERMS, MAX_OPS, text))
    return prog, names


def places(metric):
    """Per formula name (first-use order) its index in events, or None where not given."""
    _, names = compile_formula(metric["formula"])
    terms = metric["terms"]
    listed = list(terms.values())
    return [terms.get(n, listed[i] if i < len(listed) else None) for i, n in enumerate(names)]


def evaluate(metric, counts):
    """The metric of counts (one sum per event of the profile's events); None when a
    denominator is 0, the result is not finite, an event's count is missing or the
    formula cannot be read."""
    try:
        prog, _ = compile_formula(metric["formula"])
        where = places(metric)
    except (ValueError, KeyError, TypeError, AttributeError):
        return None  # a formula this reader cannot read: no value, as for 0 / 0
    stack = []
    for op in prog:
        if op[0] == "num":
            stack.append(op[1])
        elif op[0] == "term":
            i = where[op[1]]
            if i is None or i >= len(counts):
                return None
            stack.append(float(counts[i]))
        elif op[0] == "time":
            return None  # papi_run never lists one (a function has no elapsed time)
        elif op[0] == "neg":
            stack.append(-stack.pop())
        else:
            b, a = stack.pop(), stack.pop()
            if op[0] == "/" and b == 0:
                return None
            stack.append(a + b if op[0] == "+" else a - b if op[0] == "-" else a * b if op[0] == "*"
                         else a / b)
    v = stack[0] if len(stack) == 1 else None
    return v if v is not None and math.isfinite(v) else None


def metrics_of(docs):
    """The metrics of the run's first document that lists them ([] without)."""
    for d in docs:
        if d.get("metrics"):
            return d["metrics"]
    return []
