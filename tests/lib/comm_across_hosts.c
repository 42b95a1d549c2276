/* Helper program of comm_split_dup_across_hosts_carry_traffic.sh (compiled by the test,
 * not a test itself): communicators created from MPI_COMM_WORLD of a job on several hosts
 * (dup, idup, split, split_type, create, create_group) and traffic on them, values checked. Prints "ok RANK". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>

static int rank, size, fails;
#define CHECK(c, ...) do { if (!(c)) { if (fails++ < 20) { fprintf(stderr, "rank %d line %d: ", \
	rank, __LINE__); fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } } } while (0)

/* Point-to-point and collectives on `c`, whose rank r is world rank world_of[r]. */
static void traffic(MPI_Comm c, const int *world_of, const char *what)
{
	int r, n, v, sum = 0;
	MPI_Status st;

	MPI_Comm_rank(c, &r);
	MPI_Comm_size(c, &n);
	/* A ring by MPI_ANY_SOURCE: the status names the sender's rank in c. */
	int to = (r + 1) % n, from = (r + n - 1) % n;
	MPI_Sendrecv(&world_of[r], 1, MPI_INT, to, 7, &v, 1, MPI_INT, MPI_ANY_SOURCE, 7, c, &st);
	CHECK(v == world_of[from] && st.MPI_SOURCE == from, "%s ring: got %d from %d", what, v,
	      st.MPI_SOURCE);
	/* A rendezvous message (1 MiB) from rank n-1 to 0. */
	if (n > 1 && (r == 0 || r == n - 1)) {
		int cnt = 1 << 18;
		int *big = malloc(sizeof(int) * cnt);
		if (r == n - 1) {
			for (int i = 0; i < cnt; i++)
				big[i] = i * 3 + world_of[r];
			MPI_Send(big, cnt, MPI_INT, 0, 8, c);
		} else {
			MPI_Recv(big, cnt, MPI_INT, MPI_ANY_SOURCE, 8, c, &st);
			CHECK(st.MPI_SOURCE == n - 1, "%s big: source %d", what, st.MPI_SOURCE);
			for (int i = 0; i < cnt; i++)
				if (big[i] != i * 3 + world_of[n - 1]) {
					CHECK(0, "%s big: [%d] = %d", what, i, big[i]);
					break;
				}
		}
		free(big);
	}
	MPI_Allreduce(&world_of[r], &sum, 1, MPI_INT, MPI_SUM, c);
	int want = 0;
	for (int i = 0; i < n; i++)
		want += world_of[i];
	CHECK(sum == want, "%s allreduce: %d, want %d", what, sum, want);
	v = r == n - 1 ? 4242 : 0;
	MPI_Bcast(&v, 1, MPI_INT, n - 1, c);
	CHECK(v == 4242, "%s bcast: %d", what, v);
}

int main(int argc, char **argv)
{
	int nhosts = atoi(argv[1]);
	MPI_Comm dup, idup, split, shared, halves, hd[3];
	MPI_Request rq;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	int *ident = malloc(sizeof(int) * size), *w = malloc(sizeof(int) * size);
	for (int i = 0; i < size; i++)
		ident[i] = i;

	/* Dup: same ranks; a message on it never matches one on MPI_COMM_WORLD. */
	MPI_Comm_dup(MPI_COMM_WORLD, &dup);
	int r, n;
	MPI_Comm_rank(dup, &r);
	MPI_Comm_size(dup, &n);
	CHECK(r == rank && n == size, "dup: rank %d size %d", r, n);
	if (rank == 0) {
		int a = 1, b = 2;
		MPI_Send(&a, 1, MPI_INT, size - 1, 3, MPI_COMM_WORLD);
		MPI_Send(&b, 1, MPI_INT, size - 1, 3, dup);
	} else if (rank == size - 1) {
		int a = 0, b = 0;
		MPI_Recv(&b, 1, MPI_INT, 0, 3, dup, MPI_STATUS_IGNORE);
		MPI_Recv(&a, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		CHECK(a == 1 && b == 2, "dup isolation: world got %d, dup got %d", a, b);
	}
	traffic(dup, ident, "dup");

	/* Idup, completed later. */
	MPI_Comm_idup(dup, &idup, &rq);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	traffic(idup, ident, "idup");

	/* Split by rank % 3, keys reversing the order; rank 1 stays out. */
	int color = rank == 1 ? MPI_UNDEFINED : rank % 3;
	MPI_Comm_split(MPI_COMM_WORLD, color, -rank, &split);
	if (rank == 1) {
		CHECK(split == MPI_COMM_NULL, "split: undefined color got a communicator");
	} else {
		int k = 0;
		for (int i = size - 1; i >= 0; i--)
			if (i != 1 && i % 3 == color)
				w[k++] = i;
		MPI_Comm_rank(split, &r);
		MPI_Comm_size(split, &n);
		CHECK(n == k && w[r] == rank, "split: rank %d of %d", r, n);
		traffic(split, w, "split");
		MPI_Comm_free(&split);
	}

	/* Create from the group of even world ranks (the others get MPI_COMM_NULL). */
	{
		MPI_Group wg, eg;
		MPI_Comm ec;
		int ne = (size + 1) / 2;
		for (int i = 0; i < ne; i++)
			w[i] = 2 * i;
		MPI_Comm_group(MPI_COMM_WORLD, &wg);
		MPI_Group_incl(wg, ne, w, &eg);
		MPI_Comm_create(MPI_COMM_WORLD, eg, &ec);
		if (rank % 2) {
			CHECK(ec == MPI_COMM_NULL, "create: odd rank got a communicator");
		} else {
			MPI_Comm_rank(ec, &r);
			CHECK(r == rank / 2, "create: rank %d", r);
			traffic(ec, w, "create");
			MPI_Comm_free(&ec);
		}
		MPI_Group_free(&eg);
		MPI_Group_free(&wg);
	}

	/* Create_group: evens and odds at once (disjoint groups, one tag), twice in a row;
	 * only the group's members call it. */
	for (int round = 0; round < 2; round++) {
		MPI_Group wg, pg;
		MPI_Comm gc;
		int np = 0;
		for (int i = rank % 2; i < size; i += 2)
			w[np++] = i;
		MPI_Comm_group(MPI_COMM_WORLD, &wg);
		MPI_Group_incl(wg, np, w, &pg);
		MPI_Comm_create_group(MPI_COMM_WORLD, pg, 7, &gc);
		MPI_Comm_rank(gc, &r);
		MPI_Comm_size(gc, &n);
		CHECK(r == rank / 2 && n == np, "create_group: rank %d of %d", r, n);
		traffic(gc, w, "create_group");
		MPI_Comm_free(&gc);
		MPI_Group_free(&pg);
		MPI_Group_free(&wg);
	}

	/* Split_type shared: the ranks of this host, in world order. */
	MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shared);
	MPI_Comm_size(shared, &n);
	CHECK(n == size / nhosts, "split_type shared: size %d, want %d", n, size / nhosts);
	{
		char host[64], *h = getenv("SHOAL_HOST"), all[64 * 64];
		snprintf(host, sizeof(host), "%s", h ? h : "?");
		MPI_Allgather(host, 64, MPI_CHAR, all, 64, MPI_CHAR, shared);
		for (int i = 0; i < n && n <= 64; i++)
			CHECK(strcmp(all + 64 * i, host) == 0, "split_type shared: %s with %s",
			      all + 64 * i, host);
	}
	MPI_Comm_free(&shared);

	/* Halves (each across hosts) dup concurrently, three times; messages stay apart. */
	MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &halves);
	for (int i = 0; i < 3; i++)
		MPI_Comm_dup(halves, &hd[i]);
	MPI_Comm_size(halves, &n);
	int k = 0;
	for (int i = rank % 2; i < size; i += 2)
		w[k++] = i;
	for (int i = 2; i >= 0; i--)
		traffic(hd[i], w, "halves dup");
	for (int i = 0; i < 3; i++)
		MPI_Comm_free(&hd[i]);
	MPI_Comm_free(&halves);

	/* Freed ids come back: many dups and frees in a row still work. */
	for (int i = 0; i < 20; i++) {
		MPI_Comm t;
		MPI_Comm_dup(dup, &t);
		int s = 1, tot = 0;
		MPI_Allreduce(&s, &tot, 1, MPI_INT, MPI_SUM, t);
		CHECK(tot == size, "dup %d: %d", i, tot);
		MPI_Comm_free(&t);
	}
	MPI_Comm_free(&idup);
	MPI_Comm_free(&dup);
	free(ident);
	free(w);
	MPI_Finalize();
	if (fails == 0)
		printf("ok %d\n", rank);
	return fails != 0;
}
