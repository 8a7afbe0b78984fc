/* trace_otf2_events.c: a rank's records as OTF2 events (trace_otf2_events.h). */
#include "trace_otf2_events.h"

#ifdef PAPI_HAVE_OTF2
#include <stdio.h>
#include <stdlib.h>

static OTF2_FlushType pre_flush(void *user, OTF2_FileType ft, OTF2_LocationRef loc, void *cb,
                                bool final)
{
    (void)user, (void)ft, (void)loc, (void)cb, (void) final;
    return OTF2_FLUSH;
}

static OTF2_TimeStamp post_flush(void *user, OTF2_FileType ft, OTF2_LocationRef loc)
{
    (void)user, (void)ft, (void)loc;
    return 0;
}

static const OTF2_FlushCallbacks flush_cbs = {.otf2_pre_flush = pre_flush,
                                              .otf2_post_flush = post_flush};

const OTF2_FlushCallbacks *trace_otf2_flush_callbacks(void)
{
    return &flush_cbs;
}

void trace_otf2_set_dropped(const struct otf2_lib *L, OTF2_Archive *a, uint64_t dropped)
{
    char v[32];
    snprintf(v, sizeof v, "%llu", (unsigned long long)dropped);
    L->OTF2_Archive_SetProperty(a, TRACE_OTF2_DROPPED_PROPERTY, v, true);
}

OTF2_LocationRef otf2_location(int rank, int thread)
{
    return (OTF2_LocationRef)rank << 16 | (OTF2_LocationRef)thread;
}

static int thread_of(const uint32_t *tid, int nt, uint32_t label)
{
    for (int i = 0; i < nt; i++)
        if (tid[i] == label)
            return i;
    return 0;
}

static int comm_ref(const struct otf2_idmap *m, uint32_t comm)
{
    for (int c = 0; c < m->ncomms; c++)
        if (m->comm[c] == comm)
            return c;
    return -1;
}

static const OTF2_Type int64_type = OTF2_TYPE_INT64, double_type = OTF2_TYPE_DOUBLE;

static OTF2_ErrorCode write_counter(const struct otf2_lib *L, OTF2_EvtWriter *ew,
                                    const struct otf2_idmap *m, const struct trace_record *e)
{
    uint32_t ref = m->counter[e->id];
    OTF2_MetricValue v = {.signed_int = e->value};
    if (m->dbl[ref])
        v.floating_point = e->vtype == TR_VALUE_DOUBLE ? trace_value_double(e) : (double)e->value;
    return L->OTF2_EvtWriter_Metric(ew, NULL, e->ts, ref, 1,
                                    m->dbl[ref] ? &double_type : &int64_type, &v);
}

/* One record as an event of ew: 1 written, 0 left out (a name or a peer the rank does
 * not have), -1 failed. */
static int write_record(const struct otf2_lib *L, OTF2_EvtWriter *ew, const struct trace_rank *r,
                        const struct otf2_idmap *m, const struct trace_record *e)
{
    OTF2_TimeStamp ts = e->ts;
    OTF2_ErrorCode rc;
    int cr;
    switch (e->kind) {
    case TR_ENTER:
    case TR_LEAVE:
        if (e->id >= (uint32_t)r->nregions)
            return 0;
        rc = (e->kind == TR_ENTER ? L->OTF2_EvtWriter_Enter
                                  : L->OTF2_EvtWriter_Leave)(ew, NULL, ts, m->region[e->id]);
        break;
    case TR_COUNTER:
        if (e->id >= (uint32_t)r->ncounters)
            return 0;
        rc = write_counter(L, ew, m, e);
        break;
    case TR_SEND:
    case TR_RECV:
        if ((cr = comm_ref(m, e->comm)) < 0 || e->peer < 0)
            return 0;
        rc = (e->kind == TR_SEND ? L->OTF2_EvtWriter_MpiSend : L->OTF2_EvtWriter_MpiRecv)(
            ew, NULL, ts, (uint32_t)e->peer, (OTF2_CommRef)cr, (uint32_t)e->tag, e->bytes);
        break;
    case TR_COLL_BEGIN:
        rc = L->OTF2_EvtWriter_MpiCollectiveBegin(ew, NULL, ts);
        break;
    case TR_COLL_END:
        if ((cr = comm_ref(m, e->comm)) < 0)
            return 0;
        rc = L->OTF2_EvtWriter_MpiCollectiveEnd(
            ew, NULL, ts, (OTF2_CollectiveOp)e->collop, (OTF2_CommRef)cr,
            e->peer < 0 ? OTF2_UNDEFINED_UINT32 : (uint32_t)e->peer, e->bytes, (uint64_t)e->value);
        break;
    default:
        return 0;
    }
    return rc == OTF2_SUCCESS ? 1 : -1;
}

int otf2_write_rank_events(const struct otf2_lib *L, OTF2_Archive *a, const struct trace_rank *r,
                           const struct otf2_idmap *m, const uint32_t *tid, int nt,
                           uint64_t *nevents)
{
    size_t *ord = trace_order(r);
    OTF2_EvtWriter **w = calloc((size_t)(nt > 0 ? nt : 1), sizeof *w);
    int bad = !ord || !w;
    for (int t = 0; !bad && t < nt; t++)
        w[t] = L->OTF2_Archive_GetEvtWriter(a, otf2_location(r->rank, t));
    for (size_t i = 0; !bad && i < r->nrec; i++) {
        const struct trace_record *e = &r->rec[ord[i]];
        int t = thread_of(tid, nt, e->thread);
        int got = w[t] ? write_record(L, w[t], r, m, e) : -1;
        bad = got < 0;
        nevents[t] += got > 0;
    }
    for (int t = 0; w && t < nt; t++)
        if (w[t])
            L->OTF2_Archive_CloseEvtWriter(a, w[t]);
    free(ord);
    free(w);
    return bad ? -1 : 0;
}
#endif
