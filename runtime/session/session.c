/* Sessions (MPI 4.1, 11.3): MPI_Session_init and _finalize, the process sets and their
 * groups, a session's info, its error handlers and its buffer for buffered sends. Entered
 * by rank threads; a session is used by its rank's threads only (its handler, info and
 * buffer under the rank lock where they change). A session brings its rank into MPI
 * (core/init.c shl_rank_session_start) whether or not the world model is initialized, and
 * its end lets the rank out if nothing else holds it there.
 *
 * Process sets: "mpi://WORLD" (every rank of the job, in world order), "mpi://SELF" (the
 * caller), and "shoal://node/<i>" for each node process i of the job (its ranks in world
 * order; i as coll/net.c numbers nodes, 0 on a one-node job). Names compare without case. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "runtime/session/session.h"

/* ---- errors ---- */

int shl_session_err(struct shl_session *s, int errclass, const char *fn, const char *fmt, ...)
{
	char what[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (s == NULL)
		return shl_err(NULL, errclass, fn, "%s", what);
	MPI_Session h = s;  /* the handle the user knows, which the handler may not change */
	return shl_err_raise(s->errh, &h, "a session", errclass, fn, what);
}

int shl_session_arg(const char *fn, MPI_Session h, struct shl_rank **r, struct shl_session **s)
{
	*r = shl_rank_any_phase(fn);
	*s = shl_session_get(*r, h);
	if (*s == NULL)
		return shl_session_err(NULL, MPI_ERR_SESSION, fn, "session is not a valid session%s",
				       h == MPI_SESSION_NULL ? " (MPI_SESSION_NULL)"
							     : " (finalized already?)");
	return MPI_SUCCESS;
}

/* ---- init and finalize (MPI 4.1, 11.3.1) ---- */

/* The value of `key` in info handle `h` (not MPI_INFO_NULL nor MPI_INFO_ENV), or NULL. */
static const char *info_value(MPI_Info h, const char *key)
{
	if (h == MPI_INFO_NULL || !shl_handle_mapped(h, sizeof(*h)) || h->magic != SHL_INFO_MAGIC ||
	    h->predefined)
		return NULL;
	for (int i = 0; i < h->n; i++)
		if (strcmp(h->e[i].key, key) == 0)
			return h->e[i].value;
	return NULL;
}

static const char *const level_names[] = {
	[MPI_THREAD_SINGLE] = "MPI_THREAD_SINGLE", [MPI_THREAD_FUNNELED] = "MPI_THREAD_FUNNELED",
	[MPI_THREAD_SERIALIZED] = "MPI_THREAD_SERIALIZED",
	[MPI_THREAD_MULTIPLE] = "MPI_THREAD_MULTIPLE" };

/* The thread level "thread_level" asks for (MPI_THREAD_SINGLE when absent), or -1. */
static int level_asked(MPI_Info info)
{
	const char *v = info_value(info, "thread_level");

	if (v == NULL)
		return MPI_THREAD_SINGLE;
	for (int l = MPI_THREAD_SINGLE; l <= MPI_THREAD_MULTIPLE; l++)
		if (strcasecmp(v, level_names[l]) == 0)
			return l;
	return -1;
}

/* An error of MPI_Session_init, before a session exists: through `errhandler` if it is a
 * handler a session may have (MPI 4.1, 11.3.1), else the default's way. */
static int init_err(struct shl_errhandler *errhandler, int errclass, const char *fn,
		    const char *what)
{
	const char *why;
	MPI_Session none = MPI_SESSION_NULL;

	if (shl_errh_fit(errhandler, SHL_ERRH_SESSION, &why) != MPI_SUCCESS)
		return shl_err(NULL, errclass, fn, "%s", what);
	return shl_err_raise(errhandler, &none, "no session", errclass, fn, what);
}

int PMPI_Session_init(MPI_Info info, MPI_Errhandler errhandler, MPI_Session *session)
{
	const char *fn = "MPI_Session_init", *why;
	char what[160];
	int err, level;

	if ((err = shl_errh_fit(errhandler, SHL_ERRH_SESSION, &why)) != MPI_SUCCESS)
		return shl_err(NULL, err, fn, "%s", why);
	if (session == NULL)
		return init_err(errhandler, MPI_ERR_ARG, fn, "session is NULL");
	if (info != MPI_INFO_NULL && info != MPI_INFO_ENV &&
	    (!shl_handle_mapped(info, sizeof(*info)) || info->magic != SHL_INFO_MAGIC))
		return init_err(errhandler, MPI_ERR_INFO, fn, "invalid info argument");
	if ((level = level_asked(info)) < 0) {
		snprintf(what, sizeof(what), "info's thread_level \"%.64s\" is not one of "
			 "MPI_THREAD_SINGLE, _FUNNELED, _SERIALIZED, _MULTIPLE",
			 info_value(info, "thread_level"));
		return init_err(errhandler, MPI_ERR_INFO, fn, what);
	}
	struct shl_rank *r = shl_rank_session_start(fn, level);
	struct shl_session *s = shl_handle_alloc(sizeof(*s));
	struct shl_bsend_buffer *b = calloc(1, sizeof(*b));
	MPI_Info hints = MPI_INFO_NULL;
	if (s == NULL || b == NULL ||
	    (info != MPI_INFO_NULL && info != MPI_INFO_ENV ? PMPI_Info_dup(info, &hints)
							    : PMPI_Info_create(&hints)) ||
	    PMPI_Info_set(hints, "thread_level", level_names[r->thread_level]) ||
	    PMPI_Info_set(hints, "mpi_thread_support_level", level_names[r->thread_level])) {
		if (hints != MPI_INFO_NULL)
			PMPI_Info_free(&hints);
		shl_handle_free(s);
		free(b);
		shl_rank_session_end(r);
		return init_err(errhandler, MPI_ERR_NO_MEM, fn, "out of memory");
	}
	shl_errh_hold(errhandler);
	*s = (struct shl_session){ .magic = SHL_SESSION_MAGIC, .owner = r, .errh = errhandler,
				   .info = hints, .bsend = b };
	*session = s;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Session_init);

int PMPI_Session_finalize(MPI_Session *session)
{
	const char *fn = "MPI_Session_finalize";
	struct shl_rank *r;
	struct shl_session *s;
	int err;

	if (session == NULL)
		return shl_err(NULL, MPI_ERR_ARG, fn, "session is NULL");
	if ((err = shl_session_arg(fn, *session, &r, &s)) != MPI_SUCCESS)
		return err;
	/* Messages buffered in the session's buffer are delivered first; the buffer is
	 * detached, and the session's communicators fall back to the rank's. */
	if (s->bsend->base != NULL || s->bsend->automatic) {
		void *addr;
		MPI_Count size;
		shl_bsend_detach(r, s->bsend, true, &addr, &size);
	}
	s->magic = 0;
	shl_errh_drop(s->errh);
	PMPI_Info_free(&s->info);
	shl_handle_free(s);
	*session = MPI_SESSION_NULL;
	shl_rank_session_end(r);
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Session_finalize);

int PMPI_Session_get_info(MPI_Session session, MPI_Info *info_used)
{
	const char *fn = "MPI_Session_get_info";
	struct shl_rank *r;
	struct shl_session *s;
	int err = shl_session_arg(fn, session, &r, &s);

	if (err != MPI_SUCCESS)
		return err;
	if (info_used == NULL)
		return shl_session_err(s, MPI_ERR_ARG, fn, "info_used is NULL");
	if (PMPI_Info_dup(s->info, info_used) != MPI_SUCCESS)
		return shl_session_err(s, MPI_ERR_NO_MEM, fn, "out of memory");
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Session_get_info);

/* ---- process sets (MPI 4.1, 11.3.2) ---- */

/* The job's node processes: one more than the highest node index of a world rank, worked
 * out once (the job's layout is fixed before ranks run). */
static int nodes(void)
{
	static _Atomic int n;
	int k = atomic_load_explicit(&n, memory_order_relaxed);

	if (k > 0)
		return k;
	for (int w = 0; w < shl_job.size; w++) {
		int i = shl_coll_net_node_of(w);
		if (i + 1 > k)
			k = i + 1;
	}
	atomic_store_explicit(&n, k, memory_order_relaxed);
	return k;
}

#define NODE_PREFIX "shoal://node/"

/* Process set `n` (0-based) into `name` (MPI_MAX_PSET_NAME_LEN bytes); false if there is
 * none. */
static bool nth_pset(int n, char *name)
{
	if (n == 0)
		snprintf(name, MPI_MAX_PSET_NAME_LEN, "mpi://WORLD");
	else if (n == 1)
		snprintf(name, MPI_MAX_PSET_NAME_LEN, "mpi://SELF");
	else if (n >= 2 && n - 2 < nodes())
		snprintf(name, MPI_MAX_PSET_NAME_LEN, NODE_PREFIX "%d", n - 2);
	else
		return false;
	return true;
}

/* The members of process set `name`, as world ranks in order, for rank `r`: a new array in
 * *world of *size entries; false if the set does not exist (or no memory: *size -1). */
static bool pset_members(struct shl_rank *r, const char *name, int **world, int *size)
{
	int node = -1, k = 0;

	*size = 0;
	if (strcasecmp(name, "mpi://WORLD") == 0) {
		k = shl_job.size;
	} else if (strcasecmp(name, "mpi://SELF") == 0) {
		k = 1;
	} else if (strncasecmp(name, NODE_PREFIX, strlen(NODE_PREFIX)) == 0) {
		const char *d = name + strlen(NODE_PREFIX);
		char *end;
		long i = strtol(d, &end, 10);
		if (*d < '0' || *d > '9' || *end != '\0' || i >= nodes() ||
		    (d[0] == '0' && d[1] != '\0'))
			return false;
		node = (int)i;
		for (int w = 0; w < shl_job.size; w++)
			k += shl_coll_net_node_of(w) == node;
	} else {
		return false;
	}
	*world = malloc((size_t)(k > 0 ? k : 1) * sizeof(int));
	if (*world == NULL) {
		*size = -1;
		return true;
	}
	if (k == 1 && node < 0)
		(*world)[0] = r->world_rank;
	else
		for (int w = 0, j = 0; w < shl_job.size; w++)
			if (node < 0 || shl_coll_net_node_of(w) == node)
				(*world)[j++] = w;
	*size = k;
	return true;
}

int PMPI_Session_get_num_psets(MPI_Session session, MPI_Info info, int *npset_names)
{
	const char *fn = "MPI_Session_get_num_psets";
	struct shl_rank *r;
	struct shl_session *s;
	int err = shl_session_arg(fn, session, &r, &s);

	if (err != MPI_SUCCESS)
		return err;
	if (npset_names == NULL)
		return shl_session_err(s, MPI_ERR_ARG, fn, "npset_names is NULL");
	*npset_names = 2 + nodes();
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Session_get_num_psets);

int PMPI_Session_get_nth_pset(MPI_Session session, MPI_Info info, int n, int *pset_len,
			      char *pset_name)
{
	const char *fn = "MPI_Session_get_nth_pset";
	struct shl_rank *r;
	struct shl_session *s;
	char name[MPI_MAX_PSET_NAME_LEN];
	int err = shl_session_arg(fn, session, &r, &s);

	if (err != MPI_SUCCESS)
		return err;
	if (pset_len == NULL || *pset_len < 0 || (*pset_len > 0 && pset_name == NULL))
		return shl_session_err(s, MPI_ERR_ARG, fn, "pset_len is NULL or negative, or "
				       "pset_name is NULL");
	if (!nth_pset(n, name))
		return shl_session_err(s, MPI_ERR_ARG, fn, "n %d is not a process set's index "
				       "(0..%d)", n, 1 + nodes());
	int len = (int)strlen(name) + 1;
	/* pset_len 0 asks for the length, terminating null included (MPI 4.1, 11.3.2). */
	if (*pset_len == 0) {
		*pset_len = len;
		return MPI_SUCCESS;
	}
	int copy = len < *pset_len ? len : *pset_len;
	memcpy(pset_name, name, (size_t)copy - 1);
	pset_name[copy - 1] = '\0';
	*pset_len = len;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Session_get_nth_pset);

/* Whether `name` is a string (checked for NULL) the process-set calls can look up. */
static int pset_arg(struct shl_session *s, const char *fn, const char *name)
{
	if (name == NULL)
		return shl_session_err(s, MPI_ERR_ARG, fn, "pset_name is NULL");
	return MPI_SUCCESS;
}

int PMPI_Session_get_pset_info(MPI_Session session, const char *pset_name, MPI_Info *info)
{
	const char *fn = "MPI_Session_get_pset_info";
	struct shl_rank *r;
	struct shl_session *s;
	int err = shl_session_arg(fn, session, &r, &s), size, *world = NULL;
	char text[16];

	if (err != MPI_SUCCESS || (err = pset_arg(s, fn, pset_name)) != MPI_SUCCESS)
		return err;
	if (info == NULL)
		return shl_session_err(s, MPI_ERR_ARG, fn, "info is NULL");
	if (!pset_members(r, pset_name, &world, &size))
		return shl_session_err(s, MPI_ERR_ARG, fn, "pset_name \"%.*s\" is not a process "
				       "set (MPI_Session_get_nth_pset lists them)",
				       MPI_MAX_PSET_NAME_LEN, pset_name);
	free(world);
	snprintf(text, sizeof(text), "%d", size);
	if (size < 0 || PMPI_Info_create(info) != MPI_SUCCESS)
		return shl_session_err(s, MPI_ERR_NO_MEM, fn, "out of memory");
	if (PMPI_Info_set(*info, "mpi_size", text) != MPI_SUCCESS) {
		PMPI_Info_free(info);
		return shl_session_err(s, MPI_ERR_NO_MEM, fn, "out of memory");
	}
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Session_get_pset_info);

int PMPI_Group_from_session_pset(MPI_Session session, const char *pset_name,
				 MPI_Group *newgroup)
{
	const char *fn = "MPI_Group_from_session_pset";
	struct shl_rank *r;
	struct shl_session *s;
	int err = shl_session_arg(fn, session, &r, &s), size, *world = NULL;
	struct shl_group *g;

	if (err != MPI_SUCCESS || (err = pset_arg(s, fn, pset_name)) != MPI_SUCCESS)
		return err;
	if (newgroup == NULL)
		return shl_session_err(s, MPI_ERR_ARG, fn, "newgroup is NULL");
	if (!pset_members(r, pset_name, &world, &size))
		return shl_session_err(s, MPI_ERR_ARG, fn, "pset_name \"%.*s\" is not a process "
				       "set (MPI_Session_get_nth_pset lists them)",
				       MPI_MAX_PSET_NAME_LEN, pset_name);
	if (size < 0 || (g = shl_group_new(size)) == NULL) {
		free(world);
		return shl_session_err(s, MPI_ERR_NO_MEM, fn, "out of memory");
	}
	memcpy(g->world, world, (size_t)size * sizeof(int));
	free(world);
	g->bsend_session = s->bsend;
	*newgroup = g;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Group_from_session_pset);

/* ---- error handlers (MPI 4.1, 9.3.4) ---- */

int PMPI_Session_create_errhandler(MPI_Session_errhandler_function *session_errhandler_fn,
				   MPI_Errhandler *errhandler)
{
	const char *fn = "MPI_Session_create_errhandler";
	struct shl_errhandler *e;

	shl_rank_any_phase(fn);
	if (session_errhandler_fn == NULL || errhandler == NULL)
		return shl_err(NULL, MPI_ERR_ARG, fn,
			       "session_errhandler_fn or errhandler is NULL");
	e = shl_handle_alloc(sizeof(*e));
	if (e == NULL)
		return shl_err(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
	*e = (struct shl_errhandler){ .magic = SHL_ERRH_MAGIC, .kind = SHL_ERRH_USER,
				      .obj = SHL_ERRH_SESSION, .fn.session = session_errhandler_fn,
				      .refs = 1, .handles = 1 };
	*errhandler = e;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Session_create_errhandler);

int PMPI_Session_set_errhandler(MPI_Session session, MPI_Errhandler errhandler)
{
	const char *fn = "MPI_Session_set_errhandler", *why;
	struct shl_rank *r;
	struct shl_session *s;
	int err = shl_session_arg(fn, session, &r, &s);

	if (err != MPI_SUCCESS)
		return err;
	if ((err = shl_errh_fit(errhandler, SHL_ERRH_SESSION, &why)) != MPI_SUCCESS)
		return shl_session_err(s, err, fn, "%s", why);
	shl_rank_lock(r);
	shl_errh_replace(&s->errh, errhandler);
	shl_rank_unlock(r);
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Session_set_errhandler);

int PMPI_Session_get_errhandler(MPI_Session session, MPI_Errhandler *errhandler)
{
	const char *fn = "MPI_Session_get_errhandler";
	struct shl_rank *r;
	struct shl_session *s;
	int err = shl_session_arg(fn, session, &r, &s);

	if (err != MPI_SUCCESS)
		return err;
	if (errhandler == NULL)
		return shl_session_err(s, MPI_ERR_ARG, fn, "errhandler is NULL");
	*errhandler = shl_errh_give(s->errh);
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Session_get_errhandler);

int PMPI_Session_call_errhandler(MPI_Session session, int errorcode)
{
	const char *fn = "MPI_Session_call_errhandler";
	struct shl_rank *r;
	struct shl_session *s;
	int err = shl_session_arg(fn, session, &r, &s);

	if (err != MPI_SUCCESS)
		return err;
	shl_session_err(s, errorcode, fn, "the user raised error code %d", errorcode);
	/* Success unless the handler itself failed (MPI 4.1, 9.3.4). */
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Session_call_errhandler);

/* ---- the session's buffer (MPI 4.1, 3.6.2) ---- */

static int attach(const char *fn, MPI_Session session, void *buffer, MPI_Count size)
{
	struct shl_rank *r;
	struct shl_session *s;
	int err = shl_session_arg(fn, session, &r, &s);

	if (err != MPI_SUCCESS)
		return err;
	if (size < 0 && buffer != MPI_BUFFER_AUTOMATIC)
		return shl_session_err(s, MPI_ERR_SIZE, fn, "size %lld is negative", size);
	if (buffer == NULL && size > 0)
		return shl_session_err(s, MPI_ERR_BUFFER, fn, "buffer is NULL");
	if (shl_bsend_attach(r, s->bsend, buffer, size) != MPI_SUCCESS)
		return shl_session_err(s, MPI_ERR_BUFFER, fn, "a buffer is already attached to "
				       "session (detach it first)");
	return MPI_SUCCESS;
}

int PMPI_Session_attach_buffer(MPI_Session session, void *buffer, int size)
{
	return attach("MPI_Session_attach_buffer", session, buffer, size);
}
SHL_WEAK_ALIAS(Session_attach_buffer);

int PMPI_Session_attach_buffer_c(MPI_Session session, void *buffer, MPI_Count size)
{
	return attach("MPI_Session_attach_buffer_c", session, buffer, size);
}
SHL_WEAK_ALIAS(Session_attach_buffer_c);

static int detach(const char *fn, MPI_Session session, void *buffer_addr, void *size, bool large)
{
	struct shl_rank *r;
	struct shl_session *s;
	int err = shl_session_arg(fn, session, &r, &s);

	if (err != MPI_SUCCESS)
		return err;
	if (buffer_addr == NULL || size == NULL)
		return shl_session_err(s, MPI_ERR_ARG, fn, "buffer_addr or size is NULL");
	if (s->bsend->base == NULL && !s->bsend->automatic)
		return shl_session_err(s, MPI_ERR_BUFFER, fn, "no buffer is attached to session");
	if (shl_bsend_detach(r, s->bsend, large, buffer_addr, size) != MPI_SUCCESS)
		return shl_session_err(s, MPI_ERR_VALUE_TOO_LARGE, fn, "the attached buffer's %zu "
				       "bytes do not fit the int size (use "
				       "MPI_Session_detach_buffer_c)", s->bsend->size);
	return MPI_SUCCESS;
}

int PMPI_Session_detach_buffer(MPI_Session session, void *buffer_addr, int *size)
{
	return detach("MPI_Session_detach_buffer", session, buffer_addr, size, false);
}
SHL_WEAK_ALIAS(Session_detach_buffer);

int PMPI_Session_detach_buffer_c(MPI_Session session, void *buffer_addr, MPI_Count *size)
{
	return detach("MPI_Session_detach_buffer_c", session, buffer_addr, size, true);
}
SHL_WEAK_ALIAS(Session_detach_buffer_c);

int PMPI_Session_flush_buffer(MPI_Session session)
{
	const char *fn = "MPI_Session_flush_buffer";
	struct shl_rank *r;
	struct shl_session *s;
	int err = shl_session_arg(fn, session, &r, &s);

	if (err != MPI_SUCCESS)
		return err;
	shl_bsend_flush(r, s->bsend);
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Session_flush_buffer);

int PMPI_Session_iflush_buffer(MPI_Session session, MPI_Request *request)
{
	const char *fn = "MPI_Session_iflush_buffer";
	struct shl_rank *r;
	struct shl_session *s;
	int err = shl_session_arg(fn, session, &r, &s);

	if (err != MPI_SUCCESS)
		return err;
	if (request == NULL)
		return shl_session_err(s, MPI_ERR_REQUEST, fn, "request is NULL");
	if (shl_bsend_iflush(r, s->bsend, request) != MPI_SUCCESS)
		return shl_session_err(s, MPI_ERR_NO_MEM, fn, "out of memory");
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Session_iflush_buffer);
