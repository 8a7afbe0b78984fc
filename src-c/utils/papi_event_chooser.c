/* papi_event_chooser: given events already chosen, list the events of one kind (presets
 * or native events) that can be added to the same event set, i.e. counted together. */
#include <stdlib.h>
#include <string.h>

#include "util_events.h"
#include "util_options.h"

static const char usage[] =
    "Usage: papi_event_chooser [--json] NATIVE|PRESET EVENT [EVENT ...]\n"
    "Add the given EVENTs to one event set, then list every PRESET (or NATIVE) event that\n"
    "can still be added to it, so that they are counted together.\n\n"
    "Options:\n"
    "  --json       print the result as one JSON document\n"
    "  -h, --help   print this help\n"
    "  --version    print the papi-compat release and the PAPI API level\n\n"
    "Exit status: 0 on success, 1 when a given event cannot be added (the reason is\n"
    "printed), 2 on bad usage.\n";

#define MAX_EVENTS 64

/* What was asked: the kind to list and the given events. */
struct chooser {
    int json, preset, nev;
    const char *names[MAX_EVENTS];
    int codes[MAX_EVENTS];
};

static void parse(int argc, char **argv, struct chooser *ch)
{
    static const struct option longopts[] = {UTIL_COMMON_LONGOPTS, {NULL, 0, NULL, 0}};
    int c;
    ch->preset = -1;
    util_options("papi_event_chooser", usage);
    while ((c = util_getopt(argc, argv, "", longopts)) != -1)
        ch->json |= c == UTIL_OPT_JSON;
    if (optind < argc && (!strcmp(argv[optind], "PRESET") || !strcmp(argv[optind], "NATIVE")))
        ch->preset = !strcmp(argv[optind++], "PRESET");
    if (ch->preset < 0)
        util_usage_error("the first argument is NATIVE or PRESET");
    for (int i = optind; i < argc; i++) {
        if (ch->nev == MAX_EVENTS)
            util_usage_error("at most %d events", MAX_EVENTS);
        ch->names[ch->nev++] = argv[i];
    }
    if (ch->nev == 0)
        util_usage_error("name at least one event after %s", ch->preset ? "PRESET" : "NATIVE");
}

/* The given events' codes, each checked to add to the ones before it: 0, or -1 said. */
static int given_codes(struct chooser *ch)
{
    for (int i = 0; i < ch->nev; i++) {
        char why[PAPI_HUGE_STR_LEN];
        int r = PAPI_event_name_to_code(ch->names[i], &ch->codes[i]);
        if (r == PAPI_OK)
            r = util_event_try_add(ch->codes[i], ch->codes, i, why, sizeof why);
        else
            util_error_detail(r, why, sizeof why);
        if (r != PAPI_OK) {
            fprintf(stderr, "papi_event_chooser: event %s cannot be added:\n", ch->names[i]);
            util_print_wrapped(stderr, "  ", why, 80);
            return -1;
        }
    }
    return 0;
}

static void print_head(const struct chooser *ch, struct jw *w)
{
    if (ch->json) {
        util_json_begin(w);
        jw_arr_begin(w, "given");
        for (int i = 0; i < ch->nev; i++)
            jw_str(w, NULL, ch->names[i]);
        jw_arr_end(w);
        jw_str(w, "kind", ch->preset ? "PRESET" : "NATIVE");
        jw_arr_begin(w, "compatible");
        return;
    }
    util_print_header(stdout, "Event Chooser: Available events which can be added with given events.");
    if (ch->preset)
        printf("    Name        Code    Deriv Description (Note)\n");
}

/* Whether code, not a given event, is one to list (and info filled). */
static int compatible(const struct chooser *ch, int code, PAPI_event_info_t *info)
{
    for (int i = 0; i < ch->nev; i++)
        if (ch->codes[i] == code)
            return 0;
    return PAPI_get_event_info(code, info) == PAPI_OK &&
           (!ch->preset || util_preset_available(info)) &&
           util_event_try_add(code, ch->codes, ch->nev, NULL, 0) == PAPI_OK;
}

static void print_event(const struct chooser *ch, const PAPI_event_info_t *info, struct jw *w)
{
    if (ch->json) {
        jw_obj_begin(w, NULL);
        jw_str(w, "name", info->symbol);
        jw_hex(w, "code", info->event_code);
        jw_str(w, "description", info->long_descr);
        jw_obj_end(w);
    } else if (ch->preset) {
        printf("%-13s0x%-10x%-5s%s\n", info->symbol, info->event_code,
               util_preset_derived(info) ? "Yes" : "No", info->long_descr);
    } else {
        printf("%-40s %s\n", info->symbol, info->long_descr);
    }
}

int main(int argc, char **argv)
{
    static struct chooser ch;
    parse(argc, argv, &ch);
    if (!util_init("papi_event_chooser"))
        return 1;
    if (given_codes(&ch) < 0)
        return 1;
    struct jw w;
    print_head(&ch, &w);
    int found = 0, preset = ch.preset;
    int cidx = PAPI_get_event_component(ch.codes[0]);
    int code = preset ? PAPI_PRESET_MASK : PAPI_NATIVE_MASK;
    int r = preset ? PAPI_enum_event(&code, PAPI_ENUM_FIRST)
                   : PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, cidx < 0 ? 0 : cidx);
    while (r == PAPI_OK) {
        PAPI_event_info_t info;
        if (compatible(&ch, code, &info)) {
            found++;
            print_event(&ch, &info, &w);
        }
        r = preset ? PAPI_enum_event(&code, PAPI_ENUM_EVENTS)
                   : PAPI_enum_cmp_event(&code, PAPI_ENUM_EVENTS, cidx < 0 ? 0 : cidx);
    }
    if (ch.json) {
        jw_arr_end(&w);
        jw_int(&w, "total", found);
        jw_obj_end(&w);
        jw_finish(&w);
    } else {
        printf("%s\nTotal events reported: %d\n", UTIL_RULE, found);
    }
    return 0;
}
