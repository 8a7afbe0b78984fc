"""Writing JSON of any depth: json.dump recurses once per level and stops with a
RecursionError near a thousand levels (a region tree 500 regions deep, as dict and list
alternate), leaving a truncated file. dump_deep walks the value with an explicit stack and
writes to a temporary file renamed over the target only when it is whole."""
import json
import os
import tempfile


def _chunks(value):
    """The JSON text of value, piece by piece, without recursion."""
    stack = [("value", value)]
    while stack:
        kind, v = stack.pop()
        if kind == "text":
            yield v
        elif isinstance(v, dict):
            items = list(v.items())
            stack.append(("text", "}"))
            for i in range(len(items) - 1, -1, -1):
                k, x = items[i]
                stack.append(("value", x))
                stack.append(("text", ("" if i == 0 else ", ") + json.dumps(str(k)) + ": "))
            stack.append(("text", "{"))
        elif isinstance(v, (list, tuple)):
            stack.append(("text", "]"))
            for i in range(len(v) - 1, -1, -1):
                stack.append(("value", v[i]))
                if i:
                    stack.append(("text", ", "))
            stack.append(("text", "["))
        else:
            yield json.dumps(v, allow_nan=False)


def dump_deep(value, path):
    """Write value as JSON to path, whole or not at all."""
    d = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=d)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            for piece in _chunks(value):
                f.write(piece)
            f.write("\n")
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise
