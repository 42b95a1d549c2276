/* ranks: 1 2 4 16 64 */
/* session_psets_groups_and_comms_without_init: a program that never calls MPI_Init opens a
 * session (MPI_Initialized stays false), lists its process sets (mpi://WORLD, mpi://SELF,
 * shoal://node/0 on one node, shoal://node/0..H-1 on H hosts (argument H; the node sets
 * part the ranks); lengths asked with pset_len 0), gets their sizes from
 * MPI_Session_get_pset_info and their groups from MPI_Group_from_session_pset (members in
 * world order; SELF is the caller); makes a communicator of mpi://WORLD with
 * MPI_Comm_create_from_group on which a ring of messages, Allreduce, Bcast and a 1 MiB
 * message give the values expected; makes one of the even ranks and one of the odd ranks
 * at once (same tag, disjoint groups); an intercommunicator of the evens and the odds with
 * MPI_Intercomm_create_from_groups (leaders exchange, remote size right); reads the
 * session's info (thread_level); finalizes, after which MPI_Initialized is still false. */
#include "check.h"

int main(int argc, char **argv)
{
	MPI_Session s;
	MPI_Group world, self, node, half, evens, odds;
	MPI_Comm comm, hc, inter;
	int flag, n, len, size, rank, v, sum;
	char name[MPI_MAX_PSET_NAME_LEN], value[MPI_MAX_INFO_VAL];
	MPI_Info info;

	CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s));
	CHECK_MPI(MPI_Initialized(&flag));
	CHECK_INT(flag, 0);

	/* Process sets. */
	int hosts = argc > 1 ? atoi(argv[1]) : 1;
	CHECK_MPI(MPI_Session_get_num_psets(s, MPI_INFO_NULL, &n));
	CHECK_INT(n, 2 + hosts);
	for (int i = 0; i < n; i++) {
		char want[64];
		snprintf(want, sizeof(want), i == 0 ? "mpi://WORLD" : i == 1 ? "mpi://SELF"
				: "shoal://node/%d", i - 2);
		len = 0;
		CHECK_MPI(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, NULL));
		CHECK_INT(len, (int)strlen(want) + 1);
		CHECK_MPI(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, name));
		CHECK_STR(name, want);
	}
	CHECK_MPI(MPI_Session_get_pset_info(s, "mpi://WORLD", &info));
	CHECK_MPI(MPI_Info_get_string(info, "mpi_size", (len = sizeof(value), &len), value, &flag));
	CHECK_INT(flag, 1);
	size = atoi(value);
	CHECK_MPI(MPI_Info_free(&info));
	CHECK_MPI(MPI_Session_get_pset_info(s, "mpi://SELF", &info));
	CHECK_MPI(MPI_Info_get_string(info, "mpi_size", (len = sizeof(value), &len), value, &flag));
	CHECK_STR(value, "1");
	CHECK_MPI(MPI_Info_free(&info));

	CHECK_MPI(MPI_Group_from_session_pset(s, "mpi://WORLD", &world));
	CHECK_MPI(MPI_Group_from_session_pset(s, "mpi://SELF", &self));
	CHECK_MPI(MPI_Group_size(world, &n));
	CHECK_INT(n, size);
	CHECK_MPI(MPI_Group_rank(world, &rank));
	CHECK_CMP(rank, >=, 0);
	CHECK_MPI(MPI_Group_size(self, &n));
	CHECK_INT(n, 1);
	int zero = 0, mine = -1;
	CHECK_MPI(MPI_Group_translate_ranks(self, 1, &zero, world, &mine));
	CHECK_INT(mine, rank);
	/* The node sets part the world; the caller is in one. */
	int total = 0, homes = 0;
	for (int i = 0; i < hosts; i++) {
		char pset[64];
		int gs, at;
		snprintf(pset, sizeof(pset), "shoal://node/%d", i);
		CHECK_MPI(MPI_Group_from_session_pset(s, pset, &node));
		CHECK_MPI(MPI_Group_size(node, &gs));
		CHECK_CMP(gs, >, 0);
		total += gs;
		CHECK_MPI(MPI_Group_rank(node, &at));
		homes += at != MPI_UNDEFINED;
		if (hosts == 1) {
			CHECK_MPI(MPI_Group_compare(world, node, &flag));
			CHECK_INT(flag, MPI_IDENT);
		}
		CHECK_MPI(MPI_Group_free(&node));
	}
	CHECK_INT(total, size);
	CHECK_INT(homes, 1);

	/* A communicator of mpi://WORLD: its ranks are the world's. */
	CHECK_MPI(MPI_Comm_create_from_group(world, "org.shoal.test.world", MPI_INFO_NULL,
					     MPI_ERRORS_RETURN, &comm));
	CHECK_MPI(MPI_Comm_rank(comm, &v));
	CHECK_INT(v, rank);
	CHECK_MPI(MPI_Comm_size(comm, &v));
	CHECK_INT(v, size);
	int right = (rank + 1) % size, left = (rank + size - 1) % size, got = -1;
	CHECK_MPI(MPI_Sendrecv(&rank, 1, MPI_INT, right, 7, &got, 1, MPI_INT, left, 7, comm,
			       MPI_STATUS_IGNORE));
	CHECK_INT(got, left);
	CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, comm));
	CHECK_INT(sum, size * (size - 1) / 2);
	v = rank == size - 1 ? 4242 : 0;
	CHECK_MPI(MPI_Bcast(&v, 1, MPI_INT, size - 1, comm));
	CHECK_INT(v, 4242);
	enum { BIG = 1 << 20 };
	char *big = malloc(BIG);
	CHECK(big != NULL);
	if (size > 1 && rank < 2) {
		if (rank == 0) {
			memset(big, 'q', BIG);
			CHECK_MPI(MPI_Send(big, BIG, MPI_CHAR, 1, 9, comm));
		} else {
			memset(big, 0, BIG);
			CHECK_MPI(MPI_Recv(big, BIG, MPI_CHAR, 0, 9, comm, MPI_STATUS_IGNORE));
			CHECK(big[0] == 'q' && big[BIG - 1] == 'q');
		}
	}
	free(big);

	/* The evens and the odds, at once, with one tag: disjoint groups. */
	int *ranks = malloc(sizeof(int) * (size_t)size), ne = 0;
	for (int i = 0; i < size; i += 2)
		ranks[ne++] = i;
	CHECK_MPI(MPI_Group_incl(world, ne, ranks, &evens));
	CHECK_MPI(MPI_Group_excl(world, ne, ranks, &odds));
	free(ranks);
	half = rank % 2 == 0 ? evens : odds;
	CHECK_MPI(MPI_Comm_create_from_group(half, "org.shoal.test.half", MPI_INFO_NULL,
					     MPI_ERRORS_RETURN, &hc));
	CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, hc));
	int expect = 0;
	for (int i = rank % 2; i < size; i += 2)
		expect += i;
	CHECK_INT(sum, expect);
	CHECK_MPI(MPI_Comm_free(&hc));

	/* The evens and the odds connected. */
	if (size > 1) {
		MPI_Group other = rank % 2 == 0 ? odds : evens;
		int other_size, half_rank;
		CHECK_MPI(MPI_Intercomm_create_from_groups(half, 0, other, 0,
							   "org.shoal.test.inter", MPI_INFO_NULL,
							   MPI_ERRORS_RETURN, &inter));
		CHECK_MPI(MPI_Comm_test_inter(inter, &flag));
		CHECK_INT(flag, 1);
		CHECK_MPI(MPI_Group_size(other, &other_size));
		CHECK_MPI(MPI_Comm_remote_size(inter, &v));
		CHECK_INT(v, other_size);
		CHECK_MPI(MPI_Comm_rank(inter, &half_rank));
		CHECK_INT(half_rank, rank / 2);
		if (half_rank == 0) {
			CHECK_MPI(MPI_Sendrecv(&rank, 1, MPI_INT, 0, 3, &got, 1, MPI_INT, 0, 3, inter,
					       MPI_STATUS_IGNORE));
			CHECK_INT(got, rank % 2 == 0 ? 1 : 0);
		}
		CHECK_MPI(MPI_Comm_free(&inter));
	}

	/* The session's info. */
	CHECK_MPI(MPI_Session_get_info(s, &info));
	CHECK_MPI(MPI_Info_get_string(info, "thread_level", (len = sizeof(value), &len), value,
				      &flag));
	CHECK_INT(flag, 1);
	CHECK_STR(value, "MPI_THREAD_SINGLE");
	CHECK_MPI(MPI_Info_free(&info));

	CHECK_MPI(MPI_Barrier(comm));
	CHECK_MPI(MPI_Comm_free(&comm));
	MPI_Group_free(&evens);
	MPI_Group_free(&odds);
	MPI_Group_free(&world);
	MPI_Group_free(&self);
	CHECK_MPI(MPI_Session_finalize(&s));
	CHECK(s == MPI_SESSION_NULL);
	CHECK_MPI(MPI_Initialized(&flag));
	CHECK_INT(flag, 0);
	if (rank == 0)
		printf("ok\n");
	return 0;
}
