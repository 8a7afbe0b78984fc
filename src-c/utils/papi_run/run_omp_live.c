/* run_omp_live.c: the OpenMP figures of papi_run's --interval samples (run_omp_live.h).
 * The file lives in papi_run's output folder beside the tool's tables' hand-over file,
 * sized to the layout; papi_run reads it from its sampling loop only (no lock). */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "json_writer.h"
#include "ompt_live.h"
#include "pop_factors.h"
#include "run.h"
#include "run_omp_live.h"

void run_omp_live_prepare(struct run_state *s)
{
    struct run_openmp *o = &s->omp;
    if (s->opt.interval <= 0)
        return;
    snprintf(o->live_file, sizeof o->live_file, "%s/.papi_run_ompt_live.%ld", s->dir,
             (long)getpid());
    unlink(o->live_file); /* an earlier run's, of a papi_run of the same id */
    int fd = open(o->live_file, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
    void *m = MAP_FAILED;
    if (fd >= 0 && ftruncate(fd, (off_t)sizeof(struct papi_ompt_live)) == 0)
        m = mmap(NULL, sizeof(struct papi_ompt_live), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (fd >= 0)
        close(fd);
    o->live_sums = m != MAP_FAILED ? calloc(1, sizeof *o->live_sums) : NULL;
    if (!o->live_sums) {
        fprintf(stderr, "papi_run: %s: %s: the series have no OpenMP figures\n", o->live_file,
                m == MAP_FAILED ? strerror(errno) : "out of memory");
        if (m != MAP_FAILED)
            munmap(m, sizeof(struct papi_ompt_live));
        unlink(o->live_file);
        o->live_file[0] = 0;
        return;
    }
    o->live = m;
    setenv("PAPI_RUN_OMPT_LIVE_FILE", o->live_file, 1);
}

void run_omp_live_columns(struct run_state *s, long long *v)
{
    struct ompt_live_sums *l = s->omp.live_sums;
    memset(v, 0, RUN_OMP_LIVE_COLUMNS * sizeof *v);
    if (!s->omp.live || atomic_load(&s->omp.live->owner) == 0)
        return;
    ompt_live_sample(s->omp.live, l);
    v[0] = llround(l->useful_ns), v[1] = llround(l->maxu_team_ns);
    v[2] = llround(l->wall_team_ns), v[3] = llround(l->parallel_ns);
}

static void put_factor(struct jw *w, const char *key, double f)
{
    if (f >= 0)
        jw_double(w, key, f);
    else
        jw_null(w, key);
}

void run_omp_live_write(struct jw *w, const struct run_state *s, int k)
{
    if (!s->omp.live || atomic_load(&s->omp.live->owner) == 0)
        return;
    long long d[RUN_OMP_LIVE_COLUMNS];
    for (int i = 0; i < RUN_OMP_LIVE_COLUMNS; i++) { /* (the sums only grow: never below 0) */
        d[i] = cs_delta(&s->series, k, s->opt.nevents + i);
        d[i] = d[i] > 0 ? d[i] : 0;
    }
    long long dt = s->series.t[k] - (k ? s->series.t[k - 1] : 0);
    struct pop_omp_in in = {(double)d[3], (double)d[0], (double)d[1], (double)d[2]};
    struct pop_omp_factors f = pop_omp_factors(&in, (double)dt, POP_CAP_EACH);
    jw_obj_begin(w, "openmp");
    jw_int(w, "useful_ns", d[0]);
    jw_int(w, "serial_ns", dt > d[3] ? dt - d[3] : 0);
    jw_int(w, "wait_ns", d[2] > d[0] ? d[2] - d[0] : 0);
    jw_int(w, "parallel_ns", d[3]);
    put_factor(w, "serialization", f.serialization);
    put_factor(w, "load_balance", f.load_balance);
    put_factor(w, "scheduling", f.scheduling);
    put_factor(w, "parallel", f.parallel);
    jw_obj_end(w);
}

void run_omp_live_free(struct run_state *s)
{
    struct run_openmp *o = &s->omp;
    if (o->live)
        munmap(o->live, sizeof *o->live);
    free(o->live_sums);
    if (o->live_file[0])
        unlink(o->live_file);
    o->live = NULL, o->live_sums = NULL, o->live_file[0] = 0;
}
