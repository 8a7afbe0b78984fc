/* profile_writer.c: the sampled site's fields as every producer writes them
 * (profile_writer.h, schema/profile.schema.json's $defs). */
#include "profile_writer.h"

#include "json_writer.h"

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

void profile_function_write(struct jw *w, const char *function, const char *region,
                            unsigned long long samples)
{
    jw_obj_begin(w, NULL);
    jw_str(w, "function", function);
    if (region)
        jw_str(w, "region", region);
    else
        jw_null(w, "region");
    jw_uint(w, "samples", samples);
    jw_obj_end(w);
}

void profile_counts_write(struct jw *w, const char *key, const uint64_t *counts, int n)
{
    jw_arr_begin(w, key);
    for (int i = 0; i < n; i++)
        jw_uint(w, NULL, counts[i]);
    jw_arr_end(w);
}
