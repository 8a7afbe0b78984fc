/* mid.h */
int mid_work(void);
