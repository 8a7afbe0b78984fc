/* procio_component.c: the "procio" component, the kernel's per-task I/O accounting
 * (/proc/<task>/io, Documentation/filesystems/proc.rst): bytes and system calls of read
 * and write, and the bytes that really reached or left storage. A whole component in one
 * file and one line of components/registry.c: it sees only component.h and the SDK.
 *
 * The calling thread is counted through /proc/thread-self/io, opened when its event set
 * gets its first event (the link resolves to that thread, and stays); an attached task
 * through /proc/<tid>/io (a process: its threads together). The counters only grow; a
 * slot counts what grew while its set ran. Reading the file is itself a read(): it adds
 * to this thread's rchar and syscr (by the file's length and one call), never to the
 * write counters, so wchar and syscw count exactly what the program wrote.
 *
 * The contexts and the counting are the slot engine's (slot_engine.h); this file is the
 * event table and the read function. read() may run in a signal handler (component.h):
 * the read function only preads and parses; a failure is recorded by the engine and its
 * reason given outside the read path.
 *
 * Fork: the calling task's file (thread-self, self) names the task that opened it, so
 * in a forked child a context inherited from the parent would read the parent's counts.
 * The child's copies are refused (PAPI_ECLOST, with the reason): the library counts
 * forks (papi_fork_count, no callback of ours runs in the child) and a context remembers
 * the count it was opened under. An attached task's file (/proc/<tid>/io) names that task wherever it
 * is read from, so it keeps counting it. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "component.h"
#include "fsroot.h"
#include "slot_engine.h"

#define PROCIO_PREFIX    "procio:::"
#define PROCIO_MAX_SLOTS 64

/* The fields, in the kernel's order; local code = index. */
static const struct procio_event {
    const char *name, *units, *descr;
} events[] = {
    {"rchar", "bytes", "Bytes read by read-like system calls (storage or not)"},
    {"wchar", "bytes", "Bytes written by write-like system calls (storage or not)"},
    {"syscr", "calls", "Read-like system calls (read, pread, readv, sendfile ...)"},
    {"syscw", "calls", "Write-like system calls (write, pwrite, writev, sendfile ...)"},
    {"read_bytes", "bytes", "Bytes this task caused to be fetched from storage"},
    {"write_bytes", "bytes", "Bytes this task caused to be sent to storage"},
    {"cancelled_write_bytes", "bytes", "Bytes whose write to storage was cancelled (truncation)"},
};
#define NEVENTS ((int)(sizeof events / sizeof events[0]))

/* A failed read, kept for the next call outside the read path (0: none). */
#define PROCIO_NO_FIELD (-1) /* the file lacks a field */
#define PROCIO_FORKED   (-2) /* a forked child's copy of its parent's context */

/* A context's own data (the engine's slots count the fields: local code = field). */
struct procio_own {
    int fd;         /* the task's io file, kept open, re-read with pread */
    int self;       /* the calling task's file (thread-self, self): bound to its process */
    unsigned forks; /* the fork count it was opened under */
    char path[40];
};

static const struct procio_own *own_of(const struct cmp_context *c)
{
    return slot_own(c);
}

/* Parse "name: value" lines into raw[] by field name (the order is the kernel's, but
 * matching by name keeps a kernel that adds a field from shifting ours). Plain loops, no
 * stdio: read() may run in a signal handler (component.h). Returns the fields found. */
static int parse(const char *text, size_t len, uint64_t *raw)
{
    int found = 0;
    size_t i = 0;
    while (i < len) {
        size_t name = i;
        while (i < len && text[i] != ':' && text[i] != '\n')
            i++;
        size_t name_len = i - name;
        uint64_t v = 0;
        if (i < len && text[i] == ':') {
            for (i++; i < len && text[i] == ' '; i++)
                ;
            for (; i < len && text[i] >= '0' && text[i] <= '9'; i++)
                v = v * 10 + (uint64_t)(text[i] - '0');
            for (int e = 0; e < NEVENTS; e++)
                if (strlen(events[e].name) == name_len &&
                    memcmp(events[e].name, text + name, name_len) == 0) {
                    raw[e] = v;
                    found++;
                }
        }
        while (i < len && text[i] != '\n')
            i++;
        i++;
    }
    return found;
}

/* Every field now: 0, an errno, or PROCIO_NO_FIELD. Async-signal-safe (no stdio, no
 * allocation, errno saved). */
static int read_fields(int fd, uint64_t *raw)
{
    char buf[512];
    int saved = errno;
    ssize_t n = pread(fd, buf, sizeof buf, 0);
    int err = n < 0 ? errno : 0;
    errno = saved;
    if (err)
        return err;
    return n > 0 && parse(buf, (size_t)n, raw) == NEVENTS ? 0 : PROCIO_NO_FIELD;
}

static int inherited(const struct procio_own *own)
{
    return own->self && papi_fork_count() != own->forks;
}

/* The fields of slots from .. from + n - 1 now (the read function): a task ended or a forked child's copy is
 * PAPI_ECLOST, else PAPI_ESYS, with read_fields's result or PROCIO_FORKED in f.
 * Async-signal-safe. */
static int fields_now(struct cmp_context *c, enum slot_phase phase, int from, int n, uint64_t *raw,
                      struct slot_fail *f)
{
    (void)phase;
    uint64_t fields[NEVENTS];
    const struct procio_own *own = own_of(c);
    int err = inherited(own) ? PROCIO_FORKED : read_fields(own->fd, fields);
    if (err) {
        f->err = err;
        return err == PROCIO_FORKED || err == ESRCH ? PAPI_ECLOST : PAPI_ESYS;
    }
    for (int i = 0; i < n; i++)
        raw[i] = fields[slot_event(c, from + i)];
    return PAPI_OK;
}

/* Why reading c failed, as papi_error records it. Never on the read path. */
static int read_error(const struct cmp_context *c, const struct slot_fail *f)
{
    const char *path = own_of(c)->path;
    if (f->err == PROCIO_FORKED)
        return papi_error(PAPI_ECLOST,
                          "procio: this event set's %s was opened by the parent process "
                          "before a fork; a forked child does not count its parent's task "
                          "(create the event set in the child)",
                          path);
    if (f->err == PROCIO_NO_FIELD)
        return papi_error(PAPI_ESYS,
                          "cannot read the task's io counters in %s: a field is "
                          "missing",
                          path);
    return papi_error(f->err == ESRCH ? PAPI_ECLOST : PAPI_ESYS,
                      "cannot read the task's io counters in %s: %s%s", path, strerror(f->err),
                      f->err == ESRCH ? " (the task has ended)" : "");
}

static int open_io(pid_t tid, int granularity, char *path, size_t len)
{
    if (tid > 0)
        snprintf(path, len, "/proc/%d/io", (int)tid);
    else
        snprintf(path, len,
                 granularity == PAPI_GRN_PROC ? "/proc/self/io" : "/proc/thread-self/io");
    return fsroot_open(path, O_RDONLY); /* a task's files are always this machine's */
}

static int probe(struct papi_component *self, struct cmp_status *out)
{
    (void)self;
    char path[64];
    uint64_t raw[NEVENTS];
    int fd = open_io(0, PAPI_GRN_THR, path, sizeof path);
    int err = fd < 0 ? errno : read_fields(fd, raw);
    int ok = err == 0;
    if (!ok) {
        out->disabled = PAPI_ECMP;
        snprintf(out->reason, sizeof out->reason,
                 "%s is not readable (%s): the kernel has no per-task I/O accounting "
                 "(CONFIG_TASK_IO_ACCOUNTING) or /proc is not mounted",
                 path, err > 0 ? strerror(err) : "a field is missing");
    }
    if (fd >= 0)
        close(fd);
    out->num_counters = ok ? NEVENTS : 0;
    return PAPI_OK;
}

static void fill_info(const struct papi_component *self, PAPI_component_info_t *info)
{
    snprintf(info->name, sizeof info->name, "%s", self->name);
    snprintf(info->short_name, sizeof info->short_name, "%s", self->name);
    snprintf(info->description, sizeof info->description,
             "Linux per-task I/O accounting (/proc/<task>/io): bytes and system calls");
    info->num_native_events = info->disabled ? 0 : NEVENTS;
    info->num_cntrs = info->num_mpx_cntrs = info->num_native_events;
    info->default_domain = info->available_domains = PAPI_DOM_ALL;
    info->default_granularity = PAPI_GRN_THR;
    info->available_granularities = PAPI_GRN_THR | PAPI_GRN_PROC;
    info->attach = 1;
}

static int name_to_code(const struct papi_component *self, const char *name, int *local)
{
    (void)self;
    if (strncmp(name, PROCIO_PREFIX, strlen(PROCIO_PREFIX)) != 0)
        return PAPI_ENOEVNT; /* quietly: the core asks every component */
    name += strlen(PROCIO_PREFIX);
    for (int e = 0; e < NEVENTS; e++)
        if (strcmp(name, events[e].name) == 0) {
            *local = e;
            return PAPI_OK;
        }
    return PAPI_ENOEVNT;
}

static int valid(int local)
{
    return local >= 0 && local < NEVENTS;
}

static int code_to_name(const struct papi_component *self, int local, char *out, size_t len)
{
    (void)self;
    if (!valid(local))
        return papi_error(PAPI_ENOEVNT, "procio has no event %d", local);
    if ((size_t)snprintf(out, len, PROCIO_PREFIX "%s", events[local].name) >= len)
        return papi_error(PAPI_EBUF, "procio event name longer than %zu bytes", len - 1);
    return PAPI_OK;
}

static int enumerate(const struct papi_component *self, int *local, int modifier)
{
    (void)self;
    int next = modifier == PAPI_ENUM_FIRST ? 0 : modifier == PAPI_ENUM_EVENTS ? *local + 1 : -1;
    if (!valid(next))
        return PAPI_ENOEVNT; /* the end, or qualifiers: procio events have none */
    *local = next;
    return PAPI_OK;
}

static int event_info(const struct papi_component *self, int local, PAPI_event_info_t *info)
{
    if (!valid(local))
        return papi_error(PAPI_ENOEVNT, "procio has no event %d", local);
    snprintf(info->symbol, sizeof info->symbol, PROCIO_PREFIX "%s", events[local].name);
    snprintf(info->short_descr, sizeof info->short_descr, "%.63s", events[local].descr);
    snprintf(info->long_descr, sizeof info->long_descr, "%s", events[local].descr);
    snprintf(info->units, sizeof info->units, "%s", events[local].units);
    info->component_index = self->cidx;
    info->data_type = PAPI_DATATYPE_UINT64;
    info->value_type = PAPI_VALUETYPE_RUNNING_SUM;
    info->timescope = PAPI_TIMESCOPE_SINCE_START;
    return PAPI_OK;
}

static int query(const struct papi_component *self, int local, int domain)
{
    (void)self, (void)domain; /* the kernel counts I/O whatever the privilege level */
    return valid(local) ? PAPI_OK : PAPI_ENOEVNT;
}

static int open_slot(struct cmp_context *c, int local, void *data, struct slot_kind *kind)
{
    (void)c, (void)data, (void)kind; /* a counter of 64 bits: the engine's default */
    return valid(local) ? PAPI_OK : papi_error(PAPI_ENOEVNT, "procio has no event %d", local);
}

static void release(struct cmp_context *c, void *own)
{
    (void)c;
    close(((struct procio_own *)own)->fd);
}

static const struct slot_ops procio_ops = {
    .own_size = sizeof(struct procio_own),
    .max_slots = PROCIO_MAX_SLOTS,
    .lost = SLOT_LOST_FAILS,
    .open = open_slot,
    .release = release,
    .read = fields_now,
    .explain = read_error,
};

static int ctx_create(const struct papi_component *self, const struct cmp_target *target,
                      struct cmp_context **ctx)
{
    if (target->cpu >= 0 || !(target->granularity & (PAPI_GRN_THR | PAPI_GRN_PROC)))
        return papi_error(PAPI_EINVAL, "procio counts a thread or a process, not a CPU or "
                                       "the whole system");
    char path[64];
    int fd = open_io(target->tid, target->granularity, path, sizeof path);
    if (fd < 0)
        return papi_error(errno == EACCES || errno == EPERM ? PAPI_EPERM : PAPI_ESYS,
                          "cannot open %s: %s", path, strerror(errno));
    int ret = slot_ctx_create(self, &procio_ops, "procio", ctx);
    if (ret != PAPI_OK) {
        close(fd);
        return ret;
    }
    struct procio_own *own = slot_own(*ctx);
    own->fd = fd;
    own->self = target->tid <= 0;
    own->forks = papi_fork_count();
    papi_strcpy(own->path, sizeof own->path, path);
    return PAPI_OK;
}

/* The instance the registry lists (components/registry.c). */
struct papi_component procio_component PAPI_INTERNAL = {
    .name = "procio",
    SLOT_COMPONENT_CALLBACKS,
};
