/* rma_put_get_under_every_mode_and_layout: MPI_Put, MPI_Get, MPI_Rput and MPI_Rget move
 * exactly the elements their layouts name (contiguous, vector, indexed, struct of MPI_INT on
 * either side) under every synchronization mode (tests/lib/rma_epochs.h; request-based calls
 * in the passive modes only, as the standard allows). Each rank accesses the next in a ring;
 * nothing else of target or origin changes; a get's data is there once its request or the
 * epoch's flush completes, a put's buffer is free once its request or flush_local completes,
 * a flushed put is in the target's memory before the epoch ends. Failures name the call,
 * the mode and both layouts. */
/* ranks: 2 4 8 64 */
/* timeout: 300 */
#include "lib/rma_epochs.h"

enum call { PUT, GET, RPUT, RGET, NCALLS };
static const char *const call_names[NCALLS] = { "MPI_Put", "MPI_Get", "MPI_Rput", "MPI_Rget" };

#define UNTOUCHED (-7)    /* an origin buffer's elements a get does not fill */
#define SCRIBBLED (-9)    /* what an origin writes over a buffer it may reuse */

/* The window of this rank after the previous rank put `o` into it at `t`, in case c. */
static void check_put_arrived(const int *mem, const struct rma_layout_type *o,
			      const struct rma_layout_type *t, int c)
{
	int rank, expect[RMA_WIN_INTS];

	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	for (int i = 0; i < RMA_WIN_INTS; i++)
		expect[i] = rma_initial(rank, i, c);
	for (int k = 0; k < RMA_ELEMS; k++)
		expect[RMA_DISP + t->pos[k]] = rma_origin(rma_prev(), o->pos[k], c);
	for (int window_element = 0; window_element < RMA_WIN_INTS; window_element++)
		RMA_CHECK_INT(mem[window_element], expect[window_element]);
}

/* The window of this rank is as rma_reset left it. */
static void check_window_intact(const int *mem, int c)
{
	int rank;

	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	for (int window_element = 0; window_element < RMA_WIN_INTS; window_element++)
		RMA_CHECK_INT(mem[window_element], rma_initial(rank, window_element, c));
}

/* The origin buffer after getting `t` of the next rank's window into `o`, in case c. */
static void check_get_arrived(const int *buf, const struct rma_layout_type *o,
			      const struct rma_layout_type *t, int c)
{
	int expect[RMA_SPAN];

	for (int i = 0; i < RMA_SPAN; i++)
		expect[i] = UNTOUCHED;
	for (int k = 0; k < RMA_ELEMS; k++)
		expect[o->pos[k]] = rma_initial(rma_next(), RMA_DISP + t->pos[k], c);
	for (int origin_element = 0; origin_element < RMA_SPAN; origin_element++)
		RMA_CHECK_INT(buf[origin_element], expect[origin_element]);
}

static void run_case(MPI_Win win, int *mem, enum call call, enum rma_mode mode,
		     enum rma_layout ol, enum rma_layout tl, int c)
{
	int rank, buf[RMA_SPAN], writes = call == PUT || call == RPUT;
	struct rma_layout_type o = rma_layout_make(ol), t = rma_layout_make(tl);
	MPI_Request req;

	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	rma_set_case("%s under %s, origin %s, target %s", call_names[call],
		     rma_mode_names[mode], rma_layout_names[ol], rma_layout_names[tl]);
	for (int i = 0; i < RMA_SPAN; i++)
		buf[i] = writes ? rma_origin(rank, i, c) : UNTOUCHED;
	rma_reset(win, mem, c);

	rma_open(mode, win, !writes);
	switch (call) {
	case PUT:
		RMA_CHECK_MPI(MPI_Put(buf, o.count, o.type, rma_next(), RMA_DISP, t.count,
				      t.type, win));
		break;
	case GET:
		RMA_CHECK_MPI(MPI_Get(buf, o.count, o.type, rma_next(), RMA_DISP, t.count,
				      t.type, win));
		break;
	case RPUT:
		RMA_CHECK_MPI(MPI_Rput(buf, o.count, o.type, rma_next(), RMA_DISP, t.count,
				       t.type, win, &req));
		RMA_CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
		for (int i = 0; i < RMA_SPAN; i++)
			buf[i] = SCRIBBLED;   /* free once the request completes */
		break;
	default:
		RMA_CHECK_MPI(MPI_Rget(buf, o.count, o.type, rma_next(), RMA_DISP, t.count,
				       t.type, win, &req));
		RMA_CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
		check_get_arrived(buf, &o, &t, c);
	}
	rma_complete(mode, win);
	if (rma_mode_flushes(mode) && !writes)
		check_get_arrived(buf, &o, &t, c);
	if (rma_mode_flushes(mode) && writes)
		for (int i = 0; i < RMA_SPAN; i++)
			buf[i] = SCRIBBLED;   /* free once flushed, locally at least */
	if (rma_mode_flushes_remote(mode) && writes) {
		/* Flushed: in the target's memory now. Tell it; it looks (MPI_Win_sync in
		 * its own lock_all epoch, after the message: the standard's pattern). */
		int token = 0;
		RMA_CHECK_MPI(MPI_Sendrecv(&token, 1, MPI_INT, rma_next(), 0, &token, 1,
					   MPI_INT, rma_prev(), 0, MPI_COMM_WORLD,
					   MPI_STATUS_IGNORE));
		RMA_CHECK_MPI(MPI_Win_sync(win));
		check_put_arrived(mem, &o, &t, c);
	}
	rma_close(mode, win);

	RMA_CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	rma_lock_self(win, 0);
	if (writes)
		check_put_arrived(mem, &o, &t, c);
	else
		check_window_intact(mem, c);
	rma_unlock_self(win);
	if (!writes)
		check_get_arrived(buf, &o, &t, c);
	rma_layout_free(&o);
	rma_layout_free(&t);
}

int main(int argc, char **argv)
{
	int *mem, c = 0;
	MPI_Win win;

	CHECK_MPI(MPI_Init(&argc, &argv));
	CHECK_MPI(MPI_Win_allocate(RMA_WIN_INTS * sizeof(int), sizeof(int), MPI_INFO_NULL,
				   MPI_COMM_WORLD, &mem, &win));
	for (int mode = 0; mode < RMA_NMODES; mode++)
		for (int call = 0; call < NCALLS; call++) {
			if ((call == RPUT || call == RGET) && !rma_mode_passive(mode))
				continue;
			for (int ol = 0; ol < RMA_NLAYOUTS; ol++)
				for (int tl = 0; tl < RMA_NLAYOUTS; tl++)
					run_case(win, mem, call, mode, ol, tl, c++);
		}
	CHECK_MPI(MPI_Win_free(&win));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
