/* preset_tables.h: which native events each preset stands for on this machine.
 * Tables are loaded on first use: PAPI_CSV_EVENT_FILE (or the 3.x name
 * PAPI_PERFMON_EVENT_FILE) if set, else the built-in table for the detected CPU.
 *
 * The pieces: preset_csv_parser.c reads the papi_events.csv format into preset_src
 * records, preset_rpn.c compiles postfix formulas, preset_tables.c resolves natives,
 * decides availability and holds the table in force, preset_encode.c is the public
 * PAPI_encode_events / PAPI_set_event_info. */
#ifndef PRESET_TABLES_H
#define PRESET_TABLES_H
#include <stddef.h>

#include "events.h"

/* The definition in force for preset index idx, or NULL when the preset is not
 * available here (no definition, or a native event that does not encode or open). */
PAPI_INTERNAL const struct preset_def *preset_tables_get(int idx);
/* Whether the table in force defines preset idx with natives that all encode on this
 * machine (or the recorded one), whether or not they open here. */
PAPI_INTERNAL int preset_tables_defined(int idx);
/* Why preset idx is not available, for PAPI_get_event_info's note and papi_avail. */
PAPI_INTERNAL const char *preset_tables_unavailable_reason(int idx);
/* PAPI_ENOEVNT with "preset NAME is not available on this machine: <the whole reason>" as
 * the thread's detail (PAPI_strerror_detail): where a note cut to PAPI_HUGE_STR_LEN in
 * PAPI_get_event_info sends its reader. */
PAPI_INTERNAL int preset_unavailable_error(int code, const char *name);
/* The end of a PAPI_event_info_t note that holds only the first PAPI_HUGE_STR_LEN - 1
 * bytes of its reason. */
#define PAPI_NOTE_CUT_MARK \
    " [cut: PAPI_query_event() fails with it whole in PAPI_strerror_detail()]"
PAPI_INTERNAL const char *preset_catalog_name(int idx);
/* The catalog index of a preset name ("PAPI_TOT_INS"), -1 when none has it. */
PAPI_INTERNAL int preset_catalog_index(const char *name);

/* Read a preset file whole (NUL-terminated): a regular file only, opened without
 * blocking (a FIFO or device named by a variable would block the first preset lookup
 * forever, with the table lock held), checked with fstat, at most 64 MiB. NULL with
 * "path: why" in err and errno set (EINVAL: a file we refuse). */
PAPI_INTERNAL char *preset_read_file(const char *path, size_t *len, char *err, size_t errlen);

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

/* Compile postfix into def->steps (and copy it to def->postfix); nterms bounds N<i>. */
PAPI_INTERNAL int preset_rpn_compile(const char *postfix, int nterms, struct preset_def *def,
                                     char *err, size_t errlen);

/* Resolve a preset_src into a definition: natives encoded through libpfm4 (a name
 * without "pmu::" is qualified with pmu when pmu is not NULL), formula compiled. */
PAPI_INTERNAL int preset_build_def(const struct preset_src *s, const char *pmu,
                                   struct preset_def *def, char *err, size_t errlen);

/* Replace definitions in the table in force, all or nothing. defs[i] (NULL = leave
 * alone) is taken over by the table. Refuses with PAPI_EPERM when a preset is already
 * defined and replace is 0, PAPI_EISRUN when a preset is in a running event set. */
PAPI_INTERNAL int preset_tables_install(struct preset_def *const *defs, int replace,
                                        const char *origin);
/* The CPU whose tables are used ("skx", "arm_ac57", "amd64_fam1ah_zen5"), or NULL: the
 * preset component's answer, asked again after each PAPI_shutdown. */
PAPI_INTERNAL const char *preset_detected_cpu(void);
/* The built-in papi_events.csv, generated into the build tree from presets/. */
extern const char preset_builtin_csv[] PAPI_INTERNAL;
extern const size_t preset_builtin_csv_len PAPI_INTERNAL;
#endif
