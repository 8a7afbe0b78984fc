/* ompt_query.c: the OMPT tool's exported symbols, found among the loaded objects by the
 * tool's file name (ompt_query.h): the OpenMP runtime loads it privately (RTLD_LOCAL), so
 * the symbol is taken from its own handle, which the runtime's reference keeps loaded. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "env.h"
#include "json_writer.h"
#include "ompt_query.h"

/* The file name of a path: what follows its last '/'. */
static const char *file_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

struct found {
    void *tool;
    int gomp, ompt_runtime;
};

static int find_tool(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    struct found *f = data;
    const char *name = file_name(info->dlpi_name);
    f->gomp |= strncmp(name, "libgomp.so", 10) == 0;
    /* LLVM's and Intel's runtimes: a libgomp program may run under them (LD_PRELOAD); or it
     * keeps libgomp, its GOMP_* entry points interposed for the tool (src-c/ompt/gomp/) */
    f->ompt_runtime |= strncmp(name, "libomp.so", 9) == 0 ||
                       strncmp(name, "libiomp5.so", 11) == 0 ||
                       strcmp(name, "libpapi_gomp.so") == 0;
    if (strcmp(name, "libpapi_ompt.so") == 0 && !f->tool)
        f->tool = dlopen(info->dlpi_name, RTLD_LAZY | RTLD_NOLOAD);
    return 0;
}

void *ompt_query_lookup(const char *symbol, int *gomp)
{
    struct found f = {NULL, 0, 0};
    dl_iterate_phdr(find_tool, &f);
    void *sym = f.tool ? dlsym(f.tool, symbol) : NULL;
    if (f.tool)
        dlclose(f.tool); /* the runtime's reference keeps it loaded */
    if (gomp)
        *gomp = f.gomp && !f.ompt_runtime;
    return sym;
}

/* Whether the object info describes defines symbol itself (exported; not one of the
 * objects it depends on): h is its handle. */
static int defines(void *h, const char *symbol, const struct dl_phdr_info *info)
{
    void *p = dlsym(h, symbol);
    Dl_info di;
    struct link_map *map = NULL;
    return p && dladdr1(p, &di, (void **)&map, RTLD_DL_LINKMAP) && map &&
           map->l_addr == info->dlpi_addr && strcmp(map->l_name, info->dlpi_name) == 0;
}

struct other {
    char *name;
    size_t len;
    int found, in_program;
};

static int find_other(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    struct other *o = data;
    const char *name = file_name(info->dlpi_name);
    if (o->found || strcmp(name, "libpapi_ompt.so") == 0)
        return o->found;
    /* the executable's handle is the global scope's: its own definition comes first */
    void *h = dlopen(info->dlpi_name[0] ? info->dlpi_name : NULL, RTLD_LAZY | RTLD_NOLOAD);
    if (!h)
        return 0;
    /* a runtime defines a weak ompt_start_tool of its own (no tool) and the OpenMP API */
    o->found = defines(h, "ompt_start_tool", info) && !defines(h, "omp_get_thread_num", info);
    dlclose(h);
    if (o->found && info->dlpi_name[0]) {
        snprintf(o->name, o->len, "%s", name);
    } else if (o->found) {
        o->in_program = 1;
        char exe[4096];
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        exe[n > 0 ? n : 0] = 0;
        snprintf(o->name, o->len, "%s", n > 0 ? file_name(exe) : "the program");
    }
    return o->found;
}

int ompt_query_other_tool(char *name, size_t len, int *in_program)
{
    const char *off = env_get("OMP_TOOL");
    if (off && strcmp(off, "disabled") == 0)
        return -1; /* the runtime starts no tool at all */
    struct other o = {name, len, 0, 0};
    dl_iterate_phdr(find_other, &o);
    if (in_program)
        *in_program = o.in_program;
    return o.found ? 0 : -1;
}

void ompt_query_load(struct ompt_query *q)
{
    papi_ompt_query_table_fn get =
        (papi_ompt_query_table_fn)ompt_query_lookup("papi_ompt_query_table", NULL);
    q->release = (papi_ompt_query_free_fn)ompt_query_lookup("papi_ompt_query_free", NULL);
    q->have = get && q->release && get(PAPI_OMPT_QUERY_VERSION, &q->table) == 0;
}

void ompt_query_free(struct ompt_query *q)
{
    if (q->have)
        q->release(&q->table);
    q->have = 0;
}

struct pop_omp_factors ompt_query_efficiency(const struct papi_ompt_context *sum, double span_ns)
{
    struct pop_omp_in in = {sum->parallel_ns, sum->useful_ns, sum->maxu_team_ns, sum->wall_team_ns};
    return pop_omp_factors(&in, span_ns, POP_CAP_EACH);
}

void ompt_query_add(struct papi_ompt_context *sum, const struct papi_ompt_context *c)
{
    sum->parallel_ns += c->parallel_ns, sum->useful_ns += c->useful_ns;
    sum->maxu_team_ns += c->maxu_team_ns, sum->wall_team_ns += c->wall_team_ns;
    sum->unmeasured_tasks += c->unmeasured_tasks;
}

static void put_time(struct jw *w, const char *ns_key, const char *s_key, unsigned long long ns,
                     int seconds)
{
    if (seconds)
        jw_secs(w, s_key, (long long)ns);
    else
        jw_uint(w, ns_key, ns);
}

void ompt_query_constructs_json(struct jw *w, const struct papi_ompt_table *t, int row, int seconds)
{
    jw_arr_begin(w, "constructs");
    for (int i = 0; i < t->nconstructs; i++) {
        const struct papi_ompt_construct *c = &t->constructs[i];
        if (c->region != row)
            continue;
        jw_obj_begin(w, NULL);
        jw_str(w, "kind", c->kind);
        jw_str(w, "name", c->name);
        jw_uint(w, "entries", c->entries);
        jw_uint(w, "threads", c->threads);
        put_time(w, "time_ns", "time_s", c->time_ns, seconds);
        put_time(w, "wait_ns", "wait_s", c->wait_ns, seconds);
        if (c->max_wait_thread >= 0)
            jw_int(w, "max_wait_thread", c->max_wait_thread);
        else
            jw_null(w, "max_wait_thread");
        put_time(w, "max_wait_ns", "max_wait_s", c->max_wait_ns, seconds);
        jw_obj_end(w);
    }
    jw_arr_end(w);
}
