/* event_log_file.c: the event log appended to papi_mpi_rank<N>.events.jsonl at
 * checkpoints, on the exit path of a dying rank and, kept, at MPI_Finalize
 * (event_log_file.h).
 *
 * Each append is one or more lines, each written with one write(2) on an O_APPEND
 * descriptor: a rank killed mid-write (SIGKILL) leaves at most one torn last line, which
 * the reader skips. A line carries the index of its first record ("first"), so a record
 * appended twice is read once. Only records whose writer finished them are taken (the
 * hot path stores a record's kind last, with release): the first unfinished one and
 * those after it go in the next append. Times are this rank's CLOCK_MONOTONIC ns (the
 * tick ratio measured up to the append) and the line says the rank's offset to rank 0
 * measured at MPI_Init: the reader puts every rank on rank 0's clock. */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "env_flag.h"
#include "event_log.h"
#include "event_log_file.h"
#include "output_file.h"
#include "clock.h"
#include "papi_mpi_calls.h"
#include "record.h"
#include "region_state.h"
#include "run_events.h"
#include "site_names.h"
#include "pmpi_identity.h"
#include "state.h"
#include "text_buffer.h"

#define LINE_CAP    (1024 * 1024) /* one line: about 7,000 records */
#define RECORD_ROOM 512           /* the most one record's text takes (a region's name) */

static _Atomic int busy;        /* an append is under way */
static int fd = -1;             /* the file, opened at the first append */
static _Atomic int made;        /* this rank created the file */
static char lines[2][LINE_CAP]; /* [0] exit paths, [1] the checkpoint thread */
static char file_name[64];

static void say(const char *a, const char *b)
{
    const char *parts[4] = {"papi_mpi: ", a, b, "\n"};
    for (int i = 0; i < 4; i++)
        if (write(2, parts[i], strlen(parts[i])) < 0)
            return;
}

/* The file opened (created, or emptied of an earlier run's lines) at the first append. */
static int open_file(int dir)
{
    if (fd >= 0)
        return 0;
    struct tbuf t;
    tb_init(&t, file_name, sizeof file_name);
    tb_raw(&t, "papi_mpi_rank");
    tb_int(&t, pmpi_id()->rank);
    tb_raw(&t, ".events.jsonl");
    fd = openat(dir, file_name, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC | O_NOFOLLOW,
                0644);
    if (fd < 0)
        return -1;
    atomic_store(&made, 1);
    return 0;
}

/* Appends s to name[*len], cut where it would leave less than keep bytes. */
static void put_cut(char *name, size_t *len, size_t cap, size_t keep, const char *s)
{
    while (*s && *len + keep + 1 < cap)
        name[(*len)++] = *s++;
    name[*len] = 0;
}

/* A region entry's metric: "METRIC [region NAME] (millionths)" (its value is logged x 10^6
 * as the log's integer: papi_report --merge-trace takes the suffix off and divides); the
 * region's name cut so the whole stays within the schema's 130 bytes. */
static void region_metric_name(struct jw *w, const struct pmpi_event *e)
{
    char name[131];
    size_t len = 0;
    static const char tail[] = "] (millionths)";
    put_cut(name, &len, sizeof name, 0,
            e->call < pmpi_ev()->nmetrics ? pmpi_ev()->metric_names[e->call] : "");
    put_cut(name, &len, sizeof name, 0, " [region ");
    put_cut(name, &len, sizeof name, sizeof tail - 1,
            e->pad < PMPI_MAX_REGIONS ? pmpi_regions()->regions[e->pad].name : "");
    put_cut(name, &len, sizeof name, 0, tail);
    jw_str(w, NULL, name);
}

/* Its value x 10^6, as the schema's integer bytes (a negative one: 0). */
static long long millionths(const struct pmpi_event *e)
{
    double d;
    memcpy(&d, &e->bytes, sizeof d);
    d *= 1e6;
    return d > 0 && d < 9e18 ? (long long)(d + 0.5) : 0;
}

/* One record: [kind, name, t0, t1, peer, tag, bytes, request, flags, site, pad, thread,
 * calls], its times in ns on this rank's clock. */
static void record_text(struct jw *w, const struct pmpi_event *e, int kind, double npt)
{
    jw_arr_begin(w, NULL);
    jw_int(w, NULL, kind);
    if (kind == PMPI_EV_REGION_ENTER || kind == PMPI_EV_REGION_EXIT)
        jw_str(w, NULL, e->call < PMPI_MAX_REGIONS ? pmpi_regions()->regions[e->call].name : "");
    else if (kind == PMPI_EV_COUNTER && (e->flags & PMPI_EVF_METRIC))
        region_metric_name(w, e);
    else if (kind == PMPI_EV_COUNTER) /* a PAPI_INTERVAL sample: the event's name */
        jw_str(w, NULL, e->call < pmpi_ev()->nevents ? pmpi_ev()->event_names[e->call] : "");
    else
        jw_str(w, NULL, e->call < PMPI_NCALLS ? pmpi_calls[e->call].name : "");
    jw_int(w, NULL, pmpi_id()->t_init + (long long)((double)(e->t0 - pmpi_id()->tick_init) * npt));
    jw_int(w, NULL, pmpi_id()->t_init + (long long)((double)(e->t1 - pmpi_id()->tick_init) * npt));
    jw_int(w, NULL, e->peer);
    jw_int(w, NULL, e->tag);
    jw_int(w, NULL,
           kind == PMPI_EV_COUNTER && (e->flags & PMPI_EVF_METRIC) ? millionths(e) : e->bytes);
    jw_int(w, NULL, (long long)(e->req & 0x7fffffffffffffffULL));
    jw_int(w, NULL, e->flags);
    jw_int(w, NULL, (long long)(e->site & 0x7fffffffffffffffULL));
    jw_int(w, NULL, (long long)e->pad);
    jw_int(w, NULL, (long long)e->thread);
    jw_int(w, NULL, e->calls ? (long long)e->calls : 1); /* a fold's polls (PMPI_EVF_POLL) */
    jw_arr_end(w);
}

/* One line from record lo on (at most hi), with the names learnt (names: the file's
 * lock held, site_names.h); returns the record after the last written. */
static long long line_text(struct tbuf *t, const char *reason, long long lo, long long hi,
                           double npt, long long claimed, int names)
{
    struct jw w;
    tb_jw(&w, t);
    jw_tight(&w);
    jw_obj_begin(&w, NULL);
    jw_str(&w, "tool", "papi_mpi");
    jw_str(&w, "kind", "event_log");
    jw_str(&w, "run_id", pmpi_id()->run_id);
    jw_int(&w, "rank", pmpi_id()->rank);
    jw_int(&w, "nranks", pmpi_id()->nranks);
    jw_str(&w, "reason", reason);
    jw_int(&w, "offset_ns", (long long)pmpi_log.offset_ns);
    jw_int(&w, "residual_ns", (long long)pmpi_log.residual_ns);
    jw_int(&w, "capacity", pmpi_log.cap);
    jw_int(&w, "dropped", claimed > pmpi_log.cap ? claimed - pmpi_log.cap : 0);
    jw_int(&w, "first", lo);
    if (names)
        pmpi_site_names_put(&w); /* bounded: the records keep most of the line */
    jw_arr_begin(&w, "records");
    long long i = lo;
    for (; i < hi && t->len + RECORD_ROOM < t->cap; i++) {
        const struct pmpi_event *e = &pmpi_log.ev[i];
        int kind = __atomic_load_n(&e->kind, __ATOMIC_ACQUIRE);
        if (kind == 0)
            break; /* its writer has not finished it: the next append takes it */
        record_text(&w, e, kind, npt);
    }
    jw_arr_end(&w);
    jw_obj_end(&w);
    tb_raw(t, "\n");
    return i;
}

int pmpi_log_file_append(int dir, const char *reason, int exit_path, int in_signal)
{
    if (!pmpi_log.ev || dir < 0)
        return 0;
    int locked = 1;  /* this append alone: the site names' table is its own */
    if (exit_path) { /* a checkpoint's append ends in microseconds: wait at most 1 s */
        int n = 0;
        for (; atomic_exchange(&busy, 1) && n < 1000; n++) {
            struct timespec ms = {0, 1000000};
            nanosleep(&ms, NULL);
        }
        locked = n < 1000;
    } else if (atomic_exchange(&busy, 1)) {
        return 0; /* an exit path is appending: it takes these records too */
    }
    int rc = 0;
    long long claimed = atomic_load_explicit(&pmpi_log.next, memory_order_relaxed);
    long long hi = claimed < pmpi_log.cap ? claimed : pmpi_log.cap;
    long long lo = atomic_load(&pmpi_log.shipped);
    /* a checkpoint with nothing new writes nothing (but the first: the file names the
     * rank); an exit path always writes its reason */
    if (lo >= hi && !exit_path && fd >= 0)
        goto out;
    if (open_file(dir) != 0) {
        say("could not create this rank's event log file in the output directory", "");
        rc = -1;
        goto out;
    }
    if (locked && !in_signal) /* libdw allocates: never in a signal handler */
        pmpi_site_names_learn(lo, hi);
    double npt = pmpi_ns_per_tick(pmpi_now_ns(), pmpi_ticks());
    char *mem = lines[exit_path ? 0 : 1];
    do {
        struct tbuf t;
        tb_init(&t, mem, LINE_CAP);
        long long next = line_text(&t, reason, lo, hi, npt, claimed, locked);
        if (t.cut || output_file_write(fd, t.s, t.len) != 0) {
            say("could not append to ", file_name);
            rc = -1;
            break;
        }
        if (locked)
            pmpi_site_names_sent();
        atomic_store(&pmpi_log.shipped, next);
        if (next == lo)
            break; /* an unfinished record, or nothing left */
        lo = next;
    } while (lo < hi);
out:
    atomic_store(&busy, 0);
    return rc;
}

void pmpi_log_file_finished(int (*open_dir)(void))
{
    /* PAPI_MPI_KEEP_EVENT_LOG=1: the rest appended and the file kept (a bad value is said
     * even where no log was made) */
    int keep = pmpi_env_flag("PAPI_MPI_KEEP_EVENT_LOG", 0, pmpi_id()->rank,
                             "the event logs removed at MPI_Finalize") &&
               pmpi_log.ev;
    if (keep)
        pmpi_log_file_append(open_dir(), "MPI_Finalize", 1, 0);
    if (fd >= 0) {
        close(fd);
        fd = -1;
    }
    if (!keep && atomic_load(&made)) {
        int dir = open_dir();
        if (dir >= 0 && atomic_exchange(&made, 0))
            unlinkat(dir, file_name, 0);
    }
}
