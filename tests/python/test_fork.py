"""Fork with the module as PAPI 7 has it in C (tests/conformance/test_fork.c): in the
child, an EventSet made by the parent refuses every call with PapiError PAPI_ENOINIT
saying why (it would reach the parent's counters, or a set of the child's that got its
number), close() on it does nothing, and a new EventSet initialises the library again and
counts the child's own page faults exactly; the parent's set keeps counting. A lock held
by another thread at fork (a set's, the module's) is not waited for in the child."""

import os
import signal
import threading

import papi
from papi import lifecycle

from conftest import touch_fresh_pages


def in_child(check):
    """Run check() in a forked child (killed by SIGALRM after 20 s: a deadlock); returns
    its failures, or the signal that ended it."""
    rd, wr = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(rd)
        signal.alarm(20)
        try:
            fails = check()
        except BaseException as e:
            fails = ["child raised %r" % e]
        os.write(wr, "\n".join(fails).encode() or b"ok")
        os._exit(0)
    os.close(wr)
    out = b""
    while True:
        chunk = os.read(rd, 65536)
        if not chunk:
            break
        out += chunk
    os.close(rd)
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        return ["child killed by signal %d (SIGALRM: it deadlocked)" % os.WTERMSIG(status)]
    return [] if out == b"ok" else out.decode().splitlines()


def refuses(es, fails):
    """Every call of the parent's set raises PAPI_ENOINIT naming the parent."""
    for name, call in [("read", es.read), ("start", es.start), ("stop", es.stop),
                       ("reset", es.reset), ("accum", es.accum), ("running", es.running),
                       ("add", lambda: es.add("perf::TASK-CLOCK")),
                       ("remove", lambda: es.remove("perf::PAGE-FAULTS"))]:
        try:
            call()
            fails.append("%s on the parent's set did not raise" % name)
        except papi.PapiError as e:
            if e.code != papi.PAPI_ENOINIT or "parent process" not in e.detail:
                fails.append("%s raised %s" % (name, e))
        except BaseException as e:
            fails.append("%s raised %r" % (name, e))


def rounds(es, pages, n=3):
    """Counts of n rounds of start, touch pages, stop: after a fork the first writes into
    pages shared with the other process are copy-on-write faults too (and the
    interpreter's own first writes), so a round is exact once they are behind, and none
    is below."""
    got = []
    for _ in range(n):
        es.reset()
        with es:
            touch_fresh_pages(pages)
        got.append(es.values[0])
    return got


def exact_once(got, pages):
    return min(got) == pages and max(got) <= pages + 40


def child_counts(fails, pages):
    """A new set in the child initialises the library and counts the child's faults."""
    mine = papi.EventSet(["perf::PAGE-FAULTS"])
    got = rounds(mine, pages)
    if not exact_once(got, pages):
        fails.append("the child's own set counted %r for %d pages" % (got, pages))
    mine.close()


def test_parent_set_in_child_and_parent_counting():
    touch_fresh_pages(10)
    es = papi.EventSet(["perf::PAGE-FAULTS"]).start()
    touch_fresh_pages(300)
    assert es.read() == [300]

    def check():
        fails = []
        refuses(es, fails)
        es.close()  # nothing to do: the handle is the parent's
        es.close()
        if es.handle != papi.PAPI_NULL:
            fails.append("the parent's set still holds handle %d" % es.handle)
        child_counts(fails, 200)
        return fails

    assert in_child(check) == []
    assert es.stop()[0] >= 300  # it went on counting in the parent
    got = rounds(es, 500)
    assert exact_once(got, 500), got
    es.close()


def test_fork_while_other_threads_hold_the_locks():
    es = papi.EventSet(["perf::PAGE-FAULTS"])
    held, release = threading.Barrier(3), threading.Event()

    def hold(lock):
        with lock:
            held.wait()
            release.wait()

    threads = [threading.Thread(target=hold, args=(es._lock,)),
               threading.Thread(target=hold, args=(lifecycle._lock,))]
    for t in threads:
        t.start()
    held.wait()  # both locks are held by other threads now
    try:
        def check():
            fails = []
            refuses(es, fails)
            es.close()
            child_counts(fails, 100)
            return fails

        fails = in_child(check)
    finally:
        release.set()
        for t in threads:
            t.join()
    assert fails == []
    # The parent's set and module are untouched.
    got = rounds(es, 100)
    assert exact_once(got, 100), got
    es.close()
