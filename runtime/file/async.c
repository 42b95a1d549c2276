/* Nonblocking file access (MPI 4.1, 14.4.2-14.4.4): the file request, the node's I/O
 * workers, and MPI_File_iread_at, iwrite_at, iread, iwrite.
 *
 * A file request is a request of kind SHL_REQ_FILE whose `ext` is a struct shl_file_op,
 * the record of its operation. Whoever does the operation completes the request with
 * shl_file_req_done: one of the node's I/O workers for an independent access, a rank's
 * collective I/O thread for a nonblocking collective (collective.c). Core's Wait/Test
 * family, MPI_Request_get_status, MPI_Request_free and MPI_Cancel handle it through the
 * hooks of core/hooks.h; an error it completed with is raised on its file's handler, with
 * the reason the operation gave, by the call that completes it (MPI 4.1, 14.7: errors of
 * nonblocking I/O are reported at completion).
 *
 * The I/O workers are a small pool of threads of the node process ("shoal file"), started
 * on first use and ending with the node. They belong to no rank: a rank's thread creates
 * them with its binding cleared, so they are not counted among the rank's threads
 * (core/threads.c). Each takes the oldest queued operation, runs it through the engine
 * (shl_file_rw) with the view as it was at the call (a copy whose types are held), and
 * completes the request, which wakes its rank if it sleeps: the operation progresses
 * while the rank computes or sleeps outside MPI.
 *
 * Entered by rank threads (the calls, the hooks), by the I/O workers and by a rank's
 * collective I/O thread (shl_file_req_done). */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runtime/file/file.h"

/* The I/O workers started at most (SHOAL_FILE_WORKERS): operations that wait on a disk
 * overlap, and a few threads cover the ranks' queue depths without taking the cores the
 * ranks compute on. */
#define SHL_FILE_WORKERS 4

enum op_state { OP_OWN, OP_QUEUED, OP_RUNNING, OP_DONE };

/* One nonblocking operation: a file request's `ext`. Its owner rank creates and releases
 * it; the thread doing the operation writes `why` and the request's status before it
 * completes the request. */
struct shl_file_op {
	struct shl_file *f;
	struct shl_req *q;
	const char *fn;               /* the call that started it */
	enum op_state state;          /* worker operations: under pool.lock */
	/* An operation for the I/O workers (state past OP_OWN). */
	enum shl_file_dir dir;
	MPI_Offset pos;               /* stream position, bytes */
	void *buf;
	MPI_Count count;
	struct shl_datatype *type;    /* held */
	struct shl_file_view view;    /* the view at the call: types held, runs copied */
	bool has_view;
	struct shl_file_op *next;     /* the queue, or the list of failed operations */
	char why[256];                /* why it failed */
};

/* The most workers SHOAL_FILE_WORKERS may ask for. */
#define SHL_FILE_WORKERS_MAX 64

/* How often an idle worker tells the deadlock watchdog that the ranks waiting for running
 * operations are not stuck (bumping their wake count, which the watchdog reads as a
 * change), in seconds: well below its SHOAL_DEADLOCK_S, so that a long write of a
 * checkpoint, which leaves every rank asleep in MPI_Wait, is not taken for a deadlock. */
#define SHL_FILE_HEARTBEAT_S 1

/* The node's workers and their queue; failed operations whose requests were released,
 * kept until their file closes (their raise reads `why` after the release). */
static struct {
	pthread_mutex_t lock;
	pthread_cond_t work;
	struct shl_file_op *head, **tail;
	int workers, idle, max;
	struct shl_rank *serving[SHL_FILE_WORKERS_MAX];  /* by worker: whose operation it runs */
	struct shl_file_op *failed;
} pool = { .lock = PTHREAD_MUTEX_INITIALIZER, .work = PTHREAD_COND_INITIALIZER,
	   .tail = &pool.head };

/* ---- the file request ---- */

struct shl_req *shl_file_req_new(struct shl_file *f)
{
	struct shl_rank *r = shl_self;
	struct shl_file_op *o = calloc(1, sizeof(*o));
	struct shl_req *q = NULL;

	if (o == NULL)
		return NULL;
	shl_rank_lock(r);
	q = shl_req_new(r, SHL_REQ_FILE);
	if (q != NULL) {
		q->ext = o;
		q->comm = f->c;
	}
	shl_rank_unlock(r);
	if (q == NULL) {
		free(o);
		return NULL;
	}
	o->f = f;
	o->q = q;
	o->state = OP_OWN;
	atomic_fetch_add_explicit(&f->pending, 1, memory_order_relaxed);
	return q;
}

/* shl_file_req_done, or a cancellation's completion (`cancelled`). */
static void complete(struct shl_req *q, MPI_Offset result, int errclass, const char *msg,
		     bool cancelled)
{
	struct shl_file_op *o = q->ext;
	struct shl_file *f = o->f;
	struct shl_rank *owner = q->owner;

	shl_status_empty(&q->status, MPI_ANY_SOURCE);
	if (errclass != MPI_SUCCESS) {
		snprintf(o->why, sizeof(o->why), "%s", msg ? msg : "the operation failed");
	} else {
		shl_file_status(&q->status, result);
	}
	q->status.MPI_ERROR = errclass;
	q->status.shl_cancelled = cancelled;
	/* From here the owner may release `q` and `o`; then close `f` once pending is 0. */
	shl_req_complete(q);
	atomic_fetch_sub(&f->pending, 1);  /* seq_cst RMW: see shl_rank_wake */
	shl_rank_wake(owner);
}

void shl_file_req_done(struct shl_req *q, MPI_Offset result, int errclass, const char *msg)
{
	complete(q, result, errclass, msg, false);
}

/* Owner: what `o` holds besides itself. */
static void op_clear(struct shl_file_op *o)
{
	if (o->has_view)
		shl_file_view_clear(&o->view);
	o->has_view = false;
	shl_dt_release(o->type);
	o->type = NULL;
}

void shl_file_req_abandon(struct shl_req *q)
{
	struct shl_rank *r = shl_self;
	struct shl_file_op *o = q->ext;

	atomic_fetch_sub(&o->f->pending, 1);
	atomic_store_explicit(&q->done, 1, memory_order_relaxed);
	shl_rank_lock(r);
	shl_req_release(r, q);  /* shl_file_req_drop frees `o` */
	shl_rank_unlock(r);
}

void shl_file_req_drop(struct shl_rank *r, struct shl_req *q)
{
	struct shl_file_op *o = q->ext;

	(void)r;
	op_clear(o);
	if (q->status.MPI_ERROR == MPI_SUCCESS) {
		free(o);
		return;
	}
	/* The completing call raises the error after the release: `why` stays readable. */
	pthread_mutex_lock(&pool.lock);
	o->next = pool.failed;
	pool.failed = o;
	pthread_mutex_unlock(&pool.lock);
}

int shl_file_req_raise(const char *fn, void *op, int index, const MPI_Status *st)
{
	struct shl_file_op *o = op;
	char name[MPI_MAX_ERROR_STRING];
	int len;

	const char *by = o->fn != NULL ? o->fn : "a nonblocking collective";

	if (index < 0)
		return shl_file_err(o->f, st->MPI_ERROR, fn, "%s (started by %s)", o->why, by);
	PMPI_Error_string(st->MPI_ERROR, name, &len);
	name[strcspn(name, ":")] = '\0';
	return shl_file_err(o->f, MPI_ERR_IN_STATUS, fn, "array_of_requests[%d] (%s) failed "
			    "with %s: %s", index, by, name, o->why);
}

void shl_file_req_cancel(struct shl_rank *r, struct shl_req *q)
{
	struct shl_file_op *o = q->ext;
	bool took = false;

	(void)r;
	if (shl_req_done(q))
		return;
	pthread_mutex_lock(&pool.lock);
	if (o->state == OP_QUEUED) {
		/* No worker has it: out of the queue, complete as cancelled. */
		struct shl_file_op **link = &pool.head;
		while (*link != o)
			link = &(*link)->next;
		*link = o->next;
		if (pool.tail == &o->next)
			pool.tail = link;
		o->state = OP_DONE;
		took = true;
	}
	pthread_mutex_unlock(&pool.lock);
	if (!took)
		return;  /* started (or not a worker's): it completes as it would have */
	complete(q, 0, MPI_SUCCESS, NULL, true);
}

/* ---- the I/O workers ---- */

static void run(struct shl_file_op *o)
{
	MPI_Offset n = shl_file_rw(o->f, &o->view, o->dir, o->pos, o->buf, o->count, o->type);
	char why[224];

	if (n >= 0) {
		shl_file_req_done(o->q, n, MPI_SUCCESS, NULL);
		return;
	}
	snprintf(why, sizeof(why), "%s of %lld bytes at stream position %lld failed: %s",
		 o->dir == SHL_FILE_READ ? "read" : "write",
		 (long long)o->count * (long long)o->type->size, (long long)o->pos,
		 strerror((int)-n));
	shl_file_req_done(o->q, 0, shl_file_errno_class((int)-n), why);
}

/* pool.lock held, by an idle worker: the ranks whose operations run have not stalled. */
static void heartbeat(void)
{
	for (int i = 0; i < pool.workers; i++)
		if (pool.serving[i] != NULL)
			atomic_fetch_add(&pool.serving[i]->wake_seq, 1);
}

static void *worker(void *arg)
{
	int me = (int)(intptr_t)arg;

	pthread_setname_np(pthread_self(), "shoal file");
	/* A rank's thread is bound to its core by default: the workers use every CPU the
	 * node may use. */
	if (shl_job.free_threads)
		sched_setaffinity(0, sizeof(shl_job.cpus), &shl_job.cpus);
	pthread_mutex_lock(&pool.lock);
	for (;;) {
		struct shl_file_op *o;

		while (pool.head == NULL) {
			struct timespec until;
			clock_gettime(CLOCK_REALTIME, &until);
			until.tv_sec += SHL_FILE_HEARTBEAT_S;
			pool.idle++;
			if (pthread_cond_timedwait(&pool.work, &pool.lock, &until) == ETIMEDOUT)
				heartbeat();
			pool.idle--;
		}
		o = pool.head;
		pool.head = o->next;
		if (pool.head == NULL)
			pool.tail = &pool.head;
		o->state = OP_RUNNING;
		pool.serving[me] = o->q->owner;
		pthread_mutex_unlock(&pool.lock);
		run(o);  /* `o` may be gone once this returns */
		pthread_mutex_lock(&pool.lock);
		pool.serving[me] = NULL;
	}
	return arg;
}

/* pool.lock held: one more worker, created with the calling rank's binding cleared so that
 * it belongs to the node, not to the rank (core/threads.c). Returns 0 or an errno. */
static int start_worker(void)
{
	struct shl_rank *self = shl_self;
	pthread_t t;
	int err;

	shl_self = NULL;
	err = pthread_create(&t, NULL, worker, (void *)(intptr_t)pool.workers);
	shl_self = self;
	if (err != 0)
		return err;
	pthread_detach(t);
	pool.workers++;
	return 0;
}

/* Owner thread: queue `o` for the workers, starting one if none is idle and the pool has
 * room. Returns 0 or an errno (no worker could start: `o` is not queued). */
static int enqueue(struct shl_file_op *o)
{
	int err = 0;

	pthread_mutex_lock(&pool.lock);
	if (pool.max == 0)
		pool.max = (int)shl_env_size("SHOAL_FILE_WORKERS", SHL_FILE_WORKERS,
					     SHL_FILE_WORKERS_MAX);
	if (pool.max < 1)
		pool.max = 1;
	if (pool.idle == 0 && pool.workers < pool.max) {
		err = start_worker();
		if (err != 0 && pool.workers > 0)
			err = 0;  /* the running ones take it */
	}
	if (err == 0) {
		o->state = OP_QUEUED;
		o->next = NULL;
		*pool.tail = o;
		pool.tail = &o->next;
		pthread_cond_signal(&pool.work);
	}
	pthread_mutex_unlock(&pool.lock);
	return err;
}

/* A copy of view `v` that stays valid whatever set_view does to the file's: types held,
 * runs copied. Returns false (nothing held) when memory is short. */
static bool view_copy(struct shl_file_view *dst, const struct shl_file_view *v)
{
	*dst = *v;
	dst->runs = NULL;
	dst->before = NULL;
	if (v->nruns > 0) {
		dst->runs = malloc(v->nruns * sizeof(*v->runs));
		dst->before = malloc((v->nruns + 1) * sizeof(*v->before));
		if (dst->runs == NULL || dst->before == NULL) {
			free(dst->runs);
			free(dst->before);
			return false;
		}
		memcpy(dst->runs, v->runs, v->nruns * sizeof(*v->runs));
		memcpy(dst->before, v->before, (v->nruns + 1) * sizeof(*v->before));
	}
	shl_dt_hold(dst->etype);
	shl_dt_hold(dst->filetype);
	return true;
}

int shl_file_istart(const char *fn, struct shl_file *f, enum shl_file_dir dir, MPI_Offset pos,
		    void *buf, MPI_Count count, struct shl_datatype *type, MPI_Request *request)
{
	struct shl_req *q = shl_file_req_new(f);
	struct shl_file_op *o;
	int err;

	if (q == NULL)
		return shl_file_err(f, MPI_ERR_NO_MEM, fn, "out of memory");
	o = q->ext;
	o->fn = fn;
	o->dir = dir;
	o->pos = pos;
	o->buf = buf;
	o->count = count;
	shl_dt_hold(type);
	o->type = type;
	if (!view_copy(&o->view, &f->view)) {
		shl_file_req_abandon(q);
		return shl_file_err(f, MPI_ERR_NO_MEM, fn, "out of memory");
	}
	o->has_view = true;
	err = enqueue(o);
	if (err != 0) {
		shl_file_req_abandon(q);
		return shl_file_err(f, MPI_ERR_OTHER, fn, "no I/O worker thread could start: %s",
				    strerror(err));
	}
	*request = q;
	return MPI_SUCCESS;
}

static bool none_pending(void *arg)
{
	return atomic_load_explicit(&((struct shl_file *)arg)->pending, memory_order_acquire) == 0;
}

void shl_file_async_close(struct shl_file *f)
{
	struct shl_rank *r = shl_self;
	struct shl_file_op *mine = NULL, **link;

	shl_rank_lock(r);
	if (!none_pending(f))
		shl_wait(r, none_pending, f);
	shl_req_reap(r);  /* requests of `f` the user freed: released now */
	shl_rank_unlock(r);
	pthread_mutex_lock(&pool.lock);
	link = &pool.failed;
	while (*link != NULL) {
		struct shl_file_op *o = *link;
		if (o->f == f) {
			*link = o->next;
			o->next = mine;
			mine = o;
		} else {
			link = &o->next;
		}
	}
	pthread_mutex_unlock(&pool.lock);
	while (mine != NULL) {
		struct shl_file_op *next = mine->next;
		free(mine);
		mine = next;
	}
}

/* ---- argument checks and the calls ---- */

MPI_Offset shl_file_etypes(const struct shl_file *f, MPI_Count count,
			   const struct shl_datatype *type)
{
	size_t esize = f->view.etype != NULL ? f->view.etype->size : 1;

	return esize > 0 ? (MPI_Offset)((size_t)count * type->size / esize) : 0;
}

int shl_file_check_io(const char *fn, struct shl_file *f, enum shl_file_dir dir,
		      enum shl_file_via via, const void *buf, MPI_Count count, MPI_Datatype type)
{
	if (via != SHL_FILE_SHARED && (f->amode & MPI_MODE_SEQUENTIAL))
		return shl_file_err(f, MPI_ERR_UNSUPPORTED_OPERATION, fn, "the file was opened "
				    "with MPI_MODE_SEQUENTIAL: only the shared file pointer may "
				    "access it");
	return shl_file_check_buf(f, fn, dir, buf, count, type);
}

int shl_file_check_access(const char *fn, MPI_File fh, struct shl_file **f,
			  enum shl_file_dir dir, bool at, MPI_Offset offset, const void *buf,
			  MPI_Count count, MPI_Datatype type)
{
	int err;

	shl_rank_or_die(fn);
	err = shl_file_check(fn, fh, f);
	if (err == MPI_SUCCESS)
		err = shl_file_check_io(fn, *f, dir, at ? SHL_FILE_AT : SHL_FILE_INDIVIDUAL, buf,
					count, type);
	if (err == MPI_SUCCESS && at && offset < 0)
		err = shl_file_err(*f, MPI_ERR_ARG, fn, "offset %lld is negative",
				   (long long)offset);
	return err;
}

/* MPI_File_iread_at and its kin: `offset` in etypes (explicit), or -1: the individual file
 * pointer, which moves now by what the call asks for (MPI 4.1, 14.4.3). */
static int istart_call(const char *fn, MPI_File fh, MPI_Offset offset, bool at, void *buf,
		       MPI_Count count, MPI_Datatype type, MPI_Request *request,
		       enum shl_file_dir dir)
{
	struct shl_file *f;
	int err;

	err = shl_file_check_access(fn, fh, &f, dir, at, offset, buf, count, type);
	if (err != MPI_SUCCESS)
		return err;
	if (request == NULL)
		return shl_file_err(f, MPI_ERR_REQUEST, fn, "request is NULL");
	if (!at) {
		offset = f->fp;
		f->fp += shl_file_etypes(f, count, type);
	}
	err = shl_file_istart(fn, f, dir, offset * (MPI_Offset)f->view.esize, buf, count, type,
			      request);
	if (err != MPI_SUCCESS && !at)
		f->fp = offset;
	return err;
}

int PMPI_File_iread_at(MPI_File fh, MPI_Offset offset, void *buf, int count,
		       MPI_Datatype datatype, MPI_Request *request)
{
	return istart_call("MPI_File_iread_at", fh, offset, true, buf, count, datatype, request,
			   SHL_FILE_READ);
}
SHL_WEAK_ALIAS(File_iread_at);

int PMPI_File_iread_at_c(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count,
			 MPI_Datatype datatype, MPI_Request *request)
{
	return istart_call("MPI_File_iread_at_c", fh, offset, true, buf, count, datatype,
			   request, SHL_FILE_READ);
}
SHL_WEAK_ALIAS(File_iread_at_c);

int PMPI_File_iwrite_at(MPI_File fh, MPI_Offset offset, const void *buf, int count,
			MPI_Datatype datatype, MPI_Request *request)
{
	return istart_call("MPI_File_iwrite_at", fh, offset, true, (void *)buf, count, datatype,
			   request, SHL_FILE_WRITE);
}
SHL_WEAK_ALIAS(File_iwrite_at);

int PMPI_File_iwrite_at_c(MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count,
			  MPI_Datatype datatype, MPI_Request *request)
{
	return istart_call("MPI_File_iwrite_at_c", fh, offset, true, (void *)buf, count,
			   datatype, request, SHL_FILE_WRITE);
}
SHL_WEAK_ALIAS(File_iwrite_at_c);

int PMPI_File_iread(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
		    MPI_Request *request)
{
	return istart_call("MPI_File_iread", fh, 0, false, buf, count, datatype, request,
			   SHL_FILE_READ);
}
SHL_WEAK_ALIAS(File_iread);

int PMPI_File_iread_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype,
		      MPI_Request *request)
{
	return istart_call("MPI_File_iread_c", fh, 0, false, buf, count, datatype, request,
			   SHL_FILE_READ);
}
SHL_WEAK_ALIAS(File_iread_c);

int PMPI_File_iwrite(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
		     MPI_Request *request)
{
	return istart_call("MPI_File_iwrite", fh, 0, false, (void *)buf, count, datatype,
			   request, SHL_FILE_WRITE);
}
SHL_WEAK_ALIAS(File_iwrite);

int PMPI_File_iwrite_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype,
		       MPI_Request *request)
{
	return istart_call("MPI_File_iwrite_c", fh, 0, false, (void *)buf, count, datatype,
			   request, SHL_FILE_WRITE);
}
SHL_WEAK_ALIAS(File_iwrite_c);
