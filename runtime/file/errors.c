/* Errors of file calls (MPI 4.1, 9.3.3 and 14.7): how they are raised (shl_file_err,
 * shl_file_errno), the I/O error class of an errno value, the file error handlers (user
 * ones, each file's, and MPI_FILE_NULL's: the rank's default, which MPI_File_open and
 * MPI_File_delete use and a new file inherits), and MPI_File_c2f / MPI_File_f2c.
 * Entered by rank threads; shl_file_errno_class by any thread. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "runtime/file/file.h"

/* ---- raising ---- */

/* The handler MPI_FILE_NULL has on rank `r`. */
static struct shl_errhandler *null_handler(struct shl_rank *r)
{
	return r != NULL && r->file_errh != NULL ? r->file_errh : MPI_ERRORS_RETURN;
}

static int raise_on(struct shl_file *f, int errclass, const char *fn, const char *what)
{
	struct shl_rank *r = shl_self;
	char name[512];
	char msg[1024];
	/* The user handler gets the handle the user knows, which it may not change. */
	MPI_File h = f;

	if (f != NULL)
		snprintf(name, sizeof(name), "file %s", f->path ? f->path : "(unnamed)");
	else
		snprintf(name, sizeof(name), "MPI_FILE_NULL");
	snprintf(msg, sizeof(msg), "%s", what);
	return shl_err_raise(f != NULL ? f->errh : null_handler(r), &h, name, errclass, fn, msg);
}

int shl_file_err(struct shl_file *f, int errclass, const char *fn, const char *fmt, ...)
{
	char what[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return raise_on(f, errclass, fn, what);
}

int shl_file_errno_class(int err)
{
	switch (err) {
	case ENOENT:
	case ENOTDIR:
		return MPI_ERR_NO_SUCH_FILE;
	case EEXIST:
		return MPI_ERR_FILE_EXISTS;
	case EACCES:
	case EPERM:
		return MPI_ERR_ACCESS;
	case EROFS:
		return MPI_ERR_READ_ONLY;
	case ENOSPC:
	case EFBIG:
		return MPI_ERR_NO_SPACE;
	case EDQUOT:
		return MPI_ERR_QUOTA;
	case ENAMETOOLONG:
	case EISDIR:
	case ELOOP:
	case EINVAL:
	case ENXIO:
	case ENODEV:
		return MPI_ERR_BAD_FILE;
	case ETXTBSY:
	case EBUSY:
		return MPI_ERR_FILE_IN_USE;
	case ENOMEM:
		return MPI_ERR_NO_MEM;
	default:
		return MPI_ERR_IO;
	}
}

int shl_file_errno(struct shl_file *f, int err, const char *fn, const char *fmt, ...)
{
	char what[768];
	va_list ap;
	int n;

	if (err < 0)
		err = -err;
	va_start(ap, fmt);
	n = vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n < sizeof(what))
		snprintf(what + n, sizeof(what) - (size_t)n, ": %s", strerror(err));
	return raise_on(f, shl_file_errno_class(err), fn, what);
}

int shl_file_check(const char *fn, MPI_File fh, struct shl_file **f)
{
	if (!shl_file_ok(fh))
		return shl_file_err(NULL, MPI_ERR_FILE, fn, "fh is not a valid file%s",
				    fh == MPI_FILE_NULL ? " (MPI_FILE_NULL)" : " (closed already?)");
	*f = fh;
	return MPI_SUCCESS;
}

/* ---- error handlers (MPI 4.1, 9.3.3) ---- */

int PMPI_File_create_errhandler(MPI_File_errhandler_function *file_errhandler_fn,
				MPI_Errhandler *errhandler)
{
	const char *fn = "MPI_File_create_errhandler";
	struct shl_errhandler *e;

	shl_rank_or_die(fn);
	if (file_errhandler_fn == NULL || errhandler == NULL)
		return shl_file_err(NULL, MPI_ERR_ARG, fn,
				    "file_errhandler_fn or errhandler is NULL");
	e = shl_handle_alloc(sizeof(*e));
	if (e == NULL)
		return shl_file_err(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
	*e = (struct shl_errhandler){ .magic = SHL_ERRH_MAGIC, .kind = SHL_ERRH_USER,
				      .obj = SHL_ERRH_FILE, .fn.file = file_errhandler_fn,
				      .refs = 1, .handles = 1 };
	*errhandler = e;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(File_create_errhandler);

int PMPI_File_set_errhandler(MPI_File file, MPI_Errhandler errhandler)
{
	const char *fn = "MPI_File_set_errhandler";
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_file *f = NULL;
	const char *why;
	int err;

	/* MPI_FILE_NULL names the rank's default file handler (MPI 4.1, 9.3.3). */
	if (file != MPI_FILE_NULL && (err = shl_file_check(fn, file, &f)) != MPI_SUCCESS)
		return err;
	if ((err = shl_errh_fit(errhandler, SHL_ERRH_FILE, &why)) != MPI_SUCCESS)
		return shl_file_err(f, err, fn, "%s", why);
	if (f != NULL) {
		shl_errh_replace(&f->errh, errhandler);
		return MPI_SUCCESS;
	}
	shl_errh_hold(errhandler);
	if (r->file_errh != NULL)
		shl_errh_drop(r->file_errh);
	r->file_errh = errhandler;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(File_set_errhandler);

int PMPI_File_get_errhandler(MPI_File file, MPI_Errhandler *errhandler)
{
	const char *fn = "MPI_File_get_errhandler";
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_file *f = NULL;
	int err;

	if (file != MPI_FILE_NULL && (err = shl_file_check(fn, file, &f)) != MPI_SUCCESS)
		return err;
	if (errhandler == NULL)
		return shl_file_err(f, MPI_ERR_ARG, fn, "errhandler is NULL");
	*errhandler = shl_errh_give(f != NULL ? f->errh : null_handler(r));
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(File_get_errhandler);

int PMPI_File_call_errhandler(MPI_File fh, int errorcode)
{
	const char *fn = "MPI_File_call_errhandler";
	struct shl_file *f = NULL;
	int err;

	shl_rank_or_die(fn);
	if (fh != MPI_FILE_NULL && (err = shl_file_check(fn, fh, &f)) != MPI_SUCCESS)
		return err;
	shl_file_err(f, errorcode, fn, "the user raised error code %d", errorcode);
	/* Success unless the handler itself failed (MPI 4.1, 9.3.4). */
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(File_call_errhandler);

/* ---- handle conversions (MPI 4.1, 19.3.4): core/handle.c's encoding ---- */

MPI_Fint PMPI_File_c2f(MPI_File file)
{
	return shl_handle_to_int(file);
}
SHL_WEAK_ALIAS(File_c2f);

MPI_File PMPI_File_f2c(MPI_Fint file)
{
	return shl_handle_from_int(file, sizeof(struct shl_file), SHL_FILE_MAGIC);
}
SHL_WEAK_ALIAS(File_f2c);
