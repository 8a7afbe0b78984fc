/* preset_table_check: every PRESET line of every CPU table of presets/papi_events.csv
 * parses with the library's own parser and every native event encodes through libpfm4
 * with LIBPFM_ENCODE_INACTIVE=1 and a PMU-qualified name, whatever CPU this is. PMUs
 * this libpfm4 build does not contain (ARM tables on an x86 build) are checked for
 * syntax only and reported as such. Tables written on the kernel's sysfs route (CPUs
 * newer than libpfm4) are checked against a recorded machine's format/ files instead:
 * every field of every native must exist on that PMU and its value fit its bits.
 * Prints the coverage table (CPU x presets).
 * Usage: preset_table_check <papi_events.csv> [<table>=<recorded machine dir>]... */
#include <linux/perf_event.h>
#include <perfmon/pfmlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pfm_perf_encode.h"
#include "preset_tables.h"
#include "sysfs_encode.h"
#include "sysfs_pmus.h"

#define MAX_CPUS 128

static int pmu_known(const char *name)
{
    for (int p = 0; p < PFM_PMU_MAX; p++) {
        pfm_pmu_info_t pi;
        memset(&pi, 0, sizeof pi);
        pi.size = sizeof pi;
        if (pfm_get_pmu_info((pfm_pmu_t)p, &pi) == PFM_SUCCESS && strcmp(pi.name, name) == 0)
            return 1;
    }
    return 0;
}

/* The recorded machine given for table cpu on the command line, or NULL. */
static const char *machine_for(const char *cpu, int argc, char **argv)
{
    size_t n = strlen(cpu);
    for (int i = 2; i < argc; i++)
        if (!strncmp(argv[i], cpu, n) && argv[i][n] == '=')
            return argv[i] + n + 1;
    return NULL;
}

/* native against the format/ and events/ files of the recorded machine under root. */
static int sysfs_encodes(const char *root, const char *native, char *why, size_t len)
{
    static char current[4096];
    if (strcmp(current, root) != 0) {
        snprintf(current, sizeof current, "%s", root);
        setenv("PAPI_FSROOT", root, 1);
        sysfs_pmus_reset();
    }
    struct sysfs_encoding enc;
    char r[512];
    if (sysfs_encode(native, &enc, r, sizeof r) != 0) {
        snprintf(why, len, "%s: %s (recorded machine %s)", native, r, root);
        return 0;
    }
    return 1;
}

static int encodes(const char *cpu, const char *native, char *why, size_t len)
{
    char full[512];
    int n = strstr(native, "::") ? snprintf(full, sizeof full, "%s", native)
                                 : snprintf(full, sizeof full, "%s::%s", cpu, native);
    if (n < 0 || (size_t)n >= sizeof full) {
        snprintf(why, len, "name too long");
        return 0;
    }
    struct perf_event_attr attr;
    memset(&attr, 0, sizeof attr);
    int r = pfm_perf_encode(full, PFM_PLM3, &attr, sizeof attr, NULL, NULL);
    if (r != PFM_SUCCESS) {
        snprintf(why, len, "%s: %s", full, pfm_strerror(r));
        return 0;
    }
    return 1;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s papi_events.csv [table=recorded-machine-dir]...\n", argv[0]);
        return 2;
    }
    setenv("LIBPFM_ENCODE_INACTIVE", "1", 1);
    if (pfm_initialize() != PFM_SUCCESS) {
        printf("SKIPPED: libpfm4 does not initialise\n");
        return 77;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    static char text[1 << 20];
    size_t len = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[len] = '\0';

    /* Every distinct CPU name, in file order. */
    static char cpus[MAX_CPUS][64];
    int ncpus = 0;
    for (char *p = text; (p = strstr(p, "CPU,")) != NULL; p += 4) {
        if (p != text && p[-1] != '\n')
            continue;
        char name[64];
        size_t n = strcspn(p + 4, "\r\n");
        if (n >= sizeof name)
            n = sizeof name - 1;
        memcpy(name, p + 4, n);
        name[n] = '\0';
        int seen = 0;
        for (int i = 0; i < ncpus; i++)
            seen |= strcmp(cpus[i], name) == 0;
        if (!seen && ncpus < MAX_CPUS)
            snprintf(cpus[ncpus++], sizeof cpus[0], "%s", name);
    }
    int failures = 0;
    printf("| CPU (libpfm4 PMU) | presets | derived | FP_OPS | SP_OPS | DP_OPS | VEC_SP | VEC_DP | checked by |\n");
    printf("|---|---|---|---|---|---|---|---|---|\n");
    for (int c = 0; c < ncpus; c++) {
        struct preset_src_list l;
        char err[1024];
        if (preset_csv_parse(text, len, argv[1], cpus[c], NULL, &l, err, sizeof err) != PAPI_OK) {
            fprintf(stderr, "FAIL: %s\n", err);
            return 1;
        }
        const char *machine = machine_for(cpus[c], argc, argv);
        int known = machine || strcmp(cpus[c], "generic") == 0 || pmu_known(cpus[c]);
        int defined[PAPI_END_idx] = {0}, derived[PAPI_END_idx] = {0};
        for (int i = 0; i < l.count; i++) {
            const struct preset_src *s = &l.v[i];
            defined[s->idx] = 1;
            derived[s->idx] = s->op != DERIVE_NONE;
            for (int t = 0; known && t < s->nterms; t++) {
                char why[600];
                if (machine ? !sysfs_encodes(machine, s->native[t], why, sizeof why)
                            : !encodes(cpus[c], s->native[t], why, sizeof why)) {
                    fprintf(stderr, "FAIL %s:%d: %s %s: %s\n", argv[1], s->line, cpus[c],
                            preset_catalog_name(s->idx), why);
                    failures++;
                }
            }
        }
        int n = 0, nd = 0;
        for (int i = 0; i < PAPI_END_idx; i++) {
            n += defined[i];
            nd += defined[i] && derived[i];
        }
        printf("| %s | %d | %d | %s | %s | %s | %s | %s | %s |\n", cpus[c], n, nd,
               defined[PAPI_FP_OPS_idx] ? "yes" : "-", defined[PAPI_SP_OPS_idx] ? "yes" : "-",
               defined[PAPI_DP_OPS_idx] ? "yes" : "-", defined[PAPI_VEC_SP_idx] ? "yes" : "-",
               defined[PAPI_VEC_DP_idx] ? "yes" : "-",
               machine ? "sysfs format/ of a recorded machine"
               : known ? "libpfm4 encoding" : "syntax only (PMU not in this libpfm4 build)");
        if (n == 0) {
            fprintf(stderr, "FAIL: table %s defines no preset\n", cpus[c]);
            failures++;
        }
        preset_src_list_free(&l);
    }
    if (failures) {
        printf("preset_table_check: FAILED (%d)\n", failures);
        return 1;
    }
    printf("preset_table_check: PASSED (%d CPU names)\n", ncpus);
    return 0;
}
