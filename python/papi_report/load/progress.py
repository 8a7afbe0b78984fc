"""papi_report.load.progress: one line on stderr that says how far long work is (--merge-trace
of many ranks: the files checked, the ranks read, the events written), rewritten in place.
Only on a terminal, and only once the work has taken a second: a pipe, a log file or a
test never sees it, and quick commands print nothing. The load layer: the standard
library only."""
import sys
import time

#: Seconds of work before the line shows, and between two updates of it.
AFTER_S = 1.0
EVERY_S = 0.25
_shown = []  # the Progress whose line is on the terminal now


def clear():
    """Takes the line off the terminal (before an error is said)."""
    while _shown:
        _shown.pop().done()


class Progress:
    """progress = Progress("reading event logs", 256, "ranks"); progress.step() per unit
    of work (or progress.at(n)); progress.done() at the end (clears the line)."""

    def __init__(self, what, total=None, unit="", stream=None):
        self.what, self.total, self.unit = what, total, unit
        self.stream = stream if stream is not None else sys.stderr
        try:
            self.on = self.stream.isatty()
        except (AttributeError, ValueError):
            self.on = False
        self.n, self.start, self.shown, self.width = 0, time.monotonic(), 0.0, 0

    def step(self, k=1):
        self.at(self.n + k)

    def at(self, n):
        self.n = n
        if not self.on:
            return
        now = time.monotonic()
        if now - self.start < AFTER_S or now - self.shown < EVERY_S:
            return
        self.shown = now
        of = " of %s" % _count(self.total) if self.total is not None else ""
        text = "papi_report: %s: %s%s %s (%.0f s)" % (self.what, _count(n), of, self.unit,
                                                       now - self.start)
        self._put(text)

    def done(self):
        if self.on and self.width:
            self._put("")
            self.stream.write("\r")
            self.stream.flush()
            self.width = 0
        if self in _shown:
            _shown.remove(self)

    def _put(self, text):
        self.stream.write("\r" + text.ljust(self.width))
        self.stream.flush()
        self.width = len(text)
        if text and self not in _shown:
            _shown.append(self)


def _count(n):
    if n >= 10 ** 6:
        return "%.1fM" % (n / 1e6)
    if n >= 10 ** 4:
        return "%.0fk" % (n / 1e3)
    return "%d" % n
