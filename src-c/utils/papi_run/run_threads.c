/* run_threads.c: papi_run reads the per-thread rows the preloaded library wrote
 * (run_threads.h) once the program has ended. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "handover_file.h"
#include "run_threads.h"

static int parse_row(char *line, int nevents, struct run_thread_row *r)
{
    char *p = line, *end;
    long tid = strtol(p, &end, 10);
    if (end == p || tid <= 0)
        return -1;
    r->tid = (pid_t)tid;
    p = end;
    r->real_ns = strtoll(p, &end, 10);
    if (end == p)
        return -1;
    for (int i = 0; i < nevents; i++) {
        p = end;
        r->value[i] = strtoll(p, &end, 10);
        if (end == p)
            return -1;
    }
    return 0;
}

struct run_threads *run_threads_read(const char *path, int nevents)
{
    int fd = handover_open(AT_FDCWD, path, O_RDONLY, 0); /* a FIFO there: not waited for */
    FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
    if (!f) {
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    struct run_threads *t = calloc(1, sizeof *t);
    char line[RUN_MAX_EVENTS * 24 + 64];
    while (t && fgets(line, sizeof line, f)) {
        if (t->n < RUN_MAX_THREADS && parse_row(line, nevents, &t->row[t->n]) == 0)
            t->n++;
        else
            t->dropped++;
    }
    fclose(f);
    unlink(path);
    return t;
}
