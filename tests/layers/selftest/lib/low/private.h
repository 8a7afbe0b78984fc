/* private.h */
extern int low_value;
