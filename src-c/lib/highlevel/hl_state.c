/* hl_state.c: the region API's process-wide state (hl_state.h says who writes it). */
#include "hl_state.h"

#include "json_writer.h"

struct hlr_config g_hlr;
struct hlr_thread *g_hlr_threads;
pthread_mutex_t g_hlr_lock = PTHREAD_MUTEX_INITIALIZER;

void hl_write_threads(struct jw *w, const char *key, void (*one)(struct jw *, struct hlr_thread *))
{
    jw_obj_begin(w, key);
    for (struct hlr_thread *t = g_hlr_threads; t; t = t->next) {
        pthread_mutex_lock(&t->lock);
        if (t->key >= 0)
            one(w, t);
        pthread_mutex_unlock(&t->lock);
    }
    jw_obj_end(w);
}
