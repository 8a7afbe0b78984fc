"""papi_report.load.input_file: every input file papi_report reads is opened here, bounded: a
symbolic link is followed, then the file must be a regular file (never a device such as
/dev/zero, a FIFO or a socket, which read forever or block) of at most MAX_BYTES (the
--max-input option; default 4 GiB). A path refused raises InputRefused, one line naming the
file and why; the callers turn it into their own "bad input" error (exit 2). The check is
made on the opened descriptor (fstat), so a link swapped after the check changes nothing.
The load layer: the standard library only."""
import io
import json
import os
import re
import stat

#: The most bytes one input file may hold (papi_report --max-input).
DEFAULT_MAX_BYTES = 4 << 30
MAX_BYTES = DEFAULT_MAX_BYTES
_UNITS = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}
_KINDS = ((stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a directory"))


class InputRefused(Exception):
    """A path that is not a regular file, or a file over the size cap."""


class BrokenLine(ValueError):
    """A line of a JSON-lines file, before its last, that is not JSON (line: its number)."""

    def __init__(self, line, why):
        ValueError.__init__(self, "line %d: not JSON: %s" % (line, why))
        self.line = line


def parse_size(text):
    """Bytes of "4G", "512M", "100k", "1000000" (binary units); ValueError otherwise."""
    m = re.fullmatch(r"\s*(\d+)\s*([kKmMgGtT]?)(?:i?[bB])?\s*", text or "")
    if not m or int(m.group(1)) <= 0:
        raise ValueError("--max-input %r: want a size above 0 such as 4G, 512M or 100000" % text)
    return int(m.group(1)) * _UNITS[m.group(2).lower()]


def shown_size(n):
    for unit, size in (("TiB", 1 << 40), ("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            return "%.4g %s" % (n / size, unit)
    return "%d bytes" % n


def _kind(mode):
    return next((what for test, what in _KINDS if test(mode)), "not a regular file")


def _open_checked(path):
    """The descriptor of the regular file at path (links followed), at most MAX_BYTES, and
    its size; InputRefused otherwise, OSError when it cannot be opened."""
    # O_NONBLOCK: opening a FIFO for reading would wait for a writer before fstat says
    # what it is.
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise InputRefused("%s: %s, not a regular file (papi_report reads only regular files)"
                               % (path, _kind(st.st_mode)))
        if st.st_size > MAX_BYTES:
            raise InputRefused(too_large(path, shown_size(st.st_size)))
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_bytes(path):
    """The bytes of the regular file at path (links followed), at most MAX_BYTES;
    InputRefused otherwise, OSError when it cannot be opened or read."""
    fd = _open_checked(path)
    try:
        chunks, got = [], 0
        while got <= MAX_BYTES:  # the file may grow while it is read
            b = os.read(fd, min(1 << 24, MAX_BYTES + 1 - got))
            if not b:
                break
            chunks.append(b)
            got += len(b)
        if got > MAX_BYTES:
            raise InputRefused(too_large(path, "over %s (it grew while read)" % shown_size(MAX_BYTES)))
        return b"".join(chunks)
    finally:
        os.close(fd)


class _Capped(io.RawIOBase):
    """A descriptor read at most MAX_BYTES far: InputRefused past it (the file grew)."""

    def __init__(self, fd, path):
        io.RawIOBase.__init__(self)
        self.fd, self.path, self.got = fd, path, 0

    def readable(self):
        return True

    def readinto(self, b):
        n = os.readv(self.fd, [b])
        self.got += n
        if self.got > MAX_BYTES:
            raise InputRefused(too_large(self.path, "over %s (it grew while read)" % shown_size(MAX_BYTES)))
        return n

    def close(self):
        if not self.closed:
            os.close(self.fd)
        io.RawIOBase.close(self)


def open_text(path):
    """The file as a text stream (UTF-8, a byte order mark at its start dropped, lines
    ended by "\n" alone), under read_bytes' rules, for readers that take a file a piece at
    a time: memory bounded by what they keep, not by the file's size."""
    fd = _open_checked(path)
    return io.TextIOWrapper(io.BufferedReader(_Capped(fd, path), 1 << 20), encoding="utf-8-sig",
                            newline="\n")


def too_large(path, size):
    return ("%s: %s, over papi_report's input cap of %s (--max-input SIZE reads larger "
            "files)" % (path, size, shown_size(MAX_BYTES)))


def read_text(path):
    """The file's text (UTF-8; a byte order mark at its start dropped): read_bytes, decoded.
    UnicodeDecodeError when it is not UTF-8."""
    data = read_bytes(path)
    return data.decode("utf-8-sig")


def iter_json_lines(path, parse_constant, torn):
    """(line number, document) of each line of a JSON-lines file whose writer appends whole
    lines (the MPI wrapper's event logs), one line read at a time. A last line with no
    newline after it that is not JSON (its writer stopped while it appended: its reader
    leaves it out and says so) is appended to torn as (line number, why); a broken line
    before it raises BrokenLine; open_text's errors as they are."""
    with open_text(path) as f:
        n = 0
        for n, text in enumerate(f, 1):
            whole = text.endswith("\n")
            try:
                doc = json.loads(text[:-1] if whole else text, parse_constant=parse_constant)
            except ValueError as e:
                if whole:
                    raise BrokenLine(n, e)
                torn.append((n, "torn last line (no newline after it: its writer stopped while "
                                "it appended): not JSON: %s" % e))
                return
            yield n, doc


def json_lines(path, parse_constant):
    """([(line number, document)], torn) of iter_json_lines (torn: None or (number, why))."""
    torn = []
    docs = list(iter_json_lines(path, parse_constant, torn))
    return docs, (torn[0] if torn else None)
