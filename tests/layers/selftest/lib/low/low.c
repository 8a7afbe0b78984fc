/* low.c: a variable, and a call to a peer in another folder of no layer. */
#include "private.h"
int low_value = 1;
struct s { int mid_work; };
int low_read(struct s *p) { return p->mid_work + other_fn(); } /* a member is no use */
int other_fn(void);
