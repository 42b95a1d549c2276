/* Communicators from groups (MPI 4.1, 11.3.3, 7.4.2 and 7.6.2): MPI_Comm_create_from_group
 * and MPI_Intercomm_create_from_groups. Entered by rank threads; only the group's members
 * call, with the same string tag, and nobody else takes part.
 *
 * On one node the members meet on MPI_COMM_WORLD's shared object (comm/meet.c), at a
 * rendezvous of the subset (bit 63 of the key, as MPI_Comm_create_group's) marked as
 * coming from a string tag (bit 62, which MPI_Comm_create_group's int tags never set),
 * keyed by the tag's number in the node's table of tags and the group's first member.
 * The table numbers distinct tags distinctly (their full text compared), so creations with
 * different tags never share a rendezvous; the last arriver checks every member brought the
 * same tag and group and agrees the context id. Across nodes the creation is
 * MPI_Comm_create_group of MPI_COMM_WORLD (coll/net_create.c) with a 27-bit hash of the tag
 * as its tag: concurrent creations of one group whose tags differ must hash apart; a
 * node that sees two such tags at once refuses the second (docs/sessions.md). The new communicator has the handler the call names, and buffered
 * sends on it use its session's buffer (struct shl_comm bsend_session) when one is
 * attached. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/session/session.h"

/* ---- the node's table of string tags ---- */

#define TAG_BINS 64

struct tag_entry {
	char *tag;
	uint32_t id;
	struct tag_entry *next;
};

static pthread_mutex_t tags_lock = PTHREAD_MUTEX_INITIALIZER;
static struct tag_entry *tags[TAG_BINS];
static uint32_t tags_issued;

static uint64_t hash_of(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;   /* FNV-1a */

	for (; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h;
}

/* The node-wide number of string tag `tag` (1, 2, ... in order of first use; each
 * distinct text its own), or 0 if there is no memory. Any rank thread. Tags stay in the
 * table: a program uses a handful. */
static uint32_t tag_id(const char *tag)
{
	struct tag_entry **bin = &tags[hash_of(tag) % TAG_BINS], *e;
	uint32_t id = 0;

	pthread_mutex_lock(&tags_lock);
	for (e = *bin; e != NULL; e = e->next)
		if (strcmp(e->tag, tag) == 0)
			break;
	if (e == NULL && (e = malloc(sizeof(*e))) != NULL) {
		if ((e->tag = strdup(tag)) == NULL) {
			free(e);
			e = NULL;
		} else {
			e->id = ++tags_issued;
			e->next = *bin;
			*bin = e;
		}
	}
	if (e != NULL)
		id = e->id;
	pthread_mutex_unlock(&tags_lock);
	return id;
}

/* ---- creations across nodes in progress on this node ---- */

/* One tag's creation of one group across nodes, while some local member is in it: two
 * different tags whose 27-bit hashes agree, creating the same group at once, would be
 * taken for one creation by coll/net_create.c; the second to start on this node is
 * refused instead. */
struct net_active {
	uint32_t hash;
	int first, size;
	char *tag;
	int users;
	struct net_active *next;
};

static struct net_active *net_active;

/* Join the creation of `g` tagged `tag` (hash `h`): 0, -EEXIST (another tag with that
 * hash is creating `g` here; *other names it, valid until the caller's net_leave) or
 * -ENOMEM. */
static int net_enter(uint32_t h, const struct shl_group *g, const char *tag,
		     struct net_active **slot, const char **other)
{
	struct net_active *a;
	int err = 0;

	pthread_mutex_lock(&tags_lock);
	for (a = net_active; a != NULL; a = a->next)
		if (a->hash == h && a->first == g->world[0] && a->size == g->size)
			break;
	if (a != NULL && strcmp(a->tag, tag) != 0) {
		*other = a->tag;
		err = -EEXIST;   /* the caller's net_leave keeps *other alive until then */
	} else if (a == NULL) {
		char *copy = strdup(tag);
		a = copy != NULL ? malloc(sizeof(*a)) : NULL;
		if (a == NULL) {
			free(copy);
			pthread_mutex_unlock(&tags_lock);
			return -ENOMEM;
		}
		*a = (struct net_active){ h, g->world[0], g->size, copy, 0, net_active };
		net_active = a;
	}
	a->users++;
	*slot = a;
	pthread_mutex_unlock(&tags_lock);
	return err;
}

static void net_leave(struct net_active *a)
{
	struct net_active **link;

	pthread_mutex_lock(&tags_lock);
	if (--a->users == 0) {
		for (link = &net_active; *link != a; link = &(*link)->next)
			;
		*link = a->next;
		free(a->tag);
		free(a);
	}
	pthread_mutex_unlock(&tags_lock);
}

/* ---- MPI_Comm_create_from_group ---- */

/* An error of a creation, before its communicator exists: through the handler it names. */
static int create_err(struct shl_errhandler *errh, int errclass, const char *fn,
		      const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int create_err(struct shl_errhandler *errh, int errclass, const char *fn,
		      const char *fmt, ...)
{
	char what[512];
	va_list ap;
	MPI_Comm none = MPI_COMM_NULL;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return shl_err_raise(errh, &none, "no communicator", errclass, fn, what);
}

struct from_in {
	const struct shl_group *g;
	const char *tag;
};

/* The last arriver: every member brought the same group and tag; one shared object for
 * them, with a fresh context id. */
static void from_group_run(struct shl_meeting *m)
{
	const struct from_in *f = m->arrival[0]->in;
	const struct shl_group *g = f->g;
	int err = MPI_SUCCESS;

	for (int i = 1; i < m->n; i++) {
		const struct from_in *h = m->arrival[i]->in;
		if (h->g->size != g->size || strcmp(h->tag, f->tag) != 0 ||
		    memcmp(h->g->world, g->world, (size_t)g->size * sizeof(int)) != 0)
			err = MPI_ERR_NOT_SAME;
	}
	shl_comm_made_of_group(m, g, err);
}

/* The checks the two calls share: a valid errhandler for a communicator (reported the
 * default way), then the tag and info (reported through it). */
static int common_args(const char *fn, struct shl_rank *r, const char *stringtag, MPI_Info info,
		       MPI_Errhandler errhandler, struct shl_info **hints)
{
	const char *why;
	int err = shl_errh_fit(errhandler, SHL_ERRH_COMM, &why);

	if (err != MPI_SUCCESS)
		return shl_err(NULL, err, fn, "%s", why);
	if (stringtag == NULL)
		return create_err(errhandler, MPI_ERR_ARG, fn, "stringtag is NULL");
	if (strnlen(stringtag, MPI_MAX_STRINGTAG_LEN) >= MPI_MAX_STRINGTAG_LEN)
		return create_err(errhandler, MPI_ERR_ARG, fn, "stringtag is longer than "
				  "MPI_MAX_STRINGTAG_LEN - 1 (%d)", MPI_MAX_STRINGTAG_LEN - 1);
	*hints = NULL;
	if (info != MPI_INFO_NULL && (*hints = shl_info_get(r, info)) == NULL)
		return create_err(errhandler, MPI_ERR_INFO, fn, "invalid info argument");
	return MPI_SUCCESS;
}

/* Create the communicator of group `g` (the caller in it, at `at`) tagged `tag`, with
 * handler `errh` and hints `hints` (NULL: none), into *newcomm. */
static int from_group(const char *fn, struct shl_rank *r, struct shl_group *g, int at,
		      const char *tag, struct shl_info *hints, struct shl_errhandler *errh,
		      MPI_Comm *newcomm)
{
	struct shl_comm_made md = { NULL, 0 };
	int err;

	if (r->world.sh->offnode) {
		struct shl_net_made nm = { 0 };
		struct net_active *a;
		const char *other = NULL;
		uint32_t h = (uint32_t)(hash_of(tag) & 0x7ffffff);
		int e = net_enter(h, g, tag, &a, &other);
		if (e == -ENOMEM)
			return create_err(errh, MPI_ERR_NO_MEM, fn, "out of memory");
		if (e == -EEXIST) {
			err = create_err(errh, MPI_ERR_OTHER, fn, "stringtag \"%s\" and \"%s\", "
					 "creating the same group at once across nodes, hash alike "
					 "(27 bits): use another tag", tag, other);
			net_leave(a);
			return err;
		}
		err = shl_comm_net_create_group(r, &r->world, g, (int)h, at, &nm);
		net_leave(a);
		md = (struct shl_comm_made){ nm.sh, nm.member };
	} else {
		uint32_t id = tag_id(tag);
		if (id == 0)
			return create_err(errh, MPI_ERR_NO_MEM, fn, "out of memory");
		uint64_t key = 1ull << 63 | 1ull << 62 | (uint64_t)(id & 0x3fffffff) << 32 |
			       (uint32_t)g->world[0];
		struct from_in in = { g, tag };
		err = shl_comm_meet_wait(r, r->world.sh, key, g->size, at, from_group_run, &in, &md);
	}
	if (err != MPI_SUCCESS)
		return create_err(errh, err, fn, "the group's members could not agree on the "
				  "communicator tagged \"%s\"%s", tag, err == MPI_ERR_NOT_SAME
				  ? " (they passed different groups or tags)" : "");
	/* The new communicator's handler and session, as shl_comm_alloc copies a parent's. */
	struct shl_comm tmpl = { .magic = SHL_COMM_MAGIC, .errh = errh,
				 .bsend_session = g->bsend_session, .name = "a new communicator" };
	if ((err = shl_comm_adopt(&tmpl, &md, newcomm, fn)) != MPI_SUCCESS)
		return err;
	if (hints != NULL && ((*newcomm)->info = shl_info_dup(hints)) == NULL)
		return shl_err(*newcomm, MPI_ERR_NO_MEM, fn, "out of memory for the info hints");
	return MPI_SUCCESS;
}

int PMPI_Comm_create_from_group(MPI_Group group, const char *stringtag, MPI_Info info,
				MPI_Errhandler errhandler, MPI_Comm *newcomm)
{
	const char *fn = "MPI_Comm_create_from_group";
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_info *hints;
	int err = common_args(fn, r, stringtag, info, errhandler, &hints), at;

	if (err != MPI_SUCCESS)
		return err;
	if (newcomm == NULL)
		return create_err(errhandler, MPI_ERR_ARG, fn, "newcomm is NULL");
	if (!shl_group_ok(group))
		return create_err(errhandler, MPI_ERR_GROUP, fn, "invalid group argument%s",
				  group == MPI_GROUP_NULL ? " (MPI_GROUP_NULL)" : "");
	if ((at = shl_group_find(group, r->world_rank)) == MPI_UNDEFINED)
		return create_err(errhandler, MPI_ERR_GROUP, fn, "the calling rank (%d of "
				  "mpi://WORLD) is not a member of group", r->world_rank);
	return from_group(fn, r, group, at, stringtag, hints, errhandler, newcomm);
}
SHL_WEAK_ALIAS(Comm_create_from_group);

/* ---- MPI_Intercomm_create_from_groups ---- */

/* The two groups, each a leader, make one communicator of their union (the group whose
 * leader has the lower world rank first), split it by side, and connect the sides with
 * MPI_Intercomm_create over it; the union and the side are freed. */
int PMPI_Intercomm_create_from_groups(MPI_Group local_group, int local_leader,
				      MPI_Group remote_group, int remote_leader,
				      const char *stringtag, MPI_Info info,
				      MPI_Errhandler errhandler, MPI_Comm *newintercomm)
{
	const char *fn = "MPI_Intercomm_create_from_groups";
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_info *hints;
	int err = common_args(fn, r, stringtag, info, errhandler, &hints), at;

	if (err != MPI_SUCCESS)
		return err;
	if (newintercomm == NULL)
		return create_err(errhandler, MPI_ERR_ARG, fn, "newintercomm is NULL");
	if (!shl_group_ok(local_group) || !shl_group_ok(remote_group))
		return create_err(errhandler, MPI_ERR_GROUP, fn, "invalid %s argument",
				  shl_group_ok(local_group) ? "remote_group" : "local_group");
	struct shl_group *lg = local_group, *rg = remote_group;
	if (local_leader < 0 || local_leader >= lg->size)
		return create_err(errhandler, MPI_ERR_RANK, fn, "local_leader %d is not a rank of "
				  "local_group (size %d)", local_leader, lg->size);
	if (remote_leader < 0 || remote_leader >= rg->size)
		return create_err(errhandler, MPI_ERR_RANK, fn, "remote_leader %d is not a rank of "
				  "remote_group (size %d)", remote_leader, rg->size);
	if ((at = shl_group_find(lg, r->world_rank)) == MPI_UNDEFINED)
		return create_err(errhandler, MPI_ERR_GROUP, fn, "the calling rank (%d of "
				  "mpi://WORLD) is not a member of local_group", r->world_rank);
	for (int i = 0; i < rg->size; i++)
		if (shl_group_find(lg, rg->world[i]) != MPI_UNDEFINED)
			return create_err(errhandler, MPI_ERR_GROUP, fn, "local_group and "
					  "remote_group share world rank %d", rg->world[i]);
	bool local_first = lg->world[local_leader] < rg->world[remote_leader];
	struct shl_group *first = local_first ? lg : rg, *second = local_first ? rg : lg;
	struct shl_group *u = shl_group_new(lg->size + rg->size);
	char tag[MPI_MAX_STRINGTAG_LEN + 32];
	if (u == NULL)
		return create_err(errhandler, MPI_ERR_NO_MEM, fn, "out of memory");
	memcpy(u->world, first->world, (size_t)first->size * sizeof(int));
	memcpy(u->world + first->size, second->world, (size_t)second->size * sizeof(int));
	u->bsend_session = lg->bsend_session;
	/* A tag no MPI_Comm_create_from_group can pass: a control character and the length. */
	snprintf(tag, sizeof(tag), "%s\x1f" "intercomm %zu", stringtag, strlen(stringtag));
	MPI_Comm uc = MPI_COMM_NULL, side = MPI_COMM_NULL;
	err = from_group(fn, r, u, (local_first ? 0 : first->size) + at, tag, NULL,
			 MPI_ERRORS_RETURN, &uc);
	shl_group_free(u);
	if (err == MPI_SUCCESS)
		err = PMPI_Comm_split(uc, local_first ? 0 : 1, at, &side);
	if (err == MPI_SUCCESS)
		err = PMPI_Intercomm_create(side, local_leader, uc,
					    (local_first ? first->size : 0) + remote_leader, 0,
					    newintercomm);
	if (side != MPI_COMM_NULL)
		PMPI_Comm_free(&side);
	if (uc != MPI_COMM_NULL)
		PMPI_Comm_free(&uc);
	if (err != MPI_SUCCESS)
		return create_err(errhandler, err, fn, "the two groups could not make the "
				  "intercommunicator tagged \"%s\"", stringtag);
	struct shl_comm *c = *newintercomm;
	shl_errh_replace(&c->errh, errhandler);
	c->bsend_session = lg->bsend_session;
	if (hints != NULL && (c->info = shl_info_dup(hints)) == NULL)
		return shl_err(c, MPI_ERR_NO_MEM, fn, "out of memory for the info hints");
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Intercomm_create_from_groups);
