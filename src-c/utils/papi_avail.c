/* papi_avail: the preset events, whether this machine can count them, and the
 * hardware header. The first thing a user runs on a new node. */
#include <stdlib.h>
#include <string.h>

#include "util_events.h"
#include "util_options.h"

static const char usage[] =
    "Usage: papi_avail [options]\n"
    "List the PAPI preset events and whether this machine can count them, after a\n"
    "description of the hardware.\n\n"
    "Options:\n"
    "  -a, --avail    list only the presets available here\n"
    "  -c, --check    list only available presets that really add to an event set\n"
    "  -d, --detail   print every field of each preset (native terms, formula, notes)\n"
    "  -e EVENT       describe one event in detail (a preset or a native event name)\n"
    "  -t             tabular output (the default)\n"
    "  --json         print the same information as one JSON document\n"
    "  -h, --help     print this help\n"
    "  --version      print the papi-compat release and the PAPI API level\n\n"
    "Event filters (presets of any of the categories given are listed):\n"
    "  --br           branch          --cache        cache\n"
    "  --cnd          conditional     --fp           floating point\n"
    "  --ins          instructions    --idl          stalled or idle\n"
    "  --l1           level 1 cache   --l2           level 2 cache\n"
    "  --l3           level 3 cache   --mem          memory\n"
    "  --msc          miscellaneous   --tlb          translation lookaside buffer\n\n"
    "Exit status: 0 on success, 1 when -e names an unknown event, 2 on bad usage.\n";

struct opts {
    int avail, check, detail, json;
    unsigned filter; /* PAPI_PRESET_BIT_* of the filters given; 0 lists every preset */
    const char *event;
};

/* PAPI 7's filter options: each sets one category bit (the value getopt_long returns). */
static const struct option longopts[] = {
    {"avail", no_argument, NULL, 'a'},
    {"check", no_argument, NULL, 'c'},
    {"detail", no_argument, NULL, 'd'},
    {"br", no_argument, NULL, UTIL_OPT_OWN + PAPI_PRESET_ENUM_BR},
    {"cache", no_argument, NULL, UTIL_OPT_OWN + PAPI_PRESET_ENUM_CACH},
    {"cnd", no_argument, NULL, UTIL_OPT_OWN + PAPI_PRESET_ENUM_CND},
    {"fp", no_argument, NULL, UTIL_OPT_OWN + PAPI_PRESET_ENUM_FP},
    {"ins", no_argument, NULL, UTIL_OPT_OWN + PAPI_PRESET_ENUM_INS},
    {"idl", no_argument, NULL, UTIL_OPT_OWN + PAPI_PRESET_ENUM_IDL},
    {"l1", no_argument, NULL, UTIL_OPT_OWN + PAPI_PRESET_ENUM_L1},
    {"l2", no_argument, NULL, UTIL_OPT_OWN + PAPI_PRESET_ENUM_L2},
    {"l3", no_argument, NULL, UTIL_OPT_OWN + PAPI_PRESET_ENUM_L3},
    {"mem", no_argument, NULL, UTIL_OPT_OWN + PAPI_PRESET_ENUM_MEM},
    {"msc", no_argument, NULL, UTIL_OPT_OWN + PAPI_PRESET_ENUM_MSC},
    {"tlb", no_argument, NULL, UTIL_OPT_OWN + PAPI_PRESET_ENUM_TLB},
    UTIL_COMMON_LONGOPTS,
    {NULL, 0, NULL, 0}};

static void parse(int argc, char **argv, struct opts *o)
{
    int c;
    memset(o, 0, sizeof *o);
    util_options("papi_avail", usage);
    while ((c = util_getopt(argc, argv, "acde:t", longopts)) != -1) {
        if (c == 'a')
            o->avail = 1;
        else if (c == 'c')
            o->avail = o->check = 1;
        else if (c == 'd')
            o->detail = 1;
        else if (c == 't')
            o->detail = 0;
        else if (c == 'e')
            o->event = optarg;
        else if (c == UTIL_OPT_JSON)
            o->json = 1;
        else if (c >= UTIL_OPT_OWN)
            o->filter |= 1u << (c - UTIL_OPT_OWN);
    }
    if (optind < argc)
        util_usage_error("unexpected argument '%s'", argv[optind]);
}

static int describe_one(const struct opts *o)
{
    PAPI_event_info_t info;
    int code;
    char why[PAPI_HUGE_STR_LEN];
    int r = util_event_lookup(o->event, &code, &info, why, sizeof why);
    if (o->json) {
        struct jw w;
        util_json_begin(&w);
        if (r == PAPI_OK)
            util_event_describe_json(&w, "event", &info);
        else {
            jw_str(&w, "event_name", o->event);
            jw_str(&w, "error", why);
        }
        jw_obj_end(&w);
        jw_finish(&w);
    } else if (r == PAPI_OK) {
        util_print_header(stdout, "Available PAPI preset and user defined events plus hardware information.");
        util_event_describe_text(stdout, &info);
        if (IS_PRESET(code) && !util_preset_available(&info)) /* PAPI's sentence, then why */
            printf("\nPRESET event %s is NOT available on this architecture!\n"
                   "%s is not available on this machine%s%s\n", info.symbol, info.symbol,
                   info.note[0] ? ": " : ".", util_event_note(&info));
    } else {
        fprintf(stderr, "papi_avail: %s: %s\n", o->event, why);
    }
    return r == PAPI_OK ? 0 : 1;
}

/* Resolve every preset (tables, native events, availability) while the hardware
 * description loads in the background; the listing then reads cached answers. */
static void resolve_presets(void)
{
    int code = PAPI_PRESET_MASK;
    PAPI_event_info_t info;
    if (PAPI_enum_event(&code, PAPI_ENUM_FIRST) == PAPI_OK)
        do
            (void)PAPI_get_event_info(code, &info);
        while (PAPI_enum_event(&code, PAPI_ENUM_EVENTS) == PAPI_OK);
}

/* The perf_event component's core PMUs (its PMU names past libpfm4's generic "perf" and
 * "perf_raw"): two or more on a hybrid machine (cpu_core, cpu_atom), where a preset
 * counts on whichever core type runs the thread. */
static int core_pmus(const char **names, int max)
{
    int cidx = PAPI_get_component_index("perf_event"), n = 0;
    const PAPI_component_info_t *c = cidx >= 0 ? PAPI_get_component_info(cidx) : NULL;
    for (int i = 0; c && i < PAPI_PMU_MAX && c->pmu_names[i] && n < max; i++)
        if (strcmp(c->pmu_names[i], "perf") && strcmp(c->pmu_names[i], "perf_raw"))
            names[n++] = c->pmu_names[i];
    return n;
}

static void print_core_pmus(void)
{
    const char *names[8];
    int n = core_pmus(names, 8);
    if (!n)
        return;
    printf("%-25s: ", "Core PMUs");
    for (int i = 0; i < n; i++)
        printf("%s%s", i ? ", " : "", names[i]);
    printf("%s\n", n > 1 ? " (hybrid: presets count on every core type, summed)" : "");
}

static int list_presets(const struct opts *o)
{
    struct jw w;
    int code = PAPI_PRESET_MASK, possible = 0, avail = 0, derived = 0;
    resolve_presets();
    if (o->json) {
        util_json_begin(&w);
        const char *names[8];
        int n = core_pmus(names, 8);
        jw_arr_begin(&w, "core_pmus");
        for (int i = 0; i < n; i++)
            jw_str(&w, NULL, names[i]);
        jw_arr_end(&w);
        jw_arr_begin(&w, "presets");
    } else {
        util_print_header(stdout, "Available PAPI preset and user defined events plus hardware information.");
        print_core_pmus();
        printf("\n%s\n  PAPI Preset Events\n%s\n", UTIL_BANNER, UTIL_BANNER);
        if (!o->detail)
            printf("    Name        Code    Avail Deriv Description (Note)\n");
        else
            printf("Symbol        Event Code  Count |Short Description|\n"
                   "  |Long Description|\n  |Developer's Notes|\n  |Derived|\n  |PostFix|\n"
                   "  Native Code[n]: <hex> |name|\n");
    }
    if (PAPI_enum_event(&code, PAPI_ENUM_FIRST) == PAPI_OK) {
        do {
            PAPI_event_info_t info;
            if (PAPI_get_event_info(code, &info) != PAPI_OK)
                continue;
            if (o->filter && !(info.event_type & o->filter))
                continue; /* not in a category asked for: not counted either */
            possible++;
            int is_avail = util_preset_available(&info);
            if (is_avail && o->check)
                is_avail = util_event_try_add(code, NULL, 0, NULL, 0) == PAPI_OK;
            int is_derived = is_avail && util_preset_derived(&info);
            avail += is_avail;
            derived += is_derived;
            if (o->avail && !is_avail)
                continue;
            if (o->json) {
                util_event_describe_json(&w, NULL, &info);
            } else if (o->detail) {
                printf("%-13s 0x%-10x%-6u|%s|\n  |%s|\n  |%s|\n  |%s|\n  |%s|\n", info.symbol,
                       info.event_code, info.count, info.short_descr, info.long_descr,
                       util_event_note(&info),
                       info.derived, info.postfix);
                for (unsigned i = 0; i < info.count && i < PAPI_MAX_INFO_TERMS; i++)
                    printf("  Native Code[%u]: 0x%x |%s|\n", i, info.code[i], info.name[i]);
            } else {
                printf("%-13s0x%-10x%-6s%-5s%s%s%s%s\n", info.symbol, info.event_code,
                       is_avail ? "Yes" : "No", is_derived ? "Yes" : "No", info.long_descr,
                       is_avail && info.note[0] ? " (" : "", is_avail ? info.note : "",
                       is_avail && info.note[0] ? ")" : "");
            }
        } while (PAPI_enum_event(&code, PAPI_ENUM_EVENTS) == PAPI_OK);
    }
    if (o->json) {
        jw_arr_end(&w);
        jw_obj_begin(&w, "summary");
        jw_int(&w, "possible", possible);
        jw_int(&w, "available", avail);
        jw_int(&w, "derived", derived);
        jw_obj_end(&w);
        jw_obj_end(&w);
        jw_finish(&w);
        return 0;
    }
    printf("%s\nOf %d possible events, %d are available, of which %d are derived.\n", UTIL_RULE,
           possible, avail, derived);
    if (avail == 0) /* PAPI's line first: scripts look for it */
        printf("\nNo events detected!  Check papi_component_avail to find out why.\n"
               "No preset is available here: they are defined on hardware events and this "
               "machine\nhas none (see the note above). papi_native_avail lists the software "
               "events\nthat can be counted instead.\n");
    return 0;
}

int main(int argc, char **argv)
{
    struct opts o;
    parse(argc, argv, &o);
    if (!util_init("papi_avail"))
        return 1;
    util_load_hardware_info_in_background(); /* while the presets are resolved */
    /* No PAPI_shutdown: the process ends here and the kernel closes everything; tearing
     * the tables down first would only add to the start-up cost users wait for. */
    return o.event ? describe_one(&o) : list_presets(&o);
}
