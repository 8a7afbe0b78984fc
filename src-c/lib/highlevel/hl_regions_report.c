/* hl_regions_report.c: the region report, one JSON file per process,
 * <PAPI_OUTPUT_DIRECTORY or .>/papi_hl_output/rank_XXXXXX.json (as PAPI 7 names it), and
 * the PAPI_REPORT=1 summary on stdout. The rank comes from papi_hl_set_rank (the MPI
 * wrapper library calls it), else from the launcher's environment, else the process id
 * names the file and "rank" is null. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hl_regions.h"
#include "papi_hl_rank.h"

static int set_rank = -1;

int papi_hl_set_rank(int rank)
{
    if (rank < 0)
        return papi_error(PAPI_EINVAL, "papi_hl_set_rank: rank %d is negative", rank);
    set_rank = rank;
    return PAPI_OK;
}

/* The rank and where it came from; -1 when unknown. */
static int find_rank(const char **source)
{
    static const char *const vars[] = {"PMI_RANK", "OMPI_COMM_WORLD_RANK", "PMIX_RANK",
                                       "SLURM_PROCID", "MPI_LOCALRANKID"};
    if (set_rank >= 0) {
        *source = "MPI";
        return set_rank;
    }
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++) {
        const char *v = getenv(vars[i]);
        char *end;
        if (!v || !*v)
            continue;
        long r = strtol(v, &end, 10);
        if (*end == '\0' && r >= 0 && r < 1000000000L) {
            *source = vars[i];
            return (int)r;
        }
    }
    *source = NULL;
    return -1;
}

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", f);
        else if (*p < 0x20)
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

static void write_skipped(FILE *f)
{
    const char *p = g_hlr.skipped;
    int first = 1;
    fputs("  \"skipped_events\": [", f);
    while (*p) {
        const char *nl = strchr(p, '\n');
        const char *colon = strstr(p, ": ");
        if (!nl || !colon || colon > nl)
            break;
        char name[PAPI_MAX_STR_LEN], why[PAPI_HUGE_STR_LEN];
        snprintf(name, sizeof name, "%.*s", (int)(colon - p), p);
        snprintf(why, sizeof why, "%.*s", (int)(nl - colon - 2), colon + 2);
        fputs(first ? "\n    {\"name\": " : ",\n    {\"name\": ", f);
        json_string(f, name);
        fputs(", \"reason\": ", f);
        json_string(f, why);
        fputc('}', f);
        first = 0;
        p = nl + 1;
    }
    fputs(first ? "],\n" : "\n  ],\n", f);
}

static void write_region(FILE *f, const struct hlr_thread *t, int r)
{
    const struct hlr_region *g = &t->region[r];
    fputs("        {\"name\": ", f);
    json_string(f, g->name);
    fputs(", \"parent\": ", f);
    if (g->parent >= 0)
        json_string(f, t->region[g->parent].name);
    else
        fputs("null", f);
    fprintf(f, ", \"region_count\": %lld, \"open\": %s, \"real_time_nsec\": %lld, "
               "\"proc_time_nsec\": %lld, \"events\": {",
            g->count, g->depth > 0 ? "true" : "false", g->real_ns, g->proc_ns);
    for (int i = 0; i < g_hlr.nevents; i++) {
        if (i)
            fputs(", ", f);
        json_string(f, g_hlr.name[i]);
        fprintf(f, ": %lld", g->value[i]);
    }
    fputs("}}", f);
}

static void write_json(FILE *f, int rank, const char *rank_source)
{
    fputs("{\n  \"papi_version\": \"7.0.0\",\n", f);
    if (rank >= 0)
        fprintf(f, "  \"rank\": %d,\n  \"rank_source\": \"%s\",\n", rank, rank_source);
    else
        fputs("  \"rank\": null,\n  \"rank_source\": null,\n", f);
    fprintf(f, "  \"pid\": %ld,\n  \"event_source\": ", (long)getpid());
    json_string(f, g_hlr.source ? g_hlr.source : "none");
    fputs(",\n  \"note\": ", f);
    json_string(f, g_hlr.note);
    fputs(",\n  \"events\": [", f);
    for (int i = 0; i < g_hlr.nevents; i++) {
        if (i)
            fputs(", ", f);
        json_string(f, g_hlr.name[i]);
    }
    fputs("],\n", f);
    write_skipped(f);
    fputs("  \"threads\": [", f);
    int first = 1;
    for (const struct hlr_thread *t = g_hlr.threads; t; t = t->next) {
        if (t->nregions == 0)
            continue;
        fprintf(f, "%s\n    {\"id\": %lu, \"regions\": [\n", first ? "" : ",", t->id);
        for (int r = 0; r < t->nregions; r++) {
            write_region(f, t, r);
            fputs(r + 1 < t->nregions ? ",\n" : "\n", f);
        }
        fputs("    ]}", f);
        first = 0;
    }
    fputs(first ? "]\n}\n" : "\n  ]\n}\n", f);
}

static void write_summary(const char *path, int rank)
{
    printf("PAPI high-level report%s", rank >= 0 ? "" : "\n");
    if (rank >= 0)
        printf(" (rank %d)\n", rank);
    if (g_hlr.note[0])
        printf("  note: %s\n", g_hlr.note);
    for (const struct hlr_thread *t = g_hlr.threads; t; t = t->next)
        for (int r = 0; r < t->nregions; r++) {
            const struct hlr_region *g = &t->region[r];
            printf("  thread %lu region %s: count %lld, real %.6f s, proc %.6f s", t->id, g->name,
                   g->count, (double)g->real_ns * 1e-9, (double)g->proc_ns * 1e-9);
            for (int i = 0; i < g_hlr.nevents; i++)
                printf(", %s %lld", g_hlr.name[i], g->value[i]);
            putchar('\n');
        }
    printf("  written to %s\n", path);
    fflush(stdout);
}

static int make_dir(const char *path)
{
    if (mkdir(path, 0755) == 0 || errno == EEXIST)
        return PAPI_OK;
    return papi_error(PAPI_ESYS, "cannot create the report directory %s: %s", path,
                      strerror(errno));
}

int hlr_write_report(int summary)
{
    char dir[PAPI_HUGE_STR_LEN], path[PAPI_HUGE_STR_LEN + 64];
    const char *base = getenv("PAPI_OUTPUT_DIRECTORY");
    const char *rank_source;
    int ret;
    pthread_mutex_lock(&g_hlr_lock);
    int any = 0;
    for (const struct hlr_thread *t = g_hlr.threads; t; t = t->next)
        any |= t->nregions > 0;
    if (!any) {
        pthread_mutex_unlock(&g_hlr_lock);
        return PAPI_OK;
    }
    int rank = find_rank(&rank_source);
    if (base && *base) {
        ret = make_dir(base);
        if (ret != PAPI_OK)
            goto out;
    }
    snprintf(dir, sizeof dir, "%s/papi_hl_output", base && *base ? base : ".");
    ret = make_dir(dir);
    if (ret != PAPI_OK)
        goto out;
    snprintf(path, sizeof path, "%s/rank_%06d.json", dir, rank >= 0 ? rank : (int)getpid());
    FILE *f = fopen(path, "w");
    if (!f) {
        ret = papi_error(PAPI_ESYS, "cannot write the region report %s: %s", path, strerror(errno));
        goto out;
    }
    write_json(f, rank, rank_source);
    if (fclose(f) != 0) {
        ret = papi_error(PAPI_ESYS, "writing the region report %s failed: %s", path,
                         strerror(errno));
        goto out;
    }
    if (summary)
        write_summary(path, rank);
    ret = PAPI_OK;
out:
    if (ret != PAPI_OK)
        fprintf(stderr, "PAPI: %s\n", papi_last_error_detail());
    pthread_mutex_unlock(&g_hlr_lock);
    return ret;
}

int papi_hl_write_report(void)
{
    return hlr_write_report(0);
}
