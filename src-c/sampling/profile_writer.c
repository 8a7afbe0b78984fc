/* profile_writer.c: the sampled site's fields as every producer writes them
 * (profile_writer.h, schema/profile.schema.json's $defs). */
#include "profile_writer.h"

#include <stdlib.h>
#include <string.h>

#include "json_writer.h"

#define METRIC_FIELDS (3 + 2 * 9) /* name, unit, formula, then (event, place) per event */

void profile_frame_write(struct jw *w, const struct profile_frame *f)
{
    jw_obj_begin(w, NULL);
    jw_str(w, "name", f->name);
    jw_str(w, "module", f->module);
    if (f->file) {
        jw_str(w, "file", f->file);
        jw_int(w, "line", f->line);
    }
    jw_obj_end(w);
}

void profile_function_fields(struct jw *w, const char *function, const char *region,
                             unsigned long long samples)
{
    jw_str(w, "function", function);
    if (region)
        jw_str(w, "region", region);
    else
        jw_null(w, "region");
    jw_uint(w, "samples", samples);
}

void profile_function_write(struct jw *w, const char *function, const char *region,
                            unsigned long long samples)
{
    jw_obj_begin(w, NULL);
    profile_function_fields(w, function, region, samples);
    jw_obj_end(w);
}

void profile_site_fields(struct jw *w, const char *function, const char *file, int line)
{
    jw_str(w, "function", function);
    jw_str(w, "file", file);
    jw_int(w, "line", line);
}

void profile_counts_write(struct jw *w, const char *key, const uint64_t *counts, int n)
{
    jw_arr_begin(w, key);
    for (int i = 0; i < n; i++)
        jw_uint(w, NULL, counts[i]);
    jw_arr_end(w);
}

/* One metric line's fields, split at its tabs in place: their number, or 0 when the line
 * is not papi_run's (fewer than one term, a term without its place, a place past nw). */
static int metric_fields(char *line, char **f, int nw)
{
    int n = 0;
    for (char *p = line; n < METRIC_FIELDS; n++) {
        f[n] = p;
        p = strchr(p, '\t');
        if (!p) {
            n++;
            break;
        }
        *p++ = 0;
    }
    if (n < 5 || (n - 3) % 2)
        return 0;
    for (int k = 3; k < n; k += 2)
        if (atoi(f[k + 1]) < 0 || atoi(f[k + 1]) >= nw)
            return 0;
    return n;
}

void profile_metrics_write(struct jw *w, const char *text, int nw)
{
    char *copy = strdup(text), *save = NULL;
    jw_arr_begin(w, "metrics");
    for (char *line = copy ? strtok_r(copy, "\n", &save) : NULL; line;
         line = strtok_r(NULL, "\n", &save)) {
        char *f[METRIC_FIELDS];
        int n = metric_fields(line, f, nw);
        if (n == 0)
            continue;
        jw_obj_begin(w, NULL);
        jw_str(w, "name", f[0]);
        jw_str(w, "unit", f[1]);
        jw_str(w, "formula", f[2]);
        jw_obj_begin(w, "terms");
        for (int k = 3; k < n; k += 2)
            jw_int(w, f[k], atoi(f[k + 1]));
        jw_obj_end(w);
        jw_obj_end(w);
    }
    jw_arr_end(w);
    free(copy);
}
