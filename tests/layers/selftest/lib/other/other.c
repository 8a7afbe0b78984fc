/* other.c: in no layer of the map; calls low (the cycle low <-> other). */
int low_read(void *p);
int other_fn(void) { return low_read(0); }
