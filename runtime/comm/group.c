/* Groups: ordered sets of world ranks, MPI_GROUP_EMPTY and every MPI_Group_* function.
 * Entered by rank threads; a group belongs to the rank that built it and is immutable, so
 * nothing here locks. Must not reach communicators beyond the world rank tables. */
#include <stdlib.h>
#include <string.h>

#include "runtime/core/rt.h"

SHL_API SHL_HANDLE_PREDEF struct shl_group shl_mpi_group_empty = {
	.magic = SHL_GROUP_MAGIC, .predefined = true, .size = 0 };

struct shl_group *shl_group_new(int size)
{
	struct shl_group *g = shl_handle_alloc(sizeof(*g));

	if (g == NULL)
		return NULL;
	g->world = malloc((size_t)(size > 0 ? size : 1) * sizeof(int));
	if (g->world == NULL) {
		shl_handle_free(g);
		return NULL;
	}
	g->magic = SHL_GROUP_MAGIC;
	g->predefined = false;
	g->size = size;
	return g;
}

void shl_group_free(struct shl_group *g)
{
	if (g == NULL)
		return;
	free(g->world);
	shl_handle_free(g);
}

int shl_group_find(const struct shl_group *g, int w)
{
	for (int i = 0; i < g->size; i++)
		if (g->world[i] == w)
			return i;
	return MPI_UNDEFINED;
}

static int check_group(const char *fn, MPI_Group g, const char *what)
{
	if (!shl_group_ok(g))
		return shl_err(NULL, MPI_ERR_GROUP, fn, "%s is not a valid group%s", what,
			       g == MPI_GROUP_NULL ? " (MPI_GROUP_NULL)" : "");
	return MPI_SUCCESS;
}

/* Hand `g` (n members filled) to the user; an empty result is MPI_GROUP_EMPTY. */
static void give(struct shl_group *g, MPI_Group *out)
{
	if (g->size == 0) {
		shl_group_free(g);
		g = &shl_mpi_group_empty;
	}
	*out = g;
}

/* For each world rank, its index in `g` plus one (0: not a member); NULL if out of memory. */
static int *index_of(const struct shl_group *g)
{
	int *idx = calloc((size_t)shl_job.size, sizeof(int));

	if (idx != NULL)
		for (int i = 0; i < g->size; i++)
			idx[g->world[i]] = i + 1;
	return idx;
}

int PMPI_Group_size(MPI_Group group, int *size)
{
	int err = check_group("MPI_Group_size", group, "group");

	if (err != MPI_SUCCESS)
		return err;
	if (size == NULL)
		return shl_err(NULL, MPI_ERR_ARG, "MPI_Group_size", "size is NULL");
	*size = group->size;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Group_size);

int PMPI_Group_rank(MPI_Group group, int *rank)
{
	struct shl_rank *r = shl_rank_or_die("MPI_Group_rank");
	int err = check_group("MPI_Group_rank", group, "group");

	if (err != MPI_SUCCESS)
		return err;
	if (rank == NULL)
		return shl_err(NULL, MPI_ERR_ARG, "MPI_Group_rank", "rank is NULL");
	*rank = shl_group_find(group, r->world_rank);
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Group_rank);

int PMPI_Group_translate_ranks(MPI_Group group1, int n, const int ranks1[], MPI_Group group2,
			       int ranks2[])
{
	const char *fn = "MPI_Group_translate_ranks";
	int err = check_group(fn, group1, "group1"), *idx;

	if (err == MPI_SUCCESS)
		err = check_group(fn, group2, "group2");
	if (err != MPI_SUCCESS)
		return err;
	if (n < 0)
		return shl_err(NULL, MPI_ERR_ARG, fn, "n %d is negative", n);
	if (n > 0 && (ranks1 == NULL || ranks2 == NULL))
		return shl_err(NULL, MPI_ERR_ARG, fn, "ranks1 or ranks2 is NULL");
	for (int i = 0; i < n; i++)
		if (ranks1[i] != MPI_PROC_NULL && (ranks1[i] < 0 || ranks1[i] >= group1->size))
			return shl_err(NULL, MPI_ERR_RANK, fn, "ranks1[%d] = %d is not a rank of "
				       "group1 (size %d)", i, ranks1[i], group1->size);
	idx = index_of(group2);
	if (idx == NULL)
		return shl_err(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
	for (int i = 0; i < n; i++)
		ranks2[i] = ranks1[i] == MPI_PROC_NULL ? MPI_PROC_NULL
						       : idx[group1->world[ranks1[i]]] - 1;
	for (int i = 0; i < n; i++)
		if (ranks2[i] == -1)
			ranks2[i] = MPI_UNDEFINED;
	free(idx);
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Group_translate_ranks);

int PMPI_Group_compare(MPI_Group group1, MPI_Group group2, int *result)
{
	int err = check_group("MPI_Group_compare", group1, "group1"), *idx;

	if (err == MPI_SUCCESS)
		err = check_group("MPI_Group_compare", group2, "group2");
	if (err != MPI_SUCCESS)
		return err;
	if (result == NULL)
		return shl_err(NULL, MPI_ERR_ARG, "MPI_Group_compare", "result is NULL");
	if (group1->size != group2->size) {
		*result = MPI_UNEQUAL;
		return MPI_SUCCESS;
	}
	if (memcmp(group1->world, group2->world, (size_t)group1->size * sizeof(int)) == 0) {
		*result = MPI_IDENT;
		return MPI_SUCCESS;
	}
	idx = index_of(group2);
	if (idx == NULL)
		return shl_err(NULL, MPI_ERR_NO_MEM, "MPI_Group_compare", "out of memory");
	*result = MPI_SIMILAR;
	for (int i = 0; i < group1->size; i++)
		if (idx[group1->world[i]] == 0)
			*result = MPI_UNEQUAL;
	free(idx);
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Group_compare);

enum setop { UNION, INTERSECTION, DIFFERENCE };

/* Union: group1 then group2's others; intersection and difference: in group1's order. */
static int setop(const char *fn, enum setop op, MPI_Group g1, MPI_Group g2, MPI_Group *out)
{
	int err = check_group(fn, g1, "group1"), *idx, n = 0;
	struct shl_group *g;

	if (err == MPI_SUCCESS)
		err = check_group(fn, g2, "group2");
	if (err != MPI_SUCCESS)
		return err;
	if (out == NULL)
		return shl_err(NULL, MPI_ERR_ARG, fn, "newgroup is NULL");
	idx = index_of(g2);
	g = shl_group_new(g1->size + (op == UNION ? g2->size : 0));
	if (idx == NULL || g == NULL) {
		free(idx);
		shl_group_free(g);
		return shl_err(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
	}
	for (int i = 0; i < g1->size; i++) {
		bool in2 = idx[g1->world[i]] != 0;
		if (op == UNION || (op == INTERSECTION) == in2)
			g->world[n++] = g1->world[i];
		idx[g1->world[i]] = -1;  /* seen in group1 */
	}
	if (op == UNION)
		for (int i = 0; i < g2->size; i++)
			if (idx[g2->world[i]] > 0)
				g->world[n++] = g2->world[i];
	g->size = n;
	free(idx);
	give(g, out);
	return MPI_SUCCESS;
}

int PMPI_Group_union(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
	return setop("MPI_Group_union", UNION, group1, group2, newgroup);
}
SHL_WEAK_ALIAS(Group_union);

int PMPI_Group_intersection(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
	return setop("MPI_Group_intersection", INTERSECTION, group1, group2, newgroup);
}
SHL_WEAK_ALIAS(Group_intersection);

int PMPI_Group_difference(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
	return setop("MPI_Group_difference", DIFFERENCE, group1, group2, newgroup);
}
SHL_WEAK_ALIAS(Group_difference);

/* Mark ranks[0..n) of `g` in `pick` (0 or 1 per rank); every rank valid and distinct. */
static int pick_ranks(const char *fn, MPI_Group g, int n, const int ranks[], char *pick)
{
	for (int i = 0; i < n; i++) {
		if (ranks[i] < 0 || ranks[i] >= g->size)
			return shl_err(NULL, MPI_ERR_RANK, fn, "ranks[%d] = %d is not a rank of "
				       "group (size %d)", i, ranks[i], g->size);
		if (pick[ranks[i]])
			return shl_err(NULL, MPI_ERR_RANK, fn, "rank %d appears twice in ranks",
				       ranks[i]);
		pick[ranks[i]] = 1;
	}
	return MPI_SUCCESS;
}

/* Expand the triplets into a rank list (each rank valid and distinct); *n gets its length. */
/* How many ranks triplet {first, last, stride} (stride not 0) names. Counted in long, not
 * stepped in int: a stride near INT_MAX is valid and must not overflow. */
static long range_length(const int range[3])
{
	long first = range[0], last = range[1], stride = range[2];

	if ((stride > 0 && first > last) || (stride < 0 && first < last))
		return 0;
	return (last - first) / stride + 1;
}

static int expand_ranges(const char *fn, MPI_Group g, int nr, int ranges[][3], int **out,
			 int *n)
{
	long total = 0;

	for (int i = 0; i < nr; i++) {
		int first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];
		if (stride == 0)
			return shl_err(NULL, MPI_ERR_ARG, fn, "ranges[%d] has stride 0", i);
		if (first < 0 || first >= g->size || last < 0 || last >= g->size)
			return shl_err(NULL, MPI_ERR_RANK, fn, "ranges[%d] = {%d, %d, %d} leaves "
				       "group (size %d)", i, first, last, stride, g->size);
		total += range_length(ranges[i]);
	}
	if (total > g->size)
		return shl_err(NULL, MPI_ERR_RANK, fn, "ranges name %ld ranks of a group of %d",
			       total, g->size);
	*out = malloc((size_t)(total ? total : 1) * sizeof(int));
	if (*out == NULL)
		return shl_err(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
	*n = 0;
	for (int i = 0; i < nr; i++)
		for (long j = 0, len = range_length(ranges[i]); j < len; j++)
			(*out)[(*n)++] = (int)(ranges[i][0] + j * ranges[i][2]);
	return MPI_SUCCESS;
}

/* incl: the given ranks in their order; excl: the others in group order. */
static int subset(const char *fn, bool incl, MPI_Group group, int n, const int ranks[],
		  MPI_Group *out)
{
	int err = check_group(fn, group, "group");
	struct shl_group *g = NULL;
	char *pick = NULL;

	if (err != MPI_SUCCESS)
		return err;
	if (out == NULL)
		return shl_err(NULL, MPI_ERR_ARG, fn, "newgroup is NULL");
	if (n < 0 || n > group->size)
		return shl_err(NULL, MPI_ERR_ARG, fn, "n %d is outside 0..%d (the group's size)", n,
			       group->size);
	if (n > 0 && ranks == NULL)
		return shl_err(NULL, MPI_ERR_ARG, fn, "ranks is NULL");
	pick = calloc((size_t)group->size + 1, 1);
	g = shl_group_new(incl ? n : group->size - n);
	if (pick == NULL || g == NULL) {
		err = shl_err(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
		goto fail;
	}
	err = pick_ranks(fn, group, n, ranks, pick);
	if (err != MPI_SUCCESS)
		goto fail;
	if (incl) {
		for (int i = 0; i < n; i++)
			g->world[i] = group->world[ranks[i]];
	} else {
		for (int i = 0, k = 0; i < group->size; i++)
			if (!pick[i])
				g->world[k++] = group->world[i];
	}
	free(pick);
	give(g, out);
	return MPI_SUCCESS;
fail:
	free(pick);
	shl_group_free(g);
	return err;
}

int PMPI_Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup)
{
	return subset("MPI_Group_incl", true, group, n, ranks, newgroup);
}
SHL_WEAK_ALIAS(Group_incl);

int PMPI_Group_excl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup)
{
	return subset("MPI_Group_excl", false, group, n, ranks, newgroup);
}
SHL_WEAK_ALIAS(Group_excl);

static int range_subset(const char *fn, bool incl, MPI_Group group, int n, int ranges[][3],
			MPI_Group *newgroup)
{
	int err = check_group(fn, group, "group"), *ranks = NULL, count = 0;

	if (err != MPI_SUCCESS)
		return err;
	if (n < 0 || (n > 0 && ranges == NULL))
		return shl_err(NULL, MPI_ERR_ARG, fn, "n %d is negative or ranges is NULL", n);
	err = expand_ranges(fn, group, n, ranges, &ranks, &count);
	if (err != MPI_SUCCESS)
		return err;
	err = subset(fn, incl, group, count, ranks, newgroup);
	free(ranks);
	return err;
}

int PMPI_Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup)
{
	return range_subset("MPI_Group_range_incl", true, group, n, ranges, newgroup);
}
SHL_WEAK_ALIAS(Group_range_incl);

int PMPI_Group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup)
{
	return range_subset("MPI_Group_range_excl", false, group, n, ranges, newgroup);
}
SHL_WEAK_ALIAS(Group_range_excl);

int PMPI_Group_free(MPI_Group *group)
{
	if (group == NULL)
		return shl_err(NULL, MPI_ERR_ARG, "MPI_Group_free", "group is NULL");
	int err = check_group("MPI_Group_free", *group, "group");
	if (err != MPI_SUCCESS)
		return err;
	/* Freeing MPI_GROUP_EMPTY only clears the handle (MPI 4.1, 7.3.3 allows it). */
	if (!(*group)->predefined)
		shl_group_free(*group);
	*group = MPI_GROUP_NULL;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Group_free);
