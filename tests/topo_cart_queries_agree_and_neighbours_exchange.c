/* topo_cart_queries_agree_and_neighbours_exchange: Cartesian grids of 1-3 dimensions,
 * periodic and not, reorder 0 and 1, and on fewer ranks than the parent: MPI_Cart_get,
 * _coords, _rank and _shift agree (MPI_PROC_NULL off non-periodic edges), a halo message
 * to the shift's destination arrives from its source with its coordinates, MPI_Cart_map
 * answers what reorder gives, MPI_Cart_sub makes the sub-grids, dup and idup keep the
 * topology, split and create drop it. Rank 0 prints "cut 2d identity N reorder M", the grid
 * edges joining ranks of different nodes: reorder never cuts more. */
/* ranks: 1 2 4 16 64 */
#include "check.h"

#define MAXD 3

static int node_of_rank[1024];  /* a node id for each rank of MPI_COMM_WORLD */

/* Everything a user can ask of Cartesian communicator `c` over a grid `dims`/`periods`. */
static void check_grid(MPI_Comm c, int nd, const int *dims, const int *periods)
{
	int rank, size, status, got_nd, gdims[MAXD], gper[MAXD], coords[MAXD], x[MAXD];

	CHECK_MPI(MPI_Comm_rank(c, &rank));
	CHECK_MPI(MPI_Comm_size(c, &size));
	CHECK_MPI(MPI_Topo_test(c, &status));
	CHECK_INT(status, MPI_CART);
	CHECK_MPI(MPI_Cartdim_get(c, &got_nd));
	CHECK_INT(got_nd, nd);
	CHECK_MPI(MPI_Cart_get(c, MAXD, gdims, gper, coords));
	int n = 1;
	for (int d = 0; d < nd; d++) {
		CHECK_INT(gdims[d], dims[d]);
		CHECK_INT(gper[d], periods[d] != 0);
		CHECK(coords[d] >= 0 && coords[d] < dims[d]);
		n *= dims[d];
	}
	CHECK_INT(size, n);
	int me = -1;
	CHECK_MPI(MPI_Cart_rank(c, coords, &me));
	CHECK_INT(me, rank);
	/* Row-major: the last dimension varies fastest. */
	for (int r = 0; r < size; r++) {
		int back = -1, lin = 0;
		CHECK_MPI(MPI_Cart_coords(c, r, MAXD, x));
		for (int d = 0; d < nd; d++)
			lin = lin * dims[d] + x[d];
		CHECK_INT(lin, r);
		CHECK_MPI(MPI_Cart_rank(c, x, &back));
		CHECK_INT(back, r);
	}
	/* Periodic coordinates wrap in Cart_rank. */
	for (int d = 0; d < nd; d++) {
		if (!periods[d])
			continue;
		memcpy(x, coords, sizeof(x));
		x[d] += 3 * dims[d];
		int w = -1;
		CHECK_MPI(MPI_Cart_rank(c, x, &w));
		CHECK_INT(w, rank);
		x[d] = coords[d] - dims[d];
		CHECK_MPI(MPI_Cart_rank(c, x, &w));
		CHECK_INT(w, rank);
	}
	for (int d = 0; d < nd; d++) {
		for (int disp = -2; disp <= 2; disp++) {
			int src, dst, want[2];
			CHECK_MPI(MPI_Cart_shift(c, d, disp, &src, &dst));
			for (int s = 0; s < 2; s++) {
				int step = s ? disp : -disp;
				long pos = coords[d] + step;
				memcpy(x, coords, sizeof(x));
				if (periods[d])
					pos = ((pos % dims[d]) + dims[d]) % dims[d];
				if (pos < 0 || pos >= dims[d]) {
					want[s] = MPI_PROC_NULL;
					continue;
				}
				x[d] = (int)pos;
				CHECK_MPI(MPI_Cart_rank(c, x, &want[s]));
			}
			CHECK_INT(src, want[0]);
			CHECK_INT(dst, want[1]);
		}
		/* A halo step: send my coordinates to +1, receive the -1 neighbour's. */
		int src, dst, mine[MAXD + 1], theirs[MAXD + 1] = { -7, -7, -7, -7 };
		CHECK_MPI(MPI_Cart_shift(c, d, 1, &src, &dst));
		mine[0] = rank;
		memcpy(mine + 1, coords, sizeof(int) * MAXD);
		CHECK_MPI(MPI_Sendrecv(mine, MAXD + 1, MPI_INT, dst, d, theirs, MAXD + 1, MPI_INT,
				       src, d, c, MPI_STATUS_IGNORE));
		if (src == MPI_PROC_NULL) {
			CHECK_INT(theirs[0], -7);
		} else {
			CHECK_INT(theirs[0], src);
			CHECK_MPI(MPI_Cart_coords(c, src, MAXD, x));
			for (int i = 0; i < nd; i++)
				CHECK_INT(theirs[1 + i], x[i]);
		}
	}
}

/* Grid edges (+1 steps) of `c` whose ends are ranks of different nodes. */
static int cut_edges(MPI_Comm c, int nd, const int *dims)
{
	int size, cut = 0, *world_of;
	MPI_Group g, wg;

	MPI_Comm_size(c, &size);
	world_of = malloc(sizeof(int) * (size_t)size);
	int *idx = malloc(sizeof(int) * (size_t)size);
	for (int i = 0; i < size; i++)
		idx[i] = i;
	MPI_Comm_group(c, &g);
	MPI_Comm_group(MPI_COMM_WORLD, &wg);
	MPI_Group_translate_ranks(g, size, idx, wg, world_of);
	for (int r = 0; r < size; r++) {
		int x[MAXD], y;
		MPI_Cart_coords(c, r, MAXD, x);
		for (int d = 0; d < nd; d++) {
			int keep = x[d];
			x[d]++;
			if (x[d] < dims[d]) {
				MPI_Cart_rank(c, x, &y);
				cut += node_of_rank[world_of[r]] != node_of_rank[world_of[y]];
			}
			x[d] = keep;
		}
	}
	MPI_Group_free(&g);
	MPI_Group_free(&wg);
	free(world_of);
	free(idx);
	return cut;
}

int main(int argc, char **argv)
{
	int rank, size, status;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	CHECK(size <= 1024);
	CHECK_MPI(MPI_Topo_test(MPI_COMM_WORLD, &status));
	CHECK_INT(status, MPI_UNDEFINED);

	/* Each rank's node: the lowest world rank sharing its memory. */
	MPI_Comm shm;
	int leader = rank;
	CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL,
				      &shm));
	CHECK_MPI(MPI_Allreduce(&rank, &leader, 1, MPI_INT, MPI_MIN, shm));
	CHECK_MPI(MPI_Allgather(&leader, 1, MPI_INT, node_of_rank, 1, MPI_INT, MPI_COMM_WORLD));
	MPI_Comm_free(&shm);

	static const int period_sets[4][MAXD] = { { 0, 0, 0 }, { 1, 1, 1 }, { 1, 0, 1 },
						  { 0, 1, 0 } };
	for (int nd = 1; nd <= MAXD; nd++) {
		for (int ps = 0; ps < 4; ps++) {
			for (int reorder = 0; reorder <= 1; reorder++) {
				int dims[MAXD] = { 0, 0, 0 };
				MPI_Comm c;
				CHECK_MPI(MPI_Dims_create(size, nd, dims));
				CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, nd, dims,
							  period_sets[ps], reorder, &c));
				CHECK(c != MPI_COMM_NULL);
				check_grid(c, nd, dims, period_sets[ps]);
				int cr, mapped;
				MPI_Comm_rank(c, &cr);
				if (!reorder)
					CHECK_INT(cr, rank);
				CHECK_MPI(MPI_Cart_map(MPI_COMM_WORLD, nd, dims, period_sets[ps],
						       &mapped));
				if (reorder)
					CHECK_INT(mapped, cr);
				/* The grid ranks are a permutation of the world's. */
				int seen = 0, all;
				int *ranks = malloc(sizeof(int) * (size_t)size);
				CHECK_MPI(MPI_Allgather(&cr, 1, MPI_INT, ranks, 1, MPI_INT,
							MPI_COMM_WORLD));
				for (int i = 0; i < size; i++)
					seen += ranks[i] >= 0 && ranks[i] < size;
				CHECK_INT(seen, size);
				for (int i = 0; i < size; i++)
					for (int j = i + 1; j < size; j++)
						CHECK(ranks[i] != ranks[j]);
				free(ranks);
				CHECK_MPI(MPI_Allreduce(&cr, &all, 1, MPI_INT, MPI_SUM, c));
				CHECK_INT(all, size * (size - 1) / 2);
				CHECK_MPI(MPI_Comm_free(&c));
				CHECK(c == MPI_COMM_NULL);
			}
		}
	}

	/* Off-node grid edges: reorder never cuts more than the identity. */
	{
		int dims[2] = { 0, 0 }, periods[2] = { 0, 0 }, cut[2];
		MPI_Comm c[2];
		MPI_Dims_create(size, 2, dims);
		for (int reorder = 0; reorder <= 1; reorder++) {
			CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, reorder,
						  &c[reorder]));
			cut[reorder] = cut_edges(c[reorder], 2, dims);
		}
		if (rank == 0)
			printf("cut 2d identity %d reorder %d\n", cut[0], cut[1]);
		CHECK_CMP(cut[1], <=, cut[0]);
		MPI_Comm_free(&c[0]);
		MPI_Comm_free(&c[1]);
	}

	/* A grid smaller than the communicator: the ranks beyond it get MPI_COMM_NULL. */
	for (int reorder = 0; reorder <= 1; reorder++) {
		int n = size > 1 ? size - 1 : 1, dims[1] = { n }, periods[1] = { 1 };
		int in, total;
		MPI_Comm c;
		CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, reorder, &c));
		in = c != MPI_COMM_NULL;
		if (!reorder)
			CHECK_INT(in, rank < n);
		CHECK_MPI(MPI_Allreduce(&in, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
		CHECK_INT(total, n);
		int mapped;
		CHECK_MPI(MPI_Cart_map(MPI_COMM_WORLD, 1, dims, periods, &mapped));
		if (in) {
			check_grid(c, 1, dims, periods);
			if (reorder) {
				int cr;
				MPI_Comm_rank(c, &cr);
				CHECK_INT(mapped, cr);
			}
			CHECK_MPI(MPI_Comm_free(&c));
		} else if (reorder) {
			CHECK_INT(mapped, MPI_UNDEFINED);
		}
	}

	/* Zero dimensions: one rank gets a communicator of itself. */
	{
		MPI_Comm c;
		int nd = -1, csize = 0;
		CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 0, NULL, NULL, 0, &c));
		CHECK_INT(c != MPI_COMM_NULL, rank == 0);
		if (c != MPI_COMM_NULL) {
			CHECK_MPI(MPI_Cartdim_get(c, &nd));
			CHECK_INT(nd, 0);
			CHECK_MPI(MPI_Comm_size(c, &csize));
			CHECK_INT(csize, 1);
			int r = -1;
			CHECK_MPI(MPI_Cart_rank(c, NULL, &r));
			CHECK_INT(r, 0);
			MPI_Comm_free(&c);
		}
	}

	/* Cart_sub of a 3-D grid, dup and split. */
	{
		int dims[3] = { 0, 0, 0 }, periods[3] = { 1, 0, 1 }, coords[3];
		MPI_Comm c, sub, d, s;
		MPI_Request req;
		MPI_Dims_create(size, 3, dims);
		CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 1, &c));
		int cr;
		MPI_Comm_rank(c, &cr);
		MPI_Cart_coords(c, cr, 3, coords);
		for (int mask = 0; mask < 8; mask++) {
			int remain[3] = { mask & 1, (mask >> 1) & 1, (mask >> 2) & 1 }, nd = 0;
			int sdims[3], sper[3], sr, ss, want_rank = 0, want_size = 1;
			CHECK_MPI(MPI_Cart_sub(c, remain, &sub));
			for (int i = 0; i < 3; i++)
				if (remain[i]) {
					sdims[nd] = dims[i];
					sper[nd++] = periods[i];
					want_rank = want_rank * dims[i] + coords[i];
					want_size *= dims[i];
				}
			check_grid(sub, nd, sdims, sper);
			MPI_Comm_rank(sub, &sr);
			MPI_Comm_size(sub, &ss);
			CHECK_INT(sr, want_rank);
			CHECK_INT(ss, want_size);
			/* Members of a sub-grid share the dropped coordinates. */
			int key = 0, lo, hi;
			for (int i = 0; i < 3; i++)
				if (!remain[i])
					key = key * 64 + coords[i];
			MPI_Allreduce(&key, &lo, 1, MPI_INT, MPI_MIN, sub);
			MPI_Allreduce(&key, &hi, 1, MPI_INT, MPI_MAX, sub);
			CHECK_INT(lo, key);
			CHECK_INT(hi, key);
			MPI_Comm_free(&sub);
		}
		CHECK_MPI(MPI_Comm_dup(c, &d));
		check_grid(d, 3, dims, periods);
		CHECK_MPI(MPI_Comm_free(&d));
		CHECK_MPI(MPI_Comm_idup(c, &d, &req));
		CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
		check_grid(d, 3, dims, periods);
		/* The dup lives on after the original is freed. */
		CHECK_MPI(MPI_Comm_split(c, 0, cr, &s));
		CHECK_MPI(MPI_Topo_test(s, &status));
		CHECK_INT(status, MPI_UNDEFINED);
		MPI_Comm_free(&s);
		MPI_Group g;
		MPI_Comm_group(c, &g);
		CHECK_MPI(MPI_Comm_create(c, g, &s));
		CHECK_MPI(MPI_Topo_test(s, &status));
		CHECK_INT(status, MPI_UNDEFINED);
		MPI_Comm_free(&s);
		MPI_Group_free(&g);
		CHECK_MPI(MPI_Comm_free(&c));
		check_grid(d, 3, dims, periods);
		CHECK_MPI(MPI_Comm_free(&d));
	}

	CHECK_MPI(MPI_Finalize());
	return 0;
}
