/* coll_mismatched_paths_fail_on_every_rank: different collectives at one point of a communicator whose fast paths cannot see each other (Barrier against a small Bcast, Allreduce or Ibarrier, small against large, Comm_dup against Barrier) fail with MPI_ERR_NOT_SAME on every rank instead of hanging, also when a non-waiting call lets the counters pair up out of step */
/* ranks: 2 3 4 8 */
/* Each case runs on its own duplicate of MPI_COMM_WORLD with MPI_ERRORS_RETURN. When the
 * paths differ their counters are out of step for good, so every later collective on that
 * communicator fails at once (and it can still be freed); a Reduce against an Allreduce
 * (one path) fails on the ranks that read a result and leaves the communicator usable.
 * Also the small Bcast's count checks: more data than the buffer (MPI_ERR_TRUNCATE) and
 * less (MPI_ERR_COUNT). */
#include "check.h"

static int rank, size;

static MPI_Comm fresh(void)
{
	MPI_Comm c;

	CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c));
	CHECK_MPI(MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN));
	return c;
}

/* `c` is broken: collectives and creation fail at once, freeing works. */
static void broken(MPI_Comm c)
{
	int v = 1, w = 0;
	MPI_Comm d = MPI_COMM_NULL;
	MPI_Request q;

	CHECK_CLASS(MPI_Barrier(c), MPI_ERR_NOT_SAME);
	CHECK_CLASS(MPI_Bcast(&v, 1, MPI_INT, 0, c), MPI_ERR_NOT_SAME);
	CHECK_CLASS(MPI_Allreduce(&v, &w, 1, MPI_INT, MPI_SUM, c), MPI_ERR_NOT_SAME);
	CHECK_CLASS(MPI_Ibarrier(c, &q), MPI_ERR_NOT_SAME);
	CHECK_CLASS(MPI_Comm_dup(c, &d), MPI_ERR_NOT_SAME);
	CHECK(d == MPI_COMM_NULL);
	CHECK_MPI(MPI_Comm_free(&c));
}

/* Let rank 0 go on only after every other rank has failed (so its next call cannot be
 * taken for the others' one). */
static void others_first(void)
{
	int t = 0;

	if (rank == 0)
		for (int i = 1; i < size; i++)
			CHECK_MPI(MPI_Recv(&t, 1, MPI_INT, i, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
	else
		CHECK_MPI(MPI_Send(&t, 1, MPI_INT, 0, 99, MPI_COMM_WORLD));
}

int main(int argc, char **argv)
{
	/* Larger than any ring reduction: 512 KiB. */
	static int big[128 * 1024], out[128 * 1024];
	int a[4] = { 0 }, b[4] = { 0 };
	MPI_Comm c, d;
	MPI_Request q;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);

	/* A blocking Barrier (a flag) against a small Bcast (a ring) from the barrier's rank:
	 * nobody can finish. */
	c = fresh();
	if (rank == 0)
		CHECK_CLASS(MPI_Barrier(c), MPI_ERR_NOT_SAME);
	else
		CHECK_CLASS(MPI_Bcast(a, 1, MPI_INT, 0, c), MPI_ERR_NOT_SAME);
	broken(c);

	/* A small Bcast's root returns at once; the others' Barrier fails, and so does the
	 * root's next collective there. */
	c = fresh();
	if (rank == 0)
		CHECK_MPI(MPI_Bcast(a, 1, MPI_INT, 0, c));
	else
		CHECK_CLASS(MPI_Barrier(c), MPI_ERR_NOT_SAME);
	others_first();
	broken(c);

	/* A blocking Barrier against a nonblocking one (MPI never matches the two). */
	c = fresh();
	if (rank == 0) {
		CHECK_MPI(MPI_Ibarrier(c, &q));
		CHECK_CLASS(MPI_Wait(&q, MPI_STATUS_IGNORE), MPI_ERR_NOT_SAME);
	} else {
		CHECK_CLASS(MPI_Barrier(c), MPI_ERR_NOT_SAME);
	}
	broken(c);

	/* A small Allreduce (a ring) against a large one (a meeting): counts that differ. */
	c = fresh();
	CHECK_CLASS(MPI_Allreduce(big, out, rank == 0 ? 1 : 128 * 1024, MPI_INT, MPI_SUM, c),
		    MPI_ERR_NOT_SAME);
	broken(c);

	/* Creation (a meeting) against a Barrier. */
	c = fresh();
	d = MPI_COMM_NULL;
	if (rank == 0)
		CHECK_CLASS(MPI_Comm_dup(c, &d), MPI_ERR_NOT_SAME);
	else
		CHECK_CLASS(MPI_Barrier(c), MPI_ERR_NOT_SAME);
	CHECK(d == MPI_COMM_NULL);
	broken(c);

	/* Out of step: a small Bcast's root returns at once and its next call, a Barrier,
	 * completes the others' Barrier; their Bcast then gets the root's data of an earlier
	 * collective, which its number shows. Every other rank's Bcast fails (at entry, if
	 * its Barrier already found the mismatch). */
	c = fresh();
	if (rank == 0) {
		CHECK_MPI(MPI_Bcast(a, 1, MPI_INT, 0, c));
		int rc = MPI_Barrier(c);
		if (rc != MPI_SUCCESS)
			CHECK_CLASS(rc, MPI_ERR_NOT_SAME);
	} else {
		int rc = MPI_Barrier(c);
		if (rc != MPI_SUCCESS)
			CHECK_CLASS(rc, MPI_ERR_NOT_SAME);
		CHECK_CLASS(MPI_Bcast(a, 1, MPI_INT, 0, c), MPI_ERR_NOT_SAME);
	}
	others_first();
	broken(c);

	/* The same with a small Reduce, whose non-roots return at once: the root's Reduce
	 * finds segments of another collective number. */
	c = fresh();
	if (rank == 0) {
		int rc = MPI_Barrier(c);
		if (rc != MPI_SUCCESS)
			CHECK_CLASS(rc, MPI_ERR_NOT_SAME);
		CHECK_CLASS(MPI_Reduce(a, b, 1, MPI_INT, MPI_SUM, 0, c), MPI_ERR_NOT_SAME);
	} else {
		int rc = MPI_Reduce(a, b, 1, MPI_INT, MPI_SUM, 0, c);
		if (rc != MPI_SUCCESS)
			CHECK_CLASS(rc, MPI_ERR_NOT_SAME);
		rc = MPI_Barrier(c);
		if (rc != MPI_SUCCESS)
			CHECK_CLASS(rc, MPI_ERR_NOT_SAME);
	}
	others_first();
	broken(c);

	/* One ring, two calls: a Reduce to 0 against an Allreduce. Whoever reads a result
	 * is told; a Reduce non-root (none here but rank 0 reduces) returns at once. */
	c = fresh();
	a[0] = rank;
	if (rank == 0)
		CHECK_CLASS(MPI_Reduce(a, b, 1, MPI_INT, MPI_SUM, 0, c), MPI_ERR_NOT_SAME);
	else
		CHECK_CLASS(MPI_Allreduce(a, b, 1, MPI_INT, MPI_SUM, c), MPI_ERR_NOT_SAME);
	/* Still usable. */
	CHECK_MPI(MPI_Allreduce(a, b, 1, MPI_INT, MPI_SUM, c));
	CHECK_INT(b[0], size * (size - 1) / 2);

	/* Small Bcast counts: the root sends 2 ints into 1 (truncated), then 1 into 2. */
	a[0] = a[1] = 5;
	int rc = MPI_Bcast(a, rank == 0 ? 2 : 1, MPI_INT, 0, c);
	if (rank != 0)
		CHECK_CLASS(rc, MPI_ERR_TRUNCATE);
	rc = MPI_Bcast(a, rank == 0 ? 1 : 2, MPI_INT, 0, c);
	if (rank != 0)
		CHECK_CLASS(rc, MPI_ERR_COUNT);
	CHECK_MPI(MPI_Barrier(c));
	a[0] = rank == 1 ? 42 : 0;
	CHECK_MPI(MPI_Bcast(a, 1, MPI_INT, 1, c));
	CHECK_INT(a[0], 42);
	CHECK_MPI(MPI_Comm_free(&c));

	/* MPI_COMM_WORLD itself was never touched. */
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
