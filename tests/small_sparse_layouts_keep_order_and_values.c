/* small_sparse_layouts_keep_order_and_values: messages of 300 B to 1 KiB in sparse layouts
 * (a column of doubles, a vector of ints with wide gaps), which their senders pack and
 * complete at once, arrive with their values, in order with contiguous and synchronous
 * messages between the same ranks, into dense and strided receive layouts, whether the
 * receive is posted first or the message waits unexpected; the sender may overwrite its
 * buffer as soon as the send completes; a receive too small for one reports
 * MPI_ERR_TRUNCATE. */
/* ranks: 2 4 24 */
#include "check.h"

#define ROWS 96        /* a column of 96 doubles: 768 bytes */
#define COLS 33
#define ROUNDS 40

static double value(int round, int row)
{
	return round * 1000.0 + row + 0.25;
}

int main(int argc, char **argv)
{
	int rank, size;
	MPI_Datatype column, gappy;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	CHECK_MPI(MPI_Type_vector(ROWS, 1, COLS, MPI_DOUBLE, &column));
	CHECK_MPI(MPI_Type_commit(&column));
	/* 80 ints (320 bytes), each 5 ints apart. */
	CHECK_MPI(MPI_Type_vector(80, 1, 5, MPI_INT, &gappy));
	CHECK_MPI(MPI_Type_commit(&gappy));
	double *grid = calloc(ROWS * COLS, sizeof(double));
	int *ints = calloc(80 * 5, sizeof(int));
	CHECK(grid != NULL && ints != NULL);

	int peer = rank ^ 1;
	if (peer < size && rank % 2 == 0) {
		/* Each round: a column (Isend, then its buffer is overwritten at once), a
		 * contiguous int, the gappy ints (MPI_Send), a synchronous column. */
		for (int k = 0; k < ROUNDS; k++) {
			MPI_Request req;
			int col = k % COLS, tag = 4 * k;
			for (int i = 0; i < ROWS; i++)
				grid[i * COLS + col] = value(k, i);
			for (int i = 0; i < 80; i++)
				ints[i * 5] = k * 100 + i;
			CHECK_MPI(MPI_Isend(&grid[col], 1, column, peer, tag, MPI_COMM_WORLD, &req));
			CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
			for (int i = 0; i < ROWS; i++)
				grid[i * COLS + col] = -1.0;
			CHECK_MPI(MPI_Send(&k, 1, MPI_INT, peer, tag + 1, MPI_COMM_WORLD));
			CHECK_MPI(MPI_Send(ints, 1, gappy, peer, tag + 2, MPI_COMM_WORLD));
			for (int i = 0; i < ROWS; i++)
				grid[i * COLS + col] = value(k, i);
			CHECK_MPI(MPI_Ssend(&grid[col], 1, column, peer, tag + 3, MPI_COMM_WORLD));
			if (k == ROUNDS / 2)  /* the rest wait unexpected for a while */
				CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
		}
		/* One more column, for a receive that is too small. */
		CHECK_MPI(MPI_Send(&grid[0], 1, column, peer, 9999, MPI_COMM_WORLD));
	} else if (peer < size) {
		double dense[ROWS];
		int n, got[80];
		MPI_Status st;
		for (int k = 0; k < ROUNDS; k++) {
			int tag = 4 * k, col = (k * 7) % COLS, first;
			if (k == ROUNDS / 2 + 1)
				CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
			/* The column into a dense array on even rounds, into a column elsewhere
			 * on odd ones. */
			if (k % 2 == 0) {
				CHECK_MPI(MPI_Recv(dense, ROWS, MPI_DOUBLE, peer, tag, MPI_COMM_WORLD,
						   &st));
				CHECK_MPI(MPI_Get_count(&st, MPI_DOUBLE, &n));
				CHECK_INT(n, ROWS);
				for (int i = 0; i < ROWS; i++)
					CHECK_DBL_CMP(dense[i], ==, value(k, i));
			} else {
				CHECK_MPI(MPI_Recv(&grid[col], 1, column, peer, tag, MPI_COMM_WORLD,
						   MPI_STATUS_IGNORE));
				for (int i = 0; i < ROWS; i++)
					CHECK_DBL_CMP(grid[i * COLS + col], ==, value(k, i));
			}
			CHECK_MPI(MPI_Recv(&first, 1, MPI_INT, peer, tag + 1, MPI_COMM_WORLD,
					   MPI_STATUS_IGNORE));
			CHECK_INT(first, k);
			CHECK_MPI(MPI_Recv(got, 80, MPI_INT, peer, tag + 2, MPI_COMM_WORLD,
					   MPI_STATUS_IGNORE));
			for (int i = 0; i < 80; i++)
				CHECK_INT(got[i], k * 100 + i);
			CHECK_MPI(MPI_Recv(dense, ROWS, MPI_DOUBLE, peer, tag + 3, MPI_COMM_WORLD,
					   MPI_STATUS_IGNORE));
			for (int i = 0; i < ROWS; i++)
				CHECK_DBL_CMP(dense[i], ==, value(k, i));
		}
		MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
		CHECK_CLASS(MPI_Recv(dense, ROWS - 1, MPI_DOUBLE, peer, 9999, MPI_COMM_WORLD, &st),
			    MPI_ERR_TRUNCATE);
	} else {
		CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	}
	MPI_Type_free(&column);
	MPI_Type_free(&gappy);
	free(grid);
	free(ints);
	MPI_Finalize();
	return 0;
}
