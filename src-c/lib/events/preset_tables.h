/* preset_tables.h: which native events each preset stands for on this machine.
 * Tables are loaded on first use: PAPI_CSV_EVENT_FILE (or the 3.x name
 * PAPI_PERFMON_EVENT_FILE) if set, else the built-in table for the detected CPU.
 *
 * The pieces: preset_csv_parser.c reads the papi_events.csv format into preset_src
 * records, preset_rpn.c compiles postfix formulas, preset_tables.c resolves natives,
 * decides availability and holds the table in force, preset_encode.c is the public
 * PAPI_encode_events / PAPI_set_event_info. Each piece declares its calls in its own
 * header (included here for the table's users); the tables' own calls are below. */
#ifndef PRESET_TABLES_H
#define PRESET_TABLES_H
#include <stddef.h>

#include "preset_catalog.h"
#include "preset_csv_parser.h"
#include "preset_def.h"
#include "preset_rpn.h"

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

/* Read a preset file whole (NUL-terminated): a regular file only, opened without
 * blocking (a FIFO or device named by a variable would block the first preset lookup
 * forever, with the table lock held), checked with fstat, at most 64 MiB. NULL with
 * "path: why" in err and errno set (EINVAL: a file we refuse). */
PAPI_INTERNAL char *preset_read_file(const char *path, size_t *len, char *err, size_t errlen);

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
/* How many presets the table in force defines (0 until it is loaded on first use). */
PAPI_INTERNAL int preset_defined_count(void);
/* The event-set layer installs how to ask "which running set counts this code?" (the
 * handle, or -1) when it creates a set: a preset is not redefined under a running set.
 * A query, not a call up: until a set exists, no set runs. */
PAPI_INTERNAL void preset_set_running_query(int (*fn)(int code));
#endif
