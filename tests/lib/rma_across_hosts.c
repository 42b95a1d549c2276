/* One-sided communication between ranks of several hosts, for the rma_*_across_hosts tests.
 * argv[1] chooses what runs:
 *  access    every access call (put, get, accumulate, get_accumulate, fetch_and_op,
 *            compare_and_swap, and the R* forms in passive epochs) to rank + 1, under fence,
 *            post/start/complete/wait, lock/unlock and lock_all/flush, with a contiguous and
 *            a vector target layout; the values at the origin and at the target are checked;
 *            a put, accumulate and get of 40000 ints (many frames) each way;
 *            then an access beyond an attached region of a dynamic window of another host
 *            gives MPI_ERR_RMA_RANGE at the flush.
 *  counter   every rank adds 1 to one counter of rank 0 M times with MPI_Fetch_and_op: the
 *            counter ends at N*M and the values fetched are 0 .. N*M-1, each once; then M
 *            times a get and a put of the value + 1 under an exclusive lock: N*M again.
 *  progress  rank 0 loops on a volatile load, making no MPI call, until the last rank (of
 *            another host) puts a flag into its window under an exclusive lock.
 *  stream    STREAM puts and accumulates of one int each to rank + 1 under a shared lock,
 *            then one MPI_Win_flush: every value at the target; then on a dynamic window,
 *            puts in the attached region around one past it, one flush: MPI_ERR_RMA_RANGE,
 *            the puts inside applied, and the next flush (after more puts) succeeds.
 *  shared    MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) and MPI_Win_allocate_shared on every
 *            node: each rank stores its world rank, every rank of the node loads them all.
 * Each rank prints "ok RANK" at the end; any failure prints why and exits 1. */
#include <mpi.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define N 8          /* elements of one access */
#define WIN 64       /* ints of a window */

static int rank, size;

#define FAIL(...) do { printf("rank %d: ", rank); printf(__VA_ARGS__); printf("\n"); \
		       fflush(stdout); MPI_Abort(MPI_COMM_WORLD, 1); } while (0)
#define MPI_OK(call) do { int e_ = (call); if (e_ != MPI_SUCCESS) FAIL("%s: error %d", #call, e_); } while (0)

enum mode { FENCE, PSCW, LOCK, LOCKALL };
static const char *mode_name[] = { "fence", "pscw", "lock", "lock_all" };

static MPI_Group world_group;

static void open_epoch(MPI_Win win, enum mode m, int to, int from)
{
	MPI_Group g;

	switch (m) {
	case FENCE:
		MPI_OK(MPI_Win_fence(0, win));
		break;
	case PSCW:
		MPI_OK(MPI_Group_incl(world_group, 1, &from, &g));
		MPI_OK(MPI_Win_post(g, 0, win));
		MPI_Group_free(&g);
		MPI_OK(MPI_Group_incl(world_group, 1, &to, &g));
		MPI_OK(MPI_Win_start(g, 0, win));
		MPI_Group_free(&g);
		break;
	case LOCK:
		MPI_OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, to, 0, win));
		break;
	case LOCKALL:
		MPI_OK(MPI_Win_lock_all(0, win));
		break;
	}
}

/* Close the epoch; the target's memory is checked after the barrier. */
static void close_epoch(MPI_Win win, enum mode m, int to)
{
	switch (m) {
	case FENCE:
		MPI_OK(MPI_Win_fence(0, win));
		break;
	case PSCW:
		MPI_OK(MPI_Win_complete(win));
		MPI_OK(MPI_Win_wait(win));
		break;
	case LOCK:
		MPI_OK(MPI_Win_unlock(to, win));
		break;
	case LOCKALL:
		MPI_OK(MPI_Win_flush(to, win));
		MPI_OK(MPI_Win_unlock_all(win));
		break;
	}
	MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
}

/* The target's element k of the access (contiguous: k; vector: 2k). */
static int idx(int vec, int k)
{
	return vec ? 2 * k : k;
}

static void expect_target(const int *mem, int vec, const int *want, const char *what,
			  enum mode m)
{
	for (int k = 0; k < N; k++)
		if (mem[idx(vec, k)] != want[k])
			FAIL("%s under %s (%s layout): target element %d is %d, expected %d", what,
			     mode_name[m], vec ? "vector" : "contiguous", k, mem[idx(vec, k)],
			     want[k]);
	if (vec)
		for (int k = 0; k < N; k++)
			if (mem[2 * k + 1] != -1)
				FAIL("%s under %s (vector layout): a gap (element %d) was written: %d",
				     what, mode_name[m], 2 * k + 1, mem[2 * k + 1]);
	MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
}

static void expect_origin(const int *got, const int *want, int n, const char *what,
			  enum mode m, int vec)
{
	for (int k = 0; k < n; k++)
		if (got[k] != want[k])
			FAIL("%s under %s (%s layout): result %d is %d, expected %d", what,
			     mode_name[m], vec ? "vector" : "contiguous", k, got[k], want[k]);
}

static void access_round(enum mode m, int vec)
{
	int to = (rank + 1) % size, from = (rank + size - 1) % size;
	int *mem, v[N], res[N], want[N], one, old;
	MPI_Datatype tt;
	MPI_Win win;
	MPI_Request q;

	mem = malloc(WIN * sizeof(int));
	for (int i = 0; i < WIN; i++)
		mem[i] = -1;
	if (vec)
		MPI_OK(MPI_Type_vector(N, 1, 2, MPI_INT, &tt));
	else
		MPI_OK(MPI_Type_contiguous(N, MPI_INT, &tt));
	MPI_OK(MPI_Type_commit(&tt));
	MPI_OK(MPI_Win_create(mem, WIN * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
			      &win));
	if (m == LOCKALL)
		MPI_OK(MPI_Barrier(MPI_COMM_WORLD));

	/* Put. */
	for (int k = 0; k < N; k++)
		v[k] = rank * 100 + k;
	open_epoch(win, m, to, from);
	MPI_OK(MPI_Put(v, N, MPI_INT, to, 0, 1, tt, win));
	close_epoch(win, m, to);
	for (int k = 0; k < N; k++)
		want[k] = from * 100 + k;
	expect_target(mem, vec, want, "MPI_Put", m);

	/* Get. */
	open_epoch(win, m, to, from);
	MPI_OK(MPI_Get(res, N, MPI_INT, to, 0, 1, tt, win));
	close_epoch(win, m, to);
	expect_origin(res, v, N, "MPI_Get", m, vec);
	MPI_OK(MPI_Barrier(MPI_COMM_WORLD));

	/* Accumulate (sum). */
	for (int k = 0; k < N; k++)
		v[k] = 1;
	open_epoch(win, m, to, from);
	MPI_OK(MPI_Accumulate(v, N, MPI_INT, to, 0, 1, tt, MPI_SUM, win));
	close_epoch(win, m, to);
	for (int k = 0; k < N; k++)
		want[k] = from * 100 + k + 1;
	expect_target(mem, vec, want, "MPI_Accumulate", m);

	/* Get_accumulate (sum of 10): the old values come back. */
	for (int k = 0; k < N; k++)
		v[k] = 10;
	open_epoch(win, m, to, from);
	MPI_OK(MPI_Get_accumulate(v, N, MPI_INT, res, N, MPI_INT, to, 0, 1, tt, MPI_SUM, win));
	close_epoch(win, m, to);
	for (int k = 0; k < N; k++)
		want[k] = rank * 100 + k + 1;
	expect_origin(res, want, N, "MPI_Get_accumulate", m, vec);
	for (int k = 0; k < N; k++)
		want[k] = from * 100 + k + 11;
	expect_target(mem, vec, want, "MPI_Get_accumulate", m);

	/* Fetch_and_op on element 0, compare_and_swap on element 1 (both of the access's
	 * first two target elements). */
	one = 5;
	open_epoch(win, m, to, from);
	MPI_OK(MPI_Fetch_and_op(&one, &old, MPI_INT, to, idx(vec, 0), MPI_SUM, win));
	close_epoch(win, m, to);
	if (old != rank * 100 + 11)
		FAIL("MPI_Fetch_and_op under %s: fetched %d, expected %d", mode_name[m], old,
		     rank * 100 + 11);
	want[0] += 5;
	expect_target(mem, vec, want, "MPI_Fetch_and_op", m);
	int cmp = rank * 100 + 12, swap = 777;
	open_epoch(win, m, to, from);
	MPI_OK(MPI_Compare_and_swap(&swap, &cmp, &old, MPI_INT, to, idx(vec, 1), win));
	close_epoch(win, m, to);
	if (old != rank * 100 + 12)
		FAIL("MPI_Compare_and_swap under %s: fetched %d, expected %d", mode_name[m], old,
		     rank * 100 + 12);
	want[1] = 777;
	expect_target(mem, vec, want, "MPI_Compare_and_swap", m);
	/* A compare that differs leaves the target as is. */
	cmp = -5;
	swap = 888;
	open_epoch(win, m, to, from);
	MPI_OK(MPI_Compare_and_swap(&swap, &cmp, &old, MPI_INT, to, idx(vec, 1), win));
	close_epoch(win, m, to);
	if (old != 777)
		FAIL("MPI_Compare_and_swap (no swap) under %s: fetched %d", mode_name[m], old);
	expect_target(mem, vec, want, "MPI_Compare_and_swap (no swap)", m);

	if (m == LOCK || m == LOCKALL) {
		/* Rput, Rget, Raccumulate (replace), Rget_accumulate (no_op). */
		for (int k = 0; k < N; k++)
			v[k] = 2000 + rank * 10 + k;
		open_epoch(win, m, to, from);
		MPI_OK(MPI_Rput(v, N, MPI_INT, to, 0, 1, tt, win, &q));
		MPI_OK(MPI_Wait(&q, MPI_STATUS_IGNORE));
		MPI_OK(MPI_Win_flush(to, win));
		MPI_OK(MPI_Rget(res, N, MPI_INT, to, 0, 1, tt, win, &q));
		MPI_OK(MPI_Wait(&q, MPI_STATUS_IGNORE));
		expect_origin(res, v, N, "MPI_Rget after MPI_Rput", m, vec);
		for (int k = 0; k < N; k++)
			v[k] = 3000 + rank * 10 + k;
		MPI_OK(MPI_Raccumulate(v, N, MPI_INT, to, 0, 1, tt, MPI_REPLACE, win, &q));
		MPI_OK(MPI_Wait(&q, MPI_STATUS_IGNORE));
		MPI_OK(MPI_Win_flush(to, win));
		MPI_OK(MPI_Rget_accumulate(NULL, 0, MPI_INT, res, N, MPI_INT, to, 0, 1, tt,
					   MPI_NO_OP, win, &q));
		MPI_OK(MPI_Wait(&q, MPI_STATUS_IGNORE));
		expect_origin(res, v, N, "MPI_Rget_accumulate (MPI_NO_OP) after MPI_Raccumulate",
			      m, vec);
		close_epoch(win, m, to);
		for (int k = 0; k < N; k++)
			want[k] = 3000 + from * 10 + k;
		expect_target(mem, vec, want, "MPI_Raccumulate", m);
	}
	MPI_OK(MPI_Win_free(&win));
	MPI_Type_free(&tt);
	free(mem);
}

/* Accesses larger than one frame (64 KiB): a put, a get and an accumulate of BIG ints, with
 * a contiguous and a vector (every other int) target layout, under a fence. */
#define BIG 40000
static void big_round(int vec)
{
	int to = (rank + 1) % size, from = (rank + size - 1) % size;
	int span = vec ? 2 * BIG : BIG;
	int *mem = malloc((size_t)span * sizeof(int)), *v = malloc(BIG * sizeof(int));
	int *res = malloc(BIG * sizeof(int));
	MPI_Datatype tt;
	MPI_Win win;

	for (int i = 0; i < span; i++)
		mem[i] = -1;
	for (int k = 0; k < BIG; k++)
		v[k] = rank * 1000000 + k;
	MPI_OK(MPI_Type_vector(BIG, 1, vec ? 2 : 1, MPI_INT, &tt));
	MPI_OK(MPI_Type_commit(&tt));
	MPI_OK(MPI_Win_create(mem, (MPI_Aint)span * sizeof(int), sizeof(int), MPI_INFO_NULL,
			      MPI_COMM_WORLD, &win));
	MPI_OK(MPI_Win_fence(0, win));
	MPI_OK(MPI_Put(v, BIG, MPI_INT, to, 0, 1, tt, win));
	MPI_OK(MPI_Win_fence(0, win));
	for (int k = 0; k < BIG; k++)
		if (mem[vec ? 2 * k : k] != from * 1000000 + k || (vec && mem[2 * k + 1] != -1))
			FAIL("a put of %d ints (%s layout): target element %d is %d", BIG,
			     vec ? "vector" : "contiguous", k, mem[vec ? 2 * k : k]);
	MPI_OK(MPI_Barrier(MPI_COMM_WORLD));  /* checked before the next epoch changes it */
	for (int k = 0; k < BIG; k++)
		v[k] = k % 7;
	MPI_OK(MPI_Accumulate(v, BIG, MPI_INT, to, 0, 1, tt, MPI_SUM, win));
	MPI_OK(MPI_Win_fence(0, win));
	MPI_OK(MPI_Get(res, BIG, MPI_INT, to, 0, 1, tt, win));
	MPI_OK(MPI_Win_fence(0, win));
	for (int k = 0; k < BIG; k++)
		if (res[k] != rank * 1000000 + k + k % 7)
			FAIL("a get of %d ints after an accumulate (%s layout): element %d is %d",
			     BIG, vec ? "vector" : "contiguous", k, res[k]);
	MPI_OK(MPI_Win_free(&win));
	MPI_Type_free(&tt);
	free(mem);
	free(v);
	free(res);
}

/* An access to memory of a dynamic window that the target did not attach. */
static void dynamic_range(void)
{
	int to = (rank + 1) % size, buf[4] = { 0 }, v = 1;
	MPI_Aint base, remote;
	MPI_Win win;

	MPI_OK(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
	MPI_OK(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
	MPI_OK(MPI_Win_attach(win, buf, sizeof(buf)));
	MPI_OK(MPI_Get_address(buf, &base));
	MPI_OK(MPI_Sendrecv(&base, 1, MPI_AINT, (rank + size - 1) % size, 0, &remote, 1,
			    MPI_AINT, to, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
	MPI_OK(MPI_Win_lock(MPI_LOCK_SHARED, to, 0, win));
	MPI_OK(MPI_Put(&v, 1, MPI_INT, to, remote + 3 * (MPI_Aint)sizeof(int), 1, MPI_INT, win));
	MPI_OK(MPI_Win_flush(to, win));
	int e = MPI_Put(&v, 1, MPI_INT, to, remote + 4 * (MPI_Aint)sizeof(int), 1, MPI_INT, win);
	if (e == MPI_SUCCESS)
		e = MPI_Win_flush(to, win);
	int cls = -1;
	MPI_Error_class(e, &cls);
	if (cls != MPI_ERR_RMA_RANGE)
		FAIL("a put past the attached region of a dynamic window gave class %d, expected "
		     "MPI_ERR_RMA_RANGE (%d)", cls, MPI_ERR_RMA_RANGE);
	MPI_OK(MPI_Win_unlock(to, win));
	MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
	if (buf[3] != 1)
		FAIL("dynamic window: the put inside the attached region gave %d", buf[3]);
	MPI_OK(MPI_Win_detach(win, buf));
	MPI_OK(MPI_Win_free(&win));
}

#define STREAM 1000

static void stream(void)
{
	int to = (rank + 1) % size, from = (rank + size - 1) % size;
	int *mem, *vals = malloc(2 * STREAM * sizeof(int)), buf[8] = { 0 };
	MPI_Aint base, remote;
	MPI_Win win;

	if (vals == NULL)
		FAIL("no memory");
	MPI_OK(MPI_Win_allocate(2 * STREAM * sizeof(int), sizeof(int), MPI_INFO_NULL,
				MPI_COMM_WORLD, &mem, &win));
	for (int k = 0; k < 2 * STREAM; k++)
		mem[k] = k < STREAM ? -1 : 1000;
	MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
	MPI_OK(MPI_Win_lock(MPI_LOCK_SHARED, to, 0, win));
	for (int k = 0; k < STREAM; k++) {
		vals[k] = rank * 100000 + k;
		vals[STREAM + k] = k;
		MPI_OK(MPI_Put(&vals[k], 1, MPI_INT, to, k, 1, MPI_INT, win));
		MPI_OK(MPI_Accumulate(&vals[STREAM + k], 1, MPI_INT, to, STREAM + k, 1, MPI_INT,
				      MPI_SUM, win));
	}
	MPI_OK(MPI_Win_flush(to, win));
	MPI_OK(MPI_Win_unlock(to, win));
	MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
	MPI_OK(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
	for (int k = 0; k < STREAM; k++) {
		if (mem[k] != from * 100000 + k)
			FAIL("stream: put %d gave %d, expected %d", k, mem[k], from * 100000 + k);
		if (mem[STREAM + k] != 1000 + k)
			FAIL("stream: accumulate %d gave %d, expected %d", k, mem[STREAM + k],
			     1000 + k);
	}
	MPI_OK(MPI_Win_unlock(rank, win));
	MPI_OK(MPI_Win_free(&win));

	MPI_OK(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
	MPI_OK(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
	MPI_OK(MPI_Win_attach(win, buf, 4 * sizeof(int)));
	MPI_OK(MPI_Get_address(buf, &base));
	MPI_OK(MPI_Sendrecv(&base, 1, MPI_AINT, from, 0, &remote, 1, MPI_AINT, to, 0,
			    MPI_COMM_WORLD, MPI_STATUS_IGNORE));
	int v[8] = { 11, 12, 13, 14, 15, 16, 17, 18 };
	MPI_OK(MPI_Win_lock(MPI_LOCK_SHARED, to, 0, win));
	MPI_OK(MPI_Put(&v[0], 1, MPI_INT, to, remote, 1, MPI_INT, win));
	MPI_OK(MPI_Put(&v[1], 1, MPI_INT, to, remote + (MPI_Aint)sizeof(int), 1, MPI_INT, win));
	int e = MPI_Put(&v[5], 1, MPI_INT, to, remote + 5 * (MPI_Aint)sizeof(int), 1, MPI_INT,
			win);
	/* A target of this node may refuse the put at once; one of another node at the flush. */
	MPI_OK(MPI_Put(&v[2], 1, MPI_INT, to, remote + 2 * (MPI_Aint)sizeof(int), 1, MPI_INT,
		       win));
	int ef = MPI_Win_flush(to, win);
	if (e == MPI_SUCCESS)
		e = ef;
	int cls = -1;
	MPI_Error_class(e, &cls);
	if (cls != MPI_ERR_RMA_RANGE)
		FAIL("stream: a put past the attached region among puts inside gave class %d at "
		     "the flush, expected MPI_ERR_RMA_RANGE (%d)", cls, MPI_ERR_RMA_RANGE);
	MPI_OK(MPI_Put(&v[3], 1, MPI_INT, to, remote + 3 * (MPI_Aint)sizeof(int), 1, MPI_INT,
		       win));
	MPI_OK(MPI_Win_flush(to, win));
	MPI_OK(MPI_Win_unlock(to, win));
	MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
	for (int k = 0; k < 8; k++)
		if (buf[k] != (k < 4 ? v[k] : 0))
			FAIL("stream: dynamic window element %d is %d, expected %d", k, buf[k],
			     k < 4 ? v[k] : 0);
	MPI_OK(MPI_Win_detach(win, buf));
	MPI_OK(MPI_Win_free(&win));
	free(vals);
}

static void counter(int m)
{
	long *c, one = 1, *got = malloc((size_t)m * sizeof(long)), *all = NULL;
	MPI_Win win;

	MPI_OK(MPI_Win_allocate(rank == 0 ? sizeof(long) : 0, sizeof(long), MPI_INFO_NULL,
				MPI_COMM_WORLD, &c, &win));
	if (rank == 0)
		*c = 0;
	MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
	MPI_OK(MPI_Win_lock_all(0, win));
	for (int i = 0; i < m; i++) {
		MPI_OK(MPI_Fetch_and_op(&one, &got[i], MPI_LONG, 0, 0, MPI_SUM, win));
		MPI_OK(MPI_Win_flush(0, win));
	}
	MPI_OK(MPI_Win_unlock_all(win));
	MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
	if (rank == 0)
		all = calloc((size_t)m * size, sizeof(long));
	MPI_OK(MPI_Gather(got, m, MPI_LONG, all, m, MPI_LONG, 0, MPI_COMM_WORLD));
	if (rank == 0) {
		char *seen = calloc((size_t)m * size, 1);
		if (*c != (long)m * size)
			FAIL("counter is %ld after %d ranks x %d MPI_Fetch_and_op, expected %ld", *c,
			     size, m, (long)m * size);
		for (long i = 0; i < (long)m * size; i++) {
			if (all[i] < 0 || all[i] >= (long)m * size || seen[all[i]])
				FAIL("fetched value %ld is out of range or fetched twice", all[i]);
			seen[all[i]] = 1;
		}
		free(seen);
		free(all);
	}
	/* Exclusive locks: a get, then a put of the value + 1, never interleaved with
	 * another rank's. */
	if (rank == 0)
		*c = 0;
	MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
	for (int i = 0; i < m; i++) {
		long v;
		MPI_OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
		MPI_OK(MPI_Get(&v, 1, MPI_LONG, 0, 0, 1, MPI_LONG, win));
		MPI_OK(MPI_Win_flush(0, win));
		v++;
		MPI_OK(MPI_Put(&v, 1, MPI_LONG, 0, 0, 1, MPI_LONG, win));
		MPI_OK(MPI_Win_unlock(0, win));
	}
	MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
	if (rank == 0 && *c != (long)m * size)
		FAIL("counter is %ld after %d ranks x %d get + put under an exclusive lock, "
		     "expected %ld", *c, size, m, (long)m * size);
	MPI_OK(MPI_Win_free(&win));
	free(got);
}

static void progress(void)
{
	int *flag;
	MPI_Win win;

	MPI_OK(MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &flag,
				&win));
	*flag = 0;
	MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
	if (rank == 0) {
		/* No MPI call until the flag is here: only the node's reader can apply it. */
		struct timespec t0, t;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		unsigned long spins = 0;
		while (*(volatile int *)flag == 0) {
			if (++spins % 4096 == 0) {
				sched_yield();
				clock_gettime(CLOCK_MONOTONIC, &t);
				if (t.tv_sec - t0.tv_sec > 100)
					FAIL("the flag put by rank %d never arrived while this rank "
					     "made no MPI call", size - 1);
			}
		}
		printf("flag %d arrived with no MPI call\n", *(volatile int *)flag);
	} else if (rank == size - 1) {
		int one = 42;
		MPI_OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
		MPI_OK(MPI_Put(&one, 1, MPI_INT, 0, 0, 1, MPI_INT, win));
		MPI_OK(MPI_Win_unlock(0, win));
		/* Unlock returned: the put is applied, while rank 0 still makes no call. */
		printf("unlocked\n");
	}
	fflush(stdout);
	MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
	MPI_OK(MPI_Win_free(&win));
}

static void shared(void)
{
	MPI_Comm node;
	MPI_Win win;
	int nrank, nsize, *mine;

	MPI_OK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
	MPI_Comm_rank(node, &nrank);
	MPI_Comm_size(node, &nsize);
	MPI_OK(MPI_Win_allocate_shared(sizeof(int), sizeof(int), MPI_INFO_NULL, node, &mine, &win));
	MPI_OK(MPI_Win_lock_all(MPI_MODE_NOCHECK, win));
	*mine = rank;
	MPI_OK(MPI_Win_sync(win));
	MPI_OK(MPI_Barrier(node));
	MPI_OK(MPI_Win_sync(win));
	MPI_Group ng, wg;
	MPI_Comm_group(node, &ng);
	MPI_Comm_group(MPI_COMM_WORLD, &wg);
	for (int i = 0; i < nsize; i++) {
		MPI_Aint sz;
		int du, *p, w;
		MPI_OK(MPI_Win_shared_query(win, i, &sz, &du, &p));
		MPI_OK(MPI_Group_translate_ranks(ng, 1, &i, wg, &w));
		if (sz != sizeof(int) || *(volatile int *)p != w)
			FAIL("shared window: node rank %d holds %d (size %ld), expected world rank %d",
			     i, *(volatile int *)p, (long)sz, w);
	}
	/* The first rank's segment starts the node's contiguous memory. */
	int *first;
	MPI_Aint sz;
	int du;
	MPI_OK(MPI_Win_shared_query(win, 0, &sz, &du, &first));
	if (first + nrank != mine)
		FAIL("shared window: not contiguous (rank %d at %p, rank 0 at %p)", nrank,
		     (void *)mine, (void *)first);
	MPI_OK(MPI_Win_unlock_all(win));
	MPI_Group_free(&ng);
	MPI_Group_free(&wg);
	MPI_OK(MPI_Win_free(&win));
	printf("node of rank %d has %d ranks\n", rank, nsize);
	MPI_Comm_free(&node);
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Comm_group(MPI_COMM_WORLD, &world_group);
	const char *what = argc > 1 ? argv[1] : "access";
	if (strcmp(what, "access") == 0) {
		for (int m = FENCE; m <= LOCKALL; m++)
			for (int vec = 0; vec < 2; vec++)
				access_round(m, vec);
		big_round(0);
		big_round(1);
		dynamic_range();
	} else if (strcmp(what, "counter") == 0) {
		counter(argc > 2 ? atoi(argv[2]) : 100);
	} else if (strcmp(what, "progress") == 0) {
		progress();
	} else if (strcmp(what, "stream") == 0) {
		stream();
	} else if (strcmp(what, "shared") == 0) {
		shared();
	} else {
		FAIL("unknown test %s", what);
	}
	MPI_Group_free(&world_group);
	printf("ok %d\n", rank);
	MPI_Finalize();
	return 0;
}
