/* run_sample.h: papi_run --sample's preloaded library, libpapi_run_sample.so (the files
 * run_sample_preload.c, run_sample_ring.c, run_sample_fpcheck.c, run_sample_profile.c,
 * run_sample_exec.c and run_sample_attr.c, with src-c/sampling's stack_unwind.c and
 * frame_names.c; papi_run also builds run_sample_attr.c in for its pre-flight open). Each thread of the program samples
 * itself with a perf event group of its own (the sampled event leads, the -e events are read at each sample) into
 * an mmap ring; one drain thread per process empties the rings into a bounded table of
 * distinct stacks; at exit the addresses are named with libdw and the process writes its
 * profile (profile.schema.json) and the stacks block papi_run merges (.sample_ID_PID.txt:
 * run_sample_stacks.h). */
#ifndef RUN_SAMPLE_H
#define RUN_SAMPLE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "frame_names.h"
#include "run_identity.h"
#include "stack_table.h"
#include "stack_unwind.h"

#define RS_HIDDEN    __attribute__((visibility("hidden")))
#define RS_MAX_READ  8   /* -e events read in the sampled event's group */
#define RS_MAX_DEPTH 128 /* frames kept per stack (the kernel's default maximum is 127) */
#define RS_NAME_LEN  128
/* Bytes waiting in a ring that wake the drain thread: a quarter of the 128 KiB ring
 * (twice that for dwarf's 256 KiB rings) */
#define RS_WAKEUP_BYTES 32768
/* --call-graph: none (the sampled address), fp (the kernel's frame-pointer walk), dwarf
 * (the user stack copied with each sample and unwound by libdw: stack_unwind.h) */
#define RS_CG_NONE  0
#define RS_CG_FP    1
#define RS_CG_DWARF 2
/* dwarf: bytes of user stack copied with each sample (PERF_SAMPLE_STACK_USER; a multiple
 * of 8 and far below the 64 KiB a record can hold). Frames whose caller lies further up
 * are read from the live stack, which may have changed since the sample. */
#define RS_STACK_USER 8192
/* PAPI_RUN_SAMPLE_METRICS (the -m metrics per function, run_sample_profile.c) at most */
#define RS_METRICS_TEXT 16384

/* What the program samples: from PAPI_RUN_SAMPLE, PAPI_RUN_SAMPLE_READ,
 * PAPI_RUN_SAMPLE_OPTS and PAPI_RUN_SAMPLE_DIR, which papi_run sets. */
struct rs_config {
    char name[1 + RS_MAX_READ][RS_NAME_LEN]; /* [0] the sampled event, then the -e ones */
    uint32_t type[1 + RS_MAX_READ];
    uint64_t config[1 + RS_MAX_READ];
    int nread;           /* -e events */
    int freq;            /* 1: value is a frequency in Hz, 0: a period in events */
    uint64_t value;      /* the period or the frequency */
    int callchain;       /* RS_CG_FP frame pointers, RS_CG_DWARF unwound, RS_CG_NONE address only */
    char cg_reason[768]; /* why callchain: given, or --call-graph auto's facts */
    int kernel;          /* 1: kernel mode and kernel frames sampled too */
    size_t cap;          /* distinct stacks kept; samples of further stacks are dropped */
    char dir[4096];      /* papi_run's output directory (DIR/papi_run_output) */
    char id[96];         /* the run id */
};

/* The table of stacks its drain thread fills: src-c/sampling/stack_table.h. */
_Static_assert(1 + RS_MAX_READ <= STACK_TABLE_WEIGHTS, "a stack's weights: sampled, -e ones");
_Static_assert(RS_MAX_DEPTH == STACK_TABLE_DEPTH, "frames kept per stack");

/* run_sample_ring.c: one thread's event group and ring. */
struct rs_ring {
    int fd[1 + RS_MAX_READ];
    unsigned char *base; /* the metadata page, then the data */
    size_t data_size;
    pid_t tid;
    uint64_t last[1 + RS_MAX_READ]; /* the -e values at the previous sample */
    int callchain;                  /* what this ring samples: c->callchain, or fp when the
                                       kernel refused dwarf's registers and stack */
    struct rs_ring *next;
};
/* run_sample_attr.c (also in papi_run, for its pre-flight open): the attr of event i of
 * c's group sampled with callchain (RS_CG_), as each thread opens it. */
struct perf_event_attr;

/* run_sample_header.c (also in papi_run, for its merge): the items of .sample_RUNID_PID.txt
 * that carry the job file's "run" (papi_run's command, start and host) and -m metrics. */
enum { RS_RUN_COMMAND, RS_RUN_START, RS_RUN_HOST, RS_HEADER_KEYS };
struct rs_header {
    char value[RS_HEADER_KEYS][RUN_CMD_LEN]; /* [RS_RUN_COMMAND] ... */
    int has;                                 /* bit k: value[k] was read */
    char metrics[RS_METRICS_TEXT];           /* the metric lines, as PAPI_RUN_SAMPLE_METRICS */
};

#endif
