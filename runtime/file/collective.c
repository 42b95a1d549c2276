/* Collective file access (MPI 4.1, 14.4): MPI_File_read_all, write_all, read_at_all,
 * write_at_all, their split collectives (_begin/_end) and nonblocking forms (iread_all, ...),
 * the file's collective state and its collective I/O thread. The data moves in
 * collective_rw.c (two-phase I/O).
 *
 * Split collectives run the whole collective at _begin and keep its status for _end (MPI
 * 4.1, 14.4.5 allows it). Nonblocking collectives run, in call order, on the rank's
 * collective I/O thread of the file: a thread of the rank (pthread_create from the rank's
 * thread, runtime/core/threads.c) made at the first one, which runs the blocking engine and
 * completes a generalized request; every member calls a file's collectives in one order, so
 * the threads of the members meet in each. Once the thread runs, a blocking collective of
 * the file is queued behind the nonblocking ones and waited for.
 *
 * Entered by rank threads (the MPI calls, shl_file_coll_close) and by the collective I/O
 * thread (`serve`). */

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include "runtime/core/check.h"
#include "runtime/file/collective.h"

/* Which _begin a split collective of this file began (f->split_kind). */
enum {
	SPLIT_READ_ALL = 0x43010001,
	SPLIT_WRITE_ALL,
	SPLIT_READ_AT_ALL,
	SPLIT_WRITE_AT_ALL,
};

/* One collective queued on the collective I/O thread. */
struct shl_file_coll_job {
	struct shl_file_coll_job *next;
	struct shl_file *f;
	const char *fn;
	enum shl_file_dir dir;
	MPI_Offset pos;
	void *buf;
	MPI_Count count;
	struct shl_datatype *type;   /* held */
	bool raise;                  /* nonblocking: the thread raises a failure on the file,
				      * the request frees the job; else the poster does both */
	int rc;                      /* shl_file_coll_rw's result */
	MPI_Offset moved;
	int errclass;                /* what the request reports */
	MPI_Request req;
};

struct shl_file_coll *shl_file_coll_state(struct shl_file *f)
{
	struct shl_file_coll *st = f->coll;

	if (st != NULL)
		return st;
	st = calloc(1, sizeof(*st));
	if (st == NULL)
		return NULL;
	pthread_mutex_init(&st->mu, NULL);
	pthread_cond_init(&st->cv, NULL);
	f->coll = st;
	return st;
}

/* The arguments of a collective access `fn`: the file, the access mode, the offset of the
 * explicit-offset forms (`offset` >= 0 where `at`), the buffer, count and datatype. Raises
 * on the file's handler (MPI_FILE_NULL's for a bad file). */
static int check_access(const char *fn, MPI_File fh, struct shl_file **fp, enum shl_file_dir dir,
			bool at, MPI_Offset offset, const void *buf, MPI_Count count,
			MPI_Datatype type)
{
	int err = shl_file_check(fn, fh, fp);
	struct shl_file *f = *fp;
	const char *why;

	if (err != MPI_SUCCESS)
		return err;
	if (f->amode & MPI_MODE_SEQUENTIAL)
		return shl_file_err(f, MPI_ERR_UNSUPPORTED_OPERATION, fn,
				    "a file opened with MPI_MODE_SEQUENTIAL has no %s",
				    at ? "explicit offsets" : "individual file pointer");
	if (dir == SHL_FILE_READ && (f->amode & MPI_MODE_WRONLY))
		return shl_file_err(f, MPI_ERR_ACCESS, fn,
				    "the file was opened MPI_MODE_WRONLY: it cannot be read");
	if (dir == SHL_FILE_WRITE && (f->amode & MPI_MODE_RDONLY))
		return shl_file_err(f, MPI_ERR_READ_ONLY, fn,
				    "the file was opened MPI_MODE_RDONLY: it cannot be written");
	if (at && offset < 0)
		return shl_file_err(f, MPI_ERR_ARG, fn, "offset %lld is negative", offset);
	if (count < 0)
		return shl_file_err(f, MPI_ERR_COUNT, fn, "count %lld is negative", (long long)count);
	if (!shl_type_ok(type))
		return shl_file_err(f, MPI_ERR_TYPE, fn, "datatype is not a valid datatype");
	if ((why = shl_dt_unusable(type)) != NULL)
		return shl_file_err(f, MPI_ERR_TYPE, fn, "datatype %s", why);
	if (shl_buf_missing(buf, count, type))
		return shl_file_err(f, MPI_ERR_BUFFER, fn, "buf is NULL but count is %lld",
				    (long long)count);
	return MPI_SUCCESS;
}

/* The stream position an access starts at: the explicit offset or the individual file
 * pointer, in etypes of the view. */
static MPI_Offset start_of(const struct shl_file *f, bool at, MPI_Offset offset)
{
	return (at ? offset : f->fp) * (MPI_Offset)f->view.esize;
}

/* Etypes of the view that `bytes` of the memory signature hold. */
static MPI_Offset etypes_of(const struct shl_file *f, MPI_Offset bytes)
{
	size_t es = f->view.etype->size;

	return es ? bytes / (MPI_Offset)es : 0;
}

/* shl_file_coll_rw's result `rc` for call `fn` on the file's handler: the class raised,
 * or MPI_SUCCESS. */
static int report(struct shl_file *f, const char *fn, enum shl_file_dir dir, int rc)
{
	if (rc < 0)
		return shl_file_errno(f, -rc, fn, "the collective %s failed on a member",
				      dir == SHL_FILE_READ ? "read" : "write");
	if (rc == MPI_ERR_CONVERSION)
		return shl_file_err(f, rc, fn, "a member's data does not convert to or from the "
				    "file's data representation");
	if (rc > 0)
		return shl_file_err(f, rc, fn, "a collective of the file's communicator failed");
	return MPI_SUCCESS;
}

/* The class of shl_file_coll_rw's result, not raised. */
static int class_of(int rc)
{
	return rc < 0 ? shl_file_errno_class(-rc) : rc;
}

/* ---- the collective I/O thread ---- */

static void *serve(void *arg)
{
	struct shl_file *f = arg;
	struct shl_file_coll *st = f->coll;

	for (;;) {
		struct shl_file_coll_job *j;

		pthread_mutex_lock(&st->mu);
		while (st->head == NULL && !st->stop)
			pthread_cond_wait(&st->cv, &st->mu);
		j = st->head;
		if (j == NULL) {
			pthread_mutex_unlock(&st->mu);
			return NULL;
		}
		pthread_mutex_unlock(&st->mu);
		j->rc = shl_file_coll_rw(f, j->dir, j->pos, j->buf, j->count, j->type, &j->moved);
		j->errclass = j->raise ? report(f, j->fn, j->dir, j->rc) : class_of(j->rc);
		shl_dt_release(j->type);
		j->type = NULL;
		pthread_mutex_lock(&st->mu);
		st->head = j->next;
		if (st->head == NULL)
			st->tail = NULL;
		pthread_mutex_unlock(&st->mu);
		atomic_fetch_sub_explicit(&f->pending, 1, memory_order_release);
		/* After this the job belongs to the request's owner (query and free). */
		PMPI_Grequest_complete(j->req);
	}
}

static int query_job(void *extra, MPI_Status *status)
{
	struct shl_file_coll_job *j = extra;

	shl_file_status(status, j->rc == 0 ? j->moved : 0);
	return j->raise ? j->errclass : MPI_SUCCESS;
}

static int free_job(void *extra)
{
	struct shl_file_coll_job *j = extra;

	if (j->raise)
		free(j);
	return MPI_SUCCESS;
}

static int cancel_job(void *extra, int complete)
{
	(void)extra;
	(void)complete;
	return MPI_SUCCESS;
}

/* Start the collective I/O thread of `f`. The rank becomes MPI_THREAD_MULTIPLE inside (its
 * own threads take its lock from now on): the thread calls MPI beside the rank's thread.
 * Called by the rank's thread between MPI calls' critical sections, so no rank lock is
 * held while the mode changes. Returns 0 or -errno. */
static int start_thread(struct shl_file *f, struct shl_file_coll *st)
{
	struct shl_rank *r = shl_self;
	int err;

	if (!r->mt)
		r->mt = true;
	err = pthread_create(&st->th, NULL, serve, f);
	if (err != 0)
		return -err;
	st->running = true;
	return 0;
}

/* Queue a collective on f's thread, started if need be; *req completes when it ran.
 * Returns MPI_SUCCESS or the class raised. */
static int post(struct shl_file *f, const char *fn, enum shl_file_dir dir, MPI_Offset pos,
		void *buf, MPI_Count count, MPI_Datatype type, bool raise, MPI_Request *req,
		struct shl_file_coll_job **job)
{
	struct shl_file_coll *st = shl_file_coll_state(f);
	struct shl_file_coll_job *j;
	int err;

	if (st == NULL || (j = calloc(1, sizeof(*j))) == NULL)
		return shl_file_err(f, MPI_ERR_NO_MEM, fn, "out of memory");
	if (!st->running && (err = start_thread(f, st)) < 0) {
		free(j);
		return shl_file_errno(f, -err, fn, "cannot start the file's collective I/O thread");
	}
	*j = (struct shl_file_coll_job){ .f = f, .fn = fn, .dir = dir, .pos = pos, .buf = buf,
					 .count = count, .type = type, .raise = raise };
	err = PMPI_Grequest_start(query_job, free_job, cancel_job, j, &j->req);
	if (err != MPI_SUCCESS) {
		free(j);
		return shl_file_err(f, err, fn, "cannot make the request");
	}
	*req = j->req;
	*job = j;
	shl_dt_hold(type);
	atomic_fetch_add_explicit(&f->pending, 1, memory_order_relaxed);
	pthread_mutex_lock(&st->mu);
	if (st->tail != NULL)
		st->tail->next = j;
	else
		st->head = j;
	st->tail = j;
	pthread_cond_signal(&st->cv);
	pthread_mutex_unlock(&st->mu);
	return MPI_SUCCESS;
}

void shl_file_coll_close(struct shl_file *f)
{
	struct shl_file_coll *st = f->coll;

	if (st == NULL)
		return;
	if (st->running) {
		pthread_mutex_lock(&st->mu);
		st->stop = true;
		pthread_cond_signal(&st->cv);
		pthread_mutex_unlock(&st->mu);
		pthread_join(st->th, NULL);
	}
	pthread_mutex_destroy(&st->mu);
	pthread_cond_destroy(&st->cv);
	free(st->cbuf);
	free(st->ents);
	free(st->iov);
	free(st);
	f->coll = NULL;
}

/* ---- blocking collectives ---- */

/* Run a checked collective access; the individual file pointer moves past what it moved.
 * Returns MPI_SUCCESS or the class raised; *moved (memory signature bytes). */
static int run(struct shl_file *f, const char *fn, enum shl_file_dir dir, bool at,
	       MPI_Offset offset, void *buf, MPI_Count count, MPI_Datatype type,
	       MPI_Offset *moved)
{
	MPI_Offset pos = start_of(f, at, offset);
	int rc;

	*moved = 0;
	if (f->coll != NULL && f->coll->running) {
		/* Behind the nonblocking collectives the thread has queued. */
		struct shl_file_coll_job *j;
		MPI_Request req;
		int err = post(f, fn, dir, pos, buf, count, type, false, &req, &j);
		if (err != MPI_SUCCESS)
			return err;
		PMPI_Wait(&req, MPI_STATUS_IGNORE);
		rc = j->rc;
		*moved = j->moved;
		free(j);
		if (rc != 0)
			return report(f, fn, dir, rc);
	} else {
		rc = shl_file_coll_rw(f, dir, pos, buf, count, type, moved);
		if (rc != 0)
			return report(f, fn, dir, rc);
	}
	if (!at)
		f->fp += etypes_of(f, *moved);
	return MPI_SUCCESS;
}

static int blocking(const char *fn, MPI_File fh, enum shl_file_dir dir, bool at,
		    MPI_Offset offset, void *buf, MPI_Count count, MPI_Datatype type,
		    MPI_Status *status)
{
	struct shl_file *f;
	MPI_Offset moved;
	int err = check_access(fn, fh, &f, dir, at, offset, buf, count, type);

	if (err == MPI_SUCCESS)
		err = run(f, fn, dir, at, offset, buf, count, type, &moved);
	if (err == MPI_SUCCESS)
		shl_file_status(status, moved);
	return err;
}

int PMPI_File_read_all(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
		       MPI_Status *status)
{
	return blocking("MPI_File_read_all", fh, SHL_FILE_READ, false, 0, buf, count, datatype,
			status);
}
SHL_WEAK_ALIAS(File_read_all);

int PMPI_File_read_all_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype,
			 MPI_Status *status)
{
	return blocking("MPI_File_read_all_c", fh, SHL_FILE_READ, false, 0, buf, count, datatype,
			status);
}
SHL_WEAK_ALIAS(File_read_all_c);

int PMPI_File_write_all(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
			MPI_Status *status)
{
	return blocking("MPI_File_write_all", fh, SHL_FILE_WRITE, false, 0, (void *)buf, count,
			datatype, status);
}
SHL_WEAK_ALIAS(File_write_all);

int PMPI_File_write_all_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype,
			  MPI_Status *status)
{
	return blocking("MPI_File_write_all_c", fh, SHL_FILE_WRITE, false, 0, (void *)buf, count,
			datatype, status);
}
SHL_WEAK_ALIAS(File_write_all_c);

int PMPI_File_read_at_all(MPI_File fh, MPI_Offset offset, void *buf, int count,
			  MPI_Datatype datatype, MPI_Status *status)
{
	return blocking("MPI_File_read_at_all", fh, SHL_FILE_READ, true, offset, buf, count,
			datatype, status);
}
SHL_WEAK_ALIAS(File_read_at_all);

int PMPI_File_read_at_all_c(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count,
			    MPI_Datatype datatype, MPI_Status *status)
{
	return blocking("MPI_File_read_at_all_c", fh, SHL_FILE_READ, true, offset, buf, count,
			datatype, status);
}
SHL_WEAK_ALIAS(File_read_at_all_c);

int PMPI_File_write_at_all(MPI_File fh, MPI_Offset offset, const void *buf, int count,
			   MPI_Datatype datatype, MPI_Status *status)
{
	return blocking("MPI_File_write_at_all", fh, SHL_FILE_WRITE, true, offset, (void *)buf,
			count, datatype, status);
}
SHL_WEAK_ALIAS(File_write_at_all);

int PMPI_File_write_at_all_c(MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count,
			     MPI_Datatype datatype, MPI_Status *status)
{
	return blocking("MPI_File_write_at_all_c", fh, SHL_FILE_WRITE, true, offset, (void *)buf,
			count, datatype, status);
}
SHL_WEAK_ALIAS(File_write_at_all_c);

/* ---- split collectives ---- */

static int begin(const char *fn, MPI_File fh, int kind, enum shl_file_dir dir, bool at,
		 MPI_Offset offset, void *buf, MPI_Count count, MPI_Datatype type)
{
	struct shl_file *f;
	MPI_Offset moved;
	int err = check_access(fn, fh, &f, dir, at, offset, buf, count, type);

	if (err != MPI_SUCCESS)
		return err;
	if (f->split)
		return shl_file_err(f, MPI_ERR_OTHER, fn,
				    "a split collective of this file is active: end it first "
				    "(one per file, MPI 4.1 14.4.5)");
	err = run(f, fn, dir, at, offset, buf, count, type, &moved);
	if (err != MPI_SUCCESS)
		return err;
	f->split = true;
	f->split_kind = kind;
	f->split_buf = buf;
	shl_file_status(&f->split_status, moved);
	return MPI_SUCCESS;
}

static int end(const char *fn, MPI_File fh, int kind, const void *buf, MPI_Status *status)
{
	struct shl_file *f;
	int err = shl_file_check(fn, fh, &f);

	if (err != MPI_SUCCESS)
		return err;
	if (!f->split || f->split_kind != kind)
		return shl_file_err(f, MPI_ERR_OTHER, fn, "no matching %s_begin is active on the file",
				    fn);
	if (buf != f->split_buf)
		return shl_file_err(f, MPI_ERR_BUFFER, fn,
				    "buf %p is not the buffer %p its _begin was given", buf,
				    f->split_buf);
	f->split = false;
	if (status != MPI_STATUS_IGNORE)
		*status = f->split_status;
	return MPI_SUCCESS;
}

int PMPI_File_read_all_begin(MPI_File fh, void *buf, int count, MPI_Datatype datatype)
{
	return begin("MPI_File_read_all_begin", fh, SPLIT_READ_ALL, SHL_FILE_READ, false, 0, buf,
		     count, datatype);
}
SHL_WEAK_ALIAS(File_read_all_begin);

int PMPI_File_read_all_begin_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype)
{
	return begin("MPI_File_read_all_begin_c", fh, SPLIT_READ_ALL, SHL_FILE_READ, false, 0,
		     buf, count, datatype);
}
SHL_WEAK_ALIAS(File_read_all_begin_c);

int PMPI_File_read_all_end(MPI_File fh, void *buf, MPI_Status *status)
{
	return end("MPI_File_read_all_end", fh, SPLIT_READ_ALL, buf, status);
}
SHL_WEAK_ALIAS(File_read_all_end);

int PMPI_File_write_all_begin(MPI_File fh, const void *buf, int count, MPI_Datatype datatype)
{
	return begin("MPI_File_write_all_begin", fh, SPLIT_WRITE_ALL, SHL_FILE_WRITE, false, 0,
		     (void *)buf, count, datatype);
}
SHL_WEAK_ALIAS(File_write_all_begin);

int PMPI_File_write_all_begin_c(MPI_File fh, const void *buf, MPI_Count count,
				MPI_Datatype datatype)
{
	return begin("MPI_File_write_all_begin_c", fh, SPLIT_WRITE_ALL, SHL_FILE_WRITE, false, 0,
		     (void *)buf, count, datatype);
}
SHL_WEAK_ALIAS(File_write_all_begin_c);

int PMPI_File_write_all_end(MPI_File fh, const void *buf, MPI_Status *status)
{
	return end("MPI_File_write_all_end", fh, SPLIT_WRITE_ALL, buf, status);
}
SHL_WEAK_ALIAS(File_write_all_end);

int PMPI_File_read_at_all_begin(MPI_File fh, MPI_Offset offset, void *buf, int count,
				MPI_Datatype datatype)
{
	return begin("MPI_File_read_at_all_begin", fh, SPLIT_READ_AT_ALL, SHL_FILE_READ, true,
		     offset, buf, count, datatype);
}
SHL_WEAK_ALIAS(File_read_at_all_begin);

int PMPI_File_read_at_all_begin_c(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count,
				  MPI_Datatype datatype)
{
	return begin("MPI_File_read_at_all_begin_c", fh, SPLIT_READ_AT_ALL, SHL_FILE_READ, true,
		     offset, buf, count, datatype);
}
SHL_WEAK_ALIAS(File_read_at_all_begin_c);

int PMPI_File_read_at_all_end(MPI_File fh, void *buf, MPI_Status *status)
{
	return end("MPI_File_read_at_all_end", fh, SPLIT_READ_AT_ALL, buf, status);
}
SHL_WEAK_ALIAS(File_read_at_all_end);

int PMPI_File_write_at_all_begin(MPI_File fh, MPI_Offset offset, const void *buf, int count,
				 MPI_Datatype datatype)
{
	return begin("MPI_File_write_at_all_begin", fh, SPLIT_WRITE_AT_ALL, SHL_FILE_WRITE, true,
		     offset, (void *)buf, count, datatype);
}
SHL_WEAK_ALIAS(File_write_at_all_begin);

int PMPI_File_write_at_all_begin_c(MPI_File fh, MPI_Offset offset, const void *buf,
				   MPI_Count count, MPI_Datatype datatype)
{
	return begin("MPI_File_write_at_all_begin_c", fh, SPLIT_WRITE_AT_ALL, SHL_FILE_WRITE,
		     true, offset, (void *)buf, count, datatype);
}
SHL_WEAK_ALIAS(File_write_at_all_begin_c);

int PMPI_File_write_at_all_end(MPI_File fh, const void *buf, MPI_Status *status)
{
	return end("MPI_File_write_at_all_end", fh, SPLIT_WRITE_AT_ALL, buf, status);
}
SHL_WEAK_ALIAS(File_write_at_all_end);

/* ---- nonblocking collectives ---- */

static int nonblocking(const char *fn, MPI_File fh, enum shl_file_dir dir, bool at,
		       MPI_Offset offset, void *buf, MPI_Count count, MPI_Datatype type,
		       MPI_Request *request)
{
	struct shl_file *f;
	int err = check_access(fn, fh, &f, dir, at, offset, buf, count, type);

	if (err != MPI_SUCCESS)
		return err;
	if (request == NULL)
		return shl_file_err(f, MPI_ERR_REQUEST, fn, "request is NULL");
	struct shl_file_coll_job *j;

	err = post(f, fn, dir, start_of(f, at, offset), buf, count, type, true, request, &j);
	/* The individual pointer moves at the call by what it asks for (MPI 4.1, 14.4.3). */
	if (err == MPI_SUCCESS && !at)
		f->fp += etypes_of(f, (MPI_Offset)count * (MPI_Offset)type->size);
	return err;
}

int PMPI_File_iread_all(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
			MPI_Request *request)
{
	return nonblocking("MPI_File_iread_all", fh, SHL_FILE_READ, false, 0, buf, count,
			   datatype, request);
}
SHL_WEAK_ALIAS(File_iread_all);

int PMPI_File_iread_all_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype,
			  MPI_Request *request)
{
	return nonblocking("MPI_File_iread_all_c", fh, SHL_FILE_READ, false, 0, buf, count,
			   datatype, request);
}
SHL_WEAK_ALIAS(File_iread_all_c);

int PMPI_File_iwrite_all(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
			 MPI_Request *request)
{
	return nonblocking("MPI_File_iwrite_all", fh, SHL_FILE_WRITE, false, 0, (void *)buf,
			   count, datatype, request);
}
SHL_WEAK_ALIAS(File_iwrite_all);

int PMPI_File_iwrite_all_c(MPI_File fh, const void *buf, MPI_Count count,
			   MPI_Datatype datatype, MPI_Request *request)
{
	return nonblocking("MPI_File_iwrite_all_c", fh, SHL_FILE_WRITE, false, 0, (void *)buf,
			   count, datatype, request);
}
SHL_WEAK_ALIAS(File_iwrite_all_c);

int PMPI_File_iread_at_all(MPI_File fh, MPI_Offset offset, void *buf, int count,
			   MPI_Datatype datatype, MPI_Request *request)
{
	return nonblocking("MPI_File_iread_at_all", fh, SHL_FILE_READ, true, offset, buf, count,
			   datatype, request);
}
SHL_WEAK_ALIAS(File_iread_at_all);

int PMPI_File_iread_at_all_c(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count,
			     MPI_Datatype datatype, MPI_Request *request)
{
	return nonblocking("MPI_File_iread_at_all_c", fh, SHL_FILE_READ, true, offset, buf, count,
			   datatype, request);
}
SHL_WEAK_ALIAS(File_iread_at_all_c);

int PMPI_File_iwrite_at_all(MPI_File fh, MPI_Offset offset, const void *buf, int count,
			    MPI_Datatype datatype, MPI_Request *request)
{
	return nonblocking("MPI_File_iwrite_at_all", fh, SHL_FILE_WRITE, true, offset,
			   (void *)buf, count, datatype, request);
}
SHL_WEAK_ALIAS(File_iwrite_at_all);

int PMPI_File_iwrite_at_all_c(MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count,
			      MPI_Datatype datatype, MPI_Request *request)
{
	return nonblocking("MPI_File_iwrite_at_all_c", fh, SHL_FILE_WRITE, true, offset,
			   (void *)buf, count, datatype, request);
}
SHL_WEAK_ALIAS(File_iwrite_at_all_c);
