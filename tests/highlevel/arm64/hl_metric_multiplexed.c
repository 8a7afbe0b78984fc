/* hl_metric_multiplexed (arm64 PMU lane): a PAPI_METRICS metric whose eight events need
 * more event counters than the PMU's six is counted on a multiplexed region set instead
 * of being dropped (src-c/lib/highlevel/hl_metrics_mpx.c). The metric comes from a
 * PAPI_METRICS_FILE of one metric over INST_RETIRED and seven other core events (QEMU
 * counts only INST_RETIRED; the others open and read 0). Checked while the region is
 * open: exactly one multiplexed set with the eight events, each descheduled part of the
 * time (running fraction in (0, 1)), and INST_RETIRED's scaled estimate within 3% of
 * the exact count of the same loop without multiplexing. A PAPI_hl_read of the region
 * then ended: the region file's snapshot record of that read (metrics, instances, reads,
 * read_1) carries the metric's running fraction, in (0, 1) as the set's. */
#include <glob.h>
#include <stdlib.h>
#include <string.h>

#include "papi_hl_rank.h"

#include "pmu_hw.h"

#define NEV 8

static void write_metric_file(const char *path, char names[NEV][PAPI_MAX_STR_LEN])
{
    FILE *f = fopen(path, "w");
    if (!f)
        test_skip("cannot write the metric file in /tmp");
    fprintf(f, "CPU,generic\nMETRIC,EIGHT_EVENTS,events/s,(");
    for (int i = 0; i < NEV; i++)
        fprintf(f, "%s{%s}", i ? " + " : "", names[i]);
    fprintf(f, ") / time,eight event counters\n");
    fclose(f);
}

/* The running fraction of EIGHT_EVENTS in the first read's record of the region file
 * (-1 when the file or the record is missing). */
static double read_1_fraction(void)
{
    glob_t g;
    double f = -1;
    if (glob("/tmp/hl_metric_multiplexed/papi_hl_output/*.json", 0, NULL, &g) != 0)
        return f;
    FILE *in = fopen(g.gl_pathv[0], "r");
    static char doc[1 << 20];
    size_t n = in ? fread(doc, 1, sizeof doc - 1, in) : 0;
    doc[n] = '\0';
    if (in)
        fclose(in);
    globfree(&g);
    const char *r = strstr(doc, "\"reads\"");
    r = r ? strstr(r, "\"read_1\"") : NULL;
    r = r ? strstr(r, "\"running_fraction\"") : NULL;
    r = r ? strstr(r, "\"EIGHT_EVENTS\":") : NULL;
    if (r)
        f = strtod(r + strlen("\"EIGHT_EVENTS\":"), NULL);
    return f;
}

int main(void)
{
    init_or_die();
    pmu_require_hw();
    char names[NEV][PAPI_MAX_STR_LEN];
    if (pmu_counter_events(names, NEV) < NEV)
        test_skip("fewer than 8 core PMU events known to libpfm4");
    const long n = 40000000;
    const char *ref_names[] = {"INST_RETIRED"};
    int ref = pmu_set_of(ref_names, 1);
    long long exact = 0;
    CHECK_RET(PAPI_start(ref), PAPI_OK);
    pmu_loop(n);
    CHECK_RET(PAPI_stop(ref, &exact), PAPI_OK);
    pmu_free_set(&ref);

    write_metric_file("/tmp/hl_metric_multiplexed.csv", names);
    setenv("PAPI_METRICS_FILE", "/tmp/hl_metric_multiplexed.csv", 1);
    setenv("PAPI_EVENTS", "INST_RETIRED", 1);
    setenv("PAPI_METRICS", "EIGHT_EVENTS", 1);
    setenv("PAPI_OUTPUT_DIRECTORY", "/tmp/hl_metric_multiplexed", 1);
    CHECK_RET(PAPI_hl_region_begin("eight"), PAPI_OK);
    int es = -1, nmpx = 0;
    for (int h = 0; h < 64; h++)
        if (PAPI_get_multiplex(h) > 0)
            es = h, nmpx++;
    CHECK(nmpx == 1, "%d multiplexed event sets, want 1 (the metric's fallback)", nmpx);
    if (nmpx == 1) {
        CHECK(PAPI_num_events(es) == NEV, "%d events in the region set, want %d",
              PAPI_num_events(es), NEV);
        long long before[NEV], after[NEV];
        double frac[NEV];
        int nf = NEV;
        CHECK_RET(PAPI_read(es, before), PAPI_OK);
        pmu_loop(n);
        CHECK_RET(PAPI_read(es, after), PAPI_OK);
        CHECK_RET(PAPI_get_event_running_fraction(es, frac, &nf), PAPI_OK);
        double err = exact ? (double)(after[0] - before[0] - exact) / (double)exact : 1.0;
        printf("hl_metric_multiplexed: INST_RETIRED %lld (exact %lld, %+.2f%%)\n",
               after[0] - before[0], exact, 100 * err);
        CHECK(err < 0.03 && err > -0.03, "INST_RETIRED %.2f%% off the exact count", 100 * err);
        for (int i = 0; i < nf; i++) {
            printf("hl_metric_multiplexed: %-40s running %.3f\n", names[i], frac[i]);
            CHECK(frac[i] > 0.0 && frac[i] < 1.0, "%s: running fraction %.3f", names[i], frac[i]);
        }
    }
    pmu_loop(n);
    CHECK_RET(PAPI_hl_read("eight"), PAPI_OK);
    CHECK_RET(PAPI_hl_region_end("eight"), PAPI_OK);
    CHECK_RET(papi_hl_write_report(), PAPI_OK);
    double f = read_1_fraction();
    printf("hl_metric_multiplexed: the PAPI_hl_read record's running fraction %.3f\n", f);
    CHECK(f > 0.0 && f < 1.0, "region file: read_1 of EIGHT_EVENTS has running fraction %.3f", f);
    return test_done("hl_metric_multiplexed");
}
