/* The queries of process topologies (MPI 4.1, 8.5): MPI_Topo_test, the Cartesian ones
 * (MPI_Cartdim_get, MPI_Cart_get, MPI_Cart_rank, MPI_Cart_coords, MPI_Cart_shift), the
 * graph ones (MPI_Graphdims_get, MPI_Graph_get, MPI_Graph_neighbors_count,
 * MPI_Graph_neighbors) and the distributed-graph ones (MPI_Dist_graph_neighbors_count,
 * MPI_Dist_graph_neighbors); and MPI_Dims_create, which needs no communicator. Entered by
 * rank threads; each reads only the caller's own communicator object and its immutable
 * topology (comm/topo.c builds them). */
#include <stdlib.h>
#include <string.h>

#include "runtime/comm/internal.h"

/* The rank's object for `comm` in *c and its topology, which must be of `kind`; or the
 * error reported. */
static int topo_arg(const char *fn, MPI_Comm comm, int kind, struct shl_comm **c,
		    const struct shl_topo **t)
{
	static const char *const names[] = {
		[MPI_GRAPH] = "a graph", [MPI_CART] = "a Cartesian",
		[MPI_DIST_GRAPH] = "a distributed-graph",
	};
	struct shl_rank *r = shl_rank_or_die(fn);
	int err = shl_comm_arg(fn, r, comm, c);

	if (err != MPI_SUCCESS)
		return err;
	*t = (*c)->topo;
	if (*t == NULL || (*t)->kind != kind)
		return shl_err(*c, MPI_ERR_TOPOLOGY, fn, "comm has %s topology, not %s one",
			       *t == NULL ? "no" : names[(*t)->kind], names[kind]);
	return MPI_SUCCESS;
}

int PMPI_Topo_test(MPI_Comm comm, int *status)
{
	struct shl_rank *r = shl_rank_or_die("MPI_Topo_test");
	struct shl_comm *c;
	int err = shl_comm_arg("MPI_Topo_test", r, comm, &c);

	if (err != MPI_SUCCESS)
		return err;
	if (status == NULL)
		return shl_err(c, MPI_ERR_ARG, "MPI_Topo_test", "status is NULL");
	*status = c->topo ? c->topo->kind : MPI_UNDEFINED;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Topo_test);

/* ---- Cartesian ---- */

int PMPI_Cartdim_get(MPI_Comm comm, int *ndims)
{
	struct shl_comm *c;
	const struct shl_topo *t;
	int err = topo_arg("MPI_Cartdim_get", comm, MPI_CART, &c, &t);

	if (err != MPI_SUCCESS)
		return err;
	if (ndims == NULL)
		return shl_err(c, MPI_ERR_ARG, "MPI_Cartdim_get", "ndims is NULL");
	*ndims = t->ndims;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Cartdim_get);

/* maxdims must cover the grid's dimensions; the arrays must be there when there are any. */
static int cart_room(const char *fn, struct shl_comm *c, const struct shl_topo *t, int maxdims)
{
	if (maxdims < t->ndims)
		return shl_err(c, MPI_ERR_ARG, fn, "maxdims %d is below the grid's %d dimensions",
			       maxdims, t->ndims);
	return MPI_SUCCESS;
}

int PMPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[])
{
	const char *fn = "MPI_Cart_get";
	struct shl_comm *c;
	const struct shl_topo *t;
	int err = topo_arg(fn, comm, MPI_CART, &c, &t);

	if (err != MPI_SUCCESS || (err = cart_room(fn, c, t, maxdims)) != MPI_SUCCESS)
		return err;
	if (t->ndims > 0 && (dims == NULL || periods == NULL || coords == NULL))
		return shl_err(c, MPI_ERR_ARG, fn, "%s is NULL",
			       dims == NULL ? "dims" : periods == NULL ? "periods" : "coords");
	if (t->ndims == 0)
		return MPI_SUCCESS;
	memcpy(dims, t->dims, (size_t)t->ndims * sizeof(int));
	memcpy(periods, t->periods, (size_t)t->ndims * sizeof(int));
	shl_cart_coords(t, c->rank, coords);
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Cart_get);

int PMPI_Cart_rank(MPI_Comm comm, const int coords[], int *rank)
{
	const char *fn = "MPI_Cart_rank";
	struct shl_comm *c;
	const struct shl_topo *t;
	int err = topo_arg(fn, comm, MPI_CART, &c, &t), at = 0;

	if (err != MPI_SUCCESS)
		return err;
	if (rank == NULL || (t->ndims > 0 && coords == NULL))
		return shl_err(c, MPI_ERR_ARG, fn, "%s is NULL", rank == NULL ? "rank" : "coords");
	for (int d = 0; d < t->ndims; d++) {
		int x = coords[d];
		if (x < 0 || x >= t->dims[d]) {
			if (!t->periods[d])
				return shl_err(c, MPI_ERR_ARG, fn,
					       "coords[%d] is %d, outside 0..%d of a non-periodic "
					       "dimension", d, x, t->dims[d] - 1);
			x = ((x % t->dims[d]) + t->dims[d]) % t->dims[d];
		}
		at = at * t->dims[d] + x;
	}
	*rank = at;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Cart_rank);

int PMPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[])
{
	const char *fn = "MPI_Cart_coords";
	struct shl_comm *c;
	const struct shl_topo *t;
	int err = topo_arg(fn, comm, MPI_CART, &c, &t);

	if (err != MPI_SUCCESS || (err = cart_room(fn, c, t, maxdims)) != MPI_SUCCESS)
		return err;
	if (rank < 0 || rank >= c->size)
		return shl_err(c, MPI_ERR_RANK, fn, "rank %d is outside 0..%d", rank, c->size - 1);
	if (t->ndims > 0 && coords == NULL)
		return shl_err(c, MPI_ERR_ARG, fn, "coords is NULL");
	shl_cart_coords(t, rank, coords);
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Cart_coords);

int PMPI_Cart_shift(MPI_Comm comm, int direction, int disp, int *rank_source, int *rank_dest)
{
	const char *fn = "MPI_Cart_shift";
	struct shl_comm *c;
	const struct shl_topo *t;
	int err = topo_arg(fn, comm, MPI_CART, &c, &t);

	if (err != MPI_SUCCESS)
		return err;
	if (direction < 0 || direction >= t->ndims)
		return shl_err(c, MPI_ERR_ARG, fn, "direction %d is outside 0..%d (the grid's "
			       "dimensions)", direction, t->ndims - 1);
	if (rank_source == NULL || rank_dest == NULL)
		return shl_err(c, MPI_ERR_ARG, fn, "%s is NULL",
			       rank_source == NULL ? "rank_source" : "rank_dest");
	int coords[t->ndims];
	shl_cart_coords(t, c->rank, coords);
	/* In long: -disp of INT_MIN is no overflow there. */
	*rank_dest = shl_cart_step(t, coords, direction, disp);
	*rank_source = shl_cart_step(t, coords, direction, -(long)disp);
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Cart_shift);

/* ---- graphs ---- */

int PMPI_Graphdims_get(MPI_Comm comm, int *nnodes, int *nedges)
{
	struct shl_comm *c;
	const struct shl_topo *t;
	int err = topo_arg("MPI_Graphdims_get", comm, MPI_GRAPH, &c, &t);

	if (err != MPI_SUCCESS)
		return err;
	if (nnodes == NULL || nedges == NULL)
		return shl_err(c, MPI_ERR_ARG, "MPI_Graphdims_get", "%s is NULL",
			       nnodes == NULL ? "nnodes" : "nedges");
	*nnodes = t->nnodes;
	*nedges = t->index[t->nnodes - 1];
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Graphdims_get);

int PMPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[])
{
	const char *fn = "MPI_Graph_get";
	struct shl_comm *c;
	const struct shl_topo *t;
	int err = topo_arg(fn, comm, MPI_GRAPH, &c, &t);

	if (err != MPI_SUCCESS)
		return err;
	int nedges = t->index[t->nnodes - 1];
	if (maxindex < t->nnodes || maxedges < nedges)
		return shl_err(c, MPI_ERR_ARG, fn, "%s %d is below the graph's %d",
			       maxindex < t->nnodes ? "maxindex" : "maxedges",
			       maxindex < t->nnodes ? maxindex : maxedges,
			       maxindex < t->nnodes ? t->nnodes : nedges);
	if (index == NULL || (nedges > 0 && edges == NULL))
		return shl_err(c, MPI_ERR_ARG, fn, "%s is NULL", index == NULL ? "index" : "edges");
	memcpy(index, t->index, (size_t)t->nnodes * sizeof(int));
	if (nedges > 0)
		memcpy(edges, t->edges, (size_t)nedges * sizeof(int));
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Graph_get);

/* Node `rank`'s neighbours in the graph: edges[*first..*first + count). */
static int graph_node(const char *fn, struct shl_comm *c, const struct shl_topo *t, int rank,
		      int *first, int *count)
{
	if (rank < 0 || rank >= t->nnodes)
		return shl_err(c, MPI_ERR_RANK, fn, "rank %d is outside 0..%d (the graph's nodes)",
			       rank, t->nnodes - 1);
	*first = rank ? t->index[rank - 1] : 0;
	*count = t->index[rank] - *first;
	return MPI_SUCCESS;
}

int PMPI_Graph_neighbors_count(MPI_Comm comm, int rank, int *nneighbors)
{
	const char *fn = "MPI_Graph_neighbors_count";
	struct shl_comm *c;
	const struct shl_topo *t;
	int first, count, err = topo_arg(fn, comm, MPI_GRAPH, &c, &t);

	if (err != MPI_SUCCESS || (err = graph_node(fn, c, t, rank, &first, &count)))
		return err;
	if (nneighbors == NULL)
		return shl_err(c, MPI_ERR_ARG, fn, "nneighbors is NULL");
	*nneighbors = count;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Graph_neighbors_count);

int PMPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int neighbors[])
{
	const char *fn = "MPI_Graph_neighbors";
	struct shl_comm *c;
	const struct shl_topo *t;
	int first, count, err = topo_arg(fn, comm, MPI_GRAPH, &c, &t);

	if (err != MPI_SUCCESS || (err = graph_node(fn, c, t, rank, &first, &count)))
		return err;
	if (maxneighbors < count)
		return shl_err(c, MPI_ERR_ARG, fn, "maxneighbors %d is below rank %d's %d neighbors",
			       maxneighbors, rank, count);
	if (count > 0 && neighbors == NULL)
		return shl_err(c, MPI_ERR_ARG, fn, "neighbors is NULL");
	if (count > 0)
		memcpy(neighbors, t->edges + first, (size_t)count * sizeof(int));
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Graph_neighbors);

/* ---- distributed graphs ---- */

int PMPI_Dist_graph_neighbors_count(MPI_Comm comm, int *indegree, int *outdegree, int *weighted)
{
	const char *fn = "MPI_Dist_graph_neighbors_count";
	struct shl_comm *c;
	const struct shl_topo *t;
	int err = topo_arg(fn, comm, MPI_DIST_GRAPH, &c, &t);

	if (err != MPI_SUCCESS)
		return err;
	if (indegree == NULL || outdegree == NULL || weighted == NULL)
		return shl_err(c, MPI_ERR_ARG, fn, "%s is NULL",
			       indegree == NULL ? "indegree"
			       : outdegree == NULL ? "outdegree" : "weighted");
	*indegree = t->indegree;
	*outdegree = t->outdegree;
	*weighted = t->weighted;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Dist_graph_neighbors_count);

int PMPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[],
			      int sourceweights[], int maxoutdegree, int destinations[],
			      int destweights[])
{
	const char *fn = "MPI_Dist_graph_neighbors";
	struct shl_comm *c;
	const struct shl_topo *t;
	int err = topo_arg(fn, comm, MPI_DIST_GRAPH, &c, &t);

	if (err != MPI_SUCCESS)
		return err;
	if (maxindegree < t->indegree || maxoutdegree < t->outdegree)
		return shl_err(c, MPI_ERR_ARG, fn, "%s %d is below the rank's %d",
			       maxindegree < t->indegree ? "maxindegree" : "maxoutdegree",
			       maxindegree < t->indegree ? maxindegree : maxoutdegree,
			       maxindegree < t->indegree ? t->indegree : t->outdegree);
	if ((t->indegree > 0 && sources == NULL) || (t->outdegree > 0 && destinations == NULL))
		return shl_err(c, MPI_ERR_ARG, fn, "%s is NULL",
			       t->indegree > 0 && sources == NULL ? "sources" : "destinations");
	if (t->indegree > 0)
		memcpy(sources, t->sources, (size_t)t->indegree * sizeof(int));
	if (t->outdegree > 0)
		memcpy(destinations, t->destinations, (size_t)t->outdegree * sizeof(int));
	/* Weights only of a weighted graph, into arrays the caller gave. */
	if (t->weighted && t->indegree > 0 && sourceweights != NULL &&
	    sourceweights != MPI_UNWEIGHTED && sourceweights != MPI_WEIGHTS_EMPTY)
		memcpy(sourceweights, t->sourceweights, (size_t)t->indegree * sizeof(int));
	if (t->weighted && t->outdegree > 0 && destweights != NULL &&
	    destweights != MPI_UNWEIGHTED && destweights != MPI_WEIGHTS_EMPTY)
		memcpy(destweights, t->destweights, (size_t)t->outdegree * sizeof(int));
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Dist_graph_neighbors);

/* ---- MPI_Dims_create ---- */

/* The most balanced way to write n as k factors each at most `most`, in non-increasing
 * order, into f[]: the smallest first factor possible, then the smallest second, and so
 * on (which makes them as close to each other as they can be). Whether there is one. */
static bool balanced(int n, int k, int most, int *f)
{
	if (k == 0)
		return n == 1;
	if (k == 1) {
		f[0] = n;
		return n <= most;
	}
	/* Divisors of n from the k-th root of n up: the first that leaves a way for the
	 * rest is the smallest first factor. */
	for (int i = 1; (long)i * i <= n; i++) {
		if (n % i != 0)
			continue;
		long p = 1;
		for (int j = 0; j < k && p < n; j++)
			p *= i;
		if (p >= n && i <= most && balanced(n / i, k - 1, i, f + 1)) {
			f[0] = i;
			return true;
		}
	}
	int root = 1;
	while ((long)(root + 1) * (root + 1) <= n)
		root++;
	for (int i = root; i >= 1; i--) {
		int d = n / i;
		if (n % i != 0 || (long)i * i == n || d > most)
			continue;
		if (balanced(n / d, k - 1, d, f + 1)) {
			f[0] = d;
			return true;
		}
	}
	return false;
}

int PMPI_Dims_create(int nnodes, int ndims, int dims[])
{
	const char *fn = "MPI_Dims_create";
	long fixed = 1;
	int free_dims = 0;

	shl_rank_or_die(fn);
	if (ndims < 0)
		return shl_err(NULL, MPI_ERR_DIMS, fn, "ndims %d is negative", ndims);
	if (nnodes <= 0)
		return shl_err(NULL, MPI_ERR_ARG, fn, "nnodes %d is not above 0", nnodes);
	if (ndims > 0 && dims == NULL)
		return shl_err(NULL, MPI_ERR_ARG, fn, "dims is NULL");
	for (int d = 0; d < ndims; d++) {
		if (dims[d] < 0)
			return shl_err(NULL, MPI_ERR_DIMS, fn, "dims[%d] is %d (negative)", d,
				       dims[d]);
		if (dims[d] == 0)
			free_dims++;
		else if ((fixed *= dims[d]) > nnodes || nnodes % fixed != 0)
			return shl_err(NULL, MPI_ERR_DIMS, fn,
				       "nnodes %d is not a multiple of the product of the dims given "
				       "(up to dims[%d], %ld)", nnodes, d, fixed);
	}
	int rest = (int)(nnodes / fixed), *f = malloc((size_t)(free_dims ? free_dims : 1) * sizeof(int));
	if (f == NULL)
		return shl_err(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
	if (!balanced(rest, free_dims, rest, f)) {
		free(f);
		return shl_err(NULL, MPI_ERR_DIMS, fn,
			       "nnodes %d is not the product of the dims given and the free ones",
			       nnodes);
	}
	for (int d = 0, i = 0; d < ndims; d++)
		if (dims[d] == 0)
			dims[d] = f[i++];
	free(f);
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Dims_create);
