/* run_sample_ring.h: one thread's sampled group and ring (run_sample_ring.c). */
#ifndef RUN_SAMPLE_RING_H
#define RUN_SAMPLE_RING_H

#include "run_sample.h"

/* Opens the calling thread's group and ring (enabled); 0, or -1 with why. */
RS_HIDDEN int rs_ring_open(struct rs_ring *r, const struct rs_config *c, char *why, size_t len);
/* The bytes of records taken out of the ring. */
RS_HIDDEN size_t rs_ring_drain(struct rs_ring *r, const struct rs_config *c, struct stack_table *t);
/* Drops the descriptors and the mapping (drain first for the last samples). */
RS_HIDDEN void rs_ring_close(struct rs_ring *r);

#endif
