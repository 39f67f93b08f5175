/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The point-to-point producer's request table (identity, tracking and
 * threads: ompi_evt_p2p.h): entering a request, settling it after a
 * completion call, a request freed or abandoned. The same table keys any
 * operation a request stands for.
 */

#include "ompi_config.h"

#include "ompi/runtime/ompi_evt_p2p.h"

_Atomic uintptr_t ompi_evt_p2p_keys[P2P_TABLE_SIZE];
p2p_slot_t ompi_evt_p2p_slots[P2P_TABLE_SIZE];
_Atomic uint8_t ompi_evt_p2p_reach[P2P_TABLE_SIZE];
atomic_long ompi_evt_p2p_in_use = 0;

/* Let lookups of requests hashed to @p h scan @p reach slots: before the
 * entry's key is published, so a lookup that finds the key could have
 * scanned that far. Context: RAISE. */
static void p2p_extend_reach(size_t h, int reach)
{
    /* relaxed: see p2p_lookup() */
    uint8_t r = atomic_load_explicit(&ompi_evt_p2p_reach[h], memory_order_relaxed);

    while (r < reach) {
        if (!p2p_concurrent()) {
            atomic_store_explicit(&ompi_evt_p2p_reach[h], (uint8_t) reach, memory_order_relaxed);
            return;
        }
        if (atomic_compare_exchange_weak_explicit(&ompi_evt_p2p_reach[h], &r, (uint8_t) reach,
                                                  memory_order_relaxed, memory_order_relaxed)) {
            return;
        }
    }
}

bool ompi_evt_p2p_track_slot(MPI_Request req, const p2p_slot_t *desc)
{
    size_t h = p2p_hash(req);
    int s = p2p_lookup(req);
    p2p_slot_t *slot;

    if (0 <= s) {
        if (p2p_take((size_t) s, (uintptr_t) req)) {
            /* the entry of a request freed unseen: its handle is reused */
            if (p2p_pending(&ompi_evt_p2p_slots[s])) {
                ompi_evt_p2p_count_drop(ompi_evt_p2p_slots[s].kind, ompi_evt_p2p_slots[s].start);
            }
            p2p_comm_drop(ompi_evt_p2p_slots[s].comm);
        } else {
            s = -1;
        }
    }
    if (0 > s) {
        /* another thread may take a free slot first: then the next one */
        int i;
        for (i = 0; i < P2P_PROBE && 0 > s; ++i) {
            size_t c = (h + i) & (P2P_TABLE_SIZE - 1);
            if (p2p_take(c, 0)) {
                s = (int) c;
            }
        }
        if (0 > s) {
            return false;
        }
        p2p_extend_reach(h, i); /* i: one past the slot taken */
        p2p_occupancy_add(1);
    }
    slot = &ompi_evt_p2p_slots[s];
    *slot = *desc;
    p2p_comm_hold(desc->comm);
    p2p_stat_inc(&ompi_evt_p2p_stat_tracked);
    /* release: publishes the slot's data; pairs with the acquire in
     * p2p_lookup(). */
    atomic_store_explicit(&ompi_evt_p2p_keys[s], (uintptr_t) req, memory_order_release);
    return true;
}

/** The slot of a point-to-point operation. */
static inline p2p_slot_t p2p_desc(int kind, int mode, int started, int64_t start, uint64_t bytes,
                                  MPI_Comm comm, int peer, int tag)
{
    return (p2p_slot_t){.start = start,
                        .bytes = bytes,
                        .comm = comm,
                        .peer = peer,
                        .tag = tag,
                        .kind = (uint8_t) kind,
                        .mode = (uint8_t) mode,
                        .started = (uint8_t) started};
}

bool ompi_evt_p2p_track(MPI_Request req, int kind, int mode, int started, int64_t start,
                        uint64_t bytes, MPI_Comm comm, int peer, int tag)
{
    const p2p_slot_t desc = p2p_desc(kind, mode, started, start, bytes, comm, peer, tag);

    return ompi_evt_p2p_track_slot(req, &desc);
}

long ompi_evt_p2p_complete(int s, MPI_Request req, const MPI_Status *status, bool ok, int64_t *done)
{
    p2p_slot_t slot = ompi_evt_p2p_slots[s]; /* a copy: once released, the slot may be reused */
    long freed = 0;

    if (P2P_MODE_PERSISTENT == slot.mode && MPI_REQUEST_NULL != req) {
        /* Open MPI 4.1's Testany and Testall return MPI_SUCCESS for a
         * persistent request that failed: its error is in the request only */
        ok = ok && MPI_SUCCESS == req->req_status.MPI_ERROR;
        ompi_evt_p2p_slots[s].started = 0;
        p2p_unclaim(s, req);
    } else {
        p2p_release_key(s);
        freed = 1;
    }
    if (p2p_pending(&slot)) {
        ompi_evt_p2p_report(&slot, status, ok, done);
    }
    if (0 != freed) {
        p2p_comm_drop(slot.comm);
    }
    return freed;
}

void ompi_evt_p2p_settle(int s, MPI_Request handle, const MPI_Status *status, bool ok,
                         int64_t *done)
{
    if (p2p_stays(s, handle, NULL != status)) {
        p2p_unclaim(s, handle);
    } else {
        p2p_unoccupy(ompi_evt_p2p_complete(s, handle, status, ok, done));
    }
}

void ompi_evt_p2p_done_at_start(MPI_Request req, int kind, int64_t start, int64_t done,
                                uint64_t bytes, MPI_Comm comm, int peer, int tag)
{
    const p2p_slot_t slot = p2p_desc(kind, P2P_MODE_NONBLOCKING, 1, start, bytes, comm, peer, tag);

    ompi_evt_p2p_done_at_start_slot(req, &slot, done);
}

void ompi_evt_p2p_done_at_start_slot(MPI_Request req, const p2p_slot_t *desc, int64_t done)
{
    p2p_stat_inc(&ompi_evt_p2p_stat_at_start);
    /* acquire: the status was written before the request was marked
     * complete; pairs with the CAS (or store after the PML's own barrier)
     * in ompi_request_complete(). */
    opal_atomic_rmb();
    ompi_evt_p2p_report(desc, &req->req_status, MPI_SUCCESS == req->req_status.MPI_ERROR, &done);
}

void ompi_evt_p2p_freed(int s, MPI_Request req)
{
    p2p_slot_t slot = ompi_evt_p2p_slots[s];
    int64_t done = 0;

    p2p_release(s);
    if (!p2p_pending(&slot)) {
        /* nothing to report */
    } else if (!REQUEST_COMPLETE(req)) {
        ompi_evt_p2p_count_drop(slot.kind, slot.start);
    } else {
        /* acquire: as in ompi_evt_p2p_done_at_start() */
        opal_atomic_rmb();
        ompi_evt_p2p_report(&slot, &req->req_status, MPI_SUCCESS == req->req_status.MPI_ERROR,
                            &done);
    }
    p2p_comm_drop(slot.comm);
}

void ompi_evt_p2p_abandon(MPI_Request req)
{
    int s = p2p_claim(req);
    p2p_slot_t *slot;

    if (0 > s) {
        return;
    }
    slot = &ompi_evt_p2p_slots[s];
    if (p2p_pending(slot)) {
        ompi_evt_p2p_count_drop(slot->kind, slot->start);
    }
    if (P2P_MODE_PERSISTENT == slot->mode) {
        slot->started = 0;
        p2p_unclaim(s, req);
    } else {
        MPI_Comm comm = slot->comm; /* the slot is another's once released */
        p2p_release(s);
        p2p_comm_drop(comm);
    }
}
