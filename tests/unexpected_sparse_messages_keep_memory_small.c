/* unexpected_sparse_messages_keep_memory_small: 20000 small sparse messages (a 512-byte
 * column each) sent with MPI_Isend while their receiver has posted nothing grow the
 * node's resident memory by little more than their payload while they wait unexpected
 * (Shoal packs them into buffers of their own size, not 16 KiB ones). All arrive intact
 * and in order. */
/* ranks: 2 */
/* asan: reads the node's resident memory, which ASan's shadow and quarantine inflate */
/* tsan: reads the node's resident memory, which TSan's shadow memory inflates */
#include "check.h"

enum { MSGS = 20000, ROWS = 64, COLS = 16 };

int main(int argc, char **argv)
{
	int rank;
	MPI_Datatype column;
	static double grid[ROWS * COLS];

	CHECK_MPI(MPI_Init(&argc, &argv));
	CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
	CHECK_MPI(MPI_Type_vector(ROWS, 1, COLS, MPI_DOUBLE, &column));
	CHECK_MPI(MPI_Type_commit(&column));
	/* A first message both ways, so that start-up allocations are not counted. */
	if (rank == 0) {
		CHECK_MPI(MPI_Send(grid, 1, column, 1, 0, MPI_COMM_WORLD));
	} else {
		double dense[ROWS];
		CHECK_MPI(MPI_Recv(dense, ROWS, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD,
				   MPI_STATUS_IGNORE));
	}
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	MPI_Request *req = malloc(MSGS * sizeof(*req));
	double *cols = malloc(MSGS * sizeof(grid));
	CHECK(req != NULL && cols != NULL);
	for (int k = 0; k < MSGS; k++)
		for (int i = 0; i < ROWS * COLS; i++)
			cols[(size_t)k * ROWS * COLS + i] = k + (i / COLS) * 0.001;
	/* Resident memory is the node's: both ranks' columns are written before it is read. */
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	long before = check_rss_kib();
	if (rank == 0)
		for (int k = 0; k < MSGS; k++)
			CHECK_MPI(MPI_Isend(&cols[(size_t)k * ROWS * COLS], 1, column, 1, 1,
					    MPI_COMM_WORLD, &req[k]));
	/* Every message is sent (and waits unexpected) before rank 1 receives any. */
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	long grown = check_rss_kib() - before;
	if (rank == 0)
		CHECK_MPI(MPI_Waitall(MSGS, req, MPI_STATUSES_IGNORE));
	if (rank == 1) {
		double dense[ROWS];
		for (int k = 0; k < MSGS; k++) {
			CHECK_MPI(MPI_Recv(dense, ROWS, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD,
					   MPI_STATUS_IGNORE));
			for (int i = 0; i < ROWS; i++)
				CHECK_DBL_CMP(dense[i], ==, k + i * 0.001);
		}
		/* The payloads are 10 MB; a 16 KiB buffer each kept at least a page resident
		 * (80 MB). Envelopes (384 B) and buffers (1 KiB) are 28 MB. */
		printf("resident memory grew by %ld KiB for %d messages\n", grown, MSGS);
		CHECK_CMP(grown, <, 48 * 1024);
	}
	free(req);
	free(cols);
	CHECK_MPI(MPI_Type_free(&column));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
