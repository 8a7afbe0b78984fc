/* test_sde_reuse.c: libsde's memory stays bounded however many counters, recorders and
 * counting sets are registered and unregistered (a gone one's slot is reused), and
 * registration works past the 1,048,576 counters the table once held. A reused slot is
 * never read or changed through what PAPI or the library held for its earlier occupant,
 * however often it was reused since (more than a 6-bit generation's 64 times): a stale
 * created counter's, recorder's or counting set's handle is refused and changes nothing,
 * an event set counting a gone counter or recorder reads PAPI_ENOEVNT, a group leaves a
 * gone member out. Names: a counter named "a::b" counts; one whose PAPI name
 * sde:::LIB::NAME would pass PAPI_MAX_STR_LEN - 1 (127) characters is refused at
 * registration and so never listed, and one of exactly 127 is listed whole and counts. */
#include <malloc.h>
#include <stdio.h>
#include <string.h>

#include "papi.h"
#include "heap_visible.h"
#include "papi_test.h"
#include "sde_lib.h"

static long long var = 5, other = 77;

static size_t heap_used(void)
{
    return mallinfo2().uordblks;
}

/* n register/unregister pairs under distinct names, then n create/unregister pairs;
 * the first failure's index, or -1. */
static long pairs(papi_handle_t h, long first, long n)
{
    char name[32];
    for (long i = first; i < first + n; i++) {
        snprintf(name, sizeof name, "t%ld", i);
        if (papi_sde_register_counter(h, name, PAPI_SDE_RO | PAPI_SDE_DELTA, PAPI_SDE_long_long,
                                      &var) != SDE_OK ||
            papi_sde_unregister_counter(h, name) != SDE_OK)
            return i;
        void *c = NULL;
        snprintf(name, sizeof name, "c%ld", i);
        if (papi_sde_create_counter(h, name, PAPI_SDE_DELTA, &c) != SDE_OK ||
            papi_sde_inc_counter(c, 1) != SDE_OK || papi_sde_unregister_counter(h, name) != SDE_OK)
            return i;
    }
    return -1;
}

/* n create/record/unregister cycles of a recorder (with its statistics) and of a
 * counting set, under distinct names; the first failure's index, or -1. */
static long object_pairs(papi_handle_t h, long first, long n)
{
    char name[32];
    for (long i = first; i < first + n; i++) {
        void *r = NULL, *s = NULL;
        long long v = i;
        snprintf(name, sizeof name, "r%ld", i);
        if (papi_sde_create_recorder(h, name, sizeof v, papi_sde_compare_long_long, &r) != SDE_OK ||
            papi_sde_record(r, sizeof v, &v) != SDE_OK ||
            papi_sde_unregister_counter(h, name) != SDE_OK)
            return i;
        snprintf(name, sizeof name, "s%ld", i);
        if (papi_sde_create_counting_set(h, name, &s) != SDE_OK ||
            papi_sde_counting_set_insert(s, sizeof v, sizeof v, &v, 1) != SDE_OK ||
            papi_sde_unregister_counter(h, name) != SDE_OK)
            return i;
    }
    return -1;
}

/* Each cycle was about 2 KB for good (7 events and the recorder's values kept). */
static void objects_bounded(papi_handle_t h)
{
    CHECK(object_pairs(h, 0, 100) < 0, "the first 100 recorder and counting set cycles");
    size_t before = heap_used();
    long bad = object_pairs(h, 100, 3000);
    size_t after = heap_used();
    printf("3000 recorder and counting set cycles: heap %zu -> %zu bytes\n", before, after);
    CHECK(bad < 0, "recorder/counting set cycle %ld refused", bad);
    if (heap_visible("the heap over 3000 recorder and counting set cycles"))
        CHECK(after <= before + 4096, "heap grew by %zd bytes over 3000 cycles",
              (ssize_t)(after - before));
}

static void bounded(papi_handle_t h)
{
    CHECK(pairs(h, 0, 1000) < 0, "the first 1000 pairs");
    size_t before = heap_used();
    long bad = pairs(h, 1000, 20000);
    size_t after = heap_used();
    printf("20000 register/unregister and create/unregister pairs: heap %zu -> %zu bytes\n", before,
           after);
    CHECK(bad < 0, "pair %ld refused", bad);
    if (heap_visible("the heap over 20000 pairs"))
        CHECK(after <= before + 4096, "heap grew by %zd bytes over 20000 pairs",
              (ssize_t)(after - before));
    if (bad >= 0 || after > before + 4096)
        return; /* the unbounded table would take hours to reach the old limit */
    bad = pairs(h, 21000, 1100000 - 21000);
    CHECK(bad < 0, "1,100,000 pairs: pair %ld refused", bad);
    printf("1,100,000 pairs registered and unregistered: heap %zu bytes\n", heap_used());
}

static int count_named(const char *prefix, size_t *longest)
{
    int code = PAPI_NATIVE_MASK, cidx = PAPI_get_component_index("sde"), n = 0;
    *longest = 0;
    if (PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, cidx) != PAPI_OK)
        return 0;
    do {
        char name[PAPI_HUGE_STR_LEN];
        if (PAPI_event_code_to_name(code, name) == PAPI_OK &&
            strncmp(name, prefix, strlen(prefix)) == 0) {
            n++;
            if (strlen(name) > *longest)
                *longest = strlen(name);
        }
    } while (PAPI_enum_cmp_event(&code, PAPI_ENUM_EVENTS, cidx) == PAPI_OK);
    return n;
}

/* The value event name counts over a start/read, or PAPI's error. */
static long long count(const char *name, int *err)
{
    int es = PAPI_NULL;
    long long v = -1;
    *err = PAPI_create_eventset(&es);
    if (*err == PAPI_OK && (*err = PAPI_add_named_event(es, name)) == PAPI_OK &&
        (*err = PAPI_start(es)) == PAPI_OK) {
        *err = PAPI_read(es, &v);
        long long ignored;
        PAPI_stop(es, &ignored);
    }
    if (es != PAPI_NULL) {
        PAPI_cleanup_eventset(es);
        PAPI_destroy_eventset(&es);
    }
    return v;
}

static void reused_slots(papi_handle_t h)
{
    /* An event set counting a counter whose slot a later registration took. */
    CHECK_RET(papi_sde_register_counter(h, "keep", PAPI_SDE_RO | PAPI_SDE_INSTANT,
                                        PAPI_SDE_long_long, &var),
              SDE_OK);
    int es = PAPI_NULL;
    long long v = -1;
    CHECK_RET(PAPI_create_eventset(&es), PAPI_OK);
    CHECK_RET(PAPI_add_named_event(es, "sde:::reuse::keep"), PAPI_OK);
    CHECK_RET(PAPI_start(es), PAPI_OK);
    CHECK_RET(PAPI_read(es, &v), PAPI_OK);
    CHECK(v == 5, "keep reads %lld, want 5", v);
    CHECK_RET(papi_sde_unregister_counter(h, "keep"), SDE_OK);
    CHECK_RET(papi_sde_register_counter(h, "next", PAPI_SDE_RO | PAPI_SDE_INSTANT,
                                        PAPI_SDE_long_long, &other),
              SDE_OK);
    v = -1;
    CHECK_RET(PAPI_read(es, &v), PAPI_ENOEVNT);
    CHECK(v == -1, "the unregistered keep read %lld (its slot's next counter holds 77)", v);
    /* Its slot reused far more than 64 times (what the id's 6 bits of generation tell
     * apart): the set still reads the gone counter, never one that took its place. */
    CHECK_RET(papi_sde_unregister_counter(h, "next"), SDE_OK);
    int read_other = -1;
    long long read_value = -1;
    for (int i = 0; i < 1000; i++) {
        CHECK_RET(papi_sde_register_counter(h, "next", PAPI_SDE_RO | PAPI_SDE_INSTANT,
                                            PAPI_SDE_long_long, &other),
                  SDE_OK);
        v = -1;
        if (PAPI_read(es, &v) != PAPI_ENOEVNT && read_other < 0)
            read_other = i, read_value = v;
        if (i < 999)
            CHECK_RET(papi_sde_unregister_counter(h, "next"), SDE_OK);
    }
    CHECK(read_other < 0, "the set holding the gone keep read a later counter (%lld) at reuse %d",
          read_value, read_other);
    long long ignored;
    PAPI_stop(es, &ignored);
    PAPI_cleanup_eventset(es);
    PAPI_destroy_eventset(&es);
    int err;
    v = count("sde:::reuse::next", &err);
    CHECK(err == PAPI_OK && v == 77, "next counts %lld (%d), want 77", v, err);

    /* A created counter's stale handle, its slot taken by another created counter. */
    void *c1 = NULL, *c2 = NULL;
    CHECK_RET(papi_sde_create_counter(h, "made1", PAPI_SDE_INSTANT, &c1), SDE_OK);
    CHECK_RET(papi_sde_unregister_counter(h, "made1"), SDE_OK);
    CHECK_RET(papi_sde_create_counter(h, "made2", PAPI_SDE_INSTANT, &c2), SDE_OK);
    CHECK_RET(papi_sde_inc_counter(c1, 1000), SDE_EINVAL);
    CHECK_RET(papi_sde_reset_counter(c1), SDE_EINVAL);
    CHECK_RET(papi_sde_inc_counter(c2, 3), SDE_OK);
    v = count("sde:::reuse::made2", &err);
    CHECK(err == PAPI_OK && v == 3, "made2 counts %lld (%d), want 3: the stale handle changed it",
          v, err);

    /* 1000 more counters through the few free slots, each slot reused far more than 64
     * times (what a 6-bit generation tells apart): no handle given out is a stale one,
     * and the stale ones still change nothing. */
    CHECK_RET(papi_sde_unregister_counter(h, "made2"), SDE_OK);
    void *c3 = NULL;
    int again = -1;
    for (int i = 0; i < 1000; i++) {
        CHECK_RET(papi_sde_create_counter(h, "made3", PAPI_SDE_INSTANT, &c3), SDE_OK);
        if ((c3 == c1 || c3 == c2) && again < 0)
            again = i;
        if (i < 999)
            CHECK_RET(papi_sde_unregister_counter(h, "made3"), SDE_OK);
    }
    CHECK(again < 0, "counter %d of 1000 was given a stale handle again", again);
    CHECK_RET(papi_sde_inc_counter(c1, 1000), SDE_EINVAL);
    CHECK_RET(papi_sde_inc_counter(c2, 1000), SDE_EINVAL);
    CHECK_RET(papi_sde_inc_counter(c3, 4), SDE_OK);
    v = count("sde:::reuse::made3", &err);
    CHECK(err == PAPI_OK && v == 4, "made3 counts %lld (%d), want 4: a stale handle changed it", v,
          err);
}

/* Stale recorder and counting set handles, their slots reused 100 times since (past
 * what a 6-bit generation tells apart), and an event set reading the gone recorder. */
static void stale_objects(papi_handle_t h)
{
    long long v = 7, ignored;
    void *r1 = NULL, *s1 = NULL, *r = NULL, *s = NULL;
    CHECK_RET(papi_sde_create_recorder(h, "rec", sizeof v, papi_sde_compare_long_long, &r1),
              SDE_OK);
    CHECK_RET(papi_sde_create_counting_set(h, "set", &s1), SDE_OK);
    int es = PAPI_NULL;
    long long cnt = -1;
    CHECK_RET(PAPI_create_eventset(&es), PAPI_OK);
    CHECK_RET(PAPI_add_named_event(es, "sde:::reuse::rec:CNT"), PAPI_OK);
    CHECK_RET(PAPI_start(es), PAPI_OK);
    CHECK_RET(papi_sde_record(r1, sizeof v, &v), SDE_OK);
    CHECK_RET(PAPI_read(es, &cnt), PAPI_OK);
    CHECK(cnt == 1, "rec:CNT reads %lld, want 1", cnt);
    CHECK_RET(papi_sde_unregister_counter(h, "rec"), SDE_OK);
    CHECK_RET(papi_sde_unregister_counter(h, "set"), SDE_OK);
    CHECK_RET(papi_sde_create_recorder(h, "rec1", sizeof v, papi_sde_compare_long_long, &r),
              SDE_OK);
    CHECK_RET(papi_sde_record(r, sizeof v, &v), SDE_OK);
    cnt = -1;
    CHECK_RET(PAPI_read(es, &cnt), PAPI_ENOEVNT);
    CHECK(cnt == -1, "the gone rec:CNT read %lld (rec1 in its slot holds 1)", cnt);
    PAPI_stop(es, &ignored);
    PAPI_cleanup_eventset(es);
    PAPI_destroy_eventset(&es);
    CHECK_RET(papi_sde_unregister_counter(h, "rec1"), SDE_OK);
    for (int i = 0; i < 100; i++) {
        CHECK_RET(papi_sde_create_recorder(h, "rec2", sizeof v, papi_sde_compare_long_long, &r),
                  SDE_OK);
        CHECK_RET(papi_sde_create_counting_set(h, "set2", &s), SDE_OK);
        CHECK(r != r1 && s != s1, "reuse %d gave the stale handle %p/%p again", i, r, s);
        if (i == 99)
            break;
        CHECK_RET(papi_sde_unregister_counter(h, "rec2"), SDE_OK);
        CHECK_RET(papi_sde_unregister_counter(h, "set2"), SDE_OK);
    }
    CHECK_RET(papi_sde_record(r, sizeof v, &v), SDE_OK);
    CHECK_RET(papi_sde_counting_set_insert(s, sizeof v, sizeof v, &v, 1), SDE_OK);
    /* The stale handles change nothing of the live ones in their slots. */
    CHECK_RET(papi_sde_record(r1, sizeof v, &v), SDE_EINVAL);
    CHECK_RET(papi_sde_reset_recorder(r1), SDE_EINVAL);
    CHECK_RET(papi_sde_counting_set_insert(s1, sizeof v, sizeof v, &v, 1), SDE_EINVAL);
    CHECK_RET(papi_sde_counting_set_remove(s1, sizeof v, &v, 1), SDE_EINVAL);
    int err;
    cnt = count("sde:::reuse::rec2:CNT", &err);
    CHECK(err == PAPI_OK && cnt == 1, "rec2:CNT counts %lld (%d), want 1", cnt, err);
    /* The set's list, read while its set runs (a later read frees it). */
    long long addr = 0;
    CHECK_RET(PAPI_create_eventset(&es), PAPI_OK);
    CHECK_RET(PAPI_add_named_event(es, "sde:::reuse::set2"), PAPI_OK);
    CHECK_RET(PAPI_start(es), PAPI_OK);
    CHECK_RET(PAPI_read(es, &addr), PAPI_OK);
    const cset_list_object_t *l = (const cset_list_object_t *)(intptr_t)addr;
    CHECK(l && l->count == 1 && !l->next && *(long long *)l->ptr == 7,
          "set2 holds one 7 once: the stale handle changed it");
    PAPI_stop(es, &ignored);
    PAPI_cleanup_eventset(es);
    PAPI_destroy_eventset(&es);
    /* Not a recorder's handle: refused without being read. */
    CHECK_RET(papi_sde_record(s, sizeof v, &v), SDE_EINVAL);
    CHECK_RET(papi_sde_counting_set_insert(r, sizeof v, sizeof v, &v, 1), SDE_EINVAL);
}

/* A group whose member is gone, the member's slot reused far more than 64 times: the
 * group never sums the counters that took its place. */
static void stale_members(papi_handle_t h)
{
    static long long m1 = 3, m2 = 5;
    int err, summed = -1;
    long long got = 0;
    CHECK_RET(
        papi_sde_register_counter(h, "m1", PAPI_SDE_RO | PAPI_SDE_INSTANT, PAPI_SDE_long_long, &m1),
        SDE_OK);
    CHECK_RET(papi_sde_add_counter_to_group(h, "m1", "grp", PAPI_SDE_SUM), SDE_OK);
    long long v = count("sde:::reuse::grp", &err);
    CHECK(err == PAPI_OK && v == 3, "grp counts %lld (%d), want m1's 3", v, err);
    CHECK_RET(papi_sde_unregister_counter(h, "m1"), SDE_OK);
    for (int i = 0; i < 1000; i++) {
        CHECK_RET(papi_sde_register_counter(h, "m2", PAPI_SDE_RO | PAPI_SDE_INSTANT,
                                            PAPI_SDE_long_long, &m2),
                  SDE_OK);
        v = count("sde:::reuse::grp", &err);
        if ((err != PAPI_OK || v != 0) && summed < 0)
            summed = i, got = v;
        CHECK_RET(papi_sde_unregister_counter(h, "m2"), SDE_OK);
    }
    CHECK(summed < 0, "the group counted %lld at reuse %d: want 0, its only member gone", got,
          summed);
}

static void names(papi_handle_t h)
{
    int err;
    static long long ab = 11, edge = 13, too_long = 17;
    CHECK_RET(papi_sde_register_counter(h, "a::b", PAPI_SDE_RO | PAPI_SDE_INSTANT,
                                        PAPI_SDE_long_long, &ab),
              SDE_OK);
    long long v = count("sde:::reuse::a::b", &err);
    CHECK(err == PAPI_OK && v == 11, "a::b counts %lld (%d), want 11", v, err);
    /* sde:::reuse:: is 13 characters: 114 more make 127, 115 make 128. */
    char name[200];
    memset(name, 'n', sizeof name);
    name[115] = '\0';
    CHECK_RET(papi_sde_register_counter(h, name, PAPI_SDE_RO | PAPI_SDE_INSTANT, PAPI_SDE_long_long,
                                        &too_long),
              SDE_EINVAL);
    name[114] = '\0';
    CHECK_RET(papi_sde_register_counter(h, name, PAPI_SDE_RO | PAPI_SDE_INSTANT, PAPI_SDE_long_long,
                                        &edge),
              SDE_OK);
    size_t longest;
    int listed = count_named("sde:::reuse::nnn", &longest);
    CHECK(listed == 1 && longest == 127,
          "%d long names listed, the longest %zu characters: want 1, 127", listed, longest);
    char full[PAPI_HUGE_STR_LEN];
    snprintf(full, sizeof full, "sde:::reuse::%s", name);
    v = count(full, &err);
    CHECK(err == PAPI_OK && v == 13, "the 127-character name counts %lld (%d), want 13", v, err);
    /* A name PAPI cannot hold is no event, not a placeholder that counts 0. */
    name[114] = 'n';
    snprintf(full, sizeof full, "sde:::reuse::%s", name);
    v = count(full, &err);
    CHECK(err == PAPI_ENOEVNT, "a 128-character name: %d, want PAPI_ENOEVNT", err);
}

int main(void)
{
    papi_handle_t h = papi_sde_init("reuse");
    CHECK(h != NULL, "papi_sde_init");
    bounded(h);
    objects_bounded(h);
    CHECK_RET(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT);
    reused_slots(h);
    stale_objects(h);
    stale_members(h);
    names(h);
    return test_done("test_sde_reuse");
}
