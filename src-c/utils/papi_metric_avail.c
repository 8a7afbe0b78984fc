/* papi_metric_avail: the metrics this machine's table defines (papi_metrics(3)): unit,
 * formula, the events each resolved to, and why one cannot be computed here; and its
 * groups (name, metrics, description). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "papi_metrics.h"
#include "util_common.h"
#include "util_options.h"

static const char usage[] =
    "Usage: papi_metric_avail [options]\n"
    "List the named metrics (IPC, DP_FLOPS, MEM_BW, TOPDOWN_*, CPU_UTILIZATION, ...) of\n"
    "this machine's table: unit, whether every event resolves here and whether it can be\n"
    "counted here, with the reason when not; then the groups (FLOPS_DP, MEM, ...) that\n"
    "name several metrics at once, with their metrics and description. Under PAPI_FSROOT the "
    "recorded machine's\n"
    "events are resolved (its PMUs), while only this machine's kernel counts. An event\n"
    "whose counts the kernel scales (sysfs .scale/.unit: uncore_imc cas_count_read in\n"
    "MiB) is shown with its unit; formulas take it in base units (bytes, Joules).\n\n"
    "Options:\n"
    "  -m NAME      one metric or group, whole: formula, events, description, reason\n"
    "  --json       print the same information as one JSON document\n"
    "  -h, --help   print this help\n"
    "  --version    print the papi-compat release and the PAPI API level\n";

static const char *yes_no(int v)
{
    return v ? "yes" : "no";
}

/* The unit the kernel scales the event's counts to (sysfs .scale/.unit), or "". */
static void event_units(const char *name, char *out, size_t len)
{
    int code;
    PAPI_event_info_t info;
    out[0] = '\0';
    if (PAPI_event_name_to_code(name, &code) == PAPI_OK &&
        PAPI_get_event_info(code, &info) == PAPI_OK)
        snprintf(out, len, "%s", info.units);
}

static void print_one(const PAPIM_metric_info_t *m)
{
    printf("%s (%s)\n", m->name, m->unit);
    util_print_hanging(stdout, "  Description:  ", "                ", m->description, 80);
    printf("  Formula:      %s%s\n", m->formula, m->uses_time ? "   (time: seconds counted)" : "");
    printf("  Table:        %s\n", m->table);
    printf("  Resolves:     %s\n  Countable:    %s\n", yes_no(m->resolved), yes_no(m->countable));
    for (int i = 0; i < m->num_events; i++) {
        char units[PAPI_MIN_STR_LEN];
        printf("  Event %2d:     %s\n", i + 1, m->event_names[i]);
        event_units(m->event_names[i], units, sizeof units);
        if (units[0])
            printf("                (counts scaled to %s by the kernel: taken in base units)\n",
                   units);
    }
    if (m->reason[0])
        util_print_hanging(stdout, "  Why not:      ", "                ", m->reason, 80);
}

static void json_one(struct jw *w, const PAPIM_metric_info_t *m)
{
    jw_obj_begin(w, NULL);
    jw_str(w, "name", m->name);
    jw_str(w, "unit", m->unit);
    jw_str(w, "formula", m->formula);
    jw_str(w, "description", m->description);
    jw_str(w, "table", m->table);
    jw_bool(w, "resolved", m->resolved);
    jw_bool(w, "countable", m->countable);
    jw_arr_begin(w, "events");
    for (int i = 0; i < m->num_events; i++)
        jw_str(w, NULL, m->event_names[i]);
    jw_arr_end(w);
    jw_arr_begin(w, "event_units"); /* the kernel's unit of each event's scaled count, or "" */
    for (int i = 0; i < m->num_events; i++) {
        char units[PAPI_MIN_STR_LEN];
        event_units(m->event_names[i], units, sizeof units);
        jw_str(w, NULL, units);
    }
    jw_arr_end(w);
    jw_str(w, "reason", m->reason);
    jw_obj_end(w);
}

static int fail(const char *what, int code)
{
    char why[PAPI_HUGE_STR_LEN];
    util_error_detail(code, why, sizeof why);
    fprintf(stderr, "papi_metric_avail: %s: %s\n", what, why);
    return code == PAPI_ENOEVNT ? 2 : 1;
}

/* -m NAME: a metric, or each metric of a group. */
static int show(const char *name, int json)
{
    char names[PAPIM_MAX_EVENTS][PAPI_MIN_STR_LEN];
    int n = 0, ret = PAPIM_expand(name, names, PAPIM_MAX_EVENTS, &n);
    if (ret != PAPI_OK)
        return fail(name, ret);
    struct jw w;
    if (json) {
        util_json_begin(&w);
        jw_arr_begin(&w, "metrics");
    }
    for (int i = 0; i < n; i++) {
        PAPIM_metric_info_t m;
        if ((ret = PAPIM_query_metric(names[i], &m)) != PAPI_OK)
            return fail(names[i], ret);
        if (json)
            json_one(&w, &m);
        else
            print_one(&m), printf("\n");
    }
    if (json) {
        jw_arr_end(&w);
        jw_obj_end(&w);
        jw_finish(&w);
    }
    return 0;
}

/* The groups: name, members, description; in the text after the metrics, in JSON as
 * "groups". How many, or minus the exit status. */
static int list_groups(struct jw *w)
{
    int n = PAPIM_num_groups();
    if (n < 0)
        return -fail("the metric table", n);
    if (w)
        jw_arr_begin(w, "groups");
    else
        printf("%s\n%-14s %s\n", UTIL_RULE, "Group", "Metrics: description");
    for (int i = 0; i < n; i++) {
        PAPIM_group_info_t g;
        int ret = PAPIM_get_group_info(i, &g);
        if (ret != PAPI_OK)
            return -fail("group info", ret);
        if (w) {
            jw_obj_begin(w, NULL);
            jw_str(w, "name", g.name);
            jw_arr_begin(w, "metrics");
            for (int k = 0; k < g.num_metrics; k++)
                jw_str(w, NULL, g.metrics[k]);
            jw_arr_end(w);
            jw_str(w, "description", g.description);
            jw_obj_end(w);
            continue;
        }
        char line[PAPI_HUGE_STR_LEN * 2] = "";
        size_t used = 0;
        for (int k = 0; k < g.num_metrics; k++)
            used += (size_t)snprintf(line + used, sizeof line - used, "%s%s", k ? ", " : "",
                                     g.metrics[k]);
        if (g.description[0] && used < sizeof line)
            snprintf(line + used, sizeof line - used, ": %s", g.description);
        char head[PAPI_MIN_STR_LEN + 2];
        snprintf(head, sizeof head, "%-14s ", g.name);
        util_print_hanging(stdout, head, "               ", line, 80);
    }
    if (w)
        jw_arr_end(w);
    return n;
}

static int list(int json)
{
    int n = PAPIM_num_metrics();
    if (n < 0)
        return fail("the metric table", n);
    struct jw w;
    if (json) {
        util_json_begin(&w);
        jw_arr_begin(&w, "metrics");
    } else {
        util_print_header(stdout, "Named metrics of this machine (papi_metrics(3)).");
        printf("%-28s %-20s %-9s %s\n", "Name", "Unit", "Resolves", "Countable here");
    }
    int countable = 0;
    for (int i = 0; i < n; i++) {
        PAPIM_metric_info_t m;
        int ret = PAPIM_get_metric_info(i, &m);
        if (ret != PAPI_OK)
            return fail("metric info", ret);
        countable += m.countable;
        if (json)
            json_one(&w, &m);
        else
            printf("%-28s %-20s %-9s %s\n", m.name, m.unit, yes_no(m.resolved),
                   yes_no(m.countable));
    }
    if (json) {
        jw_arr_end(&w);
        int ng = list_groups(&w);
        if (ng < 0)
            return -ng;
        jw_obj_end(&w);
        jw_finish(&w);
        return 0;
    }
    int ng = list_groups(NULL);
    if (ng < 0)
        return -ng;
    printf("%s\nTotal metrics: %d, countable here: %d; groups: %d. 'papi_metric_avail -m NAME'\n"
           "gives a metric's (or each metric of a group's) formula, events and why it cannot be\n"
           "computed here.\n",
           UTIL_RULE, n, countable, ng);
    return 0;
}

int main(int argc, char **argv)
{
    static const struct option longopts[] = {UTIL_COMMON_LONGOPTS, {0}};
    const char *one = NULL;
    int json = 0, opt;
    util_options("papi_metric_avail", usage);
    while ((opt = util_getopt(argc, argv, "m:", longopts)) != -1) {
        if (opt == 'm')
            one = optarg;
        else if (opt == UTIL_OPT_JSON)
            json = 1;
    }
    if (optind < argc) {
        fprintf(stderr, "papi_metric_avail: unexpected argument '%s'\n%s", argv[optind], usage);
        return 2;
    }
    if (!util_init("papi_metric_avail"))
        return 1;
    return one ? show(one, json) : list(json);
}
