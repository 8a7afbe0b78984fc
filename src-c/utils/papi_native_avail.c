/* papi_native_avail: the native events of each component, grouped by PMU with the route
 * that describes them (libpfm4, or the kernel's sysfs for PMUs libpfm4 does not know),
 * their unit masks, and with --check whether each really adds to an event set here. */
#include <dlfcn.h>
#include <sde_lib.h>
#include <stdlib.h>
#include <string.h>

#include "user_dlopen.h"
#include "util_events.h"
#include "util_options.h"

static const char usage[] =
    "Usage: papi_native_avail [options]\n"
    "List the native events each component knows, with their descriptions and unit masks.\n\n"
    "Options:\n"
    "  -c, --check    try to add each event to an event set and report whether it can\n"
    "                 be counted on this machine (and why not)\n"
    "  -e EVENT       describe one native event in detail\n"
    "  -i STRING      list only events whose name contains STRING\n"
    "  -x STRING      leave out events whose name contains STRING\n"
    "  --noqual, --noumasks\n"
    "                 do not list qualifiers (unit masks and flags)\n"
    "  --darr, --dear, --iarr, --iear, --opcm\n"
    "                 list only events with data/instruction address range restriction,\n"
    "                 data/instruction event address registers or opcode matching (as\n"
    "                 PAPI 7; Itanium features, which no perf_event PMU reports)\n"
    "  --nogroups     accepted for PAPI 7's scripts: no event group information is shown\n"
    "  -sde FILE, --sde FILE\n"
    "                 list the software-defined events of the library FILE: it is loaded\n"
    "                 and its papi_sde_hook_list_events registers them, as PAPI 7 does\n"
    "                 (never by a copy with privileges: setuid, setgid or setcap)\n"
    "  --json         print the same information as one JSON document\n"
    "  -h, --help     print this help\n"
    "  --version      print the papi-compat release and the PAPI API level\n\n"
    "Exit status: 0 on success, 1 when -e names an unknown event, 2 on bad usage.\n";

struct opts {
    int check, json, noumasks;
    int modifier; /* how PAPI_enum_cmp_event moves: PAPI_ENUM_EVENTS or a property filter */
    const char *event, *include, *exclude, *sde;
};

struct totals {
    int events, checked_ok;
};

enum { OPT_NOQUAL = UTIL_OPT_OWN, OPT_NOGROUPS, OPT_SDE, OPT_PROPERTY };

static const struct option longopts[] = {
    {"check", no_argument, NULL, 'c'},
    {"noqual", no_argument, NULL, OPT_NOQUAL},
    {"noumasks", no_argument, NULL, OPT_NOQUAL},
    {"nogroups", no_argument, NULL, OPT_NOGROUPS},
    {"sde", required_argument, NULL, OPT_SDE},
    {"darr", no_argument, NULL, OPT_PROPERTY + PAPI_NTV_ENUM_DARR},
    {"dear", no_argument, NULL, OPT_PROPERTY + PAPI_NTV_ENUM_DEAR},
    {"iarr", no_argument, NULL, OPT_PROPERTY + PAPI_NTV_ENUM_IARR},
    {"iear", no_argument, NULL, OPT_PROPERTY + PAPI_NTV_ENUM_IEAR},
    {"opcm", no_argument, NULL, OPT_PROPERTY + PAPI_NTV_ENUM_OPCM},
    UTIL_COMMON_LONGOPTS,
    {NULL, 0, NULL, 0}};

static void parse(int argc, char **argv, struct opts *o)
{
    int c;
    memset(o, 0, sizeof *o);
    o->modifier = PAPI_ENUM_EVENTS;
    util_options("papi_native_avail", usage);
    for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
        if (!strcmp(argv[i], "-sde")) /* PAPI 7's one-dash long option */
            argv[i] = (char *)"--sde";
    while ((c = util_getopt(argc, argv, "ce:i:x:", longopts)) != -1) {
        if (c == 'c')
            o->check = 1;
        else if (c == 'e')
            o->event = optarg;
        else if (c == 'i')
            o->include = optarg;
        else if (c == 'x')
            o->exclude = optarg;
        else if (c == UTIL_OPT_JSON)
            o->json = 1;
        else if (c == OPT_NOQUAL)
            o->noumasks = 1;
        else if (c == OPT_SDE)
            o->sde = optarg;
        else if (c >= OPT_PROPERTY)
            o->modifier = c - OPT_PROPERTY;
    }
    if (optind < argc)
        util_usage_error("unexpected argument '%s'", argv[optind]);
}

static int wanted(const struct opts *o, const char *name)
{
    if (o->include && !strstr(name, o->include))
        return 0;
    if (o->exclude && strstr(name, o->exclude))
        return 0;
    return 1;
}

/* The part of a unit mask's name after the event's own name ("perf::X:u" -> "u"). */
static const char *umask_suffix(const char *event, const char *umask)
{
    size_t n = strlen(event);
    return strncmp(event, umask, n) == 0 && umask[n] == ':' ? umask + n + 1 : umask;
}

/* The PMU part of "pmu::event" (empty for names without one). */
static void pmu_of(const char *symbol, char *out, size_t len)
{
    const char *sep = strstr(symbol, "::");
    size_t n = sep ? (size_t)(sep - symbol) : 0;
    if (n >= len)
        n = len - 1;
    memcpy(out, symbol, n);
    out[n] = '\0';
}

/* Which description an event comes from, read from its note: "libpfm4", "sysfs" (the
 * kernel's events/ and format/), or "" for components with neither. */
static const char *route_of(const PAPI_event_info_t *info)
{
    if (strstr(info->note, "libpfm4"))
        return "libpfm4";
    if (strstr(info->note, "sysfs"))
        return "sysfs";
    return "";
}

/* Events come grouped by PMU; each group opens with the PMU's name, the route that
 * describes its events and, for a core type of a hybrid machine, its CPUs. */
static void print_pmu_header(const PAPI_event_info_t *info, char *last, size_t len)
{
    char pmu[PAPI_MIN_STR_LEN * 2], what[PAPI_MAX_STR_LEN];
    pmu_of(info->symbol, pmu, sizeof pmu);
    if (!pmu[0] || !strcmp(pmu, last))
        return;
    snprintf(last, len, "%s", pmu);
    const char *route = route_of(info), *cpus = strstr(info->note, "core type of CPUs ");
    snprintf(what, sizeof what, "%s%s%s",
             !strcmp(route, "sysfs") ? "described by the kernel's sysfs"
             : route[0]              ? "described by libpfm4"
                                     : "",
             cpus ? "; core type, CPUs " : "", cpus ? cpus + strlen("core type of CPUs ") : "");
    printf("| PMU %-12s %-59.59s|\n%s\n", pmu, what, UTIL_RULE);
}

static void print_event_text(const PAPI_event_info_t *info, int check, const char *why)
{
    printf("| %-76s |\n", info->symbol);
    if (info->long_descr[0])
        printf("|            %-65.65s |\n", info->long_descr);
    if (check && !why[0])
        printf("|            %-65.65s |\n", "can be added here");
    else if (check)
        util_print_wrapped(stdout, "|            ", why, 79);
}

static void list_umasks(const struct opts *o, struct jw *w, int code, int cidx,
                        const PAPI_event_info_t *ev)
{
    int u = code;
    int first = 1;
    if (PAPI_enum_cmp_event(&u, PAPI_NTV_ENUM_UMASKS, cidx) != PAPI_OK)
        return;
    if (o->json)
        jw_arr_begin(w, "umasks");
    do {
        PAPI_event_info_t ui;
        if (PAPI_get_event_info(u, &ui) != PAPI_OK)
            continue;
        const char *sfx = umask_suffix(ev->symbol, ui.symbol);
        if (o->json) {
            jw_obj_begin(w, NULL);
            jw_str(w, "name", sfx);
            jw_str(w, "description", ui.long_descr);
            jw_obj_end(w);
        } else {
            if (first)
                printf("|      Unit masks:%61s|\n", "");
            printf("|     :%-20s %-51.51s|\n", sfx, ui.long_descr);
        }
        first = 0;
    } while (PAPI_enum_cmp_event(&u, PAPI_NTV_ENUM_UMASKS, cidx) == PAPI_OK);
    if (o->json)
        jw_arr_end(w);
}

static void list_component(const struct opts *o, struct jw *w, int cidx, struct totals *t)
{
    const PAPI_component_info_t *c = PAPI_get_component_info(cidx);
    if (!c)
        return;
    if (o->json) {
        jw_obj_begin(w, NULL);
        jw_str(w, "component", c->name);
        jw_bool(w, "disabled", c->disabled != 0);
        jw_arr_begin(w, "events");
    } else {
        printf("\n%s\n Native Events in Component: %s\n%s\n", UTIL_BANNER, c->name, UTIL_BANNER);
        if (c->disabled)
            printf("(component disabled: %s)\n", PAPI_get_component_reason(cidx));
    }
    int code = PAPI_NATIVE_MASK;
    char last_pmu[PAPI_MIN_STR_LEN * 2] = "";
    int more = PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, cidx) == PAPI_OK;
    /* A property filter: the first event listed is the first the library finds with it. */
    if (more && o->modifier != PAPI_ENUM_EVENTS)
        more = PAPI_enum_cmp_event(&code, o->modifier, cidx) == PAPI_OK;
    if (more) {
        do {
            PAPI_event_info_t info;
            memset(&info, 0, sizeof info); /* no component's note carries over to the next */
            if (PAPI_get_event_info(code, &info) != PAPI_OK || !wanted(o, info.symbol))
                continue;
            char why[PAPI_HUGE_STR_LEN] = "";
            int ok = 1;
            if (o->check) {
                ok = util_event_try_add(code, NULL, 0, why, sizeof why) == PAPI_OK;
                if (ok)
                    why[0] = '\0';
            }
            t->events++;
            t->checked_ok += ok;
            if (o->json) {
                jw_obj_begin(w, NULL);
                jw_str(w, "name", info.symbol);
                jw_hex(w, "code", info.event_code);
                jw_str(w, "description", info.long_descr);
                char pmu[PAPI_MIN_STR_LEN * 2];
                pmu_of(info.symbol, pmu, sizeof pmu);
                jw_str(w, "pmu", pmu);
                jw_str(w, "route", route_of(&info));
                jw_str(w, "described_by", info.note);
                if (o->check) {
                    jw_bool(w, "can_add", ok);
                    if (!ok)
                        jw_str(w, "reason", why);
                }
                if (!o->noumasks)
                    list_umasks(o, w, code, cidx, &info);
                jw_obj_end(w);
            } else {
                print_pmu_header(&info, last_pmu, sizeof last_pmu);
                print_event_text(&info, o->check, why);
                if (!o->noumasks)
                    list_umasks(o, w, code, cidx, &info);
                printf("%s\n", UTIL_RULE);
            }
        } while (PAPI_enum_cmp_event(&code, o->modifier, cidx) == PAPI_OK);
    }
    if (o->json) {
        jw_arr_end(w);
        jw_obj_end(w);
    }
}

static int describe_one(const struct opts *o)
{
    PAPI_event_info_t info;
    int code;
    char why[PAPI_HUGE_STR_LEN];
    int r = util_event_lookup(o->event, &code, &info, why, sizeof why);
    char add_why[PAPI_HUGE_STR_LEN] = "";
    int can_add = r == PAPI_OK && util_event_try_add(code, NULL, 0, add_why, sizeof add_why) == PAPI_OK;
    if (o->json) {
        struct jw w;
        util_json_begin(&w);
        if (r == PAPI_OK) {
            util_event_describe_json(&w, "event", &info);
            jw_bool(&w, "can_add", can_add);
            if (!can_add)
                jw_str(&w, "reason", add_why);
        } else {
            jw_str(&w, "event_name", o->event);
            jw_str(&w, "error", why);
        }
        jw_obj_end(&w);
        jw_finish(&w);
    } else if (r == PAPI_OK) {
        util_print_header(stdout, "Available native events and hardware information.");
        util_event_describe_text(stdout, &info);
        printf("%-30s%s\n", "Can be added here:", can_add ? "yes" : add_why);
    } else {
        fprintf(stderr, "papi_native_avail: %s: %s\n", o->event, why);
    }
    return r == PAPI_OK ? 0 : 1;
}

/* -sde FILE: load the library (RTLD_GLOBAL: the libsde it links serves us too) and let
 * its hook register every event it can count, through libsde's own calls, then list the
 * sde component. Never in a privileged copy (user_dlopen.h): FILE's constructors would
 * run with its privileges. */
static int list_sde_file(const struct opts *o)
{
    char why[512];
    void *lib = user_dlopen(o->sde, RTLD_NOW | RTLD_GLOBAL, why, sizeof why);
    if (!lib) {
        fprintf(stderr, "papi_native_avail: -sde %s: %s\n", o->sde, why);
        return 1;
    }
    papi_handle_t (*hook)(papi_sde_fptr_struct_t *);
    *(void **)&hook = dlsym(lib, "papi_sde_hook_list_events");
    if (!dlsym(RTLD_DEFAULT, "papi_sde_init"))
        dlopen("libsde.so.1", RTLD_NOW | RTLD_GLOBAL); /* a library that fills the hook only */
    papi_sde_fptr_struct_t f;
    memset(&f, 0, sizeof f);
#define SDE_CALL(field, name) *(void **)&f.field = dlsym(RTLD_DEFAULT, name)
    SDE_CALL(init, "papi_sde_init");
    SDE_CALL(shutdown, "papi_sde_shutdown");
    SDE_CALL(register_counter, "papi_sde_register_counter");
    SDE_CALL(register_counter_cb, "papi_sde_register_counter_cb");
    SDE_CALL(unregister_counter, "papi_sde_unregister_counter");
    SDE_CALL(describe_counter, "papi_sde_describe_counter");
    SDE_CALL(add_counter_to_group, "papi_sde_add_counter_to_group");
    SDE_CALL(create_counter, "papi_sde_create_counter");
    SDE_CALL(inc_counter, "papi_sde_inc_counter");
    SDE_CALL(create_recorder, "papi_sde_create_recorder");
    SDE_CALL(create_counting_set, "papi_sde_create_counting_set");
    SDE_CALL(counting_set_insert, "papi_sde_counting_set_insert");
    SDE_CALL(counting_set_remove, "papi_sde_counting_set_remove");
    SDE_CALL(record, "papi_sde_record");
    SDE_CALL(reset_recorder, "papi_sde_reset_recorder");
    SDE_CALL(reset_counter, "papi_sde_reset_counter");
    SDE_CALL(get_counter_handle, "papi_sde_get_counter_handle");
#undef SDE_CALL
    if (!hook || !f.init) {
        fprintf(stderr, "papi_native_avail: -sde %s: %s\n", o->sde,
                !hook ? "the library exports no papi_sde_hook_list_events (it registers its "
                        "events only when it runs)"
                      : "libsde.so.1 cannot be loaded (install libsde-compat1)");
        return 1;
    }
    hook(&f);
    int cidx = PAPI_get_component_index("sde");
    if (cidx < 0) {
        fprintf(stderr, "papi_native_avail: -sde %s: no sde component\n", o->sde);
        return 1;
    }
    struct totals t = {0, 0};
    struct jw w;
    if (o->json) {
        util_json_begin(&w);
        jw_arr_begin(&w, "components");
    } else {
        util_print_header(stdout, "Available native events and hardware information.");
    }
    list_component(o, &w, cidx, &t);
    if (o->json) {
        jw_arr_end(&w);
        jw_int(&w, "total_events", t.events);
        jw_obj_end(&w);
        jw_finish(&w);
    } else {
        printf("\nTotal events reported: %d\n", t.events);
    }
    return t.events > 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
    struct opts o;
    parse(argc, argv, &o);
    if (!util_init("papi_native_avail"))
        return 1;
    if (o.sde)
        return list_sde_file(&o);
    if (o.event)
        return describe_one(&o);
    struct jw w;
    struct totals t = {0, 0};
    if (o.json) {
        util_json_begin(&w);
        jw_arr_begin(&w, "components");
    } else {
        util_print_header(stdout, "Available native events and hardware information.");
    }
    for (int c = 0; c < PAPI_num_components(); c++)
        list_component(&o, &w, c, &t);
    if (o.json) {
        jw_arr_end(&w);
        jw_int(&w, "total_events", t.events);
        if (o.check)
            jw_int(&w, "events_that_add", t.checked_ok);
        jw_obj_end(&w);
        jw_finish(&w);
    } else {
        printf("\nTotal events reported: %d\n", t.events);
        if (o.check)
            printf("Events that can be added to an event set here: %d of %d\n", t.checked_ok,
                   t.events);
    }
    return 0;
}
