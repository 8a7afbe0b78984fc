// test_sde_cxx.cpp: sde_lib.hpp's classes, as a C++ library uses them (registered
// counters of each type, a callback, a created counter with ++ and +=, a recorder, a
// counting set, a group), counted through PAPI's C API in the same program, exact.
#include <cstdio>
#include <cstring>

#include "papi.h"
#include "sde_lib.h"
#include "sde_lib.hpp"

static int failures;

static void expect(bool cond, const char *what)
{
    if (!cond) {
        std::fprintf(stderr, "FAIL: %s\n", what);
        failures++;
    }
}

// The bits of a double SDE (GET_DOUBLE_SDE's meaning, without its type pun).
static double as_double(long long bits)
{
    double d;
    std::memcpy(&d, &bits, sizeof d);
    return d;
}

static long long twice(long long *p)
{
    return 2 * *p;
}

int main()
{
    long long ll = 0, state = 0;
    int in = 0;
    double db = 0;
    if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT)
        return 1;
    papi_sde::PapiSde sde("cxxlib");
    expect(sde.register_counter("LL", PAPI_SDE_DELTA, ll) == SDE_OK, "register long long");
    expect(sde.register_counter("IN", PAPI_SDE_INSTANT, in) == SDE_OK, "register int");
    expect(sde.register_counter("DB", PAPI_SDE_DELTA, db) == SDE_OK, "register double");
    expect(sde.register_counter_cb("CB", PAPI_SDE_DELTA, twice, state) == SDE_OK, "callback");
    expect(sde.describe_counter("LL", "a long long") == SDE_OK, "describe");
    papi_sde::PapiSde::CreatedCounter *made = sde.create_counter("MADE", PAPI_SDE_DELTA);
    papi_sde::PapiSde::Recorder *rec =
        sde.create_recorder("REC", sizeof(double), papi_sde_compare_double);
    papi_sde::PapiSde::CountingSet *set = sde.create_counting_set("SET");
    expect(made && rec && set, "create_counter, create_recorder, create_counting_set");
    expect(sde.create_counter("MADE", PAPI_SDE_DELTA) == nullptr, "a second MADE is refused");
    expect(sde.add_counter_to_group("LL", "SUM", PAPI_SDE_SUM) == SDE_OK, "group LL");
    expect(sde.add_counter_to_group("MADE", "SUM", PAPI_SDE_SUM) == SDE_OK, "group MADE");
    if (failures)
        return 1;

    const char *names[] = {"sde:::cxxlib::LL",  "sde:::cxxlib::IN",      "sde:::cxxlib::DB",
                           "sde:::cxxlib::CB",  "sde:::cxxlib::MADE",    "sde:::cxxlib::SUM",
                           "sde:::cxxlib::SET", "sde:::cxxlib::REC:CNT", "sde:::cxxlib::REC:MAX"};
    const int n = sizeof names / sizeof names[0];
    int es = PAPI_NULL;
    expect(PAPI_create_eventset(&es) == PAPI_OK, "create_eventset");
    for (int e = 0; e < n; e++)
        expect(PAPI_add_named_event(es, names[e]) == PAPI_OK, names[e]);
    expect(PAPI_start(es) == PAPI_OK, "start");
    for (int i = 0; i < 100; i++) {
        ll += 1;
        in = i;
        db += 0.25;
        state += 5;
        ++*made;
        *made += 2;
        rec->record(i * 1.5);
        set->insert(i % 4, 3);
    }
    --*made;
    long long v[9];
    expect(PAPI_stop(es, v) == PAPI_OK, "stop");
    expect(v[0] == 100, "LL is 100");
    expect(v[1] == 99, "IN is 99 (instant)");
    expect(as_double(v[2]) == 25.0, "DB is 25.0");
    expect(v[3] == 1000, "CB is 1000");
    expect(v[4] == 299, "MADE is 299");
    expect(v[5] == 399, "SUM is 399");
    int elements = 0, total = 0;
    for (cset_list_object_t *o = (cset_list_object_t *)v[6]; o; o = o->next, elements++)
        total += (int)o->count;
    expect(elements == 4 && total == 100, "SET holds 4 elements inserted 100 times");
    expect(v[7] == 100, "REC:CNT is 100");
    expect(*GET_SDE_RECORDER_ADDRESS(v[8], double) == 99 * 1.5, "REC:MAX is 148.5");
    delete made;
    delete rec;
    delete set;
    PAPI_shutdown();
    std::printf("test_sde_cxx: %s\n", failures ? "FAILED" : "PASSED");
    return failures != 0;
}
