/* Weak placeholders of the functions object.c, remote.c and atomic.c define, so that the
 * branch links while they are written: each real definition replaces its placeholder.
 * Removed once all three are in. Entered by rank threads. */
#include <stdarg.h>
#include <stdio.h>
#include <errno.h>
#include <string.h>
#include "runtime/rma/rma.h"
__attribute__((weak)) int shl_win_err(struct shl_win *w, int errclass, const char *fn, const char *fmt, ...)
{
	char buf[600]; va_list ap; va_start(ap, fmt); vsnprintf(buf, sizeof buf, fmt, ap); va_end(ap);
	if (w && w->errh == MPI_ERRORS_RETURN) return errclass;
	return shl_err(NULL, errclass, fn, "%s", buf);
}
__attribute__((weak)) int shl_win_arg(const char *fn, MPI_Win win, struct shl_win **w)
{
	if (!shl_win_ok(win)) return shl_err(NULL, MPI_ERR_WIN, fn, "bad win");
	*w = win; return 0;
}
__attribute__((weak)) int shl_win_hints(struct shl_win *w, MPI_Info info, const char *fn) { (void)w; (void)info; (void)fn; return 0; }
__attribute__((weak)) void shl_win_attrs_init(struct shl_win *w) { (void)w; }
__attribute__((weak)) int shl_win_attrs_delete(struct shl_win *w) { (void)w; return 0; }
__attribute__((weak)) int shl_rma_remote_op(struct shl_rank *r, struct shl_win *w, const struct shl_rma_op *op) { shl_panic("x", ENOSYS, "remote"); }
__attribute__((weak)) int shl_rma_remote_flush(struct shl_rank *r, struct shl_win *w, int target) { return 0; }
__attribute__((weak)) int shl_rma_remote_lock(struct shl_rank *r, struct shl_win *w, int target, bool exclusive) { shl_panic("x", ENOSYS, "remote"); }
__attribute__((weak)) int shl_rma_remote_unlock(struct shl_rank *r, struct shl_win *w, int target, bool exclusive) { shl_panic("x", ENOSYS, "remote"); }
__attribute__((weak)) void shl_rma_remote_grant(struct shl_win_target *t) {}
__attribute__((weak)) int shl_rma_remote_expose(struct shl_win *w, struct shl_win_target *t) { return 0; }
__attribute__((weak)) void shl_rma_remote_forget(struct shl_win *w) {}
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
__attribute__((weak)) void shl_rma_atomic(enum shl_op_kind op, shl_kern *k, const struct shl_datatype *basic,
		    char *dst, const void *src, void *fetch, size_t n)
{
	pthread_mutex_lock(&mu);
	for (size_t i = 0; i < n; i++) {
		char *d = dst + i * basic->extent;
		if (fetch) memcpy((char*)fetch + i*basic->size, d, basic->size);
		if (op == SHL_OP_REPLACE) memcpy(d, (const char*)src + i*basic->size, basic->size);
		else if (op != SHL_OP_NO_OP) k((const char*)src + i*basic->size, d, 1);
	}
	pthread_mutex_unlock(&mu);
}
__attribute__((weak)) void shl_rma_cas(const struct shl_datatype *basic, char *dst, const void *src,
		 const void *compare, void *old)
{
	pthread_mutex_lock(&mu);
	memcpy(old, dst, basic->size);
	if (!memcmp(old, compare, basic->size)) memcpy(dst, src, basic->size);
	pthread_mutex_unlock(&mu);
}
__attribute__((weak, visibility("default"))) int MPI_Win_get_group(MPI_Win win, MPI_Group *group)
{
	struct shl_group *g = shl_group_new(win->size);
	for (int i = 0; i < win->size; i++) g->world[i] = win->peers[i].world;
	*group = g; return 0;
}

