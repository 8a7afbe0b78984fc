/* preset_encode_check: PAPI_encode_events and PAPI_set_event_info change presets at
 * run time with the documented errors (PAPI_EPERM without replace, PAPI_EISRUN while a
 * running set holds the preset, PAPI_EINVAL for bad fields with nothing changed,
 * PAPI_ENOTPRESET / PAPI_ENOEVNT for names and codes that are not presets), and
 * papi_decode's output loads back through PAPI_encode_events unchanged.
 * Usage: preset_encode_check <papi_decode>   (PAPI_CSV_EVENT_FILE = derived_software.csv) */
#include <stdlib.h>

#include "papi_test.h"
#include "preset_test_pages.h"

#define NPAGES 300

static char tmpdir[] = "/tmp/preset_encode_check_XXXXXX";

static void set_str(char *dst, size_t size, const char *src)
{
    snprintf(dst, size, "%s", src);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        exit(1);
    }
    fputs(text, f);
    fclose(f);
}

/* Count one preset alone over NPAGES fresh pages. */
static long long count_one(int code)
{
    int es = PAPI_NULL;
    long long v = -1;
    CHECK_RET(PAPI_create_eventset(&es), PAPI_OK);
    CHECK_RET(PAPI_add_event(es, code), PAPI_OK);
    CHECK_RET(PAPI_start(es), PAPI_OK);
    touch_small_pages(NPAGES);
    CHECK_RET(PAPI_stop(es, &v), PAPI_OK);
    free_set(&es);
    return v;
}

struct snapshot {
    PAPI_event_info_t info[PAPI_END_idx];
};

static void take(struct snapshot *s)
{
    for (int i = 0; i < PAPI_END_idx; i++)
        PAPI_get_event_info(i | PAPI_PRESET_MASK, &s->info[i]);
}

static int same_definition(const PAPI_event_info_t *a, const PAPI_event_info_t *b)
{
    if (a->count != b->count || strcmp(a->derived, b->derived) || strcmp(a->postfix, b->postfix))
        return 0;
    if (a->count && strcmp(a->note, b->note))
        return 0;
    for (unsigned t = 0; t < a->count; t++)
        if (strcmp(a->name[t], b->name[t]) || a->code[t] != b->code[t])
            return 0;
    return 1;
}

static void round_trip(const char *decode)
{
    char out1[256], out2[256], cmd[1024];
    snprintf(out1, sizeof out1, "%s/decode1.csv", tmpdir);
    snprintf(out2, sizeof out2, "%s/decode2.csv", tmpdir);
    snprintf(cmd, sizeof cmd, "'%s' -a > '%s'", decode, out1);
    CHECK(system(cmd) == 0, "%s failed", cmd);
    static struct snapshot before, after;
    take(&before);
    CHECK_RET(PAPI_encode_events(out1, 1), PAPI_OK);
    take(&after);
    int defined = 0;
    for (int i = 0; i < PAPI_END_idx; i++) {
        CHECK(same_definition(&before.info[i], &after.info[i]), "%s changed in the round trip",
              before.info[i].symbol);
        defined += before.info[i].count > 0;
    }
    CHECK(defined >= 6, "only %d presets defined by the test table", defined);
    /* Decoding what was encoded gives the same text (a fresh process reads the same table). */
    snprintf(cmd, sizeof cmd, "'%s' -a > '%s' && cmp -s '%s' '%s'", decode, out2, out1, out2);
    CHECK(system(cmd) == 0, "papi_decode output differs between runs");
    printf("round trip: %d presets reloaded unchanged from papi_decode output\n", defined);
}

static void encode_events(void)
{
    char good[256], bad[256], badname[256], badnat[256];
    PAPI_event_info_t info;
    snprintf(good, sizeof good, "%s/good.csv", tmpdir);
    snprintf(bad, sizeof bad, "%s/bad.csv", tmpdir);
    snprintf(badname, sizeof badname, "%s/badname.csv", tmpdir);
    snprintf(badnat, sizeof badnat, "%s/badnative.csv", tmpdir);
    write_file(good, "name,derived,postfix,short_descr,long_descr,note,native...\n"
                     "# PAPI_TOT_CYC as plain minor faults\n"
                     "PAPI_TOT_CYC,NOT_DERIVED,,\"Cycles, redefined\",\"long\",\"my \"\"note\"\"\",perf::MINOR-FAULTS\n");
    write_file(bad, "name,derived,postfix,short_descr,long_descr,note,native...\n"
                    "PAPI_L3_TCA,NOT_DERIVED,,\"s\",\"l\",\"\",perf::PAGE-FAULTS\n"
                    "PAPI_L3_DCA,DERIVED_TIMES,,\"s\",\"l\",\"\",perf::PAGE-FAULTS\n");
    write_file(badname, "MY_PAPI_EVENT,NOT_DERIVED,,\"s\",\"l\",\"\",perf::PAGE-FAULTS\n");
    write_file(badnat, "PAPI_L3_TCA,NOT_DERIVED,,\"s\",\"l\",\"\",perf::NOT_AN_EVENT\n");

    CHECK_RET(PAPI_encode_events(NULL, 1), PAPI_EINVAL);
    CHECK_RET(PAPI_encode_events("/nonexistent/file.csv", 1), PAPI_ESYS);
    CHECK_RET(PAPI_encode_events(good, 0), PAPI_EPERM); /* PAPI_TOT_CYC is defined */
    CHECK_RET(PAPI_get_event_info(PAPI_TOT_CYC, &info), PAPI_OK);
    CHECK(!strcmp(info.derived, "DERIVED_ADD"), "refused encode changed PAPI_TOT_CYC (%s)", info.derived);

    /* A running set holding the preset blocks its redefinition. */
    int es = PAPI_NULL;
    long long v[1];
    CHECK_RET(PAPI_create_eventset(&es), PAPI_OK);
    CHECK_RET(PAPI_add_event(es, PAPI_TOT_CYC), PAPI_OK);
    CHECK_RET(PAPI_start(es), PAPI_OK);
    CHECK_RET(PAPI_encode_events(good, 1), PAPI_EISRUN);
    CHECK_RET(PAPI_reset(es), PAPI_OK); /* the refused call itself took page faults */
    touch_small_pages(NPAGES);
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    CHECK_EQ_LL(v[0], 2 * NPAGES); /* still the table's DERIVED_ADD */

    CHECK_RET(PAPI_encode_events(good, 1), PAPI_OK);
    CHECK_RET(PAPI_get_event_info(PAPI_TOT_CYC, &info), PAPI_OK);
    CHECK(!strcmp(info.derived, "NOT_DERIVED") && info.count == 1, "derived %s count %u",
          info.derived, info.count);
    CHECK(!strcmp(info.note, "my \"note\""), "note '%s'", info.note);
    long long n1 = count_one(PAPI_TOT_CYC);
    CHECK_EQ_LL(n1, NPAGES);
    /* The set built before keeps the definition it was built from. */
    CHECK_RET(PAPI_start(es), PAPI_OK);
    touch_small_pages(NPAGES);
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    CHECK_EQ_LL(v[0], 2 * NPAGES);
    free_set(&es);

    /* Rejected files change nothing, even their valid lines. */
    CHECK_RET(PAPI_encode_events(bad, 1), PAPI_EINVAL);
    CHECK_RET(PAPI_encode_events(badnat, 1), PAPI_EINVAL);
    CHECK_RET(PAPI_encode_events(badname, 1), PAPI_ENOTPRESET);
    CHECK_RET(PAPI_get_event_info(PAPI_L3_TCA, &info), PAPI_OK);
    CHECK(info.count == 0, "a line of a rejected file was applied");
}

static void set_event_info(void)
{
    PAPI_event_info_t info;
    int code = 0;
    CHECK_RET(PAPI_get_event_info(PAPI_TOT_INS, &info), PAPI_OK);
    set_str(info.note, sizeof info.note, "changed by PAPI_set_event_info");
    CHECK_RET(PAPI_set_event_info(&info, &code, 0), PAPI_EPERM);
    CHECK_RET(PAPI_set_event_info(&info, &code, 1), PAPI_OK);
    CHECK(code == PAPI_TOT_INS, "code 0x%x", (unsigned)code);
    PAPI_event_info_t back;
    CHECK_RET(PAPI_get_event_info(PAPI_TOT_INS, &back), PAPI_OK);
    CHECK(!strcmp(back.note, info.note) && !strcmp(back.derived, "DERIVED_SUB"), "note '%s'", back.note);

    PAPI_event_info_t bad = info;
    bad.event_code = 0x40000001; /* native, not preset */
    CHECK_RET(PAPI_set_event_info(&bad, &code, 1), PAPI_ENOEVNT);
    bad = info;
    set_str(bad.symbol, sizeof bad.symbol, "MY_TOT_INS");
    CHECK_RET(PAPI_set_event_info(&bad, &code, 1), PAPI_ENOTPRESET);
    CHECK_RET(PAPI_set_event_info(NULL, &code, 1), PAPI_EINVAL);

    /* Define a preset the table lacks: (N0 + N1) / 2 = N. */
    PAPI_event_info_t def;
    memset(&def, 0, sizeof def);
    def.event_code = PAPI_PRESET_MASK;
    set_str(def.symbol, sizeof def.symbol, "PAPI_L3_TCA");
    set_str(def.derived, sizeof def.derived, "DERIVED_POSTFIX");
    set_str(def.postfix, sizeof def.postfix, "N0|N1|*|");
    def.count = 2;
    set_str(def.name[0], sizeof def.name[0], "perf::PAGE-FAULTS");
    set_str(def.name[1], sizeof def.name[1], "perf::MINOR-FAULTS");
    CHECK_RET(PAPI_set_event_info(&def, &code, 0), PAPI_OK);
    CHECK(code == PAPI_L3_TCA, "code 0x%x", (unsigned)code);
    set_str(def.postfix, sizeof def.postfix, "N0|N1|+|+|"); /* bad: too few operands */
    CHECK_RET(PAPI_set_event_info(&def, &code, 1), PAPI_EINVAL);
    set_str(def.postfix, sizeof def.postfix, "N0|N1|+|2|/|");
    def.count = 13;
    CHECK_RET(PAPI_set_event_info(&def, &code, 1), PAPI_EINVAL);
    def.count = 2;
    set_str(def.derived, sizeof def.derived, "DERIVED_DIV");
    CHECK_RET(PAPI_set_event_info(&def, &code, 1), PAPI_EINVAL);
    set_str(def.derived, sizeof def.derived, "DERIVED_POSTFIX");
    /* The first definition (N0*N1) survived the refused ones; replace it properly. */
    CHECK_RET(PAPI_get_event_info(PAPI_L3_TCA, &back), PAPI_OK);
    CHECK(!strcmp(back.postfix, "N0|N1|*|"), "postfix '%s'", back.postfix);
    CHECK_RET(PAPI_set_event_info(&def, &code, 1), PAPI_OK);
    long long n2 = count_one(PAPI_L3_TCA);
    CHECK_EQ_LL(n2, NPAGES);

    /* PAPI_EISRUN while a running set holds it. */
    int es = PAPI_NULL;
    CHECK_RET(PAPI_create_eventset(&es), PAPI_OK);
    CHECK_RET(PAPI_add_event(es, PAPI_L3_TCA), PAPI_OK);
    CHECK_RET(PAPI_start(es), PAPI_OK);
    CHECK_RET(PAPI_set_event_info(&def, &code, 1), PAPI_EISRUN);
    long long v;
    CHECK_RET(PAPI_stop(es, &v), PAPI_OK);
    free_set(&es);
}

int main(int argc, char **argv)
{
    if (argc != 2)
        test_skip("usage: preset_encode_check <path of papi_decode> (run it through ctest)");
    if (!getenv("PAPI_CSV_EVENT_FILE"))
        test_skip("run through ctest: PAPI_CSV_EVENT_FILE names the test table");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    init_or_die();
    warm_up();
    PAPI_event_info_t info;
    if (PAPI_get_event_info(PAPI_L2_DCM, &info) != PAPI_OK || info.count == 0)
        test_skip("software events do not open here");
    round_trip(argv[1]);
    encode_events();
    set_event_info();
    PAPI_shutdown();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", tmpdir);
    return test_done("preset_encode_check");
}
