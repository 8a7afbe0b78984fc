/* run_sample_header.c (in libpapi_run_sample.so and papi_run): the items of a process's
 * stacks block (run_sample_stacks.h) that carry what the job file's head needs, its "run"
 * and -m "metrics", written by the process (run_sample_profile.c) and read back by
 * papi_run's merge (run_sample_stacks.c), so that papi_run --merge DIR writes the head the
 * run's own merge wrote. One key per line:
 *   run_command COMMAND   papi_run's (PAPI_RUN_SAMPLE_RUN), '\' and newline as \\ and \n
 *   run_start START
 *   run_host HOST
 *   metric NAME\tUNIT\tFORMULA[\tEVENT\tPLACE]...   one line per -m metric, as
 *                           PAPI_RUN_SAMPLE_METRICS has it */
#include <stdio.h>
#include <string.h>

#include "run_sample.h"
#include "run_sample_header.h"

static const char *const keys[RS_HEADER_KEYS] = {
    [RS_RUN_COMMAND] = "run_command ", [RS_RUN_START] = "run_start ", [RS_RUN_HOST] = "run_host "};

/* s on one line: '\' and newline escaped. */
static void put_escaped(FILE *f, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] == '\\' || s[i] == '\n')
            fputs(s[i] == '\\' ? "\\\\" : "\\n", f);
        else
            fputc(s[i], f);
}

void rs_header_write(FILE *f, const char *run, const char *metrics)
{
    /* run: "START\tHOST\tCOMMAND" (the command last: it may hold tabs) */
    const char *host = run ? strchr(run, '\t') : NULL, *cmd = host ? strchr(host + 1, '\t') : NULL;
    if (cmd) {
        const char *value[RS_HEADER_KEYS] = {
            [RS_RUN_COMMAND] = cmd + 1, [RS_RUN_START] = run, [RS_RUN_HOST] = host + 1};
        size_t len[RS_HEADER_KEYS] = {[RS_RUN_COMMAND] = strlen(cmd + 1),
                                      [RS_RUN_START] = (size_t)(host - run),
                                      [RS_RUN_HOST] = (size_t)(cmd - host - 1)};
        for (int k = 0; k < RS_HEADER_KEYS; k++) {
            fputs(keys[k], f);
            put_escaped(f, value[k], len[k]);
            fputc('\n', f);
        }
    }
    for (const char *m = metrics ? metrics : ""; *m;) {
        size_t n = strcspn(m, "\n");
        if (n)
            fprintf(f, "metric %.*s\n", (int)n, m);
        m += n + (m[n] != 0);
    }
}

/* value (escaped, ends at the newline) into out, whole or cut. */
static void get_unescaped(const char *value, char *out, size_t len)
{
    size_t n = 0;
    for (const char *p = value; *p && *p != '\n' && n + 1 < len; p++)
        out[n++] = *p == '\\' && p[1] ? (*++p == 'n' ? '\n' : *p) : *p;
    out[n] = 0;
}

int rs_header_read(const char *line, struct rs_header *h)
{
    for (int k = 0; k < RS_HEADER_KEYS; k++)
        if (strncmp(line, keys[k], strlen(keys[k])) == 0) {
            get_unescaped(line + strlen(keys[k]), h->value[k], sizeof h->value[k]);
            h->has |= 1 << k;
            return 1;
        }
    if (strncmp(line, "metric ", 7) != 0)
        return 0;
    size_t n = strlen(h->metrics), len = strcspn(line + 7, "\n");
    if (n + len + 2 < sizeof h->metrics) /* (a metric that does not fit is left out whole) */
        snprintf(h->metrics + n, sizeof h->metrics - n, "%s%.*s", n ? "\n" : "", (int)len,
                 line + 7);
    return 1;
}
