/* Attributes on communicators: keyvals with copy/delete callbacks, the predefined
 * attributes of MPI_COMM_WORLD, and the MPI_Comm_*_attr / *_keyval functions. Entered by
 * rank threads; keyvals are the rank's own (struct shl_rank_objs). Lists change under the
 * rank lock; user callbacks run with it released (they may call MPI). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/rt.h"

/* User keyvals follow the predefined ones (MPI_TAG_UB .. MPI_LASTUSEDCODE). */
#define SHL_KEYVAL_FIRST 16

struct shl_keyval {
	MPI_Comm_copy_attr_function *copy;
	MPI_Comm_delete_attr_function *del;
	void *extra;
	int id;
	int refs;                     /* the handle (until freed) plus each attribute using it */
	bool freed;                   /* MPI_Comm_free_keyval'ed: no new attributes */
};

/* Values of the predefined attributes that are the same on every rank (MPI 4.1, 11.2.6). */
static const int tag_ub = MPI_TAG_UB_VALUE;
static const int host = MPI_PROC_NULL;          /* no process is a distinguished host */
static const int io = MPI_ANY_SOURCE;           /* every rank may do I/O */
static const int wtime_is_global = 1;           /* one clock per node process */
static const int appnum = 0;                    /* one application per job */

SHL_API int shl_mpi_comm_null_copy_fn(MPI_Comm oldcomm, int keyval, void *extra, void *in,
				      void *out, int *flag)
{
	*flag = 0;
	return MPI_SUCCESS;
}

SHL_API int shl_mpi_comm_dup_fn(MPI_Comm oldcomm, int keyval, void *extra, void *in, void *out,
				int *flag)
{
	*(void **)out = in;
	*flag = 1;
	return MPI_SUCCESS;
}

SHL_API int shl_mpi_comm_null_delete_fn(MPI_Comm comm, int keyval, void *val,
					void *extra)
{
	return MPI_SUCCESS;
}

/* Rank locked: the keyval for `id`, or NULL if it is not a user keyval not yet freed. */
static struct shl_keyval *keyval(struct shl_rank *r, int id)
{
	int i = id - SHL_KEYVAL_FIRST;
	struct shl_keyval *kv;

	if (i < 0 || i >= r->objs->nkeyvals)
		return NULL;
	kv = r->objs->keyvals[i];
	return kv != NULL && !kv->freed ? kv : NULL;
}

/* Rank locked: drop a reference; the last one frees the keyval. */
static void kv_drop(struct shl_rank *r, struct shl_keyval *kv)
{
	if (--kv->refs > 0)
		return;
	r->objs->keyvals[kv->id - SHL_KEYVAL_FIRST] = NULL;
	free(kv);
}

int PMPI_Comm_create_keyval(MPI_Comm_copy_attr_function *comm_copy_attr_fn,
			    MPI_Comm_delete_attr_function *comm_delete_attr_fn, int *comm_keyval,
			    void *extra_state)
{
	struct shl_rank *r = shl_rank_or_die("MPI_Comm_create_keyval");
	struct shl_rank_objs *o = r->objs;
	struct shl_keyval *kv, **grown;

	if (comm_keyval == NULL)
		return shl_err(NULL, MPI_ERR_ARG, "MPI_Comm_create_keyval", "comm_keyval is NULL");
	kv = malloc(sizeof(*kv));
	if (kv == NULL)
		return shl_err(NULL, MPI_ERR_NO_MEM, "MPI_Comm_create_keyval", "out of memory");
	shl_rank_lock(r);
	grown = realloc(o->keyvals, (size_t)(o->nkeyvals + 1) * sizeof(*grown));
	if (grown == NULL) {
		shl_rank_unlock(r);
		free(kv);
		return shl_err(NULL, MPI_ERR_NO_MEM, "MPI_Comm_create_keyval", "out of memory");
	}
	o->keyvals = grown;
	*kv = (struct shl_keyval){ comm_copy_attr_fn, comm_delete_attr_fn, extra_state,
				   SHL_KEYVAL_FIRST + o->nkeyvals, 1, false };
	o->keyvals[o->nkeyvals++] = kv;
	*comm_keyval = kv->id;
	shl_rank_unlock(r);
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Comm_create_keyval);

int PMPI_Comm_free_keyval(int *comm_keyval)
{
	struct shl_rank *r = shl_rank_or_die("MPI_Comm_free_keyval");
	struct shl_keyval *kv;

	if (comm_keyval == NULL)
		return shl_err(NULL, MPI_ERR_ARG, "MPI_Comm_free_keyval", "comm_keyval is NULL");
	shl_rank_lock(r);
	kv = keyval(r, *comm_keyval);
	/* Attributes still using it keep it alive (MPI 4.1, 7.7.2). */
	if (kv != NULL) {
		kv->freed = true;
		kv_drop(r, kv);
	}
	shl_rank_unlock(r);
	if (kv == NULL)
		return shl_err(NULL, MPI_ERR_KEYVAL, "MPI_Comm_free_keyval",
			       "comm_keyval %d is not a keyval of this rank%s", *comm_keyval,
			       *comm_keyval > 0 && *comm_keyval < SHL_KEYVAL_FIRST
			       ? " (predefined keyvals cannot be freed)" : "");
	*comm_keyval = MPI_KEYVAL_INVALID;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Comm_free_keyval);

/* Rank locked: the link to `kv`'s attribute on `c`, or to the list's end. */
static struct shl_attr **find(struct shl_comm *c, const struct shl_keyval *kv)
{
	struct shl_attr **link = &c->attrs;

	while (*link != NULL && (*link)->kv != kv)
		link = &(*link)->next;
	return link;
}

static int call_delete(struct shl_comm *c, struct shl_keyval *kv, void *val)
{
	if (kv->del == NULL)
		return MPI_SUCCESS;
	return kv->del(shl_comm_handle(c), kv->id, val, kv->extra);
}

/* Look up (comm, keyval) for the attribute calls. */
static int lookup(const char *fn, struct shl_rank *r, MPI_Comm comm, int id,
		  struct shl_comm **c)
{
	*c = shl_comm_get(r, comm);
	if (*c == NULL)
		return shl_err(NULL, MPI_ERR_COMM, fn, "invalid communicator argument comm");
	if (id > 0 && id < SHL_KEYVAL_FIRST)
		return shl_err(*c, MPI_ERR_KEYVAL, fn, "keyval %d is predefined and read-only", id);
	return MPI_SUCCESS;
}

int PMPI_Comm_set_attr(MPI_Comm comm, int comm_keyval, void *attribute_val)
{
	const char *fn = "MPI_Comm_set_attr";
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_comm *c;
	struct shl_keyval *kv;
	struct shl_attr *a, *fresh = malloc(sizeof(*fresh));
	int err = lookup(fn, r, comm, comm_keyval, &c);

	if (err != MPI_SUCCESS || fresh == NULL) {
		free(fresh);
		return err != MPI_SUCCESS ? err : shl_err(c, MPI_ERR_NO_MEM, fn, "out of memory");
	}
	shl_rank_lock(r);
	kv = keyval(r, comm_keyval);
	a = kv ? *find(c, kv) : NULL;
	shl_rank_unlock(r);
	if (kv == NULL) {
		free(fresh);
		return shl_err(c, MPI_ERR_KEYVAL, fn, "comm_keyval %d is not a keyval of this rank",
			       comm_keyval);
	}
	if (a != NULL) {
		/* Replacing a value deletes the old one first (MPI 4.1, 7.7.2). */
		free(fresh);
		err = call_delete(c, kv, a->val);
		if (err != MPI_SUCCESS)
			return shl_err(c, err, fn, "the delete callback of keyval %d failed",
				       comm_keyval);
		a->val = attribute_val;
		return MPI_SUCCESS;
	}
	shl_rank_lock(r);
	/* Newest first: deleting from the head deletes in reverse order of setting. */
	*fresh = (struct shl_attr){ kv, attribute_val, c->attrs };
	c->attrs = fresh;
	kv->refs++;
	shl_rank_unlock(r);
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Comm_set_attr);

/* The predefined attribute `id` of MPI_COMM_WORLD, or NULL if `id` is not one. */
static const int *predefined(struct shl_rank *r, int id)
{
	switch (id) {
	case MPI_TAG_UB: return &tag_ub;
	case MPI_HOST: return &host;
	case MPI_IO: return &io;
	case MPI_WTIME_IS_GLOBAL: return &wtime_is_global;
	case MPI_UNIVERSE_SIZE: return &r->objs->universe_size;
	case MPI_APPNUM: return &appnum;
	case MPI_LASTUSEDCODE: return &r->objs->last_used_code;
	default: return NULL;
	}
}

int PMPI_Comm_get_attr(MPI_Comm comm, int comm_keyval, void *attribute_val, int *flag)
{
	const char *fn = "MPI_Comm_get_attr";
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_comm *c = shl_comm_get(r, comm);
	struct shl_keyval *kv;
	struct shl_attr *a;

	if (c == NULL)
		return shl_err(NULL, MPI_ERR_COMM, fn, "invalid communicator argument comm");
	if (attribute_val == NULL || flag == NULL)
		return shl_err(c, MPI_ERR_ARG, fn, "attribute_val or flag is NULL");
	if (comm_keyval > 0 && comm_keyval < SHL_KEYVAL_FIRST) {
		/* Predefined attributes hang on MPI_COMM_WORLD only. */
		const int *v = c->predef == SHL_COMM_IS_WORLD ? predefined(r, comm_keyval) : NULL;
		*flag = v != NULL;
		if (v != NULL)
			*(const int **)attribute_val = v;
		return MPI_SUCCESS;
	}
	shl_rank_lock(r);
	kv = keyval(r, comm_keyval);
	a = kv ? *find(c, kv) : NULL;
	*flag = a != NULL;
	if (a != NULL)
		*(void **)attribute_val = a->val;
	shl_rank_unlock(r);
	if (kv == NULL)
		return shl_err(c, MPI_ERR_KEYVAL, fn, "comm_keyval %d is not a keyval of this rank",
			       comm_keyval);
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Comm_get_attr);

int PMPI_Comm_delete_attr(MPI_Comm comm, int comm_keyval)
{
	const char *fn = "MPI_Comm_delete_attr";
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_comm *c;
	struct shl_keyval *kv;
	struct shl_attr *a, **link;
	int err = lookup(fn, r, comm, comm_keyval, &c);

	if (err != MPI_SUCCESS)
		return err;
	shl_rank_lock(r);
	kv = keyval(r, comm_keyval);
	a = kv ? *find(c, kv) : NULL;
	shl_rank_unlock(r);
	if (a == NULL)
		return shl_err(c, MPI_ERR_KEYVAL, fn, "comm_keyval %d %s", comm_keyval,
			       kv ? "has no attribute on comm" : "is not a keyval of this rank");
	err = call_delete(c, kv, a->val);
	if (err != MPI_SUCCESS)
		return shl_err(c, err, fn, "the delete callback of keyval %d failed", comm_keyval);
	shl_rank_lock(r);
	link = find(c, kv);
	if (*link == a) {
		*link = a->next;
		kv_drop(r, kv);
		free(a);
	}
	shl_rank_unlock(r);
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Comm_delete_attr);

int shl_attr_copy(struct shl_rank *r, struct shl_comm *from, struct shl_comm *to)
{
	struct shl_attr **tail = &to->attrs;

	/* The list may be walked unlocked: only this rank's thread running the collective
	 * creation on `from` may change it (MPI forbids concurrent calls on one comm). */
	for (struct shl_attr *a = from->attrs; a != NULL; a = a->next) {
		struct shl_keyval *kv = a->kv;
		void *out = NULL;
		int flag = 0, err;
		if (kv->copy == NULL)
			continue;
		err = kv->copy(shl_comm_handle(from), kv->id, kv->extra, a->val, &out, &flag);
		if (err != MPI_SUCCESS)
			return err;
		if (!flag)
			continue;
		struct shl_attr *copy = malloc(sizeof(*copy));
		if (copy == NULL)
			return MPI_ERR_NO_MEM;
		*copy = (struct shl_attr){ kv, out, NULL };
		shl_rank_lock(r);
		kv->refs++;
		*tail = copy;
		tail = &copy->next;
		shl_rank_unlock(r);
	}
	return MPI_SUCCESS;
}

int shl_attr_delete_all(struct shl_rank *r, struct shl_comm *c)
{
	while (c->attrs != NULL) {
		struct shl_attr *a = c->attrs;
		int err = call_delete(c, a->kv, a->val);
		if (err != MPI_SUCCESS)
			return err;
		shl_rank_lock(r);
		c->attrs = a->next;
		kv_drop(r, a->kv);
		shl_rank_unlock(r);
		free(a);
	}
	return MPI_SUCCESS;
}
