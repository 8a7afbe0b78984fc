/* registry.c: the one file a private rule lets name component a's symbols. */
int a_secret(void);
int comp_count(void) { return a_secret() ? 1 : 0; }
