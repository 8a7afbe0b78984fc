"""Shared by the MPI test checkers: record failed checks, print the verdict."""
import sys

fails = []


def check(cond, msg):
    """Record msg as a failure unless cond holds."""
    if not cond:
        fails.append(msg)
        print("FAIL:", msg)
    return cond


def verdict():
    """PASSED or FAILED (n checks); the exit status for sys.exit."""
    print("PASSED" if not fails else f"FAILED ({len(fails)} checks)")
    sys.stdout.flush()
    return 1 if fails else 0
