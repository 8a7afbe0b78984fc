/* comp.h: the interface every layer above may include. */
int comp_count(void);
