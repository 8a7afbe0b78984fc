/* hl_state.c: the region API's process-wide state (hl_state.h says who writes it). */
#include "hl_state.h"

struct hlr_config g_hlr;
struct hlr_thread *g_hlr_threads;
pthread_mutex_t g_hlr_lock = PTHREAD_MUTEX_INITIALIZER;
