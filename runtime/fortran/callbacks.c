/* The hand-written Fortran bindings (libmpifort): the functions that take callbacks written
 * in Fortran or whose values depend on the language that set them (`manual` in
 * bindings.txt), and the Fortran-callable predefined callbacks. One C function serves
 * mpif.h, the `mpi` module and mpi_f08 (which binds to it by BIND(C) name: a TYPE(MPI_Comm)
 * is one INTEGER, so the ABI is the same). Every argument by reference; `ierror` may be
 * NULL (mpi_f08's optional ierror); CHARACTER lengths follow as size_t.
 * Entered by the rank threads that call MPI from Fortran; the trampolines by whichever
 * thread libmpi runs a callback in. Each rank has its own copy of libmpifort, so the
 * records below belong to one rank.
 *
 * C entry points (pmpi_x_ strong, mpi_x_ a weak alias of it; MPI_Fint is INTEGER, MPI_Aint
 * INTEGER(MPI_ADDRESS_KIND), MPI_Offset INTEGER(MPI_OFFSET_KIND), MPI_Count
 * INTEGER(MPI_COUNT_KIND), LOGICAL as MPI_Fint; `fn` arguments are Fortran procedures):
 *   mpi_op_create_(fn, MPI_Fint *commute, MPI_Fint *op, MPI_Fint *ierror)
 *       fn(void *invec, void *inoutvec, MPI_Fint *len, MPI_Fint *datatype)
 *   MPI_Op_create_c_f08ts / PMPI_Op_create_c_f08ts(fn, MPI_Fint *commute, MPI_Fint *op,
 *       MPI_Fint *ierror)   (mpi_f08 only) fn(invec, inoutvec, MPI_Count *len, MPI_Fint *type)
 *   mpi_{comm,win,file,session}_create_errhandler_(fn, MPI_Fint *errhandler, MPI_Fint *ierror)
 *       fn(MPI_Fint *handle, MPI_Fint *errorcode)
 *   mpi_{comm,type,win}_create_keyval_(copy_fn, delete_fn, MPI_Fint *keyval,
 *       MPI_Aint *extra_state, MPI_Fint *ierror)
 *       copy_fn(MPI_Fint *oldobj, MPI_Fint *keyval, MPI_Aint *extra_state,
 *               MPI_Aint *attribute_val_in, MPI_Aint *attribute_val_out, MPI_Fint *flag,
 *               MPI_Fint *ierror)
 *       delete_fn(MPI_Fint *obj, MPI_Fint *keyval, MPI_Aint *attribute_val,
 *                 MPI_Aint *extra_state, MPI_Fint *ierror)
 *   mpi_keyval_create_(copy_fn, delete_fn, MPI_Fint *keyval, MPI_Fint *extra_state,
 *       MPI_Fint *ierror)   (the same callbacks with MPI_Fint values and extra_state)
 *   mpi_{comm,type,win}_set_attr_(MPI_Fint *obj, MPI_Fint *keyval, MPI_Aint *attribute_val,
 *       MPI_Fint *ierror)
 *   mpi_{comm,type,win}_get_attr_(MPI_Fint *obj, MPI_Fint *keyval, MPI_Aint *attribute_val,
 *       MPI_Fint *flag, MPI_Fint *ierror)
 *   mpi_{comm,type,win}_delete_attr_(MPI_Fint *obj, MPI_Fint *keyval, MPI_Fint *ierror)
 *   mpi_attr_put_(MPI_Fint *comm, MPI_Fint *keyval, MPI_Fint *attribute_val, MPI_Fint *ierror)
 *   mpi_attr_get_(MPI_Fint *comm, MPI_Fint *keyval, MPI_Fint *attribute_val, MPI_Fint *flag,
 *       MPI_Fint *ierror)
 *   mpi_attr_delete_(MPI_Fint *comm, MPI_Fint *keyval, MPI_Fint *ierror)
 *   mpi_grequest_start_(query_fn, free_fn, cancel_fn, MPI_Aint *extra_state,
 *       MPI_Fint *request, MPI_Fint *ierror)
 *       query_fn(MPI_Aint *extra_state, MPI_Fint status[MPI_STATUS_SIZE], MPI_Fint *ierror)
 *       free_fn(MPI_Aint *extra_state, MPI_Fint *ierror)
 *       cancel_fn(MPI_Aint *extra_state, MPI_Fint *complete, MPI_Fint *ierror)
 *   mpi_register_datarep_(char *datarep, read_fn, write_fn, extent_fn,
 *       MPI_Aint *extra_state, MPI_Fint *ierror, size_t datarep_len)
 *       read_fn/write_fn(void *userbuf, MPI_Fint *datatype, MPI_Fint *count, void *filebuf,
 *                        MPI_Offset *position, MPI_Aint *extra_state, MPI_Fint *ierror)
 *       extent_fn(MPI_Fint *datatype, MPI_Aint *extent, MPI_Aint *extra_state,
 *                 MPI_Fint *ierror)
 *   MPI_Register_datarep_c_f08ts / PMPI_...(char *datarep, read_fn, write_fn, extent_fn,
 *       MPI_Aint *extra_state, MPI_Fint *ierror, size_t datarep_len)   (mpi_f08 only;
 *       read_fn/write_fn take MPI_Count *count)
 *   mpi_type_match_size_(MPI_Fint *typeclass, MPI_Fint *size, MPI_Fint *datatype,
 *       MPI_Fint *ierror)   (answers the Fortran sized types, MPI_INTEGER4 ...)
 * Predefined callbacks, external procedures with the signatures above:
 *   mpi_comm_null_copy_fn_, mpi_comm_dup_fn_, mpi_comm_null_delete_fn_, mpi_type_..._,
 *   mpi_win_..._, mpi_null_copy_fn_, mpi_dup_fn_, mpi_null_delete_fn_ (MPI_Fint values),
 *   mpi_conversion_fn_null_, mpi_conversion_fn_null_c_ (the MPI_Count one).
 * The create functions recognise them and give libmpi the C ones.
 *
 * Attribute values (MPI 4.1 19.3.7). libmpi stores a pointer-sized value; a value set
 * from Fortran is that integer, so C reads it as a pointer whose value is the integer, and
 * Fortran reads a value C set as the address. MPI_Attr_put/get hold INTEGERs: sign-extended
 * in, truncated out. The predefined attributes are C pointers to their values; Fortran gets
 * the values (MPI_TAG_UB, MPI_WIN_SIZE ...) and, for MPI_WIN_BASE, the address itself. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mpi.h"
#include "runtime/fortran/callbacks.h"
#include "runtime/fortran/fortran.h"

#define F_WEAK(name) extern __typeof(p##name) name __attribute__((weak, alias("p" #name)))

static inline void set_ierr(MPI_Fint *ierror, int rc)
{
	if (ierror != NULL)
		*ierror = rc;
}

/* ---- the predefined callbacks ---- */

#define F_NULL_COPY(name, T)                                                              \
	SHL_F_API void name(MPI_Fint *oldobj, MPI_Fint *keyval, T *extra_state, T *in, T *out, \
			    MPI_Fint *flag, MPI_Fint *ierror)                               \
	{                                                                               \
		*flag = 0;                                                              \
		set_ierr(ierror, MPI_SUCCESS);                                          \
	}
#define F_DUP(name, T)                                                                    \
	SHL_F_API void name(MPI_Fint *oldobj, MPI_Fint *keyval, T *extra_state, T *in, T *out, \
			    MPI_Fint *flag, MPI_Fint *ierror)                               \
	{                                                                               \
		*out = *in;                                                             \
		*flag = 1;                                                              \
		set_ierr(ierror, MPI_SUCCESS);                                          \
	}
#define F_NULL_DELETE(name, T)                                                            \
	SHL_F_API void name(MPI_Fint *obj, MPI_Fint *keyval, T *val, T *extra_state,        \
			    MPI_Fint *ierror)                                               \
	{                                                                               \
		set_ierr(ierror, MPI_SUCCESS);                                          \
	}

F_NULL_COPY(mpi_comm_null_copy_fn_, MPI_Aint)
F_DUP(mpi_comm_dup_fn_, MPI_Aint)
F_NULL_DELETE(mpi_comm_null_delete_fn_, MPI_Aint)
F_NULL_COPY(mpi_type_null_copy_fn_, MPI_Aint)
F_DUP(mpi_type_dup_fn_, MPI_Aint)
F_NULL_DELETE(mpi_type_null_delete_fn_, MPI_Aint)
F_NULL_COPY(mpi_win_null_copy_fn_, MPI_Aint)
F_DUP(mpi_win_dup_fn_, MPI_Aint)
F_NULL_DELETE(mpi_win_null_delete_fn_, MPI_Aint)
F_NULL_COPY(mpi_null_copy_fn_, MPI_Fint)
F_DUP(mpi_dup_fn_, MPI_Fint)
F_NULL_DELETE(mpi_null_delete_fn_, MPI_Fint)

SHL_F_API void mpi_conversion_fn_null_(void *userbuf, MPI_Fint *datatype, MPI_Fint *count,
				       void *filebuf, MPI_Offset *position,
				       MPI_Aint *extra_state, MPI_Fint *ierror)
{
	set_ierr(ierror, MPI_SUCCESS);
}

SHL_F_API void mpi_conversion_fn_null_c_(void *userbuf, MPI_Fint *datatype, MPI_Count *count,
					 void *filebuf, MPI_Offset *position,
					 MPI_Aint *extra_state, MPI_Fint *ierror)
{
	set_ierr(ierror, MPI_SUCCESS);
}

/* ---- MPI_Op_create ---- */

SHL_F_API void pmpi_op_create_(shl_f_user_function *fn, MPI_Fint *commute, MPI_Fint *op,
			       MPI_Fint *ierror)
{
	MPI_Op c = MPI_OP_NULL;
	int rc = shl_f_op_create(fn, *commute != 0, &c);

	if (rc == MPI_SUCCESS)
		*op = PMPI_Op_c2f(c);
	set_ierr(ierror, rc);
}
F_WEAK(mpi_op_create_);

SHL_F_API void PMPI_Op_create_c_f08ts(shl_f_user_function_c *fn, MPI_Fint *commute,
				      MPI_Fint *op, MPI_Fint *ierror)
{
	MPI_Op c = MPI_OP_NULL;
	int rc = shl_f_op_create_c(fn, *commute != 0, &c);

	if (rc == MPI_SUCCESS)
		*op = PMPI_Op_c2f(c);
	set_ierr(ierror, rc);
}
extern __typeof(PMPI_Op_create_c_f08ts) MPI_Op_create_c_f08ts
	__attribute__((weak, alias("PMPI_Op_create_c_f08ts")));

/* ---- error handlers ---- */

static void errh_create(int obj, shl_f_errhandler_function *fn, MPI_Fint *errhandler,
			MPI_Fint *ierror)
{
	MPI_Errhandler c = MPI_ERRHANDLER_NULL;
	int rc = shl_f_errhandler_create(obj, fn, &c);

	if (rc == MPI_SUCCESS)
		*errhandler = PMPI_Errhandler_c2f(c);
	set_ierr(ierror, rc);
}

#define F_ERRH(lower, OBJ)                                                                \
	SHL_F_API void pmpi_##lower##_create_errhandler_(shl_f_errhandler_function *fn,    \
							 MPI_Fint *errhandler,             \
							 MPI_Fint *ierror)                 \
	{                                                                               \
		errh_create(OBJ, fn, errhandler, ierror);                               \
	}                                                                               \
	F_WEAK(mpi_##lower##_create_errhandler_);

F_ERRH(comm, SHL_F_ERRH_COMM)
F_ERRH(win, SHL_F_ERRH_WIN)
F_ERRH(file, SHL_F_ERRH_FILE)
F_ERRH(session, SHL_F_ERRH_SESSION)

/* ---- keyvals: Fortran copy and delete functions behind C trampolines ---- */

enum f_obj { F_COMM, F_TYPE, F_WIN };
enum f_copy_kind { F_COPY_USER, F_COPY_NULL, F_COPY_DUP };

/* A keyval's Fortran side, C's extra_state. Lives as long as this rank's libmpifort: an
 * attribute may outlive its keyval's MPI_*_free_keyval. */
struct f_keyval {
	bool mpi1;                  /* MPI_Keyval_create: INTEGER values and extra_state */
	enum f_copy_kind copy_kind;
	bool delete_null;
	void (*copy)(void);         /* shl_f_copy_fn or shl_f_copy1_fn */
	void (*del)(void);          /* shl_f_delete_fn or shl_f_delete1_fn */
	MPI_Aint extra;             /* the user's extra_state (mpi1: in `extra1`) */
	MPI_Fint extra1;
};

static enum f_copy_kind copy_kind(void (*fn)(void))
{
	if (fn == (void (*)(void))mpi_comm_null_copy_fn_ ||
	    fn == (void (*)(void))mpi_type_null_copy_fn_ ||
	    fn == (void (*)(void))mpi_win_null_copy_fn_ || fn == (void (*)(void))mpi_null_copy_fn_)
		return F_COPY_NULL;
	if (fn == (void (*)(void))mpi_comm_dup_fn_ || fn == (void (*)(void))mpi_type_dup_fn_ ||
	    fn == (void (*)(void))mpi_win_dup_fn_ || fn == (void (*)(void))mpi_dup_fn_)
		return F_COPY_DUP;
	return F_COPY_USER;
}

static bool delete_null(void (*fn)(void))
{
	return fn == (void (*)(void))mpi_comm_null_delete_fn_ ||
	       fn == (void (*)(void))mpi_type_null_delete_fn_ ||
	       fn == (void (*)(void))mpi_win_null_delete_fn_ ||
	       fn == (void (*)(void))mpi_null_delete_fn_;
}

static int f_copy(MPI_Fint h, int keyval, struct f_keyval *k, void *in, void *out, int *flag)
{
	MPI_Fint kv = keyval, fl = 0, ierr = MPI_SUCCESS;

	if (k->copy_kind == F_COPY_NULL) {
		*flag = 0;
		return MPI_SUCCESS;
	}
	if (k->copy_kind == F_COPY_DUP) {
		*(void **)out = in;
		*flag = 1;
		return MPI_SUCCESS;
	}
	if (k->mpi1) {
		MPI_Fint vin = (MPI_Fint)(intptr_t)in, vout = 0;
		((shl_f_copy1_fn *)k->copy)(&h, &kv, &k->extra1, &vin, &vout, &fl, &ierr);
		if (fl)
			*(void **)out = (void *)(intptr_t)vout;
	} else {
		MPI_Aint vin = (MPI_Aint)in, vout = 0;
		((shl_f_copy_fn *)k->copy)(&h, &kv, &k->extra, &vin, &vout, &fl, &ierr);
		if (fl)
			*(void **)out = (void *)vout;
	}
	*flag = fl != 0;
	return ierr;
}

static int f_delete(MPI_Fint h, int keyval, struct f_keyval *k, void *val)
{
	MPI_Fint kv = keyval, ierr = MPI_SUCCESS;

	if (k->delete_null)
		return MPI_SUCCESS;
	if (k->mpi1) {
		MPI_Fint v = (MPI_Fint)(intptr_t)val;
		((shl_f_delete1_fn *)k->del)(&h, &kv, &v, &k->extra1, &ierr);
	} else {
		MPI_Aint v = (MPI_Aint)val;
		((shl_f_delete_fn *)k->del)(&h, &kv, &v, &k->extra, &ierr);
	}
	return ierr;
}

static int comm_copy(MPI_Comm old, int keyval, void *extra, void *in, void *out, int *flag)
{
	return f_copy(PMPI_Comm_c2f(old), keyval, extra, in, out, flag);
}

static int comm_delete(MPI_Comm comm, int keyval, void *val, void *extra)
{
	return f_delete(PMPI_Comm_c2f(comm), keyval, extra, val);
}

static int type_copy(MPI_Datatype old, int keyval, void *extra, void *in, void *out, int *flag)
{
	return f_copy(PMPI_Type_c2f(old), keyval, extra, in, out, flag);
}

static int type_delete(MPI_Datatype t, int keyval, void *val, void *extra)
{
	return f_delete(PMPI_Type_c2f(t), keyval, extra, val);
}

static int win_copy(MPI_Win old, int keyval, void *extra, void *in, void *out, int *flag)
{
	return f_copy(PMPI_Win_c2f(old), keyval, extra, in, out, flag);
}

static int win_delete(MPI_Win w, int keyval, void *val, void *extra)
{
	return f_delete(PMPI_Win_c2f(w), keyval, extra, val);
}

static int keyval_create(const char *fn, enum f_obj obj, bool mpi1, void (*copy)(void),
			 void (*del)(void), MPI_Fint *keyval, MPI_Aint extra)
{
	struct f_keyval *k = malloc(sizeof(*k));
	int kv = MPI_KEYVAL_INVALID, rc;

	if (k == NULL)
		return shl_f_nomem(fn);
	*k = (struct f_keyval){ .mpi1 = mpi1, .copy_kind = copy_kind(copy),
				.delete_null = delete_null(del), .copy = copy, .del = del,
				.extra = extra, .extra1 = (MPI_Fint)extra };
	if (obj == F_COMM)
		rc = PMPI_Comm_create_keyval(comm_copy, comm_delete, &kv, k);
	else if (obj == F_TYPE)
		rc = PMPI_Type_create_keyval(type_copy, type_delete, &kv, k);
	else
		rc = PMPI_Win_create_keyval(win_copy, win_delete, &kv, k);
	if (rc != MPI_SUCCESS) {
		free(k);
		return rc;
	}
	*keyval = kv;
	return MPI_SUCCESS;
}

#define F_KEYVAL(lower, OBJ, NAME)                                                        \
	SHL_F_API void pmpi_##lower##_create_keyval_(shl_f_copy_fn *copy_fn,                \
						      shl_f_delete_fn *delete_fn,               \
						      MPI_Fint *keyval, MPI_Aint *extra_state,  \
						      MPI_Fint *ierror)                         \
	{                                                                               \
		set_ierr(ierror, keyval_create(NAME, OBJ, false, (void (*)(void))copy_fn,  \
					       (void (*)(void))delete_fn, keyval,       \
					       *extra_state));                          \
	}                                                                               \
	F_WEAK(mpi_##lower##_create_keyval_);

F_KEYVAL(comm, F_COMM, "MPI_Comm_create_keyval")
F_KEYVAL(type, F_TYPE, "MPI_Type_create_keyval")
F_KEYVAL(win, F_WIN, "MPI_Win_create_keyval")

SHL_F_API void pmpi_keyval_create_(shl_f_copy1_fn *copy_fn, shl_f_delete1_fn *delete_fn,
				   MPI_Fint *keyval, MPI_Fint *extra_state, MPI_Fint *ierror)
{
	set_ierr(ierror, keyval_create("MPI_Keyval_create", F_COMM, true,
				       (void (*)(void))copy_fn, (void (*)(void))delete_fn, keyval,
				       *extra_state));
}
F_WEAK(mpi_keyval_create_);

/* ---- attribute values ---- */

/* What Fortran reads of the value C gives for `keyval` on an object of kind `obj`. */
static MPI_Aint f_value(enum f_obj obj, int keyval, void *v)
{
	if (obj == F_COMM && keyval >= MPI_TAG_UB && keyval <= MPI_LASTUSEDCODE)
		return *(int *)v;
	if (obj == F_WIN) {
		switch (keyval) {
		case MPI_WIN_BASE:
			return (MPI_Aint)v;
		case MPI_WIN_SIZE:
			return *(MPI_Aint *)v;
		case MPI_WIN_DISP_UNIT:
		case MPI_WIN_CREATE_FLAVOR:
		case MPI_WIN_MODEL:
			return *(int *)v;
		}
	}
	return (MPI_Aint)v;
}

SHL_F_API void pmpi_comm_set_attr_(MPI_Fint *comm, MPI_Fint *keyval, MPI_Aint *val,
				   MPI_Fint *ierror)
{
	set_ierr(ierror, PMPI_Comm_set_attr(PMPI_Comm_f2c(*comm), *keyval, (void *)*val));
}
F_WEAK(mpi_comm_set_attr_);

SHL_F_API void pmpi_type_set_attr_(MPI_Fint *type, MPI_Fint *keyval, MPI_Aint *val,
				   MPI_Fint *ierror)
{
	set_ierr(ierror, PMPI_Type_set_attr(PMPI_Type_f2c(*type), *keyval, (void *)*val));
}
F_WEAK(mpi_type_set_attr_);

SHL_F_API void pmpi_win_set_attr_(MPI_Fint *win, MPI_Fint *keyval, MPI_Aint *val,
				  MPI_Fint *ierror)
{
	set_ierr(ierror, PMPI_Win_set_attr(PMPI_Win_f2c(*win), *keyval, (void *)*val));
}
F_WEAK(mpi_win_set_attr_);

SHL_F_API void pmpi_attr_put_(MPI_Fint *comm, MPI_Fint *keyval, MPI_Fint *val, MPI_Fint *ierror)
{
	set_ierr(ierror, PMPI_Comm_set_attr(PMPI_Comm_f2c(*comm), *keyval,
					    (void *)(intptr_t)*val));
}
F_WEAK(mpi_attr_put_);

static void get_attr(enum f_obj obj, MPI_Fint h, MPI_Fint keyval, MPI_Aint *val,
		     MPI_Fint *flag, MPI_Fint *ierror)
{
	void *v = NULL;
	int fl = 0, rc;

	if (obj == F_COMM)
		rc = PMPI_Comm_get_attr(PMPI_Comm_f2c(h), keyval, &v, &fl);
	else if (obj == F_TYPE)
		rc = PMPI_Type_get_attr(PMPI_Type_f2c(h), keyval, &v, &fl);
	else
		rc = PMPI_Win_get_attr(PMPI_Win_f2c(h), keyval, &v, &fl);
	if (rc == MPI_SUCCESS) {
		*flag = fl != 0;
		if (fl)
			*val = f_value(obj, keyval, v);
	}
	set_ierr(ierror, rc);
}

SHL_F_API void pmpi_comm_get_attr_(MPI_Fint *comm, MPI_Fint *keyval, MPI_Aint *val,
				   MPI_Fint *flag, MPI_Fint *ierror)
{
	get_attr(F_COMM, *comm, *keyval, val, flag, ierror);
}
F_WEAK(mpi_comm_get_attr_);

SHL_F_API void pmpi_type_get_attr_(MPI_Fint *type, MPI_Fint *keyval, MPI_Aint *val,
				   MPI_Fint *flag, MPI_Fint *ierror)
{
	get_attr(F_TYPE, *type, *keyval, val, flag, ierror);
}
F_WEAK(mpi_type_get_attr_);

SHL_F_API void pmpi_win_get_attr_(MPI_Fint *win, MPI_Fint *keyval, MPI_Aint *val,
				  MPI_Fint *flag, MPI_Fint *ierror)
{
	get_attr(F_WIN, *win, *keyval, val, flag, ierror);
}
F_WEAK(mpi_win_get_attr_);

SHL_F_API void pmpi_attr_get_(MPI_Fint *comm, MPI_Fint *keyval, MPI_Fint *val, MPI_Fint *flag,
			      MPI_Fint *ierror)
{
	MPI_Aint v = 0;
	MPI_Fint rc = MPI_SUCCESS;

	get_attr(F_COMM, *comm, *keyval, &v, flag, &rc);
	if (rc == MPI_SUCCESS && *flag)
		*val = (MPI_Fint)v;
	set_ierr(ierror, rc);
}
F_WEAK(mpi_attr_get_);

SHL_F_API void pmpi_comm_delete_attr_(MPI_Fint *comm, MPI_Fint *keyval, MPI_Fint *ierror)
{
	set_ierr(ierror, PMPI_Comm_delete_attr(PMPI_Comm_f2c(*comm), *keyval));
}
F_WEAK(mpi_comm_delete_attr_);

SHL_F_API void pmpi_type_delete_attr_(MPI_Fint *type, MPI_Fint *keyval, MPI_Fint *ierror)
{
	set_ierr(ierror, PMPI_Type_delete_attr(PMPI_Type_f2c(*type), *keyval));
}
F_WEAK(mpi_type_delete_attr_);

SHL_F_API void pmpi_win_delete_attr_(MPI_Fint *win, MPI_Fint *keyval, MPI_Fint *ierror)
{
	set_ierr(ierror, PMPI_Win_delete_attr(PMPI_Win_f2c(*win), *keyval));
}
F_WEAK(mpi_win_delete_attr_);

SHL_F_API void pmpi_attr_delete_(MPI_Fint *comm, MPI_Fint *keyval, MPI_Fint *ierror)
{
	set_ierr(ierror, PMPI_Comm_delete_attr(PMPI_Comm_f2c(*comm), *keyval));
}
F_WEAK(mpi_attr_delete_);

/* ---- generalized requests ---- */

/* One request's Fortran callbacks, freed after its free function ran. */
struct f_grequest {
	shl_f_query_fn *query;
	shl_f_free_fn *free;
	shl_f_cancel_fn *cancel;
	MPI_Aint extra;
};

static int greq_query(void *extra, MPI_Status *status)
{
	struct f_grequest *g = extra;
	MPI_Fint ierr = MPI_SUCCESS;

	/* A C status and a Fortran one have the same layout (MPI_STATUS_SIZE integers). */
	g->query(&g->extra, (MPI_Fint *)(void *)status, &ierr);
	return ierr;
}

static int greq_free(void *extra)
{
	struct f_grequest *g = extra;
	MPI_Fint ierr = MPI_SUCCESS;

	g->free(&g->extra, &ierr);
	free(g);
	return ierr;
}

static int greq_cancel(void *extra, int complete)
{
	struct f_grequest *g = extra;
	MPI_Fint ierr = MPI_SUCCESS, c = complete != 0;

	g->cancel(&g->extra, &c, &ierr);
	return ierr;
}

SHL_F_API void pmpi_grequest_start_(shl_f_query_fn *query_fn, shl_f_free_fn *free_fn,
				    shl_f_cancel_fn *cancel_fn, MPI_Aint *extra_state,
				    MPI_Fint *request, MPI_Fint *ierror)
{
	struct f_grequest *g = malloc(sizeof(*g));
	MPI_Request r = MPI_REQUEST_NULL;
	int rc;

	if (g == NULL) {
		set_ierr(ierror, shl_f_nomem("MPI_Grequest_start"));
		return;
	}
	*g = (struct f_grequest){ query_fn, free_fn, cancel_fn, *extra_state };
	rc = PMPI_Grequest_start(query_fn ? greq_query : NULL, free_fn ? greq_free : NULL,
				 cancel_fn ? greq_cancel : NULL, g, &r);
	if (rc == MPI_SUCCESS)
		*request = PMPI_Request_c2f(r);
	else
		free(g);
	set_ierr(ierror, rc);
}
F_WEAK(mpi_grequest_start_);

/* ---- data representations ---- */

/* A representation's Fortran functions; representations are never unregistered. */
struct f_datarep {
	void (*read)(void);   /* shl_f_conv_fn or shl_f_conv_c_fn */
	void (*write)(void);
	shl_f_extent_fn *extent;
	MPI_Aint extra;
};

static int conv(void (*fn)(void), void *userbuf, MPI_Datatype type, MPI_Count count,
		void *filebuf, MPI_Offset position, MPI_Aint *extra, bool large)
{
	MPI_Fint t = PMPI_Type_c2f(type), ierr = MPI_SUCCESS;

	if (large) {
		MPI_Count n = count;
		((shl_f_conv_c_fn *)fn)(userbuf, &t, &n, filebuf, &position, extra, &ierr);
	} else {
		MPI_Fint n = (MPI_Fint)count;
		((shl_f_conv_fn *)fn)(userbuf, &t, &n, filebuf, &position, extra, &ierr);
	}
	return ierr;
}

static int rep_read(void *userbuf, MPI_Datatype type, int count, void *filebuf,
		    MPI_Offset position, void *extra)
{
	struct f_datarep *d = extra;
	return conv(d->read, userbuf, type, count, filebuf, position, &d->extra, false);
}

static int rep_write(void *userbuf, MPI_Datatype type, int count, void *filebuf,
		     MPI_Offset position, void *extra)
{
	struct f_datarep *d = extra;
	return conv(d->write, userbuf, type, count, filebuf, position, &d->extra, false);
}

static int rep_read_c(void *userbuf, MPI_Datatype type, MPI_Count count, void *filebuf,
		      MPI_Offset position, void *extra)
{
	struct f_datarep *d = extra;
	return conv(d->read, userbuf, type, count, filebuf, position, &d->extra, true);
}

static int rep_write_c(void *userbuf, MPI_Datatype type, MPI_Count count, void *filebuf,
		       MPI_Offset position, void *extra)
{
	struct f_datarep *d = extra;
	return conv(d->write, userbuf, type, count, filebuf, position, &d->extra, true);
}

static int rep_extent(MPI_Datatype type, MPI_Aint *extent, void *extra)
{
	struct f_datarep *d = extra;
	MPI_Fint t = PMPI_Type_c2f(type), ierr = MPI_SUCCESS;

	d->extent(&t, extent, &d->extra, &ierr);
	return ierr;
}

static bool conv_null(void (*fn)(void))
{
	return fn == NULL || fn == (void (*)(void))mpi_conversion_fn_null_ ||
	       fn == (void (*)(void))mpi_conversion_fn_null_c_;
}

static int register_datarep(const char *datarep_f, size_t len, void (*read_fn)(void),
			    void (*write_fn)(void), shl_f_extent_fn *extent_fn, MPI_Aint extra,
			    bool large)
{
	const char *fn = large ? "MPI_Register_datarep_c" : "MPI_Register_datarep";
	char stack[SHL_F_STRING_STACK];
	char *name = shl_f_str_in(datarep_f, len, stack);
	struct f_datarep *d = malloc(sizeof(*d));
	int rc;

	if (name == NULL || d == NULL) {
		free(d);
		if (name != stack)
			free(name);
		return shl_f_nomem(fn);
	}
	*d = (struct f_datarep){ read_fn, write_fn, extent_fn, extra };
	if (large)
		rc = PMPI_Register_datarep_c(name, conv_null(read_fn) ? NULL : rep_read_c,
					     conv_null(write_fn) ? NULL : rep_write_c,
					     rep_extent, d);
	else
		rc = PMPI_Register_datarep(name, conv_null(read_fn) ? NULL : rep_read,
					   conv_null(write_fn) ? NULL : rep_write, rep_extent, d);
	if (rc != MPI_SUCCESS)
		free(d);
	if (name != stack)
		free(name);
	return rc;
}

SHL_F_API void pmpi_register_datarep_(char *datarep, shl_f_conv_fn *read_fn,
				      shl_f_conv_fn *write_fn, shl_f_extent_fn *extent_fn,
				      MPI_Aint *extra_state, MPI_Fint *ierror, size_t datarep_len)
{
	set_ierr(ierror, register_datarep(datarep, datarep_len, (void (*)(void))read_fn,
					  (void (*)(void))write_fn, extent_fn, *extra_state,
					  false));
}
F_WEAK(mpi_register_datarep_);

SHL_F_API void PMPI_Register_datarep_c_f08ts(char *datarep, shl_f_conv_c_fn *read_fn,
					     shl_f_conv_c_fn *write_fn, shl_f_extent_fn *extent_fn,
					     MPI_Aint *extra_state, MPI_Fint *ierror,
					     size_t datarep_len)
{
	set_ierr(ierror, register_datarep(datarep, datarep_len, (void (*)(void))read_fn,
					  (void (*)(void))write_fn, extent_fn, *extra_state,
					  true));
}
extern __typeof(PMPI_Register_datarep_c_f08ts) MPI_Register_datarep_c_f08ts
	__attribute__((weak, alias("PMPI_Register_datarep_c_f08ts")));

/* ---- MPI_Type_match_size: Fortran's answer is the sized Fortran type ---- */

SHL_F_API void pmpi_type_match_size_(MPI_Fint *typeclass, MPI_Fint *size, MPI_Fint *datatype,
				     MPI_Fint *ierror)
{
	MPI_Datatype t = MPI_DATATYPE_NULL;
	int rc = MPI_SUCCESS;

	switch (*typeclass) {
	case MPI_TYPECLASS_INTEGER:
		t = *size == 1 ? MPI_INTEGER1 : *size == 2 ? MPI_INTEGER2 : *size == 4 ? MPI_INTEGER4
		    : *size == 8 ? MPI_INTEGER8 : *size == 16 ? MPI_INTEGER16 : MPI_DATATYPE_NULL;
		break;
	case MPI_TYPECLASS_REAL:
		t = *size == 4 ? MPI_REAL4 : *size == 8 ? MPI_REAL8 : *size == 16 ? MPI_REAL16
		    : MPI_DATATYPE_NULL;
		break;
	case MPI_TYPECLASS_COMPLEX:
		t = *size == 8 ? MPI_COMPLEX8 : *size == 16 ? MPI_COMPLEX16
		    : *size == 32 ? MPI_COMPLEX32 : MPI_DATATYPE_NULL;
		break;
	}
	/* Anything else: C's answer, or its error through the handler. */
	if (t == MPI_DATATYPE_NULL)
		rc = PMPI_Type_match_size(*typeclass, *size, &t);
	if (rc == MPI_SUCCESS)
		*datatype = PMPI_Type_c2f(t);
	set_ierr(ierror, rc);
}
F_WEAK(mpi_type_match_size_);
