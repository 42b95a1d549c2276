#!/bin/bash
# topo_errors_name_function_rank_and_argument: a topology call given bad arguments under the default handler ends the job with the error class and a message naming the function, the rank and the argument: a zero dimension and a grid larger than the communicator (MPI_Cart_create), a coordinate off a non-periodic dimension (MPI_Cart_rank on one rank), a graph edge to a node out of range (MPI_Graph_create), a negative degree (MPI_Dist_graph_create), a Cartesian query of a graph communicator, a dims array that does not divide nnodes (MPI_Dims_create).
. "$SHOAL_TESTS/lib/common.bash"

build topoerr <<'SRC'
#include <mpi.h>
#include <string.h>
int main(int argc, char **argv)
{
	int rank, size, x, y;
	MPI_Comm c;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	const char *what = argv[1];
	if (!strcmp(what, "zero_dim")) {
		MPI_Cart_create(MPI_COMM_WORLD, 2, (int[]){ size, 0 }, (int[]){ 0, 0 }, 0, &c);
	} else if (!strcmp(what, "too_big")) {
		MPI_Cart_create(MPI_COMM_WORLD, 2, (int[]){ size, 2 }, (int[]){ 0, 1 }, 1, &c);
	} else if (!strcmp(what, "cart_rank")) {
		MPI_Cart_create(MPI_COMM_WORLD, 1, (int[]){ size }, (int[]){ 0 }, 0, &c);
		if (rank == size - 1)
			MPI_Cart_rank(c, (int[]){ size + 2 }, &x);
		MPI_Barrier(c);
	} else if (!strcmp(what, "graph_edge")) {
		int index[64], edges[64];
		for (int i = 0; i < size; i++)
			index[i] = i + 1, edges[i] = i + 1;   /* the last node's edge is out */
		MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, 0, &c);
	} else if (!strcmp(what, "degree")) {
		MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &rank, (int[]){ -1 }, &rank,
				      MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &c);
	} else if (!strcmp(what, "kind")) {
		MPI_Graph_create(MPI_COMM_WORLD, 1, (int[]){ 0 }, NULL, 0, &c);
		if (rank == 0)
			MPI_Cart_shift(c, 0, 1, &x, &y);
	} else if (!strcmp(what, "dims_create")) {
		int dims[2] = { 2, 0 };
		if (rank == size - 1)
			MPI_Dims_create(7, 2, dims);
		MPI_Barrier(MPI_COMM_WORLD);
	}
	MPI_Finalize();
	return 0;
}
SRC

check() {  # check RANKS CASE MESSAGE-REGEX CLASS
	run -t 30 "$MPIEXEC" -n "$1" "$TEST_TMP/topoerr" "$2"
	expect_nonzero
	if grep -q 'killed by signal' "$ERR"; then show; fail "$2: a crash, not an MPI error"; fi
	expect_err "$3"
	expect_err "$4"
}

check 2 zero_dim 'rank [01]: MPI_Cart_create: dims\[1\] is 0' MPI_ERR_DIMS
check 3 too_big 'rank [0-2]: MPI_Cart_create: the grid has more points than comm has ranks \(3\)' MPI_ERR_DIMS
check 4 cart_rank 'rank 3: MPI_Cart_rank: coords\[0\] is 6, outside 0\.\.3 of a non-periodic dimension' MPI_ERR_ARG
check 4 graph_edge 'rank [0-3]: MPI_Graph_create: edges\[3\] is 4, not a node of the graph \(0\.\.3\)' MPI_ERR_RANK
check 2 degree 'rank [01]: MPI_Dist_graph_create: degrees\[0\] is -1' MPI_ERR_ARG
check 2 kind 'rank 0: MPI_Cart_shift: comm has a graph topology, not a Cartesian one' MPI_ERR_TOPOLOGY
check 3 dims_create 'rank 2: MPI_Dims_create: nnodes 7 is not a multiple of the product of the dims given' MPI_ERR_DIMS
exit 0
