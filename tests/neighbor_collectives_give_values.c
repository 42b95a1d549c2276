/* neighbor_collectives_give_values: each neighborhood collective (allgather(v), alltoall(v/w);
 * blocking, MPI_Ineighbor_*, persistent started twice; int and _c) delivers the blocks MPI
 * 4.1, 8.6 pairs: Cartesian grids periodic and not (MPI_PROC_NULL blocks untouched), periodic
 * dims of size 1 and 2 (the block sent towards +1 lands in the block for -1), a graph with
 * repeated edges (n-th edge to n-th occurrence), distributed graphs (weighted, no sources or
 * no destinations, Dist_graph_create), derived types on both sides. */
/* ranks: 1 2 4 16 64 */
/* timeout: 180 */
#include <stdbool.h>
#include <stdint.h>
#include "check.h"

#define HDR 4                 /* ints of a block's header: sender, block, dest, call */
#define MAXDEG 16
#define UNTOUCHED (-7)

enum call { AG, AGV, A2A, A2AV, A2AW, NCALLS };
enum mode { BLOCKING, NONBLOCKING, PERSISTENT, NMODES };
static const char *call_name[] = { "allgather", "allgatherv", "alltoall", "alltoallv",
				   "alltoallw" };

static int me, nranks, call_no;

struct nb {
	MPI_Comm comm;
	bool cart;
	int in, out;
	int src[MAXDEG], dst[MAXDEG];
};

/* The neighbourhood as the topology queries give it. */
static void query(struct nb *t)
{
	int kind;

	MPI_Topo_test(t->comm, &kind);
	t->cart = kind == MPI_CART;
	if (kind == MPI_CART) {
		int nd;
		MPI_Cartdim_get(t->comm, &nd);
		for (int d = 0; d < nd; d++)
			MPI_Cart_shift(t->comm, d, 1, &t->src[2 * d], &t->src[2 * d + 1]);
		t->in = t->out = 2 * nd;
		for (int i = 0; i < t->out; i++)
			t->dst[i] = t->src[i];
	} else if (kind == MPI_GRAPH) {
		MPI_Graph_neighbors_count(t->comm, me, &t->in);
		MPI_Graph_neighbors(t->comm, me, MAXDEG, t->src);
		t->out = t->in;
		for (int i = 0; i < t->out; i++)
			t->dst[i] = t->src[i];
	} else {
		int w;
		MPI_Dist_graph_neighbors_count(t->comm, &t->in, &t->out, &w);
		int sw[MAXDEG], dw[MAXDEG];
		MPI_Dist_graph_neighbors(t->comm, MAXDEG, t->src, w ? sw : MPI_UNWEIGHTED, MAXDEG,
					 t->dst, w ? dw : MPI_UNWEIGHTED);
	}
	CHECK_CMP(t->in, <=, MAXDEG);
	CHECK_CMP(t->out, <=, MAXDEG);
}

/* Ints in the block from s to d: agreed by both ends, different per edge in v/w calls. */
static int block_len(enum call c, int s, int d)
{
	return c == AGV || c == A2AV || c == A2AW ? HDR + (s + 2 * d) % 3 : HDR + 1;
}

/* Block i of the sender's data: header then filler. */
static void fill(int *b, int n, int i, int d)
{
	b[0] = me;
	b[1] = i;
	b[2] = d;
	b[3] = call_no;
	for (int e = HDR; e < n; e++)
		b[e] = me * 1000 + e;
}

struct bufs {
	int *send, *recv;          /* as the receive layout sees them, dense per block */
	int scnt[MAXDEG], rcnt[MAXDEG];
	int sdis[MAXDEG], rdis[MAXDEG];     /* element displacements (v) */
	MPI_Aint sbyte[MAXDEG], rbyte[MAXDEG];
	MPI_Count scnt_c[MAXDEG], rcnt_c[MAXDEG];
	MPI_Aint sdis_c[MAXDEG], rdis_c[MAXDEG];
	MPI_Datatype stypes[MAXDEG], rtypes[MAXDEG];
};

/* Derived types of alltoallw's blocks of HDR + 2 ints: 2 ints 2 apart, resized to 4 ints
 * (3 of them are every other int of 12), and 2 adjacent ints. */
static MPI_Datatype two_ints_apart, int_pair;

/* Lay out send and receive data of call c on t; send blocks go in reverse order in the
 * buffer with a gap between blocks, so displacements matter. */
static void layout(enum call c, const struct nb *t, struct bufs *b, int sendints, int recvints)
{
	int off = recvints;

	for (int j = 0; j < t->in; j++) {
		int s = t->src[j];
		b->rcnt[j] = block_len(c, s == MPI_PROC_NULL ? 0 : s, me);
		if (c == AG || c == A2A)
			b->rcnt[j] = HDR + 1;
		off -= b->rcnt[j] + 1;
		b->rdis[j] = off;
		b->rbyte[j] = (MPI_Aint)off * (MPI_Aint)sizeof(int);
		b->rcnt_c[j] = b->rcnt[j];
		b->rdis_c[j] = off;
		b->rtypes[j] = MPI_INT;
	}
	CHECK_CMP(off, >=, 0);
	off = 0;
	for (int i = t->out - 1; i >= 0; i--) {
		int d = t->dst[i];
		b->scnt[i] = c == AG || c == A2A ? HDR + 1 : block_len(c, me, d == MPI_PROC_NULL ? 0 : d);
		b->sdis[i] = off + 1;
		b->sbyte[i] = (MPI_Aint)(off + 1) * (MPI_Aint)sizeof(int);
		b->scnt_c[i] = b->scnt[i];
		b->sdis_c[i] = off + 1;
		b->stypes[i] = MPI_INT;
		off += b->scnt[i] + 1;
	}
	CHECK_CMP(off, <=, sendints);
	for (int e = 0; e < recvints; e++)
		b->recv[e] = UNTOUCHED;
	if (c == AG || c == AGV) {
		fill(b->send, HDR + 1 + (c == AGV), -1, -1);
	} else {
		for (int i = 0; i < t->out; i++)
			fill(b->send + b->sdis[i], b->scnt[i], i, t->dst[i]);
	}
}

/* The received data of call c are what the pairing rule says. */
static void verify(enum call c, const struct nb *t, const struct bufs *b, const char *what)
{
	char where[200];

	snprintf(where, sizeof(where), "%s %s, call %d", call_name[c], what, call_no);
	for (int j = 0; j < t->in; j++) {
		const int *r = b->recv + b->rdis[j];
		int s = t->src[j];
		if (s == MPI_PROC_NULL) {
			for (int e = 0; e < b->rcnt[j]; e++)
				if (r[e] != UNTOUCHED) {
					fprintf(stderr, "%s: block %d from MPI_PROC_NULL written\n", where, j);
					CHECK_INT(r[e], UNTOUCHED);
				}
			continue;
		}
		if (r[0] != s || r[3] != call_no)
			fprintf(stderr, "rank %d: %s: block %d: from %d call %d, expected %d call %d\n",
				me, where, j, r[0], r[3], s, call_no);
		CHECK_INT(r[0], s);
		CHECK_INT(r[3], call_no);
		for (int e = HDR; e < b->rcnt[j]; e++)
			CHECK_INT(r[e], s * 1000 + e);
		if (c == AG || c == AGV)
			continue;
		CHECK_INT(r[2], me);
		if (t->cart) {
			if (r[1] != (j ^ 1))
				fprintf(stderr, "rank %d: %s: block %d came from block %d of %d\n", me,
					where, j, r[1], s);
			CHECK_INT(r[1], j ^ 1);
		} else {
			/* repeated edges pair in order */
			for (int l = 0; l < j; l++)
				if (t->src[l] == s)
					CHECK_CMP(b->recv[b->rdis[l] + 1], <, r[1]);
		}
	}
}

static void start_call(enum call c, enum mode m, bool wide, const struct nb *t, struct bufs *b,
		       MPI_Request *rq)
{
	MPI_Comm k = t->comm;
	int *sb = b->send, *rb = b->recv;
	int sc = c == AGV ? HDR + 2 : HDR + 1;   /* an allgather(v)'s one send block */

	switch (c * 6 + m * 2 + wide) {
	case AG * 6 + BLOCKING * 2:
		CHECK_MPI(MPI_Neighbor_allgather(sb, sc, MPI_INT, rb, HDR + 1, MPI_INT, k));
		break;
	case AG * 6 + BLOCKING * 2 + 1:
		CHECK_MPI(MPI_Neighbor_allgather_c(sb, sc, MPI_INT, rb, HDR + 1, MPI_INT, k));
		break;
	case AG * 6 + NONBLOCKING * 2:
		CHECK_MPI(MPI_Ineighbor_allgather(sb, sc, MPI_INT, rb, HDR + 1, MPI_INT, k, rq));
		break;
	case AG * 6 + NONBLOCKING * 2 + 1:
		CHECK_MPI(MPI_Ineighbor_allgather_c(sb, sc, MPI_INT, rb, HDR + 1, MPI_INT, k, rq));
		break;
	case AG * 6 + PERSISTENT * 2:
		CHECK_MPI(MPI_Neighbor_allgather_init(sb, sc, MPI_INT, rb, HDR + 1, MPI_INT, k,
						      MPI_INFO_NULL, rq));
		break;
	case AG * 6 + PERSISTENT * 2 + 1:
		CHECK_MPI(MPI_Neighbor_allgather_init_c(sb, sc, MPI_INT, rb, HDR + 1, MPI_INT, k,
							MPI_INFO_NULL, rq));
		break;
	case AGV * 6 + BLOCKING * 2:
		CHECK_MPI(MPI_Neighbor_allgatherv(sb, sc, MPI_INT, rb, b->rcnt, b->rdis, MPI_INT, k));
		break;
	case AGV * 6 + BLOCKING * 2 + 1:
		CHECK_MPI(MPI_Neighbor_allgatherv_c(sb, sc, MPI_INT, rb, b->rcnt_c, b->rdis_c,
						    MPI_INT, k));
		break;
	case AGV * 6 + NONBLOCKING * 2:
		CHECK_MPI(MPI_Ineighbor_allgatherv(sb, sc, MPI_INT, rb, b->rcnt, b->rdis, MPI_INT, k,
						   rq));
		break;
	case AGV * 6 + NONBLOCKING * 2 + 1:
		CHECK_MPI(MPI_Ineighbor_allgatherv_c(sb, sc, MPI_INT, rb, b->rcnt_c, b->rdis_c,
						     MPI_INT, k, rq));
		break;
	case AGV * 6 + PERSISTENT * 2:
		CHECK_MPI(MPI_Neighbor_allgatherv_init(sb, sc, MPI_INT, rb, b->rcnt, b->rdis,
						       MPI_INT, k, MPI_INFO_NULL, rq));
		break;
	case AGV * 6 + PERSISTENT * 2 + 1:
		CHECK_MPI(MPI_Neighbor_allgatherv_init_c(sb, sc, MPI_INT, rb, b->rcnt_c, b->rdis_c,
							 MPI_INT, k, MPI_INFO_NULL, rq));
		break;
	case A2A * 6 + BLOCKING * 2:
		CHECK_MPI(MPI_Neighbor_alltoall(sb + 1, HDR + 1, MPI_INT, rb, HDR + 1, MPI_INT, k));
		break;
	case A2A * 6 + BLOCKING * 2 + 1:
		CHECK_MPI(MPI_Neighbor_alltoall_c(sb + 1, HDR + 1, MPI_INT, rb, HDR + 1, MPI_INT, k));
		break;
	case A2A * 6 + NONBLOCKING * 2:
		CHECK_MPI(MPI_Ineighbor_alltoall(sb + 1, HDR + 1, MPI_INT, rb, HDR + 1, MPI_INT, k,
						 rq));
		break;
	case A2A * 6 + NONBLOCKING * 2 + 1:
		CHECK_MPI(MPI_Ineighbor_alltoall_c(sb + 1, HDR + 1, MPI_INT, rb, HDR + 1, MPI_INT, k,
						   rq));
		break;
	case A2A * 6 + PERSISTENT * 2:
		CHECK_MPI(MPI_Neighbor_alltoall_init(sb + 1, HDR + 1, MPI_INT, rb, HDR + 1, MPI_INT,
						     k, MPI_INFO_NULL, rq));
		break;
	case A2A * 6 + PERSISTENT * 2 + 1:
		CHECK_MPI(MPI_Neighbor_alltoall_init_c(sb + 1, HDR + 1, MPI_INT, rb, HDR + 1,
						       MPI_INT, k, MPI_INFO_NULL, rq));
		break;
	case A2AV * 6 + BLOCKING * 2:
		CHECK_MPI(MPI_Neighbor_alltoallv(sb, b->scnt, b->sdis, MPI_INT, rb, b->rcnt, b->rdis,
						 MPI_INT, k));
		break;
	case A2AV * 6 + BLOCKING * 2 + 1:
		CHECK_MPI(MPI_Neighbor_alltoallv_c(sb, b->scnt_c, b->sdis_c, MPI_INT, rb, b->rcnt_c,
						   b->rdis_c, MPI_INT, k));
		break;
	case A2AV * 6 + NONBLOCKING * 2:
		CHECK_MPI(MPI_Ineighbor_alltoallv(sb, b->scnt, b->sdis, MPI_INT, rb, b->rcnt,
						  b->rdis, MPI_INT, k, rq));
		break;
	case A2AV * 6 + NONBLOCKING * 2 + 1:
		CHECK_MPI(MPI_Ineighbor_alltoallv_c(sb, b->scnt_c, b->sdis_c, MPI_INT, rb,
						    b->rcnt_c, b->rdis_c, MPI_INT, k, rq));
		break;
	case A2AV * 6 + PERSISTENT * 2:
		CHECK_MPI(MPI_Neighbor_alltoallv_init(sb, b->scnt, b->sdis, MPI_INT, rb, b->rcnt,
						      b->rdis, MPI_INT, k, MPI_INFO_NULL, rq));
		break;
	case A2AV * 6 + PERSISTENT * 2 + 1:
		CHECK_MPI(MPI_Neighbor_alltoallv_init_c(sb, b->scnt_c, b->sdis_c, MPI_INT, rb,
							b->rcnt_c, b->rdis_c, MPI_INT, k,
							MPI_INFO_NULL, rq));
		break;
	case A2AW * 6 + BLOCKING * 2:
		CHECK_MPI(MPI_Neighbor_alltoallw(sb, b->scnt, b->sbyte, b->stypes, rb, b->rcnt,
						 b->rbyte, b->rtypes, k));
		break;
	case A2AW * 6 + BLOCKING * 2 + 1:
		CHECK_MPI(MPI_Neighbor_alltoallw_c(sb, b->scnt_c, b->sbyte, b->stypes, rb,
						   b->rcnt_c, b->rbyte, b->rtypes, k));
		break;
	case A2AW * 6 + NONBLOCKING * 2:
		CHECK_MPI(MPI_Ineighbor_alltoallw(sb, b->scnt, b->sbyte, b->stypes, rb, b->rcnt,
						  b->rbyte, b->rtypes, k, rq));
		break;
	case A2AW * 6 + NONBLOCKING * 2 + 1:
		CHECK_MPI(MPI_Ineighbor_alltoallw_c(sb, b->scnt_c, b->sbyte, b->stypes, rb,
						    b->rcnt_c, b->rbyte, b->rtypes, k, rq));
		break;
	case A2AW * 6 + PERSISTENT * 2:
		CHECK_MPI(MPI_Neighbor_alltoallw_init(sb, b->scnt, b->sbyte, b->stypes, rb, b->rcnt,
						      b->rbyte, b->rtypes, k, MPI_INFO_NULL, rq));
		break;
	case A2AW * 6 + PERSISTENT * 2 + 1:
		CHECK_MPI(MPI_Neighbor_alltoallw_init_c(sb, b->scnt_c, b->sbyte, b->stypes, rb,
							b->rcnt_c, b->rbyte, b->rtypes, k,
							MPI_INFO_NULL, rq));
		break;
	default:
		CHECK(0);
	}
}

/* For alltoall the send blocks sit at sb + 1 + i * (HDR + 1): lay them so. */
static void dense_alltoall(const struct nb *t, struct bufs *b)
{
	for (int i = 0; i < t->out; i++) {
		b->sdis[i] = 1 + i * (HDR + 1);
		fill(b->send + b->sdis[i], HDR + 1, i, t->dst[i]);
	}
	for (int j = 0; j < t->in; j++)
		b->rdis[j] = j * (HDR + 1);
}

static void prepare(enum call c, const struct nb *t, struct bufs *b, int sendints,
		    int recvints)
{
	layout(c, t, b, sendints, recvints);
	if (c == A2A)
		dense_alltoall(t, b);
	for (int j = 0; j < t->in; j++) {
		if (c == A2A || c == AG)
			b->rdis[j] = j * (HDR + 1);
		if (c == AGV)
			b->rdis[j] = j * (HDR + 3), b->rcnt[j] = HDR + 2;
		b->rdis_c[j] = b->rdis[j];
		b->rcnt_c[j] = b->rcnt[j];
	}
}

/* Alltoallw with derived types on both sides: a block of HDR + 2 ints goes out from a
 * spread copy (every other int of `spread`, 3 elements of two_ints_apart) and comes in as
 * 3 elements of int_pair. */
static void derive_w(const struct nb *t, struct bufs *b, int *spread, const int *send)
{
	for (int i = 0; i < t->out; i++) {
		if (b->scnt[i] != HDR + 2)
			continue;
		int *at = spread + 2 * b->sdis[i];
		for (int e = 0; e < b->scnt[i]; e++)
			at[2 * e] = send[b->sdis[i] + e];
		b->stypes[i] = two_ints_apart;
		b->scnt[i] = b->scnt_c[i] = (HDR + 2) / 2;
		b->sbyte[i] = (MPI_Aint)((char *)at - (char *)send);
	}
	for (int j = 0; j < t->in; j++) {
		if (b->rcnt[j] != HDR + 2 || t->src[j] == MPI_PROC_NULL)
			continue;
		b->rtypes[j] = int_pair;
		b->rcnt[j] = b->rcnt_c[j] = (HDR + 2) / 2;
	}
}

static void one_call(enum call c, enum mode m, bool wide, const struct nb *t)
{
	enum { SENDINTS = 4 * MAXDEG * (HDR + 4), RECVINTS = 4 * MAXDEG * (HDR + 4) };
	/* the dense send data, then the spread copies of derived blocks */
	static int mem[3 * SENDINTS], recv[RECVINTS];
	int *send = mem, *spread = mem + SENDINTS;
	struct bufs b = { .send = send, .recv = recv };
	MPI_Request rq = MPI_REQUEST_NULL;
	char what[64];
	int rounds = m == PERSISTENT ? 2 : 1;

	snprintf(what, sizeof(what), "%s%s", m == BLOCKING ? "blocking" : m == NONBLOCKING ?
		 "nonblocking" : "persistent", wide ? " _c" : "");
	call_no++;
	prepare(c, t, &b, SENDINTS, RECVINTS);
	struct bufs used = b;     /* what the call gets: derived types for alltoallw */
	if (c == A2AW)
		derive_w(t, &used, spread, send);
	for (int round = 0; round < rounds; round++) {
		if (round == 1) {
			/* a restart sends new data: a new call number in every header */
			call_no++;
			for (int e = 0; e < RECVINTS; e++)
				recv[e] = UNTOUCHED;
			if (c == AG || c == AGV)
				send[3] = call_no;
			for (int i = 0; i < t->out && c != AG && c != AGV; i++) {
				send[b.sdis[i] + 3] = call_no;
				if (used.stypes[i] == two_ints_apart)
					spread[2 * b.sdis[i] + 6] = call_no;
			}
		}
		if (m != PERSISTENT || round == 0)
			start_call(c, m, wide, t, &used, &rq);
		if (m == PERSISTENT)
			CHECK_MPI(MPI_Start(&rq));
		if (m != BLOCKING)
			CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
		verify(c, t, &b, what);
	}
	if (m == PERSISTENT)
		CHECK_MPI(MPI_Request_free(&rq));
}

static void all_calls(struct nb *t)
{
	query(t);
	for (int c = 0; c < NCALLS; c++)
		for (int m = 0; m < NMODES; m++)
			for (int w = 0; w < 2; w++)
				one_call((enum call)c, (enum mode)m, w, t);
	/* nonblocking ones outstanding together, completed in reverse */
	MPI_Request rq[3];
	static int s[3][MAXDEG * (HDR + 1)], r[3][MAXDEG * (HDR + 1)];
	for (int k = 0; k < 3; k++) {
		for (int i = 0; i < t->out; i++) {
			s[k][i * (HDR + 1)] = me;
			s[k][i * (HDR + 1) + 1] = k;
		}
		CHECK_MPI(MPI_Ineighbor_alltoall(s[k], HDR + 1, MPI_INT, r[k], HDR + 1, MPI_INT,
						 t->comm, &rq[k]));
	}
	/* another collective of the communicator while they are outstanding */
	int one = 1, sum = 0;
	CHECK_MPI(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, t->comm));
	CHECK_INT(sum, nranks);
	for (int k = 2; k >= 0; k--)
		CHECK_MPI(MPI_Wait(&rq[k], MPI_STATUS_IGNORE));
	for (int k = 0; k < 3; k++)
		for (int j = 0; j < t->in; j++)
			if (t->src[j] != MPI_PROC_NULL) {
				CHECK_INT(r[k][j * (HDR + 1)], t->src[j]);
				CHECK_INT(r[k][j * (HDR + 1) + 1], k);
			}
	MPI_Comm_free(&t->comm);
}

int main(int argc, char **argv)
{
	struct nb t;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &me);
	MPI_Comm_size(MPI_COMM_WORLD, &nranks);
	MPI_Datatype v;
	MPI_Type_vector(2, 1, 2, MPI_INT, &v);
	MPI_Type_create_resized(v, 0, 4 * (MPI_Aint)sizeof(int), &two_ints_apart);
	MPI_Type_free(&v);
	MPI_Type_commit(&two_ints_apart);
	MPI_Type_contiguous(2, MPI_INT, &int_pair);
	MPI_Type_commit(&int_pair);

	/* 2-D periodic, MPI_Dims_create: 1x1 (own neighbour), 2x1, 2x2, 4x4, 8x8 */
	int d2[2] = { 0, 0 }, p2[2] = { 1, 1 };
	MPI_Dims_create(nranks, 2, d2);
	CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 2, d2, p2, 0, &t.comm));
	all_calls(&t);
	/* 2-D not periodic: MPI_PROC_NULL at the edges */
	int q2[2] = { 0, 0 };
	CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 2, d2, q2, 0, &t.comm));
	all_calls(&t);
	/* 3-D with a periodic dimension of size 2 and one of size 1, the third not periodic */
	if (nranks % 2 == 0) {
		int d3[3] = { 2, 1, nranks / 2 }, p3[3] = { 1, 1, 0 };
		CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 3, d3, p3, 0, &t.comm));
		all_calls(&t);
	}
	/* 1-D periodic over every rank */
	int d1[1] = { nranks }, p1[1] = { 1 };
	CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 1, d1, p1, 0, &t.comm));
	all_calls(&t);

	/* graph: each rank's neighbours r+1, r+1, r-1, r-1 (repeated edges, symmetric) */
	int *index = malloc(sizeof(int) * (size_t)nranks), *edges = malloc(sizeof(int) * 4 * (size_t)nranks);
	for (int r = 0; r < nranks; r++) {
		index[r] = 4 * (r + 1);
		edges[4 * r] = edges[4 * r + 1] = (r + 1) % nranks;
		edges[4 * r + 2] = edges[4 * r + 3] = (r + nranks - 1) % nranks;
	}
	CHECK_MPI(MPI_Graph_create(MPI_COMM_WORLD, nranks, index, edges, 0, &t.comm));
	all_calls(&t);
	free(index);
	free(edges);

	/* distributed graph, adjacent, weighted: from r-1 and r-2, to r+1 and r+2 (rank 0
	 * has no sources, the last rank no destinations) */
	int src[2], dst[2], sw[2] = { 3, 4 }, dw[2] = { 5, 6 }, ni = 0, no = 0;
	for (int k = 1; k <= 2; k++) {
		if (me - k >= 0)
			src[ni++] = me - k;
		if (me + k < nranks)
			dst[no++] = me + k;
	}
	CHECK_MPI(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, ni, src, sw, no, dst, dw,
						 MPI_INFO_NULL, 0, &t.comm));
	all_calls(&t);
	/* the same unweighted, with a repeated edge r -> r+1 */
	int src2[4], dst2[4];
	ni = no = 0;
	if (me >= 1)
		src2[ni++] = me - 1, src2[ni++] = me - 1;
	if (me + 1 < nranks)
		dst2[no++] = me + 1, dst2[no++] = me + 1;
	CHECK_MPI(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, ni, src2, MPI_UNWEIGHTED, no,
						 dst2, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &t.comm));
	all_calls(&t);
	/* MPI_Dist_graph_create: each rank names its own edges to r+1 and r+3, weighted */
	int srcs[1] = { me }, deg[1] = { 2 }, to[2] = { (me + 1) % nranks, (me + 3) % nranks };
	int wt[2] = { 1, 2 };
	CHECK_MPI(MPI_Dist_graph_create(MPI_COMM_WORLD, 1, srcs, deg, to, wt, MPI_INFO_NULL, 0,
					&t.comm));
	all_calls(&t);

	MPI_Type_free(&two_ints_apart);
	MPI_Type_free(&int_pair);
	MPI_Barrier(MPI_COMM_WORLD);
	if (me == 0)
		printf("ok\n");
	MPI_Finalize();
	return 0;
}
