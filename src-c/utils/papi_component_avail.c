/* papi_component_avail: the components compiled in, which are active, and for a
 * disabled one the reason. */
#include <string.h>

#include "str_append.h"
#include "util_common.h"
#include "util_options.h"

static const char usage[] =
    "Usage: papi_component_avail [options]\n"
    "List the components (perf_event for CPU and software events, perf_event_uncore for\n"
    "socket-level PMUs, powercap, procio, and the node components net, infiniband,\n"
    "coretemp, stealtime and lustre), whether each is active here and, if not, why.\n\n"
    "Options:\n"
    "  -d, --detail  print every capability of each component\n"
    "  --json        print the same information as one JSON document\n"
    "  -h, --help    print this help\n"
    "  --version     print the papi-compat release and the PAPI API level\n";

static void pmu_list(const PAPI_component_info_t *c, char *buf, size_t len)
{
    buf[0] = '\0';
    for (int i = 0; i < PAPI_PMU_MAX && c->pmu_names[i]; i++)
        str_appendf(buf, len, "%s%s", i ? ", " : "", c->pmu_names[i]);
}

/* -d: one capability per line, under the component in the Active section. */
static void detail_line(const char *label, const char *value)
{
    printf("%32s%-26s%s\n", "", label, value);
}

static void detail_int(const char *label, int value)
{
    printf("%32s%-26s%d\n", "", label, value);
}

static void print_detail(const PAPI_component_info_t *c)
{
    printf("%32sVersion:\t\t\t%s\n", "", c->version); /* PAPI's own -d line */
    detail_int("Native events:", c->num_native_events);
    detail_int("Preset events:", c->num_preset_events);
    detail_int("Hardware counters:", c->num_cntrs);
    detail_int("Multiplexed counters:", c->num_mpx_cntrs);
    detail_line("Kernel version:", c->kernel_version);
    detail_line("Overflow interrupts:", c->hardware_intr ? "hardware" : "software (timer)");
    detail_line("Attach to other threads:", c->attach ? "yes" : "no");
    detail_line("Count per CPU:", c->cpu ? "yes" : "no");
    detail_line("Inherit to children:", c->inherit ? "yes" : "no");
    detail_line("Fast counter read:", c->fast_counter_read ? "yes" : "no");
}

/* PAPI's "Active components:" section: name, counts, PMUs; then what we add (why a
 * component counts no hardware events, -d capabilities) on lines of the same indent. */
static void print_active(int n, int detail)
{
    static const char indent[] = "                                ";
    printf("\nActive components:\n");
    for (int i = 0; i < n; i++) {
        const PAPI_component_info_t *c = PAPI_get_component_info(i);
        if (!c || c->disabled)
            continue;
        char pmus[PAPI_HUGE_STR_LEN];
        pmu_list(c, pmus, sizeof pmus);
        printf("Name:   %-23s %s\n", c->name, c->description);
        printf("%sNative: %d, Preset: %d, Counters: %d\n", indent, c->num_native_events,
               c->num_preset_events, c->num_cntrs);
        if (pmus[0])
            printf("%sPMUs supported: %s\n", indent, pmus);
        if (c->disabled_reason[0]) /* why it has no counters, or a caveat */
            util_print_hanging(stdout, "                                Note: ",
                               "                                      ",
                               PAPI_get_component_reason(i), 80);
        if (detail)
            print_detail(c);
        printf("\n");
    }
}

int main(int argc, char **argv)
{
    int json = 0, detail = 0;
    static const struct option longopts[] = {
        {"detail", no_argument, NULL, 'd'}, UTIL_COMMON_LONGOPTS, {NULL, 0, NULL, 0}};
    int opt;
    util_options("papi_component_avail", usage);
    while ((opt = util_getopt(argc, argv, "d", longopts)) != -1) {
        if (opt == UTIL_OPT_JSON)
            json = 1;
        else if (opt == 'd')
            detail = 1;
    }
    if (optind < argc)
        util_usage_error("unexpected argument '%s'", argv[optind]);
    if (!util_init("papi_component_avail"))
        return 1;
    int n = PAPI_num_components();
    struct jw w;
    if (json) {
        util_json_begin(&w);
        jw_arr_begin(&w, "components");
    } else {
        util_print_header(stdout, "Available components and hardware information.");
        printf("\nCompiled-in components:\n");
    }
    int active = 0;
    for (int i = 0; i < n; i++) {
        const PAPI_component_info_t *c = PAPI_get_component_info(i);
        if (!c)
            continue;
        char pmus[PAPI_HUGE_STR_LEN];
        pmu_list(c, pmus, sizeof pmus);
        active += !c->disabled;
        if (json) {
            jw_obj_begin(&w, NULL);
            jw_int(&w, "index", i);
            jw_str(&w, "name", c->name);
            jw_str(&w, "description", c->description);
            jw_bool(&w, "active", !c->disabled);
            if (c->disabled || c->disabled_reason[0])
                jw_str(&w, "disabled_reason", PAPI_get_component_reason(i));
            jw_int(&w, "native_events", c->num_native_events);
            jw_int(&w, "preset_events", c->num_preset_events);
            jw_int(&w, "hardware_counters", c->num_cntrs);
            jw_int(&w, "multiplexed_counters", c->num_mpx_cntrs);
            jw_str(&w, "pmus", pmus);
            jw_obj_end(&w);
            continue;
        }
        printf("Name:   %-23s %s\n", c->name, c->description);
        if (c->disabled)
            util_print_hanging(stdout, "   \\-> Disabled: ", "                 ",
                               PAPI_get_component_reason(i), 80);
    }
    if (!json)
        print_active(n, detail);
    if (json) {
        jw_arr_end(&w);
        jw_int(&w, "active_components", active);
        jw_obj_end(&w);
        jw_finish(&w);
    } else {
        printf("\n%s\n", UTIL_RULE);
    }
    return 0;
}
