/* papi_decode: print the preset definitions in force, as the CSV that
 * PAPI_encode_events reads back (name,derived,postfix,short_descr,long_descr,note,
 * native...), or as JSON. Presets not available here become '#' comment lines that
 * say why, so the output always loads back unchanged. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_writer.h"
#include "papi.h"
#include "util_events.h"
#include "util_options.h"

static const char usage[] =
    "Usage: papi_decode [options]\n"
    "Print the PAPI preset definitions of this machine in the CSV format that\n"
    "PAPI_encode_events() reads (edit it, then load it with\n"
    "PAPI_encode_events(file, 1) or PAPI_CSV_EVENT_FILE).\n\n"
    "Options:\n"
    "  -a           all presets: the unavailable ones as '#' comment lines with the reason\n"
    "  --json       JSON instead of CSV\n"
    "  -h, --help   print this help\n"
    "  --version    print the papi-compat release and the PAPI API level\n\n"
    "Exit status: 0 on success, 1 when the library cannot start, 2 on bad usage.\n";

/* A CSV field in quotes, with embedded quotes doubled. */
static void csv_quoted(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        if (*s == '\n' || *s == '\r')
            fputc(' ', f); /* one record per line */
        else
            fputc(*s, f);
    }
    fputc('"', f);
}

static void print_csv(const PAPI_event_info_t *info)
{
    printf("%s,%s,%s,", info->symbol, info->derived[0] ? info->derived : "NOT_DERIVED",
           strcmp(info->derived, "DERIVED_POSTFIX") == 0 ? info->postfix : "");
    csv_quoted(stdout, info->short_descr);
    putchar(',');
    csv_quoted(stdout, info->long_descr);
    putchar(',');
    csv_quoted(stdout, util_event_note(info));
    for (unsigned t = 0; t < info->count && t < PAPI_MAX_INFO_TERMS; t++)
        printf(",%s", info->name[t]);
    putchar('\n');
}

/* One preset as an element of "presets" (schema/papi_decode.schema.json). */
static void print_json(struct jw *w, const PAPI_event_info_t *info)
{
    char code[16];
    snprintf(code, sizeof code, "0x%08x", info->event_code);
    jw_obj_begin(w, NULL);
    jw_str(w, "name", info->symbol);
    jw_str(w, "code", code);
    jw_bool(w, "available", info->count > 0);
    jw_str(w, "derived", info->count ? (info->derived[0] ? info->derived : "NOT_DERIVED") : "");
    jw_str(w, "postfix", info->postfix);
    jw_str(w, "short_descr", info->short_descr);
    jw_str(w, "long_descr", info->long_descr);
    jw_str(w, "note", util_event_note(info));
    jw_arr_begin(w, "native");
    for (unsigned t = 0; t < info->count && t < PAPI_MAX_INFO_TERMS; t++)
        jw_str(w, NULL, info->name[t]);
    jw_arr_end(w);
    jw_obj_end(w);
}

int main(int argc, char **argv)
{
    int all = 0, json = 0;
    static const struct option longopts[] = {UTIL_COMMON_LONGOPTS, {NULL, 0, NULL, 0}};
    int c;
    util_options("papi_decode", usage);
    while ((c = util_getopt(argc, argv, "a", longopts)) != -1) {
        if (c == 'a')
            all = 1;
        else if (c == UTIL_OPT_JSON)
            json = 1;
    }
    if (optind < argc)
        util_usage_error("unexpected argument '%s'", argv[optind]);
    int r = PAPI_library_init(PAPI_VER_CURRENT);
    if (r != PAPI_VER_CURRENT) {
        fprintf(stderr, "%s: PAPI_library_init failed: %s\n", argv[0], PAPI_strerror(r));
        return 1;
    }
    struct jw w;
    if (json) {
        jw_init(&w, stdout);
        jw_obj_begin(&w, NULL);
        jw_arr_begin(&w, "presets");
    } else {
        printf("name,derived,postfix,short_descr,long_descr,note,native...\n");
    }
    int code = PAPI_PRESET_MASK, shown = 0;
    if (PAPI_enum_event(&code, PAPI_ENUM_FIRST) != PAPI_OK) {
        fprintf(stderr, "%s: cannot enumerate presets\n", argv[0]);
        return 1;
    }
    do {
        PAPI_event_info_t info;
        if (PAPI_get_event_info(code, &info) != PAPI_OK)
            continue;
        int avail = info.count > 0;
        if (!avail && !all)
            continue;
        shown++;
        if (json)
            print_json(&w, &info);
        else if (avail)
            print_csv(&info);
        else
            printf("# %s: %s\n", info.symbol,
                   info.note[0] ? util_event_note(&info) : "not available");
    } while (PAPI_enum_event(&code, PAPI_ENUM_EVENTS) == PAPI_OK);
    if (json) {
        jw_arr_end(&w);
        jw_int(&w, "shown", shown);
        jw_obj_end(&w);
        jw_finish(&w);
    }
    PAPI_shutdown();
    return 0;
}
