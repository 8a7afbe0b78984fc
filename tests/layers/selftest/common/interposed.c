/* interposed.c: beside the tree (../common); its pthread_create is the C library's, not
 * top/wrap.c's (interpose in the map). */
int pthread_create(void);
int common_start(void) { return pthread_create(); }
