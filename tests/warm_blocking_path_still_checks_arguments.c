/* warm_blocking_path_still_checks_arguments: once a pair of ranks has exchanged small
 * messages (so MPI_Send has a fastbox cell to write and MPI_Recv a cell to watch), bad
 * arguments to MPI_Send and MPI_Recv still fail with their error classes under
 * MPI_ERRORS_RETURN and send nothing: the next message received is the next valid one.
 * The warm path's receives fill the status as the checked path does (source and tag in
 * the communicator, count, MPI_ERROR left as it was), on MPI_COMM_WORLD and on a
 * communicator whose ranks run the other way; MPI_PROC_NULL still completes at once. */
/* ranks: 2 3 64 */
#include "check.h"

enum { ROUNDS = 20, SENTINEL = 12345 };

/* Rounds of ping-pong between `me` and `partner`, ranks of `comm` (`me` sends first if
 * `first`); every message is checked, `bytes` long, tagged with its round. */
static void ping_pong(MPI_Comm comm, int me, int partner, int first, int bytes,
		      unsigned char seed)
{
	unsigned char out[64], in[64];

	for (int k = 0; k < ROUNDS; k++) {
		int count = -1;
		MPI_Status st;
		for (int i = 0; i < bytes; i++)
			out[i] = (unsigned char)(seed + 7 * k + i + me);
		st.MPI_ERROR = SENTINEL;
		if (first)
			CHECK_MPI(MPI_Send(out, bytes, MPI_BYTE, partner, k, comm));
		CHECK_MPI(MPI_Recv(in, (int)sizeof in, MPI_BYTE, partner, k % 2 ? MPI_ANY_TAG : k,
				   comm, &st));
		if (!first)
			CHECK_MPI(MPI_Send(out, bytes, MPI_BYTE, partner, k, comm));
		CHECK_INT(st.MPI_SOURCE, partner);
		CHECK_INT(st.MPI_TAG, k);
		CHECK_INT(st.MPI_ERROR, SENTINEL);
		MPI_Get_count(&st, MPI_BYTE, &count);
		CHECK_INT(count, bytes);
		for (int i = 0; i < bytes; i++)
			CHECK_INT(in[i], (unsigned char)(seed + 7 * k + i + partner));
	}
}

int main(int argc, char **argv)
{
	int rank, size, v = 7, w = 0;
	MPI_Comm reversed;
	MPI_Status st;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
	int partner = rank ^ 1;
	if (partner >= size) {  /* the odd one out of an odd size */
		CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &reversed));
		CHECK_MPI(MPI_Comm_free(&reversed));
		MPI_Finalize();
		return 0;
	}

	for (int bytes = 0; bytes <= 64; bytes = bytes ? 2 * bytes : 1)
		ping_pong(MPI_COMM_WORLD, rank, partner, rank % 2 == 0, bytes,
			  (unsigned char)bytes);

	if (rank % 2 == 0) {
		const int bad_tags[] = { MPI_ANY_TAG, -2, MPI_TAG_UB_VALUE + 1 };
		for (unsigned i = 0; i < sizeof bad_tags / sizeof bad_tags[0]; i++)
			CHECK_CLASS(MPI_Send(&v, 1, MPI_INT, partner, bad_tags[i], MPI_COMM_WORLD),
				    MPI_ERR_TAG);
		CHECK_CLASS(MPI_Send(&v, 1, MPI_INT, size, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
		CHECK_CLASS(MPI_Send(&v, 1, MPI_INT, -7, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
		CHECK_CLASS(MPI_Send(&v, -1, MPI_INT, partner, 0, MPI_COMM_WORLD), MPI_ERR_COUNT);
		CHECK_CLASS(MPI_Send(NULL, 1, MPI_INT, partner, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER);
		CHECK_CLASS(MPI_Send(&v, 1, MPI_DATATYPE_NULL, partner, 0, MPI_COMM_WORLD),
			    MPI_ERR_TYPE);
		CHECK_MPI(MPI_Send(&v, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD));
		CHECK_MPI(MPI_Send(&v, 1, MPI_INT, partner, 99, MPI_COMM_WORLD));
	} else {
		CHECK_CLASS(MPI_Recv(&w, 1, MPI_INT, size, 0, MPI_COMM_WORLD, &st), MPI_ERR_RANK);
		CHECK_CLASS(MPI_Recv(&w, 1, MPI_INT, partner, -3, MPI_COMM_WORLD, &st), MPI_ERR_TAG);
		CHECK_CLASS(MPI_Recv(&w, -1, MPI_INT, partner, 0, MPI_COMM_WORLD, &st),
			    MPI_ERR_COUNT);
		CHECK_CLASS(MPI_Recv(NULL, 1, MPI_INT, partner, 0, MPI_COMM_WORLD, &st),
			    MPI_ERR_BUFFER);
		CHECK_MPI(MPI_Recv(&w, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &st));
		CHECK_INT(st.MPI_SOURCE, MPI_PROC_NULL);
		CHECK_INT(st.MPI_TAG, MPI_ANY_TAG);
		/* The failed sends sent nothing: the first message here is the valid one. */
		CHECK_MPI(MPI_Recv(&w, 1, MPI_INT, partner, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
		CHECK_INT(st.MPI_TAG, 99);
		CHECK_INT(w, 7);
	}

	/* Ranks the other way round: a pair's ranks in `reversed` are not its world ranks. */
	CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &reversed));
	CHECK_MPI(MPI_Comm_set_errhandler(reversed, MPI_ERRORS_RETURN));
	int me, other;
	MPI_Comm_rank(reversed, &me);
	other = size - 1 - partner;
	CHECK_INT(me, size - 1 - rank);
	ping_pong(reversed, me, other, rank % 2 == 0, 8, 3);
	CHECK_MPI(MPI_Comm_free(&reversed));
	MPI_Finalize();
	return 0;
}
