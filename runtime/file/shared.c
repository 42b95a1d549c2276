/* The shared file pointer (MPI 4.1, 14.4.4): one per open file, a count of etypes of the
 * view that every member moves atomically; the calls that use it (read_shared,
 * write_shared, their nonblocking forms, seek_shared, get_position_shared), and the ordered
 * collectives (read_ordered, write_ordered, and their split forms).
 *
 * Where the pointer lives: a file whose members are all on one node keeps it in node rank
 * 0's struct shl_file_shared, which the other members reach through f->peers[0] (one
 * address space per node); a move is one atomic add. A file with members on several nodes
 * keeps it in a window of one MPI_Offset at rank 0 of the file's communicator, opened for
 * passive access (lock_all) from open to close; a move is an MPI_Fetch_and_op(MPI_SUM)
 * and a flush. A file opened on a node alone pays no window.
 *
 * Ordered access: an inclusive scan of the members' sizes (in etypes) gives each member its
 * place; the last member, which holds the total, moves the pointer once and broadcasts where
 * it was. The split forms run the blocking collective at _begin and hand its status out at
 * _end (MPI 4.1, 14.4.5 allows either).
 *
 * Entered by rank threads: the calls, collectively where MPI says so; shl_file_shared_open,
 * _close and _reset from file.c and view.c. */
#include <stdlib.h>
#include <string.h>

#include "runtime/file/file.h"

struct shl_file_shared {
	_Atomic MPI_Offset cell;           /* node rank 0's: the pointer, on a node */
	_Atomic int users;                 /* node rank 0's: members that have not closed */
	struct shl_file_shared *home;      /* on a node: node rank 0's; else NULL */
	_Atomic MPI_Offset *counter;       /* on a node: &home->cell; else NULL */
	MPI_Win win;                       /* across nodes: the pointer at rank 0 */
	MPI_Offset *base;                  /* the window's memory */
};

/* Which split collective f->split_kind names (collective.c uses values below these). */
enum { SPLIT_READ_ORDERED = 0x5301, SPLIT_WRITE_ORDERED = 0x5302 };

/* ---- the pointer ---- */

/* Move the pointer by `n` etypes (0: read it), its old value in *old. Any rank thread.
 * Returns MPI_SUCCESS or the class of the window's failure. */
static int move(struct shl_file *f, MPI_Offset n, MPI_Offset *old)
{
	struct shl_file_shared *s = f->shared;
	int err;

	if (s->counter != NULL) {
		*old = n != 0 ? atomic_fetch_add(s->counter, n) : atomic_load(s->counter);
		return MPI_SUCCESS;
	}
	err = PMPI_Fetch_and_op(&n, old, MPI_OFFSET, 0, 0, n != 0 ? MPI_SUM : MPI_NO_OP, s->win);
	if (err == MPI_SUCCESS)
		err = PMPI_Win_flush(0, s->win);
	return err;
}

/* Collective: set the pointer to `to` (node rank 0, or rank 0 of the window, writes it);
 * every member returns once it is set. */
static int set(struct shl_file *f, MPI_Offset to)
{
	struct shl_file_shared *s = f->shared;
	int err = MPI_SUCCESS;

	if (s->counter != NULL) {
		if (f->node_rank == 0)
			atomic_store(s->counter, to);
		return PMPI_Barrier(f->comm);
	}
	if (f->rank == 0) {
		MPI_Offset old;
		err = PMPI_Fetch_and_op(&to, &old, MPI_OFFSET, 0, 0, MPI_REPLACE, s->win);
		if (err == MPI_SUCCESS)
			err = PMPI_Win_flush(0, s->win);
	}
	int err2 = PMPI_Barrier(f->comm);
	return err != MPI_SUCCESS ? err : err2;
}

/* The end of the view (MPI_SEEK_END), as MPI_File_seek has it (access.c), or -errno. */
static MPI_Offset end_etypes(struct shl_file *f)
{
	MPI_Offset end = 0;
	int err = shl_file_eof(f, &end);

	return err != 0 ? err : end;
}

int shl_file_shared_open(struct shl_file *f)
{
	struct shl_file_shared *s = calloc(1, sizeof(*s));
	MPI_Offset start = 0;
	int err = MPI_SUCCESS, bad;

	if (s == NULL)
		return MPI_ERR_NO_MEM;  /* all fail: file.c agrees on the class */
	f->shared = s;
	if (f->amode & MPI_MODE_APPEND) {
		start = end_etypes(f);
		if (start < 0)
			start = 0;
	}
	if (!f->offnode) {
		atomic_init(&s->cell, start);
		atomic_init(&s->users, f->node_size);
		/* Node rank 0's record is set before anyone reads it through peers[0]. */
		err = PMPI_Barrier(f->node);
		if (err == MPI_SUCCESS) {
			s->home = f->peers[0]->shared;
			s->counter = &s->home->cell;
		}
		return err;
	}
	err = PMPI_Win_allocate(f->rank == 0 ? sizeof(MPI_Offset) : 0, sizeof(MPI_Offset),
				MPI_INFO_NULL, f->comm, &s->base, &s->win);
	if (err != MPI_SUCCESS)
		return err;  /* collective: every member failed */
	if (f->rank == 0)
		*s->base = start;
	bad = PMPI_Win_lock_all(MPI_MODE_NOCHECK, s->win) != MPI_SUCCESS;
	if (!bad && f->rank == 0)
		bad = PMPI_Win_sync(s->win) != MPI_SUCCESS;
	err = PMPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, f->comm);
	if (err == MPI_SUCCESS && bad)
		err = MPI_ERR_OTHER;
	return err;
}

void shl_file_shared_close(struct shl_file *f)
{
	struct shl_file_shared *s = f->shared;

	shl_file_async_close(f);
	if (s == NULL)
		return;
	f->shared = NULL;
	if (s->home == NULL) {
		if (s->win != MPI_WIN_NULL) {
			PMPI_Win_unlock_all(s->win);
			PMPI_Win_free(&s->win);
		}
		free(s);
		return;
	}
	/* Node rank 0's record holds the pointer until the last member lets go of it (a
	 * member may still move it while another closes): no barrier. */
	struct shl_file_shared *home = s->home;
	if (s != home)
		free(s);
	if (atomic_fetch_sub(&home->users, 1) == 1)
		free(home);
}

int shl_file_shared_reset(struct shl_file *f)
{
	return f->shared != NULL ? set(f, 0) : MPI_SUCCESS;
}

MPI_Offset shl_file_shared_position(struct shl_file *f)
{
	MPI_Offset at = 0;

	if (f->shared == NULL || move(f, 0, &at) != MPI_SUCCESS)
		return 0;
	return at;
}

/* ---- independent access ---- */

static int rw_shared(const char *fn, MPI_File fh, void *buf, MPI_Count count,
		     MPI_Datatype type, MPI_Status *status, enum shl_file_dir dir)
{
	struct shl_file *f;
	MPI_Offset at, n;
	int err;

	shl_rank_or_die(fn);
	err = shl_file_check(fn, fh, &f);
	if (err != MPI_SUCCESS)
		return err;
	err = shl_file_check_io(fn, f, dir, SHL_FILE_SHARED, buf, count, type);
	if (err != MPI_SUCCESS)
		return err;
	err = move(f, shl_file_etypes(f, count, type), &at);
	if (err != MPI_SUCCESS)
		return shl_file_err(f, err, fn, "the shared file pointer could not be moved");
	n = shl_file_rw(f, &f->view, dir, at * (MPI_Offset)f->view.esize, buf, count, type);
	if (n < 0)
		return shl_file_errno(f, (int)-n, fn, "%s at etype %lld of the view (shared file "
				      "pointer) failed", dir == SHL_FILE_READ ? "read" : "write",
				      (long long)at);
	shl_file_status(status, n);
	return MPI_SUCCESS;
}

int PMPI_File_read_shared(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
			  MPI_Status *status)
{
	return rw_shared("MPI_File_read_shared", fh, buf, count, datatype, status,
			 SHL_FILE_READ);
}
SHL_WEAK_ALIAS(File_read_shared);

int PMPI_File_read_shared_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype,
			    MPI_Status *status)
{
	return rw_shared("MPI_File_read_shared_c", fh, buf, count, datatype, status,
			 SHL_FILE_READ);
}
SHL_WEAK_ALIAS(File_read_shared_c);

int PMPI_File_write_shared(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
			   MPI_Status *status)
{
	return rw_shared("MPI_File_write_shared", fh, (void *)buf, count, datatype, status,
			 SHL_FILE_WRITE);
}
SHL_WEAK_ALIAS(File_write_shared);

int PMPI_File_write_shared_c(MPI_File fh, const void *buf, MPI_Count count,
			     MPI_Datatype datatype, MPI_Status *status)
{
	return rw_shared("MPI_File_write_shared_c", fh, (void *)buf, count, datatype, status,
			 SHL_FILE_WRITE);
}
SHL_WEAK_ALIAS(File_write_shared_c);

/* The nonblocking forms take their place at the call (MPI 4.1, 14.4.4: the pointer moves
 * when the operation is started) and go to the I/O workers. */
static int irw_shared(const char *fn, MPI_File fh, void *buf, MPI_Count count,
		      MPI_Datatype type, MPI_Request *request, enum shl_file_dir dir)
{
	struct shl_file *f;
	MPI_Offset at;
	int err;

	shl_rank_or_die(fn);
	err = shl_file_check(fn, fh, &f);
	if (err != MPI_SUCCESS)
		return err;
	err = shl_file_check_io(fn, f, dir, SHL_FILE_SHARED, buf, count, type);
	if (err != MPI_SUCCESS)
		return err;
	if (request == NULL)
		return shl_file_err(f, MPI_ERR_REQUEST, fn, "request is NULL");
	err = move(f, shl_file_etypes(f, count, type), &at);
	if (err != MPI_SUCCESS)
		return shl_file_err(f, err, fn, "the shared file pointer could not be moved");
	return shl_file_istart(fn, f, dir, at * (MPI_Offset)f->view.esize, buf, count, type,
			       request);
}

int PMPI_File_iread_shared(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
			   MPI_Request *request)
{
	return irw_shared("MPI_File_iread_shared", fh, buf, count, datatype, request,
			  SHL_FILE_READ);
}
SHL_WEAK_ALIAS(File_iread_shared);

int PMPI_File_iread_shared_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype,
			     MPI_Request *request)
{
	return irw_shared("MPI_File_iread_shared_c", fh, buf, count, datatype, request,
			  SHL_FILE_READ);
}
SHL_WEAK_ALIAS(File_iread_shared_c);

int PMPI_File_iwrite_shared(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
			    MPI_Request *request)
{
	return irw_shared("MPI_File_iwrite_shared", fh, (void *)buf, count, datatype, request,
			  SHL_FILE_WRITE);
}
SHL_WEAK_ALIAS(File_iwrite_shared);

int PMPI_File_iwrite_shared_c(MPI_File fh, const void *buf, MPI_Count count,
			      MPI_Datatype datatype, MPI_Request *request)
{
	return irw_shared("MPI_File_iwrite_shared_c", fh, (void *)buf, count, datatype, request,
			  SHL_FILE_WRITE);
}
SHL_WEAK_ALIAS(File_iwrite_shared_c);

/* ---- position ---- */

int PMPI_File_seek_shared(MPI_File fh, MPI_Offset offset, int whence)
{
	const char *fn = "MPI_File_seek_shared";
	struct shl_file *f;
	/* What every member must agree on, as maxima of values and their negations. */
	long long v[5];
	MPI_Offset to = 0;
	int err, why = 0;

	shl_rank_or_die(fn);
	err = shl_file_check(fn, fh, &f);
	if (err != MPI_SUCCESS)
		return err;
	if (f->amode & MPI_MODE_SEQUENTIAL)
		return shl_file_err(f, MPI_ERR_UNSUPPORTED_OPERATION, fn, "the file was opened "
				    "with MPI_MODE_SEQUENTIAL, which has no file pointer to move "
				    "(MPI 4.1, 14.2.1)");
	bool bad = whence != MPI_SEEK_SET && whence != MPI_SEEK_CUR && whence != MPI_SEEK_END;
	v[0] = offset;
	v[1] = -offset;
	v[2] = whence;
	v[3] = -(long long)whence;
	v[4] = bad;
	err = PMPI_Allreduce(MPI_IN_PLACE, v, 5, MPI_LONG_LONG, MPI_MAX, f->comm);
	if (err != MPI_SUCCESS)
		return shl_file_err(f, err, fn, "the members could not agree on the seek");
	if (bad)
		return shl_file_err(f, MPI_ERR_ARG, fn, "whence %d is none of MPI_SEEK_SET, "
				    "MPI_SEEK_CUR, MPI_SEEK_END", whence);
	if (v[4])
		return shl_file_err(f, MPI_ERR_ARG, fn, "another member gave an invalid whence");
	if (v[0] != -v[1] || v[2] != -v[3])
		return shl_file_err(f, MPI_ERR_NOT_SAME, fn, "the members gave different offsets "
				    "or whence (offset %lld, whence %d here): MPI_File_seek_shared "
				    "needs the same on all", (long long)offset, whence);
	/* Every member is here: the moves of their earlier calls are in. Rank 0 computes the
	 * new place and tells the others whether it is valid. */
	if (f->rank == 0) {
		MPI_Offset base = 0;
		if (whence == MPI_SEEK_CUR) {
			if (move(f, 0, &base) != MPI_SUCCESS)
				why = 1;
		} else if (whence == MPI_SEEK_END) {
			base = end_etypes(f);
			if (base < 0)
				why = 2;
		}
		to = base + offset;
		if (why == 0 && to < 0)
			why = 3;
	}
	long long out[2] = { why, to };
	err = PMPI_Bcast(out, 2, MPI_LONG_LONG, 0, f->comm);
	if (err != MPI_SUCCESS)
		return shl_file_err(f, err, fn, "the new position could not be shared");
	why = (int)out[0];
	to = out[1];
	if (why == 1)
		return shl_file_err(f, MPI_ERR_OTHER, fn, "the shared file pointer could not be "
				    "read");
	if (why == 2)
		return shl_file_err(f, MPI_ERR_IO, fn, "the size of the file could not be read");
	if (why == 3)
		return shl_file_err(f, MPI_ERR_ARG, fn, "the new position %lld (offset %lld, "
				    "whence %d) is negative", (long long)to, (long long)offset,
				    whence);
	err = set(f, to);
	if (err != MPI_SUCCESS)
		return shl_file_err(f, err, fn, "the shared file pointer could not be set");
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(File_seek_shared);

int PMPI_File_get_position_shared(MPI_File fh, MPI_Offset *offset)
{
	const char *fn = "MPI_File_get_position_shared";
	struct shl_file *f;
	int err;

	shl_rank_or_die(fn);
	err = shl_file_check(fn, fh, &f);
	if (err != MPI_SUCCESS)
		return err;
	if (f->amode & MPI_MODE_SEQUENTIAL)
		return shl_file_err(f, MPI_ERR_UNSUPPORTED_OPERATION, fn, "the file was opened "
				    "with MPI_MODE_SEQUENTIAL, which has no file pointer "
				    "(MPI 4.1, 14.2.1)");
	if (offset == NULL)
		return shl_file_err(f, MPI_ERR_ARG, fn, "offset is NULL");
	err = move(f, 0, offset);
	if (err != MPI_SUCCESS)
		return shl_file_err(f, err, fn, "the shared file pointer could not be read");
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(File_get_position_shared);

/* ---- ordered access ---- */

/* The ordered collective: every member's access of `count` elements of `type` in rank
 * order from the shared pointer. A member whose arguments are wrong takes part with
 * nothing, so that every member returns; each raises its own error. */
static int ordered(const char *fn, struct shl_file *f, void *buf, MPI_Count count,
		   MPI_Datatype type, MPI_Status *status, enum shl_file_dir dir)
{
	long long mine[2] = { 0, 0 }, upto[2], at[2];
	int err = shl_file_check_io(fn, f, dir, SHL_FILE_SHARED, buf, count, type), cerr;
	MPI_Offset n;

	if (err == MPI_SUCCESS)
		mine[0] = shl_file_etypes(f, count, type);
	else
		mine[1] = 1;
	cerr = PMPI_Scan(mine, upto, 2, MPI_LONG_LONG, MPI_SUM, f->comm);
	if (cerr == MPI_SUCCESS && f->rank == f->size - 1) {
		/* The last member holds the total: one move for all. */
		MPI_Offset old = 0;
		at[1] = upto[1];
		if (at[1] == 0 && move(f, upto[0], &old) != MPI_SUCCESS)
			at[1] = -1;
		at[0] = old;
	}
	if (cerr == MPI_SUCCESS)
		cerr = PMPI_Bcast(at, 2, MPI_LONG_LONG, f->size - 1, f->comm);
	if (cerr != MPI_SUCCESS)
		return shl_file_err(f, cerr, fn, "the members could not agree on their places");
	if (err != MPI_SUCCESS)
		return err;  /* raised by the check */
	if (at[1] < 0)
		return shl_file_err(f, MPI_ERR_OTHER, fn, "the shared file pointer could not be "
				    "moved");
	if (at[1] > 0)
		return shl_file_err(f, MPI_ERR_ARG, fn, "the arguments of %lld other member(s) "
				    "were wrong: nobody accessed the file", at[1]);
	MPI_Offset pos = (MPI_Offset)at[0] + (MPI_Offset)upto[0] - (MPI_Offset)mine[0];
	n = shl_file_rw(f, &f->view, dir, pos * (MPI_Offset)f->view.esize, buf, count, type);
	if (n < 0)
		return shl_file_errno(f, (int)-n, fn, "%s at etype %lld of the view (ordered) "
				      "failed", dir == SHL_FILE_READ ? "read" : "write",
				      (long long)pos);
	shl_file_status(status, n);
	return MPI_SUCCESS;
}

static int ordered_call(const char *fn, MPI_File fh, void *buf, MPI_Count count,
			MPI_Datatype type, MPI_Status *status, enum shl_file_dir dir)
{
	struct shl_file *f;
	int err;

	shl_rank_or_die(fn);
	err = shl_file_check(fn, fh, &f);
	if (err != MPI_SUCCESS)
		return err;
	return ordered(fn, f, buf, count, type, status, dir);
}

int PMPI_File_read_ordered(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
			   MPI_Status *status)
{
	return ordered_call("MPI_File_read_ordered", fh, buf, count, datatype, status,
			    SHL_FILE_READ);
}
SHL_WEAK_ALIAS(File_read_ordered);

int PMPI_File_read_ordered_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype,
			     MPI_Status *status)
{
	return ordered_call("MPI_File_read_ordered_c", fh, buf, count, datatype, status,
			    SHL_FILE_READ);
}
SHL_WEAK_ALIAS(File_read_ordered_c);

int PMPI_File_write_ordered(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
			    MPI_Status *status)
{
	return ordered_call("MPI_File_write_ordered", fh, (void *)buf, count, datatype, status,
			    SHL_FILE_WRITE);
}
SHL_WEAK_ALIAS(File_write_ordered);

int PMPI_File_write_ordered_c(MPI_File fh, const void *buf, MPI_Count count,
			      MPI_Datatype datatype, MPI_Status *status)
{
	return ordered_call("MPI_File_write_ordered_c", fh, (void *)buf, count, datatype,
			    status, SHL_FILE_WRITE);
}
SHL_WEAK_ALIAS(File_write_ordered_c);

/* ---- split ordered access: the collective at _begin, its status at _end ---- */

static int ordered_begin(const char *fn, MPI_File fh, void *buf, MPI_Count count,
			 MPI_Datatype type, enum shl_file_dir dir)
{
	struct shl_file *f;
	MPI_Status st;
	int err;

	shl_rank_or_die(fn);
	err = shl_file_check(fn, fh, &f);
	if (err != MPI_SUCCESS)
		return err;
	if (f->split)
		return shl_file_err(f, MPI_ERR_OTHER, fn, "a split collective is active on this "
				    "file: its _end call comes first (MPI 4.1, 14.4.5 allows one "
				    "at a time per file)");
	shl_status_empty(&st, MPI_ANY_SOURCE);
	err = ordered(fn, f, buf, count, type, &st, dir);
	if (err != MPI_SUCCESS)
		return err;
	f->split = true;
	f->split_kind = dir == SHL_FILE_READ ? SPLIT_READ_ORDERED : SPLIT_WRITE_ORDERED;
	f->split_buf = buf;
	f->split_status = st;
	return MPI_SUCCESS;
}

static int ordered_end(const char *fn, MPI_File fh, const void *buf, MPI_Status *status,
		       enum shl_file_dir dir)
{
	int kind = dir == SHL_FILE_READ ? SPLIT_READ_ORDERED : SPLIT_WRITE_ORDERED;
	struct shl_file *f;
	int err;

	shl_rank_or_die(fn);
	err = shl_file_check(fn, fh, &f);
	if (err != MPI_SUCCESS)
		return err;
	if (!f->split || f->split_kind != kind)
		return shl_file_err(f, MPI_ERR_OTHER, fn, "no %s_begin is active on this file",
				    dir == SHL_FILE_READ ? "MPI_File_read_ordered"
							 : "MPI_File_write_ordered");
	if (buf != f->split_buf)
		return shl_file_err(f, MPI_ERR_BUFFER, fn, "buf is not the buffer given to the "
				    "_begin call");
	f->split = false;
	if (status != MPI_STATUS_IGNORE)
		*status = f->split_status;
	return MPI_SUCCESS;
}

int PMPI_File_read_ordered_begin(MPI_File fh, void *buf, int count, MPI_Datatype datatype)
{
	return ordered_begin("MPI_File_read_ordered_begin", fh, buf, count, datatype,
			     SHL_FILE_READ);
}
SHL_WEAK_ALIAS(File_read_ordered_begin);

int PMPI_File_read_ordered_begin_c(MPI_File fh, void *buf, MPI_Count count,
				   MPI_Datatype datatype)
{
	return ordered_begin("MPI_File_read_ordered_begin_c", fh, buf, count, datatype,
			     SHL_FILE_READ);
}
SHL_WEAK_ALIAS(File_read_ordered_begin_c);

int PMPI_File_read_ordered_end(MPI_File fh, void *buf, MPI_Status *status)
{
	return ordered_end("MPI_File_read_ordered_end", fh, buf, status, SHL_FILE_READ);
}
SHL_WEAK_ALIAS(File_read_ordered_end);

int PMPI_File_write_ordered_begin(MPI_File fh, const void *buf, int count,
				  MPI_Datatype datatype)
{
	return ordered_begin("MPI_File_write_ordered_begin", fh, (void *)buf, count, datatype,
			     SHL_FILE_WRITE);
}
SHL_WEAK_ALIAS(File_write_ordered_begin);

int PMPI_File_write_ordered_begin_c(MPI_File fh, const void *buf, MPI_Count count,
				    MPI_Datatype datatype)
{
	return ordered_begin("MPI_File_write_ordered_begin_c", fh, (void *)buf, count,
			     datatype, SHL_FILE_WRITE);
}
SHL_WEAK_ALIAS(File_write_ordered_begin_c);

int PMPI_File_write_ordered_end(MPI_File fh, const void *buf, MPI_Status *status)
{
	return ordered_end("MPI_File_write_ordered_end", fh, buf, status, SHL_FILE_WRITE);
}
SHL_WEAK_ALIAS(File_write_ordered_end);
