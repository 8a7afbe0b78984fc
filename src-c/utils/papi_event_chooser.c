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

int main(int argc, char **argv)
{
    int json = 0, preset = -1, nev = 0;
    const char *names[MAX_EVENTS];
    static const struct option longopts[] = {UTIL_COMMON_LONGOPTS, {NULL, 0, NULL, 0}};
    int c;
    util_options("papi_event_chooser", usage);
    while ((c = util_getopt(argc, argv, "", longopts)) != -1)
        json |= c == UTIL_OPT_JSON;
    if (optind < argc && (!strcmp(argv[optind], "PRESET") || !strcmp(argv[optind], "NATIVE")))
        preset = !strcmp(argv[optind++], "PRESET");
    if (preset < 0)
        util_usage_error("the first argument is NATIVE or PRESET");
    for (int i = optind; i < argc; i++) {
        if (nev == MAX_EVENTS)
            util_usage_error("at most %d events", MAX_EVENTS);
        names[nev++] = argv[i];
    }
    if (nev == 0)
        util_usage_error("name at least one event after %s", preset ? "PRESET" : "NATIVE");
    if (!util_init("papi_event_chooser"))
        return 1;
    int codes[MAX_EVENTS];
    for (int i = 0; i < nev; i++) {
        char why[PAPI_HUGE_STR_LEN];
        int r = PAPI_event_name_to_code(names[i], &codes[i]);
        if (r == PAPI_OK)
            r = util_event_try_add(codes[i], codes, i, why, sizeof why);
        else
            util_error_detail(r, why, sizeof why);
        if (r != PAPI_OK) {
            fprintf(stderr, "papi_event_chooser: event %s cannot be added:\n", names[i]);
            util_print_wrapped(stderr, "  ", why, 80);
            return 1;
        }
    }
    struct jw w;
    if (json) {
        util_json_begin(&w);
        jw_arr_begin(&w, "given");
        for (int i = 0; i < nev; i++)
            jw_str(&w, NULL, names[i]);
        jw_arr_end(&w);
        jw_str(&w, "kind", preset ? "PRESET" : "NATIVE");
        jw_arr_begin(&w, "compatible");
    } else {
        util_print_header(stdout, "Event Chooser: Available events which can be added with given events.");
        if (preset)
            printf("    Name        Code    Deriv Description (Note)\n");
    }
    int found = 0;
    int cidx = PAPI_get_event_component(codes[0]);
    int code = preset ? PAPI_PRESET_MASK : PAPI_NATIVE_MASK;
    int r = preset ? PAPI_enum_event(&code, PAPI_ENUM_FIRST)
                   : PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, cidx < 0 ? 0 : cidx);
    while (r == PAPI_OK) {
        PAPI_event_info_t info;
        int given = 0;
        for (int i = 0; i < nev; i++)
            given |= codes[i] == code;
        if (!given && PAPI_get_event_info(code, &info) == PAPI_OK &&
            (!preset || util_preset_available(&info)) &&
            util_event_try_add(code, codes, nev, NULL, 0) == PAPI_OK) {
            found++;
            if (json) {
                jw_obj_begin(&w, NULL);
                jw_str(&w, "name", info.symbol);
                jw_hex(&w, "code", info.event_code);
                jw_str(&w, "description", info.long_descr);
                jw_obj_end(&w);
            } else if (preset) {
                printf("%-13s0x%-10x%-5s%s\n", info.symbol, info.event_code,
                       util_preset_derived(&info) ? "Yes" : "No", info.long_descr);
            } else {
                printf("%-40s %s\n", info.symbol, info.long_descr);
            }
        }
        r = preset ? PAPI_enum_event(&code, PAPI_ENUM_EVENTS)
                   : PAPI_enum_cmp_event(&code, PAPI_ENUM_EVENTS, cidx < 0 ? 0 : cidx);
    }
    if (json) {
        jw_arr_end(&w);
        jw_int(&w, "total", found);
        jw_obj_end(&w);
        jw_finish(&w);
    } else {
        printf("%s\nTotal events reported: %d\n", UTIL_RULE, found);
    }
    return 0;
}
