/* papi_command_line: add the events named on the command line to one event set, count
 * a small fixed workload, print each count. An event that cannot be added is reported
 * with the reason and makes the exit status non-zero. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "util_common.h"
#include "util_events.h"
#include "util_options.h"

static const char usage[] =
    "Usage: papi_command_line [options] EVENT [EVENT ...]\n"
    "Add the named events (presets such as PAPI_TOT_INS or native events such as\n"
    "perf::PAGE-FAULTS) to one event set, count a small workload (a floating-point loop\n"
    "and 1000 freshly touched memory pages) and print each count.\n\n"
    "Options:\n"
    "  -u           print counts as unsigned numbers\n"
    "  -x           print counts in hexadecimal\n"
    "  --json       print the results as one JSON document\n"
    "  -h, --help   print this help\n"
    "  --version    print the papi-compat release and the PAPI API level\n\n"
    "Exit status: 0 when every event was added and counted, 1 when any event could not\n"
    "be added (the reason is printed) or counting failed, 2 on bad usage.\n";

#define MAX_EVENTS 64
#define WORK_PAGES 1000

struct ev {
    const char *name;
    int added;
    char *why; /* heap, whole: a reason is never cut */
};

/* The workload: floating-point work and WORK_PAGES page faults. */
static double workload(void)
{
    volatile double x = 0.5;
    for (int i = 0; i < 1000000; i++)
        x = x * 1.0000001 + 0.0000001;
    long page = sysconf(_SC_PAGESIZE);
    char *p = mmap(NULL, (size_t)(WORK_PAGES * page), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p != MAP_FAILED) {
        /* 4 KiB pages even where transparent huge pages are "always": one fault each. */
        madvise(p, (size_t)(WORK_PAGES * page), MADV_NOHUGEPAGE);
        for (long i = 0; i < WORK_PAGES; i++)
            ((volatile char *)p)[i * page] = 1;
        munmap(p, (size_t)(WORK_PAGES * page));
    }
    return x;
}

/* A preset that is not available carries the reason in its note (which native event
 * does not open, and why): add it to the error unless the error says it already. */
static char *with_preset_note(const char *name, char *why)
{
    int code;
    PAPI_event_info_t info;
    char *out = NULL;
    if (!why || PAPI_event_name_to_code(name, &code) != PAPI_OK || !IS_PRESET(code) ||
        PAPI_get_event_info(code, &info) != PAPI_OK || !info.note[0])
        return why;
    const char *note = util_event_note(&info); /* whole */
    if (strstr(why, note) || strstr(why, strncmp(note, "not available: ", 15) ? note : note + 15))
        return why;
    size_t len = strlen(why) + strlen(note) + 4;
    if (!(out = malloc(len)))
        return why;
    snprintf(out, len, "%s (%s)", why, note);
    free(why);
    return out;
}

int main(int argc, char **argv)
{
    int json = 0, hex = 0, unsig = 0, nev = 0;
    static struct ev ev[MAX_EVENTS];
    static const struct option longopts[] = {UTIL_COMMON_LONGOPTS, {NULL, 0, NULL, 0}};
    int c;
    util_options("papi_command_line", usage);
    while ((c = util_getopt(argc, argv, "ux", longopts)) != -1) {
        if (c == UTIL_OPT_JSON)
            json = 1;
        else if (c == 'x')
            hex = 1;
        else if (c == 'u')
            unsig = 1;
    }
    for (int i = optind; i < argc; i++) {
        if (nev == MAX_EVENTS)
            util_usage_error("at most %d events", MAX_EVENTS);
        ev[nev++].name = argv[i];
    }
    if (nev == 0)
        util_usage_error("name at least one event");
    if (!util_init("papi_command_line"))
        return 1;
    int es = PAPI_NULL, r = PAPI_create_eventset(&es);
    if (r != PAPI_OK) {
        char why[PAPI_HUGE_STR_LEN];
        util_error_detail(r, why, sizeof why);
        fprintf(stderr, "papi_command_line: PAPI_create_eventset: %s\n", why);
        return 1;
    }
    int nadded = 0, failed = 0;
    if (!json)
        printf("This utility lets you add events from the command line interface to see if they work.\n\n");
    for (int i = 0; i < nev; i++) {
        r = PAPI_add_named_event(es, ev[i].name);
        if (r == PAPI_OK) {
            ev[i].added = 1;
            nadded++;
            if (!json)
                printf("Successfully added: %s\n", ev[i].name);
        } else {
            failed = 1;
            ev[i].why = with_preset_note(ev[i].name, util_error_detail_dup(r));
            if (!json) { /* the whole reason, wrapped for a terminal */
                printf("Failed adding: %s\n", ev[i].name);
                util_print_hanging(stdout, "because: ", "         ",
                                   ev[i].why ? ev[i].why : "(no memory to say why)", 80);
            }
        }
    }
    long long values[MAX_EVENTS] = {0};
    int counted = 0;
    char count_why[PAPI_HUGE_STR_LEN] = "";
    if (nadded > 0) {
        r = PAPI_start(es);
        if (r == PAPI_OK) {
            workload();
            r = PAPI_stop(es, values);
        }
        if (r == PAPI_OK)
            counted = 1;
        else
            util_error_detail(r, count_why, sizeof count_why);
    }
    if (json) {
        struct jw w;
        util_json_begin(&w);
        jw_arr_begin(&w, "events");
        for (int i = 0, k = 0; i < nev; i++) {
            jw_obj_begin(&w, NULL);
            jw_str(&w, "name", ev[i].name);
            jw_bool(&w, "added", ev[i].added);
            if (ev[i].added && counted)
                jw_int(&w, "count", values[k]);
            if (!ev[i].added)
                jw_str(&w, "reason", ev[i].why ? ev[i].why : "(no memory to say why)");
            k += ev[i].added;
            jw_obj_end(&w);
        }
        jw_arr_end(&w);
        if (count_why[0])
            jw_str(&w, "counting_error", count_why);
        jw_obj_end(&w);
        jw_finish(&w);
    } else {
        printf("\n");
        if (count_why[0])
            printf("Counting failed: %s\n", count_why);
        for (int i = 0, k = 0; counted && i < nev; i++) {
            if (!ev[i].added)
                continue;
            if (hex)
                printf("%s : \t%llx\n", ev[i].name, (unsigned long long)values[k]);
            else if (unsig)
                printf("%s : \t%llu\n", ev[i].name, (unsigned long long)values[k]);
            else
                printf("%s : \t%lld\n", ev[i].name, values[k]);
            k++;
        }
        printf("\n----------------------------------\n");
        if (failed || !counted)
            printf("Not every event could be counted here (see above).\n");
    }
    PAPI_cleanup_eventset(es);
    PAPI_destroy_eventset(&es);
    return failed || !counted ? 1 : 0;
}
