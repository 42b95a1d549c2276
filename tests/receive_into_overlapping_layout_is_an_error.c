/* receive_into_overlapping_layout_is_an_error: a receive or unpack whose datatype writes some
 * byte twice (within an element, or between elements whose extent is smaller than their
 * data) fails with MPI_ERR_TYPE; sending with such a type and interleaved layouts are fine. */
/* ranks: 1 2 */
#include "check.h"

/* Every receive flavour must refuse `t` (count elements) before touching the buffer. */
static void refused(MPI_Datatype t, int count)
{
	int buf[64] = { 0 }, pos = 0, rank;
	char packed[256] = { 0 };
	MPI_Request req;
	MPI_Message msg = MPI_MESSAGE_NO_PROC;

	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	CHECK_CLASS(MPI_Recv(buf, count, t, rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
		    MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Recv(buf, count, t, MPI_PROC_NULL, 0, MPI_COMM_WORLD,
			     MPI_STATUS_IGNORE), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Irecv(buf, count, t, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &req),
		    MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Recv_init(buf, count, t, rank, 0, MPI_COMM_WORLD, &req), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Sendrecv(buf, 1, MPI_INT, MPI_PROC_NULL, 0, buf, count, t, rank, 0,
				 MPI_COMM_WORLD, MPI_STATUS_IGNORE), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Mrecv(buf, count, t, &msg, MPI_STATUS_IGNORE), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Unpack(packed, sizeof packed, &pos, buf, count, t, MPI_COMM_WORLD),
		    MPI_ERR_TYPE);
	CHECK_INT(pos, 0);
	MPI_Aint xpos = 0;
	CHECK_CLASS(MPI_Unpack_external("external32", packed, sizeof packed, &xpos, buf, count,
					t), MPI_ERR_TYPE);
	CHECK_INT(xpos, 0);
	for (int i = 0; i < 64; i++)
		CHECK_INT(buf[i], 0);
}

/* Receiving `count` of `t` (holding `n` ints) from this rank itself works, and the first
 * `span` ints of the buffer then read `want`. */
static void accepted(MPI_Datatype t, int count, int n, int span, const int *want)
{
	int src[64], buf[64], rank;
	MPI_Request req;

	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	for (int i = 0; i < 64; i++) {
		src[i] = i + 1;
		buf[i] = 0;
	}
	CHECK_MPI(MPI_Irecv(buf, count, t, rank, 7, MPI_COMM_WORLD, &req));
	CHECK_MPI(MPI_Send(src, n, MPI_INT, rank, 7, MPI_COMM_WORLD));
	CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
	for (int i = 0; i < span; i++)
		CHECK_INT(buf[i], want[i]);
}

int main(int argc, char **argv)
{
	int rank, size;
	MPI_Datatype vec, pair, squeezed, rep, unsorted, col, interleaved, big, big_ok, disjoint;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);

	/* Blocks of 2 ints, 1 int apart: the middle int is written twice. */
	CHECK_MPI(MPI_Type_vector(2, 2, 1, MPI_INT, &vec));
	CHECK_MPI(MPI_Type_commit(&vec));
	refused(vec, 1);

	/* Two ints squeezed into an extent of one: fine alone, overlapping from 2 elements. */
	CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &pair));
	CHECK_MPI(MPI_Type_create_resized(pair, 0, sizeof(int), &squeezed));
	CHECK_MPI(MPI_Type_commit(&squeezed));
	refused(squeezed, 2);
	accepted(squeezed, 1, 2, 2, (const int[]){ 1, 2 });

	/* Indexed with a repeated displacement, and unsorted blocks that overlap. */
	CHECK_MPI(MPI_Type_indexed(2, (const int[]){ 1, 1 }, (const int[]){ 3, 3 }, MPI_INT, &rep));
	CHECK_MPI(MPI_Type_commit(&rep));
	refused(rep, 1);
	CHECK_MPI(MPI_Type_indexed(3, (const int[]){ 2, 2, 2 }, (const int[]){ 4, 0, 3 }, MPI_INT,
				   &unsorted));
	CHECK_MPI(MPI_Type_commit(&unsorted));
	refused(unsorted, 1);

	/* Unsorted but disjoint blocks are a legal receive layout. */
	CHECK_MPI(MPI_Type_indexed(3, (const int[]){ 1, 2, 1 }, (const int[]){ 5, 0, 3 }, MPI_INT,
				   &disjoint));
	CHECK_MPI(MPI_Type_commit(&disjoint));
	accepted(disjoint, 1, 4, 6, (const int[]){ 2, 3, 0, 4, 0, 1 });

	/* A column of a 3x3 matrix resized to one int: 3 elements interleave without overlap
	 * (the extent is smaller than the data, yet no byte is written twice). */
	CHECK_MPI(MPI_Type_vector(3, 1, 3, MPI_INT, &col));
	CHECK_MPI(MPI_Type_create_resized(col, 0, sizeof(int), &interleaved));
	CHECK_MPI(MPI_Type_commit(&interleaved));
	accepted(interleaved, 3, 9, 9, (const int[]){ 1, 4, 7, 2, 5, 8, 3, 6, 9 });

	/* Too many runs to sort: the plain vector is still decided exactly. */
	CHECK_MPI(MPI_Type_vector(100000, 2, 1, MPI_INT, &big));
	CHECK_MPI(MPI_Type_commit(&big));
	CHECK_MPI(MPI_Type_vector(100000, 1, 2, MPI_INT, &big_ok));
	CHECK_MPI(MPI_Type_commit(&big_ok));
	refused(big, 1);
	CHECK_MPI(MPI_Recv(NULL, 1, big_ok, MPI_PROC_NULL, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));

	/* Sending with an overlapping layout only reads twice: legal. */
	if (size == 2) {
		int src[3] = { 10, 20, 30 }, got[4] = { 0 };
		if (rank == 0) {
			CHECK_MPI(MPI_Send(src, 1, vec, 1, 3, MPI_COMM_WORLD));
		} else {
			CHECK_MPI(MPI_Recv(got, 4, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
			CHECK_INT(got[0], 10);
			CHECK_INT(got[1], 20);
			CHECK_INT(got[2], 20);
			CHECK_INT(got[3], 30);
		}
	} else {
		int src[3] = { 10, 20, 30 }, got[4] = { 0 }, pos = 0;
		char packed[64];
		CHECK_MPI(MPI_Sendrecv(src, 1, vec, 0, 3, got, 4, MPI_INT, 0, 3, MPI_COMM_WORLD,
				       MPI_STATUS_IGNORE));
		CHECK_INT(got[1], 20);
		CHECK_INT(got[2], 20);
		CHECK_MPI(MPI_Pack(src, 1, vec, packed, sizeof packed, &pos, MPI_COMM_WORLD));
		CHECK_INT(pos, 4 * (int)sizeof(int));
	}

	MPI_Type_free(&vec);
	MPI_Type_free(&pair);
	MPI_Type_free(&squeezed);
	MPI_Type_free(&rep);
	MPI_Type_free(&unsorted);
	MPI_Type_free(&disjoint);
	MPI_Type_free(&col);
	MPI_Type_free(&interleaved);
	MPI_Type_free(&big);
	MPI_Type_free(&big_ok);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
