/* Synchronization modes and data layouts for the RMA tests that run every access call under
 * every mode with every layout (rma_put_get_*, rma_accumulates_*): a mode opens an access
 * epoch of an origin on one target together with the exposure epoch the mode needs, and
 * closes it; a layout is a contiguous run of MPI_INT or a derived type of MPI_INT (vector,
 * indexed, struct) with the positions of the elements it touches. Each rank is the origin
 * of the next rank in MPI_COMM_WORLD and the target of the previous one (a ring), so that
 * every target is written by one origin. Entered by rank threads; standard MPI only (the
 * tests also pass under Open MPI and MPICH). */
#ifndef SHOAL_TESTS_RMA_EPOCHS_H
#define SHOAL_TESTS_RMA_EPOCHS_H

#include <stdarg.h>
#include "check.h"

/* ---- what failed: every check of a table test names the call, the mode, the layouts ---- */

static char rma_case[256];

static inline void rma_set_case(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(rma_case, sizeof rma_case, fmt, ap);
	va_end(ap);
}

/* RMA_CHECK_INT(a, b) / RMA_CHECK_MPI(call): CHECK_INT / CHECK_MPI naming the case. */
#define RMA_CHECK_INT(a, b)                                                             \
	do {                                                                            \
		long long rma_a_ = (long long)(a), rma_b_ = (long long)(b);             \
		if (rma_a_ != rma_b_) {                                                 \
			char rma_m_[CHECK_MSG_MAX];                                     \
			snprintf(rma_m_, sizeof rma_m_, "%s: %s == %s (%lld != %lld)",  \
				 rma_case, #a, #b, rma_a_, rma_b_);                     \
			check_fail(__FILE__, __LINE__, rma_m_);                         \
		}                                                                       \
	} while (0)
#define RMA_CHECK_MPI(call) RMA_CHECK_INT((call), MPI_SUCCESS)

/* ---- synchronization modes ---- */

enum rma_mode {
	RMA_FENCE,              /* fence(NOPRECEDE) ... fence(NOSUCCEED) */
	RMA_FENCE_ASSERT,       /* the same with NOSTORE, and NOPUT where it holds */
	RMA_FENCE_PLAIN,        /* fence(0) ... fence(0) */
	RMA_PSCW,               /* post/start ... complete/wait */
	RMA_PSCW_TEST,          /* post/start ... complete, MPI_Win_test polled */
	RMA_LOCK_SHARED,        /* lock(SHARED, target) ... unlock */
	RMA_LOCK_EXCLUSIVE,     /* lock(EXCLUSIVE, target) ... unlock */
	RMA_LOCK_ALL_NOCHECK,   /* lock_all(NOCHECK) ... unlock_all: no conflicting lock */
	RMA_FLUSH,              /* lock_all ... flush(target) ... unlock_all */
	RMA_FLUSH_ALL,          /* lock_all ... flush_all ... unlock_all */
	RMA_FLUSH_LOCAL,        /* lock_all ... flush_local(target) ... unlock_all */
	RMA_FLUSH_LOCAL_ALL,    /* lock_all ... flush_local_all ... unlock_all */
	RMA_NMODES
};

static const char *const rma_mode_names[RMA_NMODES] = {
	"fence(NOPRECEDE..NOSUCCEED)", "fence with NOSTORE/NOPUT", "fence(0..0)",
	"post/start/complete/wait", "post/start/complete/test", "lock shared",
	"lock exclusive", "lock_all(NOCHECK)", "lock_all+flush", "lock_all+flush_all",
	"lock_all+flush_local", "lock_all+flush_local_all",
};

/* Passive target modes: the only ones where request-based calls are allowed. */
static inline int rma_mode_passive(enum rma_mode m)
{
	return m >= RMA_LOCK_SHARED;
}

/* Modes whose mid-epoch call (rma_complete) completes the operations at the target too. */
static inline int rma_mode_flushes_remote(enum rma_mode m)
{
	return m == RMA_FLUSH || m == RMA_FLUSH_ALL;
}

/* Modes whose mid-epoch call completes the operations at the origin. */
static inline int rma_mode_flushes(enum rma_mode m)
{
	return m >= RMA_FLUSH;
}

static inline int rma_next(void)
{
	int rank, size;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	return (rank + 1) % size;
}

static inline int rma_prev(void)
{
	int rank, size;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	return (rank + size - 1) % size;
}

/* A group of one rank of the window's communicator. */
static inline MPI_Group rma_group_of(MPI_Win win, int rank)
{
	MPI_Group all, one;
	RMA_CHECK_MPI(MPI_Win_get_group(win, &all));
	RMA_CHECK_MPI(MPI_Group_incl(all, 1, &rank, &one));
	RMA_CHECK_MPI(MPI_Group_free(&all));
	return one;
}

/* Open the epochs of mode m: this rank accesses rma_next() and is accessed by rma_prev().
 * `reads_only`: the epoch's operations on this rank's window only read it (gets), so that
 * fence may assert MPI_MODE_NOPUT. Collective over the window for the active modes. */
static inline void rma_open(enum rma_mode m, MPI_Win win, int reads_only)
{
	MPI_Group g;

	switch (m) {
	case RMA_FENCE:
		RMA_CHECK_MPI(MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
		break;
	case RMA_FENCE_ASSERT:
		/* The window was last stored to before the barrier that ended the reset. */
		RMA_CHECK_MPI(MPI_Win_fence(MPI_MODE_NOPRECEDE | MPI_MODE_NOSTORE |
					    (reads_only ? MPI_MODE_NOPUT : 0), win));
		break;
	case RMA_FENCE_PLAIN:
		RMA_CHECK_MPI(MPI_Win_fence(0, win));
		break;
	case RMA_PSCW:
	case RMA_PSCW_TEST:
		g = rma_group_of(win, rma_prev());
		RMA_CHECK_MPI(MPI_Win_post(g, 0, win));
		RMA_CHECK_MPI(MPI_Group_free(&g));
		g = rma_group_of(win, rma_next());
		RMA_CHECK_MPI(MPI_Win_start(g, 0, win));
		RMA_CHECK_MPI(MPI_Group_free(&g));
		break;
	case RMA_LOCK_SHARED:
		RMA_CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rma_next(), 0, win));
		break;
	case RMA_LOCK_EXCLUSIVE:
		RMA_CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rma_next(), 0, win));
		break;
	case RMA_LOCK_ALL_NOCHECK:
		/* Every lock of the window's ranks is either lock_all's, or a rank's on itself
		 * between barriers (rma_reset, the checks). */
		RMA_CHECK_MPI(MPI_Win_lock_all(MPI_MODE_NOCHECK, win));
		break;
	default:
		RMA_CHECK_MPI(MPI_Win_lock_all(0, win));
	}
}

/* The mid-epoch completion of the flush modes (nothing for the others). */
static inline void rma_complete(enum rma_mode m, MPI_Win win)
{
	switch (m) {
	case RMA_FLUSH:
		RMA_CHECK_MPI(MPI_Win_flush(rma_next(), win));
		break;
	case RMA_FLUSH_ALL:
		RMA_CHECK_MPI(MPI_Win_flush_all(win));
		break;
	case RMA_FLUSH_LOCAL:
		RMA_CHECK_MPI(MPI_Win_flush_local(rma_next(), win));
		break;
	case RMA_FLUSH_LOCAL_ALL:
		RMA_CHECK_MPI(MPI_Win_flush_local_all(win));
		break;
	default:
		break;
	}
}

/* Close the epochs rma_open opened. */
static inline void rma_close(enum rma_mode m, MPI_Win win)
{
	int flag = 0;
	double end;

	switch (m) {
	case RMA_FENCE:
		RMA_CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
		break;
	case RMA_FENCE_ASSERT:
		RMA_CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED | MPI_MODE_NOSTORE |
					    MPI_MODE_NOPUT, win));
		break;
	case RMA_FENCE_PLAIN:
		RMA_CHECK_MPI(MPI_Win_fence(0, win));
		break;
	case RMA_PSCW:
		RMA_CHECK_MPI(MPI_Win_complete(win));
		RMA_CHECK_MPI(MPI_Win_wait(win));
		break;
	case RMA_PSCW_TEST:
		RMA_CHECK_MPI(MPI_Win_complete(win));
		end = MPI_Wtime() + CHECK_POLL_S;
		while (!flag && MPI_Wtime() < end)
			RMA_CHECK_MPI(MPI_Win_test(win, &flag));
		RMA_CHECK_INT(flag, 1);
		break;
	case RMA_LOCK_SHARED:
	case RMA_LOCK_EXCLUSIVE:
		RMA_CHECK_MPI(MPI_Win_unlock(rma_next(), win));
		break;
	default:
		RMA_CHECK_MPI(MPI_Win_unlock_all(win));
	}
}

/* Local stores to, or loads from, this rank's own window memory outside any epoch of the
 * window: within a lock on itself (the standard's rule for local access). `excl`: stores. */
static inline void rma_lock_self(MPI_Win win, int excl)
{
	int rank;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	RMA_CHECK_MPI(MPI_Win_lock(excl ? MPI_LOCK_EXCLUSIVE : MPI_LOCK_SHARED, rank, 0, win));
}

static inline void rma_unlock_self(MPI_Win win)
{
	int rank;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	RMA_CHECK_MPI(MPI_Win_unlock(rank, win));
}

/* ---- layouts ---- */

enum rma_layout { RMA_CONTIG, RMA_VECTOR, RMA_INDEXED, RMA_STRUCT, RMA_NLAYOUTS };

static const char *const rma_layout_names[RMA_NLAYOUTS] = {
	"contiguous", "vector", "indexed", "struct",
};

#define RMA_ELEMS 8     /* elements every layout moves */
#define RMA_SPAN 16     /* the ints its elements lie within */

struct rma_layout_type {
	MPI_Datatype type;
	int count;
	int pos[RMA_ELEMS];   /* the elements, in type-map order, as int indices */
};

/* The MPI_INT layouts, each used with count 2 of a derived type but for the contiguous one
 * (count 8 of MPI_INT), so that the extent matters:
 *   vector(2 blocks of 2, stride 3), extent 5:                 0 1 3 4 | 5 6 8 9
 *   indexed(blocks 3 at 1, 1 at 5) resized to extent 7:       1 2 3 5 | 8 9 10 12
 *   struct(1 int at 0, 3 ints at 4) resized to extent 8:      0 4 5 6 | 8 12 13 14 */
static inline struct rma_layout_type rma_layout_make(enum rma_layout l)
{
	static const int pos[RMA_NLAYOUTS][RMA_ELEMS] = {
		{ 0, 1, 2, 3, 4, 5, 6, 7 },
		{ 0, 1, 3, 4, 5, 6, 8, 9 },
		{ 1, 2, 3, 5, 8, 9, 10, 12 },
		{ 0, 4, 5, 6, 8, 12, 13, 14 },
	};
	struct rma_layout_type t = { MPI_INT, 2, { 0 } };
	MPI_Datatype tmp;

	memcpy(t.pos, pos[l], sizeof t.pos);
	switch (l) {
	case RMA_CONTIG:
		t.count = RMA_ELEMS;
		return t;
	case RMA_VECTOR:
		CHECK_MPI(MPI_Type_vector(2, 2, 3, MPI_INT, &t.type));
		break;
	case RMA_INDEXED: {
		int lens[2] = { 3, 1 }, displs[2] = { 1, 5 };
		CHECK_MPI(MPI_Type_indexed(2, lens, displs, MPI_INT, &tmp));
		CHECK_MPI(MPI_Type_create_resized(tmp, 0, 7 * sizeof(int), &t.type));
		CHECK_MPI(MPI_Type_free(&tmp));
		break;
	}
	default: {
		int lens[2] = { 1, 3 };
		MPI_Aint displs[2] = { 0, 4 * sizeof(int) };
		MPI_Datatype types[2] = { MPI_INT, MPI_INT };
		CHECK_MPI(MPI_Type_create_struct(2, lens, displs, types, &tmp));
		CHECK_MPI(MPI_Type_create_resized(tmp, 0, 8 * sizeof(int), &t.type));
		CHECK_MPI(MPI_Type_free(&tmp));
	}
	}
	CHECK_MPI(MPI_Type_commit(&t.type));
	return t;
}

static inline void rma_layout_free(struct rma_layout_type *t)
{
	if (t->type != MPI_INT)
		CHECK_MPI(MPI_Type_free(&t->type));
}

/* ---- the window and its values ---- */

#define RMA_DISP 3                       /* target_disp of every access, in ints */
#define RMA_WIN_INTS (RMA_DISP + RMA_SPAN + 5)

/* What rank `r` stores at element i of its window before case `c` (negative), and what it
 * sends from element i of its origin buffer (positive): distinct per rank, element, case. */
static inline int rma_initial(int r, int i, int c)
{
	return -(c * 100000 + (r + 1) * 1000 + i + 1);
}

static inline int rma_origin(int r, int i, int c)
{
	return c * 100000 + (r + 1) * 1000 + i + 1;
}

/* Reset this rank's window of RMA_WIN_INTS ints to rma_initial, then a barrier. */
static inline void rma_reset(MPI_Win win, int *mem, int c)
{
	int rank;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	rma_lock_self(win, 1);
	for (int i = 0; i < RMA_WIN_INTS; i++)
		mem[i] = rma_initial(rank, i, c);
	rma_unlock_self(win);
	RMA_CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

#endif
