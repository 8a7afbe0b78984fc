/* papi_xml_event_info: the hardware and every event that can be counted here, as XML
 * with PAPI's element and attribute names (<eventinfo>, <hardware>, <component>,
 * <eventset type="PRESET|NATIVE">, <event index name desc>, <modifier name desc>), so
 * parsers written for PAPI's output read ours. Events that cannot be added are left out,
 * as PAPI does; --why adds an XML comment per left-out event saying why, which parsers
 * ignore. */
#include <stdlib.h>
#include <string.h>

#include "util_events.h"
#include "util_options.h"

static const char usage[] =
    "Usage: papi_xml_event_info [options] [[event1] event2 ...]\n"
    "Print the hardware and the events that can be counted here as XML.\n\n"
    "Options:\n"
    "  -p           print only preset events\n"
    "  -n           print only native events\n"
    "  -c N         print only events of component index N\n"
    "  --why        add an XML comment for each event left out, saying why\n"
    "  --json       print the same information as one JSON document\n"
    "  -h, --help   print this help\n"
    "  --version    print the papi-compat release and the PAPI API level\n\n"
    "With event1, event2, ... only events that can be counted together with them are\n"
    "printed. Exit status: 0 on success, 1 when a given event is unknown, 2 on bad usage.\n";

struct opts {
    int presets, natives, cidx, why, json;
    int with[PAPI_MAX_INFO_TERMS * 4];
    int nwith;
};

/* Text as an XML attribute value (the five predefined entities). */
static void put_xml(const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", stdout); break;
        case '<': fputs("&lt;", stdout); break;
        case '>': fputs("&gt;", stdout); break;
        case '"': fputs("&quot;", stdout); break;
        case '\'': fputs("&apos;", stdout); break;
        default:
            /* control characters are not allowed in XML 1.0 */
            putchar((unsigned char)*s < 0x20 && *s != '\t' ? ' ' : *s);
        }
    }
}

/* "--" may not appear inside an XML comment. */
static void put_comment(const char *s)
{
    for (; *s; s++)
        putchar(s[0] == '-' && s[1] == '-' ? '=' : *s);
}

static void put_attr_el(const char *indent, const char *el, const char *attr, const char *v)
{
    printf("%s<%s %s=\"", indent, el, attr);
    put_xml(v);
    printf("\"/>\n");
}

static void hardware_xml(void)
{
    const PAPI_hw_info_t *hw = util_hardware_info();
    printf("<hardware>\n");
    put_attr_el("  ", "vendor", "string", hw->vendor_string);
    printf("  <vendorCode value=\"%d\"/>\n", hw->vendor);
    put_attr_el("  ", "model", "string", hw->model_string);
    printf("  <modelCode value=\"%d\"/>\n", hw->model);
    printf("  <cpuRevision value=\"%f\"/>\n", (double)hw->revision);
    printf("  <cpuID>\n    <family value=\"%d\"/>\n    <model value=\"%d\"/>\n"
           "    <stepping value=\"%d\"/>\n  </cpuID>\n",
           hw->cpuid_family, hw->cpuid_model, hw->cpuid_stepping);
    printf("  <cpuMaxMegahertz value=\"%d\"/>\n  <cpuMinMegahertz value=\"%d\"/>\n",
           hw->cpu_max_mhz, hw->cpu_min_mhz);
    printf("  <threads value=\"%d\"/>\n  <cores value=\"%d\"/>\n  <sockets value=\"%d\"/>\n"
           "  <nodes value=\"%d\"/>\n  <cpuPerNode value=\"%d\"/>\n  <totalCPUs value=\"%d\"/>\n",
           hw->threads, hw->cores, hw->sockets, hw->nnodes, hw->ncpu, hw->totalcpus);
    printf("</hardware>\n");
}

static void hardware_json(struct jw *w)
{
    const PAPI_hw_info_t *hw = util_hardware_info();
    jw_obj_begin(w, "hardware");
    jw_str(w, "vendor", hw->vendor_string);
    jw_int(w, "vendor_code", hw->vendor);
    jw_str(w, "model", hw->model_string);
    jw_int(w, "model_code", hw->model);
    jw_double(w, "cpu_revision", hw->revision);
    jw_int(w, "cpuid_family", hw->cpuid_family);
    jw_int(w, "cpuid_model", hw->cpuid_model);
    jw_int(w, "cpuid_stepping", hw->cpuid_stepping);
    jw_int(w, "cpu_max_mhz", hw->cpu_max_mhz);
    jw_int(w, "cpu_min_mhz", hw->cpu_min_mhz);
    jw_int(w, "threads", hw->threads);
    jw_int(w, "cores", hw->cores);
    jw_int(w, "sockets", hw->sockets);
    jw_int(w, "nodes", hw->nnodes);
    jw_int(w, "cpu_per_node", hw->ncpu);
    jw_int(w, "total_cpus", hw->totalcpus);
    jw_obj_end(w);
}

/* The part of a unit mask's name after the event's own name ("perf::X:u" -> ":u"). */
static const char *modifier_of(const char *event, const char *umask)
{
    size_t n = strlen(event);
    return strncmp(event, umask, n) == 0 ? umask + n : umask;
}

static void modifiers(const struct opts *o, struct jw *w, int code, int cidx, const char *event)
{
    int u = code;
    if (PAPI_enum_cmp_event(&u, PAPI_NTV_ENUM_UMASKS, cidx) != PAPI_OK)
        return;
    if (o->json)
        jw_arr_begin(w, "modifiers");
    do {
        PAPI_event_info_t ui;
        if (PAPI_get_event_info(u, &ui) != PAPI_OK)
            continue;
        if (o->json) {
            jw_obj_begin(w, NULL);
            jw_str(w, "name", modifier_of(event, ui.symbol));
            jw_str(w, "desc", ui.long_descr);
            jw_obj_end(w);
        } else {
            printf("        <modifier name=\"");
            put_xml(modifier_of(event, ui.symbol));
            printf("\" desc=\"");
            put_xml(ui.long_descr);
            printf("\"> </modifier>\n");
        }
    } while (PAPI_enum_cmp_event(&u, PAPI_NTV_ENUM_UMASKS, cidx) == PAPI_OK);
    if (o->json)
        jw_arr_end(w);
}

/* One event: printed when it can be added together with the given ones. */
static void event(const struct opts *o, struct jw *w, int code, int cidx, int native)
{
    PAPI_event_info_t info;
    if (PAPI_get_event_info(code, &info) != PAPI_OK)
        return;
    char why[PAPI_HUGE_STR_LEN] = "";
    int usable = native || util_preset_available(&info);
    if (!usable)
        snprintf(why, sizeof why, "no native event of this machine defines it");
    if (!usable || util_event_try_add(code, o->with, o->nwith, why, sizeof why) != PAPI_OK) {
        if (o->why && !o->json) {
            printf("    <!-- %s left out: ", info.symbol);
            put_comment(why);
            printf(" -->\n");
        }
        return;
    }
    int index = code & (native ? PAPI_NATIVE_AND_MASK : PAPI_PRESET_AND_MASK);
    const char *desc = info.long_descr[0] ? info.long_descr : info.short_descr;
    if (o->json) {
        jw_obj_begin(w, NULL);
        jw_int(w, "index", index);
        jw_str(w, "name", info.symbol);
        jw_str(w, "desc", desc);
    } else {
        printf("    <event index=\"%d\" name=\"", index);
        put_xml(info.symbol);
        printf("\" desc=\"");
        put_xml(desc);
        printf("\">\n");
    }
    if (native)
        modifiers(o, w, code, cidx, info.symbol);
    if (o->json)
        jw_obj_end(w);
    else
        printf("    </event>\n");
}

static void eventset(const struct opts *o, struct jw *w, int cidx, int native)
{
    if (o->json)
        jw_arr_begin(w, native ? "native" : "preset");
    else
        printf("  <eventset type=\"%s\">\n", native ? "NATIVE" : "PRESET");
    int code = native ? PAPI_NATIVE_MASK : PAPI_PRESET_MASK;
    int more = native ? PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, cidx) == PAPI_OK
                      : PAPI_enum_event(&code, PAPI_ENUM_FIRST) == PAPI_OK;
    while (more) {
        event(o, w, code, cidx, native);
        more = native ? PAPI_enum_cmp_event(&code, PAPI_ENUM_EVENTS, cidx) == PAPI_OK
                      : PAPI_enum_event(&code, PAPI_ENUM_EVENTS) == PAPI_OK;
    }
    if (o->json)
        jw_arr_end(w);
    else
        printf("  </eventset>\n");
}

static void component(const struct opts *o, struct jw *w, int cidx)
{
    const PAPI_component_info_t *c = PAPI_get_component_info(cidx);
    if (!c)
        return;
    /* PAPI calls the CPU's counters "CPU" and any other component "Unknown". */
    const char *type = !strcmp(c->name, "perf_event") ? "CPU" : "Unknown";
    if (o->json) {
        jw_obj_begin(w, NULL);
        jw_int(w, "index", cidx);
        jw_str(w, "type", type);
        jw_str(w, "id", c->name);
        if (c->disabled)
            jw_str(w, "disabled_reason", PAPI_get_component_reason(cidx));
    } else {
        printf("<component index=\"%d\" type=\"%s\" id=\"", cidx, type);
        put_xml(c->name);
        printf("\">\n");
        if (c->disabled && o->why) {
            printf("  <!-- disabled: ");
            put_comment(PAPI_get_component_reason(cidx));
            printf(" -->\n");
        }
    }
    if (!o->presets)
        eventset(o, w, cidx, 1);
    if (!o->natives && cidx == 0) /* presets belong to the CPU component */
        eventset(o, w, cidx, 0);
    if (o->json)
        jw_obj_end(w);
    else
        printf("</component>\n");
}

static void parse(int argc, char **argv, struct opts *o)
{
    static const struct option longopts[] = {
        {"why", no_argument, NULL, UTIL_OPT_OWN}, UTIL_COMMON_LONGOPTS, {NULL, 0, NULL, 0}};
    int c;
    long v;
    memset(o, 0, sizeof *o);
    o->cidx = -1;
    util_options("papi_xml_event_info", usage);
    while ((c = util_getopt(argc, argv, "pnc:", longopts)) != -1) {
        if (c == 'p')
            o->presets = 1;
        else if (c == 'n')
            o->natives = 1;
        else if (c == UTIL_OPT_OWN)
            o->why = 1;
        else if (c == UTIL_OPT_JSON)
            o->json = 1;
        else if (c == 'c' && util_parse_long(optarg, 0, 1 << 20, &v))
            o->cidx = (int)v;
        else if (c == 'c')
            util_usage_error("-c needs a component index, not '%s'", optarg);
    }
    if (o->presets && o->natives)
        util_usage_error("-p and -n exclude each other");
}

/* The events named after the options (after PAPI_library_init): 0, or 1 for an unknown
 * one. */
static int lookup_operands(int argc, char **argv, struct opts *o)
{
    for (int i = optind; i < argc; i++) {
        PAPI_event_info_t info;
        char why[PAPI_HUGE_STR_LEN];
        if (o->nwith == (int)(sizeof o->with / sizeof o->with[0]))
            util_usage_error("at most %d events", o->nwith);
        if (util_event_lookup(argv[i], &o->with[o->nwith], &info, why, sizeof why) != PAPI_OK) {
            fprintf(stderr, "papi_xml_event_info: unknown event '%s': %s\n", argv[i], why);
            return 1;
        }
        o->nwith++;
    }
    return 0;
}

int main(int argc, char **argv)
{
    struct opts o;
    parse(argc, argv, &o);
    if (!util_init("papi_xml_event_info"))
        return 1;
    if (lookup_operands(argc, argv, &o))
        return 1;
    int n = PAPI_num_components();
    if (o.cidx >= n) {
        fprintf(stderr, "papi_xml_event_info: no component %d (there are %d)\n", o.cidx, n);
        return 2;
    }
    struct jw w;
    if (o.json) {
        jw_init(&w, stdout);
        jw_obj_begin(&w, NULL);
        hardware_json(&w);
        jw_arr_begin(&w, "components");
    } else {
        printf("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<eventinfo>\n");
        hardware_xml();
    }
    for (int c = 0; c < n; c++)
        if (o.cidx < 0 || o.cidx == c)
            component(&o, &w, c);
    if (o.json) {
        jw_arr_end(&w);
        jw_obj_end(&w);
        return jw_finish(&w) == 0 ? 0 : 1;
    }
    printf("</eventinfo>\n");
    return fflush(stdout) == 0 ? 0 : 1;
}
