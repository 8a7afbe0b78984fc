/* papi_native_avail: the native events of each component (libpfm4 names), their unit
 * masks, and with --check whether each really adds to an event set here. */
#include <stdlib.h>
#include <string.h>

#include "util_events.h"

static const char usage[] =
    "Usage: papi_native_avail [options]\n"
    "List the native events each component knows, with their descriptions and unit masks.\n\n"
    "Options:\n"
    "  -c, --check    try to add each event to an event set and report whether it can\n"
    "                 be counted on this machine (and why not)\n"
    "  -e EVENT       describe one native event in detail\n"
    "  -i STRING      list only events whose name contains STRING\n"
    "  -x STRING      leave out events whose name contains STRING\n"
    "  --noumasks     do not list unit masks\n"
    "  --json         print the same information as one JSON document\n"
    "  -h, --help     print this help\n\n"
    "Exit status: 0 on success, 1 when -e names an unknown event, 2 on bad usage.\n";

struct opts {
    int check, json, noumasks;
    const char *event, *include, *exclude;
};

struct totals {
    int events, checked_ok;
};

static int parse(int argc, char **argv, struct opts *o)
{
    memset(o, 0, sizeof *o);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (util_is_help(a)) {
            fputs(usage, stdout);
            exit(0);
        } else if (!strcmp(a, "-c") || !strcmp(a, "--check"))
            o->check = 1;
        else if (!strcmp(a, "--json"))
            o->json = 1;
        else if (!strcmp(a, "--noumasks"))
            o->noumasks = 1;
        else if (!strcmp(a, "-e") && i + 1 < argc)
            o->event = argv[++i];
        else if (!strcmp(a, "-i") && i + 1 < argc)
            o->include = argv[++i];
        else if (!strcmp(a, "-x") && i + 1 < argc)
            o->exclude = argv[++i];
        else {
            fprintf(stderr, "papi_native_avail: unknown or incomplete option '%s'\n\n%s", a, usage);
            return 0;
        }
    }
    return 1;
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
            printf("(component disabled: %s)\n", c->disabled_reason);
    }
    int code = PAPI_NATIVE_MASK;
    if (PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, cidx) == PAPI_OK) {
        do {
            PAPI_event_info_t info;
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
                if (o->check) {
                    jw_bool(w, "can_add", ok);
                    if (!ok)
                        jw_str(w, "reason", why);
                }
                if (!o->noumasks)
                    list_umasks(o, w, code, cidx, &info);
                jw_obj_end(w);
            } else {
                print_event_text(&info, o->check, why);
                if (!o->noumasks)
                    list_umasks(o, w, code, cidx, &info);
                printf("%s\n", UTIL_RULE);
            }
        } while (PAPI_enum_cmp_event(&code, PAPI_ENUM_EVENTS, cidx) == PAPI_OK);
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

int main(int argc, char **argv)
{
    struct opts o;
    if (!parse(argc, argv, &o))
        return 2;
    if (!util_init("papi_native_avail"))
        return 1;
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
