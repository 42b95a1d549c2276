#!/bin/bash
# bad_handle_in_an_array_is_named_by_index: a handle array holding values that are no handles (an int array passed where MPI_Datatype[] or MPI_Request[] is due, as from a program written for an MPI whose handles are ints) ends the job with the error class and a message naming the function, the rank, the array and the index, never with a crash: MPI_Ialltoallw's sendtypes and recvtypes, MPI_Type_create_struct's array_of_types, MPI_Waitall's, MPI_Testsome's and MPI_Startall's array_of_requests.
. "$SHOAL_TESTS/lib/common.bash"

build intarrays <<'SRC'
#include <string.h>
#include <mpi.h>
int main(int argc, char **argv)
{
	int rank, size, flag, outcount, idx[8], counts[64], displs[64], in[64], out[64];
	/* MPICH's int handles of MPI_INT, as an int array read as MPI_Datatype[]. */
	int ints[128];
	MPI_Datatype types[64], rtypes[64];
	MPI_Request reqs[4];
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	for (int i = 0; i < 128; i++)
		ints[i] = 0x4c000405;
	for (int i = 0; i < size; i++)
		counts[i] = 1, displs[i] = i * (int)sizeof(int), types[i] = rtypes[i] = MPI_INT;
	if (strcmp(argv[1], "sendtypes") == 0) {
		MPI_Ialltoallw(in, counts, displs, (MPI_Datatype *)ints, out, counts, displs, types,
			       MPI_COMM_WORLD, &reqs[0]);
	} else if (strcmp(argv[1], "recvtypes") == 0) {
		rtypes[size - 1] = (MPI_Datatype)(long)ints[0];
		MPI_Ialltoallw(in, counts, displs, types, out, counts, displs, rtypes,
			       MPI_COMM_WORLD, &reqs[0]);
	} else if (strcmp(argv[1], "struct") == 0) {
		MPI_Datatype t, st[3] = { MPI_INT, (MPI_Datatype)(long)7, MPI_INT };
		MPI_Type_create_struct(3, (int[]){ 1, 1, 1 }, (MPI_Aint[]){ 0, 4, 8 }, st, &t);
	} else {
		MPI_Irecv(in, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &reqs[0]);
		MPI_Recv_init(in, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &reqs[1]);
		memcpy(&reqs[2], ints, 2 * sizeof(MPI_Request));
		if (strcmp(argv[1], "waitall") == 0)
			MPI_Waitall(4, reqs, MPI_STATUSES_IGNORE);
		else if (strcmp(argv[1], "testsome") == 0)
			MPI_Testsome(4, reqs, &outcount, idx, MPI_STATUSES_IGNORE);
		else
			MPI_Startall(3, &reqs[1]);
	}
	MPI_Finalize();
	return 0;
}
SRC

check() {  # check RANKS CASE FUNCTION ARRAY-ENTRY CLASS
	run -t 30 "$MPIEXEC" -n "$1" "$TEST_TMP/intarrays" "$2"
	expect_nonzero
	if grep -q 'killed by signal' "$ERR"; then show; fail "$2: a crash, not an MPI error"; fi
	expect_err "rank [0-9]+: $3: $4 .*(is not a|not a valid)"
	expect_err "$5"
}

for n in 1 3; do
	check $n sendtypes MPI_Ialltoallw 'sendtypes\[0\] \(0x4c0004054c000405\)' MPI_ERR_TYPE
	check $n recvtypes MPI_Ialltoallw "recvtypes\\[$((n - 1))\\] \\(0x4c000405\\)" MPI_ERR_TYPE
done
check 2 struct MPI_Type_create_struct 'array_of_types\[1\]' MPI_ERR_TYPE
check 2 waitall MPI_Waitall 'array_of_requests\[2\]' MPI_ERR_REQUEST
check 2 testsome MPI_Testsome 'array_of_requests\[2\]' MPI_ERR_REQUEST
check 2 startall MPI_Startall 'array_of_requests\[1\]' MPI_ERR_REQUEST
