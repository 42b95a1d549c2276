/* Point-to-point internals shared by p2p.c, request.c and progress.c.
 * Every function here runs in the owning rank's thread with the rank locked. */
#ifndef SHL_RUNTIME_P2P_INTERNAL_H
#define SHL_RUNTIME_P2P_INTERNAL_H

#include "runtime/rt.h"

/* Take every message waiting for `r` (its fastboxes, then its inbox), matching each with
 * the oldest fitting posted receive or keeping it as unexpected. Bounded by the messages
 * already sent. */
void shl_p2p_progress(struct shl_rank *r);

/* The status of a receive from MPI_PROC_NULL, and of a request with nothing to report. */
void shl_status_empty(MPI_Status *status, int source);

#endif
