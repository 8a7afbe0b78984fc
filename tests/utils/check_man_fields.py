#!/usr/bin/env python3
"""check_man_fields.py DOC_DIR SCHEMA_DIR MAN_DIR: every section of a manual page that its
source generates from a schema ("== HEAD" then "schema: FILE", doc/pages/*.txt and
doc/utilities/*.txt) lists exactly that schema's fields in the generated page (MAN_DIR,
the build's doc/man): each property name the schema describes, its $refs followed into
other files too, appears as a field, and no field names something the schema does not
have. csv_tables.schema.json's section lists each CSV file's columns (FILE.csv: column).
The schema is walked here on its own, not with gen_man.py's walker, so a field the
generator skips or makes up fails. Exit 0 pass, 1 fail."""
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from checks import check, verdict  # noqa: E402 (tests/common/checks.py)


def schema_sections(path):
    """[(page name, section, heading, schema file)] of a page source."""
    text = open(path, encoding="utf-8").read()
    meta = dict(l.split(":", 1) for l in text.split("\n== ")[0].splitlines() if ":" in l and not l.startswith("#"))
    out = []
    for block in text.split("\n== ")[1:]:
        head, _, body = block.partition("\n")
        m = re.fullmatch(r"\s*schema:\s*(\S+\.schema\.json)\s*", body)
        if m:
            out.append((meta["NAME"].strip(), meta["SECTION"].strip(), head.strip(), m.group(1)))
    return out


def property_names(schema_dir, name):
    """Every property name reachable from the schema file, $refs followed across files."""
    docs, names, seen = {}, set(), set()

    def load(n):
        if n not in docs:
            with open(os.path.join(schema_dir, n), encoding="utf-8") as f:
                docs[n] = json.load(f)
        return docs[n]

    def walk(node, doc_name):
        if isinstance(node, list):
            for v in node:
                walk(v, doc_name)
            return
        if not isinstance(node, dict):
            return
        if id(node) in seen:
            return
        seen.add(id(node))
        ref = node.get("$ref")
        if isinstance(ref, str):
            target_name, _, frag = ref.partition("#")
            target_name = target_name or doc_name
            target = load(target_name)
            for part in [p for p in frag.split("/") if p]:
                target = target[part]
            walk(target, target_name)
        names.update((node.get("properties") or {}).keys())
        for k, v in node.items():
            if k not in ("$defs", "properties") and isinstance(v, (dict, list)):
                walk(v, doc_name)
        for v in (node.get("properties") or {}).values():
            walk(v, doc_name)

    walk(load(name), name)
    return names


def csv_columns(schema_dir, name):
    with open(os.path.join(schema_dir, name), encoding="utf-8") as f:
        defs = json.load(f)["$defs"]
    return {"%s.csv: %s" % (t, c) for t, d in defs.items() for c in d["properties"]}


def page_fields(page, heading):
    """The field names (.TP terms) of one section of a generated roff page."""
    lines = open(page, encoding="utf-8").read().split("\n")
    terms, inside = [], False
    for i, line in enumerate(lines):
        if line.startswith(".SH"):
            inside = line[3:].strip().strip('"') == heading
        elif inside and line == ".TP" and i + 1 < len(lines):
            terms.append(lines[i + 1].replace("\\-", "-").replace("\\e", "\\").replace("\\&", ""))
    return terms


def leaf(term):
    """threads.<name>.regions.<name>.name -> name; a map's entries (<name>) are no field."""
    parts = [p.replace("[]", "") for p in term.split(".")]
    parts = [p for p in parts if p and p != "<name>"]
    return parts[-1] if parts else None


def main():
    doc_dir, schema_dir, man_dir = sys.argv[1:4]
    sources = [os.path.join(doc_dir, d, f) for d in ("pages", "utilities")
               for f in sorted(os.listdir(os.path.join(doc_dir, d))) if f.endswith(".txt")]
    found = 0
    for src in sources:
        for name, section, heading, schema in schema_sections(src):
            found += 1
            page = os.path.join(man_dir, "man" + section, "%s.%s" % (name, section))
            if not os.path.isfile(page):
                check(False, "%s: no generated page %s" % (src, page))
                continue
            terms = page_fields(page, heading)
            if schema == "csv_tables.schema.json":
                listed = {t for t in terms if ".csv: " in t and not t.endswith(": <event>")}
                want = csv_columns(schema_dir, schema)
            else:
                listed = {leaf(t) for t in terms} - {None}
                want = property_names(schema_dir, schema)
            what = "%s(%s) %s from %s" % (name, section, heading, schema)
            check(terms, "%s: the section has no field" % what)
            check(listed == want, "%s: fields not in the schema: %s; the schema's fields not listed: %s" % (
                what, sorted(listed - want)[:10], sorted(want - listed)[:10]))
            print("%s: %d fields listed, %d names, as in the schema" % (what, len(terms), len(want)))
    check(found >= 10, "only %d sections generated from a schema (the page sources moved?)" % found)
    return verdict("check_man_fields")


if __name__ == "__main__":
    sys.exit(main())
