/* What comm/'s files share beyond comm/comm.h: a rank's object before it is a view, its
 * release, a shared object's drop, and the predefined context ids. Entered by rank
 * threads (shl_ctx_init by the node's main thread before ranks run). Must not be included
 * outside comm/. */
#ifndef SHL_RUNTIME_COMM_INTERNAL_H
#define SHL_RUNTIME_COMM_INTERNAL_H

#include "runtime/core/rt.h"

/* Owner thread: a rank's new object inheriting `parent`'s error handler; not yet a view
 * (shl_comm_view). NULL when out of memory. (comm/object.c, as are the two below) */
struct shl_comm *shl_comm_alloc(struct shl_comm *parent);

/* Owner thread: undo shl_comm_alloc (and the view), or free the user's handle: the caller
 * has deleted the attributes. The handle is invalid at once; the object lives on while
 * requests hold it. */
void shl_comm_release(struct shl_comm *c);

/* Any rank thread: drop one member's reference to `sh`; the last frees it and its
 * context id. */
void shl_comm_shared_drop(struct shl_comm_shared *sh);

/* Owner thread, rank unlocked: MPI_Comm_split of `p` (usable, checked by the caller) on
 * behalf of MPI call `fn`, the name its reports and the collective history give; the
 * topology constructors' (comm/topo.c). MPI_SUCCESS or the class reported on p.
 * (comm/create.c) */
int shl_comm_split_as(const char *fn, struct shl_rank *r, struct shl_comm *p, int color,
		      int key, MPI_Comm *newcomm);

/* Any rank thread, on Cartesian topology `t` (comm/topo.c): the coordinates of grid rank
 * `rank` (row-major, the last dimension fastest); the grid rank `disp` steps from `coords`
 * along dimension d (wrapped where periodic, else MPI_PROC_NULL off the edge). */
void shl_cart_coords(const struct shl_topo *t, int rank, int *coords);
int shl_cart_step(const struct shl_topo *t, const int *coords, int d, long disp);

/* Node process main thread, before ranks run (shl_comm_job_init): mark the ids of
 * MPI_COMM_WORLD and MPI_COMM_SELF in use. (comm/context.c) */
void shl_ctx_init(void);

#endif
