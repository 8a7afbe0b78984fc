/* events.h: event codes: native codes routed to their component, presets. */
#ifndef EVENTS_H
#define EVENTS_H

#include "papi_globals.h"

/* ---- event codes routed to components (events/event_codes.c) ------------------------ */
/* The component of a native code, or NULL when the code names none. */
PAPI_INTERNAL struct papi_component *event_component_of(int code);
/* Native name -> full code, asking every component in index order. */
PAPI_INTERNAL int event_native_name_to_code(const char *name, int *code);
PAPI_INTERNAL int event_native_code_to_name(int code, char *out, size_t len);
PAPI_INTERNAL int event_native_exists(int code);
/* What one count of native code is worth in a unit (the component's event_scale): PAPI_OK
 * with *scale and unit, or PAPI_ENOEVNT quietly when its counts are plain counts. */
PAPI_INTERNAL int event_native_scale(int code, double *scale, char *unit, size_t len);

/* ---- presets (preset_events.c; tables from presets/) --------------------------------- */
#define PRESET_MAX_TERMS PAPI_MAX_INFO_TERMS
enum derive_op { DERIVE_NONE = 0, DERIVE_ADD, DERIVE_SUB, DERIVE_POSTFIX, DERIVE_CMPD };
struct rpn_step { /* one token of a compiled postfix formula */
    enum { RPN_TERM, RPN_CONST, RPN_ADD, RPN_SUB, RPN_MUL, RPN_DIV } kind;
    long long value; /* term index or constant */
};
#define RPN_MAX_STEPS 64
struct preset_def {
    int nterms;
    int native_code[PRESET_MAX_TERMS];
    enum derive_op op;
    int nsteps;
    struct rpn_step steps[RPN_MAX_STEPS];
    char postfix[PAPI_2MAX_STR_LEN];
    char note[PAPI_HUGE_STR_LEN];
};
PAPI_INTERNAL int preset_name_to_code(const char *name, int *code);
PAPI_INTERNAL int preset_code_to_name(int code, char *out, size_t len);
/* The definition in force for this machine, or NULL if the preset is not available. */
PAPI_INTERNAL const struct preset_def *preset_lookup(int code);
PAPI_INTERNAL int preset_enum(int *code, int modifier);
PAPI_INTERNAL int preset_get_info(int code, PAPI_event_info_t *info);
PAPI_INTERNAL long long preset_compute(const struct preset_def *def, const long long *terms);
/* How many presets the table in force defines (0 until it is loaded on first use). */
PAPI_INTERNAL int preset_defined_count(void);
/* The event-set layer installs how to ask "which running set counts this code?" (the
 * handle, or -1) when it creates a set: a preset is not redefined under a running set.
 * A query, not a call up: until a set exists, no set runs. */
PAPI_INTERNAL void preset_set_running_query(int (*fn)(int code));

#endif
