/* Collective file access (MPI 4.1, 14.4): MPI_File_read_all, write_all, read_at_all,
 * write_at_all, their split collectives (_begin/_end) and nonblocking forms (iread_all, ...),
 * the file's collective state and its collective I/O thread. The data moves in
 * collective_rw.c (two-phase I/O).
 *
 * Split collectives run the whole collective at _begin and keep its status for _end (MPI
 * 4.1, 14.4.5 allows it). Nonblocking collectives run, in call order, on the rank's
 * collective I/O thread of the file: a thread of the rank (pthread_create from the rank's
 * thread, runtime/core/threads.c) made at the first one, which runs the blocking engine and
 * completes a file request (async.c), whose failure the completing call raises on the file;
 * every member calls a file's collectives in one order, so the threads of the members meet
 * in each. Once the thread runs, a blocking collective of
 * the file is queued behind the nonblocking ones and waited for.
 *
 * Entered by rank threads (the MPI calls, shl_file_coll_close) and by the collective I/O
 * thread (`serve`). */

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/core/check.h"
#include "runtime/file/collective.h"

/* Which _begin a split collective of this file began (f->split_kind; shared.c's ordered
 * ones are above these). */
enum {
	SPLIT_READ_ALL = 0x4301,
	SPLIT_WRITE_ALL,
	SPLIT_READ_AT_ALL,
	SPLIT_WRITE_AT_ALL,
};

/* One collective queued on the collective I/O thread; its file request (async.c) completes
 * when the thread ran it. */
struct shl_file_coll_job {
	struct shl_file_coll_job *next;
	const char *fn;
	enum shl_file_dir dir;
	MPI_Offset pos;
	void *buf;
	MPI_Count count;
	struct shl_datatype *type;   /* held */
	struct shl_req *q;
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

/* The stream position an access starts at: the explicit offset or the individual file
 * pointer, in etypes of the view. */
static MPI_Offset start_of(const struct shl_file *f, bool at, MPI_Offset offset)
{
	return (at ? offset : f->fp) * (MPI_Offset)f->view.esize;
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

/* ---- the collective I/O thread ---- */

/* Complete job `j`'s request with shl_file_coll_rw's result `rc`. */
static void finish(struct shl_file_coll_job *j, int rc, MPI_Offset moved)
{
	const char *what = j->dir == SHL_FILE_READ ? "read" : "write";
	char why[224];

	if (rc == 0) {
		shl_file_req_done(j->q, moved, MPI_SUCCESS, NULL);
		return;
	}
	if (rc < 0)
		snprintf(why, sizeof(why), "%s: the collective %s failed on a member: %s", j->fn,
			 what, strerror(-rc));
	else if (rc == MPI_ERR_CONVERSION)
		snprintf(why, sizeof(why), "%s: a member's data does not convert to or from the "
			 "file's data representation", j->fn);
	else
		snprintf(why, sizeof(why), "%s: a collective of the file's communicator failed",
			 j->fn);
	shl_file_req_done(j->q, 0, rc < 0 ? shl_file_errno_class(-rc) : rc, why);
}

static void *serve(void *arg)
{
	struct shl_file *f = arg;
	struct shl_file_coll *st = f->coll;

	/* The communicators of its own; a failure shows in the first collective on them. */
	PMPI_Waitall(2, st->dup, MPI_STATUSES_IGNORE);
	for (;;) {
		struct shl_file_coll_job *j;
		MPI_Offset moved = 0;
		int rc;

		pthread_mutex_lock(&st->mu);
		while (st->head == NULL && !st->stop)
			pthread_cond_wait(&st->cv, &st->mu);
		j = st->head;
		if (j == NULL) {
			pthread_mutex_unlock(&st->mu);
			return NULL;
		}
		st->head = j->next;
		if (st->head == NULL)
			st->tail = NULL;
		pthread_mutex_unlock(&st->mu);
		rc = shl_file_coll_rw(f, st->comm, st->node, j->dir, j->pos, j->buf, j->count,
				      j->type, &moved);
		shl_dt_release(j->type);
		finish(j, rc, moved);
		free(j);
	}
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
	if (PMPI_Comm_idup(f->comm, &st->comm, &st->dup[0]) != MPI_SUCCESS)
		return -ENOMEM;
	if (PMPI_Comm_idup(f->node, &st->node, &st->dup[1]) != MPI_SUCCESS) {
		PMPI_Wait(&st->dup[0], MPI_STATUS_IGNORE);
		PMPI_Comm_free(&st->comm);
		return -ENOMEM;
	}
	err = pthread_create(&st->th, NULL, serve, f);
	if (err != 0) {
		PMPI_Waitall(2, st->dup, MPI_STATUSES_IGNORE);
		PMPI_Comm_free(&st->comm);
		PMPI_Comm_free(&st->node);
		return -err;
	}
	st->running = true;
	return 0;
}

/* Queue a collective on f's thread, started if need be; *req (a file request) completes
 * when it ran. Returns MPI_SUCCESS or the class raised. */
static int post(struct shl_file *f, const char *fn, enum shl_file_dir dir, MPI_Offset pos,
		void *buf, MPI_Count count, MPI_Datatype type, MPI_Request *req)
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
	*j = (struct shl_file_coll_job){ .fn = fn, .dir = dir, .pos = pos, .buf = buf,
					 .count = count, .type = type };
	if ((j->q = shl_file_req_new(f)) == NULL) {
		free(j);
		return shl_file_err(f, MPI_ERR_NO_MEM, fn, "out of memory");
	}
	*req = j->q;
	shl_dt_hold(type);
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
		PMPI_Comm_free(&st->comm);
		PMPI_Comm_free(&st->node);
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
		/* Behind the nonblocking collectives the thread has queued; a failure is
		 * raised on the file by the wait. */
		MPI_Request req;
		MPI_Status st;
		int err = post(f, fn, dir, pos, buf, count, type, &req);
		if (err != MPI_SUCCESS)
			return err;
		err = PMPI_Wait(&req, &st);
		if (err != MPI_SUCCESS)
			return err;
		*moved = st.shl_bytes;
	} else {
		rc = shl_file_coll_rw(f, f->comm, f->node, dir, pos, buf, count, type, moved);
		if (rc != 0)
			return report(f, fn, dir, rc);
	}
	if (!at)
		f->fp += shl_file_etypes(f, *moved, MPI_BYTE);
	return MPI_SUCCESS;
}

static int blocking(const char *fn, MPI_File fh, enum shl_file_dir dir, bool at,
		    MPI_Offset offset, void *buf, MPI_Count count, MPI_Datatype type,
		    MPI_Status *status)
{
	struct shl_file *f;
	MPI_Offset moved;
	int err = shl_file_check_access(fn, fh, &f, dir, at, offset, buf, count, type);

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
	int err = shl_file_check_access(fn, fh, &f, dir, at, offset, buf, count, type);

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
	int err;

	shl_rank_or_die(fn);
	err = shl_file_check(fn, fh, &f);
	if (err != MPI_SUCCESS)
		return err;
	if (!f->split || f->split_kind != kind)
		return shl_file_err(f, MPI_ERR_OTHER, fn, "no %s is active on the file",
				    kind == SPLIT_READ_ALL ? "MPI_File_read_all_begin" :
				    kind == SPLIT_WRITE_ALL ? "MPI_File_write_all_begin" :
				    kind == SPLIT_READ_AT_ALL ? "MPI_File_read_at_all_begin" :
				    "MPI_File_write_at_all_begin");
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
	int err = shl_file_check_access(fn, fh, &f, dir, at, offset, buf, count, type);

	if (err != MPI_SUCCESS)
		return err;
	if (request == NULL)
		return shl_file_err(f, MPI_ERR_REQUEST, fn, "request is NULL");
	err = post(f, fn, dir, start_of(f, at, offset), buf, count, type, request);
	/* The individual pointer moves at the call by what it asks for (MPI 4.1, 14.4.3). */
	if (err == MPI_SUCCESS && !at)
		f->fp += shl_file_etypes(f, count, type);
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
