/* rma_accumulates_under_every_mode_and_layout: MPI_Accumulate, MPI_Get_accumulate and their
 * request-based twins (MPI_SUM of MPI_INT, layouts as in rma_put_get_*), and single-element
 * MPI_Fetch_and_op (SUM twice, NO_OP, REPLACE) and MPI_Compare_and_swap (a match, then a
 * mismatch), under every synchronization mode: exactly the named elements change, fetches
 * return the values before each update in the epoch's order, buffers are free and results
 * there once a request, flush or flush_local completes, a flushed update is in the target's
 * memory before the epoch ends. Each rank accesses the next in a ring. Failures name the
 * call, the mode and both layouts. */
/* ranks: 2 4 8 64 */
/* timeout: 300 */
#include "lib/rma_epochs.h"

enum call { ACC, GET_ACC, RACC, RGET_ACC, ATOMICS, NCALLS };
static const char *const call_names[NCALLS] = {
	"MPI_Accumulate", "MPI_Get_accumulate", "MPI_Raccumulate", "MPI_Rget_accumulate",
	"MPI_Fetch_and_op/MPI_Compare_and_swap",
};

#define UNTOUCHED (-7)    /* result elements a fetch does not fill */
#define SCRIBBLED (-9)    /* what an origin writes over a buffer it may reuse */

/* The single elements of the ATOMICS case, as window indices. */
#define FOP_SUM (RMA_DISP + 1)
#define CAS_AT (RMA_DISP + 2)
#define FOP_NOOP (RMA_DISP + 4)
#define FOP_REPLACE (RMA_DISP + 5)
#define NRESULTS 6

struct acase {
	enum call call;
	struct rma_layout_type o, t;
	int c;
};

/* What rank `origin` sends in the ATOMICS case: its values for the SUM, the CAS, the
 * mismatching CAS and the REPLACE. */
static int atomic_value(int origin, int which, int c)
{
	return rma_origin(origin, 20 + which, c);
}

/* This rank's window once the previous rank's accumulates of case `a` are applied. */
static void check_target(const int *mem, const struct acase *a)
{
	int rank, prev = rma_prev(), expect[RMA_WIN_INTS];

	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	for (int i = 0; i < RMA_WIN_INTS; i++)
		expect[i] = rma_initial(rank, i, a->c);
	if (a->call == ATOMICS) {
		expect[FOP_SUM] += 2 * atomic_value(prev, 0, a->c);
		expect[CAS_AT] = atomic_value(prev, 1, a->c);
		expect[FOP_REPLACE] = atomic_value(prev, 3, a->c);
	} else {
		for (int k = 0; k < RMA_ELEMS; k++)
			expect[RMA_DISP + a->t.pos[k]] += rma_origin(prev, a->o.pos[k], a->c);
	}
	for (int window_element = 0; window_element < RMA_WIN_INTS; window_element++)
		RMA_CHECK_INT(mem[window_element], expect[window_element]);
}

/* The values fetched from the next rank's window in case `a`. */
static void check_fetched(const int *res, const struct acase *a)
{
	int rank, next = rma_next(), c = a->c;

	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (a->call == ATOMICS) {
		int expect[NRESULTS] = {
			rma_initial(next, FOP_SUM, c),
			rma_initial(next, FOP_SUM, c) + atomic_value(rank, 0, c),
			rma_initial(next, CAS_AT, c),
			atomic_value(rank, 1, c),     /* the first CAS matched */
			rma_initial(next, FOP_NOOP, c),
			rma_initial(next, FOP_REPLACE, c),
		};
		for (int result = 0; result < NRESULTS; result++)
			RMA_CHECK_INT(res[result], expect[result]);
		return;
	}
	int expect[RMA_SPAN];
	for (int i = 0; i < RMA_SPAN; i++)
		expect[i] = UNTOUCHED;
	for (int k = 0; k < RMA_ELEMS; k++)
		expect[a->o.pos[k]] = rma_initial(next, RMA_DISP + a->t.pos[k], c);
	for (int result_element = 0; result_element < RMA_SPAN; result_element++)
		RMA_CHECK_INT(res[result_element], expect[result_element]);
}

/* The ATOMICS case's calls, each on one MPI_INT, issued in one epoch. */
static void issue_atomics(MPI_Win win, int *res, int c)
{
	int rank, next = rma_next(), v[4];

	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	for (int i = 0; i < 4; i++)
		v[i] = atomic_value(rank, i, c);
	int compare = rma_initial(next, CAS_AT, c);
	RMA_CHECK_MPI(MPI_Fetch_and_op(&v[0], &res[0], MPI_INT, next, FOP_SUM, MPI_SUM, win));
	RMA_CHECK_MPI(MPI_Fetch_and_op(&v[0], &res[1], MPI_INT, next, FOP_SUM, MPI_SUM, win));
	RMA_CHECK_MPI(MPI_Compare_and_swap(&v[1], &compare, &res[2], MPI_INT, next, CAS_AT,
					   win));
	RMA_CHECK_MPI(MPI_Compare_and_swap(&v[2], &compare, &res[3], MPI_INT, next, CAS_AT,
					   win));
	RMA_CHECK_MPI(MPI_Fetch_and_op(NULL, &res[4], MPI_INT, next, FOP_NOOP, MPI_NO_OP, win));
	RMA_CHECK_MPI(MPI_Fetch_and_op(&v[3], &res[5], MPI_INT, next, FOP_REPLACE, MPI_REPLACE,
				       win));
}

static void run_case(MPI_Win win, int *mem, struct acase *a, enum rma_mode mode)
{
	int rank, buf[RMA_SPAN], res[RMA_SPAN], next = rma_next(), c = a->c;
	int fetches = a->call != ACC && a->call != RACC;
	struct rma_layout_type *o = &a->o, *t = &a->t;
	MPI_Request req;

	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	for (int i = 0; i < RMA_SPAN; i++) {
		buf[i] = rma_origin(rank, i, c);
		res[i] = UNTOUCHED;
	}
	rma_reset(win, mem, c);

	rma_open(mode, win, 0);
	switch (a->call) {
	case ACC:
		RMA_CHECK_MPI(MPI_Accumulate(buf, o->count, o->type, next, RMA_DISP, t->count,
					     t->type, MPI_SUM, win));
		break;
	case GET_ACC:
		RMA_CHECK_MPI(MPI_Get_accumulate(buf, o->count, o->type, res, o->count, o->type,
						 next, RMA_DISP, t->count, t->type, MPI_SUM,
						 win));
		break;
	case RACC:
		RMA_CHECK_MPI(MPI_Raccumulate(buf, o->count, o->type, next, RMA_DISP, t->count,
					      t->type, MPI_SUM, win, &req));
		RMA_CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
		for (int i = 0; i < RMA_SPAN; i++)
			buf[i] = SCRIBBLED;   /* free once the request completes */
		break;
	case RGET_ACC:
		RMA_CHECK_MPI(MPI_Rget_accumulate(buf, o->count, o->type, res, o->count,
						  o->type, next, RMA_DISP, t->count, t->type,
						  MPI_SUM, win, &req));
		RMA_CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
		check_fetched(res, a);
		for (int i = 0; i < RMA_SPAN; i++)
			buf[i] = SCRIBBLED;
		break;
	default:
		issue_atomics(win, res, c);
	}
	rma_complete(mode, win);
	if (rma_mode_flushes(mode)) {
		if (fetches)
			check_fetched(res, a);
		for (int i = 0; i < RMA_SPAN; i++)
			buf[i] = SCRIBBLED;   /* free once flushed, locally at least */
	}
	if (rma_mode_flushes_remote(mode)) {
		/* Flushed: applied at the target now. Tell it; it looks (MPI_Win_sync in its
		 * own lock_all epoch, after the message: the standard's pattern). */
		int token = 0;
		RMA_CHECK_MPI(MPI_Sendrecv(&token, 1, MPI_INT, next, 0, &token, 1, MPI_INT,
					   rma_prev(), 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
		RMA_CHECK_MPI(MPI_Win_sync(win));
		check_target(mem, a);
	}
	rma_close(mode, win);

	RMA_CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	rma_lock_self(win, 0);
	check_target(mem, a);
	rma_unlock_self(win);
	if (fetches)
		check_fetched(res, a);
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
			if ((call == RACC || call == RGET_ACC) && !rma_mode_passive(mode))
				continue;
			for (int ol = 0; ol < RMA_NLAYOUTS; ol++)
				for (int tl = 0; tl < RMA_NLAYOUTS; tl++) {
					if (call == ATOMICS && (ol || tl))
						continue;   /* predefined types only */
					struct acase a = { call, rma_layout_make(ol),
							   rma_layout_make(tl), c++ };
					if (call == ATOMICS)
						rma_set_case("%s under %s", call_names[call],
							     rma_mode_names[mode]);
					else
						rma_set_case("%s under %s, origin %s, target %s",
							     call_names[call],
							     rma_mode_names[mode],
							     rma_layout_names[ol],
							     rma_layout_names[tl]);
					run_case(win, mem, &a, mode);
					rma_layout_free(&a.o);
					rma_layout_free(&a.t);
				}
		}
	CHECK_MPI(MPI_Win_free(&win));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
