#!/usr/bin/python3
"""check_progress_line.py PYTHON_DIR: papi_report's progress line (load/progress.py, issue
60 item 3) is written only to a terminal, only once the work has taken AFTER_S, rewritten
in place (a carriage return, no newline) and taken off at the end; to a pipe or a file
nothing, however long the work (what tests and logs capture never holds it)."""
import io
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from checks import check_said as check, verdict  # noqa: E402 (tests/common/checks.py)


class Tty(io.StringIO):
    def isatty(self):
        return True


def main():
    sys.path.insert(0, sys.argv[1])
    from papi_report.load import progress
    progress.EVERY_S = 0.0
    quick = Tty()
    p = progress.Progress("reading", 10, "ranks", stream=quick)
    p.step()
    p.done()
    check(quick.getvalue() == "", "work under %g s: nothing on the terminal (%r)"
          % (progress.AFTER_S, quick.getvalue()))
    progress.AFTER_S = 0.0
    tty = Tty()
    p = progress.Progress("reading", 20000, "ranks", stream=tty)
    p.step(3)
    p.at(15000)
    shown = tty.getvalue()
    check(shown.startswith("\rpapi_report: reading: 3 of 20k ranks (") and
          "\rpapi_report: reading: 15k of 20k ranks (" in shown and "\n" not in shown,
          "on a terminal: one line, rewritten in place (%r)" % shown)
    progress.clear()
    end = tty.getvalue()[len(shown):]
    check(end.strip() == "" and end.endswith("\r") and "\n" not in end,
          "clear() blanks it before an error is said (%r)" % end)
    pipe = io.StringIO()
    p = progress.Progress("reading", 10, "ranks", stream=pipe)
    for _ in range(10):
        p.step()
    p.done()
    check(pipe.getvalue() == "", "to a pipe or a file: nothing (%r)" % pipe.getvalue())
    return verdict("check_progress_line")


if __name__ == "__main__":
    sys.exit(main())
