/* run_threads_block.c: a thread's row as a hand-over block (run_threads_block.h). */
#include "run_threads_block.h"

struct row {
    long tid;
    long long real_ns;
    const long long *value;
    int nevents;
    const char *const *names;
};

static const char *row_name(const void *ctx, int k)
{
    return ((const struct row *)ctx)->names[k];
}

static void row_line(FILE *f, const void *ctx, size_t i)
{
    const struct row *r = ctx;
    (void)i;
    fprintf(f, "t %ld %lld", r->tid, r->real_ns);
    for (int k = 0; k < r->nevents; k++)
        fprintf(f, " %lld", r->value[k]);
    fputc('\n', f);
}

int run_threads_block_save(int fd, long pid, long tid, long long real_ns, const long long *value,
                           int nevents, const char *const *names)
{
    struct row r = {tid, real_ns, value, nevents, names};
    return handover_save(fd, RUN_THREADS_KIND, pid, nevents, 1, 0, row_name, row_line, &r);
}
