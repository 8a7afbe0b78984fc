/* lo.c: calls back up into hi.c of the same folder (a cycle between layers). */
int hi_fn(void);
int lo_fn(void) { return hi_fn(); }
