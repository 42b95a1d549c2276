/* Process topologies (MPI 4.1, chapter 8): the Cartesian, graph and distributed-graph
 * structures communicators carry, their constructors (MPI_Cart_create, MPI_Cart_sub,
 * MPI_Graph_create, MPI_Dist_graph_create and _adjacent), the map functions and the
 * reorder policy they share, and the neighbourhood each rank's topology gives the
 * neighborhood collectives. The queries and MPI_Dims_create are in comm/topo_bindings.c.
 * Entered by rank threads, each on its own communicators' topologies.
 *
 * A constructor is a split of the old communicator (shl_comm_split_as: on one node a
 * meeting, across nodes coll/net_create.c) keyed by each member's rank in the new one,
 * then the member attaches its own copy of the topology to its new object. The topology
 * is built before the split from the arguments alone, except for MPI_Dist_graph_create,
 * whose members first learn their edges from each other through MPI_Alltoall and
 * MPI_Alltoallv on the old communicator (PMPI calls: they work across nodes too).
 * Reorder (docs/topologies.md): a Cartesian grid spanning several nodes is laid out so
 * each node holds a compact block of it; otherwise ranks keep their order. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/comm/internal.h"
#include "runtime/comm/hooks.h"

/* The weight sentinels of mpi.h: only their addresses mean anything. */
SHL_API int shl_mpi_unweighted[1], shl_mpi_weights_empty[1];

struct shl_topo *shl_topo_hold(struct shl_topo *t)
{
	if (t != NULL)
		atomic_fetch_add_explicit(&t->refs, 1, memory_order_relaxed);
	return t;
}

void shl_topo_drop(struct shl_topo *t)
{
	if (t == NULL || atomic_fetch_sub_explicit(&t->refs, 1, memory_order_acq_rel) != 1)
		return;
	free(t->dims);
	free(t->periods);
	free(t->index);
	free(t->edges);
	free(t->sources);
	free(t->destinations);
	free(t->sourceweights);
	free(t->destweights);
	free(t);
}

/* n ints, at least one allocated so that an empty list is not NULL-as-failure. */
static int *ints(long n)
{
	return malloc((size_t)(n > 0 ? n : 1) * sizeof(int));
}

/* ---- Cartesian grids ---- */

/* Coordinates of grid rank `rank` (row-major: the last dimension varies fastest). */
void shl_cart_coords(const struct shl_topo *t, int rank, int *coords)
{
	for (int d = t->ndims - 1; d >= 0; d--) {
		coords[d] = rank % t->dims[d];
		rank /= t->dims[d];
	}
}

/* The rank `disp` steps from `coords` along dimension d: wrapped on a periodic dimension,
 * MPI_PROC_NULL off the edge of another. */
int shl_cart_step(const struct shl_topo *t, const int *coords, int d, long disp)
{
	int rank = 0;

	for (int i = 0; i < t->ndims; i++) {
		long x = coords[i];
		if (i == d) {
			x += disp;
			if (t->periods[i])
				x = ((x % t->dims[i]) + t->dims[i]) % t->dims[i];
			else if (x < 0 || x >= t->dims[i])
				return MPI_PROC_NULL;
		}
		rank = rank * t->dims[i] + (int)x;
	}
	return rank;
}

/* A Cartesian topology of `ndims` dimensions for the member at grid rank `rank`, or NULL
 * when out of memory. periods[] as the user gives them (nonzero: periodic). */
static struct shl_topo *cart_new(int ndims, const int *dims, const int *periods, int rank)
{
	struct shl_topo *t = calloc(1, sizeof(*t));
	int *coords = ints((long)ndims);

	if (t == NULL || coords == NULL)
		goto fail;
	t->kind = MPI_CART;
	atomic_init(&t->refs, 1);
	t->ndims = ndims;
	t->dims = ints((long)ndims);
	t->periods = ints((long)ndims);
	t->indegree = t->outdegree = 2 * ndims;
	t->sources = ints((long)t->indegree);
	t->destinations = ints((long)t->outdegree);
	if (t->dims == NULL || t->periods == NULL || t->sources == NULL || t->destinations == NULL)
		goto fail;
	for (int d = 0; d < ndims; d++) {
		t->dims[d] = dims[d];
		t->periods[d] = periods[d] != 0;
	}
	shl_cart_coords(t, rank, coords);
	for (int d = 0; d < ndims; d++) {
		t->sources[2 * d] = shl_cart_step(t, coords, d, -1);
		t->sources[2 * d + 1] = shl_cart_step(t, coords, d, 1);
	}
	memcpy(t->destinations, t->sources, (size_t)t->indegree * sizeof(int));
	free(coords);
	return t;
fail:
	free(coords);
	if (t != NULL) {
		atomic_init(&t->refs, 1);
		shl_topo_drop(t);
	}
	return NULL;
}

/* Check a grid's arguments for `fn` on `c`: MPI_SUCCESS and *nodes, the product of dims,
 * or the error reported. */
static int cart_args(const char *fn, struct shl_comm *c, int ndims, const int *dims,
		     const int *periods, bool need_periods, int *nodes)
{
	long prod = 1;

	if (ndims < 0)
		return shl_err(c, MPI_ERR_DIMS, fn, "ndims %d is negative", ndims);
	if (ndims > 0 && dims == NULL)
		return shl_err(c, MPI_ERR_ARG, fn, "dims is NULL");
	if (ndims > 0 && need_periods && periods == NULL)
		return shl_err(c, MPI_ERR_ARG, fn, "periods is NULL");
	for (int d = 0; d < ndims; d++) {
		if (dims[d] <= 0)
			return shl_err(c, MPI_ERR_DIMS, fn, "dims[%d] is %d (must be above 0)", d,
				       dims[d]);
		prod *= dims[d];
		if (prod > c->size)
			break;
	}
	if (prod > c->size)
		return shl_err(c, MPI_ERR_DIMS, fn,
			       "the grid has more points than comm has ranks (%d)", c->size);
	*nodes = (int)prod;
	return MPI_SUCCESS;
}

/* Cells of the box [lo, hi) in the order of its recursive halving along its longest side:
 * any run of consecutive cells in this order is a compact piece of the grid. */
static void halving_order(const struct shl_topo *t, int *lo, int *hi, int **out)
{
	int longest = 0, d = -1;

	for (int i = 0; i < t->ndims; i++)
		if (hi[i] - lo[i] > longest) {
			longest = hi[i] - lo[i];
			d = i;
		}
	if (longest <= 1) {
		int rank = 0;
		for (int i = 0; i < t->ndims; i++)
			rank = rank * t->dims[i] + lo[i];
		*(*out)++ = rank;
		return;
	}
	int keep = hi[d], mid = lo[d] + longest / 2;
	hi[d] = mid;
	halving_order(t, lo, hi, out);
	hi[d] = keep;
	keep = lo[d];
	lo[d] = mid;
	halving_order(t, lo, hi, out);
	lo[d] = keep;
}

/* Edges of the grid (each +1 step) whose two ends have different nodes, owner[] giving the
 * member at each grid rank and node[] each member's node. */
static long offnode_edges(const struct shl_topo *t, const int *owner, const int *node, int n,
			  int *coords)
{
	long cut = 0;

	for (int x = 0; x < n; x++) {
		shl_cart_coords(t, x, coords);
		for (int d = 0; d < t->ndims; d++) {
			int y = shl_cart_step(t, coords, d, 1);
			if (y != MPI_PROC_NULL && node[owner[x]] != node[owner[y]])
				cut += 1;
		}
	}
	return cut;
}

/* Members by node (`node` gives each one's), then by rank. */
static int by_node_cmp(const void *x, const void *y, void *node)
{
	const int *of = node;
	int a = *(const int *)x, b = *(const int *)y;

	if (of[a] != of[b])
		return of[a] < of[b] ? -1 : 1;
	return (a > b) - (a < b);
}

/* The reorder policy for a grid of `n` points (n <= c->size): the grid rank of each of
 * c's members 0..n-1, in rank[] (the others take no part). Identity unless the members
 * span several nodes and giving each node a compact block cuts fewer grid edges between
 * nodes. Every member computes the same answer from the job's layout. 0 or -ENOMEM. */
static int cart_layout(struct shl_comm *c, int ndims, const int *dims, const int *periods,
		       int n, int *rank)
{
	struct shl_topo t = { .ndims = ndims, .dims = (int *)dims };
	int *node = ints((long)n), *by_node = ints((long)n), *cells = ints((long)n);
	int *owner = ints((long)n), *coords = ints(2 * (long)ndims + 1);
	int *period = ints((long)ndims), err = 0;
	bool several = false;

	for (int i = 0; i < n; i++)
		rank[i] = i;
	if (!node || !by_node || !cells || !owner || !coords || !period) {
		err = -ENOMEM;
		goto out;
	}
	for (int i = 0; i < n; i++) {
		node[i] = shl_coll_net_node_of(shl_comm_world_rank(c, i));
		several |= node[i] != node[0];
	}
	if (!several || ndims == 0)
		goto out;
	for (int d = 0; d < ndims; d++)
		period[d] = periods[d] != 0;
	t.periods = period;
	/* Members by node, in rank order within a node. */
	for (int i = 0; i < n; i++)
		by_node[i] = i;
	qsort_r(by_node, (size_t)n, sizeof(int), by_node_cmp, node);
	int *lo = coords, *hi = coords + ndims, *out = cells;
	for (int d = 0; d < ndims; d++) {
		lo[d] = 0;
		hi[d] = dims[d];
	}
	halving_order(&t, lo, hi, &out);
	for (int i = 0; i < n; i++)
		owner[i] = i;
	long before = offnode_edges(&t, owner, node, n, coords);
	for (int i = 0; i < n; i++)
		owner[cells[i]] = by_node[i];
	if (offnode_edges(&t, owner, node, n, coords) < before)
		for (int x = 0; x < n; x++)
			rank[owner[x]] = x;
out:
	free(node);
	free(by_node);
	free(cells);
	free(owner);
	free(coords);
	free(period);
	return err;
}

/* The grid rank this member gets in a grid of `n` points: MPI_UNDEFINED if none, or
 * -ENOMEM. */
static int cart_rank_of(struct shl_comm *c, int ndims, const int *dims, const int *periods,
			int n, bool reorder)
{
	if (c->rank >= n)
		return MPI_UNDEFINED;
	if (!reorder)
		return c->rank;
	int *rank = ints((long)n), got;
	if (rank == NULL || cart_layout(c, ndims, dims, periods, n, rank) < 0) {
		free(rank);
		return -ENOMEM;
	}
	got = rank[c->rank];
	free(rank);
	return got;
}

/* Split `p` so this member gets grid rank `at` (MPI_UNDEFINED: MPI_COMM_NULL) and attach
 * `t` (NULL with at undefined; consumed). */
static int attach_split(const char *fn, struct shl_rank *r, struct shl_comm *p, int color,
			int at, struct shl_topo *t, MPI_Comm *newcomm)
{
	int err = shl_comm_split_as(fn, r, p, at == MPI_UNDEFINED ? MPI_UNDEFINED : color,
				    at == MPI_UNDEFINED ? 0 : at, newcomm);

	if (err != MPI_SUCCESS || *newcomm == MPI_COMM_NULL) {
		shl_topo_drop(t);
		return err;
	}
	(*newcomm)->topo = t;
	return MPI_SUCCESS;
}

int PMPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[], const int periods[],
		     int reorder, MPI_Comm *comm_cart)
{
	const char *fn = "MPI_Cart_create";
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_comm *p;
	struct shl_topo *t = NULL;
	int n, at, err = shl_comm_arg_intra(fn, r, comm_old, &p);

	if (err != MPI_SUCCESS)
		return err;
	if ((err = shl_coll_usable(p, fn)) != MPI_SUCCESS)
		return err;
	if (comm_cart == NULL)
		return shl_err(p, MPI_ERR_ARG, fn, "comm_cart is NULL");
	if ((err = cart_args(fn, p, ndims, dims, periods, true, &n)) != MPI_SUCCESS)
		return err;
	at = cart_rank_of(p, ndims, dims, periods, n, reorder != 0);
	if (at != MPI_UNDEFINED && at >= 0)
		t = cart_new(ndims, dims, periods, at);
	if (at == -ENOMEM || (at != MPI_UNDEFINED && t == NULL))
		return shl_err(p, MPI_ERR_NO_MEM, fn, "out of memory");
	return attach_split(fn, r, p, 0, at, t, comm_cart);
}
SHL_WEAK_ALIAS(Cart_create);

int PMPI_Cart_map(MPI_Comm comm, int ndims, const int dims[], const int periods[], int *newrank)
{
	const char *fn = "MPI_Cart_map";
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_comm *c;
	int n, err = shl_comm_arg_intra(fn, r, comm, &c);

	if (err != MPI_SUCCESS)
		return err;
	if (newrank == NULL)
		return shl_err(c, MPI_ERR_ARG, fn, "newrank is NULL");
	if ((err = cart_args(fn, c, ndims, dims, periods, true, &n)) != MPI_SUCCESS)
		return err;
	int at = cart_rank_of(c, ndims, dims, periods, n, true);
	if (at == -ENOMEM)
		return shl_err(c, MPI_ERR_NO_MEM, fn, "out of memory");
	*newrank = at;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Cart_map);

int PMPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm)
{
	const char *fn = "MPI_Cart_sub";
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_comm *c;
	int err = shl_comm_arg_intra(fn, r, comm, &c);

	if (err != MPI_SUCCESS)
		return err;
	if ((err = shl_coll_usable(c, fn)) != MPI_SUCCESS)
		return err;
	const struct shl_topo *t = c->topo;
	if (t == NULL || t->kind != MPI_CART)
		return shl_err(c, MPI_ERR_TOPOLOGY, fn, "comm has no Cartesian topology");
	if (newcomm == NULL)
		return shl_err(c, MPI_ERR_ARG, fn, "newcomm is NULL");
	if (t->ndims > 0 && remain_dims == NULL)
		return shl_err(c, MPI_ERR_ARG, fn, "remain_dims is NULL");
	int *coords = calloc((size_t)t->ndims * 3 + 1, sizeof(int)), *dims = coords + t->ndims;
	int *periods = dims + t->ndims, kept = 0, color = 0, key = 0;
	if (coords == NULL)
		return shl_err(c, MPI_ERR_NO_MEM, fn, "out of memory");
	shl_cart_coords(t, c->rank, coords);
	/* The dropped dimensions' coordinates name the sub-grid, the kept ones the place in
	 * it; no dimension kept: each member alone in a zero-dimensional grid. */
	for (int d = 0; d < t->ndims; d++) {
		if (remain_dims[d]) {
			dims[kept] = t->dims[d];
			periods[kept++] = t->periods[d];
			key = key * t->dims[d] + coords[d];
		} else {
			color = color * t->dims[d] + coords[d];
		}
	}
	struct shl_topo *sub = cart_new(kept, dims, periods, key);
	free(coords);
	if (sub == NULL)
		return shl_err(c, MPI_ERR_NO_MEM, fn, "out of memory");
	return attach_split(fn, r, c, color, key, sub, newcomm);
}
SHL_WEAK_ALIAS(Cart_sub);

/* ---- graphs ---- */

/* Check a graph's arguments for `fn` on `c`: MPI_SUCCESS, or the error reported. */
static int graph_args(const char *fn, struct shl_comm *c, int nnodes, const int *index,
		      const int *edges)
{
	if (nnodes < 0 || nnodes > c->size)
		return shl_err(c, MPI_ERR_ARG, fn, "nnodes %d is outside 0..%d (comm's size)",
			       nnodes, c->size);
	if (nnodes > 0 && index == NULL)
		return shl_err(c, MPI_ERR_ARG, fn, "index is NULL");
	for (int i = 0; i < nnodes; i++)
		if (index[i] < (i ? index[i - 1] : 0))
			return shl_err(c, MPI_ERR_ARG, fn,
				       "index[%d] is %d, below index[%d] (degrees are not negative)",
				       i, index[i], i - 1);
	int nedges = nnodes ? index[nnodes - 1] : 0;
	if (nedges > 0 && edges == NULL)
		return shl_err(c, MPI_ERR_ARG, fn, "edges is NULL");
	for (int j = 0; j < nedges; j++)
		if (edges[j] < 0 || edges[j] >= nnodes)
			return shl_err(c, MPI_ERR_RANK, fn,
				       "edges[%d] is %d, not a node of the graph (0..%d)", j,
				       edges[j], nnodes - 1);
	return MPI_SUCCESS;
}

/* The graph topology for node `rank`, or NULL when out of memory. */
static struct shl_topo *graph_new(int nnodes, const int *index, const int *edges, int rank)
{
	struct shl_topo *t = calloc(1, sizeof(*t));
	int nedges = index[nnodes - 1];

	if (t == NULL)
		return NULL;
	t->kind = MPI_GRAPH;
	atomic_init(&t->refs, 1);
	t->nnodes = nnodes;
	t->index = ints((long)nnodes);
	t->edges = ints((long)nedges);
	int first = rank ? index[rank - 1] : 0;
	t->indegree = t->outdegree = index[rank] - first;
	t->sources = ints((long)t->indegree);
	t->destinations = ints((long)t->indegree);
	if (!t->index || !t->edges || !t->sources || !t->destinations) {
		shl_topo_drop(t);
		return NULL;
	}
	memcpy(t->index, index, (size_t)nnodes * sizeof(int));
	memcpy(t->edges, edges, (size_t)nedges * sizeof(int));
	memcpy(t->sources, edges + first, (size_t)t->indegree * sizeof(int));
	memcpy(t->destinations, edges + first, (size_t)t->indegree * sizeof(int));
	return t;
}

int PMPI_Graph_create(MPI_Comm comm_old, int nnodes, const int index[], const int edges[],
		      int reorder, MPI_Comm *comm_graph)
{
	const char *fn = "MPI_Graph_create";
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_comm *p;
	struct shl_topo *t = NULL;
	int err = shl_comm_arg_intra(fn, r, comm_old, &p);

	(void)reorder;  /* a graph keeps the old order (docs/topologies.md) */
	if (err != MPI_SUCCESS)
		return err;
	if ((err = shl_coll_usable(p, fn)) != MPI_SUCCESS)
		return err;
	if (comm_graph == NULL)
		return shl_err(p, MPI_ERR_ARG, fn, "comm_graph is NULL");
	if ((err = graph_args(fn, p, nnodes, index, edges)) != MPI_SUCCESS)
		return err;
	int at = p->rank < nnodes ? p->rank : MPI_UNDEFINED;
	if (at != MPI_UNDEFINED && (t = graph_new(nnodes, index, edges, at)) == NULL)
		return shl_err(p, MPI_ERR_NO_MEM, fn, "out of memory");
	return attach_split(fn, r, p, 0, at, t, comm_graph);
}
SHL_WEAK_ALIAS(Graph_create);

int PMPI_Graph_map(MPI_Comm comm, int nnodes, const int index[], const int edges[],
		   int *newrank)
{
	const char *fn = "MPI_Graph_map";
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_comm *c;
	int err = shl_comm_arg_intra(fn, r, comm, &c);

	if (err != MPI_SUCCESS)
		return err;
	if (newrank == NULL)
		return shl_err(c, MPI_ERR_ARG, fn, "newrank is NULL");
	if ((err = graph_args(fn, c, nnodes, index, edges)) != MPI_SUCCESS)
		return err;
	*newrank = c->rank < nnodes ? c->rank : MPI_UNDEFINED;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Graph_map);

/* ---- distributed graphs ---- */

/* Check one rank's list of `n` ranks of `c` named `what` and its weights `w` (MPI_UNWEIGHTED
 * when `weighted` is false; MPI_WEIGHTS_EMPTY allowed when n is 0). */
static int dist_list(const char *fn, struct shl_comm *c, const char *what, int n,
		     const int *ranks, const char *wname, const int *w, bool weighted)
{
	if (n > 0 && ranks == NULL)
		return shl_err(c, MPI_ERR_ARG, fn, "%s is NULL", what);
	for (int i = 0; i < n; i++)
		if (ranks[i] < 0 || ranks[i] >= c->size)
			return shl_err(c, MPI_ERR_RANK, fn, "%s[%d] is %d, not a rank of comm_old (0..%d)",
				       what, i, ranks[i], c->size - 1);
	if (!weighted || n == 0)
		return MPI_SUCCESS;
	if (w == NULL || w == MPI_WEIGHTS_EMPTY)
		return shl_err(c, MPI_ERR_ARG, fn, "%s is %s with %d edges", wname,
			       w == NULL ? "NULL" : "MPI_WEIGHTS_EMPTY", n);
	for (int i = 0; i < n; i++)
		if (w[i] < 0)
			return shl_err(c, MPI_ERR_ARG, fn, "%s[%d] is %d (weights are not negative)",
				       wname, i, w[i]);
	return MPI_SUCCESS;
}

/* The common checks of both constructors. */
static int dist_args(const char *fn, struct shl_rank *r, MPI_Comm comm_old, MPI_Info info,
		     MPI_Comm *newcomm, struct shl_comm **p)
{
	int err = shl_comm_arg_intra(fn, r, comm_old, p);

	if (err != MPI_SUCCESS)
		return err;
	if ((err = shl_coll_usable(*p, fn)) != MPI_SUCCESS)
		return err;
	if (newcomm == NULL)
		return shl_err(*p, MPI_ERR_ARG, fn, "comm_dist_graph is NULL");
	if (info != MPI_INFO_NULL && shl_info_get(r, info) == NULL)
		return shl_err(*p, MPI_ERR_INFO, fn, "invalid info argument");
	return MPI_SUCCESS;
}

/* A distributed-graph topology with room for its lists, or NULL. */
static struct shl_topo *dist_new(int indegree, int outdegree, bool weighted)
{
	struct shl_topo *t = calloc(1, sizeof(*t));

	if (t == NULL)
		return NULL;
	t->kind = MPI_DIST_GRAPH;
	atomic_init(&t->refs, 1);
	t->weighted = weighted;
	t->indegree = indegree;
	t->outdegree = outdegree;
	t->sources = ints((long)indegree);
	t->destinations = ints((long)outdegree);
	if (weighted) {
		t->sourceweights = ints((long)indegree);
		t->destweights = ints((long)outdegree);
	}
	if (!t->sources || !t->destinations ||
	    (weighted && (!t->sourceweights || !t->destweights))) {
		shl_topo_drop(t);
		return NULL;
	}
	return t;
}

int PMPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int sources[],
				    const int sourceweights[], int outdegree,
				    const int destinations[], const int destweights[],
				    MPI_Info info, int reorder, MPI_Comm *comm_dist_graph)
{
	const char *fn = "MPI_Dist_graph_create_adjacent";
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_comm *p;
	int err = dist_args(fn, r, comm_old, info, comm_dist_graph, &p);
	bool weighted = sourceweights != MPI_UNWEIGHTED;

	(void)reorder;  /* the old order stays (docs/topologies.md) */
	if (err != MPI_SUCCESS)
		return err;
	if (indegree < 0 || outdegree < 0)
		return shl_err(p, MPI_ERR_ARG, fn, "%s %d is negative",
			       indegree < 0 ? "indegree" : "outdegree",
			       indegree < 0 ? indegree : outdegree);
	if (weighted != (destweights != MPI_UNWEIGHTED))
		return shl_err(p, MPI_ERR_ARG, fn,
			       "only one of sourceweights and destweights is MPI_UNWEIGHTED");
	if ((err = dist_list(fn, p, "sources", indegree, sources, "sourceweights",
			     sourceweights, weighted)) != MPI_SUCCESS ||
	    (err = dist_list(fn, p, "destinations", outdegree, destinations, "destweights",
			     destweights, weighted)) != MPI_SUCCESS)
		return err;
	struct shl_topo *t = dist_new(indegree, outdegree, weighted);
	if (t == NULL)
		return shl_err(p, MPI_ERR_NO_MEM, fn, "out of memory");
	memcpy(t->sources, sources, (size_t)indegree * sizeof(int));
	memcpy(t->destinations, destinations, (size_t)outdegree * sizeof(int));
	if (weighted) {
		memcpy(t->sourceweights, sourceweights, (size_t)indegree * sizeof(int));
		memcpy(t->destweights, destweights, (size_t)outdegree * sizeof(int));
	}
	return attach_split(fn, r, p, 0, p->rank, t, comm_dist_graph);
}
SHL_WEAK_ALIAS(Dist_graph_create_adjacent);

/* What MPI_Dist_graph_create sends each end of an edge: which end it is, the other end,
 * the weight, and the edge's place in its declarer's arguments (the declarer is the
 * sender). Both ends sort their edges by (other end, declarer, place): the lists of a
 * pair of ranks with several edges between them then come in the same order at both. */
struct dist_edge {
	int out;                      /* 1: the receiver is the edge's source */
	int peer;
	int weight;
	int place;
};

struct dist_sorted {
	int peer, declarer, place, weight;
};

static int dist_cmp(const void *x, const void *y)
{
	const struct dist_sorted *a = x, *b = y;

	if (a->peer != b->peer)
		return a->peer < b->peer ? -1 : 1;
	if (a->declarer != b->declarer)
		return a->declarer < b->declarer ? -1 : 1;
	return (a->place > b->place) - (a->place < b->place);
}

/* The exchange: this rank's declared edges go to both their ends; *t gets the edges of
 * which this rank is an end. MPI_SUCCESS, MPI_ERR_NO_MEM, or the class a PMPI call
 * returned (reported by it on comm). */
static int dist_exchange(MPI_Comm comm, int size, int n, const int *sources, const int *degrees,
			 const int *destinations, const int *weights, bool weighted,
			 struct shl_topo **t)
{
	int *scount = calloc((size_t)size * 4, sizeof(int)), err = MPI_ERR_NO_MEM;
	int *rcount = scount + size, *sdispl = rcount + size, *rdispl = sdispl + size;
	struct dist_edge *send = NULL, *recv = NULL;
	struct dist_sorted *in = NULL, *out = NULL;
	int total = 0, got = 0, nin = 0, nout = 0;

	if (scount == NULL)
		return MPI_ERR_NO_MEM;
	for (int i = 0, e = 0; i < n; i++)
		for (int j = 0; j < degrees[i]; j++, e++) {
			scount[sources[i]]++;
			scount[destinations[e]]++;
			total += 2;
		}
	if ((err = PMPI_Alltoall(scount, 1, MPI_INT, rcount, 1, MPI_INT, comm)) != MPI_SUCCESS)
		goto out;
	err = MPI_ERR_NO_MEM;
	for (int i = 0, s = 0, q = 0; i < size; i++) {
		sdispl[i] = s;
		rdispl[i] = q;
		s += scount[i];
		q += rcount[i];
		got = q;
	}
	send = malloc((total ? (size_t)total : 1) * sizeof(*send));
	recv = malloc((got ? (size_t)got : 1) * sizeof(*recv));
	if (send == NULL || recv == NULL)
		goto out;
	/* Counts and displacements in ints: a dist_edge is four. */
	int *fill = calloc((size_t)size, sizeof(int));
	if (fill == NULL)
		goto out;
	for (int i = 0, e = 0; i < n; i++)
		for (int j = 0; j < degrees[i]; j++, e++) {
			int s = sources[i], d = destinations[e], w = weighted ? weights[e] : 1;
			send[sdispl[s] + fill[s]++] = (struct dist_edge){ 1, d, w, e };
			send[sdispl[d] + fill[d]++] = (struct dist_edge){ 0, s, w, e };
		}
	free(fill);
	for (int i = 0; i < size; i++) {
		scount[i] *= 4;
		rcount[i] *= 4;
		sdispl[i] *= 4;
		rdispl[i] *= 4;
	}
	err = PMPI_Alltoallv(send, scount, sdispl, MPI_INT, recv, rcount, rdispl, MPI_INT, comm);
	if (err != MPI_SUCCESS)
		goto out;
	err = MPI_ERR_NO_MEM;
	in = malloc((got ? (size_t)got : 1) * sizeof(*in));
	out = malloc((got ? (size_t)got : 1) * sizeof(*out));
	if (in == NULL || out == NULL)
		goto out;
	for (int from = 0; from < size; from++)
		for (int k = rdispl[from] / 4; k < (rdispl[from] + rcount[from]) / 4; k++) {
			struct dist_edge *x = &recv[k];
			struct dist_sorted y = { x->peer, from, x->place, x->weight };
			if (x->out)
				out[nout++] = y;
			else
				in[nin++] = y;
		}
	qsort(in, (size_t)nin, sizeof(*in), dist_cmp);
	qsort(out, (size_t)nout, sizeof(*out), dist_cmp);
	if ((*t = dist_new(nin, nout, weighted)) == NULL)
		goto out;
	for (int i = 0; i < nin; i++) {
		(*t)->sources[i] = in[i].peer;
		if (weighted)
			(*t)->sourceweights[i] = in[i].weight;
	}
	for (int i = 0; i < nout; i++) {
		(*t)->destinations[i] = out[i].peer;
		if (weighted)
			(*t)->destweights[i] = out[i].weight;
	}
	err = MPI_SUCCESS;
out:
	free(scount);
	free(send);
	free(recv);
	free(in);
	free(out);
	return err;
}

int PMPI_Dist_graph_create(MPI_Comm comm_old, int n, const int sources[], const int degrees[],
			   const int destinations[], const int weights[], MPI_Info info,
			   int reorder, MPI_Comm *comm_dist_graph)
{
	const char *fn = "MPI_Dist_graph_create";
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_comm *p;
	struct shl_topo *t = NULL;
	int err = dist_args(fn, r, comm_old, info, comm_dist_graph, &p), nedges = 0;
	bool weighted = weights != MPI_UNWEIGHTED;

	(void)reorder;  /* the old order stays (docs/topologies.md) */
	if (err != MPI_SUCCESS)
		return err;
	if (n < 0)
		return shl_err(p, MPI_ERR_ARG, fn, "n %d is negative", n);
	if (n > 0 && degrees == NULL)
		return shl_err(p, MPI_ERR_ARG, fn, "degrees is NULL");
	for (int i = 0; i < n; i++) {
		if (degrees[i] < 0)
			return shl_err(p, MPI_ERR_ARG, fn, "degrees[%d] is %d (negative)", i,
				       degrees[i]);
		if (nedges > INT32_MAX / 2 - degrees[i])
			return shl_err(p, MPI_ERR_ARG, fn, "the degrees add up above INT_MAX / 2");
		nedges += degrees[i];
	}
	if ((err = dist_list(fn, p, "sources", n, sources, "", NULL, false)) != MPI_SUCCESS ||
	    (err = dist_list(fn, p, "destinations", nedges, destinations, "weights", weights,
			     weighted)) != MPI_SUCCESS)
		return err;
	err = dist_exchange(shl_comm_handle(p), p->size, n, sources, degrees, destinations,
			    weights, weighted, &t);
	if (err == MPI_ERR_NO_MEM)
		return shl_err(p, err, fn, "out of memory");
	if (err != MPI_SUCCESS)
		return err;
	return attach_split(fn, r, p, 0, p->rank, t, comm_dist_graph);
}
SHL_WEAK_ALIAS(Dist_graph_create);
