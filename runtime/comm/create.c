/* The constructors of communicators from a parent: MPI_Comm_dup (and with info, and their
 * nonblocking forms), MPI_Comm_split, MPI_Comm_split_type, MPI_Comm_create (of an intra-
 * or intercommunicator) and MPI_Comm_create_group. Entered by rank threads.
 *
 * Every member joins a meeting on the parent's shared object (comm/meet.c), keyed by the
 * collective's number on the parent (create_group: by its tag and group, only the group's
 * members meet); the last to arrive agrees on context ids (shl_ctx_agree), builds the
 * children's shared objects and hands each member its place, then completes every
 * member's request. Blocking calls wait on a stack request, so a waiting rank sleeps on
 * its futex like any other wait; MPI_Comm_idup just does not wait. A parent spanning nodes
 * makes each constructor a split across nodes (comm/hooks.h: shl_comm_net_split,
 * shl_comm_net_create_group). Never blocks except in shl_wait; never writes another
 * rank's live objects. */
#include <stdlib.h>
#include <string.h>

#include "runtime/comm/internal.h"
#include "runtime/comm/hooks.h"

/* ---- dup ---- */

static void dup_run(struct shl_meeting *m)
{
	struct shl_comm_shared *p = m->sh;
	int err = MPI_SUCCESS;
	struct shl_comm_shared *sh = shl_comm_shared_make(p->gsize[0], p->gsize[1], p->inter, &err);

	if (sh != NULL)
		memcpy(sh->world, p->world, (size_t)p->nmembers * sizeof(int));
	for (int i = 0; i < m->n; i++) {
		/* The member's new object is not visible to its user until completion. */
		if (sh != NULL)
			shl_comm_view(m->arrival[i]->out, sh, i);
		else
			m->arrival[i]->err = err;
	}
}

/* An attribute copy callback of `fn` on parent `p` failed with `err`: delete what was
 * copied onto `c`, release it, and raise `err` (*newcomm is MPI_COMM_NULL already). */
static int copy_failed(const char *fn, struct shl_rank *r, struct shl_comm *p,
		       struct shl_comm *c, int err)
{
	shl_attr_delete_all(r, c);
	shl_comm_release(c);
	return shl_err(p, err, fn, "an attribute copy callback failed with error %d; newcomm "
		       "is MPI_COMM_NULL", err);
}

/* MPI_Comm_dup and friends: `info` is the new hints (NULL: the parent's); with `request`,
 * return once this rank has joined. */
static int dup(const char *fn, MPI_Comm comm, MPI_Info info, bool with_info, MPI_Comm *newcomm,
	       MPI_Request *request)
{
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_comm *p, *c;
	struct shl_info *hints = NULL;
	int err = shl_comm_arg(fn, r, comm, &p);

	if (err != MPI_SUCCESS)
		return err;
	if ((err = shl_coll_usable(p, fn)) != MPI_SUCCESS)
		return err;
	if (newcomm == NULL)
		return shl_err(p, MPI_ERR_ARG, fn, "newcomm is NULL");
	/* What a failure below leaves (MPI 4.1, 7.4.2: a failed copy callback fails the
	 * call); `comm` was read already, so `newcomm` may point at it. */
	*newcomm = MPI_COMM_NULL;
	if (with_info && info != MPI_INFO_NULL && (hints = shl_info_get(r, info)) == NULL)
		return shl_err(p, MPI_ERR_INFO, fn, "invalid info argument");
	c = shl_comm_alloc(p);
	if (c == NULL)
		return shl_err(p, MPI_ERR_NO_MEM, fn, "out of memory");
	c->topo = shl_topo_hold(p->topo);  /* MPI 4.1, 7.4.2: a dup keeps the topology */
	if (with_info ? hints != NULL : p->info != NULL) {
		c->info = shl_info_dup(with_info ? hints : p->info);
		if (c->info == NULL) {
			shl_comm_release(c);
			return shl_err(p, MPI_ERR_NO_MEM, fn, "out of memory");
		}
	}
	/* Across nodes, a split of one color in member order; of an intercommunicator, the
	 * same two groups. */
	int key = p->inter ? p->member : p->rank, g0 = p->inter ? p->sh->gsize[0] : 0;
	if (request == NULL) {
		struct shl_net_made nm = { .view = c, .gsize0 = g0 };
		err = p->sh->offnode ? shl_comm_net_split(r, p, 0, key, &nm, NULL)
				     : shl_comm_meet_all(r, p, fn, dup_run, NULL, c);
		if (err != MPI_SUCCESS) {
			shl_comm_release(c);
			return shl_err(p, err, fn, "the members could not create the communicator");
		}
		/* The attributes once the members have met, so that a copy callback failing
		 * on some ranks only leaves none of the others waiting: a failing one fails
		 * the call on its rank, whose new object goes with the attributes copied so
		 * far (their delete callbacks run). */
		err = shl_attr_copy(r, p, c);
		if (err != MPI_SUCCESS)
			return copy_failed(fn, r, p, c, err);
		*newcomm = c;
		return MPI_SUCCESS;
	}
	/* Nonblocking: the attributes at the call (the new communicator is the caller's
	 * only once the request completes). A failing copy callback fails the call on this
	 * rank, which still joins the members, so that none of the others waits for it: its
	 * request is detached, holding the new object (released, and freed when the request
	 * is) instead of the parent. */
	int copy_err = shl_attr_copy(r, p, c);
	if (copy_err != MPI_SUCCESS)
		shl_attr_delete_all(r, c);
	/* Nonblocking: the arrival outlives this call; the meeting frees it. */
	struct shl_arrival *a = calloc(1, sizeof(*a));
	struct shl_req *q = NULL;
	if (a != NULL) {
		shl_rank_lock(r);
		q = shl_req_new(r, SHL_REQ_DONE);
		shl_rank_unlock(r);
	}
	if (q != NULL) {
		q->comm = shl_comm_hold(copy_err == MPI_SUCCESS ? p : c);
		q->holds_comm = true;
		*a = (struct shl_arrival){ .req = q, .out = c, .heap = true };
		struct shl_net_made nm = { .view = c, .gsize0 = g0 };
		if (p->sh->offnode ? shl_comm_net_split(r, p, 0, key, &nm, q) == 0
				   : shl_comm_meet(p->sh, shl_coll_next(p, fn, SHL_COLL_MEET),
						   p->sh->nmembers, p->member, dup_run, a) == 0) {
			if (p->sh->offnode)
				free(a);
			if (copy_err != MPI_SUCCESS) {
				shl_rank_lock(r);
				q->freed = true;
				q->next = r->detached;
				r->detached = q;
				shl_rank_unlock(r);
				return copy_failed(fn, r, p, c, copy_err);
			}
			*newcomm = c;
			*request = q;
			return MPI_SUCCESS;
		}
		shl_rank_lock(r);
		shl_req_release(r, q);
		shl_rank_unlock(r);
	}
	/* Out of memory before the meeting saw this rank. */
	free(a);
	shl_attr_delete_all(r, c);
	shl_comm_release(c);
	return shl_err(p, MPI_ERR_NO_MEM, fn, "out of memory");
}

int PMPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
	return dup("MPI_Comm_dup", comm, MPI_INFO_NULL, false, newcomm, NULL);
}
SHL_WEAK_ALIAS(Comm_dup);

int PMPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
	return dup("MPI_Comm_dup_with_info", comm, info, true, newcomm, NULL);
}
SHL_WEAK_ALIAS(Comm_dup_with_info);

/* MPI_Comm_idup's request is NULL: raised on comm, as the collectives' (shl_coll_comm). */
static int no_request(const char *fn, MPI_Comm comm)
{
	return shl_err(shl_comm_get(shl_rank_or_die(fn), comm), MPI_ERR_REQUEST, fn,
		       "request is NULL");
}

int PMPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request)
{
	if (request == NULL)
		return no_request("MPI_Comm_idup", comm);
	return dup("MPI_Comm_idup", comm, MPI_INFO_NULL, false, newcomm, request);
}
SHL_WEAK_ALIAS(Comm_idup);

int PMPI_Comm_idup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm,
			     MPI_Request *request)
{
	if (request == NULL)
		return no_request("MPI_Comm_idup_with_info", comm);
	return dup("MPI_Comm_idup_with_info", comm, info, true, newcomm, request);
}
SHL_WEAK_ALIAS(Comm_idup_with_info);

/* ---- split ---- */

struct split_in {
	int color, key;
	int type;                     /* MPI_Comm_split_type's split_type, -1 for MPI_Comm_split */
};

struct split_entry {
	int color, side, key, member;
};

static int split_cmp(const void *x, const void *y)
{
	const struct split_entry *a = x, *b = y;

	if (a->color != b->color)
		return a->color < b->color ? -1 : 1;
	if (a->side != b->side)
		return a->side - b->side;
	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return a->member - b->member;
}

/* Members of one color, [e, e + k): a new communicator of them. On an intercommunicator
 * the color must appear on both sides; otherwise its members get MPI_COMM_NULL. */
static void split_color(struct shl_meeting *m, const struct split_entry *e, int k)
{
	int k0 = 0, err = MPI_SUCCESS;
	struct shl_comm_shared *sh;

	while (k0 < k && e[k0].side == 0)
		k0++;
	if (m->sh->inter && (k0 == 0 || k0 == k))
		return;  /* outs stay { NULL } */
	sh = shl_comm_shared_make(k0, k - k0, m->sh->inter, &err);
	for (int j = 0; j < k; j++) {
		struct shl_arrival *a = m->arrival[e[j].member];
		if (sh == NULL) {
			a->err = err;
			continue;
		}
		sh->world[j] = m->sh->world[e[j].member];
		*(struct shl_comm_made *)a->out = (struct shl_comm_made){ sh, j };
	}
}

static void split_run(struct shl_meeting *m)
{
	struct split_entry *e = malloc((size_t)m->n * sizeof(*e));
	int n = 0;

	if (e == NULL) {
		for (int i = 0; i < m->n; i++)
			m->arrival[i]->err = MPI_ERR_NO_MEM;
		return;
	}
	/* MPI 4.1 (7.4.2): every member passes the same split_type, or MPI_UNDEFINED. */
	int type = MPI_UNDEFINED;
	for (int i = 0; i < m->n; i++) {
		int t = ((const struct split_in *)m->arrival[i]->in)->type;
		if (t != MPI_UNDEFINED && type != MPI_UNDEFINED && t != type) {
			for (int j = 0; j < m->n; j++)
				m->arrival[j]->err = MPI_ERR_NOT_SAME;
			free(e);
			return;
		}
		if (t != MPI_UNDEFINED)
			type = t;
	}
	for (int i = 0; i < m->n; i++) {
		const struct split_in *in = m->arrival[i]->in;
		if (in->color != MPI_UNDEFINED)
			e[n++] = (struct split_entry){ in->color, i >= m->sh->gsize[0], in->key, i };
	}
	qsort(e, (size_t)n, sizeof(*e), split_cmp);
	for (int i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && e[j].color == e[i].color; j++)
			;
		split_color(m, e + i, j - i);
	}
	free(e);
}

/* `type`: MPI_Comm_split_type's split_type, which every member must pass alike, or -1. */
static int split(const char *fn, struct shl_rank *r, struct shl_comm *p, int color, int key,
		 int type, MPI_Comm *newcomm)
{
	struct split_in in = { color, key, type };
	struct shl_comm_made md = { NULL, 0 };
	int err;

	if (newcomm == NULL)
		return shl_err(p, MPI_ERR_ARG, fn, "newcomm is NULL");
	if (color < 0 && color != MPI_UNDEFINED)
		return shl_err(p, MPI_ERR_ARG, fn, "color %d is negative (and not MPI_UNDEFINED)",
			       color);
	if (p->sh->offnode) {
		struct shl_net_made nm = { .gsize0 = p->inter ? -1 : 0 };
		err = shl_comm_net_split(r, p, color, key, &nm, NULL);
		md = (struct shl_comm_made){ nm.sh, nm.member };
	} else {
		err = shl_comm_meet_all(r, p, fn, split_run, &in, &md);
	}
	if (err == MPI_ERR_NOT_SAME)
		return shl_err(p, err, fn, "the members passed different split_type values");
	if (err != MPI_SUCCESS)
		return shl_err(p, err, fn, "the members could not create the communicators");
	return shl_comm_adopt(p, &md, newcomm, fn);
}

int shl_comm_split_as(const char *fn, struct shl_rank *r, struct shl_comm *p, int color,
		      int key, MPI_Comm *newcomm)
{
	return split(fn, r, p, color, key, -1, newcomm);
}

int PMPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
	struct shl_rank *r = shl_rank_or_die("MPI_Comm_split");
	struct shl_comm *p;
	int err = shl_comm_arg("MPI_Comm_split", r, comm, &p);

	if (err != MPI_SUCCESS)
		return err;
	if ((err = shl_coll_usable(p, "MPI_Comm_split")) != MPI_SUCCESS)
		return err;
	return split("MPI_Comm_split", r, p, color, key, -1, newcomm);
}
SHL_WEAK_ALIAS(Comm_split);

/* Whether `info` asks MPI_COMM_TYPE_HW_GUIDED for a level we have: the node's memory. */
static bool guided_shared(struct shl_rank *r, MPI_Info info)
{
	int flag = 0, len = MPI_MAX_INFO_VAL;
	char value[MPI_MAX_INFO_VAL];

	if (info == MPI_INFO_NULL || shl_info_get(r, info) == NULL)
		return false;
	PMPI_Info_get_string(info, "mpi_hw_resource_type", &len, value, &flag);
	return flag && strcmp(value, "mpi_shared_memory") == 0;
}

int PMPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info,
			 MPI_Comm *newcomm)
{
	struct shl_rank *r = shl_rank_or_die("MPI_Comm_split_type");
	struct shl_comm *p;
	int err = shl_comm_arg_intra("MPI_Comm_split_type", r, comm, &p);
	int color;

	if (err != MPI_SUCCESS)
		return err;
	if (info != MPI_INFO_NULL && shl_info_get(r, info) == NULL)
		return shl_err(p, MPI_ERR_INFO, "MPI_Comm_split_type", "invalid info argument");
	if ((err = shl_coll_usable(p, "MPI_Comm_split_type")) != MPI_SUCCESS)
		return err;
	switch (split_type) {
	case MPI_COMM_TYPE_SHARED:
		/* Every rank of a node process shares its memory: the node is the color. */
		color = p->sh->offnode ? shl_coll_net_node_of(r->world_rank) : 0;
		break;
	case MPI_COMM_TYPE_HW_GUIDED:
	case MPI_COMM_TYPE_RESOURCE_GUIDED:
		color = !guided_shared(r, info) ? MPI_UNDEFINED
			: p->sh->offnode ? shl_coll_net_node_of(r->world_rank) : 0;
		break;
	case MPI_COMM_TYPE_HW_UNGUIDED:
		/* No hardware level strictly inside a node process is modelled (MPI 4.1,
		 * 7.4.2 allows MPI_COMM_NULL then). */
	case MPI_UNDEFINED:
		color = MPI_UNDEFINED;
		break;
	default:
		return shl_err(p, MPI_ERR_ARG, "MPI_Comm_split_type",
			       "split_type %d is not a communicator type", split_type);
	}
	return split("MPI_Comm_split_type", r, p, color, key, split_type, newcomm);
}
SHL_WEAK_ALIAS(Comm_split_type);

/* ---- create, create_group ---- */

/* MPI_Comm_create: each member names a subgroup of the parent; members naming the same
 * group, and in it, get a communicator of it. Groups are identified by their first member:
 * MPI requires the groups named to be identical or disjoint. */
/* Whether every member of `g` named a group with `g`'s first member first: members that
 * named the same ranks in different orders ({0,1} and {1,0}) would otherwise each make a
 * communicator that the others never join. */
static bool named_alike(struct shl_meeting *m, const int *index, const struct shl_group *g)
{
	for (int j = 0; j < g->size; j++) {
		const struct shl_group *h = m->arrival[index[g->world[j]]]->in;
		if (h->size == 0 || h->world[0] != g->world[0])
			return false;
	}
	return true;
}

static void create_run(struct shl_meeting *m)
{
	const struct shl_comm_shared *p = m->sh;
	struct shl_comm_shared **made_by = calloc((size_t)m->n, sizeof(*made_by));
	int *index = malloc((size_t)shl_job.size * sizeof(int));   /* world rank -> member */

	if (made_by == NULL || index == NULL) {
		for (int i = 0; i < m->n; i++)
			m->arrival[i]->err = MPI_ERR_NO_MEM;
		goto out;
	}
	for (int i = 0; i < m->n; i++)
		index[p->world[i]] = i;
	for (int i = 0; i < m->n; i++) {
		const struct shl_group *g = m->arrival[i]->in;
		int err = MPI_SUCCESS;
		if (g->size > 0 && g->world[0] == p->world[i]) {
			made_by[i] = shl_comm_shared_make(g->size, 0, false, &err);
			if (made_by[i] != NULL)
				memcpy(made_by[i]->world, g->world, (size_t)g->size * sizeof(int));
		}
		m->arrival[i]->err = err;
	}
	for (int i = 0; i < m->n; i++) {
		struct shl_arrival *a = m->arrival[i];
		const struct shl_group *g = a->in;
		int at = shl_group_find(g, p->world[i]);
		if (at == MPI_UNDEFINED || a->err != MPI_SUCCESS)
			continue;
		int first = index[g->world[0]];
		const struct shl_group *fg = m->arrival[first]->in;
		if (made_by[first] == NULL || fg->size != g->size ||
		    memcmp(fg->world, g->world, (size_t)g->size * sizeof(int)) != 0 ||
		    !named_alike(m, index, g)) {
			a->err = MPI_ERR_GROUP;
			continue;
		}
		*(struct shl_comm_made *)a->out = (struct shl_comm_made){ made_by[first], at };
	}
	/* Groups named but joined by nobody (all their members failed) go back. */
	for (int i = 0; i < m->n; i++) {
		const struct shl_group *g = m->arrival[i]->in;
		if (made_by[i] == NULL)
			continue;
		int joined = 0;
		for (int j = 0; j < g->size; j++) {
			const struct shl_comm_made *md = m->arrival[index[g->world[j]]]->out;
			joined += md->sh == made_by[i];
		}
		for (; joined < g->size; joined++)
			shl_comm_shared_drop(made_by[i]);
	}
out:
	free(made_by);
	free(index);
}

/* Every member of `g` is a member of `c`'s group. */
static bool subgroup(const struct shl_comm *c, const struct shl_group *g)
{
	for (int i = 0; i < g->size; i++) {
		int j;
		for (j = 0; j < c->size && shl_comm_world_rank(c, j) != g->world[i]; j++)
			;
		if (j == c->size)
			return false;
	}
	return true;
}

/* Member i's group: 0, or 1 for the second group of an intercommunicator. */
static int side_of(const struct shl_comm_shared *sh, int i)
{
	return sh->inter && i >= sh->gsize[0];
}

/* MPI_Comm_create on an intercommunicator (MPI 4.1, 7.4.2): every member of a group names
 * the same subgroup of it; the result connects the two subgroups, with MPI_COMM_NULL for
 * members outside theirs, and for everyone when either subgroup is empty. */
static void create_inter_run(struct shl_meeting *m)
{
	const struct shl_comm_shared *p = m->sh;
	const struct shl_group *g[2] = { m->arrival[0]->in, m->arrival[p->gsize[0]]->in };
	struct shl_comm_shared *sh = NULL;
	int err = MPI_SUCCESS;

	for (int i = 0; i < m->n; i++) {
		const struct shl_group *x = m->arrival[i]->in, *y = g[side_of(p, i)];
		if (x->size != y->size || memcmp(x->world, y->world, (size_t)x->size * sizeof(int)))
			err = MPI_ERR_GROUP;
	}
	if (err == MPI_SUCCESS && g[0]->size > 0 && g[1]->size > 0 &&
	    (sh = shl_comm_shared_make(g[0]->size, g[1]->size, true, &err)) != NULL) {
		memcpy(sh->world, g[0]->world, (size_t)g[0]->size * sizeof(int));
		memcpy(sh->world + g[0]->size, g[1]->world, (size_t)g[1]->size * sizeof(int));
	}
	for (int i = 0; i < m->n; i++) {
		int side = side_of(p, i), at = shl_group_find(g[side], p->world[i]);
		m->arrival[i]->err = err;
		/* shared_make counted one reference per member of the two subgroups. */
		if (sh != NULL && at != MPI_UNDEFINED)
			*(struct shl_comm_made *)m->arrival[i]->out =
				(struct shl_comm_made){ sh, (side ? g[0]->size : 0) + at };
	}
}

int PMPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
	struct shl_rank *r = shl_rank_or_die("MPI_Comm_create");
	struct shl_comm *p;
	struct shl_comm_made md = { NULL, 0 };
	int err = shl_comm_arg("MPI_Comm_create", r, comm, &p);

	if (err != MPI_SUCCESS)
		return err;
	if ((err = shl_coll_usable(p, "MPI_Comm_create")) != MPI_SUCCESS)
		return err;
	if (newcomm == NULL)
		return shl_err(p, MPI_ERR_ARG, "MPI_Comm_create", "newcomm is NULL");
	if (!shl_group_ok(group))
		return shl_err(p, MPI_ERR_GROUP, "MPI_Comm_create", "invalid group argument");
	if (!subgroup(p, group))
		return shl_err(p, MPI_ERR_GROUP, "MPI_Comm_create",
			       "group has a member that is not in comm");
	if (p->sh->offnode) {
		/* Across nodes, a split: the group (named by its first member) is the color,
		 * the place in it the key. Overlapping groups are not detected there. Of an
		 * intercommunicator, one color: each group names a subgroup of its own. */
		int at = shl_group_find(group, r->world_rank);
		if (p->inter)
			return split("MPI_Comm_create", r, p, at == MPI_UNDEFINED ? MPI_UNDEFINED
						       : 0, at, -1, newcomm);
		return split("MPI_Comm_create", r, p, at == MPI_UNDEFINED ? MPI_UNDEFINED
					       : group->world[0], at, -1, newcomm);
	}
	err = shl_comm_meet_all(r, p, "MPI_Comm_create", p->inter ? create_inter_run : create_run,
				group, &md);
	if (err != MPI_SUCCESS)
		return shl_err(p, err, "MPI_Comm_create", "the members could not agree%s",
			       err != MPI_ERR_GROUP ? ""
			       : p->inter ? " (members of one group named different groups)"
					  : " (groups differ but overlap)");
	return shl_comm_adopt(p, &md, newcomm, "MPI_Comm_create");
}
SHL_WEAK_ALIAS(Comm_create);

void shl_comm_made_of_group(struct shl_meeting *m, const struct shl_group *g, int err)
{
	struct shl_comm_shared *sh;

	sh = err == MPI_SUCCESS ? shl_comm_shared_make(g->size, 0, false, &err) : NULL;
	if (sh != NULL)
		memcpy(sh->world, g->world, (size_t)g->size * sizeof(int));
	for (int i = 0; i < m->n; i++) {
		m->arrival[i]->err = err;
		*(struct shl_comm_made *)m->arrival[i]->out = (struct shl_comm_made){ sh, i };
	}
}

/* MPI_Comm_create_group: only the group's members meet; everyone's group must match. */
static void create_group_run(struct shl_meeting *m)
{
	const struct shl_group *g = m->arrival[0]->in;
	int err = MPI_SUCCESS;

	for (int i = 1; i < m->n; i++) {
		const struct shl_group *h = m->arrival[i]->in;
		if (memcmp(h->world, g->world, (size_t)g->size * sizeof(int)) != 0)
			err = MPI_ERR_NOT_SAME;
	}
	shl_comm_made_of_group(m, g, err);
}

int PMPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm)
{
	const char *fn = "MPI_Comm_create_group";
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_comm *p;
	struct shl_comm_made md = { NULL, 0 };
	int err = shl_comm_arg_intra(fn, r, comm, &p), at;

	if (err != MPI_SUCCESS)
		return err;
	if (newcomm == NULL)
		return shl_err(p, MPI_ERR_ARG, fn, "newcomm is NULL");
	if (!shl_group_ok(group))
		return shl_err(p, MPI_ERR_GROUP, fn, "invalid group argument");
	if (tag < 0 || tag > MPI_TAG_UB_VALUE)
		return shl_err(p, MPI_ERR_TAG, fn, "tag %d is outside 0..%d (MPI_TAG_UB)", tag,
			       MPI_TAG_UB_VALUE);
	at = shl_group_find(group, r->world_rank);
	if (at == MPI_UNDEFINED) {
		*newcomm = MPI_COMM_NULL;  /* MPI 4.1, 7.4.2: callers outside the group */
		return MPI_SUCCESS;
	}
	if (!subgroup(p, group))
		return shl_err(p, MPI_ERR_GROUP, fn, "group has a member that is not in comm");
	if (p->sh->offnode) {
		struct shl_net_made nm = { 0 };
		err = shl_comm_net_create_group(r, p, group, tag, at, &nm);
		md = (struct shl_comm_made){ nm.sh, nm.member };
		if (err != MPI_SUCCESS)
			return shl_err(p, err, fn, "the group's members could not agree");
		return shl_comm_adopt(p, &md, newcomm, fn);
	}
	/* Key: bit 63 (a subset's rendezvous), the tag and the group's first member. */
	uint64_t key = 1ull << 63 | (uint64_t)tag << 32 | (uint32_t)group->world[0];
	err = shl_comm_meet_wait(r, p->sh, key, group->size, at, create_group_run, group, &md);
	if (err != MPI_SUCCESS)
		return shl_err(p, err, fn, "the group's members could not agree%s",
			       err == MPI_ERR_NOT_SAME ? " (their groups differ)" : "");
	return shl_comm_adopt(p, &md, newcomm, fn);
}
SHL_WEAK_ALIAS(Comm_create_group);
