/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * trace.otf2/: an OTF2 archive (traces.otf2 anchor, traces.def, traces/)
 * written with the OTF2 library, as Score-P writes them, so Vampir and
 * otf2-print read it.
 *   - system tree: "machine" > one node per host; one location group
 *     (process) and one location (thread) per rank, named "rank R",
 *     numbered and defined in (namespace, rank) order: in a single job,
 *     rank R is location group and location R
 *   - every event type is a region; an event is an Enter and a Leave of its
 *     region at the event's time, the Enter carrying the fields as
 *     attributes (one attribute definition per field name and type)
 *   - a blocking point-to-point call (mode 0, or a type without a mode) is
 *     its region (role point2point, paradigm MPI) from the call's start
 *     to its completion, with an MpiSend at the start or an MpiRecv at
 *     the completion; a nonblocking or persistent request is an MpiIsend
 *     or MpiIrecvRequest at its start and, at its completion, its region
 *     (no length: the request's life spans other calls, and regions nest)
 *     around an MpiIsendComplete or MpiIrecv, as Score-P writes requests
 *     (request ids per location). Peer = world rank in a communicator per
 *     namespace ("MPI_COMM_WORLD" of that namespace: ranks 0..job size -
 *     1, a location for every rank even one that sent nothing), tag and
 *     bytes from the event; no message records when either side's
 *     recording misses records (readers match by order)
 *   - a collective completion is an Enter of a region per collective kind
 *     ("MPI_Allreduce", ..., role and paradigm MPI) and an
 *     MpiCollectiveBegin at the call's start, an MpiCollectiveEnd (kind,
 *     communicator, root, bytes sent and received) and a Leave at its
 *     completion. Communicators are defined from the events: one per
 *     (namespace, context id, size), its members the world ranks in
 *     comm_rank order as the ranks reported them (context id 0 of the
 *     world's size is the namespace's MPI_COMM_WORLD). Collectives on an
 *     intercommunicator, or of a kind OTF2 has no operation for (the
 *     neighbourhood collectives), are the plain Enter and Leave of their
 *     region (counted)
 *   - a one-sided call (ompi.mpi.rma_op, rma_sync) is an Enter and a Leave
 *     of a region per call ("MPI_Put", "MPI_Win_fence", ..., role RMA,
 *     paradigm MPI) at its entry and return, with at its entry an RmaPut,
 *     RmaGet or RmaAtomic (accumulate, fetch-and-accumulate or
 *     compare-and-swap: bytes both ways) for a communication call; a fence
 *     is an RmaCollectiveBegin and RmaCollectiveEnd; MPI_Win_lock an
 *     RmaAcquireLock at its return, MPI_Win_unlock an RmaReleaseLock
 *     (lock id: the target), MPI_Win_flush an RmaSync. The windows are
 *     defined per rank (an event names its window by the handle in that
 *     process: the ranks' handles of one window are not tied together),
 *     each on its namespace's MPI_COMM_WORLD, and remote ranks are world
 *     ranks. Completions of the operations are not records of their own:
 *     MPI completes them in the synchronisation calls, which are. A target
 *     outside the world is the plain Enter and Leave (counted)
 * OTF2 wants each location's records in time order and its regions
 * nested, but events come in order of their completion, after what they
 * began: the records wait per location (evt_listen_nest.c) until the
 * rank's events are 100 ms past them, or its share of the waiting room
 * is full, and are written in time order (a rank whose send a receive
 * already completed is still to come waits past the 100 ms, up to its
 * share, for the send); what begins longer before is
 * moved up to the rank's last record, and a region overlapping another
 * of its rank (two threads' calls) is split: its start's records (an
 * MpiSend) at its start, its region with no length at its end (both
 * counted). The
 * clock: 1 ns resolution, timestamps are job timeline ns (Unix epoch), the
 * global offset is the first event's.
 */

#define _GNU_SOURCE /* nftw */
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <otf2/otf2.h>

#include "evt_listen.h"

typedef struct {
    char *name;
    uint8_t type; /**< wire element type */
} attr_t;

/** A communicator seen in collective events. */
typedef struct {
    uint32_t ns;
    int64_t cid, size;
    int64_t *members; /**< [comm rank] -> world rank, -1 not seen */
} ocomm_t;

/** A window seen in one-sided events: its handle in a location. */
typedef struct {
    uint64_t handle;
    size_t loc;
} owin_t;

typedef struct {
    char *dir;
    char *tmpdir;
    OTF2_Archive *ar;
    OTF2_AttributeList *al;
    OTF2_EvtWriter **w;  /**< per location */
    listen_nest_t *nest; /**< the records waiting for their location's time order */
    listen_owed_t *owed; /**< receives seen before their send: the sender waits for it */
    uint64_t *req_ids;   /**< per location: the next request id */
    uint64_t requests;   /**< nonblocking p2p requests written as such */
    bool broken;         /**< an OTF2 call failed: the archive is abandoned */
    bool kept;           /**< the archive left in tmpdir on purpose (said) */
    size_t num_locs;    /**< procs + placeholder ranks */
    size_t num_procs;
    /* namespaces: per proc, its namespace number; per namespace, max rank
     * and the location of each rank */
    uint32_t *ns_of;
    size_t num_ns;
    int64_t *ns_max_rank;
    uint64_t **ns_loc; /**< [ns][rank] -> location */
    uint64_t *loc_of;  /**< per process id, its location */
    size_t *proc_at;   /**< per location, its process id or SIZE_MAX */
    const listen_registry_t *reg;
    /* per type id: the attribute ids of its elements (uint32_t[]); a type
     * with ids is a region written */
    listen_slots_t type_attrs;
    attr_t *attrs;
    size_t num_attrs;
    uint64_t unmapped_peers, unsafe;
    ocomm_t *comms; /**< communicators of collectives, refs num_ns.. */
    size_t num_comms;
    uint64_t coll_plain;     /**< collectives written without collective records */
    uint64_t comm_conflicts; /**< a comm rank reported by two world ranks */
    owin_t *wins;            /**< windows, by their RmaWin ref */
    size_t num_wins, wins_alloc;
    uint32_t *win_index; /**< open addressing: RmaWin ref + 1, 0 free */
    size_t win_index_size;
    uint64_t rma_plain;   /**< one-sided calls written without RMA records */
    uint64_t rma_records; /**< RMA records written */
    uint64_t *rma_ids;    /**< per location: the next matching id */
    int64_t t_min, t_max;
    char err[512];
} otf_t;

static OTF2_FlushType pre_flush(void *ud, OTF2_FileType ft, OTF2_LocationRef loc, void *cb,
                                bool final)
{
    (void) ud;
    (void) ft;
    (void) loc;
    (void) cb;
    (void) final;
    return OTF2_FLUSH;
}

static const OTF2_FlushCallbacks flush_cbs = {.otf2_pre_flush = pre_flush, .otf2_post_flush = NULL};

/* OTF2's buffers: chunks come from here. Event buffers share a budget;
 * when a location's buffer would exceed it, NULL makes OTF2 flush that
 * buffer to its file and free its chunks (otf2_free_all), so memory stays
 * bounded however long the trace. Definitions are small and kept whole. */
#define OTF2_MEM_BUDGET (64u * 1024 * 1024)
#define OTF2_EVT_CHUNK  (256u * 1024)

typedef struct {
    void **chunks;
    size_t n, cap;
    uint64_t bytes;
} membuf_t;

static uint64_t mem_used;

static void *mem_alloc(void *ud, OTF2_FileType ft, OTF2_LocationRef loc, void **pbd, uint64_t size)
{
    membuf_t *m = *pbd;
    void *c;

    (void) ud;
    (void) loc;
    if (NULL == m) {
        m = calloc(1, sizeof(*m));
        if (NULL == m) {
            return NULL;
        }
        *pbd = m;
    }
    if (OTF2_FILETYPE_EVENTS == ft && 0 < m->n && mem_used + size > OTF2_MEM_BUDGET) {
        return NULL; /* OTF2 flushes this buffer, frees it, asks again */
    }
    if (m->n == m->cap) {
        size_t nc = m->cap ? 2 * m->cap : 8;
        void **a = realloc(m->chunks, nc * sizeof(*a));
        if (NULL == a) {
            return NULL;
        }
        m->chunks = a;
        m->cap = nc;
    }
    c = malloc(size);
    if (NULL == c) {
        return NULL;
    }
    m->chunks[m->n++] = c;
    m->bytes += size;
    mem_used += size;
    return c;
}

static void mem_free_all(void *ud, OTF2_FileType ft, OTF2_LocationRef loc, void **pbd, bool final)
{
    membuf_t *m = *pbd;

    (void) ud;
    (void) ft;
    (void) loc;
    if (NULL == m) {
        return;
    }
    for (size_t i = 0; i < m->n; ++i) {
        free(m->chunks[i]);
    }
    mem_used -= m->bytes;
    m->n = 0;
    m->bytes = 0;
    if (final) {
        free(m->chunks);
        free(m);
        *pbd = NULL;
    }
}

static const OTF2_MemoryCallbacks mem_cbs = {.otf2_allocate = mem_alloc,
                                             .otf2_free_all = mem_free_all};

static int rm_entry(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void) sb;
    (void) flag;
    (void) ftw;
    return remove(p);
}

/* How long a record waits for those of its location that begin before it
 * (a request's start comes with its completion), and how many may wait in
 * all (but LISTEN_NEST_MIN_ITEMS per location at least): about 200 bytes
 * each. */
#define OTF2_HORIZON_NS  UINT64_C(100000000)
#define OTF2_WAITING_MAX (256u * 1024)
/* Messages followed at once for a receive seen before its send (about
 * 32 bytes each): as many as the pairing of trace.json holds. */
#define OTF2_OWED_MAX (1u << 20)

static int nest_open(void *ctx, size_t loc, listen_nest_item_t *it, uint64_t ts);
static int nest_close(void *ctx, size_t loc, listen_nest_item_t *it, uint64_t ts);

static int ot_begin(void *ctx, const listen_registry_t *reg)
{
    otf_t *s = ctx;

    /* OTF2 timestamps are unsigned: times before the epoch (hostile or
     * broken clocks) are written as 0 */
    s->t_min = reg->t_min <= reg->t_max && reg->t_min > 0 ? reg->t_min : 0;
    s->t_max = reg->t_min <= reg->t_max && reg->t_max > s->t_min ? reg->t_max : s->t_min;
    s->num_procs = reg->num_procs;
    s->ns_of = calloc(reg->num_procs + 1, sizeof(*s->ns_of));
    s->ns_max_rank = calloc(reg->num_procs + 1, sizeof(*s->ns_max_rank));
    s->ns_loc = calloc(reg->num_procs + 1, sizeof(*s->ns_loc));
    if (NULL == s->ns_of || NULL == s->ns_max_rank || NULL == s->ns_loc) {
        return -1;
    }
    /* namespaces (procs are in (namespace, rank) order) and their ranks:
     * every rank the job started, reported or not */
    for (size_t i = 0; i < reg->num_procs; ++i) {
        const listen_proc_t *p = reg->procs[i];
        if (0 == i || 0 != strcmp(reg->procs[i - 1]->nspace, p->nspace)) {
            const listen_job_t *j = listen_procs_job(reg, p->nspace);
            s->ns_max_rank[s->num_ns++] = NULL == j ? (int64_t) p->rank : (int64_t) j->size - 1;
        }
        s->ns_of[i] = (uint32_t) (s->num_ns - 1);
        if ((int64_t) p->rank > s->ns_max_rank[s->num_ns - 1]) {
            s->ns_max_rank[s->num_ns - 1] = p->rank;
        }
    }
    /* locations and location groups numbered by (namespace, rank), so ids
     * follow the order definitions are written in (rank r of a single job
     * is location r); a rank without data gets a placeholder */
    s->num_locs = 0;
    for (size_t k = 0; k < s->num_ns; ++k) {
        size_t n = (size_t) s->ns_max_rank[k] + 1;
        s->ns_loc[k] = malloc(n * sizeof(**s->ns_loc));
        if (NULL == s->ns_loc[k]) {
            return -1;
        }
        for (size_t r = 0; r < n; ++r) {
            s->ns_loc[k][r] = s->num_locs++;
        }
    }
    s->loc_of = calloc(reg->num_procs + 1, sizeof(*s->loc_of));
    s->proc_at = calloc(s->num_locs + 1, sizeof(*s->proc_at));
    if (NULL == s->loc_of || NULL == s->proc_at) {
        return -1;
    }
    for (size_t l = 0; l < s->num_locs; ++l) {
        s->proc_at[l] = SIZE_MAX;
    }
    for (size_t i = 0; i < reg->num_procs; ++i) {
        s->loc_of[i] = s->ns_loc[s->ns_of[i]][reg->procs[i]->rank];
        s->proc_at[s->loc_of[i]] = i;
    }
    s->reg = reg;
    s->w = calloc(s->num_locs + 1, sizeof(*s->w));
    s->req_ids = calloc(s->num_locs + 1, sizeof(*s->req_ids));
    s->rma_ids = calloc(s->num_locs + 1, sizeof(*s->rma_ids));
    s->nest = listen_nest_new(s->num_locs, OTF2_HORIZON_NS, OTF2_WAITING_MAX, nest_open, nest_close,
                              s);
    s->owed = listen_owed_new(OTF2_OWED_MAX);
    if (NULL == s->w || NULL == s->req_ids || NULL == s->rma_ids || NULL == s->nest
        || NULL == s->owed) {
        return -1;
    }

    s->ar = OTF2_Archive_Open(s->tmpdir, "traces", OTF2_FILEMODE_WRITE, OTF2_EVT_CHUNK,
                              4 * 1024 * 1024, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    if (NULL == s->ar || OTF2_SUCCESS != OTF2_Archive_SetFlushCallbacks(s->ar, &flush_cbs, NULL)
        || OTF2_SUCCESS != OTF2_Archive_SetMemoryCallbacks(s->ar, &mem_cbs, NULL)
        || OTF2_SUCCESS != OTF2_Archive_SetSerialCollectiveCallbacks(s->ar)
        || OTF2_SUCCESS != OTF2_Archive_SetCreator(s->ar, "ompi-evt-listen")
        || OTF2_SUCCESS != OTF2_Archive_OpenEvtFiles(s->ar)) {
        fprintf(stderr, "ompi-evt-listen: cannot create the OTF2 archive in %s\n", s->tmpdir);
        return -1;
    }
    for (size_t l = 0; l < s->num_locs; ++l) {
        s->w[l] = OTF2_Archive_GetEvtWriter(s->ar, (OTF2_LocationRef) l);
        if (NULL == s->w[l]) {
            return -1;
        }
    }
    s->al = OTF2_AttributeList_New();
    return NULL == s->al ? -1 : 0;
}

static uint32_t attr_id(otf_t *s, const char *name, uint8_t type)
{
    for (size_t i = 0; i < s->num_attrs; ++i) {
        if (s->attrs[i].type == type && 0 == strcmp(s->attrs[i].name, name)) {
            return (uint32_t) i;
        }
    }
    attr_t *a = realloc(s->attrs, (s->num_attrs + 1) * sizeof(*a));
    if (NULL == a) {
        return UINT32_MAX;
    }
    s->attrs = a;
    a[s->num_attrs].name = strdup(name);
    a[s->num_attrs].type = type;
    if (NULL == a[s->num_attrs].name) {
        return UINT32_MAX;
    }
    return (uint32_t) s->num_attrs++;
}

/* listen_slot_get: the attribute ids of the elements of type @p key */
static void *attrs_make(void *ctx, const void *key)
{
    otf_t *s = ctx;
    const listen_type_t *t = key;
    uint32_t *ids = calloc(t->num_elements + 1, sizeof(*ids));

    if (NULL == ids) {
        return NULL;
    }
    for (uint16_t i = 0; i < t->num_elements; ++i) {
        char un[LISTEN_ELEMENT_NAME_BUF];
        ids[i] = attr_id(s, listen_element_name(t, i, un), t->elements[i].type);
        if (UINT32_MAX == ids[i]) {
            free(ids);
            return NULL;
        }
    }
    return ids;
}

/* An event as the records it becomes, waiting in the nest buffer for its
 * location's time order (see the file comment). */
typedef enum {
    OREC_PLAIN,     /**< its type's region, at the event's time */
    OREC_P2P_CALL,  /**< a blocking call's region: MpiSend at its start, MpiRecv at its end */
    OREC_P2P_DONE,  /**< a request's completion: MpiIsendComplete or MpiIrecv in its region */
    OREC_ISEND,     /**< point: MpiIsend at a request's start */
    OREC_IRECV_REQ, /**< point: MpiIrecvRequest at a request's start */
    OREC_COLL,
    OREC_RMA,
} orec_kind_t;

/** What the message records need of a p2p completion. */
typedef struct {
    int64_t peer, tag;
    uint64_t bytes;
} op2p_t;

/** What MpiCollectiveEnd needs of a collective. */
typedef struct {
    int64_t kind, root;
    uint64_t sent, recv;
} ocoll_t;

/** What an RMA record needs of a one-sided call. */
typedef struct {
    int64_t kind, peer, lock_type;
    uint64_t sent, recv;
} orma_t;

typedef struct {
    listen_nest_item_t n;
    uint8_t kind;     /**< orec_kind_t */
    bool records;     /**< with its MPI records (else its region alone) */
    bool send;        /**< p2p: a send */
    uint32_t comm_ns; /**< p2p: the namespace's MPI_COMM_WORLD */
    uint64_t req;     /**< p2p request: its id in the location */
    OTF2_RegionRef region;
    OTF2_CommRef comm; /**< collective */
    OTF2_RmaWinRef win;
    union {
        op2p_t p2p;
        ocoll_t coll;
        orma_t rma;
    } f;
    const listen_type_t *type; /**< its elements' types */
    const uint32_t *ids;       /**< attribute ids of the values */
    uint16_t num_vals;
    uint64_t vals[]; /**< the values' bits (mca_common_evt_wire_value_t's v) */
} orec_t;

static uint64_t ts_of(int64_t t)
{
    return t < 0 ? 0 : (uint64_t) t;
}

static int add_attrs(otf_t *s, const orec_t *o)
{
    for (uint16_t i = 0; i < o->num_vals; ++i) {
        mca_common_evt_wire_value_t value = {.type = o->type->elements[i].type};
        const mca_common_evt_wire_value_t *v = &value;
        OTF2_ErrorCode rc;
        memcpy(&value.v, &o->vals[i], sizeof(value.v));
        switch (v->type) {
        case MCA_COMMON_EVT_WIRE_ELEM_INT32:
            rc = OTF2_AttributeList_AddInt32(s->al, o->ids[i], (int32_t) v->v.i);
            break;
        case MCA_COMMON_EVT_WIRE_ELEM_UINT32:
            rc = OTF2_AttributeList_AddUint32(s->al, o->ids[i], (uint32_t) v->v.u);
            break;
        case MCA_COMMON_EVT_WIRE_ELEM_INT64:
            rc = OTF2_AttributeList_AddInt64(s->al, o->ids[i], v->v.i);
            break;
        case MCA_COMMON_EVT_WIRE_ELEM_UINT64:
            rc = OTF2_AttributeList_AddUint64(s->al, o->ids[i], v->v.u);
            break;
        case MCA_COMMON_EVT_WIRE_ELEM_DOUBLE:
            rc = OTF2_AttributeList_AddDouble(s->al, o->ids[i], v->v.d);
            break;
        default:
            rc = OTF2_AttributeList_AddUint8(s->al, o->ids[i], v->v.b ? 1 : 0);
            break;
        }
        if (OTF2_SUCCESS != rc) {
            return -1;
        }
    }
    return 0;
}

/* ompi.mpi.coll_complete's kinds, in order: OTF2's operation (none for the
 * neighbourhood collectives: OTF2 has no name for them) and the region's
 * name and role */
static const struct {
    OTF2_CollectiveOp op;
    const char *name;
    OTF2_RegionRole role;
    bool no_op;
} coll_kinds[] = {
    {OTF2_COLLECTIVE_OP_BARRIER, "MPI_Barrier", OTF2_REGION_ROLE_BARRIER},
    {OTF2_COLLECTIVE_OP_BCAST, "MPI_Bcast", OTF2_REGION_ROLE_COLL_ONE2ALL},
    {OTF2_COLLECTIVE_OP_GATHER, "MPI_Gather", OTF2_REGION_ROLE_COLL_ALL2ONE},
    {OTF2_COLLECTIVE_OP_GATHERV, "MPI_Gatherv", OTF2_REGION_ROLE_COLL_ALL2ONE},
    {OTF2_COLLECTIVE_OP_SCATTER, "MPI_Scatter", OTF2_REGION_ROLE_COLL_ONE2ALL},
    {OTF2_COLLECTIVE_OP_SCATTERV, "MPI_Scatterv", OTF2_REGION_ROLE_COLL_ONE2ALL},
    {OTF2_COLLECTIVE_OP_ALLGATHER, "MPI_Allgather", OTF2_REGION_ROLE_COLL_ALL2ALL},
    {OTF2_COLLECTIVE_OP_ALLGATHERV, "MPI_Allgatherv", OTF2_REGION_ROLE_COLL_ALL2ALL},
    {OTF2_COLLECTIVE_OP_ALLTOALL, "MPI_Alltoall", OTF2_REGION_ROLE_COLL_ALL2ALL},
    {OTF2_COLLECTIVE_OP_ALLTOALLV, "MPI_Alltoallv", OTF2_REGION_ROLE_COLL_ALL2ALL},
    {OTF2_COLLECTIVE_OP_ALLTOALLW, "MPI_Alltoallw", OTF2_REGION_ROLE_COLL_ALL2ALL},
    {OTF2_COLLECTIVE_OP_REDUCE, "MPI_Reduce", OTF2_REGION_ROLE_COLL_ALL2ONE},
    {OTF2_COLLECTIVE_OP_ALLREDUCE, "MPI_Allreduce", OTF2_REGION_ROLE_COLL_ALL2ALL},
    {OTF2_COLLECTIVE_OP_REDUCE_SCATTER, "MPI_Reduce_scatter", OTF2_REGION_ROLE_COLL_ALL2ALL},
    {OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK, "MPI_Reduce_scatter_block",
     OTF2_REGION_ROLE_COLL_ALL2ALL},
    {OTF2_COLLECTIVE_OP_SCAN, "MPI_Scan", OTF2_REGION_ROLE_COLL_OTHER},
    {OTF2_COLLECTIVE_OP_EXSCAN, "MPI_Exscan", OTF2_REGION_ROLE_COLL_OTHER},
    {0, "MPI_Neighbor_allgather", OTF2_REGION_ROLE_COLL_OTHER, true},
    {0, "MPI_Neighbor_allgatherv", OTF2_REGION_ROLE_COLL_OTHER, true},
    {0, "MPI_Neighbor_alltoall", OTF2_REGION_ROLE_COLL_OTHER, true},
    {0, "MPI_Neighbor_alltoallv", OTF2_REGION_ROLE_COLL_OTHER, true},
    {0, "MPI_Neighbor_alltoallw", OTF2_REGION_ROLE_COLL_OTHER, true},
};
#define COLL_KINDS (sizeof(coll_kinds) / sizeof(coll_kinds[0]))

/** The communicator ref of collective @p c of a rank of namespace @p ns
 *  (world rank @p rank), entered or completed with the member it shows;
 *  OTF2_UNDEFINED_COMM when no memory. */
static OTF2_CommRef comm_ref(otf_t *s, uint32_t ns, int64_t rank, const listen_coll_t *c)
{
    ocomm_t *m = NULL;

    if (0 == c->cid && c->comm_size == s->ns_max_rank[ns] + 1 && c->comm_rank == rank) {
        return (OTF2_CommRef) ns; /* the namespace's MPI_COMM_WORLD */
    }
    for (size_t i = s->num_comms; i > 0; --i) {
        ocomm_t *x = &s->comms[i - 1];
        if (x->ns == ns && x->cid == c->cid && x->size == c->comm_size) {
            m = x;
            break;
        }
    }
    if (NULL == m) {
        ocomm_t *v = realloc(s->comms, (s->num_comms + 1) * sizeof(*v));
        if (NULL == v) {
            return OTF2_UNDEFINED_COMM;
        }
        s->comms = v;
        m = &v[s->num_comms];
        m->members = malloc((size_t) c->comm_size * sizeof(*m->members));
        if (NULL == m->members) {
            return OTF2_UNDEFINED_COMM;
        }
        for (int64_t r = 0; r < c->comm_size; ++r) {
            m->members[r] = -1;
        }
        m->ns = ns;
        m->cid = c->cid;
        m->size = c->comm_size;
        s->num_comms++;
    }
    if (-1 == m->members[c->comm_rank]) {
        m->members[c->comm_rank] = rank;
    } else if (m->members[c->comm_rank] != rank) {
        s->comm_conflicts++; /* a context id reused by other ranks: the first kept */
    }
    return (OTF2_CommRef) (s->num_ns + (size_t) (m - s->comms));
}

/* A collective completion: see the file comment. @retval 0, -1 no memory */
static int coll_prepare(otf_t *s, const listen_event_t *ev, orec_t *o)
{
    listen_coll_t call;
    const listen_coll_t *c = &call;
    bool named;

    listen_event_coll(ev, &call);
    o->f.coll.kind = c->kind;
    o->f.coll.root = c->root;
    o->f.coll.sent = c->sent;
    o->f.coll.recv = c->recv;
    named = 0 <= c->kind && c->kind < (int64_t) COLL_KINDS;
    o->kind = OREC_COLL;
    o->records = named && !coll_kinds[c->kind].no_op && 0 == (c->flags & LISTEN_COLL_FLAG_INTER)
                 && 0 < c->comm_size && c->comm_size <= s->ns_max_rank[s->ns_of[ev->proc->id]] + 1
                 && 0 <= c->comm_rank && c->comm_rank < c->comm_size && c->root < c->comm_size
                 && 0 <= c->cid;
    if (o->records) {
        o->comm = comm_ref(s, s->ns_of[ev->proc->id], ev->proc->rank, c);
        if (OTF2_UNDEFINED_COMM == o->comm) {
            return -1;
        }
    } else {
        s->coll_plain++;
    }
    if (named) {
        o->region = (OTF2_RegionRef) (s->reg->num_types + (size_t) c->kind);
    }
    o->n.t0 = ts_of(c->start);
    o->n.t1 = ts_of(c->end);
    return 0;
}

/* Regions of the one-sided calls, numbered after the collectives'. */
#define RMA_REGION_FIRST(s)      ((s)->reg->num_types + COLL_KINDS)
#define RMA_SYNC_REGION_FIRST(s) (RMA_REGION_FIRST(s) + LISTEN_RMA_OP_KINDS)

static size_t win_hash(uint64_t handle, size_t loc, size_t size)
{
    uint64_t h = (handle ^ ((uint64_t) loc * UINT64_C(0x9E3779B97F4A7C15)))
                 * UINT64_C(0xff51afd7ed558ccd);

    return (size_t) (h >> 17) & (size - 1);
}

/** The RmaWin ref of window @p handle of location @p loc (defined at the
 *  end); OTF2_UNDEFINED_RMA_WIN when no memory. */
static OTF2_RmaWinRef win_ref(otf_t *s, size_t loc, uint64_t handle)
{
    size_t i;

    if (2 * (s->num_wins + 1) > s->win_index_size) {
        size_t n = 0 == s->win_index_size ? 64 : 2 * s->win_index_size;
        uint32_t *idx = calloc(n, sizeof(*idx));
        if (NULL == idx) {
            return OTF2_UNDEFINED_RMA_WIN;
        }
        for (size_t w = 0; w < s->num_wins; ++w) {
            for (i = win_hash(s->wins[w].handle, s->wins[w].loc, n); 0 != idx[i];
                 i = (i + 1) & (n - 1)) {
            }
            idx[i] = (uint32_t) w + 1;
        }
        free(s->win_index);
        s->win_index = idx;
        s->win_index_size = n;
    }
    for (i = win_hash(handle, loc, s->win_index_size); 0 != s->win_index[i];
         i = (i + 1) & (s->win_index_size - 1)) {
        const owin_t *w = &s->wins[s->win_index[i] - 1];
        if (w->handle == handle && w->loc == loc) {
            return (OTF2_RmaWinRef) (s->win_index[i] - 1);
        }
    }
    if (s->num_wins == s->wins_alloc) {
        size_t n = 0 == s->wins_alloc ? 16 : 2 * s->wins_alloc;
        owin_t *v = realloc(s->wins, n * sizeof(*v));
        if (NULL == v) {
            return OTF2_UNDEFINED_RMA_WIN;
        }
        s->wins = v;
        s->wins_alloc = n;
    }
    s->wins[s->num_wins] = (owin_t){.handle = handle, .loc = loc};
    s->win_index[i] = (uint32_t) ++s->num_wins;
    return (OTF2_RmaWinRef) (s->num_wins - 1);
}

/* The RMA record of a communication call @p r at @p ts. */
static OTF2_ErrorCode rma_op_record(otf_t *s, OTF2_EvtWriter *w, size_t loc, uint64_t ts,
                                    OTF2_RmaWinRef win, const orma_t *r)
{
    uint32_t remote = (uint32_t) r->peer;
    uint64_t id = s->rma_ids[loc]++;

    switch (r->kind) {
    case 0: /* put */
    case 6: /* rput */
        return OTF2_EvtWriter_RmaPut(w, NULL, ts, win, remote, r->sent, id);
    case 1: /* get */
    case 7: /* rget */
        return OTF2_EvtWriter_RmaGet(w, NULL, ts, win, remote, r->recv, id);
    case 2: /* accumulate */
    case 8: /* raccumulate */
        return OTF2_EvtWriter_RmaAtomic(w, NULL, ts, win, remote, OTF2_RMA_ATOMIC_TYPE_ACCUMULATE,
                                        r->sent, r->recv, id);
    case 5: /* compare_and_swap */
        return OTF2_EvtWriter_RmaAtomic(w, NULL, ts, win, remote,
                                        OTF2_RMA_ATOMIC_TYPE_COMPARE_AND_SWAP, r->sent, r->recv,
                                        id);
    default: /* get_accumulate, fetch_and_op, rget_accumulate */
        return OTF2_EvtWriter_RmaAtomic(w, NULL, ts, win, remote,
                                        OTF2_RMA_ATOMIC_TYPE_FETCH_AND_ACCUMULATE, r->sent, r->recv,
                                        id);
    }
}

/* A one-sided call: see the file comment. @retval 0, -1 no memory */
static int rma_prepare(otf_t *s, const listen_event_t *ev, size_t loc, orec_t *o)
{
    const listen_type_t *t = ev->type;
    listen_rma_t call;
    const listen_rma_t *r = &call;
    bool op = LISTEN_P2P_RMA_OP == t->p2p;
    int64_t kinds = op ? LISTEN_RMA_OP_KINDS : LISTEN_RMA_SYNC_KINDS;
    uint32_t ns = s->ns_of[ev->proc->id];
    bool known, remote_ok, locking;

    listen_event_rma(ev, &call);
    o->f.rma = (orma_t){.kind = r->kind,
                        .peer = r->peer,
                        .lock_type = r->lock_type,
                        .sent = r->sent,
                        .recv = r->recv};
    known = 0 <= r->kind && r->kind < kinds;
    remote_ok = 0 <= r->peer && r->peer <= s->ns_max_rank[ns];
    locking = !op && (6 == r->kind || 7 == r->kind || 10 == r->kind); /* lock, unlock, flush */
    o->kind = OREC_RMA;
    o->send = op;
    if (known) {
        o->region = (OTF2_RegionRef) ((op ? RMA_REGION_FIRST(s) : RMA_SYNC_REGION_FIRST(s))
                                      + (size_t) r->kind);
        /* which calls have records, and whether their remote is a world rank */
        o->records = op ? remote_ok : (0 == r->kind /* fence */ || (locking && remote_ok));
    }
    if (o->records) {
        o->win = win_ref(s, loc, r->win);
        if (OTF2_UNDEFINED_RMA_WIN == o->win) {
            return -1;
        }
        s->rma_records += op || 0 != r->kind ? 1 : 2;
    } else if (op || (known && locking)) {
        s->rma_plain++;
    }
    o->n.t0 = ts_of(r->start);
    o->n.t1 = ts_of(r->end);
    return 0;
}

/* A point-to-point completion: see the file comment. A request's start
 * becomes a point of its own (added first: at equal times it is written
 * first). @retval 0, -1 */
static int p2p_prepare(otf_t *s, const listen_event_t *ev, size_t loc, orec_t *o, uint64_t now)
{
    const listen_type_t *t = ev->type;
    listen_p2p_t call;
    const listen_p2p_t *p = &call;
    uint32_t ns = s->ns_of[ev->proc->id];

    listen_event_p2p(ev, &call);
    o->f.p2p.peer = p->peer;
    o->f.p2p.tag = p->tag;
    o->f.p2p.bytes = p->bytes;
    o->send = LISTEN_P2P_SEND == t->p2p;
    o->comm_ns = ns;
    o->records = 0 <= p->peer && p->peer <= s->ns_max_rank[ns] && 0 <= p->tag
                 && p->tag <= UINT32_MAX;
    if (!o->records) {
        s->unmapped_peers++;
    } else if (!listen_procs_pairable(s->reg, ev->proc, p->peer, o->send)) {
        /* readers match sends and receives by order: not where a side
         * misses records */
        o->records = false;
        s->unsafe++;
    }
    if (o->records) {
        /* a receive seen before its send (the sender saw its send complete
         * later: an MPI_Test long after) holds the sender's records until
         * the send comes, so that it is written at its start and not moved
         * up after the receive */
        size_t peer_loc = s->ns_loc[ns][p->peer];
        int owed = o->send ? listen_owed_seen(s->owed, loc, peer_loc, p->tag, true)
                           : listen_owed_seen(s->owed, peer_loc, loc, p->tag, false);
        if (0 > owed) {
            return -1;
        }
        if (LISTEN_OWED_OWES == owed) {
            listen_nest_await(s->nest, peer_loc, 1);
        } else if (LISTEN_OWED_PAID == owed) {
            listen_nest_await(s->nest, loc, -1);
        }
    }
    if (0 == p->mode) {
        o->kind = OREC_P2P_CALL;
        o->n.t0 = ts_of(p->start);
        o->n.t1 = ts_of(p->end);
        return 0;
    }
    o->kind = OREC_P2P_DONE;
    o->n.t0 = o->n.t1 = ts_of(p->end);
    if (o->records) {
        orec_t *start = calloc(1, sizeof(*start));
        if (NULL == start) {
            return -1;
        }
        *start = *o;
        start->kind = o->send ? OREC_ISEND : OREC_IRECV_REQ;
        start->n.point = true;
        start->n.t0 = ts_of(p->start < p->end ? p->start : p->end); /* never after it ends */
        start->num_vals = 0;
        start->req = o->req = s->req_ids[loc]++;
        s->requests++;
        return listen_nest_add(s->nest, loc, &start->n, now);
    }
    return 0;
}

/* listen_nest_open_fn: an item's records at its start */
static int nest_open(void *ctx, size_t loc, listen_nest_item_t *it, uint64_t ts)
{
    otf_t *s = ctx;
    const orec_t *o = (const orec_t *) it;
    const op2p_t *p = &o->f.p2p;
    OTF2_EvtWriter *w = s->w[loc];
    OTF2_ErrorCode rc = OTF2_SUCCESS;

    switch (o->kind) {
    case OREC_ISEND:
        rc = OTF2_EvtWriter_MpiIsend(w, NULL, ts, (uint32_t) p->peer, o->comm_ns, (uint32_t) p->tag,
                                     p->bytes, o->req);
        return OTF2_SUCCESS == rc ? 0 : -1;
    case OREC_IRECV_REQ:
        rc = OTF2_EvtWriter_MpiIrecvRequest(w, NULL, ts, o->req);
        return OTF2_SUCCESS == rc ? 0 : -1;
    default:
        break;
    }
    /* a region split by the buffer (it overlapped another) writes its
     * start's records at its start, its region and the rest at its end */
    bool at_start = LISTEN_NEST_AT_END != it->part, region = LISTEN_NEST_START != it->part;
    if (region
        && (0 != add_attrs(s, o)
            || OTF2_SUCCESS != OTF2_EvtWriter_Enter(w, s->al, ts, o->region))) {
        return -1;
    }
    if (!o->records) {
        return 0;
    }
    switch (o->kind) {
    case OREC_P2P_CALL:
        if (o->send && at_start) {
            rc = OTF2_EvtWriter_MpiSend(w, NULL, ts, (uint32_t) p->peer, o->comm_ns,
                                        (uint32_t) p->tag, p->bytes);
        }
        break;
    case OREC_P2P_DONE:
        if (region) {
            rc = o->send ? OTF2_EvtWriter_MpiIsendComplete(w, NULL, ts, o->req)
                         : OTF2_EvtWriter_MpiIrecv(w, NULL, ts, (uint32_t) p->peer, o->comm_ns,
                                                   (uint32_t) p->tag, p->bytes, o->req);
        }
        break;
    case OREC_COLL:
        if (region) {
            rc = OTF2_EvtWriter_MpiCollectiveBegin(w, NULL, ts);
        }
        break;
    case OREC_RMA:
        if (o->send && at_start) {
            rc = rma_op_record(s, w, loc, ts, o->win, &o->f.rma);
        } else if (!o->send && 0 == o->f.rma.kind && region) {
            rc = OTF2_EvtWriter_RmaCollectiveBegin(w, NULL, ts);
        }
        break;
    default:
        break;
    }
    return OTF2_SUCCESS == rc ? 0 : -1;
}

/* The closing records of a one-sided synchronisation with records. */
static OTF2_ErrorCode rma_sync_end(OTF2_EvtWriter *w, uint64_t ts, const orec_t *o)
{
    const orma_t *r = &o->f.rma;

    switch (r->kind) {
    case 0:
        return OTF2_EvtWriter_RmaCollectiveEnd(w, NULL, ts, OTF2_COLLECTIVE_OP_BARRIER,
                                               OTF2_RMA_SYNC_LEVEL_PROCESS
                                                   | OTF2_RMA_SYNC_LEVEL_MEMORY,
                                               o->win, OTF2_UNDEFINED_UINT32, 0, 0);
    case 6:
        return OTF2_EvtWriter_RmaAcquireLock(w, NULL, ts, o->win, (uint32_t) r->peer,
                                             (uint64_t) r->peer,
                                             1 == r->lock_type ? OTF2_LOCK_EXCLUSIVE
                                                               : OTF2_LOCK_SHARED);
    case 7:
        return OTF2_EvtWriter_RmaReleaseLock(w, NULL, ts, o->win, (uint32_t) r->peer,
                                             (uint64_t) r->peer);
    default: /* flush */
        return OTF2_EvtWriter_RmaSync(w, NULL, ts, o->win, (uint32_t) r->peer,
                                      OTF2_RMA_SYNC_TYPE_MEMORY);
    }
}

/* listen_nest_close_fn: a region's records at its end */
static int nest_close(void *ctx, size_t loc, listen_nest_item_t *it, uint64_t ts)
{
    otf_t *s = ctx;
    const orec_t *o = (const orec_t *) it;
    const op2p_t *p = &o->f.p2p;
    const ocoll_t *c = &o->f.coll;
    OTF2_EvtWriter *w = s->w[loc];
    OTF2_ErrorCode rc = OTF2_SUCCESS;

    if (o->records) {
        switch (o->kind) {
        case OREC_P2P_CALL:
            if (!o->send) {
                rc = OTF2_EvtWriter_MpiRecv(w, NULL, ts, (uint32_t) p->peer, o->comm_ns,
                                            (uint32_t) p->tag, p->bytes);
            }
            break;
        case OREC_COLL:
            rc = OTF2_EvtWriter_MpiCollectiveEnd(w, NULL, ts, coll_kinds[c->kind].op, o->comm,
                                                 0 <= c->root ? (uint32_t) c->root
                                                              : OTF2_UNDEFINED_UINT32,
                                                 c->sent, c->recv);
            break;
        case OREC_RMA:
            if (!o->send) {
                rc = rma_sync_end(w, ts, o);
            }
            break;
        default:
            break;
        }
    }
    if (OTF2_SUCCESS != rc || OTF2_SUCCESS != OTF2_EvtWriter_Leave(w, NULL, ts, o->region)) {
        return -1;
    }
    return 0;
}

static int ot_event(void *ctx, const listen_event_t *ev)
{
    otf_t *s = ctx;
    const listen_type_t *t = ev->type;
    size_t loc = s->loc_of[ev->proc->id];
    const uint32_t *ids = listen_slot_get(&s->type_attrs, t->id, attrs_make, s, t);
    uint16_t n = ev->wire_type->num_elements;
    uint64_t now = ts_of(ev->time_ns);
    orec_t *o;
    int rc = 0;

    if (s->broken) {
        return -1;
    }
    if (NULL == ids || NULL == (o = calloc(1, sizeof(*o) + n * sizeof(o->vals[0])))) {
        return -1;
    }
    o->type = t;
    o->ids = ids;
    o->num_vals = n;
    for (uint16_t i = 0; i < n; ++i) {
        mca_common_evt_wire_value_t v;
        (void) mca_common_evt_wire_element_value(ev->wire_type, ev->payload, i, &v);
        memcpy(&o->vals[i], &v.v, sizeof(o->vals[i]));
    }
    o->region = t->id;
    if (LISTEN_P2P_COLL == t->p2p) {
        rc = coll_prepare(s, ev, o);
    } else if (LISTEN_P2P_RMA_OP == t->p2p || LISTEN_P2P_RMA_SYNC == t->p2p) {
        rc = rma_prepare(s, ev, loc, o);
    } else if (LISTEN_P2P_NONE == t->p2p) {
        o->kind = OREC_PLAIN;
        o->n.t0 = o->n.t1 = now;
    } else {
        rc = p2p_prepare(s, ev, loc, o, now);
    }
    if (0 != rc) {
        free(o);
        s->broken = true;
        return -1;
    }
    if (0 != listen_nest_add(s->nest, loc, &o->n, now)) {
        s->broken = true;
        return -1;
    }
    return 0;
}

/* String definitions, numbered as written. */
typedef struct {
    OTF2_GlobalDefWriter *gw;
    uint32_t next;
    bool bad;
} strs_t;

static OTF2_StringRef str(strs_t *st, const char *s)
{
    if (OTF2_SUCCESS != OTF2_GlobalDefWriter_WriteString(st->gw, st->next, s)) {
        st->bad = true;
    }
    return st->next++;
}

static OTF2_Type otf2_type(uint8_t t)
{
    switch (t) {
    case MCA_COMMON_EVT_WIRE_ELEM_INT32:
        return OTF2_TYPE_INT32;
    case MCA_COMMON_EVT_WIRE_ELEM_UINT32:
        return OTF2_TYPE_UINT32;
    case MCA_COMMON_EVT_WIRE_ELEM_INT64:
        return OTF2_TYPE_INT64;
    case MCA_COMMON_EVT_WIRE_ELEM_UINT64:
        return OTF2_TYPE_UINT64;
    case MCA_COMMON_EVT_WIRE_ELEM_DOUBLE:
        return OTF2_TYPE_DOUBLE;
    default:
        return OTF2_TYPE_UINT8;
    }
}

static int write_defs(otf_t *s, const listen_registry_t *reg, const uint64_t *nevents)
{
    strs_t st = {OTF2_Archive_GetGlobalDefWriter(s->ar), 0, false};
    OTF2_GlobalDefWriter *gw = st.gw;
    char **hosts = NULL;
    size_t nhosts = 0;
    int ret = 0;

    if (NULL == gw) {
        return -1;
    }
    if (OTF2_SUCCESS
        != OTF2_GlobalDefWriter_WriteClockProperties(gw, 1000000000, (uint64_t) s->t_min,
                                                     (uint64_t) s->t_max - (uint64_t) s->t_min + 1,
                                                     (uint64_t) s->t_min)) {
        return -1;
    }
    {
        OTF2_StringRef m = str(&st, "machine");
        if (OTF2_SUCCESS
            != OTF2_GlobalDefWriter_WriteSystemTreeNode(gw, 0, m, m,
                                                        OTF2_UNDEFINED_SYSTEM_TREE_NODE)) {
            return -1;
        }
    }
    /* nodes, in the order of their first rank */
    hosts = calloc(reg->num_procs + 1, sizeof(*hosts));
    if (NULL == hosts) {
        return -1;
    }
    {
        OTF2_StringRef node = str(&st, "node");
        for (size_t i = 0; i < reg->num_procs; ++i) {
            size_t k;
            for (k = 0; k < nhosts && 0 != strcmp(hosts[k], reg->procs[i]->host); ++k) {
            }
            if (k == nhosts) {
                hosts[nhosts++] = reg->procs[i]->host;
                if (OTF2_SUCCESS
                    != OTF2_GlobalDefWriter_WriteSystemTreeNode(gw, (OTF2_SystemTreeNodeRef) nhosts,
                                                                str(&st, reg->procs[i]->host), node,
                                                                0)) {
                    ret = -1;
                }
            }
        }
    }
    /* processes and threads: every location, placeholders included */
    for (size_t k = 0; k < s->num_ns && 0 == ret; ++k) {
        for (int64_t r = 0; r <= s->ns_max_rank[k]; ++r) {
            uint64_t l = s->ns_loc[k][r];
            char name[600];
            OTF2_StringRef sn;
            size_t node = 0;
            if (SIZE_MAX != s->proc_at[l]) {
                const listen_proc_t *p = reg->procs[s->proc_at[l]];
                for (size_t h = 0; h < nhosts; ++h) {
                    if (0 == strcmp(hosts[h], p->host)) {
                        node = h + 1;
                    }
                }
                if (1 < s->num_ns) {
                    snprintf(name, sizeof(name), "rank %u (%s)", p->rank, p->nspace);
                } else {
                    snprintf(name, sizeof(name), "rank %u", p->rank);
                }
            } else {
                snprintf(name, sizeof(name), "rank %lld (no data)", (long long) r);
            }
            sn = str(&st, name);
            if (OTF2_SUCCESS
                    != OTF2_GlobalDefWriter_WriteLocationGroup(gw, (OTF2_LocationGroupRef) l, sn,
                                                               OTF2_LOCATION_GROUP_TYPE_PROCESS,
                                                               (OTF2_SystemTreeNodeRef) node,
                                                               OTF2_UNDEFINED_LOCATION_GROUP)
                || OTF2_SUCCESS
                       != OTF2_GlobalDefWriter_WriteLocation(gw, (OTF2_LocationRef) l, sn,
                                                             OTF2_LOCATION_TYPE_CPU_THREAD,
                                                             nevents[l],
                                                             (OTF2_LocationGroupRef) l)) {
                ret = -1;
            }
        }
    }
    /* regions: the event types written */
    for (size_t t = 0; t < s->type_attrs.n && t < reg->num_types && 0 == ret; ++t) {
        const listen_type_t *lt = reg->types[t];
        OTF2_StringRef n, d, e;
        bool p2p, coll;
        char desc[600];
        if (NULL == s->type_attrs.v[t]) {
            continue;
        }
        p2p = LISTEN_P2P_SEND == lt->p2p || LISTEN_P2P_RECV == lt->p2p;
        coll = LISTEN_P2P_COLL == lt->p2p;
        snprintf(desc, sizeof(desc), "MPI_T event on source %s", lt->source);
        n = str(&st, lt->name);
        d = str(&st, desc);
        e = str(&st, "");
        if (OTF2_SUCCESS
            != OTF2_GlobalDefWriter_WriteRegion(gw, (OTF2_RegionRef) t, n, n, d,
                                                p2p    ? OTF2_REGION_ROLE_POINT2POINT
                                                : coll ? OTF2_REGION_ROLE_COLL_OTHER
                                                       : OTF2_REGION_ROLE_ARTIFICIAL,
                                                p2p || coll ? OTF2_PARADIGM_MPI
                                                            : OTF2_PARADIGM_USER,
                                                OTF2_REGION_FLAG_NONE, e, 0, 0)) {
            ret = -1;
        }
    }
    /* the collectives' regions, numbered after the types */
    for (size_t k = 0; k < COLL_KINDS && 0 == ret; ++k) {
        OTF2_StringRef n = str(&st, coll_kinds[k].name), e = str(&st, "");
        if (OTF2_SUCCESS
            != OTF2_GlobalDefWriter_WriteRegion(gw, (OTF2_RegionRef) (reg->num_types + k), n, n,
                                                str(&st, "MPI collective (ompi.mpi.coll_complete)"),
                                                coll_kinds[k].role, OTF2_PARADIGM_MPI,
                                                OTF2_REGION_FLAG_NONE, e, 0, 0)) {
            ret = -1;
        }
    }
    /* the one-sided calls' regions, numbered after the collectives' */
    for (int64_t k = 0; k < LISTEN_RMA_OP_KINDS + LISTEN_RMA_SYNC_KINDS && 0 == ret; ++k) {
        bool op = k < LISTEN_RMA_OP_KINDS;
        const char *call = op ? listen_rma_op_name(k)
                              : listen_rma_sync_name(k - LISTEN_RMA_OP_KINDS);
        OTF2_StringRef n = str(&st, call), e = str(&st, "");
        if (OTF2_SUCCESS
            != OTF2_GlobalDefWriter_WriteRegion(
                gw, (OTF2_RegionRef) (RMA_REGION_FIRST(s) + (size_t) k), n, n,
                str(&st, op ? "MPI one-sided communication (ompi.mpi.rma_op)"
                            : "MPI one-sided synchronisation (ompi.mpi.rma_sync)"),
                OTF2_REGION_ROLE_RMA, OTF2_PARADIGM_MPI, OTF2_REGION_FLAG_NONE, e, 0, 0)) {
            ret = -1;
        }
    }
    for (size_t a = 0; a < s->num_attrs && 0 == ret; ++a) {
        OTF2_StringRef n = str(&st, s->attrs[a].name);
        OTF2_StringRef d = str(&st, "MPI_T event element");
        if (OTF2_SUCCESS
            != OTF2_GlobalDefWriter_WriteAttribute(gw, (OTF2_AttributeRef) a, n, d,
                                                   otf2_type(s->attrs[a].type))) {
            ret = -1;
        }
    }
    /* one communicator per namespace: its world, rank r = its location */
    for (size_t k = 0; k < s->num_ns && 0 == ret; ++k) {
        size_t n = (size_t) s->ns_max_rank[k] + 1;
        uint64_t *ranks = malloc(n * sizeof(*ranks));
        OTF2_StringRef cn;
        char name[600];
        if (NULL == ranks) {
            ret = -1;
            break;
        }
        for (size_t r = 0; r < n; ++r) {
            ranks[r] = r;
        }
        if (1 < s->num_ns) {
            const char *nsname = "?";
            for (size_t i = 0; i < reg->num_procs; ++i) {
                if (s->ns_of[i] == k) {
                    nsname = reg->procs[i]->nspace;
                    break;
                }
            }
            snprintf(name, sizeof(name), "MPI_COMM_WORLD (%s)", nsname);
        } else {
            snprintf(name, sizeof(name), "MPI_COMM_WORLD");
        }
        cn = str(&st, name);
        if (OTF2_SUCCESS
                != OTF2_GlobalDefWriter_WriteGroup(gw, (OTF2_GroupRef) (2 * k), str(&st, ""),
                                                   OTF2_GROUP_TYPE_COMM_LOCATIONS,
                                                   OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                                   (uint32_t) n, s->ns_loc[k])
            || OTF2_SUCCESS
                   != OTF2_GlobalDefWriter_WriteGroup(gw, (OTF2_GroupRef) (2 * k + 1), cn,
                                                      OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                                                      OTF2_GROUP_FLAG_NONE, (uint32_t) n, ranks)
            || OTF2_SUCCESS
                   != OTF2_GlobalDefWriter_WriteComm(gw, (OTF2_CommRef) k, cn,
                                                     (OTF2_GroupRef) (2 * k + 1),
                                                     OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE)) {
            ret = -1;
        }
        free(ranks);
    }
    /* the communicators of collectives: members in comm rank order (a rank
     * that reported none of its collectives is left out) */
    for (size_t i = 0; i < s->num_comms && 0 == ret; ++i) {
        const ocomm_t *m = &s->comms[i];
        uint64_t *members = malloc((size_t) m->size * sizeof(*members));
        uint32_t n = 0;
        char name[64];
        OTF2_StringRef cn;
        if (NULL == members) {
            ret = -1;
            break;
        }
        for (int64_t r = 0; r < m->size; ++r) {
            if (0 <= m->members[r]) {
                members[n++] = (uint64_t) m->members[r];
            }
        }
        snprintf(name, sizeof(name), "communicator %lld (%lld ranks)", (long long) m->cid,
                 (long long) m->size);
        cn = str(&st, name);
        if (OTF2_SUCCESS
                != OTF2_GlobalDefWriter_WriteGroup(gw, (OTF2_GroupRef) (2 * s->num_ns + i), cn,
                                                   OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                                                   OTF2_GROUP_FLAG_NONE, n, members)
            || OTF2_SUCCESS
                   != OTF2_GlobalDefWriter_WriteComm(gw, (OTF2_CommRef) (s->num_ns + i), cn,
                                                     (OTF2_GroupRef) (2 * s->num_ns + i),
                                                     (OTF2_CommRef) m->ns, OTF2_COMM_FLAG_NONE)) {
            ret = -1;
        }
        free(members);
    }
    /* the windows: per location, on its namespace's MPI_COMM_WORLD */
    for (size_t i = 0; i < s->num_wins && 0 == ret; ++i) {
        const owin_t *v = &s->wins[i];
        size_t p = s->proc_at[v->loc];
        char name[96];
        if (SIZE_MAX == p) {
            continue; /* not reached: windows come from events of a process */
        }
        snprintf(name, sizeof(name), "window 0x%llx of rank %u", (unsigned long long) v->handle,
                 reg->procs[p]->rank);
        if (OTF2_SUCCESS
            != OTF2_GlobalDefWriter_WriteRmaWin(gw, (OTF2_RmaWinRef) i, str(&st, name),
                                                (OTF2_CommRef) s->ns_of[p],
                                                OTF2_RMA_WIN_FLAG_NONE)) {
            ret = -1;
        }
    }
    free(hosts);
    return ret || st.bad ? -1 : 0;
}

/* Give up the archive after a failed OTF2 call: the library's state is
 * not safe to close then (after a failed write it frees a buffer twice),
 * so it is left to the exit and its files are removed. @retval -1 */
static int abandon(otf_t *s)
{
    fprintf(stderr, "ompi-evt-listen: writing the OTF2 archive failed (see the OTF2 library's "
                    "message); no trace.otf2 written\n");
    s->broken = true;
    s->ar = NULL;
    (void) nftw(s->tmpdir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    return -1;
}

static int ot_end(void *ctx, const listen_registry_t *reg)
{
    otf_t *s = ctx;
    uint64_t *nev;
    char final[4200];
    struct stat sb;
    int ret = 0;

    if (s->broken || 0 != listen_nest_finish(s->nest)) {
        return abandon(s);
    }
    nev = calloc(s->num_locs + 1, sizeof(*nev));
    if (NULL == nev) {
        return abandon(s);
    }
    for (size_t l = 0; l < s->num_locs && 0 == ret; ++l) {
        if (OTF2_SUCCESS != OTF2_EvtWriter_GetNumberOfEvents(s->w[l], &nev[l])
            || OTF2_SUCCESS != OTF2_Archive_CloseEvtWriter(s->ar, s->w[l])) {
            ret = -1;
        }
        s->w[l] = NULL;
    }
    if (0 != ret || OTF2_SUCCESS != OTF2_Archive_CloseEvtFiles(s->ar)) {
        free(nev);
        return abandon(s);
    }
    /* empty local definitions, one per location (readers expect them) */
    if (OTF2_SUCCESS == OTF2_Archive_OpenDefFiles(s->ar)) {
        for (size_t l = 0; l < s->num_locs && 0 == ret; ++l) {
            OTF2_DefWriter *dw = OTF2_Archive_GetDefWriter(s->ar, (OTF2_LocationRef) l);
            if (NULL == dw || OTF2_SUCCESS != OTF2_Archive_CloseDefWriter(s->ar, dw)) {
                ret = -1;
            }
        }
        if (0 == ret && OTF2_SUCCESS != OTF2_Archive_CloseDefFiles(s->ar)) {
            ret = -1;
        }
    } else {
        ret = -1;
    }
    if (0 == ret) {
        ret = write_defs(s, reg, nev);
    }
    free(nev);
    if (0 != ret || OTF2_SUCCESS != OTF2_Archive_Close(s->ar)) {
        return abandon(s);
    }
    s->ar = NULL;
    /* the OTF2 library creates its files with the umask's modes */
    if (0 != listen_out_private_tree(s->tmpdir)) {
        fprintf(stderr, "ompi-evt-listen: %s: cannot make the archive private (0600/0700)\n",
                s->tmpdir);
        return -1;
    }
    /* into place: replace an earlier trace.otf2 only if it is an archive */
    snprintf(final, sizeof(final), "%s/trace.otf2", s->dir);
    if (0 == lstat(final, &sb)) {
        char anchor[4300];
        snprintf(anchor, sizeof(anchor), "%s/traces.otf2", final);
        if (!S_ISDIR(sb.st_mode) || 0 != access(anchor, F_OK)) {
            fprintf(stderr,
                    "ompi-evt-listen: %s exists and is not an OTF2 archive: kept; the "
                    "archive is in %s\n",
                    final, s->tmpdir);
            s->kept = true;
            return -1;
        }
        (void) nftw(final, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    }
    if (0 != rename(s->tmpdir, final)) {
        fprintf(stderr, "ompi-evt-listen: %s: %s\n", final, strerror(errno));
        return -1;
    }
    return 0;
}

static void ot_report(void *ctx, FILE *f)
{
    otf_t *s = ctx;
    const listen_nest_stats_t *ns = NULL == s->nest ? NULL : listen_nest_stats(s->nest);
    if (NULL == ns) {
        return; /* never began */
    }
    fprintf(f,
            "  trace.otf2/: %llu nonblocking p2p requests (MpiIsend or MpiIrecvRequest at the "
            "start, MpiIsendComplete or MpiIrecv at the completion), %llu p2p records with a peer "
            "or tag outside the namespace's ranks (no MPI message records), %llu p2p records "
            "whose partner's recording or its own misses records (no MPI message records: "
            "order would match the wrong messages)\n",
            (unsigned long long) s->requests, (unsigned long long) s->unmapped_peers,
            (unsigned long long) s->unsafe);
    fprintf(f,
            "  trace.otf2/: %llu records moved up to their rank's previous record (OTF2 wants "
            "time order per location: they began more than %.0f ms before their rank's latest "
            "event, or after records written early), %llu records written before their %.0f ms "
            "had passed (their rank held its share of %u waiting records), %llu regions that "
            "overlapped another of their rank (two threads' calls) written with no length at "
            "their end, the records of their start at their start (OTF2 regions nest), %llu "
            "sends and receives whose sender was not held for a receive seen before its send "
            "(%u messages followed at once)\n",
            (unsigned long long) ns->late, (double) OTF2_HORIZON_NS / 1e6,
            (unsigned long long) ns->early, (double) OTF2_HORIZON_NS / 1e6, OTF2_WAITING_MAX,
            (unsigned long long) ns->overlapped,
            (unsigned long long) (NULL != s->owed ? listen_owed_unfollowed(s->owed) : 0),
            OTF2_OWED_MAX);
    fprintf(f,
            "  trace.otf2/: %zu communicators of collectives defined, %llu collectives without "
            "MpiCollectiveBegin/End (on an intercommunicator, a neighbourhood collective, or "
            "fields out of range), %llu "
            "collective records whose comm rank another rank had reported (a context id reused "
            "by other ranks)\n",
            s->num_comms, (unsigned long long) s->coll_plain,
            (unsigned long long) s->comm_conflicts);
    fprintf(f,
            "  trace.otf2/: %zu windows defined (one per rank and handle), %llu RMA records, "
            "%llu one-sided calls without RMA records (a target outside the namespace's ranks, "
            "or a kind this reader does not know)\n",
            s->num_wins, (unsigned long long) s->rma_records, (unsigned long long) s->rma_plain);
}

static void ot_destroy(void *ctx)
{
    otf_t *s = ctx;

    if (NULL != s->ar && !s->broken) {
        (void) OTF2_Archive_Close(s->ar); /* else left to the exit: see abandon() */
    }
    if (!s->kept && NULL != s->tmpdir) {
        /* whatever failed (a begin that never opened the archive, a close
         * or a rename that failed), no temporary is left; once renamed
         * into place it is gone already */
        (void) nftw(s->tmpdir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    }
    if (NULL != s->al) {
        OTF2_AttributeList_Delete(s->al);
    }
    for (size_t k = 0; k < s->num_ns; ++k) {
        free(s->ns_loc[k]);
    }
    for (size_t i = 0; i < s->num_comms; ++i) {
        free(s->comms[i].members);
    }
    free(s->comms);
    for (size_t a = 0; a < s->num_attrs; ++a) {
        free(s->attrs[a].name);
    }
    free(s->attrs);
    listen_slots_free(&s->type_attrs, free);
    free(s->ns_loc);
    free(s->loc_of);
    free(s->proc_at);
    free(s->ns_of);
    free(s->ns_max_rank);
    free(s->w);
    free(s->req_ids);
    listen_nest_free(s->nest);
    listen_owed_free(s->owed);
    free(s->rma_ids);
    free(s->wins);
    free(s->win_index);
    free(s->tmpdir);
    free(s->dir);
    free(s);
}

int listen_sink_otf2(listen_sink_t *sink, const char *dir, char *err, size_t errlen)
{
    otf_t *s = calloc(1, sizeof(*s));
    size_t n = strlen(dir) + 64;

    if (NULL == s || NULL == (s->dir = strdup(dir)) || NULL == (s->tmpdir = malloc(n))) {
        if (NULL != s) {
            free(s->dir);
        }
        free(s);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    snprintf(s->tmpdir, n, "%s/.trace.otf2.tmp.%ld", dir, (long) getpid());
    (void) nftw(s->tmpdir, rm_entry, 16, FTW_DEPTH | FTW_PHYS); /* ours, from a crash */
    if (0 != mkdir(s->tmpdir, 0700)) {
        snprintf(err, errlen, "%s: %s", s->tmpdir, strerror(errno));
        free(s->tmpdir);
        free(s->dir);
        free(s);
        return -1;
    }
    listen_sink_set(sink, "trace.otf2", s, ot_begin, ot_event, ot_end, ot_report, ot_destroy);
    return 0;
}
