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

/* What was asked and what came of it. */
struct cl {
    struct ev ev[MAX_EVENTS];
    int nev, json, hex, unsig;
    int failed, counted;
    long long values[MAX_EVENTS];
    char count_why[PAPI_HUGE_STR_LEN];
};

static void parse(int argc, char **argv, struct cl *cl)
{
    static const struct option longopts[] = {UTIL_COMMON_LONGOPTS, {NULL, 0, NULL, 0}};
    int c;
    util_options("papi_command_line", usage);
    while ((c = util_getopt(argc, argv, "ux", longopts)) != -1) {
        if (c == UTIL_OPT_JSON)
            cl->json = 1;
        else if (c == 'x')
            cl->hex = 1;
        else if (c == 'u')
            cl->unsig = 1;
    }
    for (int i = optind; i < argc; i++) {
        if (cl->nev == MAX_EVENTS)
            util_usage_error("at most %d events", MAX_EVENTS);
        cl->ev[cl->nev++].name = argv[i];
    }
    if (cl->nev == 0)
        util_usage_error("name at least one event");
}

/* Adds each event to es (saying so in text mode): how many were added. */
static int add_events(struct cl *cl, int es)
{
    int nadded = 0;
    for (int i = 0; i < cl->nev; i++) {
        struct ev *e = &cl->ev[i];
        int r = PAPI_add_named_event(es, e->name);
        if (r == PAPI_OK) {
            e->added = 1;
            nadded++;
            if (!cl->json)
                printf("Successfully added: %s\n", e->name);
            continue;
        }
        cl->failed = 1;
        e->why = with_preset_note(e->name, util_error_detail_dup(r));
        if (!cl->json) { /* the whole reason, wrapped for a terminal */
            printf("Failed adding: %s\n", e->name);
            util_print_hanging(stdout, "because: ", "         ",
                               e->why ? e->why : "(no memory to say why)", 80);
        }
    }
    return nadded;
}

/* Counts the workload with es: cl->counted and values, or count_why. */
static void count(struct cl *cl, int es)
{
    int r = PAPI_start(es);
    if (r == PAPI_OK) {
        workload();
        r = PAPI_stop(es, cl->values);
    }
    if (r == PAPI_OK)
        cl->counted = 1;
    else
        util_error_detail(r, cl->count_why, sizeof cl->count_why);
}

static void print_json(const struct cl *cl)
{
    struct jw w;
    util_json_begin(&w);
    jw_arr_begin(&w, "events");
    for (int i = 0, k = 0; i < cl->nev; i++) {
        const struct ev *e = &cl->ev[i];
        jw_obj_begin(&w, NULL);
        jw_str(&w, "name", e->name);
        jw_bool(&w, "added", e->added);
        if (e->added && cl->counted)
            jw_int(&w, "count", cl->values[k]);
        if (!e->added)
            jw_str(&w, "reason", e->why ? e->why : "(no memory to say why)");
        k += e->added;
        jw_obj_end(&w);
    }
    jw_arr_end(&w);
    if (cl->count_why[0])
        jw_str(&w, "counting_error", cl->count_why);
    jw_obj_end(&w);
    jw_finish(&w);
}

static void print_text(const struct cl *cl)
{
    printf("\n");
    if (cl->count_why[0])
        printf("Counting failed: %s\n", cl->count_why);
    for (int i = 0, k = 0; cl->counted && i < cl->nev; i++) {
        const struct ev *e = &cl->ev[i];
        if (!e->added)
            continue;
        if (cl->hex)
            printf("%s : \t%llx\n", e->name, (unsigned long long)cl->values[k]);
        else if (cl->unsig)
            printf("%s : \t%llu\n", e->name, (unsigned long long)cl->values[k]);
        else
            printf("%s : \t%lld\n", e->name, cl->values[k]);
        k++;
    }
    printf("\n----------------------------------\n");
    if (cl->failed || !cl->counted)
        printf("Not every event could be counted here (see above).\n");
}

int main(int argc, char **argv)
{
    static struct cl cl;
    parse(argc, argv, &cl);
    if (!util_init("papi_command_line"))
        return 1;
    int es = PAPI_NULL, r = PAPI_create_eventset(&es);
    if (r != PAPI_OK) {
        char why[PAPI_HUGE_STR_LEN];
        util_error_detail(r, why, sizeof why);
        fprintf(stderr, "papi_command_line: PAPI_create_eventset: %s\n", why);
        return 1;
    }
    if (!cl.json)
        printf("This utility lets you add events from the command line interface to see if they work.\n\n");
    if (add_events(&cl, es) > 0)
        count(&cl, es);
    if (cl.json)
        print_json(&cl);
    else
        print_text(&cl);
    PAPI_cleanup_eventset(es);
    PAPI_destroy_eventset(&es);
    return cl.failed || !cl.counted ? 1 : 0;
}
