#!/usr/bin/env python3
"""The shape of a JSON document as its writer typed it, for diffing one writer's output
against another's (check_json_golden.py): every byte of punctuation, whitespace, key and
number form is kept, what a run varies is not.

- A value string becomes "S"; a key stays, unless it is not a schema-style name
  (lower case, digits, _ and -), as MPI call names, events and functions: then "K".
- A number is N (how a %g form prints it depends on the value; the writers' forms are
  one call each, jw_fixed, jw_digits, jw_secs, jw_int).
- null is "S" too: whether a run has a value there or none varies (a sampled function's
  region, a factor that cannot be formed), as a string's text does.
- A shape is itself read as a document ("S", N and "K" as they are), so that a shape
  recorded under earlier rules is compared under these (check_json_golden.py).
- Consecutive members of an object of one shape are written once (a map's "K" entries
  whatever the separator before them: a map of one entry and of many read alike); an
  array's distinct elements once each, sorted: how many ranks, sites, samples or records
  a run has, and in which order, does not count.

Usage: json_shape.py FILE (the shape on stdout; a .jsonl file, one document a line)."""
import re
import sys

KEY = re.compile(r"^[a-z_][a-z0-9_\-]*$")
NUMBER = re.compile(r"-?\d+(\.\d+)?([eE][+-]?\d+)?")
STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
SPACE = re.compile(r"\s*")


class Shape:
    def __init__(self, text):
        self.s, self.i = text, 0

    def space(self):
        m = SPACE.match(self.s, self.i)
        self.i = m.end()
        return m.group(0)

    def string(self):
        m = STRING.match(self.s, self.i)
        if not m:
            raise ValueError("no string at %d" % self.i)
        self.i = m.end()
        return m.group(0)

    def value(self):
        c = self.s[self.i:self.i + 1]
        if c == "{":
            return self.container("}", True)
        if c == "[":
            return self.container("]", False)
        if c == '"':
            self.string()
            return '"S"'
        m = NUMBER.match(self.s, self.i)
        if m or c == "N":
            self.i = m.end() if m else self.i + 1
            return "N"
        if self.s.startswith("null", self.i):
            self.i += 4
            return '"S"'
        for word in ("true", "false"):
            if self.s.startswith(word, self.i):
                self.i += len(word)
                return word
        raise ValueError("unexpected %r at %d" % (self.s[self.i:self.i + 20], self.i))

    def member(self, keyed):
        """One element (its separator before it included)."""
        out = self.space()
        if keyed:
            key = self.string()
            out += key if KEY.match(key[1:-1]) else '"K"'
            out += self.space() + ":" if self.s[self.i] == ":" else ""
            self.i += 1
            out += self.space()
        return out + self.value()

    def container(self, close, keyed):
        """Each element's shape once. An object's members keep their order and each its
        separator (a run of equal ones written once); an array's distinct elements are
        sorted, apart by the separator before its second: how many there are of each
        kind, and in which order a run made them, does not count."""
        self.i += 1
        items, sep = [], ""  # [separator before, shape]
        while True:
            lead = self.space()
            if self.s[self.i] == close:
                self.i += 1
                tail = lead + close
                break
            item = [sep + lead, self.member(keyed)]
            # A map's entries (keys that are not schema names, "K"): how many does not count
            # either, the first's separator kept.
            if not (keyed and items and (items[-1] == item or
                                         (items[-1][1] == item[1] and item[1].startswith('"K"')))):
                items.append(item)
            rest = self.space()
            sep = ""
            if self.s[self.i] == ",":
                self.i += 1
                sep = rest + ","
            else:
                self.i -= len(rest)
        if keyed or not items:
            body = "".join(a + b for a, b in items)
        else:
            between = items[1][0] if len(items) > 1 else ","
            body = items[0][0] + between.join(sorted({b for _, b in items}))
        return ("{" if keyed else "[") + body + tail


def shape(text):
    sh = Shape(text)
    out = sh.space() + sh.value()
    return out + sh.s[sh.i:]


def shape_file(path, text):
    """The shape of a file's text: a .jsonl file's distinct line shapes, sorted."""
    if not path.endswith(".jsonl"):
        return shape(text)
    return "".join(x + "\n" for x in sorted({shape(ln) for ln in text.splitlines() if ln.strip()}))


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        sys.stdout.write(shape_file(sys.argv[1], f.read()))


if __name__ == "__main__":
    main()
