/* Error classes and user error codes (added and removed), their strings, error handlers
 * (predefined and user) and the one place where a failure becomes an MPI error:
 * shl_err_raise, through which shl_err (communicators), rma's shl_win_err (windows) and
 * file/errors.c's shl_file_err (files) go.
 * Entered by rank threads. Never exits on its own except through MPI_ERRORS_ARE_FATAL /
 * MPI_ERRORS_ABORT. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/core/rt.h"

SHL_API SHL_HANDLE_PREDEF struct shl_errhandler shl_mpi_errors_are_fatal = {
	.magic = SHL_ERRH_MAGIC, .kind = SHL_ERRH_FATAL };
SHL_API SHL_HANDLE_PREDEF struct shl_errhandler shl_mpi_errors_return = {
	.magic = SHL_ERRH_MAGIC, .kind = SHL_ERRH_RETURN };
SHL_API SHL_HANDLE_PREDEF struct shl_errhandler shl_mpi_errors_abort = {
	.magic = SHL_ERRH_MAGIC, .kind = SHL_ERRH_ABORT };

/* User codes and classes (MPI_Add_error_class/code) follow the predefined ones. */
#define FIRST_USER_CODE (MPI_ERR_LASTCODE + 1)
/* The last value MPI_Add_error_class/code hands out: codes must stay positive ints, and a
 * rank's table grows with each (16 bytes a code). */
#define LAST_USER_CODE 0xffff

static const char *const class_names[MPI_ERR_LASTCODE + 1] = {
	[MPI_SUCCESS] = "MPI_SUCCESS: no error",
	[MPI_ERR_BUFFER] = "MPI_ERR_BUFFER: invalid buffer pointer or buffer space",
	[MPI_ERR_COUNT] = "MPI_ERR_COUNT: invalid count argument",
	[MPI_ERR_TYPE] = "MPI_ERR_TYPE: invalid datatype",
	[MPI_ERR_TAG] = "MPI_ERR_TAG: invalid tag argument",
	[MPI_ERR_COMM] = "MPI_ERR_COMM: invalid communicator",
	[MPI_ERR_RANK] = "MPI_ERR_RANK: invalid rank",
	[MPI_ERR_REQUEST] = "MPI_ERR_REQUEST: invalid request",
	[MPI_ERR_ROOT] = "MPI_ERR_ROOT: invalid root",
	[MPI_ERR_GROUP] = "MPI_ERR_GROUP: invalid group",
	[MPI_ERR_OP] = "MPI_ERR_OP: invalid reduction operation",
	[MPI_ERR_TOPOLOGY] = "MPI_ERR_TOPOLOGY: invalid topology",
	[MPI_ERR_DIMS] = "MPI_ERR_DIMS: invalid dimension argument",
	[MPI_ERR_ARG] = "MPI_ERR_ARG: invalid argument of some other kind",
	[MPI_ERR_UNKNOWN] = "MPI_ERR_UNKNOWN: unknown error",
	[MPI_ERR_TRUNCATE] = "MPI_ERR_TRUNCATE: message truncated on receive",
	[MPI_ERR_OTHER] = "MPI_ERR_OTHER: known error not in this list",
	[MPI_ERR_INTERN] = "MPI_ERR_INTERN: internal MPI error",
	[MPI_ERR_PENDING] = "MPI_ERR_PENDING: pending request",
	[MPI_ERR_IN_STATUS] = "MPI_ERR_IN_STATUS: error code is in status",
	[MPI_ERR_ACCESS] = "MPI_ERR_ACCESS: permission denied",
	[MPI_ERR_AMODE] = "MPI_ERR_AMODE: invalid file access mode",
	[MPI_ERR_ASSERT] = "MPI_ERR_ASSERT: invalid assertion argument",
	[MPI_ERR_BAD_FILE] = "MPI_ERR_BAD_FILE: invalid file name",
	[MPI_ERR_BASE] = "MPI_ERR_BASE: invalid base address",
	[MPI_ERR_CONVERSION] = "MPI_ERR_CONVERSION: data conversion error",
	[MPI_ERR_DISP] = "MPI_ERR_DISP: invalid displacement",
	[MPI_ERR_DUP_DATAREP] = "MPI_ERR_DUP_DATAREP: data representation already defined",
	[MPI_ERR_FILE_EXISTS] = "MPI_ERR_FILE_EXISTS: file exists",
	[MPI_ERR_FILE_IN_USE] = "MPI_ERR_FILE_IN_USE: file in use",
	[MPI_ERR_FILE] = "MPI_ERR_FILE: invalid file handle",
	[MPI_ERR_INFO_KEY] = "MPI_ERR_INFO_KEY: info key too long",
	[MPI_ERR_INFO_NOKEY] = "MPI_ERR_INFO_NOKEY: info key not defined",
	[MPI_ERR_INFO_VALUE] = "MPI_ERR_INFO_VALUE: info value too long",
	[MPI_ERR_INFO] = "MPI_ERR_INFO: invalid info object",
	[MPI_ERR_IO] = "MPI_ERR_IO: I/O error",
	[MPI_ERR_KEYVAL] = "MPI_ERR_KEYVAL: invalid attribute key",
	[MPI_ERR_LOCKTYPE] = "MPI_ERR_LOCKTYPE: invalid lock type",
	[MPI_ERR_NAME] = "MPI_ERR_NAME: service name not published",
	[MPI_ERR_NO_MEM] = "MPI_ERR_NO_MEM: out of memory",
	[MPI_ERR_NOT_SAME] = "MPI_ERR_NOT_SAME: arguments differ between processes",
	[MPI_ERR_NO_SPACE] = "MPI_ERR_NO_SPACE: not enough space",
	[MPI_ERR_NO_SUCH_FILE] = "MPI_ERR_NO_SUCH_FILE: file does not exist",
	[MPI_ERR_PORT] = "MPI_ERR_PORT: invalid port name",
	[MPI_ERR_PROC_ABORTED] = "MPI_ERR_PROC_ABORTED: peer process aborted",
	[MPI_ERR_QUOTA] = "MPI_ERR_QUOTA: quota exceeded",
	[MPI_ERR_READ_ONLY] = "MPI_ERR_READ_ONLY: read-only file or file system",
	[MPI_ERR_RMA_ATTACH] = "MPI_ERR_RMA_ATTACH: memory cannot be attached",
	[MPI_ERR_RMA_CONFLICT] = "MPI_ERR_RMA_CONFLICT: conflicting accesses to a window",
	[MPI_ERR_RMA_RANGE] = "MPI_ERR_RMA_RANGE: target memory outside the window",
	[MPI_ERR_RMA_SHARED] = "MPI_ERR_RMA_SHARED: memory cannot be shared",
	[MPI_ERR_RMA_SYNC] = "MPI_ERR_RMA_SYNC: wrong synchronization of RMA calls",
	[MPI_ERR_RMA_FLAVOR] = "MPI_ERR_RMA_FLAVOR: wrong window flavor",
	[MPI_ERR_SERVICE] = "MPI_ERR_SERVICE: invalid service name",
	[MPI_ERR_SESSION] = "MPI_ERR_SESSION: invalid session",
	[MPI_ERR_SIZE] = "MPI_ERR_SIZE: invalid size",
	[MPI_ERR_SPAWN] = "MPI_ERR_SPAWN: could not spawn processes",
	[MPI_ERR_UNSUPPORTED_DATAREP] = "MPI_ERR_UNSUPPORTED_DATAREP: unsupported data representation",
	[MPI_ERR_UNSUPPORTED_OPERATION] = "MPI_ERR_UNSUPPORTED_OPERATION: unsupported operation",
	[MPI_ERR_VALUE_TOO_LARGE] = "MPI_ERR_VALUE_TOO_LARGE: value too large to store",
	[MPI_ERR_WIN] = "MPI_ERR_WIN: invalid window",
	[MPI_ERR_ERRHANDLER] = "MPI_ERR_ERRHANDLER: invalid error handler",
	[MPI_T_ERR_NOT_SUPPORTED] = "MPI_T_ERR_NOT_SUPPORTED: not supported by the tools interface",
};

static const char *class_name(int errclass)
{
	if (errclass < 0 || errclass > MPI_ERR_LASTCODE || class_names[errclass] == NULL)
		return NULL;
	return class_names[errclass];
}

/* A removed code's class (MPI_Remove_error_class/code): its entry stays, so codes are
 * never handed out twice, but names nothing. */
#define REMOVED (-1)

/* The rank's entry for user code `code`, or NULL (none, or removed). Rank locked (or
 * single-threaded use). */
static struct shl_user_error *user_error(struct shl_rank *r, int code)
{
	if (r == NULL || code < FIRST_USER_CODE || code - FIRST_USER_CODE >= r->objs->nerrors ||
	    r->objs->errors[code - FIRST_USER_CODE].cls == REMOVED)
		return NULL;
	return &r->objs->errors[code - FIRST_USER_CODE];
}

int shl_err_class_of(struct shl_rank *r, int code)
{
	struct shl_user_error *u;
	int cls = -1;

	if (class_name(code) != NULL)
		return code;
	if (r == NULL)
		return -1;
	shl_rank_lock(r);
	u = user_error(r, code);
	if (u != NULL)
		cls = u->cls;
	shl_rank_unlock(r);
	return cls;
}

void shl_errh_hold(struct shl_errhandler *e)
{
	if (e->kind == SHL_ERRH_USER)
		atomic_fetch_add_explicit(&e->refs, 1, memory_order_relaxed);
}

void shl_errh_drop(struct shl_errhandler *e)
{
	/* acq_rel: the last dropper sees every other holder's use before freeing. */
	if (e->kind == SHL_ERRH_USER && atomic_fetch_sub_explicit(&e->refs, 1,
								  memory_order_acq_rel) == 1)
		shl_handle_free(e);
}

static const char *comm_name(const struct shl_comm *c)
{
	return c->name ? c->name : "a communicator";
}

int shl_err_raise(struct shl_errhandler *eh, void *handle, const char *objname, int errclass,
		  const char *fn, const char *what)
{
	struct shl_rank *r = shl_self;

	if (eh != NULL && eh->kind == SHL_ERRH_RETURN)
		return errclass;
	if (eh != NULL && eh->kind == SHL_ERRH_USER) {
		/* The handler gets the handle the user knows and may change neither. */
		int code = errclass;
		if (eh->fortran) {
			/* Every kind of handle is a pointer; Fortran gets its integer. */
			MPI_Fint h = shl_handle_to_int(*(void **)handle);
			((shl_f_errhandler_function *)(void (*)(void))eh->fn.comm)(&h, &code);
		} else if (eh->obj == SHL_ERRH_WIN)
			eh->fn.win(handle, &code);
		else if (eh->obj == SHL_ERRH_SESSION)
			eh->fn.session(handle, &code);
		else if (eh->obj == SHL_ERRH_FILE)
			eh->fn.file(handle, &code);
		else
			eh->fn.comm(handle, &code);
		return errclass;
	}
	/* MPI_ERRORS_ARE_FATAL and MPI_ERRORS_ABORT end every process of the job here: all
	 * of them share this node process (off-node, the abort reaches the others too). */
	int cls = shl_err_class_of(r, errclass);
	const char *text = class_name(cls) ? class_name(cls) : "unknown error class";
	/* A user's code or class: its MPI_Add_error_string text, read without the rank's
	 * lock (the caller may hold it; the job ends here). */
	struct shl_user_error *u = r != NULL && class_name(errclass) == NULL
					   ? user_error(r, errclass) : NULL;
	if (u != NULL && u->str != NULL)
		text = u->str;
	shl_job_abort(cls > 0 ? cls : MPI_ERR_UNKNOWN, "rank %d: %s: %s on %s: %s",
		      r ? r->world_rank : 0, fn, what, objname, text);
}

int shl_err(struct shl_comm *comm, int errclass, const char *fn, const char *fmt, ...)
{
	struct shl_rank *r = shl_self;
	char what[512];
	va_list ap;
	MPI_Comm h = MPI_COMM_NULL;

	if (comm == NULL && r != NULL)
		comm = &r->self;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (comm != NULL)
		h = shl_comm_handle(comm);
	return shl_err_raise(comm ? comm->errh : NULL, &h,
			     comm ? comm_name(comm) : "no communicator", errclass, fn, what);
}
_Noreturn void shl_rank_not_in_mpi(struct shl_rank *r, const char *fn)
{
	const char *why = r && atomic_load(&r->phase) == SHL_PHASE_FINALIZED
				  ? "after MPI_Finalize" : "before MPI_Init";

	shl_job_abort(MPI_ERR_OTHER, "rank %d: %s called %s", r ? r->world_rank : 0, fn, why);
}

_Noreturn void shl_panic(const char *fn, int err, const char *what)
{
	struct shl_rank *r = shl_self;

	shl_job_abort(MPI_ERR_INTERN, "rank %d: internal error in %s: %s (%s)",
		      r ? r->world_rank : -1, fn, what, strerror(err));
}

int PMPI_Error_string(int errorcode, char *string, int *resultlen)
{
	struct shl_rank *r = shl_self;
	const char *s = class_name(errorcode);
	struct shl_user_error *u;

	if (string == NULL || resultlen == NULL)
		return shl_err(NULL, MPI_ERR_ARG, "MPI_Error_string", "string or resultlen is NULL");
	if (s != NULL) {
		*resultlen = snprintf(string, MPI_MAX_ERROR_STRING, "%s", s);
		return MPI_SUCCESS;
	}
	if (r != NULL) {
		shl_rank_lock(r);
		u = user_error(r, errorcode);
		/* A user code without a string has the empty string (MPI 4.1, 9.5). */
		if (u != NULL)
			*resultlen = snprintf(string, MPI_MAX_ERROR_STRING, "%s",
					      u->str ? u->str : "");
		shl_rank_unlock(r);
		if (u != NULL)
			return MPI_SUCCESS;
	}
	return shl_err(NULL, MPI_ERR_ARG, "MPI_Error_string",
		       "errorcode %d is not a valid error code", errorcode);
}
SHL_WEAK_ALIAS(Error_string);

int PMPI_Error_class(int errorcode, int *errorclass)
{
	int cls = shl_err_class_of(shl_self, errorcode);

	if (errorclass == NULL)
		return shl_err(NULL, MPI_ERR_ARG, "MPI_Error_class", "errorclass is NULL");
	if (cls < 0)
		return shl_err(NULL, MPI_ERR_ARG, "MPI_Error_class",
			       "errorcode %d is not a valid error code", errorcode);
	*errorclass = cls;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Error_class);

/* Append a user code of class `cls` (FIRST_USER_CODE.. : a new class if cls < 0). */
static int add_code(struct shl_rank *r, int cls, int *out)
{
	struct shl_rank_objs *o = r->objs;
	struct shl_user_error *grown;
	int code = FIRST_USER_CODE + o->nerrors;

	if (code > LAST_USER_CODE)
		return -ENOSPC;
	grown = realloc(o->errors, (size_t)(o->nerrors + 1) * sizeof(*grown));
	if (grown == NULL)
		return -ENOMEM;
	o->errors = grown;
	o->errors[o->nerrors++] = (struct shl_user_error){ cls < 0 ? code : cls, NULL };
	o->last_used_code = code;
	*out = code;
	return 0;
}

static int add_error(const char *fn, int cls, int *out)
{
	struct shl_rank *r = shl_rank_any_phase(fn);
	int rc;

	if (out == NULL)
		return shl_err(NULL, MPI_ERR_ARG, fn, "output argument is NULL");
	shl_rank_lock(r);
	if (cls >= 0) {
		struct shl_user_error *u = user_error(r, cls);
		if (class_name(cls) == NULL && (u == NULL || u->cls != cls)) {
			shl_rank_unlock(r);
			return shl_err(NULL, MPI_ERR_ARG, fn, "errorclass %d is not an error class",
				       cls);
		}
	}
	rc = add_code(r, cls, out);
	shl_rank_unlock(r);
	if (rc == -ENOSPC)
		return shl_err(NULL, MPI_ERR_OTHER, fn, "all %d user error codes are in use",
			       LAST_USER_CODE - FIRST_USER_CODE + 1);
	if (rc < 0)
		return shl_err(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
	return MPI_SUCCESS;
}

int PMPI_Add_error_class(int *errorclass)
{
	return add_error("MPI_Add_error_class", -1, errorclass);
}
SHL_WEAK_ALIAS(Add_error_class);

int PMPI_Add_error_code(int errorclass, int *errorcode)
{
	return add_error("MPI_Add_error_code", errorclass, errorcode);
}
SHL_WEAK_ALIAS(Add_error_code);

int PMPI_Add_error_string(int errorcode, const char *string)
{
	struct shl_rank *r = shl_rank_any_phase("MPI_Add_error_string");
	struct shl_user_error *u;
	char *copy;

	if (string == NULL)
		return shl_err(NULL, MPI_ERR_ARG, "MPI_Add_error_string", "string is NULL");
	if (strlen(string) >= MPI_MAX_ERROR_STRING)
		return shl_err(NULL, MPI_ERR_ARG, "MPI_Add_error_string",
			       "string is %zu characters long (the limit is %d)", strlen(string),
			       MPI_MAX_ERROR_STRING - 1);
	copy = strdup(string);
	if (copy == NULL)
		return shl_err(NULL, MPI_ERR_NO_MEM, "MPI_Add_error_string", "out of memory");
	shl_rank_lock(r);
	u = user_error(r, errorcode);
	if (u != NULL) {
		free(u->str);
		u->str = copy;
	}
	shl_rank_unlock(r);
	if (u == NULL) {
		free(copy);
		return shl_err(NULL, MPI_ERR_ARG, "MPI_Add_error_string",
			       "errorcode %d is not a user error code or class%s", errorcode,
			       class_name(errorcode) ? " (predefined strings cannot change)" : "");
	}
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Add_error_string);

/* What MPI_Remove_error_class/code/string do with a user code (MPI 4.1, 9.5). */
enum removal { CLASS, CODE, STRING };

/* Remove user class, code or string `code` for call `fn`. A predefined class or code, a
 * value that is no user class (code) of this rank, a class that codes other than itself
 * still belong to and a code without a string are MPI_ERR_ARG. A removed class or code
 * takes its string with it; its value is not handed out again, so MPI_LASTUSEDCODE keeps
 * its value. */
static int remove_error(const char *fn, int code, enum removal what)
{
	static const char *const noun[] = { "errorclass", "errorcode", "errorcode" };
	struct shl_rank *r = shl_rank_any_phase(fn);
	struct shl_user_error *u;
	char *str = NULL;
	int attached = -1;

	if (class_name(code) != NULL)
		return shl_err(NULL, MPI_ERR_ARG, fn, "%s %d is predefined and cannot be removed",
			       noun[what], code);
	shl_rank_lock(r);
	u = user_error(r, code);
	if (u != NULL && what == CLASS && u->cls == code) {
		for (int i = 0; i < r->objs->nerrors && attached < 0; i++)
			if (r->objs->errors[i].cls == code && FIRST_USER_CODE + i != code)
				attached = FIRST_USER_CODE + i;
	}
	bool fits = u != NULL && (what == STRING ? u->str != NULL
				  : what == CLASS ? u->cls == code && attached < 0
						  : u->cls != code);
	if (fits) {
		str = u->str;
		u->str = NULL;
		if (what != STRING)
			u->cls = REMOVED;
	}
	shl_rank_unlock(r);
	free(str);
	if (fits)
		return MPI_SUCCESS;
	if (u == NULL)
		return shl_err(NULL, MPI_ERR_ARG, fn, "%s %d is not a user error %s of this rank "
			       "(removed already?)", noun[what], code,
			       what == CLASS ? "class" : what == CODE ? "code" : "class or code");
	if (what == STRING)
		return shl_err(NULL, MPI_ERR_ARG, fn, "errorcode %d has no string to remove", code);
	if (what == CODE)
		return shl_err(NULL, MPI_ERR_ARG, fn, "errorcode %d is an error class: "
			       "MPI_Remove_error_class removes it", code);
	if (attached >= 0)
		return shl_err(NULL, MPI_ERR_ARG, fn, "errorclass %d still has error code %d "
			       "(remove its codes first)", code, attached);
	return shl_err(NULL, MPI_ERR_ARG, fn, "errorclass %d is an error code of class %d, "
		       "not a class", code, u->cls);
}

int PMPI_Remove_error_class(int errorclass)
{
	return remove_error("MPI_Remove_error_class", errorclass, CLASS);
}
SHL_WEAK_ALIAS(Remove_error_class);

int PMPI_Remove_error_code(int errorcode)
{
	return remove_error("MPI_Remove_error_code", errorcode, CODE);
}
SHL_WEAK_ALIAS(Remove_error_code);

int PMPI_Remove_error_string(int errorcode)
{
	return remove_error("MPI_Remove_error_string", errorcode, STRING);
}
SHL_WEAK_ALIAS(Remove_error_string);

int PMPI_Comm_create_errhandler(MPI_Comm_errhandler_function *comm_errhandler_fn,
				MPI_Errhandler *errhandler)
{
	struct shl_errhandler *e;

	shl_rank_or_die("MPI_Comm_create_errhandler");
	if (comm_errhandler_fn == NULL || errhandler == NULL)
		return shl_err(NULL, MPI_ERR_ARG, "MPI_Comm_create_errhandler",
			       "comm_errhandler_fn or errhandler is NULL");
	e = shl_handle_alloc(sizeof(*e));
	if (e == NULL)
		return shl_err(NULL, MPI_ERR_NO_MEM, "MPI_Comm_create_errhandler", "out of memory");
	*e = (struct shl_errhandler){ .magic = SHL_ERRH_MAGIC, .kind = SHL_ERRH_USER,
				      .obj = SHL_ERRH_COMM, .fn.comm = comm_errhandler_fn,
				      .refs = 1, .handles = 1 };
	*errhandler = e;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Comm_create_errhandler);

SHL_API int shl_f_errhandler_create(int obj, shl_f_errhandler_function *fn,
				    MPI_Errhandler *errhandler)
{
	static const char *const names[] = {
		[SHL_ERRH_COMM] = "MPI_Comm_create_errhandler",
		[SHL_ERRH_WIN] = "MPI_Win_create_errhandler",
		[SHL_ERRH_SESSION] = "MPI_Session_create_errhandler",
		[SHL_ERRH_FILE] = "MPI_File_create_errhandler",
	};
	const char *name = obj >= SHL_ERRH_COMM && obj <= SHL_ERRH_FILE ? names[obj]
			   : "MPI_Comm_create_errhandler";
	struct shl_errhandler *e;

	shl_rank_or_die(name);
	if (obj < SHL_ERRH_COMM || obj > SHL_ERRH_FILE)
		return shl_err(NULL, MPI_ERR_INTERN, name, "unknown kind of object %d", obj);
	if (fn == NULL || errhandler == NULL)
		return shl_err(NULL, MPI_ERR_ARG, name, "the function or errhandler is NULL");
	e = shl_handle_alloc(sizeof(*e));
	if (e == NULL)
		return shl_err(NULL, MPI_ERR_NO_MEM, name, "out of memory");
	/* Stored in the union's comm member whatever `obj` is; shl_err_raise calls it back
	 * through its own type. */
	*e = (struct shl_errhandler){ .magic = SHL_ERRH_MAGIC, .kind = SHL_ERRH_USER,
				      .obj = (enum shl_errh_obj)obj, .fortran = true,
				      .fn.comm = (MPI_Comm_errhandler_function *)(void (*)(void))fn,
				      .refs = 1, .handles = 1 };
	*errhandler = e;
	return MPI_SUCCESS;
}

bool shl_errh_ok(const struct shl_errhandler *e)
{
	return shl_handle_mapped(e, sizeof(*e)) && e->magic == SHL_ERRH_MAGIC &&
	       (e->kind != SHL_ERRH_USER || atomic_load(&e->handles) > 0);
}

int shl_errh_fit(const struct shl_errhandler *e, enum shl_errh_obj obj, const char **why)
{
	if (!shl_errh_ok(e)) {
		*why = e == MPI_ERRHANDLER_NULL ? "invalid errhandler argument (MPI_ERRHANDLER_NULL)"
						: "invalid errhandler argument";
		return MPI_ERR_ERRHANDLER;
	}
	if (e->obj != SHL_ERRH_ANY && e->obj != obj) {
		static const char *const made_for[] = {
			[SHL_ERRH_COMM] = "communicators (MPI_Comm_create_errhandler)",
			[SHL_ERRH_WIN] = "windows (MPI_Win_create_errhandler)",
			[SHL_ERRH_SESSION] = "sessions (MPI_Session_create_errhandler)",
			[SHL_ERRH_FILE] = "files (MPI_File_create_errhandler)" };
		static const char *const kind[] = { [SHL_ERRH_COMM] = "communicators",
						    [SHL_ERRH_WIN] = "windows",
						    [SHL_ERRH_SESSION] = "sessions",
						    [SHL_ERRH_FILE] = "files" };
		static __thread char text[128];
		snprintf(text, sizeof(text), "errhandler was made for %s, not %s",
			 made_for[e->obj], kind[obj]);
		*why = text;
		return MPI_ERR_ARG;
	}
	return MPI_SUCCESS;
}

void shl_errh_replace(struct shl_errhandler **slot, struct shl_errhandler *e)
{
	shl_errh_hold(e);
	shl_errh_drop(*slot);
	*slot = e;
}

struct shl_errhandler *shl_errh_give(struct shl_errhandler *e)
{
	/* A new reference: the user frees it with MPI_Errhandler_free (MPI 4.1, 9.3.1). */
	shl_errh_hold(e);
	if (e->kind == SHL_ERRH_USER)
		atomic_fetch_add(&e->handles, 1);
	return e;
}

int PMPI_Errhandler_free(MPI_Errhandler *errhandler)
{
	shl_rank_any_phase("MPI_Errhandler_free");
	if (errhandler == NULL)
		return shl_err(NULL, MPI_ERR_ARG, "MPI_Errhandler_free", "errhandler is NULL");
	struct shl_errhandler *e = *errhandler;
	if (!shl_errh_ok(e) || (e->kind == SHL_ERRH_USER &&
			    atomic_fetch_sub(&e->handles, 1) <= 0))
		return shl_err(NULL, MPI_ERR_ERRHANDLER, "MPI_Errhandler_free",
			       "errhandler is not a valid error handler (freed already?)");
	/* Communicators using it keep it alive (MPI 4.1, 9.3.4). */
	shl_errh_drop(e);
	*errhandler = MPI_ERRHANDLER_NULL;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Errhandler_free);

int PMPI_Comm_call_errhandler(MPI_Comm comm, int errorcode)
{
	struct shl_rank *r = shl_rank_or_die("MPI_Comm_call_errhandler");
	struct shl_comm *c = shl_comm_get(r, comm);

	if (c == NULL)
		return shl_err(NULL, MPI_ERR_COMM, "MPI_Comm_call_errhandler",
			       "invalid communicator argument comm");
	shl_err(c, errorcode, "MPI_Comm_call_errhandler", "the user raised error code %d",
		errorcode);
	/* Success unless the handler itself failed (MPI 4.1, 9.3.4). */
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Comm_call_errhandler);

int PMPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler)
{
	struct shl_rank *r = shl_rank_or_die("MPI_Comm_set_errhandler");
	struct shl_comm *c = shl_comm_get(r, comm);

	if (c == NULL)
		return shl_err(NULL, MPI_ERR_COMM, "MPI_Comm_set_errhandler",
			       "invalid communicator argument comm");
	const char *why;
	int err = shl_errh_fit(errhandler, SHL_ERRH_COMM, &why);
	if (err != MPI_SUCCESS)
		return shl_err(c, err, "MPI_Comm_set_errhandler", "%s", why);
	shl_errh_replace(&c->errh, errhandler);
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Comm_set_errhandler);

int PMPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler)
{
	struct shl_rank *r = shl_rank_or_die("MPI_Comm_get_errhandler");
	struct shl_comm *c = shl_comm_get(r, comm);

	if (c == NULL)
		return shl_err(NULL, MPI_ERR_COMM, "MPI_Comm_get_errhandler",
			       "invalid communicator argument comm");
	if (errhandler == NULL)
		return shl_err(c, MPI_ERR_ARG, "MPI_Comm_get_errhandler", "errhandler is NULL");
	*errhandler = shl_errh_give(c->errh);
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Comm_get_errhandler);

size_t shl_env_size(const char *name, size_t dflt, size_t max)
{
	const char *s = getenv(name);
	char *end;
	unsigned long long v;

	if (s == NULL || *s == '\0')
		return dflt;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno != 0 || *end != '\0' || v > max) {
		fprintf(stderr, "shoal: ignoring %s=%s (expected a number up to %zu)\n", name, s,
			max);
		return dflt;
	}
	return v;
}
