"""A test script's tally of failed checks, shared by the Python checkers:
    from checks import check, verdict
    check(value == 40, "40 pages, got %d" % value)   # prints FAIL: ... and counts it
    (check_said: prints "ok   ..." for a passing check as well)
    return verdict("check_name")                      # prints the verdict, the exit status
    return verdict("check_name", scratch=tmp)         # tmp removed if passed, else kept
    fail("no report written")                         # FAIL: line, exit 1 at once
    expect_near("the path's total (s)", got, 0.4)    # a figure against its known answer
"""
import shutil
import sys

#: The messages of the checks that failed, in order.
fails = []


def check(cond, msg):
    """Record msg as a failure unless cond holds; returns cond."""
    if not cond:
        fails.append(msg)
        print("FAIL:", msg)
    return cond


def check_said(cond, msg):
    """check(), saying a passing check too ("ok   msg"): for checkers whose log lists them."""
    if cond:
        print("ok   " + msg)
    return check(cond, msg)


def expect_near(what, got, want, tol=1e-6):
    """A figure against its known answer: got within tol of want (relative; absolute below
    1), its line printed either way ("ok" or "FAILED"), a miss counted; returns whether."""
    ok = abs(got - want) <= tol * max(1.0, abs(want))
    print("%-66s %.6f (want %.6f) %s" % (what, got, want, "ok" if ok else "FAILED"))
    if not ok:
        fails.append(what)
    return ok


def verdict(name=None, scratch=None):
    """Prints "[name: ]PASSED" or "[name: ]FAILED (n checks)"; the exit status for sys.exit.
    scratch: the test's work folder, removed when it passed, kept (and named) for a look
    when it failed."""
    said = "PASSED" if not fails else "FAILED (%d checks)" % len(fails)
    print("%s: %s" % (name, said) if name else said)
    if scratch and not fails:
        shutil.rmtree(scratch, ignore_errors=True)
    elif scratch:
        print("kept", scratch)
    sys.stdout.flush()
    return 1 if fails else 0


def fail(msg):
    """Prints "FAIL: msg" and exits 1 at once: for checkers whose later checks need this one."""
    print("FAIL: " + msg)
    sys.stdout.flush()
    sys.exit(1)
