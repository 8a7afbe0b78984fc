"""papi_report.load.csv_check: the CSV files papi-compat writes, checked against their row
schemas (schema/csv_tables.schema.json, $defs/NAME for NAME.csv): the header's columns in
the schema's order (x-columns), then each row read as the columns' types say and
validated as a JSON object. One line per broken file: the file, the line, the column and
the rule. Needs only the standard library for valid files (schema_fast); the words of a
fault come from jsonschema, as for the JSON reports."""
import csv
import io
import os

from . import schema_fast
from .input_file import InputRefused, read_text

SCHEMA = "csv_tables"
#: Non-finite numbers Python's float() reads but no writer of ours means.
_NOT_FINITE = ("inf", "-inf", "+inf", "infinity", "-infinity", "nan", "-nan")
_BOOLS = {"true": True, "false": False, "1": True, "0": False}


def table_of(path, schemas):
    """The $defs name that describes the CSV file at path, or None."""
    name = os.path.basename(path)
    if not name.endswith(".csv"):
        return None
    defs = schemas.get(SCHEMA, {}).get("$defs", {})
    return name[:-len(".csv")] if name[:-len(".csv")] in defs else None


def _types(sub):
    t = sub.get("type", []) if isinstance(sub, dict) else []
    return [t] if isinstance(t, str) else t


def _cell(text, types):
    """A cell as the column's type says: empty is null; a number that does not parse stays
    text (the schema then names the column and the type)."""
    if text == "":
        return None
    if "boolean" in types and text.lower() in _BOOLS:
        return _BOOLS[text.lower()]
    if "integer" in types or "number" in types:
        if text.strip().lower() in _NOT_FINITE:
            raise ValueError("%s is not a finite number" % text)
        try:
            return int(text)
        except ValueError:
            pass
        try:
            return float(text)
        except ValueError:
            return text
    return text


class _Table:
    """One $defs entry: its column order, the check of a row, the words of a fault."""

    def __init__(self, name, schema):
        self.name, self.schema = name, schema
        self.columns = schema.get("x-columns", [])
        self.more = schema.get("additionalProperties", True)
        try:
            self.fast = schema_fast.compile_schema(schema)
        except schema_fast.Unsupported:
            self.fast = None

    def types(self, column):
        sub = self.schema.get("properties", {}).get(column, self.more)
        return _types(sub)

    def rule_of(self, row):
        """(column, message, rule) of the first fault of a row jsonschema finds."""
        import jsonschema
        errors = sorted(jsonschema.Draft202012Validator(self.schema).iter_errors(row),
                        key=lambda e: list(map(str, e.absolute_path)))
        if not errors:
            return None
        e = errors[0]
        col = e.absolute_path[0] if e.absolute_path else None
        if col is None and e.validator == "required":
            col = next((c for c in self.columns if c not in row), None)
        return col, e.message[:300], e.validator


def shown(text):
    """A name from the file as a message shows it: as it is when printable ASCII, else
    quoted with every other character escaped ('\\u200bwall_s'), so none is invisible."""
    return text if text.isascii() and text.isprintable() else ascii(text)


def _where(path, line, header, column):
    if column in header:
        return "%s: line %d, column %d (%s)" % (path, line, header.index(column) + 1, shown(column))
    return "%s: line %d" % (path, line)


def check_csv(path, schemas):
    """None when the CSV file follows its row schema, else one line: file, line, column,
    rule."""
    name = table_of(path, schemas)
    if name is None:
        return "%s: no schema describes this CSV file (csv_tables.schema.json's $defs)" % path
    t = _Table(name, schemas[SCHEMA]["$defs"][name])
    rule = "of %s.schema.json#/$defs/%s" % (SCHEMA, name)
    try:
        # read_text drops a UTF-8 byte order mark (a table saved by a spreadsheet)
        with io.StringIO(read_text(path), newline="") as f:
            reader = csv.reader(f)
            header = next(reader, None)
            if header is None:
                return "%s: line 1: empty, want the header %s" % (path, ",".join(t.columns))
            why = _check_header(path, t, header, rule)
            if why:
                return why
            types = [t.types(c) for c in header]
            for cells in reader:
                line = reader.line_num
                if len(cells) != len(header):
                    return "%s: line %d: %d cells, the header has %d columns" % (
                        path, line, len(cells), len(header))
                row = {}
                for c, text, ty in zip(header, cells, types):
                    try:
                        row[c] = _cell(text, ty)
                    except ValueError as e:
                        return "%s: %s (rule type %s)" % (_where(path, line, header, c), e, rule)
                if t.fast is not None and t.fast(row):
                    continue
                fault = t.rule_of(row)
                if fault:
                    col, msg, kw = fault
                    return "%s: %s (rule %s %s)" % (_where(path, line, header, col), msg, kw, rule)
    except OSError as e:
        return "%s: cannot read: %s" % (path, e.strerror)
    except InputRefused as e:
        return str(e)
    except (UnicodeDecodeError, csv.Error) as e:
        return "%s: not CSV: %s" % (path, e)
    return None


def _check_header(path, t, header, rule):
    if len(set(header)) != len(header):
        dup = next(c for c in header if header.count(c) > 1)
        return "%s: line 1, column %d (%s): named twice (rule x-columns %s)" % (
            path, header.index(dup, header.index(dup) + 1) + 1, shown(dup), rule)
    for i, want in enumerate(t.columns):
        got = header[i] if i < len(header) else None
        if got != want:
            return "%s: line 1, column %d: %s, want %s (rule x-columns %s)" % (
                path, i + 1, "missing" if got is None else ascii(got), ascii(want), rule)
    if t.more is False and len(header) > len(t.columns):
        return "%s: line 1, column %d (%s): not a column of this file (rule additionalProperties %s)" % (
            path, len(t.columns) + 1, shown(header[len(t.columns)]), rule)
    return None
