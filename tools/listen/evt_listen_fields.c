/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * What the sinks read from an event the same way, so that trace.json and
 * trace.otf2 name the same element alike and place a point-to-point slice
 * at the same times: the name an element is shown under, and the fields of
 * a p2p completion (its start and completion mapped to the job timeline).
 */

#include <stdio.h>

#include "evt_listen.h"

const char *listen_element_name(const listen_type_t *t, uint16_t i,
                                char buf[LISTEN_ELEMENT_NAME_BUF])
{
    if ('\0' != t->elements[i].name[0]) {
        return t->elements[i].name;
    }
    snprintf(buf, LISTEN_ELEMENT_NAME_BUF, "e%u", i);
    return buf;
}

/* The element at @p index of the event, as int64. */
static int64_t element_i64(const listen_event_t *ev, int index)
{
    mca_common_evt_wire_value_t v;

    (void) mca_common_evt_wire_element_value(ev->wire_type, ev->payload, (unsigned) index, &v);
    return listen_value_i64(&v);
}

void listen_event_p2p(const listen_event_t *ev, listen_p2p_t *out)
{
    const listen_type_t *t = ev->type;

    out->start = listen_time_map(ev->proc, ev->clock, element_i64(ev, t->p2p_start));
    out->end = listen_time_map(ev->proc, ev->clock, element_i64(ev, t->p2p_complete));
    if (LISTEN_P2P_COLL == t->p2p || LISTEN_P2P_RMA_OP == t->p2p || LISTEN_P2P_RMA_SYNC == t->p2p) {
        int sent = LISTEN_P2P_COLL == t->p2p ? t->coll[LISTEN_COLL_SENT] : t->rma[LISTEN_RMA_SENT];
        out->peer = 0;
        out->tag = 0;
        out->bytes = 0 <= sent ? (uint64_t) element_i64(ev, sent) : 0;
        out->mode = 0;
        return;
    }
    out->peer = element_i64(ev, t->p2p_peer);
    out->tag = element_i64(ev, t->p2p_tag);
    out->bytes = (uint64_t) element_i64(ev, t->p2p_bytes);
    out->mode = 0 <= t->p2p_mode ? element_i64(ev, t->p2p_mode) : 0;
}

void listen_event_coll(const listen_event_t *ev, listen_coll_t *out)
{
    const listen_type_t *t = ev->type;

    out->start = listen_time_map(ev->proc, ev->clock, element_i64(ev, t->p2p_start));
    out->end = listen_time_map(ev->proc, ev->clock, element_i64(ev, t->p2p_complete));
    out->kind = element_i64(ev, t->coll[LISTEN_COLL_KIND]);
    out->root = element_i64(ev, t->coll[LISTEN_COLL_ROOT]);
    out->op = element_i64(ev, t->coll[LISTEN_COLL_OP]);
    out->sent = (uint64_t) element_i64(ev, t->coll[LISTEN_COLL_SENT]);
    out->recv = (uint64_t) element_i64(ev, t->coll[LISTEN_COLL_RECV]);
    out->cid = element_i64(ev, t->coll[LISTEN_COLL_CID]);
    out->seq = element_i64(ev, t->coll[LISTEN_COLL_SEQ]);
    out->comm_rank = element_i64(ev, t->coll[LISTEN_COLL_RANK]);
    out->comm_size = element_i64(ev, t->coll[LISTEN_COLL_SIZE]);
    out->flags = element_i64(ev, t->coll[LISTEN_COLL_FLAGS]);
}

/* The element at @p index as int64, or @p absent when the type has none. */
static int64_t element_or(const listen_event_t *ev, int index, int64_t absent)
{
    return 0 <= index ? element_i64(ev, index) : absent;
}

void listen_event_rma(const listen_event_t *ev, listen_rma_t *out)
{
    const listen_type_t *t = ev->type;

    out->start = listen_time_map(ev->proc, ev->clock, element_i64(ev, t->p2p_start));
    out->end = listen_time_map(ev->proc, ev->clock, element_i64(ev, t->p2p_complete));
    out->win = (uint64_t) element_i64(ev, t->rma[LISTEN_RMA_WIN]);
    out->kind = element_i64(ev, t->rma[LISTEN_RMA_KIND]);
    out->target = element_i64(ev, t->rma[LISTEN_RMA_TARGET]);
    out->peer = element_i64(ev, t->rma[LISTEN_RMA_PEER]);
    out->op = element_or(ev, t->rma[LISTEN_RMA_OP], 0);
    out->lock_type = element_or(ev, t->rma[LISTEN_RMA_LOCK], 0);
    out->sent = (uint64_t) element_or(ev, t->rma[LISTEN_RMA_SENT], 0);
    out->recv = (uint64_t) element_or(ev, t->rma[LISTEN_RMA_RECV], 0);
}

const char *listen_rma_op_name(int64_t kind)
{
    static const char *const names[] = {"MPI_Put",          "MPI_Get",
                                        "MPI_Accumulate",   "MPI_Get_accumulate",
                                        "MPI_Fetch_and_op", "MPI_Compare_and_swap",
                                        "MPI_Rput",         "MPI_Rget",
                                        "MPI_Raccumulate",  "MPI_Rget_accumulate"};

    return 0 <= kind && kind < (int64_t) (sizeof(names) / sizeof(names[0])) ? names[kind] : NULL;
}

const char *listen_rma_sync_name(int64_t kind)
{
    static const char *const names[] = {"MPI_Win_fence",       "MPI_Win_post",
                                        "MPI_Win_start",       "MPI_Win_complete",
                                        "MPI_Win_wait",        "MPI_Win_test",
                                        "MPI_Win_lock",        "MPI_Win_unlock",
                                        "MPI_Win_lock_all",    "MPI_Win_unlock_all",
                                        "MPI_Win_flush",       "MPI_Win_flush_all",
                                        "MPI_Win_flush_local", "MPI_Win_flush_local_all",
                                        "MPI_Win_sync"};

    return 0 <= kind && kind < (int64_t) (sizeof(names) / sizeof(names[0])) ? names[kind] : NULL;
}
