/* run_sample_preload.c: libpapi_run_sample.so, which papi_run --sample preloads into the
 * program (run_sample.h). Every thread opens its own sampling group and ring (the main
 * thread from the constructor, the others from pthread_create, a forked child's from the
 * fork handler, which also drops the parent's samples the child inherited); one drain
 * thread per process, which the program never sees, empties the rings every few
 * milliseconds and whenever the kernel says a ring is a quarter full (poll on the rings'
 * watermark); a thread's end drains and closes its ring. At exit (exit, return from
 * main, _exit) and before an exec replaces the image (run_sample_exec.c) the last samples
 * are drained, the addresses named and the files written. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "env.h"
#include "run_sample.h"
#include "run_sample_fpcheck.h"
#include "run_sample_preload.h"
#include "run_sample_profile.h"
#include "run_sample_ring.h"
#include "run_thread_hook.h"

/* The drain thread's period adapts to the fullest ring it found: halved when one was
 * over a quarter full, doubled when all were under 1/16, between these bounds (each
 * wake-up costs the program: a timer and a switch). */
#define RS_DRAIN_MIN_NS 2000000L
#define RS_DRAIN_MAX_NS 100000000L
/* Rings the drain thread polls at once; the others are emptied on its timer only. */
#define RS_POLL_MAX 256

static struct rs_config cfg;
static struct stack_table table;
/* Guards the ring list, the table and the note; taken by the drain thread, a thread
 * that ends, fork and exit. Nothing else is taken under it. */
static pthread_mutex_t sample_lock = PTHREAD_MUTEX_INITIALIZER;
static struct rs_ring *rings;
static pthread_key_t key;
static int ready, finished, drainer_up;
static pid_t owner; /* the process the state is of: a vfork child shares it, never owns it */
/* The drain thread runs while drain_gen is the generation it was started with: exit and
 * exec end it, a failed exec starts the next. */
static unsigned drain_gen;
static char note[1024];
/* The signal the program is dying of (on_fatal), said in the profile's note. */
static int fatal_sig;
static const int fatal_sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS};
#define RS_FATAL_N       (int)(sizeof fatal_sigs / sizeof fatal_sigs[0])
#define RS_FATAL_WRITE_S 10 /* the most a dying program may take to write its profile */
static run_create_fn real_create;

static void add_note(const char *text)
{
    size_t n = strlen(note);
    if (!strstr(note, text))
        snprintf(note + n, sizeof note - n, "%s%s", n ? "; " : "", text);
}

/* The largest share of a ring's data area that was full, in 1/256ths. */
static size_t drain_all(void)
{
    size_t fullest = 0;
    for (struct rs_ring *r = rings; r; r = r->next) {
        size_t n = rs_ring_drain(r, &cfg, &table),
               share = r->data_size ? 256 * n / r->data_size : 0;
        if (share > fullest)
            fullest = share;
    }
    return fullest;
}

static void *drain_loop(void *arg)
{
    unsigned gen = (unsigned)(uintptr_t)arg;
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL); /* the program's signals go to its threads */
    long period = 10000000L;
    static struct pollfd pfd[RS_POLL_MAX];
    while (__atomic_load_n(&drain_gen, __ATOMIC_ACQUIRE) == gen) {
        nfds_t n = 0;
        pthread_mutex_lock(&sample_lock);
        for (struct rs_ring *r = rings; r && n < RS_POLL_MAX; r = r->next)
            pfd[n++] = (struct pollfd){.fd = r->fd[0], .events = POLLIN};
        pthread_mutex_unlock(&sample_lock);
        /* A ring closed meanwhile, or a descriptor the program closed under us, answers
         * at once (POLLNVAL, POLLHUP): the timer alone then, or this would spin. */
        int woke = poll(pfd, n, (int)(period / 1000000L));
        int stale = 0;
        for (nfds_t i = 0; woke > 0 && i < n; i++)
            stale |= pfd[i].revents & (POLLNVAL | POLLHUP | POLLERR);
        if (woke < 0 || stale) {
            const struct timespec ts = {period / 1000000000L, period % 1000000000L};
            nanosleep(&ts, NULL);
        }
        pthread_mutex_lock(&sample_lock);
        size_t fullest = drain_all();
        pthread_mutex_unlock(&sample_lock);
        if (fullest > 64 && period > RS_DRAIN_MIN_NS)
            period /= 2;
        else if (fullest < 16 && period < RS_DRAIN_MAX_NS)
            period *= 2;
    }
    return NULL;
}

static void start_drainer(void)
{
    unsigned gen = __atomic_add_fetch(&drain_gen, 1, __ATOMIC_ACQ_REL);
    /* libc's own pthread_create: another preloaded library's (papi_run --per-thread's)
     * would take the drain thread for one of the program's */
    static int (*libc_create)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
    void *libc = libc_create ? NULL : dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
    if (libc) {
        libc_create = (int (*)(pthread_t *, const pthread_attr_t *, void *(*)(void *),
                               void *))dlsym(libc, "pthread_create");
        dlclose(libc);
    }
    pthread_t drainer;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    drainer_up = (libc_create ? libc_create : real_create)(&drainer, &attr, drain_loop,
                                                           (void *)(uintptr_t)gen) == 0;
    pthread_attr_destroy(&attr);
    if (!drainer_up)
        add_note("no drain thread: samples beyond one ring per thread were lost");
}

static void sample_this_thread(void)
{
    char why[300];
    struct rs_ring *r = calloc(1, sizeof *r);
    if (!r)
        return;
    if (rs_ring_open(r, &cfg, why, sizeof why) != 0) {
        pthread_mutex_lock(&sample_lock);
        add_note(why);
        pthread_mutex_unlock(&sample_lock);
        free(r);
        return;
    }
    pthread_mutex_lock(&sample_lock);
    if (r->callchain != cfg.callchain)
        add_note("--call-graph dwarf: not here (the kernel refused the user registers and "
                 "stack with each sample, or no register mapping for this CPU): frame pointers");
    r->next = rings;
    rings = r;
    pthread_mutex_unlock(&sample_lock);
    pthread_setspecific(key, r);
}

static void thread_done(void *p)
{
    struct rs_ring *r = p;
    pthread_mutex_lock(&sample_lock);
    if (finished) { /* the process's exit already took its samples */
        pthread_mutex_unlock(&sample_lock);
        return;
    }
    for (struct rs_ring **q = &rings; *q; q = &(*q)->next)
        if (*q == r) {
            *q = r->next;
            break;
        }
    rs_ring_drain(r, &cfg, &table);
    rs_ring_close(r);
    pthread_mutex_unlock(&sample_lock);
    free(r);
}

static void thread_starts(void)
{
    if (ready)
        sample_this_thread();
}

int pthread_create(pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *), void *arg)
{
    if (!real_create)
        real_create = run_next_create();
    return run_thread_create(real_create, t, attr, fn, arg, ready ? thread_starts : NULL);
}

static void before_fork(void)
{
    pthread_mutex_lock(&sample_lock);
}

static void parent_after_fork(void)
{
    pthread_mutex_unlock(&sample_lock);
}

/* In the child: the parent's rings and samples are the parent's; this process starts
 * its own (its only thread is the one that forked). */
static void child_after_fork(void)
{
    for (struct rs_ring *r = rings, *next; r; r = next) {
        next = r->next;
        rs_ring_close(r);
        free(r);
    }
    rings = NULL;
    stack_table_free(&table);
    if (stack_table_init(&table, cfg.cap, 1 + cfg.nread) != 0)
        ready = 0;
    note[0] = 0;
    owner = getpid();
    pthread_mutex_unlock(&sample_lock);
    pthread_setspecific(key, NULL);
    if (ready) {
        sample_this_thread();
        start_drainer();
    }
}

static int parse_event(const char *spec, int i, int sampled)
{
    char mode = 0;
    unsigned long long config, value = 0;
    unsigned type;
    const char *bar = strchr(spec, '|');
    if (!bar || bar == spec || (size_t)(bar - spec) >= RS_NAME_LEN)
        return -1;
    int n = sampled ? sscanf(bar + 1, "%u|%llu|%c|%llu", &type, &config, &mode, &value)
                    : sscanf(bar + 1, "%u|%llu", &type, &config);
    if (n != (sampled ? 4 : 2) || (sampled && ((mode != 'f' && mode != 'p') || value == 0)))
        return -1;
    snprintf(cfg.name[i], RS_NAME_LEN, "%.*s", (int)(bar - spec), spec);
    cfg.type[i] = type;
    cfg.config[i] = config;
    if (sampled) {
        cfg.freq = mode == 'f';
        cfg.value = value;
    }
    return 0;
}

/* PAPI_RUN_SAMPLE_OPTS's word: fp, dwarf, none as given; dwarf-fp: dwarf given but refused
 * by papi_run's pre-flight; auto: this process's executable decides (run_sample_fpcheck.c);
 * auto-fp: the same, dwarf refused by the pre-flight. */
static void choose_call_graph(const char *cg)
{
    int refused = strcmp(cg, "auto-fp") == 0;
    if (refused || strcmp(cg, "auto") == 0) {
        cfg.callchain = rs_fp_decide("/proc/self/exe", cfg.cg_reason, sizeof cfg.cg_reason);
        if (refused && cfg.callchain == RS_CG_DWARF) {
            size_t n = strlen(cfg.cg_reason);
            snprintf(cfg.cg_reason + n, sizeof cfg.cg_reason - n,
                     ", but DWARF unwinding is refused here: frame pointers (callers may be "
                     "missing)");
            cfg.callchain = RS_CG_FP;
        }
        return;
    }
    cfg.callchain = strcmp(cg, "fp") == 0 || strcmp(cg, "dwarf-fp") == 0 ? RS_CG_FP
                    : strcmp(cg, "dwarf") == 0                           ? RS_CG_DWARF
                                                                         : RS_CG_NONE;
    snprintf(cfg.cg_reason, sizeof cfg.cg_reason, "%s",
             strcmp(cg, "dwarf-fp") == 0 ? "--call-graph dwarf given, refused here: frame pointers"
             : cfg.callchain == RS_CG_FP ? "--call-graph fp given"
             : cfg.callchain == RS_CG_DWARF ? "--call-graph dwarf given"
                                            : "--call-graph none given");
}

static int configure(void)
{
    const char *ev = env_get("PAPI_RUN_SAMPLE"), *rd = env_get("PAPI_RUN_SAMPLE_READ");
    const char *opts = env_get("PAPI_RUN_SAMPLE_OPTS"), *dir = env_get("PAPI_RUN_SAMPLE_DIR");
    const char *id = env_get("PAPI_RUN_ID");
    char cg[16] = "";
    unsigned long cap = 0;
    if (!ev || !opts || !dir || !id || parse_event(ev, 0, 1) != 0 ||
        sscanf(opts, "%15s %d %lu", cg, &cfg.kernel, &cap) != 3 || cap == 0 || cap > (1UL << 24))
        return -1;
    choose_call_graph(cg);
    cfg.cap = cap;
    snprintf(cfg.dir, sizeof cfg.dir, "%s", dir);
    snprintf(cfg.id, sizeof cfg.id, "%s", id);
    char list[(RS_NAME_LEN + 48) * RS_MAX_READ], *save = NULL;
    snprintf(list, sizeof list, "%s", rd ? rd : "");
    for (char *t = strtok_r(list, ";", &save); t; t = strtok_r(NULL, ";", &save))
        if (cfg.nread >= RS_MAX_READ || parse_event(t, 1 + cfg.nread++, 0) != 0)
            return -1;
    return 0;
}

static void catch_fatal(void);

__attribute__((constructor)) static void sample_start(void)
{
    real_create = run_next_create();
    if (!real_create || configure() != 0 || pthread_key_create(&key, thread_done) != 0 ||
        stack_table_init(&table, cfg.cap, 1 + cfg.nread) != 0)
        return;
    pthread_atfork(before_fork, parent_after_fork, child_after_fork);
    owner = getpid();
    ready = 1;
    catch_fatal();
    sample_this_thread();
    start_drainer();
}

/* At exit or exec: the drain thread stopped, every ring drained one last time, then named
 * and written (before an exec only when something was sampled: a forked child that execs
 * at once has nothing). Threads still running lose their last milliseconds only. 1 when
 * this process was sampled until now. */
static int finish(int before_exec)
{
    if (getpid() != owner || !__atomic_exchange_n(&ready, 0, __ATOMIC_ACQ_REL))
        return 0;
    /* Not joined (it may sleep 100 ms): it stops at its next wake-up, finding the rings
     * closed under the lock. */
    __atomic_add_fetch(&drain_gen, 1, __ATOMIC_ACQ_REL);
    pthread_mutex_lock(&sample_lock);
    finished = 1;
    for (struct rs_ring *r = rings; r; r = r->next) {
        rs_ring_drain(r, &cfg, &table);
        rs_ring_close(r);
    }
    if (table.dropped)
        add_note("distinct stacks past the cap were dropped (dropped_samples)");
    stack_unwind_end();
    if (table.unwind_failed) {
        char text[160];
        snprintf(text, sizeof text,
                 "DWARF unwinding stopped early in %llu of %llu samples (a frame without CFI "
                 "or an unreadable stack): those stacks end there",
                 (unsigned long long)table.unwind_failed, (unsigned long long)table.samples);
        add_note(text);
    }
    if (fatal_sig) {
        char text[96];
        snprintf(text, sizeof text,
                 "the program was killed by signal %d (%s): its profile ends there", fatal_sig,
                 strsignal(fatal_sig));
        add_note(text);
    }
    if (!before_exec || table.samples || table.lost)
        (before_exec ? rs_profile_write_exec : rs_profile_write)(&cfg, &table, note);
    pthread_mutex_unlock(&sample_lock);
    return 1;
}

__attribute__((destructor)) static void sample_end(void)
{
    finish(0);
}

/* The program dies of sig (a fault, abort): what was sampled until now is written first,
 * then the default action ends it as it would have. Not async-signal-safe (naming and
 * writing allocate), so bounded: skipped when the dying thread holds the sampling lock,
 * and SIGALRM's default action ends the process if writing hangs (a fault inside the
 * allocator). */
static void on_fatal(int sig)
{
    static int once;
    if (!__atomic_exchange_n(&once, 1, __ATOMIC_ACQ_REL) &&
        pthread_mutex_trylock(&sample_lock) == 0) {
        pthread_mutex_unlock(&sample_lock);
        signal(SIGALRM, SIG_DFL);
        alarm(RS_FATAL_WRITE_S);
        fatal_sig = sig;
        finish(0);
    }
    signal(sig, SIG_DFL);
    raise(sig); /* delivered on return (sig is blocked in here); a fault also repeats */
}

/* on_fatal for the fatal signals the program has left at their default action (one it
 * handles itself is its own). */
static void catch_fatal(void)
{
    for (int i = 0; i < RS_FATAL_N; i++) {
        struct sigaction old, sa;
        if (sigaction(fatal_sigs[i], NULL, &old) != 0 || old.sa_handler != SIG_DFL ||
            (old.sa_flags & SA_SIGINFO))
            continue;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_fatal;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = SA_RESETHAND;
        sigaction(fatal_sigs[i], &sa, NULL);
    }
}

int rs_before_exec(void)
{
    return finish(1);
}

/* The image stays: sampling starts again in the calling thread (and the threads it starts
 * from now on) with an empty table (what came before is in the profile written for the
 * exec). The other threads' rings stay closed; each thread frees its own at its end. */
void rs_exec_failed(void)
{
    pthread_mutex_lock(&sample_lock);
    free(pthread_getspecific(key));
    pthread_setspecific(key, NULL);
    rings = NULL;
    stack_table_free(&table);
    int ok = stack_table_init(&table, cfg.cap, 1 + cfg.nread) == 0;
    note[0] = 0;
    add_note("an exec failed: since then the threads that ran beside its caller are not "
             "sampled");
    finished = 0;
    pthread_mutex_unlock(&sample_lock);
    if (ok) {
        __atomic_store_n(&ready, 1, __ATOMIC_RELEASE);
        sample_this_thread();
        start_drainer();
    }
}

/* _exit skips the destructors (a forked child's usual end): write first. */
_Noreturn void _exit(int status)
{
    sample_end();
    void (*real)(int) = (void (*)(int))dlsym(RTLD_NEXT, "_exit");
    if (real)
        real(status);
    syscall(SYS_exit_group, status);
    for (;;)
        ;
}

_Noreturn void _Exit(int status)
{
    _exit(status);
}
