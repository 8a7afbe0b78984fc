/* preset_csv_parser.h: the papi_events.csv format read into preset_src records
 * (preset_csv_parser.c). */
#ifndef PRESET_CSV_PARSER_H
#define PRESET_CSV_PARSER_H

#include <stddef.h>

#include "preset_def.h"

/* ---- one preset definition as written, before its natives are resolved ------------ */
#define PRESET_SRC_NAME_LEN PAPI_2MAX_STR_LEN
struct preset_src {
    int idx; /* preset index (catalog order) */
    enum derive_op op;
    int nterms;
    char postfix[PAPI_2MAX_STR_LEN];
    char native[PRESET_MAX_TERMS][PRESET_SRC_NAME_LEN];
    char note[PAPI_HUGE_STR_LEN];
    int line; /* 1-based line in its file, for error messages */
};

/* Definitions for one CPU, in file order (a later one for the same preset wins). */
struct preset_src_list {
    int count, cap;
    struct preset_src *v;
    int matched_tables; /* CPU tables whose name matched */
    int fallback_used;  /* no table named the CPU: these are the fallback's */
};
PAPI_INTERNAL void preset_src_list_free(struct preset_src_list *l);

/* Parse text in the papi_events.csv format (origin names it in messages). Every line
 * is checked for syntax; definitions of the tables named cpu (or, when no table has
 * that name, of the tables named fallback, which may be NULL) are appended to out.
 * Returns PAPI_OK, or PAPI_EINVAL / PAPI_ENOMEM with "origin:line: why" in err. */
PAPI_INTERNAL int preset_csv_parse(const char *text, size_t len, const char *origin,
                                   const char *cpu, const char *fallback,
                                   struct preset_src_list *out, char *err, size_t errlen);
/* The same for the built-in table, whose PRESET lines for other CPUs are skipped
 * unchecked: ctest's preset_table_check parses every line of it. */
PAPI_INTERNAL int preset_csv_parse_builtin(const char *text, size_t len, const char *origin,
                                           const char *cpu, const char *fallback,
                                           struct preset_src_list *out, char *err, size_t errlen);

/* Split one CSV record into fields in place (quotes "..." may hold commas, "" is a
 * quote). Returns the number of fields, or -1 when there are more than maxf or a quote
 * is not closed. Leading and trailing blanks of unquoted fields are trimmed. */
PAPI_INTERNAL int preset_csv_split(char *line, char **fields, int maxf);
/* The same for a table parser: -1 with why in msg[msglen]. */
PAPI_INTERNAL int preset_csv_fields(char *line, char **fields, int maxf, char *msg, size_t msglen);
/* A table's text past a UTF-8 byte order mark at its start (editors on Windows write one):
 * *text and *len moved over it. */
PAPI_INTERNAL void preset_csv_skip_bom(const char **text, size_t *len);
/* s as a message shows it, into dst (cap bytes, always terminated, cut at at most max
 * bytes of s): printable ASCII as it is, every other byte as \xNN, so no invisible or
 * control character reaches a message. Returns dst. */
PAPI_INTERNAL const char *preset_csv_shown(char *dst, size_t cap, const char *s, size_t max);
/* "NOT_DERIVED" ... "DERIVED_POSTFIX" (also the 3.5 spelling "DERIVED POSTFIX"). */
PAPI_INTERNAL int preset_derive_from_name(const char *name, enum derive_op *op);
PAPI_INTERNAL const char *preset_derive_name(enum derive_op op);
/* Check the term count for op, and for DERIVED_POSTFIX that the formula is present. */
PAPI_INTERNAL int preset_src_check(const struct preset_src *s, char *err, size_t errlen);

#endif
