/* callsites.c: the per-(call, caller) statistics at MPI_Finalize.
 *
 * Each rank turns its threads' tables (return addresses) into records keyed by (call,
 * object file, offset in it): the same key on every rank whatever the address-space
 * layout. Records are merged up a binomial tree (a rank sends once, to rank - 2^k), so
 * what a rank holds is the union of the sites below it, not P copies. Rank 0 resolves
 * the top sites to function, file and line with addr2line (binutils) on the object and
 * the call instruction's offset (return address - 1). */
#include <fcntl.h>
#include <link.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "papi_mpi_internal.h"
#include "text_buffer.h"

#define OBJ_LEN 256
#define TOP_JSON 30

struct site_rec {
    int id, ranks, max_rank, pad;
    long long offset, calls, ns, sent, recvd, min_ns, max_ns;
    char obj[OBJ_LEN];
};

struct resolved {
    char function[128], file[OBJ_LEN];
    int line;
};

struct pmpi_site_report {
    struct site_rec *recs;
    struct resolved *where; /* for the first ntop records */
    size_t n, ntop;
    long long dropped;
};

struct find_obj {
    uintptr_t addr;
    uintptr_t bias;
    const char *name;
    int found;
};

static int find_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
    struct find_obj *f = arg;
    (void)size;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_LOAD && f->addr >= lo && f->addr < lo + ph->p_memsz) {
            f->bias = info->dlpi_addr;
            f->name = info->dlpi_name;
            f->found = 1;
            return 1;
        }
    }
    return 0;
}

/* Object file and offset of the call instruction before a return address. */
static void locate(uintptr_t ret, struct site_rec *r)
{
    struct find_obj f = {ret - 1, 0, NULL, 0};
    dl_iterate_phdr(find_cb, &f);
    if (!f.found) {
        snprintf(r->obj, sizeof r->obj, "?");
        r->offset = (long long)(ret - 1);
        return;
    }
    r->offset = (long long)(ret - 1 - f.bias);
    if (f.name && f.name[0]) {
        snprintf(r->obj, sizeof r->obj, "%s", f.name);
    } else { /* the main program */
        ssize_t n = readlink("/proc/self/exe", r->obj, sizeof r->obj - 1);
        r->obj[n > 0 ? n : 0] = '\0';
    }
}

static int key_cmp(const struct site_rec *a, const struct site_rec *b)
{
    if (a->id != b->id)
        return a->id < b->id ? -1 : 1;
    int c = strcmp(a->obj, b->obj);
    if (c)
        return c;
    return a->offset < b->offset ? -1 : a->offset > b->offset;
}

static int key_cmp_q(const void *a, const void *b)
{
    return key_cmp(a, b);
}

static void combine(struct site_rec *into, const struct site_rec *r)
{
    into->calls += r->calls;
    into->ns += r->ns;
    into->sent += r->sent;
    into->recvd += r->recvd;
    into->ranks += r->ranks;
    if (r->min_ns < into->min_ns)
        into->min_ns = r->min_ns;
    if (r->max_ns > into->max_ns || (r->max_ns == into->max_ns && r->max_rank < into->max_rank)) {
        into->max_ns = r->max_ns;
        into->max_rank = r->max_rank;
    }
}

/* Sorted, adjacent duplicates combined; returns the new count. */
static size_t squeeze(struct site_rec *v, size_t n)
{
    size_t out = 0;
    for (size_t i = 0; i < n; i++) {
        if (out && key_cmp(&v[out - 1], &v[i]) == 0)
            combine(&v[out - 1], &v[i]);
        else
            v[out++] = v[i];
    }
    return out;
}

static struct site_rec *local_records(double ns_per_tick, size_t *count, long long *dropped)
{
    int nt = atomic_load(&pmpi_nthreads);
    size_t n = 0, cap = 0;
    struct site_rec *v = NULL;
    if (nt > PMPI_MAX_THREADS)
        nt = PMPI_MAX_THREADS + 1;
    for (int t = 0; t < nt; t++) {
        struct pmpi_thread *th = &pmpi_threads[t];
        *dropped += atomic_load(&th->sites_dropped);
        for (int i = 0; th->sites && i < PMPI_SITE_SLOTS; i++) {
            const struct pmpi_site *e = &th->sites[i];
            uint64_t key = atomic_load(&e->key);
            long long calls = atomic_load(&e->calls);
            if (!key || !calls)
                continue;
            if (n == cap) {
                size_t nc = cap ? 2 * cap : 64;
                struct site_rec *p = realloc(v, nc * sizeof *v);
                if (!p)
                    break;
                v = p;
                cap = nc;
            }
            struct site_rec *r = &v[n++];
            memset(r, 0, sizeof *r);
            r->id = (int)(key >> 48) - 1;
            locate((uintptr_t)(key & ((1ULL << 48) - 1)), r);
            r->ranks = 1;
            r->max_rank = pmpi_g.rank;
            r->calls = calls;
            r->ns = (long long)((double)atomic_load(&e->ticks) * ns_per_tick);
            r->sent = atomic_load(&e->sent);
            r->recvd = atomic_load(&e->recvd);
            r->min_ns = (long long)((double)atomic_load(&e->min) * ns_per_tick);
            r->max_ns = (long long)((double)atomic_load(&e->max) * ns_per_tick);
        }
    }
    if (n)
        qsort(v, n, sizeof *v, key_cmp_q);
    *count = squeeze(v, n);
    return v;
}

/* Two sorted record lists into one (the union, duplicates combined). */
static struct site_rec *merge(struct site_rec *a, size_t na, const struct site_rec *b, size_t nb,
                              size_t *n)
{
    struct site_rec *v = malloc((na + nb ? na + nb : 1) * sizeof *v);
    size_t i = 0, j = 0, k = 0;
    if (!v) {
        *n = na;
        return a;
    }
    while (i < na || j < nb) {
        if (j == nb || (i < na && key_cmp(&a[i], &b[j]) <= 0))
            v[k++] = a[i++];
        else
            v[k++] = b[j++];
    }
    free(a);
    *n = squeeze(v, k);
    return v;
}

static int by_time_desc(const void *a, const void *b)
{
    const struct site_rec *x = a, *y = b;
    return x->ns < y->ns ? 1 : x->ns > y->ns ? -1 : key_cmp(x, y);
}

/* addr2line -f -C -e OBJ OFF...: two lines per address (function, file:line). */
static void resolve_object(struct pmpi_site_report *r, const char *obj)
{
    size_t idx[TOP_JSON], n = 0;
    for (size_t i = 0; i < r->ntop; i++)
        if (strcmp(r->recs[i].obj, obj) == 0)
            idx[n++] = i;
    char offs[TOP_JSON][24];
    char *argv[6 + TOP_JSON];
    int a = 0;
    argv[a++] = "addr2line";
    argv[a++] = "-f";
    argv[a++] = "-C";
    argv[a++] = "-e";
    argv[a++] = (char *)obj;
    for (size_t i = 0; i < n; i++) {
        snprintf(offs[i], sizeof offs[i], "0x%llx", (unsigned long long)r->recs[idx[i]].offset);
        argv[a++] = offs[i];
    }
    argv[a] = NULL;
    int pipefd[2];
    if (pipe(pipefd) != 0)
        return;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
    posix_spawn_file_actions_addclose(&fa, pipefd[0]);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid;
    extern char **environ;
    int rc = posix_spawnp(&pid, "addr2line", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(pipefd[1]);
    FILE *in = rc == 0 ? fdopen(pipefd[0], "r") : NULL;
    if (!in) {
        close(pipefd[0]);
        if (rc == 0)
            waitpid(pid, NULL, 0);
        return;
    }
    char fn[512], loc[1024];
    for (size_t i = 0; i < n && fgets(fn, sizeof fn, in) && fgets(loc, sizeof loc, in); i++) {
        struct resolved *w = &r->where[idx[i]];
        fn[strcspn(fn, "\n")] = '\0';
        loc[strcspn(loc, "\n")] = '\0';
        char *colon = strrchr(loc, ':');
        if (colon) {
            *colon = '\0';
            w->line = atoi(colon + 1);
        }
        snprintf(w->function, sizeof w->function, "%.127s", fn);
        snprintf(w->file, sizeof w->file, "%.255s", loc);
    }
    fclose(in);
    waitpid(pid, NULL, 0);
}

struct pmpi_site_report *pmpi_callsites_merge(double ns_per_tick)
{
    size_t n = 0;
    long long dropped = 0, all_dropped = 0;
    struct site_rec *v = local_records(ns_per_tick, &n, &dropped);
    MPI_Comm comm;
    int rank = pmpi_g.rank, size = pmpi_g.nranks;
    PMPI_Comm_dup(MPI_COMM_WORLD, &comm);
    for (int step = 1; step < size; step <<= 1) {
        if (rank & step) {
            long long bytes = (long long)(n * sizeof *v);
            PMPI_Send(&bytes, 1, MPI_LONG_LONG, rank - step, 1, comm);
            PMPI_Send(v, (int)bytes, MPI_BYTE, rank - step, 2, comm);
            break;
        }
        if (rank + step < size) {
            long long bytes = 0;
            PMPI_Recv(&bytes, 1, MPI_LONG_LONG, rank + step, 1, comm, MPI_STATUS_IGNORE);
            struct site_rec *in = malloc(bytes > 0 ? (size_t)bytes : 1);
            /* The sender sends its records whatever happens here: receive them all. */
            PMPI_Recv(in ? (void *)in : (void *)&bytes, in ? (int)bytes : 0, MPI_BYTE,
                      rank + step, 2, comm, MPI_STATUS_IGNORE);
            if (in)
                v = merge(v, n, in, (size_t)bytes / sizeof *in, &n);
            free(in);
        }
    }
    PMPI_Reduce(&dropped, &all_dropped, 1, MPI_LONG_LONG, MPI_SUM, 0, comm);
    PMPI_Comm_free(&comm);
    if (rank != 0) {
        free(v);
        return NULL;
    }
    struct pmpi_site_report *r = calloc(1, sizeof *r);
    if (!r) {
        free(v);
        return NULL;
    }
    if (n)
        qsort(v, n, sizeof *v, by_time_desc);
    r->recs = v;
    r->n = n;
    r->dropped = all_dropped;
    r->ntop = n < TOP_JSON ? n : TOP_JSON;
    r->where = calloc(r->ntop ? r->ntop : 1, sizeof *r->where);
    if (!r->where)
        r->ntop = 0;
    for (size_t i = 0; i < r->ntop; i++) {
        snprintf(r->where[i].function, sizeof r->where[i].function, "??");
        snprintf(r->where[i].file, sizeof r->where[i].file, "??");
    }
    for (size_t i = 0; i < r->ntop; i++) {
        int seen = 0;
        for (size_t j = 0; j < i; j++)
            seen |= strcmp(r->recs[j].obj, r->recs[i].obj) == 0;
        if (!seen && r->recs[i].obj[0] != '?')
            resolve_object(r, r->recs[i].obj);
    }
    return r;
}

void pmpi_callsites_json(const struct pmpi_site_report *r, struct tbuf *t)
{
    tb_kv_int(t, "\"callsites\": {\"sites\": ", r ? (long long)r->n : 0);
    tb_kv_int(t, ", \"calls_without_site\": ", r ? r->dropped : 0);
    tb_raw(t, ", \"top\": [");
    for (size_t i = 0; r && i < r->ntop; i++) {
        const struct site_rec *s = &r->recs[i];
        const struct resolved *w = &r->where[i];
        tb_raw(t, i ? ",\n  {\"call\": " : "\n  {\"call\": ");
        tb_json(t, pmpi_calls[s->id].name);
        tb_raw(t, ", \"function\": ");
        tb_json(t, w->function);
        tb_raw(t, ", \"file\": ");
        tb_json(t, w->file);
        tb_kv_int(t, ", \"line\": ", w->line);
        tb_raw(t, ", \"object\": ");
        tb_json(t, s->obj);
        tb_fmt(t, ", \"offset\": \"0x%llx\"", (unsigned long long)s->offset);
        tb_kv_int(t, ", \"ranks\": ", s->ranks);
        tb_kv_int(t, ", \"calls\": ", s->calls);
        tb_kv_secs(t, ", \"time_s\": ", s->ns);
        tb_kv_int(t, ", \"bytes_sent\": ", s->sent);
        tb_kv_int(t, ", \"bytes_recv\": ", s->recvd);
        tb_kv_secs(t, ", \"min_call_s\": ", s->min_ns);
        tb_kv_secs(t, ", \"max_call_s\": ", s->max_ns);
        tb_kv_int(t, ", \"max_call_rank\": ", s->max_rank);
        tb_raw(t, "}");
    }
    tb_raw(t, "]}");
}

void pmpi_callsites_print(const struct pmpi_site_report *r, int top)
{
    if (!r || r->n == 0)
        return;
    printf("  top call sites by time (all ranks):\n");
    for (size_t i = 0; i < r->ntop && i < (size_t)top; i++) {
        const struct site_rec *s = &r->recs[i];
        const char *file = strrchr(r->where[i].file, '/');
        printf("  %-22s %s:%d (%s) ranks %d, calls %lld, time %.6f s, sent %lld B\n",
               pmpi_calls[s->id].name, file ? file + 1 : r->where[i].file, r->where[i].line,
               r->where[i].function, s->ranks, s->calls, (double)s->ns * 1e-9, s->sent);
    }
}

void pmpi_callsites_free(struct pmpi_site_report *r)
{
    if (!r)
        return;
    free(r->recs);
    free(r->where);
    free(r);
}
