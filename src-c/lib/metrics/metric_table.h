/* metric_table.h: the metric table in force. papi_metrics.csv's format: comment lines,
 * CPU lines (consecutive ones are synonyms, matched as the preset table's are),
 *   METRIC,<name>,<unit>,<formula>,<description>
 *   GROUP,<name>,<metric>[,<metric>...][,<description>]  (a last field with a blank)
 *   OR,<name>,<formula>   another formula for the metric just defined, tried in order
 *                         when the ones before it name events or PMUs this machine does
 *                         not have (one CPU table for parts whose kernel drivers name the
 *                         counters differently)
 * The "generic" table applies to every CPU; the table named after this CPU adds to it
 * and replaces its metrics of the same name. Loaded on first use from PAPI_METRICS_FILE
 * if set, else from the built-in file; every line of either is checked. */
#ifndef METRIC_TABLE_H
#define METRIC_TABLE_H
#include <stddef.h>

#include "metric_formula.h"
#include "papi_metrics.h"
#include "papi_sdk.h"

#define METRIC_MAX_GROUP PAPIM_MAX_GROUP
#define METRIC_MAX_ALTS  3 /* OR lines of one metric */

/* One METRIC line (and its OR lines): what the line says, in strings of their own
 * length (a line costs what it holds, a few hundred bytes); what resolution finds on
 * this machine is allocated when the metric is first used. */
struct metric {
    char *name, *unit, *description;
    const char *table;        /* "generic", or the table's CPU name (struct metric_table.cpu) */
    const char *formula_text; /* the formula in force: first_text or an alt_text */
    char *first_text, *alt_text[METRIC_MAX_ALTS]; /* the METRIC line's and OR lines' */
    int line, nalts;
    struct metric_state *r; /* NULL until metric_resolve */
};

/* A metric resolved on this machine. */
struct metric_state {
    struct metric_formula f; /* formula_text compiled */
    int resolved, countable;
    /* Each term's events (a pattern gives several, summed). */
    int term_first[METRIC_MAX_TERMS], term_count[METRIC_MAX_TERMS];
    int nevents, ecap;
    char **events; /* nevents names, as many as the machine's PMUs give */
    /* What one count of each event is worth in base units (bytes, Joules): the kernel's
     * sysfs .scale times the unit's size (MiB: 1048576), 1 for plain counts. */
    double *factor;
    char reason[PAPI_HUGE_STR_LEN];
};

struct metric_group {
    char *name; /* one allocation: the name, the members' names, the description */
    int n;
    const char *members[METRIC_MAX_GROUP];
    const char *description; /* "" when the line gives none */
};

struct metric_table {
    int count, cap, ngroups, gcap;
    char *cpu; /* the CPU table's name its metrics point at */
    struct metric *v;
    struct metric_group *g;
};

/* Parse text (origin names it in messages) for the tables named cpu (NULL: none) over
 * "generic" into out; PAPI_OK, or PAPI_EINVAL / PAPI_ENOMEM with "origin:line: why". */
PAPI_INTERNAL int metric_table_parse(const char *text, size_t len, const char *origin,
                                     const char *cpu, struct metric_table *out, char *err,
                                     size_t errlen);
PAPI_INTERNAL void metric_table_free(struct metric_table *t);

/* The table in force (loaded, and the metric resolved, on first use), all under
 * metric_table_lock()/unlock(); NULL with the reason recorded (papi_error) when it
 * cannot be read. */
PAPI_INTERNAL void metric_table_lock(void);
PAPI_INTERNAL void metric_table_unlock(void);
PAPI_INTERNAL struct metric_table *metric_table_get(void);
PAPI_INTERNAL struct metric *metric_find(struct metric_table *t, const char *name);
PAPI_INTERNAL const struct metric_group *metric_group_find(const struct metric_table *t,
                                                           const char *name);
/* m->r filled (once); PAPI_OK, or PAPI_ENOMEM with the reason recorded. */
PAPI_INTERNAL int metric_resolve(struct metric *m);
/* The size of unit in base units (MiB: 1048576 bytes, Joules: 1), the kernel's units of
 * sysfs events; 1 for a unit it does not name (the count is then taken as scaled). */
PAPI_INTERNAL double metric_unit_size(const char *unit);

/* A metric made ready for evaluation later, without the library (at exit, after a
 * PAPI_shutdown): its formula and, per term, the indices of its events in a fixed list of
 * counted event names (the region API's). */
struct metric_plan {
    char name[PAPI_MIN_STR_LEN], unit[PAPI_MIN_STR_LEN];
    struct metric_formula f;
    int first[METRIC_MAX_TERMS], count[METRIC_MAX_TERMS]; /* term t: idx[first .. +count) */
    int nidx;
    int idx[PAPIM_MAX_EVENTS];
    double factor[PAPIM_MAX_EVENTS]; /* metric.factor of each */
};
/* Plan metric name over the n events in names; PAPI_OK, PAPI_ENOEVNT (no such metric),
 * PAPI_EINVAL (an event it needs is not among names: the reason says which). */
PAPI_INTERNAL int metric_plan_make(const char *name, int n, const char (*names)[PAPI_MAX_STR_LEN],
                                   struct metric_plan *p);
/* The metric from the values of those n events and the seconds they were counted over. */
PAPI_INTERNAL int metric_plan_eval(const struct metric_plan *p, const long long *values,
                                   double seconds, double *result, char *err, size_t errlen);

/* The built-in papi_metrics.csv, generated into the build tree from presets/. */
extern const char metric_builtin_csv[] PAPI_INTERNAL;
extern const size_t metric_builtin_csv_len PAPI_INTERNAL;

#endif
