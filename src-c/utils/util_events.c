/* util_events.c: describe events and try them in an event set. */
#include <stdlib.h>
#include <string.h>

#include "util_events.h"

const char *util_event_note(const PAPI_event_info_t *info)
{
    static char *whole;
    static const char at[] = "is not available on this machine: ";
    if (strlen(info->note) < PAPI_HUGE_STR_LEN - 1 || !IS_PRESET((int)info->event_code) ||
        PAPI_query_event((int)info->event_code) == PAPI_OK)
        return info->note;
    const char *d = strstr(PAPI_strerror_detail(), at);
    size_t n = d ? strlen(d + sizeof at - 1) + 16 : 0;
    char *s = d ? malloc(n) : NULL;
    if (!s)
        return info->note;
    snprintf(s, n, "not available: %s", d + sizeof at - 1);
    free(whole);
    whole = s;
    return whole;
}

int util_preset_available(const PAPI_event_info_t *info)
{
    return info->count > 0;
}

int util_preset_derived(const PAPI_event_info_t *info)
{
    return info->count > 1 ||
           (info->derived[0] && strcmp(info->derived, "NOT_DERIVED") != 0 && info->count > 0);
}

/* PAPI's layout: labels padded to 30 columns, |text| fields to 29 (scripts cut on them);
 * our additions (component, availability) are lines of their own. */
void util_event_describe_text(FILE *f, const PAPI_event_info_t *info)
{
    int preset = IS_PRESET((int)info->event_code);
    fprintf(f, "%-30s%s\n", "Event name:", info->symbol);
    fprintf(f, "%-30s0x%x\n", "Event Code:", info->event_code);
    const PAPI_component_info_t *c = PAPI_get_component_info(info->component_index);
    fprintf(f, "%-30s%s\n", "Component:", c ? c->name : "?");
    if (preset) {
        fprintf(f, "%-30s%s\n", "Available here:", util_preset_available(info) ? "yes" : "no");
        fprintf(f, "%-30s%u\n", "Number of Native Events:", info->count);
        fprintf(f, "%-29s|%s|\n", "Short Description:", info->short_descr);
    }
    fprintf(f, "%-29s|%s|\n", "Long Description:", info->long_descr);
    if (info->units[0])
        fprintf(f, "%-29s|%s|\n", "Units:", info->units);
    if (preset) {
        fprintf(f, "%-29s|%s|\n", "Developer's Notes:", util_event_note(info));
        fprintf(f, "%-29s|%s|\n", "Derived Type:", info->derived[0] ? info->derived : "NOT_DERIVED");
        fprintf(f, "%-29s|%s|\n", "Postfix Processing String:", info->postfix);
        for (unsigned i = 0; i < info->count && i < PAPI_MAX_INFO_TERMS; i++)
            fprintf(f, " Native Code[%u]: 0x%x |%s|\n", i, info->code[i], info->name[i]);
    } else if (info->note[0]) {
        fprintf(f, "%-29s|%s|\n", "Notes:", info->note);
    }
}

void util_event_describe_json(struct jw *w, const char *key, const PAPI_event_info_t *info)
{
    int preset = IS_PRESET((int)info->event_code);
    jw_obj_begin(w, key);
    jw_str(w, "name", info->symbol);
    jw_hex(w, "code", info->event_code);
    const PAPI_component_info_t *c = PAPI_get_component_info(info->component_index);
    jw_str(w, "component", c ? c->name : "");
    jw_str(w, "kind", preset ? "preset" : "native");
    if (preset) {
        jw_bool(w, "available", util_preset_available(info));
        jw_bool(w, "derived", util_preset_derived(info));
        jw_str(w, "short_description", info->short_descr);
    }
    jw_str(w, "long_description", info->long_descr);
    if (info->units[0])
        jw_str(w, "units", info->units);
    jw_str(w, "note", util_event_note(info));
    if (preset) {
        jw_str(w, "derived_type", info->derived);
        jw_str(w, "postfix", info->postfix);
        jw_arr_begin(w, "natives");
        for (unsigned i = 0; i < info->count && i < PAPI_MAX_INFO_TERMS; i++) {
            jw_obj_begin(w, NULL);
            jw_str(w, "name", info->name[i]);
            jw_hex(w, "code", info->code[i]);
            jw_obj_end(w);
        }
        jw_arr_end(w);
    }
    jw_obj_end(w);
}

int util_event_lookup(const char *name, int *code, PAPI_event_info_t *info, char *why,
                      size_t whylen)
{
    int r = PAPI_event_name_to_code(name, code);
    if (r == PAPI_OK)
        r = PAPI_get_event_info(*code, info);
    if (r != PAPI_OK)
        util_error_detail(r, why, whylen);
    return r;
}

int util_event_try_add(int code, const int *with, int nwith, char *why, size_t whylen)
{
    int es = PAPI_NULL;
    int r = PAPI_create_eventset(&es);
    for (int i = 0; r == PAPI_OK && i < nwith; i++)
        r = PAPI_add_event(es, with[i]);
    if (r == PAPI_OK)
        r = PAPI_add_event(es, code);
    if (r != PAPI_OK && why)
        util_error_detail(r, why, whylen);
    if (es != PAPI_NULL) {
        PAPI_cleanup_eventset(es);
        PAPI_destroy_eventset(&es);
    }
    return r;
}
