/* topo_graph_and_dist_graph_neighbours_match: a graph communicator (ring with chords, a
 * self-loop, on all ranks and on fewer) answers MPI_Graphdims_get, _get, _neighbors_count,
 * _neighbors and MPI_Graph_map as built, and messages to each neighbour arrive; distributed
 * graphs made adjacent and not, weighted and not, with ranks declaring edges of others,
 * repeated edges and a rank with none (MPI_WEIGHTS_EMPTY), list at each rank exactly the
 * edges declared anywhere, and a message per edge sent in destinations order arrives in
 * sources order carrying the weight both ends list; dup keeps the topology. */
/* ranks: 1 2 4 16 64 */
#include "check.h"

static void topo_is(MPI_Comm c, int kind)
{
	int status = -1;
	CHECK_MPI(MPI_Topo_test(c, &status));
	CHECK_INT(status, kind);
}

/* The graph on n nodes: node i's neighbours are i+1, i-1 (mod n) and, for even i, i+n/2;
 * node 0 also has itself. */
static int graph_build(int n, int *index, int *edges)
{
	int e = 0;
	for (int i = 0; i < n; i++) {
		edges[e++] = (i + 1) % n;
		edges[e++] = (i + n - 1) % n;
		if (i % 2 == 0)
			edges[e++] = (i + n / 2) % n;
		if (i == 0)
			edges[e++] = 0;
		index[i] = e;
	}
	return e;
}

static void check_graph(MPI_Comm world, int n)
{
	int rank, *index = malloc(sizeof(int) * 64), *edges = malloc(sizeof(int) * 4 * 64);
	int nedges = graph_build(n, index, edges);
	MPI_Comm g;

	MPI_Comm_rank(world, &rank);
	CHECK_MPI(MPI_Graph_create(world, n, index, edges, 1, &g));
	int mapped;
	CHECK_MPI(MPI_Graph_map(world, n, index, edges, &mapped));
	CHECK_INT(mapped, rank < n ? rank : MPI_UNDEFINED);
	if (rank >= n) {
		CHECK(g == MPI_COMM_NULL);
		goto out;
	}
	CHECK(g != MPI_COMM_NULL);
	topo_is(g, MPI_GRAPH);
	int gr, gs, nn, ne, gi[64], ge[256];
	MPI_Comm_rank(g, &gr);
	MPI_Comm_size(g, &gs);
	CHECK_INT(gr, rank);
	CHECK_INT(gs, n);
	CHECK_MPI(MPI_Graphdims_get(g, &nn, &ne));
	CHECK_INT(nn, n);
	CHECK_INT(ne, nedges);
	CHECK_MPI(MPI_Graph_get(g, 64, 256, gi, ge));
	for (int i = 0; i < n; i++)
		CHECK_INT(gi[i], index[i]);
	for (int j = 0; j < nedges; j++)
		CHECK_INT(ge[j], edges[j]);
	for (int r = 0; r < n; r++) {
		int cnt, nb[8], first = r ? index[r - 1] : 0;
		CHECK_MPI(MPI_Graph_neighbors_count(g, r, &cnt));
		CHECK_INT(cnt, index[r] - first);
		CHECK_MPI(MPI_Graph_neighbors(g, r, 8, nb));
		for (int k = 0; k < cnt; k++)
			CHECK_INT(nb[k], edges[first + k]);
	}
	/* Each neighbour gets my rank; I get theirs, in the order listed (the graph is
	 * symmetric except node 0's self-loop and the chords, so send on every edge and
	 * receive on every edge that points back). */
	int cnt, nb[8], got[8];
	MPI_Request reqs[16];
	MPI_Graph_neighbors_count(g, rank, &cnt);
	MPI_Graph_neighbors(g, rank, 8, nb);
	int nr = 0;
	for (int k = 0; k < cnt; k++)
		MPI_Isend(&rank, 1, MPI_INT, nb[k], 5, g, &reqs[nr++]);
	/* Who lists me: every node whose list holds my rank, once per listing. */
	int from = 0;
	for (int i = 0; i < n; i++)
		for (int j = i ? index[i - 1] : 0; j < index[i]; j++)
			if (edges[j] == rank) {
				CHECK(from < 8);
				got[from] = -1;
				MPI_Irecv(&got[from], 1, MPI_INT, i, 5, g, &reqs[nr++]);
				from++;
			}
	CHECK_MPI(MPI_Waitall(nr, reqs, MPI_STATUSES_IGNORE));
	for (int i = 0, k = 0; i < n; i++)
		for (int j = i ? index[i - 1] : 0; j < index[i]; j++)
			if (edges[j] == rank)
				CHECK_INT(got[k++], i);
	MPI_Comm d;
	CHECK_MPI(MPI_Comm_dup(g, &d));
	topo_is(d, MPI_GRAPH);
	CHECK_MPI(MPI_Graph_neighbors_count(d, rank, &nn));
	CHECK_INT(nn, cnt);
	MPI_Comm_free(&d);
	MPI_Comm_free(&g);
out:
	free(index);
	free(edges);
}

/* Every edge of the distributed graph the test declares on `size` ranks: rank r declares
 * r+1 -> r+2 (weight 10r+1) and r -> r+1 (weight 10r+2), ranks r % 3 == 0 also
 * r -> r+1 again (weight 10r+3), and the last rank (of 3 or more) declares nothing. */
struct edge {
	int src, dst, w;
};

static int declared(int r, int size, struct edge *e)
{
	int n = 0;
	if (size >= 3 && r == size - 1)
		return 0;
	e[n++] = (struct edge){ (r + 1) % size, (r + 2) % size, 10 * r + 1 };
	e[n++] = (struct edge){ r, (r + 1) % size, 10 * r + 2 };
	if (r % 3 == 0)
		e[n++] = (struct edge){ r, (r + 1) % size, 10 * r + 3 };
	return n;
}

/* Sort key for comparing edge lists as multisets. */
static int cmp_pair(const void *x, const void *y)
{
	const int *a = x, *b = y;
	return a[0] != b[0] ? a[0] - b[0] : a[1] - b[1];
}

static void check_dist(MPI_Comm world, int weighted)
{
	int rank, size;
	struct edge e[3], all[3];
	MPI_Comm_rank(world, &rank);
	MPI_Comm_size(world, &size);
	int n = declared(rank, size, e);
	/* Declared as (source, degree, destinations) groups: one per edge. */
	int sources[3], degrees[3], dests[3], weights[3];
	for (int i = 0; i < n; i++) {
		sources[i] = e[i].src;
		degrees[i] = 1;
		dests[i] = e[i].dst;
		weights[i] = e[i].w;
	}
	MPI_Comm g;
	CHECK_MPI(MPI_Dist_graph_create(world, n, sources, degrees, dests,
					!weighted ? MPI_UNWEIGHTED
					: n == 0 ? MPI_WEIGHTS_EMPTY : weights,
					MPI_INFO_NULL, 0, &g));
	topo_is(g, MPI_DIST_GRAPH);
	int indeg, outdeg, wflag;
	CHECK_MPI(MPI_Dist_graph_neighbors_count(g, &indeg, &outdeg, &wflag));
	CHECK_INT(wflag, weighted);
	/* What every rank declared, about me. */
	int want_in[256][2], want_out[256][2], nin = 0, nout = 0;
	for (int r = 0; r < size; r++) {
		int m = declared(r, size, all);
		for (int i = 0; i < m; i++) {
			if (all[i].dst == rank) {
				want_in[nin][0] = all[i].src;
				want_in[nin++][1] = weighted ? all[i].w : 0;
			}
			if (all[i].src == rank) {
				want_out[nout][0] = all[i].dst;
				want_out[nout++][1] = weighted ? all[i].w : 0;
			}
		}
	}
	CHECK_INT(indeg, nin);
	CHECK_INT(outdeg, nout);
	int src[256], sw[256], dst[256], dw[256], got_in[256][2], got_out[256][2];
	CHECK_MPI(MPI_Dist_graph_neighbors(g, 256, src, weighted ? sw : MPI_UNWEIGHTED, 256, dst,
					   weighted ? dw : MPI_UNWEIGHTED));
	for (int i = 0; i < indeg; i++) {
		got_in[i][0] = src[i];
		got_in[i][1] = weighted ? sw[i] : 0;
	}
	for (int i = 0; i < outdeg; i++) {
		got_out[i][0] = dst[i];
		got_out[i][1] = weighted ? dw[i] : 0;
	}
	qsort(want_in, (size_t)nin, sizeof(want_in[0]), cmp_pair);
	qsort(got_in, (size_t)nin, sizeof(got_in[0]), cmp_pair);
	qsort(want_out, (size_t)nout, sizeof(want_out[0]), cmp_pair);
	qsort(got_out, (size_t)nout, sizeof(got_out[0]), cmp_pair);
	CHECK(memcmp(want_in, got_in, sizeof(int) * 2 * (size_t)nin) == 0);
	CHECK(memcmp(want_out, got_out, sizeof(int) * 2 * (size_t)nout) == 0);
	/* One message per edge, sent in destinations order, received in sources order: the
	 * k-th edge between two ranks is the same edge at both ends. */
	if (weighted) {
		MPI_Request reqs[512];
		int in[256], nr = 0;
		for (int i = 0; i < outdeg; i++)
			MPI_Isend(&dw[i], 1, MPI_INT, dst[i], 9, g, &reqs[nr++]);
		for (int i = 0; i < indeg; i++)
			MPI_Irecv(&in[i], 1, MPI_INT, src[i], 9, g, &reqs[nr++]);
		CHECK_MPI(MPI_Waitall(nr, reqs, MPI_STATUSES_IGNORE));
		for (int i = 0; i < indeg; i++)
			CHECK_INT(in[i], sw[i]);
	}
	MPI_Comm d;
	CHECK_MPI(MPI_Comm_dup(g, &d));
	topo_is(d, MPI_DIST_GRAPH);
	int i2, o2, w2;
	MPI_Dist_graph_neighbors_count(d, &i2, &o2, &w2);
	CHECK_INT(i2, indeg);
	CHECK_INT(o2, outdeg);
	MPI_Comm_free(&d);
	MPI_Comm_free(&g);
}

static void check_adjacent(MPI_Comm world, int weighted)
{
	int rank, size;
	MPI_Comm_rank(world, &rank);
	MPI_Comm_size(world, &size);
	/* In from left and right, out to right, left and right again; none on the last
	 * rank of 3 or more, nor to it. */
	int left = (rank + size - 1) % size, right = (rank + 1) % size;
	int lone = size >= 3 ? size - 1 : -1;
	int src[2], sw[2], dst[2], dw[2], kin[2], kout[2], ni = 0, no = 0;
	if (rank != lone) {
		if (left != lone) {
			kin[ni] = 0;
			src[ni] = left;
			sw[ni++] = 100 * left + rank;
		}
		if (right != lone) {
			kin[ni] = 1;
			src[ni] = right;
			sw[ni++] = 100 * right + rank + 50;
		}
		if (right != lone) {
			kout[no] = 0;
			dst[no] = right;
			dw[no++] = 100 * rank + right;
		}
		if (left != lone) {
			kout[no] = 1;
			dst[no] = left;
			dw[no++] = 100 * rank + left + 50;
		}
	}
	MPI_Comm g;
	CHECK_MPI(MPI_Dist_graph_create_adjacent(
		world, ni, src, !weighted ? MPI_UNWEIGHTED : ni ? sw : MPI_WEIGHTS_EMPTY, no, dst,
		!weighted ? MPI_UNWEIGHTED : no ? dw : MPI_WEIGHTS_EMPTY, MPI_INFO_NULL, 1, &g));
	topo_is(g, MPI_DIST_GRAPH);
	int indeg, outdeg, wflag, gs[4], gsw[4], gd[4], gdw[4];
	CHECK_MPI(MPI_Dist_graph_neighbors_count(g, &indeg, &outdeg, &wflag));
	CHECK_INT(indeg, ni);
	CHECK_INT(outdeg, no);
	CHECK_INT(wflag, weighted);
	CHECK_MPI(MPI_Dist_graph_neighbors(g, 4, gs, gsw, 4, gd, gdw));
	for (int i = 0; i < ni; i++) {
		CHECK_INT(gs[i], src[i]);
		if (weighted)
			CHECK_INT(gsw[i], sw[i]);
	}
	for (int i = 0; i < no; i++) {
		CHECK_INT(gd[i], dst[i]);
		if (weighted)
			CHECK_INT(gdw[i], dw[i]);
	}
	/* Values travel along the declared edges: to the right with tag 3, to the left 4. */
	MPI_Request reqs[8];
	int in[4], nr = 0;
	for (int i = 0; i < no; i++)
		MPI_Isend(&dw[i], 1, MPI_INT, dst[i], 3 + kout[i], g, &reqs[nr++]);
	for (int i = 0; i < ni; i++)
		MPI_Irecv(&in[i], 1, MPI_INT, src[i], 3 + kin[i], g, &reqs[nr++]);
	CHECK_MPI(MPI_Waitall(nr, reqs, MPI_STATUSES_IGNORE));
	for (int i = 0; i < ni; i++)
		CHECK_INT(in[i], 100 * src[i] + rank + 50 * kin[i]);
	MPI_Comm_free(&g);
}

int main(int argc, char **argv)
{
	int rank, size;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	CHECK(size <= 64);

	check_graph(MPI_COMM_WORLD, size);
	check_graph(MPI_COMM_WORLD, size > 1 ? size / 2 : 1);
	MPI_Comm g;
	CHECK_MPI(MPI_Graph_create(MPI_COMM_WORLD, 0, NULL, NULL, 0, &g));
	CHECK(g == MPI_COMM_NULL);
	for (int weighted = 0; weighted <= 1; weighted++) {
		check_dist(MPI_COMM_WORLD, weighted);
		check_adjacent(MPI_COMM_WORLD, weighted);
	}
	CHECK_MPI(MPI_Finalize());
	return 0;
}
