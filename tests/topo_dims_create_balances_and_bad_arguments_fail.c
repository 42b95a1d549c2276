/* topo_dims_create_balances_and_bad_arguments_fail: MPI_Dims_create fills the free
 * dimensions with the most balanced factors in non-increasing order and keeps the given
 * ones; and every topology call given bad arguments returns its error class under
 * MPI_ERRORS_RETURN (invalid dimensions, periods, graph edges to ranks out of range,
 * negative degrees, queries of another kind of topology, coordinates off a non-periodic
 * dimension) without creating anything or hanging. */
/* ranks: 1 2 4 16 64 */
#include "check.h"

static const struct {
	int nnodes, ndims, in[4], out[4];
} table[] = {
	{ 1, 1, { 0 }, { 1 } },
	{ 1, 3, { 0, 0, 0 }, { 1, 1, 1 } },
	{ 6, 2, { 0, 0 }, { 3, 2 } },
	{ 7, 2, { 0, 0 }, { 7, 1 } },
	{ 12, 2, { 0, 0 }, { 4, 3 } },
	{ 12, 3, { 0, 0, 0 }, { 3, 2, 2 } },
	{ 16, 2, { 0, 0 }, { 4, 4 } },
	{ 16, 3, { 0, 0, 0 }, { 4, 2, 2 } },
	{ 16, 4, { 0, 0, 0, 0 }, { 2, 2, 2, 2 } },
	{ 24, 3, { 0, 0, 0 }, { 4, 3, 2 } },
	{ 30, 2, { 0, 0 }, { 6, 5 } },
	{ 36, 3, { 0, 0, 0 }, { 4, 3, 3 } },
	{ 64, 3, { 0, 0, 0 }, { 4, 4, 4 } },
	{ 64, 2, { 0, 0 }, { 8, 8 } },
	{ 72, 3, { 0, 0, 0 }, { 6, 4, 3 } },
	{ 6, 3, { 0, 3, 0 }, { 2, 3, 1 } },
	{ 12, 3, { 0, 0, 2 }, { 3, 2, 2 } },
	{ 16, 3, { 1, 0, 0 }, { 1, 4, 4 } },
	{ 24, 2, { 0, 2 }, { 12, 2 } },
	{ 8, 2, { 2, 4 }, { 2, 4 } },
	{ 2147483647, 2, { 0, 0 }, { 2147483647, 1 } },  /* a prime */
	{ 1073741824, 3, { 0, 0, 0 }, { 1024, 1024, 1024 } },
};

int main(int argc, char **argv)
{
	int rank, size;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		int dims[4];
		memcpy(dims, table[i].in, sizeof(dims));
		CHECK_MPI(MPI_Dims_create(table[i].nnodes, table[i].ndims, dims));
		for (int d = 0; d < table[i].ndims; d++)
			CHECK_INT(dims[d], table[i].out[d]);
	}
	int dims[3] = { 0, 0, 0 }, neg[2] = { 0, -1 };
	CHECK_MPI(MPI_Dims_create(1, 0, NULL));
	CHECK_CLASS(MPI_Dims_create(6, -1, dims), MPI_ERR_DIMS);
	CHECK_CLASS(MPI_Dims_create(6, 2, neg), MPI_ERR_DIMS);
	CHECK_CLASS(MPI_Dims_create(7, 2, (int[]){ 2, 0 }), MPI_ERR_DIMS);
	CHECK_CLASS(MPI_Dims_create(6, 2, (int[]){ 4, 3 }), MPI_ERR_DIMS);
	CHECK_CLASS(MPI_Dims_create(6, 0, NULL), MPI_ERR_DIMS);
	CHECK_CLASS(MPI_Dims_create(0, 2, dims), MPI_ERR_ARG);

	/* Cartesian constructors. */
	MPI_Comm c = MPI_COMM_NULL;
	int per[3] = { 0, 0, 0 }, two[2] = { 1, size };
	CHECK_CLASS(MPI_Cart_create(MPI_COMM_WORLD, -1, two, per, 0, &c), MPI_ERR_DIMS);
	CHECK_CLASS(MPI_Cart_create(MPI_COMM_WORLD, 2, (int[]){ size, 0 }, per, 0, &c),
		    MPI_ERR_DIMS);
	CHECK_CLASS(MPI_Cart_create(MPI_COMM_WORLD, 2, (int[]){ -2, 1 }, per, 0, &c),
		    MPI_ERR_DIMS);
	CHECK_CLASS(MPI_Cart_create(MPI_COMM_WORLD, 2, (int[]){ size, 2 }, per, 1, &c),
		    MPI_ERR_DIMS);
	CHECK_CLASS(MPI_Cart_create(MPI_COMM_WORLD, 2, two, NULL, 0, &c), MPI_ERR_ARG);
	CHECK_CLASS(MPI_Cart_create(MPI_COMM_WORLD, 2, two, per, 0, NULL), MPI_ERR_ARG);
	CHECK_CLASS(MPI_Cart_create(MPI_COMM_NULL, 2, two, per, 0, &c), MPI_ERR_COMM);
	int nr;
	CHECK_CLASS(MPI_Cart_map(MPI_COMM_WORLD, 1, (int[]){ size + 1 }, per, &nr), MPI_ERR_DIMS);
	CHECK(c == MPI_COMM_NULL);

	/* Queries of a communicator without a topology, or of another kind. */
	int nd, coords[3], src, dst, status;
	CHECK_CLASS(MPI_Cartdim_get(MPI_COMM_WORLD, &nd), MPI_ERR_TOPOLOGY);
	CHECK_CLASS(MPI_Cart_coords(MPI_COMM_WORLD, 0, 3, coords), MPI_ERR_TOPOLOGY);
	CHECK_CLASS(MPI_Cart_shift(MPI_COMM_WORLD, 0, 1, &src, &dst), MPI_ERR_TOPOLOGY);
	CHECK_CLASS(MPI_Cart_sub(MPI_COMM_WORLD, per, &c), MPI_ERR_TOPOLOGY);
	CHECK_CLASS(MPI_Graphdims_get(MPI_COMM_WORLD, &nd, &nr), MPI_ERR_TOPOLOGY);
	CHECK_CLASS(MPI_Dist_graph_neighbors_count(MPI_COMM_WORLD, &nd, &nr, &src),
		    MPI_ERR_TOPOLOGY);
	CHECK_CLASS(MPI_Topo_test(MPI_COMM_NULL, &status), MPI_ERR_COMM);

	CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 2, two, (int[]){ 1, 0 }, 0, &c));
	CHECK_CLASS(MPI_Graphdims_get(c, &nd, &nr), MPI_ERR_TOPOLOGY);
	CHECK_CLASS(MPI_Graph_neighbors_count(c, 0, &nd), MPI_ERR_TOPOLOGY);
	CHECK_CLASS(MPI_Dist_graph_neighbors(c, 0, NULL, NULL, 0, NULL, NULL), MPI_ERR_TOPOLOGY);
	CHECK_CLASS(MPI_Cart_rank(c, (int[]){ 0, size }, &nr), MPI_ERR_ARG);
	CHECK_CLASS(MPI_Cart_rank(c, (int[]){ 0, -1 }, &nr), MPI_ERR_ARG);
	CHECK_MPI(MPI_Cart_rank(c, (int[]){ 5, 0 }, &nr));  /* periodic: wraps */
	CHECK_INT(nr, 0);
	CHECK_CLASS(MPI_Cart_coords(c, size, 2, coords), MPI_ERR_RANK);
	CHECK_CLASS(MPI_Cart_coords(c, 0, 1, coords), MPI_ERR_ARG);
	CHECK_CLASS(MPI_Cart_get(c, 1, coords, coords, coords), MPI_ERR_ARG);
	CHECK_CLASS(MPI_Cart_shift(c, 2, 1, &src, &dst), MPI_ERR_ARG);
	CHECK_CLASS(MPI_Cart_shift(c, -1, 1, &src, &dst), MPI_ERR_ARG);
	CHECK_CLASS(MPI_Cart_sub(c, NULL, &c), MPI_ERR_ARG);
	MPI_Comm_free(&c);

	/* Graph constructors. */
	int index[2] = { 1, 2 }, edges[2] = { 1, 0 };
	int two_nodes = size >= 2 ? 2 : 1;
	if (two_nodes == 1)
		edges[0] = 0, index[0] = 1;
	CHECK_CLASS(MPI_Graph_create(MPI_COMM_WORLD, -1, index, edges, 0, &c), MPI_ERR_ARG);
	CHECK_CLASS(MPI_Graph_create(MPI_COMM_WORLD, size + 1, index, edges, 0, &c), MPI_ERR_ARG);
	CHECK_CLASS(MPI_Graph_create(MPI_COMM_WORLD, 2 > size ? 1 : 2, (int[]){ 1, 0 },
				     (int[]){ 0, 0 }, 0, &c), size >= 2 ? MPI_ERR_ARG : MPI_SUCCESS);
	if (c != MPI_COMM_NULL)
		MPI_Comm_free(&c);
	CHECK_CLASS(MPI_Graph_create(MPI_COMM_WORLD, 1, (int[]){ 1 }, (int[]){ 1 }, 0, &c),
		    MPI_ERR_RANK);
	CHECK_CLASS(MPI_Graph_create(MPI_COMM_WORLD, 1, (int[]){ 1 }, (int[]){ -1 }, 0, &c),
		    MPI_ERR_RANK);
	CHECK_CLASS(MPI_Graph_map(MPI_COMM_WORLD, 1, (int[]){ 1 }, (int[]){ 3 }, &nr),
		    MPI_ERR_RANK);
	CHECK_MPI(MPI_Graph_create(MPI_COMM_WORLD, two_nodes, index, edges, 0, &c));
	if (rank < two_nodes) {
		int nb[2];
		CHECK_CLASS(MPI_Cartdim_get(c, &nd), MPI_ERR_TOPOLOGY);
		CHECK_CLASS(MPI_Graph_neighbors_count(c, two_nodes, &nd), MPI_ERR_RANK);
		CHECK_CLASS(MPI_Graph_neighbors(c, -1, 2, nb), MPI_ERR_RANK);
		CHECK_CLASS(MPI_Graph_neighbors(c, 0, 0, nb), MPI_ERR_ARG);
		CHECK_CLASS(MPI_Graph_get(c, 0, 0, index, edges), MPI_ERR_ARG);
		CHECK_CLASS(MPI_Dist_graph_neighbors_count(c, &nd, &nr, &src), MPI_ERR_TOPOLOGY);
		MPI_Comm_free(&c);
	}

	/* Distributed graphs. */
	int one[1] = { 1 }, me[1] = { rank }, w[1] = { 5 };
	CHECK_CLASS(MPI_Dist_graph_create(MPI_COMM_WORLD, -1, me, one, me, MPI_UNWEIGHTED,
					  MPI_INFO_NULL, 0, &c), MPI_ERR_ARG);
	CHECK_CLASS(MPI_Dist_graph_create(MPI_COMM_WORLD, 1, me, (int[]){ -1 }, me,
					  MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &c), MPI_ERR_ARG);
	CHECK_CLASS(MPI_Dist_graph_create(MPI_COMM_WORLD, 1, (int[]){ size }, one, me,
					  MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &c), MPI_ERR_RANK);
	CHECK_CLASS(MPI_Dist_graph_create(MPI_COMM_WORLD, 1, me, one, (int[]){ -3 },
					  MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &c), MPI_ERR_RANK);
	CHECK_CLASS(MPI_Dist_graph_create(MPI_COMM_WORLD, 1, me, one, me, MPI_WEIGHTS_EMPTY,
					  MPI_INFO_NULL, 0, &c), MPI_ERR_ARG);
	CHECK_CLASS(MPI_Dist_graph_create(MPI_COMM_WORLD, 1, me, one, me, (int[]){ -4 },
					  MPI_INFO_NULL, 0, &c), MPI_ERR_ARG);
	CHECK_CLASS(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, -1, me, w, 1, me, w,
						   MPI_INFO_NULL, 0, &c), MPI_ERR_ARG);
	CHECK_CLASS(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, me, w, -2, me, w,
						   MPI_INFO_NULL, 0, &c), MPI_ERR_ARG);
	CHECK_CLASS(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, (int[]){ size }, w, 1, me,
						   w, MPI_INFO_NULL, 0, &c), MPI_ERR_RANK);
	CHECK_CLASS(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, me, MPI_UNWEIGHTED, 1, me,
						   w, MPI_INFO_NULL, 0, &c), MPI_ERR_ARG);
	CHECK(c == MPI_COMM_NULL);
	/* A good one after all that: every rank its own loop. */
	CHECK_MPI(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, me, w, 1, me, w,
						 MPI_INFO_NULL, 0, &c));
	CHECK_CLASS(MPI_Dist_graph_neighbors(c, 0, coords, coords, 1, coords, coords),
		    MPI_ERR_ARG);
	CHECK_CLASS(MPI_Graphdims_get(c, &nd, &nr), MPI_ERR_TOPOLOGY);
	CHECK_CLASS(MPI_Cart_shift(c, 0, 1, &src, &dst), MPI_ERR_TOPOLOGY);
	MPI_Comm_free(&c);

	CHECK_MPI(MPI_Finalize());
	return 0;
}
