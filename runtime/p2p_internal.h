/* Point-to-point internals shared by p2p.c, request.c and progress.c.
 * Every function here runs in the owning rank's thread with the rank locked. */
#ifndef SHL_RUNTIME_P2P_INTERNAL_H
#define SHL_RUNTIME_P2P_INTERNAL_H

#include "runtime/rt.h"

/* An envelope has arrived in `r`'s inbox: match it with the oldest fitting posted receive
 * or keep it as unexpected. */
void shl_p2p_arrive(struct shl_rank *r, struct shl_envelope *env);

/* The status of a receive from MPI_PROC_NULL, and of a request with nothing to report. */
void shl_status_empty(MPI_Status *status, int source);

#endif
