/* coll_mismatched_calls_return_errors_on_every_rank: detectable collective mismatches and invalid ops give clear errors, never hangs */
/* ranks: 1 2 3 4 8 */
/* With MPI_ERRORS_RETURN: a communicator freed twice (MPI_ERR_COMM), an op not defined on
 * the type, blocking and nonblocking (MPI_ERR_OP), different roots on every rooted
 * collective (MPI_ERR_ROOT on every rank, also through MPI_Wait; on the ranks that can see it,
 * at least one, for the small Bcast and Reduce whose roots do not wait), reduction counts that
 * differ (MPI_ERR_COUNT on every rank), a small reduction's basic types that differ
 * (MPI_ERR_TYPE on every rank), a block larger than its receive slot
 * (MPI_ERR_TRUNCATE), and nonblocking calls that do not match while holding a freed derived
 * type (MPI_ERR_NOT_SAME from MPI_Wait). Afterwards the communicators still work. */
#include "check.h"

int main(int argc, char **argv)
{
	int rank, size, a[8] = { 0 }, b[8 * 64] = { 0 }, p2[2] = { 1, 2 }, q2[2];
	double d = 1.0, e = 0.0;
	MPI_Comm w = MPI_COMM_WORLD, c, keep;
	MPI_Request q;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(w, &rank);
	MPI_Comm_size(w, &size);
	CHECK_CMP(size, <=, 64);
	CHECK_MPI(MPI_Comm_set_errhandler(w, MPI_ERRORS_RETURN));
	/* Errors with no valid communicator (MPI_COMM_NULL) go to MPI_COMM_SELF's handler. */
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));

	/* A communicator freed twice: the first free sets the handle to MPI_COMM_NULL. */
	CHECK_MPI(MPI_Comm_dup(w, &c));
	CHECK_MPI(MPI_Comm_free(&c));
	CHECK(c == MPI_COMM_NULL);
	CHECK_CLASS(MPI_Comm_free(&c), MPI_ERR_COMM);
	CHECK(c == MPI_COMM_NULL);

	/* Ops not defined on the type: rejected before any meeting, so no rank waits. */
	CHECK_CLASS(MPI_Allreduce(p2, q2, 1, MPI_2INT, MPI_SUM, w), MPI_ERR_OP);
	CHECK_CLASS(MPI_Reduce(p2, q2, 1, MPI_2INT, MPI_PROD, 0, w), MPI_ERR_OP);
	CHECK_CLASS(MPI_Allreduce(&d, &e, 1, MPI_DOUBLE, MPI_BAND, w), MPI_ERR_OP);
	CHECK_CLASS(MPI_Iallreduce(&d, &e, 1, MPI_DOUBLE, MPI_BAND, w, &q), MPI_ERR_OP);
	CHECK_CLASS(MPI_Ireduce(p2, q2, 1, MPI_2INT, MPI_SUM, 0, w, &q), MPI_ERR_OP);
	CHECK_CLASS(MPI_Reduce_local(p2, q2, 1, MPI_2INT, MPI_SUM), MPI_ERR_OP);
	/* MINLOC on the pair type is fine. */
	CHECK_MPI(MPI_Allreduce(p2, q2, 1, MPI_2INT, MPI_MINLOC, w));
	CHECK_INT(q2[0], 1);
	CHECK_INT(q2[1], 2);

	if (size > 1) {
		int other = rank == 0 ? 0 : 1;

		/* Different roots: every rank gets MPI_ERR_ROOT, rooted collective by collective
		 * (a Bcast above SHOAL_COLL_SMALL_MAX meets, or at 2 ranks its root waits for
		 * the reader, which tells it: every rank sees every root). */
		static int big[2048];
		CHECK_CLASS(MPI_Bcast(big, 2048, MPI_INT, other, w), MPI_ERR_ROOT);
		/* Small blocking Bcast and Reduce go through the ring, where a root does not wait
		 * for the others: the ranks that see the mismatch report it, at least one does,
		 * none hangs, and the ring stays usable (checked below). */
		int seen = 0, any = 0, rc = MPI_Bcast(a, 1, MPI_INT, other, w);
		if (rc != MPI_SUCCESS) {
			CHECK_CLASS(rc, MPI_ERR_ROOT);
			seen = 1;
		}
		rc = MPI_Reduce(a, b, 1, MPI_INT, MPI_SUM, other, w);
		if (rc != MPI_SUCCESS) {
			CHECK_CLASS(rc, MPI_ERR_ROOT);
			seen |= 2;
		}
		CHECK_MPI(MPI_Allreduce(&seen, &any, 1, MPI_INT, MPI_BOR, w));
		CHECK_INT(any, 3);
		CHECK_CLASS(MPI_Gather(a, 1, MPI_INT, b, 1, MPI_INT, other, w), MPI_ERR_ROOT);
		CHECK_CLASS(MPI_Scatter(b, 1, MPI_INT, a, 1, MPI_INT, other, w), MPI_ERR_ROOT);
		CHECK_MPI(MPI_Ibcast(a, 1, MPI_INT, other, w, &q));
		CHECK_CLASS(MPI_Wait(&q, MPI_STATUS_IGNORE), MPI_ERR_ROOT);
		CHECK(q == MPI_REQUEST_NULL);

		/* Reduction counts that differ: MPI_ERR_COUNT everywhere, nothing written. */
		b[0] = b[1] = -7;
		CHECK_CLASS(MPI_Allreduce(a, b, rank == 0 ? 2 : 1, MPI_INT, MPI_SUM, w),
			    MPI_ERR_COUNT);
		CHECK_INT(b[0], -7);
		CHECK_MPI(MPI_Iallreduce(a, b, rank == size - 1 ? 2 : 1, MPI_INT, MPI_SUM, w, &q));
		CHECK_CLASS(MPI_Wait(&q, MPI_STATUS_IGNORE), MPI_ERR_COUNT);
		/* Datatypes of one size but different basic types (a small Allreduce):
		 * MPI_ERR_TYPE everywhere, nothing written. */
		float f = 1.0f;
		b[0] = -7;
		CHECK_CLASS(MPI_Allreduce(rank == 0 ? (void *)a : (void *)&f, b, 1,
					  rank == 0 ? MPI_INT : MPI_FLOAT, MPI_SUM, w),
			    MPI_ERR_TYPE);
		CHECK_INT(b[0], -7);
		/* Rank 0 sends two ints into everyone's one-int slot: every rank receives from it,
		 * so every rank is told its data was cut. */
		a[0] = a[1] = rank;
		CHECK_CLASS(MPI_Allgather(a, rank == 0 ? 2 : 1, MPI_INT, b, 1, MPI_INT, w),
			    MPI_ERR_TRUNCATE);

		/* Nonblocking calls that do not match, one holding a derived type its caller has
		 * already freed: both fail through MPI_Wait, and the type's hold is let go. */
		MPI_Datatype pair;
		CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &pair));
		CHECK_MPI(MPI_Type_commit(&pair));
		if (rank == 0)
			CHECK_MPI(MPI_Ibcast(a, 1, pair, 0, w, &q));
		else
			CHECK_MPI(MPI_Ibarrier(w, &q));
		CHECK_MPI(MPI_Type_free(&pair));
		CHECK_CLASS(MPI_Wait(&q, MPI_STATUS_IGNORE), MPI_ERR_NOT_SAME);
	}

	/* Everything still works: on WORLD and on a new communicator. */
	a[0] = rank;
	CHECK_MPI(MPI_Allreduce(a, b, 1, MPI_INT, MPI_SUM, w));
	CHECK_INT(b[0], size * (size - 1) / 2);
	CHECK_MPI(MPI_Comm_dup(w, &keep));
	CHECK_MPI(MPI_Bcast(a, 1, MPI_INT, size - 1, keep));
	CHECK_INT(a[0], size - 1);
	CHECK_MPI(MPI_Comm_free(&keep));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
