/* Every function core calls in a higher layer (datatype, comm, p2p, coll, file): the one list of
 * core's upcalls, each with its contract and the layer that implements it. An upcall is a
 * plain function called directly, so it costs what any call costs; none goes through a
 * pointer. Entered by whichever thread the contract names. Must not hold anything but
 * declarations: a core file that needs a higher layer includes this, never that layer's
 * headers (tests/layers_go_down.sh checks both). */
#ifndef SHL_RUNTIME_CORE_HOOKS_H
#define SHL_RUNTIME_CORE_HOOKS_H

#include <stdbool.h>
#include <stddef.h>

#include "mpi.h"

struct shl_rank;
struct shl_req;
struct shl_comm;
struct shl_datatype;

/* ---- implemented by datatype (datatype/build.c) ---- */

/* The last release's work of a derived datatype (shl_dt_release, inline in
 * datatype/datatype.h, which core/rt.h includes: core's shl_req_release calls it). */
void shl_dt_destroy(struct shl_datatype *t);

/* ---- implemented by comm (comm/object.c) ---- */

/* The last drop's work of a communicator (shl_comm_drop, inline in comm/comm.h: core's
 * shl_req_release calls it). */
void shl_comm_free_dropped(struct shl_comm *c);

/* Node process, main thread, before ranks run (core/init.c, shl_job_create): the shared
 * objects of MPI_COMM_WORLD and each local rank's MPI_COMM_SELF and object tables.
 * Returns 0 or -ENOMEM. */
int shl_comm_job_init(int size);

/* Owner thread, rank unlocked, in MPI_Finalize (core/init.c): delete MPI_COMM_SELF's
 * attributes, then MPI_COMM_WORLD's, then the rank's attributes on predefined types. */
void shl_comm_finalize(struct shl_rank *r);

/* ---- implemented by p2p (p2p/) ---- */

/* Owner, rank locked (shl_progress, every poll): take every message waiting for `r` (its
 * fastboxes, then its inbox), matching each with the oldest fitting posted receive or
 * keeping it as unexpected. Bounded by the messages already sent. p2p/match.c. */
void shl_p2p_progress(struct shl_rank *r);

/* Owner, rank locked (MPI_Start, MPI_Startall): start the inactive persistent send or
 * receive `req`. Returns 0, or -ENOBUFS (buffered send without room) or -ENOMEM, and then
 * `req` stays inactive. p2p/bindings.c. */
int shl_p2p_start(struct shl_rank *r, struct shl_req *req);

/* Rank unlocked: raise on `c`, for MPI function `fn`, the error of a send or receive that
 * could not start: `rc` -ENOBUFS (a buffered send of `bytes` without room in the attached
 * buffer, or with none attached) or -ENOMEM. Returns what the error handler returned.
 * p2p/bindings.c. */
int shl_p2p_start_error(const char *fn, struct shl_comm *c, int rc, size_t bytes);

/* Owner of send request `q` (the waits, each poll): if its receiver is copying it in
 * chunks, take some, so a sender blocked on a large message shares the copy.
 * p2p/split.c. */
void shl_p2p_help(struct shl_req *q);

/* Owner, rank locked (MPI_Cancel): try to cancel point-to-point request `req`; it
 * completes, cancelled or not. p2p/cancel.c. */
void shl_p2p_cancel(struct shl_rank *r, struct shl_req *req);

/* Owner, rank locked (MPI_Request_free): whether receive `q` is on `r`'s lists of posted
 * receives (not matched yet). p2p/cancel.c. */
bool shl_p2p_is_posted(struct shl_rank *r, const struct shl_req *q);

/* Owner, rank locked: the request kinds of p2p after SHL_REQ_DONE (core/rt.h): an
 * MPI_Isendrecv's pair (p2p/sendrecv.c), partitioned sends and receives (p2p/partition.c).
 * shl_p2p_ext_poll advances `q` (the waits and tests, each poll, and shl_req_reap) and sets
 * its `done` once it has completed; shl_p2p_ext_start starts inactive persistent `q`
 * (MPI_Start; 0 or -ENOMEM); shl_p2p_ext_cancel cancels it (MPI_Cancel: an MPI
 * error class, MPI_SUCCESS when it did what it could); shl_p2p_ext_free drops its `ext`
 * (shl_req_release). */
void shl_p2p_ext_poll(struct shl_rank *r, struct shl_req *q);
int shl_p2p_ext_start(struct shl_rank *r, struct shl_req *q);
int shl_p2p_ext_cancel(struct shl_rank *r, struct shl_req *q);
void shl_p2p_ext_free(struct shl_rank *r, struct shl_req *q);

/* Owner, rank locked (shl_req_reap): give back block `block` of the attached buffer, taken
 * by a buffered send whose receiver has copied it out. p2p/bsend.c. */
void shl_bsend_free(struct shl_rank *r, void *block);

/* ---- implemented by coll (coll/) ---- */

/* Owner thread, rank unlocked (MPI_Start): start the inactive persistent collective `req`
 * as the communicator's next collective. Returns 0 or MPI_ERR_NO_MEM (left inactive).
 * coll/call.c. */
int shl_coll_restart(struct shl_rank *r, struct shl_req *req);

/* Owner, when `req` (req->cargs set) is released (shl_req_release): drop its arguments and
 * their holds. coll/call.c. */
void shl_coll_persist_free(struct shl_req *req);

/* Owner thread: what the error in status `st` of a nonblocking collective (or creation
 * call) on `c` means for the user, in `buf` (MPI_Wait's report of a failed one). A
 * neighbourhood edge whose ends disagree (MPI_ERR_TRUNCATE or MPI_ERR_COUNT with MPI_SOURCE
 * set: coll/neighbor.c puts the sending rank there, the receiving one in MPI_TAG, their
 * bytes in shl_sent_bytes and shl_bytes) names both ranks. Returns `buf`. coll/call.c. */
const char *shl_coll_why_status(struct shl_comm *c, const MPI_Status *st, char *buf,
				size_t len);

/* Set once before ranks run when this node process is part of a job on several nodes:
 * shl_progress then calls shl_coll_net_progress. A flag, not a call, because every poll
 * asks. coll/net.c. */
extern bool shl_coll_net_on;

/* Owner, rank locked (shl_progress, when shl_coll_net_on): advance the network phases this
 * rank leads for its node. Returns at once when there is nothing to do. coll/net.c. */
void shl_coll_net_progress(struct shl_rank *r);

/* Owner thread, rank unlocked, in MPI_Finalize (core/init.c) once its own requests are
 * done: on a job of several nodes, wait until every rank of the job has come this far.
 * coll/net.c. */
void shl_coll_net_finalize(struct shl_rank *r);

/* ---- implemented by file (file/async.c) ----
 * Requests of kind SHL_REQ_FILE: nonblocking file operations, whose `ext` is file/'s record
 * of the operation; whoever does the operation (an I/O worker, a rank's collective I/O
 * thread) completes them. shl_file_req_cancel: owner, rank locked (MPI_Cancel): cancel `q`
 * if no thread has started its operation yet (it then completes cancelled), else nothing.
 * shl_file_req_drop: owner, rank locked (shl_req_release): give back `q`'s record.
 * shl_file_req_raise: owner thread, rank unlocked: raise on the file's error handler, for
 * `fn`, the error of a file request that completed with status `st` and whose `ext` was
 * `op` (read before the request was released: the record stays until the file closes when
 * its operation failed); `index` < 0: a single completion (the class in st->MPI_ERROR),
 * else MPI_ERR_IN_STATUS for array_of_requests[index]. Returns what the handler returned. */
void shl_file_req_cancel(struct shl_rank *r, struct shl_req *q);
void shl_file_req_drop(struct shl_rank *r, struct shl_req *q);
int shl_file_req_raise(const char *fn, void *op, int index, const MPI_Status *st);

#endif
