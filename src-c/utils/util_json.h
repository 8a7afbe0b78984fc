/* util_json.h: a small streaming JSON writer for the utilities' --json output.
 * Keys are given for members of an object and NULL for elements of an array. */
#ifndef UTIL_JSON_H
#define UTIL_JSON_H

#include <stdio.h>

#define JW_MAX_DEPTH 16

struct jw {
    FILE *f;
    int depth;
    int count[JW_MAX_DEPTH]; /* members written at each depth (for commas) */
};

void jw_init(struct jw *w, FILE *f);
void jw_obj_begin(struct jw *w, const char *key);
void jw_obj_end(struct jw *w);
void jw_arr_begin(struct jw *w, const char *key);
void jw_arr_end(struct jw *w);
void jw_str(struct jw *w, const char *key, const char *value);
void jw_int(struct jw *w, const char *key, long long value);
void jw_hex(struct jw *w, const char *key, unsigned long long value); /* as "0x..." string */
void jw_double(struct jw *w, const char *key, double value);
void jw_bool(struct jw *w, const char *key, int value);
void jw_null(struct jw *w, const char *key);
/* Ends the document with a newline. */
void jw_finish(struct jw *w);

#endif
