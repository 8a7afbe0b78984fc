/* hi.c: the upper layer of the split folder calls the lower (allowed). */
int lo_fn(void);
int hi_fn(void) { return lo_fn(); }
