/* coll_op_create_c_functions_match_int_ones: a noncommutative MPI_Op_create_c function (MPI_Count *len) gives the results of the same MPI_Op_create function in Reduce_c, Allreduce_c (ring and meeting paths, blocking and nonblocking), Scan_c, Reduce_scatter_block_c and Reduce_local_c, and is handed lengths above INT_MAX */
/* ranks: 1 2 4 64 */
#include <stdint.h>

#include "check.h"

#define BIG 3000  /* ints: above the ring paths' size (coll/ring.c), a meeting folds them */

static void mix(void *in, void *inout, int *len, MPI_Datatype *t)
{
	for (int i = 0; i < *len; i++)
		((int *)inout)[i] = 3 * ((int *)in)[i] - ((int *)inout)[i];
}

static void mix_c(void *in, void *inout, MPI_Count *len, MPI_Datatype *t)
{
	CHECK(*t == MPI_INT);
	for (MPI_Count i = 0; i < *len; i++)
		((int *)inout)[i] = 3 * ((int *)in)[i] - ((int *)inout)[i];
}

/* Records the length without touching the buffers (Reduce_local_c hands them over). */
static MPI_Count seen;
static void record_c(void *in, void *inout, MPI_Count *len, MPI_Datatype *t)
{
	seen = *len;
}

static void same(const char *what, const int *a, const int *b, int len)
{
	for (int i = 0; i < len; i++)
		if (a[i] != b[i]) {
			char m[160];
			snprintf(m, sizeof(m), "%s: element %d is %d with MPI_Op_create_c, %d with "
				 "MPI_Op_create", what, i, a[i], b[i]);
			check_fail(__FILE__, __LINE__, m);
		}
}

int main(int argc, char **argv)
{
	MPI_Comm w = MPI_COMM_WORLD;
	MPI_Op op, op_c, rec;
	MPI_Request q;
	int n, me;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_size(w, &n);
	MPI_Comm_rank(w, &me);
	CHECK_MPI(MPI_Op_create(mix, 0, &op));
	CHECK_MPI(MPI_Op_create_c(mix_c, 0, &op_c));
	int *s = malloc(BIG * n * sizeof(int)), *a = malloc(BIG * n * sizeof(int));
	int *b = malloc(BIG * n * sizeof(int));
	CHECK(s && a && b);
	for (int i = 0; i < BIG * n; i++)
		s[i] = (me + 1) * 7 + i % 13;

	for (int len = 3; len <= BIG; len += BIG - 3) {
		memset(a, 0, len * sizeof(int)), memset(b, 0, len * sizeof(int));
		CHECK_MPI(MPI_Allreduce_c(s, a, len, MPI_INT, op_c, w));
		CHECK_MPI(MPI_Allreduce(s, b, len, MPI_INT, op, w));
		same("Allreduce_c", a, b, len);
		memset(a, 0, len * sizeof(int));
		CHECK_MPI(MPI_Iallreduce_c(s, a, len, MPI_INT, op_c, w, &q));
		CHECK_MPI(MPI_Wait(&q, MPI_STATUS_IGNORE));
		same("Iallreduce_c", a, b, len);
		memset(a, 0, len * sizeof(int)), memset(b, 0, len * sizeof(int));
		CHECK_MPI(MPI_Reduce_c(s, a, len, MPI_INT, op_c, n - 1, w));
		CHECK_MPI(MPI_Reduce(s, b, len, MPI_INT, op, n - 1, w));
		same("Reduce_c", a, b, len);
		CHECK_MPI(MPI_Scan_c(s, a, len, MPI_INT, op_c, w));
		CHECK_MPI(MPI_Scan(s, b, len, MPI_INT, op, w));
		same("Scan_c", a, b, len);
	}
	CHECK_MPI(MPI_Reduce_scatter_block_c(s, a, BIG, MPI_INT, op_c, w));
	CHECK_MPI(MPI_Reduce_scatter_block(s, b, BIG, MPI_INT, op, w));
	same("Reduce_scatter_block_c", a, b, BIG);
	memcpy(a, s + 5, 5 * sizeof(int)), memcpy(b, s + 5, 5 * sizeof(int));
	CHECK_MPI(MPI_Reduce_local_c(s, a, 5, MPI_INT, op_c));
	CHECK_MPI(MPI_Reduce_local(s, b, 5, MPI_INT, op));
	same("Reduce_local_c", a, b, 5);

	/* No int limit: the function gets INT_MAX + 1 as it is. */
	CHECK_MPI(MPI_Op_create_c(record_c, 1, &rec));
	CHECK_MPI(MPI_Reduce_local_c(s, a, (MPI_Count)INT32_MAX + 1, MPI_BYTE, rec));
	CHECK_INT(seen, (MPI_Count)INT32_MAX + 1);

	CHECK_MPI(MPI_Op_free(&rec));
	CHECK_MPI(MPI_Op_free(&op_c));
	CHECK_MPI(MPI_Op_free(&op));
	free(s), free(a), free(b);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
