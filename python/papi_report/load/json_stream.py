"""papi_report.load.json_stream: a JSON document whose top level is an object, read one
member at a time from a text stream, and the members named as streamed (a trace's
traceEvents) one item at a time: the memory is that of the largest single value, not of
the document (papi_report --merge-trace of traces of any length). Each value is parsed by
Python's json reader; what is not JSON raises ValueError, its message naming the line and
column in the whole file as json.loads does. The load layer: the standard library only."""
import json

CHUNK = 1 << 20
#: A value that ends this close to the end of what was read may go on (a number): read on.
MARGIN = 64
_WS = " \t\n\r"


class NotAnObject(ValueError):
    """The document's top level is not an object (the caller may read it whole to say why)."""


class _Reader:
    def __init__(self, f):
        self.f, self.buf, self.pos, self.eof = f, "", 0, False
        self.done_chars, self.done_lines, self.line_start = 0, 0, 0  # of text dropped

    def more(self, at_least=0):
        """Read on (at least at_least characters: doubling for a long value); False at
        the end, positions in buf unchanged then. After a read, what was parsed is dropped:
        the caller parses again from pos."""
        if self.eof:
            return False
        text = self.f.read(max(at_least, CHUNK))
        if not text:
            self.eof = True
            return False
        if self.pos > CHUNK:  # drop what was parsed
            dropped = self.buf[:self.pos]
            nl = dropped.count("\n")
            if nl:
                self.line_start = self.done_chars + dropped.rfind("\n") + 1
            self.done_lines += nl
            self.done_chars += self.pos
            self.buf, self.pos = self.buf[self.pos:], 0
        self.buf += text
        return True

    def where(self, pos):
        """line L column C (char N) of a position in buf, in the whole text."""
        lines = self.done_lines + self.buf.count("\n", 0, pos)
        nl = self.buf.rfind("\n", 0, pos)
        start = self.done_chars + nl + 1 if nl >= 0 else self.line_start
        at = self.done_chars + pos
        return "line %d column %d (char %d)" % (lines + 1, at - start + 1, at)

    def fail(self, what, pos=None):
        raise ValueError("%s: %s" % (what, self.where(self.pos if pos is None else pos)))

    def char(self):
        """The next character after white space ('' at the end), not taken."""
        while True:
            while self.pos < len(self.buf) and self.buf[self.pos] in _WS:
                self.pos += 1
            if self.pos < len(self.buf) or not self.more():
                return self.buf[self.pos:self.pos + 1]

    def closes(self, close):
        """After a member or item: True at close, False at a ',' (either taken); ValueError
        at anything else."""
        c = self.char()
        self.pos += 1
        if c == close:
            return True
        if c != ",":
            self.fail("Expecting ',' delimiter", self.pos - 1)
        return False

    def take(self, c, what):
        if self.char() != c:
            self.fail("Expecting " + what)
        self.pos += 1

    def value(self, decoder):
        """The next value, parsed whole."""
        self.char()
        while True:
            try:
                v, end = decoder.raw_decode(self.buf, self.pos)
            except json.JSONDecodeError as e:
                # a fault well before the end of what was read is the text's own
                cut = e.pos + MARGIN >= len(self.buf) or e.msg.startswith("Unterminated string")
                if cut and self.more(len(self.buf) - self.pos):
                    continue
                self.fail(e.msg, e.pos)
            if end + MARGIN > len(self.buf) and self.more():
                continue  # a number cut where the read stopped: read on and parse again
            self.pos = end
            return v


def members(f, streamed, parse_constant):
    """(key, value) of each member of the top-level object in text stream f, in order; for
    a key in streamed whose value is an array, value is an iterator over its items, to be
    used up before the next member is asked for. ValueError for text that is not JSON or
    whose top level is not an object; what parse_constant raises as it is."""
    decoder = json.JSONDecoder(parse_constant=parse_constant)
    r = _Reader(f)
    if r.char() != "{":
        raise NotAnObject("the document is not an object: %s" % r.where(r.pos))
    r.pos += 1
    if r.char() == "}":
        r.pos += 1
    else:
        while True:
            if r.char() != '"':
                r.fail("Expecting property name enclosed in double quotes")
            key = r.value(decoder)
            r.take(":", "':' delimiter")
            if key in streamed and r.char() == "[":
                r.pos += 1
                items = _items(r, decoder)
                yield key, items
                for _ in items:  # what the caller left
                    pass
            else:
                yield key, r.value(decoder)
            if r.closes("}"):
                break
    if r.char() != "":
        r.fail("Extra data")


def _items(r, decoder):
    if r.char() == "]":
        r.pos += 1
        return
    while True:
        yield r.value(decoder)
        if r.closes("]"):
            return
