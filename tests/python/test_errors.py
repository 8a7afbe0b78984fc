"""Errors: PapiError with the code, PAPI_strerror and the whole reason naming the event;
wrong Python types and values give TypeError/ValueError and change nothing."""

import papi
import pytest


def test_unknown_event_names_it():
    with pytest.raises(papi.PapiError) as info:
        papi.EventSet(["perf::PAGE-FAULTS", "perf::NO-SUCH-EVENT-XYZ"])
    e = info.value
    assert e.code == papi.PAPI_ENOEVNT and e.function == "PAPI_add_named_event"
    assert e.message == "Event does not exist"
    assert "perf::NO-SUCH-EVENT-XYZ" in e.detail and "perf::NO-SUCH-EVENT-XYZ" in str(e)
    assert "PAPI code -7" in str(e)


def test_failed_constructor_leaves_no_event_set():
    # PAPI_create_eventset numbers sets from 0 up, reusing freed numbers: the number a new
    # set gets is the same before and after a failed construction.
    probe = papi.EventSet([])
    before = probe.handle
    probe.close()
    with pytest.raises(papi.PapiError):
        papi.EventSet(["perf::NO-SUCH-EVENT-XYZ"])
    probe = papi.EventSet([])
    assert probe.handle == before
    probe.close()


@pytest.mark.parametrize("bad, kind, text", [
    ("perf::PAGE-FAULTS", TypeError, "list of event names, not one str"),
    (b"perf::PAGE-FAULTS", TypeError, "not one bytes"),
    (42, TypeError, "not int"),
    ([42], TypeError, "events[0] must be a str, not int"),
    ([None], TypeError, "events[0] must be a str, not NoneType"),
    ([""], ValueError, "must not be empty"),
    (["perf::PAGE\0FAULTS"], ValueError, "NUL"),
    (["\udcff"], ValueError, "UTF-8"),
])
def test_wrong_types(bad, kind, text):
    with pytest.raises(kind) as info:
        papi.EventSet(bad)
    assert text in str(info.value)


def test_wrong_types_elsewhere():
    es = papi.EventSet(["perf::PAGE-FAULTS"])
    with pytest.raises(TypeError, match="event name must be a str, not float"):
        es.add(1.5)
    with pytest.raises(TypeError, match="region name must be a str, not list"):
        papi.region(["x"])
    with pytest.raises(TypeError, match="True or False"):
        papi.avail(pandas="yes")
    assert es.names == ["perf::PAGE-FAULTS"]


def test_wrong_states():
    es = papi.EventSet(["perf::PAGE-FAULTS"])
    assert es.read() == [0]  # never started: zeros, as PAPI 7 reads a stopped set
    with pytest.raises(papi.PapiError) as info:
        es.stop()            # not running
    assert info.value.code == papi.PAPI_ENOTRUN and "PAPI_stop" in str(info.value)
    es.start()
    with pytest.raises(papi.PapiError) as info:
        es.start()
    assert info.value.code == papi.PAPI_EISRUN
    es.close()               # stops a running set
    with pytest.raises(ValueError, match="closed"):
        es.read()
    with pytest.raises(ValueError, match="closed"):
        es.start()


def test_region_end_without_begin():
    with pytest.raises(papi.PapiError) as info:
        papi.region("never-begun").__exit__(None, None, None)
    assert "never-begun" in str(info.value)
