/* f2.h */
int f2_fn(void);
