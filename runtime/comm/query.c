/* Queries of a communicator and its names and hints: MPI_Comm_test_inter,
 * MPI_Comm_remote_size, MPI_Comm_group, MPI_Comm_remote_group, MPI_Comm_compare,
 * MPI_Comm_set_name/get_name, MPI_Comm_set_info/get_info. Entered by rank threads (the
 * name and hints under the rank lock, as MPI_THREAD_MULTIPLE needs). Must not change
 * what the members share: everything here is the rank's own object or a copy. */
#include <stdio.h>
#include <stdlib.h>

#include "runtime/comm/internal.h"

int PMPI_Comm_test_inter(MPI_Comm comm, int *flag)
{
	struct shl_rank *r = shl_rank_or_die("MPI_Comm_test_inter");
	struct shl_comm *c;
	int err = shl_comm_arg("MPI_Comm_test_inter", r, comm, &c);

	if (err != MPI_SUCCESS)
		return err;
	if (flag == NULL)
		return shl_err(c, MPI_ERR_ARG, "MPI_Comm_test_inter", "flag is NULL");
	*flag = c->inter;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Comm_test_inter);

int PMPI_Comm_remote_size(MPI_Comm comm, int *size)
{
	struct shl_rank *r = shl_rank_or_die("MPI_Comm_remote_size");
	struct shl_comm *c;
	int err = shl_comm_arg("MPI_Comm_remote_size", r, comm, &c);

	if (err != MPI_SUCCESS)
		return err;
	if (!c->inter)
		return shl_err(c, MPI_ERR_COMM, "MPI_Comm_remote_size",
			       "comm is not an intercommunicator");
	if (size == NULL)
		return shl_err(c, MPI_ERR_ARG, "MPI_Comm_remote_size", "size is NULL");
	*size = c->remote_size;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Comm_remote_size);

/* A group of the n world ranks given by `world` (NULL: 0..n-1). */
static int make_group(const char *fn, struct shl_comm *c, int n, const int *world,
		      MPI_Group *group)
{
	struct shl_group *g;

	if (group == NULL)
		return shl_err(c, MPI_ERR_ARG, fn, "group is NULL");
	g = shl_group_new(n);
	if (g == NULL)
		return shl_err(c, MPI_ERR_NO_MEM, fn, "out of memory");
	for (int i = 0; i < n; i++)
		g->world[i] = world ? world[i] : i;
	*group = g;
	return MPI_SUCCESS;
}

int PMPI_Comm_group(MPI_Comm comm, MPI_Group *group)
{
	struct shl_rank *r = shl_rank_or_die("MPI_Comm_group");
	struct shl_comm *c;
	int err = shl_comm_arg("MPI_Comm_group", r, comm, &c);

	if (err != MPI_SUCCESS)
		return err;
	return make_group("MPI_Comm_group", c, c->size, c->world, group);
}
SHL_WEAK_ALIAS(Comm_group);

int PMPI_Comm_remote_group(MPI_Comm comm, MPI_Group *group)
{
	struct shl_rank *r = shl_rank_or_die("MPI_Comm_remote_group");
	struct shl_comm *c;
	int err = shl_comm_arg("MPI_Comm_remote_group", r, comm, &c);

	if (err != MPI_SUCCESS)
		return err;
	if (!c->inter)
		return shl_err(c, MPI_ERR_COMM, "MPI_Comm_remote_group",
			       "comm is not an intercommunicator");
	return make_group("MPI_Comm_remote_group", c, c->remote_size, c->remote_world, group);
}
SHL_WEAK_ALIAS(Comm_remote_group);

/* MPI_IDENT/MPI_CONGRUENT when the tables are equal, MPI_SIMILAR when they hold the same
 * ranks, else MPI_UNEQUAL. `mark` has shl_job.size zeroed entries and is left zeroed. */
static int compare_tables(const struct shl_comm *a, const struct shl_comm *b, bool remote,
			  char *mark)
{
	int n = remote ? a->remote_size : a->size, result = MPI_CONGRUENT;

	if (n != (remote ? b->remote_size : b->size))
		return MPI_UNEQUAL;
	for (int i = 0; i < n; i++) {
		int wa = remote ? a->remote_world[i] : shl_comm_world_rank(a, i);
		int wb = remote ? b->remote_world[i] : shl_comm_world_rank(b, i);
		if (wa != wb)
			result = MPI_SIMILAR;
		mark[wa]++;
		mark[wb]--;
	}
	for (int i = 0; i < n; i++) {
		int wa = remote ? a->remote_world[i] : shl_comm_world_rank(a, i);
		if (mark[wa] != 0)
			result = MPI_UNEQUAL;
		mark[wa] = 0;
	}
	return result;
}

int PMPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int *result)
{
	const char *fn = "MPI_Comm_compare";
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_comm *a, *b;
	char *mark;
	int err = shl_comm_arg(fn, r, comm1, &a);

	if (err == MPI_SUCCESS)
		err = shl_comm_arg(fn, r, comm2, &b);
	if (err != MPI_SUCCESS)
		return err;
	if (result == NULL)
		return shl_err(a, MPI_ERR_ARG, fn, "result is NULL");
	if (a == b) {
		*result = MPI_IDENT;
		return MPI_SUCCESS;
	}
	if (a->inter != b->inter) {
		*result = MPI_UNEQUAL;
		return MPI_SUCCESS;
	}
	mark = calloc((size_t)shl_job.size, 1);
	if (mark == NULL)
		return shl_err(a, MPI_ERR_NO_MEM, fn, "out of memory");
	*result = compare_tables(a, b, false, mark);
	if (a->inter) {
		int remote = compare_tables(a, b, true, mark);
		if (remote > *result)
			*result = remote;
	}
	free(mark);
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Comm_compare);

/* ---- names and hints ---- */

int PMPI_Comm_set_name(MPI_Comm comm, const char *comm_name)
{
	struct shl_rank *r = shl_rank_or_die("MPI_Comm_set_name");
	struct shl_comm *c;
	int err = shl_comm_arg("MPI_Comm_set_name", r, comm, &c);

	if (err != MPI_SUCCESS)
		return err;
	if (comm_name == NULL)
		return shl_err(c, MPI_ERR_ARG, "MPI_Comm_set_name", "comm_name is NULL");
	shl_rank_lock(r);
	/* Longer names are truncated (MPI 4.1, 7.8). */
	snprintf(c->name_buf, sizeof(c->name_buf), "%s", comm_name);
	c->name = c->name_buf;
	shl_rank_unlock(r);
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Comm_set_name);

int PMPI_Comm_get_name(MPI_Comm comm, char *comm_name, int *resultlen)
{
	struct shl_rank *r = shl_rank_or_die("MPI_Comm_get_name");
	struct shl_comm *c;
	int err = shl_comm_arg("MPI_Comm_get_name", r, comm, &c);

	if (err != MPI_SUCCESS)
		return err;
	if (comm_name == NULL || resultlen == NULL)
		return shl_err(c, MPI_ERR_ARG, "MPI_Comm_get_name", "comm_name or resultlen is NULL");
	shl_rank_lock(r);
	*resultlen = snprintf(comm_name, MPI_MAX_OBJECT_NAME, "%s", c->name ? c->name : "");
	shl_rank_unlock(r);
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Comm_get_name);

int PMPI_Comm_set_info(MPI_Comm comm, MPI_Info info)
{
	struct shl_rank *r = shl_rank_or_die("MPI_Comm_set_info");
	struct shl_comm *c;
	struct shl_info *in, *copy;
	int err = shl_comm_arg("MPI_Comm_set_info", r, comm, &c);

	if (err != MPI_SUCCESS)
		return err;
	in = shl_info_get(r, info);
	if (in == NULL)
		return shl_err(c, MPI_ERR_INFO, "MPI_Comm_set_info", "invalid info argument");
	copy = shl_info_dup(in);
	if (copy == NULL)
		return shl_err(c, MPI_ERR_NO_MEM, "MPI_Comm_set_info", "out of memory");
	/* No hint changes Shoal's behaviour yet; all are kept and reported back. */
	shl_rank_lock(r);
	shl_info_free(c->info);
	c->info = copy;
	shl_rank_unlock(r);
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Comm_set_info);

int PMPI_Comm_get_info(MPI_Comm comm, MPI_Info *info_used)
{
	struct shl_rank *r = shl_rank_or_die("MPI_Comm_get_info");
	struct shl_comm *c;
	struct shl_info *copy;
	int err = shl_comm_arg("MPI_Comm_get_info", r, comm, &c);

	if (err != MPI_SUCCESS)
		return err;
	if (info_used == NULL)
		return shl_err(c, MPI_ERR_ARG, "MPI_Comm_get_info", "info_used is NULL");
	shl_rank_lock(r);
	copy = shl_info_dup(c->info);
	shl_rank_unlock(r);
	if (copy == NULL)
		return shl_err(c, MPI_ERR_NO_MEM, "MPI_Comm_get_info", "out of memory");
	*info_used = copy;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Comm_get_info);
