/* large_transfers_between_different_layouts: messages above 64 KiB (the single-copy
 * protocol) and small ones (eager) between a strided layout and a contiguous one, both ways,
 * between vectors of different block lengths, and from an array of structs into a
 * struct-of-arrays layout; values, counts and element counts arrive as sent. */
/* ranks: 1 2 4 64 */
#include <stddef.h>
#include "check.h"

#define ROWS 1024
#define COLS 16
#define NCOL 12   /* 12 columns x 1024 rows x 8 bytes = 96 KiB */

static int rank, size, partner;

static double val(int r, long i)
{
	return r * 1e7 + (double)i;
}

/* Exchange with the partner: send (sbuf, scount, stype), receive (rbuf, rcount, rtype). */
static void swap(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
		 MPI_Datatype rtype, int tag, MPI_Status *st)
{
	if (partner == rank || (rank ^ tag) & 1) {
		CHECK_MPI(MPI_Sendrecv(sbuf, scount, stype, partner, tag, rbuf, rcount, rtype,
				       partner, tag, MPI_COMM_WORLD, st));
		return;
	}
	/* The other half uses nonblocking calls, receive posted after the send. */
	MPI_Request rq[2];
	CHECK_MPI(MPI_Isend(sbuf, scount, stype, partner, tag, MPI_COMM_WORLD, &rq[0]));
	CHECK_MPI(MPI_Irecv(rbuf, rcount, rtype, partner, tag, MPI_COMM_WORLD, &rq[1]));
	CHECK_MPI(MPI_Wait(&rq[0], MPI_STATUS_IGNORE));
	CHECK_MPI(MPI_Wait(&rq[1], st));
}

static void columns(int ncol, int tag)
{
	double *m = malloc(sizeof(double) * ROWS * COLS), *flat = malloc(sizeof(double) * ROWS * ncol);
	MPI_Datatype col, cols;
	MPI_Status st;
	int n;

	CHECK_MPI(MPI_Type_vector(ROWS, 1, COLS, MPI_DOUBLE, &col));
	CHECK_MPI(MPI_Type_create_resized(col, 0, sizeof(double), &cols));
	CHECK_MPI(MPI_Type_commit(&cols));
	for (long i = 0; i < ROWS * COLS; i++)
		m[i] = val(rank, i);

	/* columns 2.. of the matrix -> contiguous: the transpose of the block */
	swap(m + 2, ncol, cols, flat, ROWS * ncol, MPI_DOUBLE, tag, &st);
	CHECK_MPI(MPI_Get_count(&st, MPI_DOUBLE, &n));
	CHECK_INT(n, ROWS * ncol);
	for (int c = 0; c < ncol; c++)
		for (int i = 0; i < ROWS; i++)
			if (flat[c * ROWS + i] != val(partner, (long)i * COLS + 2 + c)) {
				fprintf(stderr, "column %d row %d\n", c, i);
				CHECK(flat[c * ROWS + i] == val(partner, (long)i * COLS + 2 + c));
			}

	/* contiguous -> columns: and back again; untouched columns keep their values */
	for (long i = 0; i < ROWS * ncol; i++)
		flat[i] = val(rank, i);
	for (long i = 0; i < ROWS * COLS; i++)
		m[i] = -1;
	swap(flat, ROWS * ncol, MPI_DOUBLE, m + 1, ncol, cols, tag + 1, &st);
	CHECK_MPI(MPI_Get_count(&st, cols, &n));
	CHECK_INT(n, ncol);
	CHECK_MPI(MPI_Get_elements(&st, cols, &n));
	CHECK_INT(n, ROWS * ncol);
	for (int i = 0; i < ROWS; i++)
		for (int j = 0; j < COLS; j++) {
			double want = j >= 1 && j < 1 + ncol ? val(partner, (long)(j - 1) * ROWS + i) : -1;
			if (m[i * COLS + j] != want) {
				fprintf(stderr, "row %d col %d\n", i, j);
				CHECK(m[i * COLS + j] == want);
			}
		}
	CHECK_MPI(MPI_Type_free(&col));
	CHECK_MPI(MPI_Type_free(&cols));
	free(m);
	free(flat);
}

/* vector(3 of every 4) -> vector(2 of every 5): the same 12288 doubles, regrouped. */
static void vectors(int tag)
{
	const int n = 12288;
	double *a = malloc(sizeof(double) * n / 3 * 4), *b = malloc(sizeof(double) * n / 2 * 5);
	MPI_Datatype va, vb;

	CHECK_MPI(MPI_Type_vector(n / 3, 3, 4, MPI_DOUBLE, &va));
	CHECK_MPI(MPI_Type_vector(n / 2, 2, 5, MPI_DOUBLE, &vb));
	CHECK_MPI(MPI_Type_commit(&va));
	CHECK_MPI(MPI_Type_commit(&vb));
	for (long i = 0; i < n / 3 * 4; i++)
		a[i] = i % 4 == 3 ? -1 : val(rank, i / 4 * 3 + i % 4);
	for (long i = 0; i < n / 2 * 5; i++)
		b[i] = -2;
	swap(a, 1, va, b, 1, vb, tag, MPI_STATUS_IGNORE);
	for (long i = 0; i < n / 2 * 5; i++) {
		double want = i % 5 >= 2 ? -2 : val(partner, i / 5 * 2 + i % 5);
		if (b[i] != want) {
			fprintf(stderr, "vector element %ld\n", i);
			CHECK(b[i] == want);
		}
	}
	CHECK_MPI(MPI_Type_free(&va));
	CHECK_MPI(MPI_Type_free(&vb));
	free(a);
	free(b);
}

/* An array of { int; double } structs -> ints and doubles in two separate arrays. */
static void structs(int n, int tag)
{
	struct rec { int i; double d; } *aos = malloc(sizeof(struct rec) * n);
	int *ints = malloc(sizeof(int) * n), *bl = malloc(sizeof(int) * 2 * n);
	double *dbls = malloc(sizeof(double) * n);
	MPI_Aint *dp = malloc(sizeof(MPI_Aint) * 2 * n), base;
	MPI_Datatype *ty = malloc(sizeof(MPI_Datatype) * 2 * n), rec, soa;
	int bl2[2] = { 1, 1 };
	MPI_Aint dp2[2] = { offsetof(struct rec, i), offsetof(struct rec, d) };
	MPI_Datatype ty2[2] = { MPI_INT, MPI_DOUBLE };

	CHECK_MPI(MPI_Type_create_struct(2, bl2, dp2, ty2, &rec));
	CHECK_MPI(MPI_Type_commit(&rec));
	/* The struct-of-arrays receive layout, absolute addresses from MPI_BOTTOM. */
	for (int k = 0; k < n; k++) {
		MPI_Get_address(&ints[k], &dp[2 * k]);
		MPI_Get_address(&dbls[k], &dp[2 * k + 1]);
		bl[2 * k] = bl[2 * k + 1] = 1;
		ty[2 * k] = MPI_INT;
		ty[2 * k + 1] = MPI_DOUBLE;
	}
	CHECK_MPI(MPI_Type_create_struct(2 * n, bl, dp, ty, &soa));
	CHECK_MPI(MPI_Type_commit(&soa));
	MPI_Get_address(aos, &base);
	for (int k = 0; k < n; k++)
		aos[k] = (struct rec){ rank * 100000 + k, val(rank, k) };
	MPI_Status st;
	swap(aos, n, rec, MPI_BOTTOM, 1, soa, tag, &st);
	int c;
	CHECK_MPI(MPI_Get_count(&st, soa, &c));
	CHECK_INT(c, 1);
	CHECK_MPI(MPI_Get_elements(&st, rec, &c));
	CHECK_INT(c, 2 * n);
	for (int k = 0; k < n; k++) {
		CHECK_INT(ints[k], partner * 100000 + k);
		CHECK(dbls[k] == val(partner, k));
	}
	CHECK_MPI(MPI_Type_free(&rec));
	CHECK_MPI(MPI_Type_free(&soa));
	free(aos);
	free(ints);
	free(dbls);
	free(bl);
	free(dp);
	free(ty);
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	partner = rank ^ 1;
	if (partner >= size)
		partner = rank;

	columns(NCOL, 10);   /* 96 KiB: single copy */
	columns(1, 20);      /* 8 KiB: through a pooled buffer */
	vectors(30);
	structs(6000, 40);   /* 72 KiB */
	structs(10, 50);     /* 120 bytes: inside the envelope */

	MPI_Finalize();
	return 0;
}
