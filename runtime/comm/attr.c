/* Attributes on communicators, datatypes and windows: keyvals with copy/delete callbacks,
 * the predefined callbacks, the predefined attributes of MPI_COMM_WORLD, the MPI_Comm_* /
 * MPI_Type_* attribute and keyval functions and MPI-1's names for the communicator ones
 * (MPI_Attr_*, MPI_Keyval_*), the MPI_Win_* keyval functions, and the attribute list
 * operations that rma/object.c's window attribute calls run on a window's list (comm/
 * cannot see a window). Entered by rank threads; keyvals are the rank's own (struct shl_rank_objs).
 * Lists change under the rank lock; user callbacks run with it released (they may call
 * MPI). Must not write to a predefined datatype: its attributes live in the rank's table. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/core/rt.h"

/* User keyvals follow the predefined ones (MPI_TAG_UB .. MPI_LASTUSEDCODE). */
#define SHL_KEYVAL_FIRST 16

struct shl_keyval {
	union {                       /* by `kind` */
		MPI_Comm_copy_attr_function *comm;
		MPI_Type_copy_attr_function *type;
		MPI_Win_copy_attr_function *win;
	} copy;
	union {
		MPI_Comm_delete_attr_function *comm;
		MPI_Type_delete_attr_function *type;
		MPI_Win_delete_attr_function *win;
	} del;
	void *extra;
	int id;
	int refs;                     /* the handle (until freed) plus each attribute using it */
	enum shl_keyval_kind kind;
	bool freed;                   /* MPI_*_free_keyval'ed: no new attributes */
};

static const char *const kind_name[] = { "communicator", "datatype", "window" };

/* Values of the predefined attributes that are the same on every rank (MPI 4.1, 11.2.6). */
static const int tag_ub = MPI_TAG_UB_VALUE;
static const int host = MPI_PROC_NULL;          /* no process is a distinguished host */
static const int io = MPI_ANY_SOURCE;           /* every rank may do I/O */
/* MPI_WTIME_IS_GLOBAL: MPI_Wtime counts from each node process's start, so only the
 * ranks of one node share a clock. */
static const int wtime_is_global[2] = { 1, 0 };  /* by "ranks on other nodes" */
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

SHL_API int shl_mpi_type_null_copy_fn(MPI_Datatype oldtype, int keyval, void *extra, void *in,
				      void *out, int *flag)
{
	*flag = 0;
	return MPI_SUCCESS;
}

SHL_API int shl_mpi_type_dup_fn(MPI_Datatype oldtype, int keyval, void *extra, void *in,
				void *out, int *flag)
{
	*(void **)out = in;
	*flag = 1;
	return MPI_SUCCESS;
}

SHL_API int shl_mpi_type_null_delete_fn(MPI_Datatype type, int keyval, void *val, void *extra)
{
	return MPI_SUCCESS;
}

SHL_API int shl_mpi_win_null_copy_fn(MPI_Win oldwin, int keyval, void *extra, void *in,
				     void *out, int *flag)
{
	*flag = 0;
	return MPI_SUCCESS;
}

SHL_API int shl_mpi_win_dup_fn(MPI_Win oldwin, int keyval, void *extra, void *in, void *out,
			       int *flag)
{
	*(void **)out = in;
	*flag = 1;
	return MPI_SUCCESS;
}

SHL_API int shl_mpi_win_null_delete_fn(MPI_Win win, int keyval, void *val, void *extra)
{
	return MPI_SUCCESS;
}

/* The predefined callbacks under the names mpi.h declares (functions, so that a program
 * may call them or take their address): MPI_COMM_*, MPI_TYPE_*, MPI_WIN_* and MPI-1's
 * MPI_NULL_COPY_FN, MPI_DUP_FN, MPI_NULL_DELETE_FN (the communicator ones). */
#define SHL_CALLBACK(name, impl) \
	extern __typeof__(impl) name __attribute__((alias(#impl), visibility("default")))
SHL_CALLBACK(MPI_COMM_NULL_COPY_FN, shl_mpi_comm_null_copy_fn);
SHL_CALLBACK(MPI_COMM_DUP_FN, shl_mpi_comm_dup_fn);
SHL_CALLBACK(MPI_COMM_NULL_DELETE_FN, shl_mpi_comm_null_delete_fn);
SHL_CALLBACK(MPI_TYPE_NULL_COPY_FN, shl_mpi_type_null_copy_fn);
SHL_CALLBACK(MPI_TYPE_DUP_FN, shl_mpi_type_dup_fn);
SHL_CALLBACK(MPI_TYPE_NULL_DELETE_FN, shl_mpi_type_null_delete_fn);
SHL_CALLBACK(MPI_WIN_NULL_COPY_FN, shl_mpi_win_null_copy_fn);
SHL_CALLBACK(MPI_WIN_DUP_FN, shl_mpi_win_dup_fn);
SHL_CALLBACK(MPI_WIN_NULL_DELETE_FN, shl_mpi_win_null_delete_fn);
SHL_CALLBACK(MPI_NULL_COPY_FN, shl_mpi_comm_null_copy_fn);
SHL_CALLBACK(MPI_DUP_FN, shl_mpi_comm_dup_fn);
SHL_CALLBACK(MPI_NULL_DELETE_FN, shl_mpi_comm_null_delete_fn);

/* Rank locked: the keyval for `id`, or NULL if it is not a user keyval of `kind` not yet
 * freed. */
static struct shl_keyval *keyval(struct shl_rank *r, int id, enum shl_keyval_kind kind)
{
	int i = id - SHL_KEYVAL_FIRST;
	struct shl_keyval *kv;

	if (i < 0 || i >= r->objs->nkeyvals)
		return NULL;
	kv = r->objs->keyvals[i];
	return kv != NULL && !kv->freed && kv->kind == kind ? kv : NULL;
}

/* Rank locked: drop a reference; the last one frees the keyval. */
static void kv_drop(struct shl_rank *r, struct shl_keyval *kv)
{
	if (--kv->refs > 0)
		return;
	r->objs->keyvals[kv->id - SHL_KEYVAL_FIRST] = NULL;
	free(kv);
}

/* MPI_Comm_create_keyval and MPI_Type_create_keyval: `kv` holds the callbacks. */
static int create_keyval(const char *fn, struct shl_keyval proto, int *id)
{
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_rank_objs *o = r->objs;
	struct shl_keyval *kv, **grown;

	if (id == NULL)
		return shl_err(NULL, MPI_ERR_ARG, fn, "the keyval output argument is NULL");
	kv = malloc(sizeof(*kv));
	if (kv == NULL)
		return shl_err(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
	shl_rank_lock(r);
	grown = realloc(o->keyvals, (size_t)(o->nkeyvals + 1) * sizeof(*grown));
	if (grown == NULL) {
		shl_rank_unlock(r);
		free(kv);
		return shl_err(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
	}
	o->keyvals = grown;
	*kv = proto;
	kv->id = SHL_KEYVAL_FIRST + o->nkeyvals;
	kv->refs = 1;
	kv->freed = false;
	o->keyvals[o->nkeyvals++] = kv;
	*id = kv->id;
	shl_rank_unlock(r);
	return MPI_SUCCESS;
}

int PMPI_Comm_create_keyval(MPI_Comm_copy_attr_function *comm_copy_attr_fn,
			    MPI_Comm_delete_attr_function *comm_delete_attr_fn, int *comm_keyval,
			    void *extra_state)
{
	struct shl_keyval kv = { .copy.comm = comm_copy_attr_fn, .del.comm = comm_delete_attr_fn,
				 .extra = extra_state, .kind = SHL_KEYVAL_COMM };

	return create_keyval("MPI_Comm_create_keyval", kv, comm_keyval);
}
SHL_WEAK_ALIAS(Comm_create_keyval);

/* MPI-1's name (MPI 4.1, 16.1): in C the callbacks' types are the MPI_Comm_* ones. */
int PMPI_Keyval_create(MPI_Copy_function *copy_fn, MPI_Delete_function *delete_fn,
		       int *keyval, void *extra_state)
{
	struct shl_keyval kv = { .copy.comm = copy_fn, .del.comm = delete_fn,
				 .extra = extra_state, .kind = SHL_KEYVAL_COMM };

	return create_keyval("MPI_Keyval_create", kv, keyval);
}
SHL_WEAK_ALIAS(Keyval_create);

int PMPI_Type_create_keyval(MPI_Type_copy_attr_function *type_copy_attr_fn,
			    MPI_Type_delete_attr_function *type_delete_attr_fn, int *type_keyval,
			    void *extra_state)
{
	struct shl_keyval kv = { .copy.type = type_copy_attr_fn, .del.type = type_delete_attr_fn,
				 .extra = extra_state, .kind = SHL_KEYVAL_TYPE };

	return create_keyval("MPI_Type_create_keyval", kv, type_keyval);
}
SHL_WEAK_ALIAS(Type_create_keyval);

int PMPI_Win_create_keyval(MPI_Win_copy_attr_function *win_copy_attr_fn,
			   MPI_Win_delete_attr_function *win_delete_attr_fn, int *win_keyval,
			   void *extra_state)
{
	/* No call duplicates a window: the copy callback is kept but never runs. */
	struct shl_keyval kv = { .copy.win = win_copy_attr_fn, .del.win = win_delete_attr_fn,
				 .extra = extra_state, .kind = SHL_KEYVAL_WIN };

	return create_keyval("MPI_Win_create_keyval", kv, win_keyval);
}
SHL_WEAK_ALIAS(Win_create_keyval);

static int free_keyval(const char *fn, enum shl_keyval_kind kind, int *id)
{
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_keyval *kv;

	if (id == NULL)
		return shl_err(NULL, MPI_ERR_ARG, fn, "the keyval argument is NULL");
	shl_rank_lock(r);
	kv = keyval(r, *id, kind);
	/* Attributes still using it keep it alive (MPI 4.1, 7.7.2). */
	if (kv != NULL) {
		kv->freed = true;
		kv_drop(r, kv);
	}
	shl_rank_unlock(r);
	if (kv == NULL)
		return shl_err(NULL, MPI_ERR_KEYVAL, fn, "keyval %d is not a %s keyval of this rank%s",
			       *id, kind_name[kind], *id > 0 && *id < SHL_KEYVAL_FIRST
			       ? " (predefined keyvals cannot be freed)" : "");
	*id = MPI_KEYVAL_INVALID;
	return MPI_SUCCESS;
}

int PMPI_Comm_free_keyval(int *comm_keyval)
{
	return free_keyval("MPI_Comm_free_keyval", SHL_KEYVAL_COMM, comm_keyval);
}
SHL_WEAK_ALIAS(Comm_free_keyval);

int PMPI_Keyval_free(int *keyval)
{
	return free_keyval("MPI_Keyval_free", SHL_KEYVAL_COMM, keyval);
}
SHL_WEAK_ALIAS(Keyval_free);

int PMPI_Type_free_keyval(int *type_keyval)
{
	return free_keyval("MPI_Type_free_keyval", SHL_KEYVAL_TYPE, type_keyval);
}
SHL_WEAK_ALIAS(Type_free_keyval);

int PMPI_Win_free_keyval(int *win_keyval)
{
	return free_keyval("MPI_Win_free_keyval", SHL_KEYVAL_WIN, win_keyval);
}
SHL_WEAK_ALIAS(Win_free_keyval);

/* Rank locked: the link to `kv`'s attribute in the list at `head`, or to the list's end. */
static struct shl_attr **find(struct shl_attr **head, const struct shl_keyval *kv)
{
	struct shl_attr **link = head;

	while (*link != NULL && (*link)->kv != kv)
		link = &(*link)->next;
	return link;
}

/* Run the delete callback of `kv` for value `val` on `obj` (an MPI_Comm, MPI_Datatype or
 * MPI_Win handle, as `kv->kind` says). Rank unlocked. */
static int call_delete(struct shl_keyval *kv, void *obj, void *val)
{
	if (kv->kind == SHL_KEYVAL_TYPE)
		return kv->del.type ? kv->del.type(obj, kv->id, val, kv->extra) : MPI_SUCCESS;
	if (kv->kind == SHL_KEYVAL_WIN)
		return kv->del.win ? kv->del.win(obj, kv->id, val, kv->extra) : MPI_SUCCESS;
	return kv->del.comm ? kv->del.comm(obj, kv->id, val, kv->extra) : MPI_SUCCESS;
}

int shl_attr_set(struct shl_rank *r, enum shl_keyval_kind kind, struct shl_attr **head,
		 void *obj, int id, void *val)
{
	struct shl_keyval *kv;
	struct shl_attr *a, *fresh = malloc(sizeof(*fresh));
	int err;

	if (fresh == NULL)
		return -ENOMEM;
	shl_rank_lock(r);
	kv = keyval(r, id, kind);
	a = kv ? *find(head, kv) : NULL;
	shl_rank_unlock(r);
	if (kv == NULL || a != NULL)
		free(fresh);
	if (kv == NULL)
		return -EINVAL;
	if (a != NULL) {
		/* Replacing a value deletes the old one first (MPI 4.1, 7.7.2). */
		err = call_delete(kv, obj, a->val);
		if (err == MPI_SUCCESS)
			a->val = val;
		return err;
	}
	shl_rank_lock(r);
	/* Newest first: deleting from the head deletes in reverse order of setting. */
	*fresh = (struct shl_attr){ kv, val, *head };
	*head = fresh;
	kv->refs++;
	shl_rank_unlock(r);
	return MPI_SUCCESS;
}

int shl_attr_get(struct shl_rank *r, enum shl_keyval_kind kind, struct shl_attr **head, int id,
		 void **val, int *flag)
{
	struct shl_keyval *kv;
	struct shl_attr *a;

	shl_rank_lock(r);
	kv = keyval(r, id, kind);
	a = kv ? *find(head, kv) : NULL;
	*flag = a != NULL;
	if (a != NULL)
		*val = a->val;
	shl_rank_unlock(r);
	return kv != NULL ? MPI_SUCCESS : -EINVAL;
}

int shl_attr_delete(struct shl_rank *r, enum shl_keyval_kind kind, struct shl_attr **head,
		    void *obj, int id)
{
	struct shl_keyval *kv;
	struct shl_attr *a, **link;
	int err;

	shl_rank_lock(r);
	kv = keyval(r, id, kind);
	a = kv ? *find(head, kv) : NULL;
	shl_rank_unlock(r);
	if (a == NULL)
		return kv ? -ENOENT : -EINVAL;
	err = call_delete(kv, obj, a->val);
	if (err != MPI_SUCCESS)
		return err;
	shl_rank_lock(r);
	/* The list was unlocked during the callback: find the attribute again. */
	link = find(head, kv);
	if (*link == a) {
		*link = a->next;
		kv_drop(r, kv);
		free(a);
	}
	shl_rank_unlock(r);
	return MPI_SUCCESS;
}

int shl_attr_delete_list(struct shl_rank *r, struct shl_attr **head, void *obj)
{
	while (*head != NULL) {
		struct shl_attr *a = *head;
		int err = call_delete(a->kv, obj, a->val);
		if (err != MPI_SUCCESS)
			return err;
		shl_rank_lock(r);
		*head = a->next;
		kv_drop(r, a->kv);
		shl_rank_unlock(r);
		free(a);
	}
	return MPI_SUCCESS;
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

/* MPI_Comm_set_attr and MPI-1's MPI_Attr_put (`fn`). */
static int set_attr(const char *fn, MPI_Comm comm, int comm_keyval, void *attribute_val)
{
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_comm *c;
	int err = lookup(fn, r, comm, comm_keyval, &c);

	if (err != MPI_SUCCESS)
		return err;
	err = shl_attr_set(r, SHL_KEYVAL_COMM, &c->attrs, shl_comm_handle(c), comm_keyval,
			   attribute_val);
	if (err == -EINVAL)
		return shl_err(c, MPI_ERR_KEYVAL, fn, "comm_keyval %d is not a communicator keyval of this rank",
			       comm_keyval);
	if (err == -ENOMEM)
		return shl_err(c, MPI_ERR_NO_MEM, fn, "out of memory");
	if (err != MPI_SUCCESS)
		return shl_err(c, err, fn, "the delete callback of keyval %d failed", comm_keyval);
	return MPI_SUCCESS;
}

int PMPI_Comm_set_attr(MPI_Comm comm, int comm_keyval, void *attribute_val)
{
	return set_attr("MPI_Comm_set_attr", comm, comm_keyval, attribute_val);
}
SHL_WEAK_ALIAS(Comm_set_attr);

int PMPI_Attr_put(MPI_Comm comm, int keyval, void *attribute_val)
{
	return set_attr("MPI_Attr_put", comm, keyval, attribute_val);
}
SHL_WEAK_ALIAS(Attr_put);

/* The predefined attribute `id`, or NULL if `id` is not one. */
static const int *predefined(struct shl_rank *r, int id)
{
	switch (id) {
	case MPI_TAG_UB: return &tag_ub;
	case MPI_HOST: return &host;
	case MPI_IO: return &io;
	case MPI_WTIME_IS_GLOBAL: return &wtime_is_global[r->world.sh->offnode];
	case MPI_UNIVERSE_SIZE: return &r->objs->universe_size;
	case MPI_APPNUM: return &appnum;
	case MPI_LASTUSEDCODE: return &r->objs->last_used_code;
	default: return NULL;
	}
}

/* MPI_Comm_get_attr and MPI-1's MPI_Attr_get (`fn`). */
static int get_attr(const char *fn, MPI_Comm comm, int comm_keyval, void *attribute_val,
		    int *flag)
{
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_comm *c = shl_comm_get(r, comm);

	if (c == NULL)
		return shl_err(NULL, MPI_ERR_COMM, fn, "invalid communicator argument comm");
	if (attribute_val == NULL || flag == NULL)
		return shl_err(c, MPI_ERR_ARG, fn, "attribute_val or flag is NULL");
	if (comm_keyval > 0 && comm_keyval < SHL_KEYVAL_FIRST) {
		/* MPI 4.1 (11.2.6) attaches them to MPI_COMM_WORLD; every communicator answers,
		 * as with MPICH, so that a library asking its own for MPI_TAG_UB learns it. */
		const int *v = predefined(r, comm_keyval);
		if (v == NULL)
			return shl_err(c, MPI_ERR_KEYVAL, fn, "comm_keyval %d is not a keyval",
				       comm_keyval);
		*flag = 1;
		*(const int **)attribute_val = v;
		return MPI_SUCCESS;
	}
	if (shl_attr_get(r, SHL_KEYVAL_COMM, &c->attrs, comm_keyval, attribute_val, flag) < 0)
		return shl_err(c, MPI_ERR_KEYVAL, fn, "comm_keyval %d is not a communicator keyval of this rank",
			       comm_keyval);
	return MPI_SUCCESS;
}

int PMPI_Comm_get_attr(MPI_Comm comm, int comm_keyval, void *attribute_val, int *flag)
{
	return get_attr("MPI_Comm_get_attr", comm, comm_keyval, attribute_val, flag);
}
SHL_WEAK_ALIAS(Comm_get_attr);

int PMPI_Attr_get(MPI_Comm comm, int keyval, void *attribute_val, int *flag)
{
	return get_attr("MPI_Attr_get", comm, keyval, attribute_val, flag);
}
SHL_WEAK_ALIAS(Attr_get);

/* MPI_Comm_delete_attr and MPI-1's MPI_Attr_delete (`fn`). */
static int delete_attr(const char *fn, MPI_Comm comm, int comm_keyval)
{
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_comm *c;
	int err = lookup(fn, r, comm, comm_keyval, &c);

	if (err != MPI_SUCCESS)
		return err;
	err = shl_attr_delete(r, SHL_KEYVAL_COMM, &c->attrs, shl_comm_handle(c), comm_keyval);
	if (err < 0)
		return shl_err(c, MPI_ERR_KEYVAL, fn, "comm_keyval %d %s", comm_keyval,
			       err == -ENOENT ? "has no attribute on comm"
					      : "is not a communicator keyval of this rank");
	if (err != MPI_SUCCESS)
		return shl_err(c, err, fn, "the delete callback of keyval %d failed", comm_keyval);
	return MPI_SUCCESS;
}

int PMPI_Comm_delete_attr(MPI_Comm comm, int comm_keyval)
{
	return delete_attr("MPI_Comm_delete_attr", comm, comm_keyval);
}
SHL_WEAK_ALIAS(Comm_delete_attr);

int PMPI_Attr_delete(MPI_Comm comm, int keyval)
{
	return delete_attr("MPI_Attr_delete", comm, keyval);
}
SHL_WEAK_ALIAS(Attr_delete);

/* Append to *tail a copy of every attribute of list `a` whose copy callback asks for one;
 * `from` is the handle the callbacks get (an MPI_Comm or an MPI_Datatype, by the keyval's
 * kind). Runs the callbacks unlocked; locks only to link each copy. */
static int copy_list(struct shl_rank *r, struct shl_attr *a, struct shl_attr **tail,
		     void *from)
{
	for (; a != NULL; a = a->next) {
		struct shl_keyval *kv = a->kv;
		void *out = NULL;
		int flag = 0, err;

		if (kv->kind == SHL_KEYVAL_COMM ? kv->copy.comm == NULL : kv->copy.type == NULL)
			continue;
		err = kv->kind == SHL_KEYVAL_COMM
			      ? kv->copy.comm(from, kv->id, kv->extra, a->val, &out, &flag)
			      : kv->copy.type(from, kv->id, kv->extra, a->val, &out, &flag);
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

int shl_attr_copy(struct shl_rank *r, struct shl_comm *from, struct shl_comm *to)
{
	struct shl_attr **tail = &to->attrs;

	/* The list may be walked unlocked: only this rank's thread running the collective
	 * creation on `from` may change it (MPI forbids concurrent calls on one comm). */
	return copy_list(r, from->attrs, tail, shl_comm_handle(from));
}

int shl_attr_delete_all(struct shl_rank *r, struct shl_comm *c)
{
	return shl_attr_delete_list(r, &c->attrs, shl_comm_handle(c));
}

/* ---- datatype attributes (MPI 4.1, 7.7.4) ---- */

/* Rank locked: the head of `t`'s attribute list. A predefined type is shared by every rank,
 * so its list lives in this rank's table, entered on first use when `grow` is set. NULL if
 * a predefined type has no entry (and `grow` is false) or the table cannot grow. */
static struct shl_attr **type_head(struct shl_rank *r, MPI_Datatype t, bool grow)
{
	struct shl_rank_objs *o = r->objs;
	struct shl_type_attrs *grown;

	if (!t->predefined)
		return &t->attrs;
	for (int i = 0; i < o->ntype_attrs; i++)
		if (o->type_attrs[i].type == t)
			return &o->type_attrs[i].attrs;
	if (!grow)
		return NULL;
	grown = realloc(o->type_attrs, (size_t)(o->ntype_attrs + 1) * sizeof(*grown));
	if (grown == NULL)
		return NULL;
	o->type_attrs = grown;
	grown[o->ntype_attrs] = (struct shl_type_attrs){ t, NULL };
	return &grown[o->ntype_attrs++].attrs;
}

/* Rank locked: `kv`'s attribute on `t`, or NULL. */
static struct shl_attr *type_find(struct shl_rank *r, MPI_Datatype t, const struct shl_keyval *kv)
{
	struct shl_attr **head = type_head(r, t, false);

	return head != NULL ? *find(head, kv) : NULL;
}

/* A datatype argument of the attribute calls: valid, with a live handle. */
static int check_type(const char *fn, MPI_Datatype t)
{
	if (!shl_type_ok(t))
		return shl_err(NULL, MPI_ERR_TYPE, fn, "invalid datatype argument%s",
			       t == MPI_DATATYPE_NULL ? " (MPI_DATATYPE_NULL)" : "");
	if (!t->predefined && atomic_load_explicit(&t->handles, memory_order_relaxed) == 0)
		return shl_err(NULL, MPI_ERR_TYPE, fn, "datatype was freed with MPI_Type_free");
	return MPI_SUCCESS;
}

int PMPI_Type_set_attr(MPI_Datatype datatype, int type_keyval, void *attribute_val)
{
	const char *fn = "MPI_Type_set_attr";
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_keyval *kv;
	struct shl_attr *a, **head, *fresh = malloc(sizeof(*fresh));
	int err = check_type(fn, datatype);

	if (err != MPI_SUCCESS || fresh == NULL) {
		free(fresh);
		return err != MPI_SUCCESS ? err : shl_err(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
	}
	shl_rank_lock(r);
	kv = keyval(r, type_keyval, SHL_KEYVAL_TYPE);
	a = kv ? type_find(r, datatype, kv) : NULL;
	shl_rank_unlock(r);
	if (kv == NULL) {
		free(fresh);
		return shl_err(NULL, MPI_ERR_KEYVAL, fn,
			       "type_keyval %d is not a datatype keyval of this rank", type_keyval);
	}
	if (a != NULL) {
		/* Replacing a value deletes the old one first (MPI 4.1, 7.7.2). */
		free(fresh);
		err = call_delete(kv, datatype, a->val);
		if (err != MPI_SUCCESS)
			return shl_err(NULL, err, fn, "the delete callback of keyval %d failed",
				       type_keyval);
		a->val = attribute_val;
		return MPI_SUCCESS;
	}
	shl_rank_lock(r);
	head = type_head(r, datatype, true);
	if (head != NULL) {
		/* Newest first, as on communicators. */
		*fresh = (struct shl_attr){ kv, attribute_val, *head };
		*head = fresh;
		kv->refs++;
	}
	shl_rank_unlock(r);
	if (head == NULL) {
		free(fresh);
		return shl_err(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
	}
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Type_set_attr);

int PMPI_Type_get_attr(MPI_Datatype datatype, int type_keyval, void *attribute_val, int *flag)
{
	const char *fn = "MPI_Type_get_attr";
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_keyval *kv;
	struct shl_attr *a;
	int err = check_type(fn, datatype);

	if (err != MPI_SUCCESS)
		return err;
	if (attribute_val == NULL || flag == NULL)
		return shl_err(NULL, MPI_ERR_ARG, fn, "attribute_val or flag is NULL");
	shl_rank_lock(r);
	kv = keyval(r, type_keyval, SHL_KEYVAL_TYPE);
	a = kv ? type_find(r, datatype, kv) : NULL;
	*flag = a != NULL;
	if (a != NULL)
		*(void **)attribute_val = a->val;
	shl_rank_unlock(r);
	if (kv == NULL)
		return shl_err(NULL, MPI_ERR_KEYVAL, fn,
			       "type_keyval %d is not a datatype keyval of this rank", type_keyval);
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Type_get_attr);

int PMPI_Type_delete_attr(MPI_Datatype datatype, int type_keyval)
{
	const char *fn = "MPI_Type_delete_attr";
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_keyval *kv;
	struct shl_attr *a, **link;
	int err = check_type(fn, datatype);

	if (err != MPI_SUCCESS)
		return err;
	shl_rank_lock(r);
	kv = keyval(r, type_keyval, SHL_KEYVAL_TYPE);
	a = kv ? type_find(r, datatype, kv) : NULL;
	shl_rank_unlock(r);
	if (a == NULL)
		return shl_err(NULL, MPI_ERR_KEYVAL, fn, "type_keyval %d %s", type_keyval,
			       kv ? "has no attribute on datatype"
				  : "is not a datatype keyval of this rank");
	err = call_delete(kv, datatype, a->val);
	if (err != MPI_SUCCESS)
		return shl_err(NULL, err, fn, "the delete callback of keyval %d failed",
			       type_keyval);
	shl_rank_lock(r);
	/* The list was unlocked during the callback: find the attribute again. */
	link = type_head(r, datatype, false);
	link = link != NULL ? find(link, kv) : NULL;
	if (link != NULL && *link == a) {
		*link = a->next;
		kv_drop(r, kv);
		free(a);
	}
	shl_rank_unlock(r);
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Type_delete_attr);

int shl_attr_copy_type(MPI_Datatype from, MPI_Datatype to)
{
	struct shl_rank *r = shl_rank_or_die("MPI_Type_dup");
	struct shl_attr **tail = &to->attrs, **head, *a;

	shl_rank_lock(r);
	head = type_head(r, from, false);
	a = head != NULL ? *head : NULL;
	shl_rank_unlock(r);
	/* Walked unlocked, as on communicators: only a call on `from` by this rank may change
	 * its list, and MPI forbids concurrent calls on one object. */
	return copy_list(r, a, tail, from);
}

void shl_attr_finalize_types(struct shl_rank *r)
{
	struct shl_rank_objs *o = r->objs;

	for (int i = 0; i < o->ntype_attrs; i++) {
		MPI_Datatype t = (MPI_Datatype)o->type_attrs[i].type;
		while (o->type_attrs[i].attrs != NULL) {
			struct shl_attr *a = o->type_attrs[i].attrs;
			call_delete(a->kv, t, a->val);
			shl_rank_lock(r);
			o->type_attrs[i].attrs = a->next;
			kv_drop(r, a->kv);
			shl_rank_unlock(r);
			free(a);
		}
	}
	shl_rank_lock(r);
	free(o->type_attrs);
	o->type_attrs = NULL;
	o->ntype_attrs = 0;
	shl_rank_unlock(r);
}

int shl_attr_delete_type(MPI_Datatype t)
{
	return shl_attr_delete_list(shl_rank_or_die("MPI_Type_free"), &t->attrs, t);
}
