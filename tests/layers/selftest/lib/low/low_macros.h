/* low_macros.h: a macro whose body calls up into top (a finding: the header reaches it). */
#define LOW_UP(x) (top_entry() + (x))
