"""One EventSet shared by threads: 4 threads (the creator among them) call read, add,
remove, reset, start, stop, accum and values_dict at random for 3 seconds, under
PYTHONMALLOC=debug (a write past a buffer is then caught when the buffer is freed, where
it used to corrupt the heap: SIGSEGV in the GC). Every list returned has one value per
event then in the set, every value is a count, every refusal is a PapiError of a state
the call cannot be made in; after it the module's names match libpapi's list of the set,
and the set still counts the 1000 fresh pages touched, also while 3 threads read it."""

import json
import os
import subprocess
import sys

import papi
import pytest

from conftest import touch_fresh_pages

HAMMER = r"""
import json, random, sys, threading, time
import papi
from conftest import touch_fresh_pages

BASE = "perf::PAGE-FAULTS"
EXTRA = ["perf::TASK-CLOCK", "perf::CONTEXT-SWITCHES", "perf::CPU-MIGRATIONS",
         "perf::MINOR-FAULTS"]
es = papi.EventSet([BASE])
ok, refused, bad = {}, {}, []
stop = threading.Event()


def counts(values, what):
    # One value per event of the set (1 to 5), each a count (TASK-CLOCK: ns, < 10 min).
    if not isinstance(values, list) or not 1 <= len(values) <= 1 + len(EXTRA):
        bad.append("%s gave %r" % (what, values))
    elif any(not isinstance(v, int) or not 0 <= v < 600 * 10**9 for v in values):
        bad.append("%s gave %r" % (what, values))


def worker(seed):
    r = random.Random(seed)
    ops = ["read", "add", "remove", "reset", "start", "stop", "accum", "dict"]
    while not stop.is_set():
        op = r.choice(ops)
        try:
            if op == "read":
                counts(es.read(), op)
            elif op == "add":
                es.add(r.choice(EXTRA))
            elif op == "remove":
                es.remove(r.choice(EXTRA))
            elif op == "reset":
                es.reset()
            elif op == "start":
                es.start()
            elif op == "stop":
                counts(es.stop(), op)
            elif op == "accum":
                counts(es.accum(), op)
            else:
                d = es.values_dict()
                if list(d)[:1] != [BASE] or len(set(d)) != len(d):
                    bad.append("values_dict gave %r" % d)
                counts(list(d.values()), op)
            ok[op] = ok.get(op, 0) + 1
        except papi.PapiError as e:
            key = "%s %d" % (op, e.code)
            refused[key] = refused.get(key, 0) + 1
        except BaseException as e:
            bad.append("%s raised %r" % (op, e))


threads = [threading.Thread(target=worker, args=(i,)) for i in range(1, 4)]
for t in threads:
    t.start()
timer = threading.Timer(float(sys.argv[1]), stop.set)
timer.start()
worker(0)  # the creating thread takes part: libpapi adds events in it only
for t in threads:
    t.join()

if es.running():
    es.stop()
# The module's names against libpapi's own list of the set.
import ctypes
codes = (ctypes.c_int * 8)()
n = ctypes.c_int(8)
assert papi.lib.PAPI_list_events(es.handle, codes, ctypes.byref(n)) == 0
lib_names = []
for code in codes[:n.value]:
    buf = ctypes.create_string_buffer(1024)
    papi.lib.PAPI_event_code_to_name(code, buf)
    lib_names.append(buf.value.decode())
names_after = es.names
for name in EXTRA:
    if name in es.names:
        es.remove(name)

# Exact: 1000 fresh pages counted by the creating thread while 3 threads read the set.
touch_fresh_pages(10)
es.reset()
seen = {}
go = threading.Event()


def reader(i):
    # Keeps no list of the values read: a growing list would take new pymalloc arenas,
    # whose first touch may fall to the creating thread and be counted there (a real
    # fault, but not one of the 1000 pages).
    n, monotone, last = 0, True, 0
    while not go.is_set():
        v = es.read()[0]
        n, monotone, last = n + 1, monotone and v >= last, v
    seen[i] = [n, monotone, last]


es.start()
readers = [threading.Thread(target=reader, args=(i,)) for i in range(3)]
for t in readers:
    t.start()
touch_fresh_pages(1000)
final = es.stop()[0]
go.set()
for t in readers:
    t.join()
print(json.dumps({"ok": ok, "refused": refused, "bad": bad[:20], "names": names_after,
                  "lib_names": lib_names, "final": final,
                  "reads": seen}))
"""


def test_threads_hammer_one_set(tmp_path):
    here = os.path.dirname(os.path.abspath(__file__))
    env = dict(os.environ, PYTHONMALLOC="debug",
               PYTHONPATH=os.pathsep.join([here] + sys.path))
    run = subprocess.run([sys.executable, "-X", "faulthandler", "-c", HAMMER, "3"], env=env,
                         capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-4000:]
    out = json.loads(run.stdout.strip().splitlines()[-1])
    print(out["ok"], out["refused"])
    assert out["bad"] == []
    # Each call succeeded often: the threads did meet on the set.
    for op in ("read", "add", "remove", "reset", "start", "stop", "accum", "dict"):
        assert out["ok"].get(op, 0) >= 10, (op, out["ok"])
    # Refusals are states: running (start, add, remove), not running (stop, accum), an
    # event not in the set or already in it, and an add from a thread that did not create
    # the set (libpapi opens the set's events in the creating thread).
    allowed = {papi.PAPI_EISRUN, papi.PAPI_ENOTRUN, papi.PAPI_EINVAL, papi.PAPI_ECNFLCT}
    assert {int(k.split()[1]) for k in out["refused"]} <= allowed, out["refused"]
    assert out["names"] == out["lib_names"] and out["names"][0] == "perf::PAGE-FAULTS"
    # 1000 pages touched; the interpreter itself may fault a page of its own in the
    # creating thread between start and stop (once seen in CI: 1001), never lose one.
    assert 1000 <= out["final"] <= 1004, out["final"]
    for length, monotone, top in out["reads"].values():
        assert length > 0 and monotone and top <= out["final"], out["reads"]


def test_remove_keeps_order_values_and_sums():
    es = papi.EventSet(["perf::PAGE-FAULTS", "perf::TASK-CLOCK", "perf::CONTEXT-SWITCHES"])
    es.start()
    touch_fresh_pages(100)
    acc = es.accum()
    assert acc[0] == 100
    last = es.stop()
    es.remove("perf::TASK-CLOCK")
    assert es.names == ["perf::PAGE-FAULTS", "perf::CONTEXT-SWITCHES"]
    assert es.values == [last[0], last[2]]
    es.start()
    touch_fresh_pages(50)
    assert es.accum()[0] == 150 + last[0]  # the sum of the event that stayed is kept
    es.stop()
    es.add("perf::TASK-CLOCK")
    assert es.names == ["perf::PAGE-FAULTS", "perf::CONTEXT-SWITCHES", "perf::TASK-CLOCK"]
    es.reset()
    es.start()
    touch_fresh_pages(200)
    assert es.stop()[0] == 200
    es.remove("perf::TASK-CLOCK")
    with pytest.raises(papi.PapiError) as info:
        es.remove("perf::TASK-CLOCK")  # no longer in the set: refused, nothing changes
    assert info.value.code == papi.PAPI_EINVAL and "perf::TASK-CLOCK" in str(info.value)
    assert es.names == ["perf::PAGE-FAULTS", "perf::CONTEXT-SWITCHES"]
    es.close()
