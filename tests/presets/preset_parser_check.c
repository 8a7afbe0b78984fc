/* preset_parser_check: the papi_events.csv parser accepts the format's features
 * (comments, CRLF, CPU synonyms, later tables overriding and appending, the generic
 * fallback) and rejects each kind of malformed input with "file:line: why". Then,
 * through the public API, a PAPI_CSV_EVENT_FILE naming a bad native event is rejected
 * as a whole (nothing defined, the note says where and why). */
#include <stdlib.h>

#include "papi_test.h"
#include "preset_events.h"
#include "preset_tables.h"

static int parse(const char *text, const char *cpu, struct preset_src_list *l, char *err)
{
    return preset_csv_parse(text, strlen(text), "t.csv", cpu, "generic", l, err, 512);
}

static const struct preset_src *find(const struct preset_src_list *l, int idx)
{
    const struct preset_src *last = NULL;
    for (int i = 0; i < l->count; i++)
        if (l->v[i].idx == idx)
            last = &l->v[i]; /* the later definition wins */
    return last;
}

static void accepts(void)
{
    struct preset_src_list l;
    char err[512];
    const char *text =
        "# comment, then a blank line\r\n"
        "\r\n"
        "CPU,alpha\r\n"
        "CPU,beta\r\n"
        "PRESET,PAPI_TOT_CYC,NOT_DERIVED,CYC\r\n"
        "PRESET,PAPI_FP_OPS,DERIVED_POSTFIX,N0|N1|4|*|+|,A:X,B\r\n"
        "CPU,gamma\n"
        "PRESET,PAPI_TOT_INS,NOT_DERIVED,INS_GAMMA\n"
        "CPU,beta\n"
        "PRESET,PAPI_TOT_CYC,DERIVED_ADD,C1,C2,\n" /* overrides; trailing comma tolerated */
        "PRESET,PAPI_L1_DCM,DERIVED_CMPD,M,N\n"    /* appends */
        "CPU,generic\n"
        "PRESET,PAPI_TOT_INS,NOT_DERIVED,perf::INSTRUCTIONS\n";
    CHECK_RET(parse(text, "beta", &l, err), PAPI_OK);
    CHECK(l.matched_tables == 2 && !l.fallback_used, "tables %d fallback %d", l.matched_tables,
          l.fallback_used);
    const struct preset_src *s = find(&l, PAPI_TOT_CYC_idx);
    CHECK(s && s->op == DERIVE_ADD && s->nterms == 2 && !strcmp(s->native[1], "C2"),
          "override of PAPI_TOT_CYC");
    s = find(&l, PAPI_FP_OPS_idx);
    CHECK(s && s->op == DERIVE_POSTFIX && !strcmp(s->postfix, "N0|N1|4|*|+|") &&
              !strcmp(s->native[0], "A:X") && s->line == 6,
          "postfix definition");
    CHECK(find(&l, PAPI_L1_DCM_idx) != NULL, "appended definition");
    CHECK(find(&l, PAPI_TOT_INS_idx) == NULL, "gamma's and generic's definitions leak into beta");
    preset_src_list_free(&l);

    CHECK_RET(parse(text, "delta", &l, err), PAPI_OK); /* no table: the generic fallback */
    s = find(&l, PAPI_TOT_INS_idx);
    CHECK(l.fallback_used && s && !strcmp(s->native[0], "perf::INSTRUCTIONS"), "fallback");
    preset_src_list_free(&l);

    /* Postfix compilation: the steps preset_compute runs. */
    struct preset_def def;
    memset(&def, 0, sizeof def);
    CHECK_RET(preset_rpn_compile("N0|N1|-|10|*|N2|/|", 3, &def, err, sizeof err), PAPI_OK);
    long long t[3] = {7, 2, 5};
    def.op = DERIVE_POSTFIX;
    def.nterms = 3;
    CHECK_EQ_LL(preset_compute(&def, t), 10); /* (7-2)*10/5 */
    t[2] = 0;
    CHECK_EQ_LL(preset_compute(&def, t), 0); /* division by zero yields 0 */
}

struct bad_case {
    const char *text;
    int line;
    const char *why;
};

static const struct bad_case bad[] = {
    {"CPU,a\nPRESET,PAPI_NOPE,NOT_DERIVED,X\n", 2, "unknown preset name"},
    {"CPU,a\n# c\nPRESET,PAPI_TOT_CYC,DERIVED_MUL,X,Y\n", 3, "unknown derivation"},
    {"CPU,a\nPRESET,PAPI_TOT_CYC,DERIVED_POSTFIX,N0|+|,X\n", 2, "lacks two operands"},
    {"CPU,a\nPRESET,PAPI_TOT_CYC,DERIVED_POSTFIX,N0|N1|,X,Y\n", 2, "leaves 2 values"},
    {"CPU,a\nPRESET,PAPI_TOT_CYC,DERIVED_POSTFIX,N0|N2|+|,X,Y\n", 2, "not listed"},
    {"CPU,a\nPRESET,PAPI_TOT_CYC,DERIVED_POSTFIX,N0|%|,X\n", 2, "unknown postfix token"},
    {"CPU,a\nPRESET,PAPI_TOT_CYC,DERIVED_POSTFIX,Nx|,X\n", 2, "bad postfix operand"},
    {"CPU,a\nPRESET,PAPI_TOT_CYC,DERIVED_POSTFIX,,X\n", 2, "empty postfix"},
    {"CPU,a\nPRESET,PAPI_TOT_CYC,DERIVED_POSTFIX,|||,X\n", 2, "no operand"},
    {"CPU,a\nPRESET,PAPI_TOT_CYC,DERIVED_POSTFIX,N0|99999999999|*|,X\n", 2, "too large"},
    {"CPU,a\nPRESET,PAPI_TOT_CYC,DERIVED_ADD,A,B,C,D,E,F,G,H,I,J,K,L,M\n", 2, "too many native"},
    {"CPU,a\nPRESET,PAPI_TOT_CYC,NOT_DERIVED,A,B\n", 2, "exactly one"},
    {"CPU,a\nPRESET,PAPI_TOT_CYC,DERIVED_ADD,A\n", 2, "two or more"},
    {"CPU,a\nPRESET,PAPI_TOT_CYC,DERIVED_SUB,A,,B\n", 2, "bad native event name"},
    {"CPU,a\nPRESET,PAPI_TOT_CYC,NOT_DERIVED,has space\n", 2, "bad native event name"},
    {"CPU,a\nPRESET,PAPI_TOT_CYC,NOT_DERIVED\n", 2, "needs a name"},
    {"PRESET,PAPI_TOT_CYC,NOT_DERIVED,X\n", 1, "before any CPU"},
    {"CPU,a\nEVENT,PAPI_TOT_CYC,NOT_DERIVED,X\n", 2, "unknown line type"},
    {"CPU\n", 1, "CPU line must be"},
    {"CPU,a\nPRESET,PAPI_TOT_CYC,NOT_DERIVED,\"X\n", 2, "unbalanced quotes"},
    /* Syntax is checked in every table, not only the one selected. */
    {"CPU,other\nPRESET,PAPI_TOT_CYC,DERIVED_POSTFIX,N0|*|,X\nCPU,a\n", 2, "lacks two operands"},
};

static void rejects(void)
{
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct preset_src_list l;
        char err[512] = "", want[32];
        int r = parse(bad[i].text, "a", &l, err);
        snprintf(want, sizeof want, "t.csv:%d: ", bad[i].line);
        CHECK(r == PAPI_EINVAL, "case %zu: returned %d", i, r);
        CHECK(strstr(err, want) && strstr(err, bad[i].why), "case %zu: message '%s' lacks '%s' / '%s'",
              i, err, want, bad[i].why);
        CHECK(l.count == 0 && l.v == NULL, "case %zu: a rejected text produced definitions", i);
        printf("rejected %2zu: %s\n", i, err);
    }
}

/* A file naming a native event libpfm4 does not know: rejected as a whole. */
static void rejects_bad_native_file(void)
{
    char path[] = "/tmp/preset_parser_check_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0, "mkstemp");
    if (fd < 0)
        return;
    const char *text = "CPU,generic\n"
                       "PRESET,PAPI_TOT_INS,NOT_DERIVED,perf::PAGE-FAULTS\n"
                       "PRESET,PAPI_TOT_CYC,NOT_DERIVED,perf::NO_SUCH_EVENT_ANYWHERE\n";
    CHECK(write(fd, text, strlen(text)) == (ssize_t)strlen(text), "write");
    close(fd);
    setenv("PAPI_CSV_EVENT_FILE", path, 1);
    init_or_die();
    PAPI_event_info_t info;
    char want[128];
    snprintf(want, sizeof want, "%s:3: ", path);
    CHECK_RET(PAPI_get_event_info(PAPI_TOT_INS, &info), PAPI_OK);
    CHECK(info.count == 0, "the good line of a rejected file was applied");
    CHECK(strstr(info.note, want) && strstr(info.note, "NO_SUCH_EVENT_ANYWHERE"), "note '%s'",
          info.note);
    printf("bad native file: %s\n", info.note);
    PAPI_shutdown();
    unsetenv("PAPI_CSV_EVENT_FILE");
    unlink(path);
}

int main(void)
{
    accepts();
    rejects();
    rejects_bad_native_file();
    return test_done("preset_parser_check");
}
