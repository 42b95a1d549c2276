/* coll_bad_arguments_return_error_classes: with MPI_ERRORS_RETURN, collectives report an
 * invalid root (MPI_ERR_ROOT), count (MPI_ERR_COUNT), datatype (MPI_ERR_TYPE), op or op not
 * defined on the type (MPI_ERR_OP), aliased buffers (MPI_ERR_BUFFER), Scan on an
 * intercommunicator (MPI_ERR_COMM), and mismatched calls: different roots (MPI_ERR_ROOT),
 * different collectives (MPI_ERR_NOT_SAME), a receive too small (MPI_ERR_TRUNCATE). */
/* ranks: 1 2 3 4 */
#include "check.h"

int main(int argc, char **argv)
{
	int rank, size, a[4] = { 0 }, b[4] = { 0 };

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
	MPI_Comm w = MPI_COMM_WORLD;
	CHECK_CLASS(MPI_Bcast(a, 1, MPI_INT, size, w), MPI_ERR_ROOT);
	CHECK_CLASS(MPI_Bcast(a, 1, MPI_INT, -1, w), MPI_ERR_ROOT);
	CHECK_CLASS(MPI_Reduce(a, b, 1, MPI_INT, MPI_SUM, MPI_ROOT, w), MPI_ERR_ROOT);
	CHECK_CLASS(MPI_Bcast(a, -1, MPI_INT, 0, w), MPI_ERR_COUNT);
	CHECK_CLASS(MPI_Allreduce(a, b, 1, MPI_DATATYPE_NULL, MPI_SUM, w), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Allreduce(a, b, 1, MPI_INT, MPI_OP_NULL, w), MPI_ERR_OP);
	CHECK_CLASS(MPI_Allreduce(a, b, 1, MPI_DOUBLE, MPI_BAND, w), MPI_ERR_OP);
	CHECK_CLASS(MPI_Allreduce(a, b, 1, MPI_C_DOUBLE_COMPLEX, MPI_MAX, w), MPI_ERR_OP);
	CHECK_CLASS(MPI_Allreduce(a, b, 1, MPI_INT, MPI_MINLOC, w), MPI_ERR_OP);
	CHECK_CLASS(MPI_Allreduce(a, b, 1, MPI_INT, MPI_REPLACE, w), MPI_ERR_OP);
	CHECK_CLASS(MPI_Allreduce(a, a, 1, MPI_INT, MPI_SUM, w), MPI_ERR_BUFFER);
	CHECK_CLASS(MPI_Allgather(a, 1, MPI_INT, a, 1, MPI_INT, w), MPI_ERR_BUFFER);
	CHECK_CLASS(MPI_Barrier(MPI_COMM_NULL), MPI_ERR_COMM);
	MPI_Request q;
	CHECK_CLASS(MPI_Ibarrier(w, NULL), MPI_ERR_REQUEST);
	CHECK_CLASS(MPI_Iallreduce(a, b, 1, MPI_INT, MPI_OP_NULL, w, &q), MPI_ERR_OP);
	MPI_Datatype unc;
	CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &unc));
	CHECK_CLASS(MPI_Bcast(a, 1, unc, 0, w), MPI_ERR_TYPE);
	CHECK_MPI(MPI_Type_free(&unc));

	/* Mismatches only exist with two or more ranks; every rank gets the error. */
	if (size > 1) {
		/* Above SHOAL_COLL_SMALL_MAX a Bcast meets (at 2 ranks its root waits for the
		 * reader, which tells it), so every rank sees both roots. */
		static int big[2048];
		CHECK_CLASS(MPI_Bcast(big, 2048, MPI_INT, rank == 0 ? 0 : 1, w), MPI_ERR_ROOT);
		/* Different collectives meeting: every rank gets MPI_ERR_NOT_SAME. (Blocking
		 * Barrier against a small Bcast take paths that cannot see each other; that
		 * hang is reported by the deadlock check: deadlock_is_reported_not_hung.) */
		if (rank == 0)
			CHECK_CLASS(MPI_Ibarrier(w, &q), MPI_SUCCESS);
		else
			CHECK_CLASS(MPI_Ibcast(a, 1, MPI_INT, 0, w, &q), MPI_SUCCESS);
		CHECK_CLASS(MPI_Wait(&q, MPI_STATUS_IGNORE), MPI_ERR_NOT_SAME);
		/* The root sends 2 ints; rank 1 has room for 1 and reports it. (A small Bcast's
		 * root does not wait for the readers, so it cannot know.) */
		int rc = MPI_Bcast(a, rank == 1 ? 1 : 2, MPI_INT, 0, w);
		CHECK_CLASS(rc, rank == 1 ? MPI_ERR_TRUNCATE : MPI_SUCCESS);
		/* Different predefined ops. */
		CHECK_CLASS(MPI_Allreduce(a, b, 1, MPI_INT, rank ? MPI_MAX : MPI_SUM, w),
			    MPI_ERR_OP);
		/* The communicator still works afterwards. */
		a[0] = rank;
		CHECK_MPI(MPI_Allreduce(a, b, 1, MPI_INT, MPI_SUM, w));
		CHECK_INT(b[0], size * (size - 1) / 2);

		MPI_Comm half, inter;
		if (size >= 2) {
			CHECK_MPI(MPI_Comm_split(w, rank % 2, rank, &half));
			CHECK_MPI(MPI_Intercomm_create(half, 0, w, !(rank % 2), 1, &inter));
			CHECK_MPI(MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN));
			CHECK_CLASS(MPI_Scan(a, b, 1, MPI_INT, MPI_SUM, inter), MPI_ERR_COMM);
			CHECK_CLASS(MPI_Allreduce(MPI_IN_PLACE, b, 1, MPI_INT, MPI_SUM, inter),
				    MPI_ERR_BUFFER);
			CHECK_CLASS(MPI_Bcast(a, 1, MPI_INT, 5, inter), MPI_ERR_ROOT);
			CHECK_MPI(MPI_Comm_free(&inter));
			CHECK_MPI(MPI_Comm_free(&half));
		}
	}
	CHECK_MPI(MPI_Finalize());
	return 0;
}
