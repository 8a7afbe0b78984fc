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

/* A JSON string literal through the project's one escaper (RFC 8259, U+FFFD). */
static void json_str(const char *s)
{
    json_put_string(stdout, s);
}

static void json_member(const char *key, const char *value, int last)
{
    printf("      ");
    json_str(key);
    printf(": ");
    json_str(value);
    printf(last ? "\n" : ",\n");
}

static void print_json(const PAPI_event_info_t *info, int first)
{
    printf("%s    {\n", first ? "" : ",\n");
    json_member("name", info->symbol, 0);
    printf("      \"code\": \"0x%08x\",\n", info->event_code);
    printf("      \"available\": %s,\n", info->count > 0 ? "true" : "false");
    json_member("derived", info->count ? (info->derived[0] ? info->derived : "NOT_DERIVED") : "", 0);
    json_member("postfix", info->postfix, 0);
    json_member("short_descr", info->short_descr, 0);
    json_member("long_descr", info->long_descr, 0);
    json_member("note", util_event_note(info), 0);
    printf("      \"native\": [");
    for (unsigned t = 0; t < info->count && t < PAPI_MAX_INFO_TERMS; t++) {
        printf(t ? ", " : "");
        json_str(info->name[t]);
    }
    printf("]\n    }");
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
    if (json) {
        printf("{\n  \"presets\": [\n");
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
            print_json(&info, shown == 1);
        else if (avail)
            print_csv(&info);
        else
            printf("# %s: %s\n", info.symbol, info.note[0] ? util_event_note(&info) : "not available");
    } while (PAPI_enum_event(&code, PAPI_ENUM_EVENTS) == PAPI_OK);
    if (json)
        printf("\n  ],\n  \"shown\": %d\n}\n", shown);
    PAPI_shutdown();
    return 0;
}
