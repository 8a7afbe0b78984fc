/* util.h */
int common_up(void);
