"""A file of golden cases read as case_file.h reads it (the C side of the same cases):
    from case_file import cases
    for lineno, fields in cases(path): ...
lines starting with '#' and blank ones skipped, each case split at " | ", the first field
as written (a formula's spaces count), the others stripped."""


def cases(path):
    """(line number, fields) of each case of the file at path."""
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            fields = line.split(" | ")
            yield lineno, fields[:1] + [x.strip() for x in fields[1:]]
