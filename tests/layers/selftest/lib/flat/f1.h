/* f1.h */
int f1_fn(void);
