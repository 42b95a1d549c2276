/* Helper program of collectives_across_hosts_*.sh (compiled by the test, not a test itself):
 * every collective on MPI_COMM_WORLD of a job spread over several hosts, values checked on
 * every rank against what a sequential computation gives. Prints "ok RANK" when all pass. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>

static int rank, size, fails;
#define CHECK(c, ...) do { if (!(c)) { if (fails++ < 20) { fprintf(stderr, "rank %d line %d: ", \
	rank, __LINE__); fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } } } while (0)

static int val(int r, int i) { return r * 1000 + i + 1; }

/* 2x2 matrices modulo P, multiplied: not commutative. */
#define P 1000003LL
typedef struct { long long a, b, c, d; } mat;
static mat mul(mat x, mat y)
{
	return (mat){ (x.a * y.a + x.b * y.c) % P, (x.a * y.b + x.b * y.d) % P,
		      (x.c * y.a + x.d * y.c) % P, (x.c * y.b + x.d * y.d) % P };
}
static mat mat_of(int r) { return (mat){ r + 1, 2, 3 * r + 1, 1 }; }
static void matmul(void *in, void *inout, int *len, MPI_Datatype *t)
{
	mat *x = in, *y = inout;
	for (int i = 0; i < *len; i++)
		y[i] = mul(x[i], y[i]);
}
static int mat_eq(mat x, mat y) { return x.a == y.a && x.b == y.b && x.c == y.c && x.d == y.d; }

static void check_all(int round)
{
	int n = size;
	int *a = malloc(sizeof(int) * 4 * n * n), *b = malloc(sizeof(int) * 4 * n * n);
	int *counts = malloc(sizeof(int) * n), *displs = malloc(sizeof(int) * n);
	int *scounts = malloc(sizeof(int) * n), *sdispls = malloc(sizeof(int) * n);
	MPI_Request rq;

	/* Barrier / Ibarrier. */
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Ibarrier(MPI_COMM_WORLD, &rq);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);

	/* Bcast from every root, small and 200 KB (two blobs' worth of rendezvous). */
	for (int root = 0; root < n; root++) {
		int cnt = root == 1 ? 50000 : 3;
		int *v = malloc(sizeof(int) * cnt);
		for (int i = 0; i < cnt; i++)
			v[i] = rank == root ? val(root + round, i) : -1;
		if (root % 2)
			MPI_Bcast(v, cnt, MPI_INT, root, MPI_COMM_WORLD);
		else {
			MPI_Ibcast(v, cnt, MPI_INT, root, MPI_COMM_WORLD, &rq);
			MPI_Wait(&rq, MPI_STATUS_IGNORE);
		}
		for (int i = 0; i < cnt; i++)
			if (v[i] != val(root + round, i)) {
				CHECK(0, "bcast root %d: v[%d] = %d", root, i, v[i]);
				break;
			}
		free(v);
	}
	/* Bcast of a vector type (every other int) into a contiguous receive. */
	{
		int v[8], w[4];
		MPI_Datatype vt;
		MPI_Type_vector(4, 1, 2, MPI_INT, &vt);
		MPI_Type_commit(&vt);
		for (int i = 0; i < 8; i++)
			v[i] = i * 11;
		if (rank == n - 1)
			MPI_Bcast(v, 1, vt, n - 1, MPI_COMM_WORLD);
		else
			MPI_Bcast(w, 4, MPI_INT, n - 1, MPI_COMM_WORLD);
		for (int i = 0; i < 4 && rank != n - 1; i++)
			CHECK(w[i] == i * 22, "bcast vector: w[%d] = %d", i, w[i]);
		MPI_Type_free(&vt);
	}
	/* Reduce to each root, Allreduce (in place too), both with MPI_SUM and MAX. */
	for (int root = 0; root < n; root += n > 3 ? 3 : 1) {
		int s[3] = { rank, rank * 2, 1 }, r[3] = { 0, 0, 0 };
		MPI_Reduce(s, r, 3, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD);
		if (rank == root)
			CHECK(r[0] == n * (n - 1) / 2 && r[1] == n * (n - 1) && r[2] == n,
			      "reduce root %d: %d %d %d", root, r[0], r[1], r[2]);
	}
	{
		int s = rank + 1, r = 0, ip[2] = { rank, -rank };
		MPI_Allreduce(&s, &r, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
		CHECK(r == n, "allreduce max: %d", r);
		MPI_Allreduce(MPI_IN_PLACE, ip, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
		CHECK(ip[0] == n * (n - 1) / 2 && ip[1] == -n * (n - 1) / 2, "allreduce in place");
		int rr = -1;
		s = rank;
		if (rank == 0)
			MPI_Reduce(MPI_IN_PLACE, &s, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
		else
			MPI_Reduce(&s, &rr, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
		if (rank == 0)
			CHECK(s == n * (n - 1) / 2, "reduce in place: %d", s);
		/* A large Iallreduce (1 MiB of doubles). */
		int cnt = 1 << 17;
		double *d = malloc(sizeof(double) * cnt), *e = malloc(sizeof(double) * cnt);
		for (int i = 0; i < cnt; i++)
			d[i] = rank + i * 0.5;
		MPI_Iallreduce(d, e, cnt, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &rq);
		MPI_Wait(&rq, MPI_STATUS_IGNORE);
		for (int i = 0; i < cnt; i++)
			if (e[i] != n * (n - 1) / 2.0 + n * (i * 0.5)) {
				CHECK(0, "large allreduce: e[%d] = %g", i, e[i]);
				break;
			}
		free(d);
		free(e);
	}
	/* Non-commutative user op: Allreduce, Reduce, Scan and Exscan fold in rank order. */
	{
		MPI_Datatype mt;
		MPI_Op op;
		mat mine = mat_of(rank), r, want = mat_of(0), pre = mat_of(0);
		MPI_Type_contiguous(4, MPI_LONG_LONG, &mt);
		MPI_Type_commit(&mt);
		MPI_Op_create(matmul, 0, &op);
		for (int i = 1; i < n; i++)
			want = mul(want, mat_of(i));
		for (int i = 1; i <= rank; i++)
			pre = mul(pre, mat_of(i));
		MPI_Allreduce(&mine, &r, 1, mt, op, MPI_COMM_WORLD);
		CHECK(mat_eq(r, want), "noncommutative allreduce: %lld %lld %lld %lld", r.a, r.b, r.c, r.d);
		memset(&r, 0, sizeof(r));
		MPI_Reduce(&mine, &r, 1, mt, op, n - 1, MPI_COMM_WORLD);
		if (rank == n - 1)
			CHECK(mat_eq(r, want), "noncommutative reduce");
		MPI_Scan(&mine, &r, 1, mt, op, MPI_COMM_WORLD);
		CHECK(mat_eq(r, pre), "noncommutative scan");
		MPI_Iexscan(&mine, &r, 1, mt, op, MPI_COMM_WORLD, &rq);
		MPI_Wait(&rq, MPI_STATUS_IGNORE);
		if (rank > 0) {
			mat ex = mat_of(0);
			for (int i = 1; i < rank; i++)
				ex = mul(ex, mat_of(i));
			CHECK(mat_eq(r, ex), "noncommutative exscan");
		}
		MPI_Op_free(&op);
		MPI_Type_free(&mt);
	}
	/* Scan / Exscan with MPI_SUM, in place too. */
	{
		int s = rank + 1, r = -7;
		MPI_Scan(&s, &r, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
		CHECK(r == (rank + 1) * (rank + 2) / 2, "scan: %d", r);
		r = rank + 1;
		MPI_Exscan(MPI_IN_PLACE, &r, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
		if (rank > 0)
			CHECK(r == rank * (rank + 1) / 2, "exscan in place: %d", r);
	}
	/* Gather / Gatherv / Igather to the last rank, in place at the root too. */
	{
		int root = n - 1;
		int s[2] = { val(rank, 0), val(rank, 1) };
		memset(a, 0, sizeof(int) * 2 * n);
		MPI_Gather(s, 2, MPI_INT, a, 2, MPI_INT, root, MPI_COMM_WORLD);
		for (int k = 0; rank == root && k < n; k++)
			CHECK(a[2 * k] == val(k, 0) && a[2 * k + 1] == val(k, 1), "gather block %d", k);
		for (int k = 0; k < n; k++) {
			counts[k] = k % 3;
			displs[k] = 3 * (n - 1 - k);
		}
		memset(a, 0, sizeof(int) * 3 * n);
		MPI_Igatherv(s, rank % 3, MPI_INT, a, counts, displs, MPI_INT, 0, MPI_COMM_WORLD, &rq);
		MPI_Wait(&rq, MPI_STATUS_IGNORE);
		for (int k = 0; rank == 0 && k < n; k++)
			for (int i = 0; i < k % 3; i++)
				CHECK(a[displs[k] + i] == val(k, i), "gatherv block %d", k);
		for (int k = 0; k < n; k++)
			a[k] = rank == 1 ? -1 : 0;
		if (rank == 1)
			a[1] = 777;
		int one = val(rank, 5);
		if (rank == 1)
			MPI_Gather(MPI_IN_PLACE, 1, MPI_INT, a, 1, MPI_INT, 1, MPI_COMM_WORLD);
		else
			MPI_Gather(&one, 1, MPI_INT, a, 1, MPI_INT, 1, MPI_COMM_WORLD);
		for (int k = 0; rank == 1 && k < n; k++)
			CHECK(a[k] == (k == 1 ? 777 : val(k, 5)), "gather in place: a[%d] = %d", k, a[k]);
	}
	/* Scatter / Scatterv from rank 1, in place at the root too. */
	{
		int r[3] = { 0, 0, 0 };
		for (int k = 0; k < 3 * n; k++)
			a[k] = val(100, k);
		MPI_Scatter(a, 3, MPI_INT, r, 3, MPI_INT, 1, MPI_COMM_WORLD);
		for (int i = 0; i < 3; i++)
			CHECK(r[i] == val(100, 3 * rank + i), "scatter: r[%d] = %d", i, r[i]);
		for (int k = 0; k < n; k++) {
			scounts[k] = (k + 1) % 3;
			sdispls[k] = 3 * (n - 1 - k);
		}
		memset(r, 0, sizeof(r));
		MPI_Iscatterv(a, scounts, sdispls, MPI_INT, r, (rank + 1) % 3, MPI_INT, n / 2,
			      MPI_COMM_WORLD, &rq);
		MPI_Wait(&rq, MPI_STATUS_IGNORE);
		for (int i = 0; i < (rank + 1) % 3; i++)
			CHECK(r[i] == val(100, sdispls[rank] + i), "scatterv: r[%d] = %d", i, r[i]);
		if (rank == 0)
			MPI_Scatter(a, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, 0, MPI_COMM_WORLD);
		else {
			MPI_Scatter(NULL, 1, MPI_INT, r, 1, MPI_INT, 0, MPI_COMM_WORLD);
			CHECK(r[0] == val(100, rank), "scatter in place root: %d", r[0]);
		}
	}
	/* Allgather (in place too) / Allgatherv. */
	{
		int s = val(rank, round);
		memset(a, 0, sizeof(int) * n);
		MPI_Allgather(&s, 1, MPI_INT, a, 1, MPI_INT, MPI_COMM_WORLD);
		for (int k = 0; k < n; k++)
			CHECK(a[k] == val(k, round), "allgather: a[%d] = %d", k, a[k]);
		for (int k = 0; k < n; k++)
			a[k] = k == rank ? val(rank, 9) : -1;
		MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, a, 1, MPI_INT, MPI_COMM_WORLD);
		for (int k = 0; k < n; k++)
			CHECK(a[k] == val(k, 9), "allgather in place: a[%d] = %d", k, a[k]);
		int sv[2] = { val(rank, 0), val(rank, 1) };
		for (int k = 0; k < n; k++) {
			counts[k] = 1 + k % 2;
			displs[k] = 2 * k;
		}
		memset(a, 0, sizeof(int) * 2 * n);
		MPI_Iallgatherv(sv, 1 + rank % 2, MPI_INT, a, counts, displs, MPI_INT, MPI_COMM_WORLD,
				&rq);
		MPI_Wait(&rq, MPI_STATUS_IGNORE);
		for (int k = 0; k < n; k++)
			for (int i = 0; i < 1 + k % 2; i++)
				CHECK(a[2 * k + i] == val(k, i), "allgatherv block %d", k);
	}
	/* Alltoall (in place too) / Alltoallv / Alltoallw. */
	{
		for (int k = 0; k < n; k++) {
			a[2 * k] = val(rank, 2 * k);
			a[2 * k + 1] = val(rank, 2 * k + 1);
		}
		MPI_Alltoall(a, 2, MPI_INT, b, 2, MPI_INT, MPI_COMM_WORLD);
		for (int k = 0; k < n; k++)
			CHECK(b[2 * k] == val(k, 2 * rank) && b[2 * k + 1] == val(k, 2 * rank + 1),
			      "alltoall from %d", k);
		MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, a, 2, MPI_INT, MPI_COMM_WORLD);
		for (int k = 0; k < n; k++)
			CHECK(a[2 * k] == val(k, 2 * rank), "alltoall in place from %d", k);
		for (int k = 0; k < n; k++) {
			scounts[k] = (rank + k) % 3;
			sdispls[k] = 3 * k;
			counts[k] = (rank + k) % 3;
			displs[k] = 3 * (n - 1 - k);
			for (int i = 0; i < 3; i++)
				a[3 * k + i] = val(rank, 10 * k + i);
		}
		MPI_Ialltoallv(a, scounts, sdispls, MPI_INT, b, counts, displs, MPI_INT,
			       MPI_COMM_WORLD, &rq);
		MPI_Wait(&rq, MPI_STATUS_IGNORE);
		for (int k = 0; k < n; k++)
			for (int i = 0; i < counts[k]; i++)
				CHECK(b[displs[k] + i] == val(k, 10 * rank + i), "alltoallv from %d", k);
		MPI_Datatype *ts = malloc(sizeof(MPI_Datatype) * n);
		for (int k = 0; k < n; k++) {
			ts[k] = MPI_INT;
			sdispls[k] *= (int)sizeof(int);
			displs[k] *= (int)sizeof(int);
		}
		memset(b, 0, sizeof(int) * 3 * n);
		MPI_Alltoallw(a, scounts, sdispls, ts, b, counts, displs, ts, MPI_COMM_WORLD);
		for (int k = 0; k < n; k++)
			for (int i = 0; i < counts[k]; i++)
				CHECK(b[displs[k] / (int)sizeof(int) + i] == val(k, 10 * rank + i),
				      "alltoallw from %d", k);
		free(ts);
	}
	/* Reduce_scatter / Reduce_scatter_block. */
	{
		int total = 0;
		for (int k = 0; k < n; k++)
			total += counts[k] = 1 + k % 2;
		for (int i = 0; i < total; i++)
			a[i] = rank + i;
		MPI_Reduce_scatter(a, b, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
		int off = 0;
		for (int k = 0; k < rank; k++)
			off += counts[k];
		for (int i = 0; i < counts[rank]; i++)
			CHECK(b[i] == n * (n - 1) / 2 + n * (off + i), "reduce_scatter [%d] = %d", i, b[i]);
		for (int i = 0; i < 2 * n; i++)
			a[i] = rank * i;
		MPI_Reduce_scatter_block(a, b, 2, MPI_INT, MPI_SUM,
					 MPI_COMM_WORLD);
		for (int i = 0; i < 2; i++)
			CHECK(b[i] == (2 * rank + i) * n * (n - 1) / 2, "reduce_scatter_block");
	}
	/* Persistent Allreduce, started twice with new data; a large-count Allreduce. */
	{
		int s, r;
		MPI_Allreduce_init(&s, &r, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &rq);
		for (int t = 1; t <= 2; t++) {
			s = rank * t;
			MPI_Start(&rq);
			MPI_Wait(&rq, MPI_STATUS_IGNORE);
			CHECK(r == t * n * (n - 1) / 2, "persistent allreduce %d: %d", t, r);
		}
		MPI_Request_free(&rq);
		long long ls = rank, lr = 0;
		MPI_Allreduce_c(&ls, &lr, (MPI_Count)1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
		CHECK(lr == (long long)n * (n - 1) / 2, "allreduce_c: %lld", lr);
	}
	free(a);
	free(b);
	free(counts);
	free(displs);
	free(scounts);
	free(sdispls);
}

/* Rank 0: Ibarrier, then a 1 MiB (rendezvous) send to 1, then Wait; rank 1: the receive
 * first, then Ibarrier and Wait. Completes only if the barrier progresses while the
 * point-to-point does. */
static void interleave(void)
{
	int cnt = 1 << 18;
	int *v = malloc(sizeof(int) * cnt);
	MPI_Request rq;

	if (rank == 0) {
		for (int i = 0; i < cnt; i++)
			v[i] = i ^ 0x5a5a;
		MPI_Ibarrier(MPI_COMM_WORLD, &rq);
		MPI_Send(v, cnt, MPI_INT, 1, 5, MPI_COMM_WORLD);
		MPI_Wait(&rq, MPI_STATUS_IGNORE);
	} else if (rank == 1) {
		MPI_Recv(v, cnt, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		for (int i = 0; i < cnt; i++)
			if (v[i] != (i ^ 0x5a5a)) {
				CHECK(0, "interleave: v[%d] = %d", i, v[i]);
				break;
			}
		MPI_Ibarrier(MPI_COMM_WORLD, &rq);
		MPI_Wait(&rq, MPI_STATUS_IGNORE);
	} else {
		MPI_Ibarrier(MPI_COMM_WORLD, &rq);
		MPI_Wait(&rq, MPI_STATUS_IGNORE);
	}
	free(v);
}

/* Many nonblocking collectives outstanding at once, completed in reverse order. */
static void outstanding(void)
{
	enum { K = 8 };
	int s[K], r[K];
	MPI_Request rq[K];

	for (int k = 0; k < K; k++) {
		s[k] = rank * (k + 1);
		MPI_Iallreduce(&s[k], &r[k], 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq[k]);
	}
	for (int k = K - 1; k >= 0; k--)
		MPI_Wait(&rq[k], MPI_STATUS_IGNORE);
	for (int k = 0; k < K; k++)
		CHECK(r[k] == (k + 1) * size * (size - 1) / 2, "outstanding %d: %d", k, r[k]);
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	for (int round = 0; round < 2; round++)
		check_all(round);
	interleave();
	outstanding();
	MPI_Finalize();
	if (fails == 0)
		printf("ok %d\n", rank);
	return fails != 0;
}
