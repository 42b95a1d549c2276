/* Partitioned communication (MPI 4.1, chapter 4) between ranks of this node: MPI_Psend_init,
 * MPI_Precv_init, MPI_Pready, MPI_Pready_range, MPI_Pready_list, MPI_Parrived, and the
 * start, poll and release of their requests (kinds SHL_REQ_PSEND and SHL_REQ_PRECV).
 *
 * A send and a receive that match share a channel. Matching is done at initialization, in
 * the order of the initialization calls per (communicator, sender, receiver, tag), as the
 * standard says: the process-wide table `chans` keeps the channels that one side has
 * initialized and the other not yet, oldest first; the k-th Psend_init finds the k-th
 * Precv_init there (or leaves its channel for it). Each epoch (one MPI_Start and its
 * completion on each side) the sender's partition i, bytes [i*sb, (i+1)*sb) of its
 * message, is copied straight from the sender's buffer into the receiver's, layout to
 * layout (shl_dt_copy_range), by whichever side comes second: MPI_Pready copies when the
 * receiver has started the same epoch, else the receiver's MPI_Start copies what was
 * readied. One compare-and-swap on the partition's `claimed` epoch decides who copies. The
 * copier adds the bytes to the arrival count of each receive partition they cover, which
 * MPI_Parrived reads, and the copier of the last partition completes both requests. The
 * two sides may cut the message into different numbers of partitions.
 *
 * Threads: MPI_Pready and its kin run in any thread of the sending rank, several at once
 * (MPI_THREAD_MULTIPLE), without the rank lock: they touch only atomics and their own
 * partitions' bytes. MPI_Parrived runs in any thread of the receiving rank. Inits, Start
 * and release run in the owning rank's threads; the table is guarded by its lock.
 * A rank of another node cannot share buffers: partitioned communication with one is
 * refused at initialization (MPI_ERR_UNSUPPORTED_OPERATION). */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include "runtime/core/rt.h"
#include "runtime/core/check.h"
#include "runtime/p2p/check.h"
#include "runtime/p2p/internal.h"
#include "runtime/p2p/partition.h"

/* What a send and its receive share. The key and the sides' fields are written by each
 * side's init before it publishes its side (has_send, has_recv: seq_cst stores, also under
 * the table's lock), and read by the other only after it has seen that flag. */
struct chan {
	/* Matching key. */
	uint32_t context;
	int src, dst, tag;            /* world ranks, and the tag */
	struct chan *next;            /* in `chans` while one side is missing */
	_Atomic int refs;             /* sides attached and not released */
	_Atomic bool has_send, has_recv;
	/* The sender's: its message as `sparts` partitions of `sbytes` bytes. */
	const char *sbuf;
	struct shl_datatype *stype;
	int sparts;
	size_t sbytes;
	struct shl_req *sreq;
	_Atomic uint64_t *ready;      /* by send partition: the epoch it was last readied in */
	_Atomic uint64_t *claimed;    /* by send partition: the epoch it was last copied in */
	/* The receiver's. */
	char *rbuf;
	struct shl_datatype *rtype;
	int rparts;
	size_t rbytes;
	struct shl_req *rreq;
	_Atomic size_t *arrived;      /* by receive partition: its bytes copied this epoch */
	/* Epochs, counted from 1 by each side's MPI_Start; the receiver's is published after
	 * its arrival counts are reset (seq_cst, against MPI_Pready's load). */
	alignas(64) _Atomic uint64_t recv_epoch;
	_Atomic int copied;           /* send partitions copied this epoch; the sender resets
				       * it at MPI_Start, before readying any */
};

/* Channels waiting for their other side, oldest first: process-wide, under `lock`. */
static struct {
	pthread_mutex_t lock;
	struct chan *head, **tail;
} chans = { PTHREAD_MUTEX_INITIALIZER, NULL, &chans.head };

/* One side's view, a request's `ext`. `epoch` is written by MPI_Start in the owner's
 * thread and read by MPI_Pready in its others: the program orders them (it must start the
 * request before readying a partition). */
struct part {
	struct chan *ch;              /* NULL: the peer is MPI_PROC_NULL */
	bool send;
	int parts;
	size_t pbytes;                /* bytes of one partition */
	uint64_t epoch;
};

static void chan_drop(struct chan *ch)
{
	if (atomic_fetch_sub(&ch->refs, 1) != 1)
		return;
	free((void *)ch->ready);
	free((void *)ch->claimed);
	free((void *)ch->arrived);
	free(ch);
}

/* ---- copying ---- */

/* Copy send partition `i` of epoch `e` into the receiver's buffer unless the other side has
 * (both sides have started epoch `e` and the partition is readied). Any thread of either
 * rank, no lock. */
static void try_copy(struct chan *ch, int i, uint64_t e)
{
	uint64_t expect = e - 1;
	size_t off = (size_t)i * ch->sbytes, end = off + ch->sbytes;

	/* Pairs with the other side's CAS: one copier per partition and epoch. */
	if (!atomic_compare_exchange_strong(&ch->claimed[i], &expect, e))
		return;
	if (ch->sbytes > 0) {
		shl_dt_copy_range(ch->rbuf, ch->rtype, ch->sbuf, ch->stype, off, ch->sbytes);
		for (size_t j = off / ch->rbytes; j < (size_t)ch->rparts && j * ch->rbytes < end;
		     j++) {
			size_t lo = j * ch->rbytes > off ? j * ch->rbytes : off;
			size_t hi = (j + 1) * ch->rbytes < end ? (j + 1) * ch->rbytes : end;
			/* Release: MPI_Parrived's acquire load then sees the bytes. */
			atomic_fetch_add_explicit(&ch->arrived[j], hi - lo, memory_order_release);
		}
	}
	/* acq_rel: the last copier sees every other copier's bytes before it completes. */
	if (atomic_fetch_add_explicit(&ch->copied, 1, memory_order_acq_rel) + 1 == ch->sparts) {
		struct shl_req *sreq = ch->sreq;
		shl_req_complete(ch->rreq);
		shl_req_complete(sreq);
	}
}

/* ---- hooks ---- */

void shl_p2p_part_poll(struct shl_rank *r, struct shl_req *q)
{
	(void)r;
	(void)q;
}

int shl_p2p_part_start(struct shl_rank *r, struct shl_req *q)
{
	struct part *p = q->ext;
	struct chan *ch = p->ch;
	uint64_t e = ++p->epoch;

	atomic_store_explicit(&q->done, 0, memory_order_relaxed);
	q->active = true;
	q->cancelled = false;
	if (ch == NULL || p->parts == 0) {
		/* MPI_PROC_NULL, or nothing to move: complete at once. */
		shl_req_complete_own(r, q);
		return 0;
	}
	if (p->send) {
		atomic_store_explicit(&ch->copied, 0, memory_order_relaxed);
		return 0;
	}
	for (int j = 0; j < ch->rparts; j++)
		atomic_store_explicit(&ch->arrived[j], 0, memory_order_relaxed);
	/* seq_cst, against MPI_Pready's store of `ready` and load of recv_epoch: either it
	 * sees us started and copies, or we see its partition readied below. */
	atomic_store(&ch->recv_epoch, e);
	if (!atomic_load(&ch->has_send))
		return 0;  /* the sender copies each partition as it readies it */
	for (int i = 0; i < ch->sparts; i++)
		if (atomic_load(&ch->ready[i]) == e)
			try_copy(ch, i, e);
	return 0;
}

void shl_p2p_part_free(struct shl_rank *r, struct shl_req *q)
{
	struct part *p = q->ext;
	struct chan *ch = p->ch;

	(void)r;
	if (ch != NULL) {
		pthread_mutex_lock(&chans.lock);
		if (!atomic_load(&ch->has_send) || !atomic_load(&ch->has_recv)) {
			/* Still waiting for its other side: out of the table. */
			for (struct chan **link = &chans.head; *link != NULL; link = &(*link)->next) {
				if (*link == ch) {
					*link = ch->next;
					if (chans.tail == &ch->next)
						chans.tail = link;
					break;
				}
			}
		}
		pthread_mutex_unlock(&chans.lock);
		chan_drop(ch);
	}
	free(p);
}

/* ---- initialization ---- */

/* Attach the calling side (`send`) of a channel (context, src, dst, tag) to the oldest
 * channel waiting for it, or to a new one left waiting. Fills the side's fields with
 * `fill(ch, arg)` before publishing it. Returns the channel, or NULL (no memory; *err
 * -ENOMEM) or a matched channel whose other side disagrees (*err -EINVAL, *other its
 * bytes). */
struct side {
	const void *buf;
	struct shl_datatype *type;
	int parts;
	size_t pbytes;
	struct shl_req *req;
};

static int attach(struct chan **out, bool send, uint32_t context, int src, int dst, int tag,
		  const struct side *s, size_t *other)
{
	struct chan *ch = NULL;
	_Atomic uint64_t *ready = NULL, *claimed = NULL;
	_Atomic size_t *arrived = NULL;
	size_t n = s->parts > 0 ? (size_t)s->parts : 1;

	if (send) {
		ready = calloc(n, sizeof(*ready));
		claimed = calloc(n, sizeof(*claimed));
	} else {
		arrived = calloc(n, sizeof(*arrived));
	}
	if ((send && (ready == NULL || claimed == NULL)) || (!send && arrived == NULL))
		goto nomem;
	pthread_mutex_lock(&chans.lock);
	for (struct chan **link = &chans.head; *link != NULL; link = &(*link)->next) {
		struct chan *c = *link;
		if (c->context != context || c->src != src || c->dst != dst || c->tag != tag ||
		    atomic_load_explicit(send ? &c->has_send : &c->has_recv, memory_order_relaxed))
			continue;
		size_t theirs = send ? (size_t)c->rparts * c->rbytes : (size_t)c->sparts * c->sbytes;
		if (theirs != (size_t)s->parts * s->pbytes) {
			pthread_mutex_unlock(&chans.lock);
			*other = theirs;
			free((void *)ready);
			free((void *)claimed);
			free((void *)arrived);
			return -EINVAL;
		}
		*link = c->next;
		if (chans.tail == &c->next)
			chans.tail = link;
		ch = c;
		break;
	}
	if (ch == NULL) {
		ch = calloc(1, sizeof(*ch));
		if (ch == NULL) {
			pthread_mutex_unlock(&chans.lock);
			goto nomem;
		}
		ch->context = context;
		ch->src = src;
		ch->dst = dst;
		ch->tag = tag;
		*chans.tail = ch;
		chans.tail = &ch->next;
		ch->next = NULL;
	}
	if (send) {
		ch->sbuf = s->buf;
		ch->stype = s->type;
		ch->sparts = s->parts;
		ch->sbytes = s->pbytes;
		ch->sreq = s->req;
		ch->ready = ready;
		ch->claimed = claimed;
	} else {
		ch->rbuf = (char *)s->buf;
		ch->rtype = s->type;
		ch->rparts = s->parts;
		ch->rbytes = s->pbytes;
		ch->rreq = s->req;
		ch->arrived = arrived;
	}
	atomic_fetch_add(&ch->refs, 1);
	atomic_store(send ? &ch->has_send : &ch->has_recv, true);  /* seq_cst: see part_start */
	pthread_mutex_unlock(&chans.lock);
	*out = ch;
	return 0;
nomem:
	free((void *)ready);
	free((void *)claimed);
	free((void *)arrived);
	return -ENOMEM;
}

static int init(const char *fn, bool send, const void *buf, int partitions, MPI_Count count,
		MPI_Datatype datatype, int peer, int tag, MPI_Comm comm, MPI_Info info,
		MPI_Request *request)
{
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_comm *c;
	struct part *p;
	struct shl_req *q;
	MPI_Count total;
	size_t other = 0;
	int err = shl_check_comm(fn, r, comm, &c), rc = 0;

	(void)info;  /* no hints are understood; any info, MPI_INFO_NULL included, is fine */
	if (err != MPI_SUCCESS)
		return err;
	if (partitions < 0)
		return shl_err(c, MPI_ERR_ARG, fn, "partitions %d is negative", partitions);
	if (count < 0)
		return shl_err(c, MPI_ERR_COUNT, fn, "count %lld is negative", (long long)count);
	if (partitions > 0 && count > PTRDIFF_MAX / partitions)
		return shl_err(c, MPI_ERR_COUNT, fn, "partitions %d x count %lld is too large",
			       partitions, (long long)count);
	total = (MPI_Count)partitions * count;
	if (send) {
		err = check_send(fn, "", r, comm, &c, buf, total, datatype, peer, tag);
	} else {
		err = check_recv(fn, "", r, comm, &c, (void *)buf, total, datatype, peer, tag);
		if (err == MPI_SUCCESS && peer == MPI_ANY_SOURCE)
			err = shl_err(c, MPI_ERR_RANK, fn, "source MPI_ANY_SOURCE is not allowed in "
				      "a partitioned receive (MPI 4.1, 4.2.2)");
		if (err == MPI_SUCCESS && tag == MPI_ANY_TAG)
			err = shl_err(c, MPI_ERR_TAG, fn, "tag MPI_ANY_TAG is not allowed in a "
				      "partitioned receive (MPI 4.1, 4.2.2)");
	}
	if (err == MPI_SUCCESS && request == NULL)
		err = shl_err(c, MPI_ERR_REQUEST, fn, "request is NULL");
	if (err != MPI_SUCCESS)
		return err;
	int world = peer == MPI_PROC_NULL ? -1 : shl_comm_remote_world(c, peer);
	if (world >= 0 && shl_job.ranks[world] == NULL)
		return shl_err(c, MPI_ERR_UNSUPPORTED_OPERATION, fn, "%s %d is a rank of another "
			       "node: partitioned communication works between ranks of one node",
			       send ? "dest" : "source", peer);
	p = malloc(sizeof(*p));
	if (p == NULL)
		return shl_err(c, MPI_ERR_NO_MEM, fn, "out of memory");
	*p = (struct part){ NULL, send, partitions, (size_t)count * datatype->size, 0 };
	shl_rank_lock(r);
	q = shl_req_new(r, send ? SHL_REQ_PSEND : SHL_REQ_PRECV);
	shl_rank_unlock(r);
	if (q == NULL) {
		free(p);
		return shl_err(c, MPI_ERR_NO_MEM, fn, "out of memory");
	}
	shl_p2p_fill(q, c, buf, total, datatype, peer, tag, SHL_MODE_STANDARD);
	/* What MPI_Wait reports of a receive: the whole message from `source` (the sender's
	 * count is the same; MPI 4.1, 4.2.2). */
	if (!send)
		q->status = (MPI_Status){ .MPI_SOURCE = peer, .MPI_TAG = tag,
					  .shl_bytes = total * (MPI_Count)datatype->size };
	if (peer == MPI_PROC_NULL)
		shl_status_empty(&q->status, MPI_PROC_NULL);
	if (world >= 0) {
		struct side s = { buf, datatype, partitions, p->pbytes, q };
		int me = r->world_rank;
		rc = attach(&p->ch, send, c->context, send ? me : world, send ? world : me, tag, &s,
			    &other);
	}
	if (rc != 0) {
		free(p);
		q->type = NULL;  /* not held yet */
		shl_rank_lock(r);
		shl_req_release(r, q);
		shl_rank_unlock(r);
		if (rc == -ENOMEM)
			return shl_err(c, MPI_ERR_NO_MEM, fn, "out of memory");
		return shl_err(c, MPI_ERR_TRUNCATE, fn, "the matching partitioned %s of rank %d "
			       "with tag %d has %zu bytes, this one %lld (%d partitions of %lld x %s)",
			       send ? "receive" : "send", peer, tag, other,
			       (long long)(total * (MPI_Count)datatype->size), partitions,
			       (long long)count, datatype->name ? datatype->name : "datatype");
	}
	shl_dt_hold(datatype);  /* released with the request (shl_req_release) */
	q->comm = shl_comm_hold(c);
	q->holds_comm = true;
	q->persistent = true;
	q->active = false;
	q->ext = p;
	*request = q;
	return MPI_SUCCESS;
}

int PMPI_Psend_init(const void *buf, int partitions, MPI_Count count, MPI_Datatype datatype,
		    int dest, int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	return init("MPI_Psend_init", true, buf, partitions, count, datatype, dest, tag, comm,
		    info, request);
}
SHL_WEAK_ALIAS(Psend_init);

int PMPI_Precv_init(void *buf, int partitions, MPI_Count count, MPI_Datatype datatype,
		    int source, int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	return init("MPI_Precv_init", false, buf, partitions, count, datatype, source, tag, comm,
		    info, request);
}
SHL_WEAK_ALIAS(Precv_init);

/* ---- readying and arrival ---- */

/* The partitioned request `request` of kind `kind` of the calling rank, active; or the
 * error raised. */
static int check_part(const char *fn, struct shl_rank *r, MPI_Request request,
		      enum shl_req_kind kind, struct part **p)
{
	struct shl_req *q = request;

	if (q == MPI_REQUEST_NULL || !shl_handle_in_arena(q, sizeof(*q)) ||
	    q->magic != SHL_REQ_MAGIC || q->owner != r)
		return shl_err(NULL, MPI_ERR_REQUEST, fn, "request is not a valid request of this "
			       "rank (freed already?)");
	if (q->kind != kind)
		return shl_err(q->comm, MPI_ERR_REQUEST, fn, "request is not a partitioned %s "
			       "(MPI_%s_init)", kind == SHL_REQ_PSEND ? "send" : "receive",
			       kind == SHL_REQ_PSEND ? "Psend" : "Precv");
	*p = q->ext;
	return MPI_SUCCESS;
}

/* Ready partition `i` of active send `q` (checked). */
static int ready_one(const char *fn, struct shl_req *q, struct part *p, int i)
{
	struct chan *ch = p->ch;
	uint64_t e = p->epoch;

	if (i < 0 || i >= p->parts)
		return shl_err(q->comm, MPI_ERR_ARG, fn, "partition %d is outside 0..%d (the "
			       "request's partitions)", i, p->parts - 1);
	if (ch == NULL)
		return MPI_SUCCESS;  /* MPI_PROC_NULL */
	/* seq_cst, against the receiver's store of recv_epoch and load of `ready`
	 * (shl_p2p_part_start): one of us sees the other. */
	if (atomic_exchange(&ch->ready[i], e) == e)
		return shl_err(q->comm, MPI_ERR_OTHER, fn, "partition %d was readied already in "
			       "this epoch (since the last MPI_Start)", i);
	if (atomic_load(&ch->recv_epoch) >= e)
		try_copy(ch, i, e);
	return MPI_SUCCESS;
}

/* The checks every Pready call makes. */
static int ready_args(const char *fn, MPI_Request request, struct part **p)
{
	struct shl_rank *r = shl_rank_or_die(fn);
	int err = check_part(fn, r, request, SHL_REQ_PSEND, p);

	if (err == MPI_SUCCESS && !request->active)
		err = shl_err(request->comm, MPI_ERR_REQUEST, fn, "request is not active (MPI_Start "
			      "it before readying partitions)");
	return err;
}

int PMPI_Pready(int partition, MPI_Request request)
{
	struct part *p;
	int err = ready_args("MPI_Pready", request, &p);

	if (err != MPI_SUCCESS)
		return err;
	return ready_one("MPI_Pready", request, p, partition);
}
SHL_WEAK_ALIAS(Pready);

int PMPI_Pready_range(int partition_low, int partition_high, MPI_Request request)
{
	struct part *p;
	int err = ready_args("MPI_Pready_range", request, &p);

	if (err != MPI_SUCCESS)
		return err;
	if (partition_low < 0 || partition_high >= p->parts || partition_low > partition_high)
		return shl_err(request->comm, MPI_ERR_ARG, "MPI_Pready_range", "partitions %d..%d "
			       "are not a range within 0..%d (the request's partitions)",
			       partition_low, partition_high, p->parts - 1);
	for (int i = partition_low; i <= partition_high && err == MPI_SUCCESS; i++)
		err = ready_one("MPI_Pready_range", request, p, i);
	return err;
}
SHL_WEAK_ALIAS(Pready_range);

int PMPI_Pready_list(int length, const int array_of_partitions[], MPI_Request request)
{
	struct part *p;
	int err = ready_args("MPI_Pready_list", request, &p);

	if (err != MPI_SUCCESS)
		return err;
	if (length < 0)
		return shl_err(request->comm, MPI_ERR_ARG, "MPI_Pready_list", "length %d is negative",
			       length);
	if (length > 0 && array_of_partitions == NULL)
		return shl_err(request->comm, MPI_ERR_ARG, "MPI_Pready_list",
			       "array_of_partitions is NULL");
	for (int k = 0; k < length; k++)
		if (array_of_partitions[k] < 0 || array_of_partitions[k] >= p->parts)
			return shl_err(request->comm, MPI_ERR_ARG, "MPI_Pready_list",
				       "array_of_partitions[%d] = %d is outside 0..%d (the request's "
				       "partitions)", k, array_of_partitions[k], p->parts - 1);
	for (int k = 0; k < length && err == MPI_SUCCESS; k++)
		err = ready_one("MPI_Pready_list", request, p, array_of_partitions[k]);
	return err;
}
SHL_WEAK_ALIAS(Pready_list);

int PMPI_Parrived(MPI_Request request, int partition, int *flag)
{
	struct shl_rank *r = shl_rank_or_die("MPI_Parrived");
	struct part *p;
	struct chan *ch;
	int err;

	if (request != MPI_REQUEST_NULL && shl_handle_in_arena(request, sizeof(*request)) &&
	    request->magic == SHL_REQ_MAGIC && request->owner == r &&
	    request->kind == SHL_REQ_PSEND)
		return shl_err(request->comm, MPI_ERR_REQUEST, "MPI_Parrived", "request is a "
			       "partitioned send's: MPI_Parrived takes a partitioned receive");
	err = check_part("MPI_Parrived", r, request, SHL_REQ_PRECV, &p);
	if (err != MPI_SUCCESS)
		return err;
	if (flag == NULL)
		return shl_err(request->comm, MPI_ERR_ARG, "MPI_Parrived", "flag is NULL");
	if (partition < 0 || partition >= p->parts)
		return shl_err(request->comm, MPI_ERR_ARG, "MPI_Parrived", "partition %d is outside "
			       "0..%d (the request's partitions)", partition, p->parts - 1);
	ch = p->ch;
	/* An inactive request's partitions all arrived in its last epoch (or it has none). */
	if (!request->active || ch == NULL || shl_req_done(request)) {
		*flag = 1;
		return MPI_SUCCESS;
	}
	/* Acquire: pairs with the copier's release add (try_copy). */
	*flag = atomic_load_explicit(&ch->arrived[partition], memory_order_acquire) == ch->rbytes &&
		ch->rbytes > 0;
	if (!*flag)
		shl_poll_missed();
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Parrived);
