/* util.c: beside the tree (../common), in the bottom layer; calls up into mid. */
int mid_work(void);
int common_up(void) { return mid_work(); }
