"""papi.shutdown() (PAPI_shutdown) and then new use: the library initialises again and
counts exactly, every EventSet made before refuses with PapiError PAPI_ENOINIT saying
why (its number now belongs to a new set: it must not reach it), close() on it does
nothing; the same through papi.lib.PAPI_shutdown, after a shutdown the module did not
see, 20 times over, and while another thread reads a set."""

import ctypes
import threading

import papi
import pytest
from papi import _library

from conftest import touch_fresh_pages


def counted(pages):
    touch_fresh_pages(10)
    with papi.EventSet(["perf::PAGE-FAULTS"]) as es:
        touch_fresh_pages(pages)
    return es.values[0]


def test_shutdown_then_new_use():
    old = papi.EventSet(["perf::PAGE-FAULTS"]).start()
    touch_fresh_pages(100)
    number = old.handle
    papi.shutdown()
    with pytest.raises(papi.PapiError) as info:
        old.read()
    assert info.value.code == papi.PAPI_ENOINIT and "papi.shutdown()" in info.value.detail
    new = papi.EventSet(["perf::PAGE-FAULTS"])
    assert new.handle == number  # libpapi numbers sets from 0 again after its init
    touch_fresh_pages(10)
    new.start()
    touch_fresh_pages(300)
    for call in (old.stop, old.reset, old.start, lambda: old.add("perf::TASK-CLOCK")):
        with pytest.raises(papi.PapiError) as info:
            call()  # refused by the module: new's counting goes on untouched
        assert info.value.code == papi.PAPI_ENOINIT
    old.close()  # nothing to do: new's number is not old's to destroy
    assert new.stop() == [300]
    assert new.running() is False
    new.close()
    assert papi.hardware_info()["totalcpus"] > 0
    assert any(e["name"] == "perf::PAGE-FAULTS" for e in papi.avail(presets=False))


def test_shutdown_through_lib_and_unseen():
    old = papi.EventSet(["perf::PAGE-FAULTS"])
    papi.lib.PAPI_shutdown()  # the module's shutdown: the sets are forgotten too
    with pytest.raises(papi.PapiError) as info:
        old.start()
    assert info.value.code == papi.PAPI_ENOINIT
    assert counted(200) == 200
    # A shutdown by other code of the process (C through its own handle): the module
    # finds the library uninitialised at its next use, forgets its sets, initialises.
    old = papi.EventSet(["perf::PAGE-FAULTS"])
    ctypes.CDLL(_library._library_path()).PAPI_shutdown()
    assert papi.lib.PAPI_is_initialized() == papi.PAPI_NOT_INITED
    assert counted(200) == 200
    with pytest.raises(papi.PapiError) as info:
        old.read()
    assert info.value.code == papi.PAPI_ENOINIT and "PAPI_shutdown" in info.value.detail


def test_shutdown_twenty_times():
    for _ in range(20):
        assert counted(50) == 50
        papi.shutdown()
    papi.shutdown()  # twice in a row: nothing to do
    assert counted(50) == 50


def test_shutdown_while_another_thread_reads():
    es = papi.EventSet(["perf::PAGE-FAULTS"]).start()
    seen, done = {"values": 0, "refused": 0, "other": []}, threading.Event()

    def reader():
        while not done.is_set():
            try:
                v = es.read()
                seen["values"] += 1
                if len(v) != 1 or v[0] < 0:
                    seen["other"].append(v)
            except papi.PapiError as e:
                seen["refused"] += 1
                if e.code != papi.PAPI_ENOINIT:
                    seen["other"].append(str(e))

    t = threading.Thread(target=reader)
    t.start()
    while seen["values"] < 100:
        touch_fresh_pages(1)
    papi.shutdown()
    refused = seen["refused"]
    while seen["refused"] < refused + 100:
        touch_fresh_pages(1)
    done.set()
    t.join()
    assert seen["other"] == [] and seen["values"] >= 100
    assert counted(100) == 100
