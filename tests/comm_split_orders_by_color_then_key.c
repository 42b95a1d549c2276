/* comm_split_orders_by_color_then_key: MPI_Comm_split groups ranks by color, orders each new
 * communicator by key then by parent rank, and gives MPI_UNDEFINED callers MPI_COMM_NULL. */
/* ranks: 1 2 4 8 64 */
#include "check.h"

int main(int argc, char **argv)
{
	int rank, size;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);

	/* Three colors; key reverses the order inside each color. */
	MPI_Comm c;
	int color = rank % 3, key = size - rank;
	CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, color, key, &c));
	int crank = -1, csize = -1, expect_size = 0, expect_rank = 0;
	for (int i = 0; i < size; i++)
		if (i % 3 == color) {
			expect_size++;
			if (i > rank)
				expect_rank++;
		}
	CHECK_MPI(MPI_Comm_rank(c, &crank));
	CHECK_MPI(MPI_Comm_size(c, &csize));
	CHECK_INT(csize, expect_size);
	CHECK_INT(crank, expect_rank);

	/* The new ranks map back to the right world ranks. */
	MPI_Group wg, cg;
	CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &wg));
	CHECK_MPI(MPI_Comm_group(c, &cg));
	for (int i = 0; i < csize; i++) {
		int w = -1;
		CHECK_MPI(MPI_Group_translate_ranks(cg, 1, &i, wg, &w));
		CHECK_INT(w % 3, color);
		if (i == crank)
			CHECK_INT(w, rank);
	}
	MPI_Group_free(&wg);
	MPI_Group_free(&cg);

	/* Traffic on the new communicator: a ring inside each color. */
	int token = rank, got = -1;
	CHECK_MPI(MPI_Sendrecv(&token, 1, MPI_INT, (crank + 1) % csize, 7, &got, 1, MPI_INT,
			       (crank + csize - 1) % csize, 7, c, MPI_STATUS_IGNORE));
	CHECK_INT(got % 3, color);
	CHECK_MPI(MPI_Comm_free(&c));
	CHECK(c == MPI_COMM_NULL);

	/* Equal keys keep parent order; odd ranks opt out. */
	CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2 ? MPI_UNDEFINED : 0, 0, &c));
	if (rank % 2) {
		CHECK(c == MPI_COMM_NULL);
	} else {
		CHECK_MPI(MPI_Comm_rank(c, &crank));
		CHECK_INT(crank, rank / 2);
		CHECK_MPI(MPI_Comm_free(&c));
	}
	CHECK_MPI(MPI_Finalize());
	return 0;
}
