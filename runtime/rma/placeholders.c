/* Weak placeholders of the functions remote.c defines, so that the
 * branch links while they are written: each real definition replaces its placeholder.
 * Removed once it is in. Entered by rank threads. */
#include <stdarg.h>
#include <stdio.h>
#include <errno.h>
#include <string.h>
#include "runtime/rma/rma.h"
__attribute__((weak)) int shl_rma_remote_op(struct shl_rank *r, struct shl_win *w, const struct shl_rma_op *op) { shl_panic("x", ENOSYS, "remote"); }
__attribute__((weak)) int shl_rma_remote_flush(struct shl_rank *r, struct shl_win *w, int target) { return 0; }
__attribute__((weak)) int shl_rma_remote_lock(struct shl_rank *r, struct shl_win *w, int target, bool exclusive) { shl_panic("x", ENOSYS, "remote"); }
__attribute__((weak)) int shl_rma_remote_unlock(struct shl_rank *r, struct shl_win *w, int target, bool exclusive) { shl_panic("x", ENOSYS, "remote"); }
__attribute__((weak)) void shl_rma_remote_grant(struct shl_win_target *t) {}
__attribute__((weak)) int shl_rma_remote_expose(struct shl_win *w, struct shl_win_target *t) { return 0; }
__attribute__((weak)) void shl_rma_remote_forget(struct shl_win *w) {}
