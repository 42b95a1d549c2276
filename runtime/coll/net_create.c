/* Communicator creation across nodes: MPI_Comm_split (and dup, create, merge, and
 * Intercomm_create's building, which are splits of one color) and MPI_Comm_create_group
 * of a communicator spanning nodes, as rounds of the leaders' exchange (coll/net.c). Round
 * 0 exchanges the members' colors and keys and each node's lowest free context id; each
 * later round, the ids of a window that are free on each node, reserved meanwhile, until
 * the leaders agree on an id free on every node for each new communicator. Each node then
 * builds its part of the new communicators. Entered by rank threads (the calls, through
 * comm/hooks.h) and the node leader's progress engine (the rounds). Must not take a
 * context id without reserving it on this node first (shl_ctx_reserve). It lives in coll/
 * because it runs on the exchange, which is built on point-to-point; comm/ reaches it only
 * through the hooks declared in comm/hooks.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/coll/net_internal.h"

/* Communicator creation's mark in the exchange (never run: the rounds do the work). */
void shl_coll_net_create_run(struct shl_meeting *m)
{
}

/* What the rounds of one creation agreed. */
struct shl_net_cre {
	int *color, *key;             /* by member */
	int need;                     /* new communicators (distinct colors) */
	int g0;                       /* splitting an intercommunicator: its group 0's size */
	uint32_t base;                /* the window of context ids being tried */
	uint64_t mine[4];             /* ids of the window reserved on this node */
	uint64_t both[4];             /* ... and free on every node */
};

struct cre_arg {
	struct shl_cargs x;           /* first: shl_coll_net_finish frees it by this address */
	struct shl_net_made md;
};

static int cre_cmp(const void *a, const void *b, void *arg)
{
	const struct shl_net_cre *c = arg;
	int x = *(const int *)a, y = *(const int *)b;

	if (c->color[x] != c->color[y])
		return c->color[x] < c->color[y] ? -1 : 1;
	if (c->g0 > 0 && (x >= c->g0) != (y >= c->g0))
		return x >= c->g0 ? 1 : -1;
	if (c->key[x] != c->key[y])
		return c->key[x] < c->key[y] ? -1 : 1;
	return x - y;
}

/* The ids are agreed: build this node's part of each new communicator. */
static void create_build(struct shl_netop *op, const uint32_t *ids)
{
	struct shl_net_cre *c = op->cre;
	struct shl_comm_shared *p = op->sh;
	int n = p->nmembers, nm = 0, *order = malloc((size_t)n * sizeof(int));

	if (order == NULL)
		shl_panic("MPI_Comm_split", ENOMEM, "no memory for a communicator across nodes");
	for (int j = 0; j < n; j++) {
		const struct cre_arg *a = (const struct cre_arg *)op->arg[j];
		if (a != NULL && a->md.gsize0 < 0)
			c->g0 = p->gsize[0];  /* MPI_Comm_split of an intercommunicator */
		if (c->color[j] != MPI_UNDEFINED)
			order[nm++] = j;
	}
	qsort_r(order, (size_t)nm, sizeof(int), cre_cmp, c);
	for (int i = 0, e, ci = 0; i < nm; i = e, ci++) {
		int nloc = 0;
		bool off = false;
		for (e = i; e < nm && c->color[order[e]] == c->color[order[i]]; e++) {
			bool here = op->arg[order[e]] != NULL;
			nloc += here;
			off = off || !here;
		}
		/* Of an intercommunicator, a color on one side only gives MPI_COMM_NULL. */
		int k0 = 0;
		for (int j = i; c->g0 > 0 && j < e; j++)
			k0 += order[j] < c->g0;
		if (nloc == 0 || (c->g0 > 0 && (k0 == 0 || k0 == e - i))) {
			shl_ctx_unmark(ids[ci]);  /* in use only on other nodes, or not at all */
			continue;
		}
		struct shl_comm_shared *sh = shl_comm_shared_for(e - i, ids[ci], nloc);
		if (sh == NULL)
			shl_panic("MPI_Comm_split", ENOMEM, "no memory for a communicator");
		for (int j = i; j < e; j++)
			sh->world[j - i] = p->world[order[j]];
		sh->offnode = off;
		if (c->g0 > 0) {
			sh->inter = true;
			sh->gsize[0] = k0;
			sh->gsize[1] = e - i - k0;
		}
		/* Intercomm_create, or dup of an intercommunicator: one color, in order. */
		for (int j = i; j < e; j++) {
			const struct cre_arg *a = (const struct cre_arg *)op->arg[order[j]];
			if (a == NULL || a->md.gsize0 <= 0 || a->md.gsize0 >= e - i)
				continue;
			sh->inter = true;
			sh->gsize[0] = a->md.gsize0;
			sh->gsize[1] = e - i - a->md.gsize0;
			break;
		}
		if (off)
			shl_route_add(sh);
		for (int j = i; j < e; j++) {
			struct cre_arg *a = (struct cre_arg *)op->arg[order[j]];
			if (a == NULL)
				continue;
			a->md.sh = sh;
			a->md.member = j - i;
			if (a->md.view != NULL)
				shl_comm_view(a->md.view, sh, j - i);
		}
	}
	free(order);
}

static void create_fail(struct shl_netop *op, int err)
{
	for (int j = 0; j < op->sh->nmembers; j++)
		if (op->arg[j] != NULL)
			op->arg[j]->a.err = err;
}

bool shl_coll_net_create_round(struct shl_rank *r, struct shl_netop *op)
{
	struct shl_coll_net *nc = op->nc;
	int n = op->sh->nmembers, err = 0;
	struct shl_net_cre *c = op->cre;

	if (op->round == 0) {
		c = op->cre = calloc(1, sizeof(*c));
		if (c != NULL) {
			c->color = malloc((size_t)n * sizeof(int));
			c->key = malloc((size_t)n * sizeof(int));
		}
		if (c == NULL || c->color == NULL || c->key == NULL)
			shl_panic("MPI_Comm_split", ENOMEM, "no memory for a communicator");
		for (int j = 0; j < n; j++)
			c->color[j] = INT32_MIN;
		for (int p = -1; p < nc->npeers && err == 0; p++) {
			const char *b = p < 0 ? op->blob : op->peer[p].rbuf;
			uint64_t len = p < 0 ? op->blen : op->peer[p].rlen;
			uint64_t at = sizeof(struct shl_net_head);
			struct shl_net_head h;
			if (len < sizeof(h)) {
				err = MPI_ERR_INTERN;
				break;
			}
			memcpy(&h, b, sizeof(h));
			if (h.fn != shl_coll_net_fn_id(op->run) || h.key != op->key) {
				err = MPI_ERR_NOT_SAME;
				break;
			}
			if (h.lo > c->base)
				c->base = h.lo;
			for (uint32_t i = 0; i < h.nent; i++, at += sizeof(struct shl_net_ent)) {
				struct shl_net_ent e;
				if (len - at < sizeof(e)) {
					err = MPI_ERR_INTERN;
					break;
				}
				memcpy(&e, b + at, sizeof(e));
				if (e.member < 0 || e.member >= n || c->color[e.member] != INT32_MIN) {
					err = MPI_ERR_INTERN;
					break;
				}
				c->color[e.member] = e.root;
				c->key[e.member] = e.aux;
			}
		}
		for (int j = 0; j < n && err == 0; j++)
			if (c->color[j] == INT32_MIN)
				err = MPI_ERR_INTERN;
		if (err == 0 && op->mismatch)
			err = MPI_ERR_NOT_SAME;
		/* Distinct colors: sort a copy. */
		if (err == 0) {
			int *s = malloc((size_t)n * sizeof(int)), k = 0;
			if (s == NULL)
				shl_panic("MPI_Comm_split", ENOMEM, "no memory for a communicator");
			for (int j = 0; j < n; j++)
				if (c->color[j] != MPI_UNDEFINED)
					s[k++] = c->color[j];
			for (int i = 1; i < k; i++)
				for (int j = i; j > 0 && s[j - 1] > s[j]; j--) {
					int t = s[j];
					s[j] = s[j - 1];
					s[j - 1] = t;
				}
			for (int i = 0; i < k; i++)
				c->need += i == 0 || s[i] != s[i - 1];
			free(s);
		}
	} else {
		/* Ids free on every node: the AND of every node's reserved window. */
		memcpy(c->both, c->mine, sizeof(c->both));
		for (int p = 0; p < nc->npeers; p++) {
			uint64_t m[4];
			if (op->peer[p].rlen != sizeof(struct shl_net_head) + sizeof(m)) {
				err = MPI_ERR_INTERN;
				break;
			}
			memcpy(m, op->peer[p].rbuf + sizeof(struct shl_net_head), sizeof(m));
			for (int w = 0; w < 4; w++)
				c->both[w] &= m[w];
		}
		int have = 0;
		for (int w = 0; w < 4; w++)
			have += __builtin_popcountll(c->both[w]);
		uint32_t *ids = malloc(((size_t)c->need + 1) * sizeof(*ids));
		if (ids == NULL)
			shl_panic("MPI_Comm_split", ENOMEM, "no memory for a communicator");
		int got = 0;
		/* Keep the lowest `need` common ids; give back the rest of the window. */
		for (uint32_t i = 0; i < 256; i++) {
			bool mine = c->mine[i / 64] & (1ull << (i % 64));
			bool common = c->both[i / 64] & (1ull << (i % 64));
			if (err == 0 && have >= c->need && common && got < c->need)
				ids[got++] = c->base + i;
			else if (mine)
				shl_ctx_unmark(c->base + i);
		}
		memset(c->mine, 0, sizeof(c->mine));
		if (err == 0 && got == c->need) {
			create_build(op, ids);
			free(ids);
			goto done;
		}
		free(ids);
		c->base += 256;
	}
	shl_coll_net_round_free(r, op);
	if (err == 0 && c->need == 0)
		goto done;
	if (err == 0 && c->base + 256 > SHL_CTX_MAX)
		err = MPI_ERR_OTHER;  /* no context id is free on every node */
	if (err != 0) {
		create_fail(op, err);
		goto done;
	}
	/* Next round: reserve the window, send which of its ids are free here. */
	shl_ctx_reserve(c->base, c->mine);
	struct shl_net_head h = { .fn = shl_coll_net_fn_id(op->run), .key = op->key };
	op->blen = sizeof(h) + sizeof(c->mine);
	op->blob = malloc(op->blen);
	if (op->blob == NULL)
		shl_panic("MPI_Comm_split", ENOMEM, "no memory for a communicator");
	memcpy(op->blob, &h, sizeof(h));
	memcpy(op->blob + sizeof(h), c->mine, sizeof(c->mine));
	op->round++;
	shl_coll_net_exchange(r, op);
	return false;
done:
	shl_coll_net_round_free(r, op);
	shl_coll_net_finish(op);
	if (c != NULL) {
		free(c->color);
		free(c->key);
		free(c);
	}
	return true;
}

int shl_comm_net_split(struct shl_rank *r, struct shl_comm *p, int color, int key,
		       struct shl_net_made *md, struct shl_req *q)
{
	if (q == NULL) {
		struct shl_req sq = { .magic = SHL_REQ_MAGIC, .kind = SHL_REQ_DONE, .owner = r };
		struct cre_arg a = { .x = { .root = color, .scount = key }, .md = *md };
		struct shl_coll_blocked w = { &sq, p->sh };
		int err;
		a.x.a = (struct shl_arrival){ .req = &sq };
		if ((err = shl_coll_net_arrive(p, shl_coll_net_create_run, &a.x)) != 0)
			return err;
		shl_rank_lock(r);
		shl_wait(r, shl_coll_blocked_done, &w);
		shl_rank_unlock(r);
		*md = a.md;
		return a.x.a.err;
	}
	struct cre_arg *h = calloc(1, sizeof(*h));
	if (h == NULL)
		return MPI_ERR_NO_MEM;
	h->x = (struct shl_cargs){ .root = color, .scount = key };
	h->x.a = (struct shl_arrival){ .req = q, .heap = true };
	h->md = *md;
	if (shl_coll_net_arrive(p, shl_coll_net_create_run, &h->x) != 0) {
		free(h);
		return MPI_ERR_NO_MEM;
	}
	return 0;
}

/* ---- MPI_Comm_create_group across nodes ---- */

/* One create_group call in progress on a parent: a stand-in shared object of the group's
 * members (the parent's context, so its internal messages go on the parent's internal
 * context, tagged apart), shared by the local members making the same call. */
struct shl_net_sub {
	int tag;
	struct shl_comm_shared *gsh;
	int users;                    /* local members inside the call */
	bool done;                    /* completed: a new call with the same group is another */
	struct shl_net_sub *next;
};

static struct shl_net_sub *sub_join(struct shl_coll_net *pn, struct shl_comm_shared *p,
			    const struct shl_group *g, int tag)
{
	struct shl_net_sub *u;

	pthread_mutex_lock(&pn->lock);
	for (u = pn->subs; u != NULL; u = u->next)
		if (!u->done && u->tag == tag && u->gsh->nmembers == g->size &&
		    memcmp(u->gsh->world, g->world, (size_t)g->size * sizeof(int)) == 0)
			break;
	if (u == NULL && (u = calloc(1, sizeof(*u))) != NULL) {
		size_t bytes = (sizeof(struct shl_comm_shared) + 63) / 64 * 64;
		struct shl_comm_shared *gsh = aligned_alloc(64, bytes);
		int *world = malloc((size_t)g->size * sizeof(int));
		if (gsh == NULL || world == NULL) {
			free(gsh);
			free(world);
			free(u);
			u = NULL;
			goto out;
		}
		memset(gsh, 0, bytes);
		memcpy(world, g->world, (size_t)g->size * sizeof(int));
		gsh->context = p->context;
		gsh->nmembers = gsh->gsize[0] = g->size;
		gsh->world = world;
		gsh->offnode = true;  /* its leaders send to other nodes */
		pthread_mutex_init(&gsh->lock, NULL);
		struct shl_coll_net *gn = shl_coll_net_of(gsh);
		if (gn == NULL) {
			free(gsh);
			free(world);
			free(u);
			u = NULL;
			goto out;
		}
		gn->subset_tag = tag;  /* before any member can arrive */
		u->tag = tag;
		u->gsh = gsh;
		u->next = pn->subs;
		pn->subs = u;
	}
	if (u != NULL)
		u->users++;
out:
	pthread_mutex_unlock(&pn->lock);
	return u;
}

static void sub_leave(struct shl_coll_net *pn, struct shl_net_sub *u)
{
	bool last;

	pthread_mutex_lock(&pn->lock);
	u->done = true;
	last = --u->users == 0;
	if (last) {
		struct shl_net_sub **link = &pn->subs;
		while (*link != u)
			link = &(*link)->next;
		*link = u->next;
	}
	pthread_mutex_unlock(&pn->lock);
	if (!last)
		return;
	shl_coll_net_free(u->gsh);  /* a stand-in: the parent's context stays */
	pthread_mutex_destroy(&u->gsh->lock);
	free(u->gsh->world);
	free(u->gsh);
	free(u);
}

int shl_comm_net_create_group(struct shl_rank *r, struct shl_comm *p, const struct shl_group *g,
			      int tag, int at, struct shl_net_made *md)
{
	struct shl_coll_net *pn = shl_coll_net_of(p->sh);
	struct shl_net_sub *u = pn ? sub_join(pn, p->sh, g, tag) : NULL;
	int err;

	if (u == NULL)
		return MPI_ERR_NO_MEM;
	struct shl_comm v = { .magic = SHL_COMM_MAGIC, .context = p->context, .rank = at,
			      .size = g->size, .sh = u->gsh, .member = at };
	err = shl_comm_net_split(r, &v, 0, at, md, NULL);
	sub_leave(pn, u);
	return err;
}
