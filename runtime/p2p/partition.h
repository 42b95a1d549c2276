/* Partitioned communication's entry points for the dispatch of core's hooks on p2p's
 * request kinds (p2p/sendrecv.c): the poll, start and release of a request of kind
 * SHL_REQ_PSEND or SHL_REQ_PRECV (p2p/partition.c). Owner, rank locked. */
#ifndef SHL_RUNTIME_P2P_PARTITION_H
#define SHL_RUNTIME_P2P_PARTITION_H

#include "runtime/core/rt.h"

/* Advance `q`: nothing is left to do on the node, where whoever copies a partition
 * completes the requests. */
void shl_p2p_part_poll(struct shl_rank *r, struct shl_req *q);
/* MPI_Start: begin the next epoch of `q`. Returns 0. */
int shl_p2p_part_start(struct shl_rank *r, struct shl_req *q);
/* The request is released: let go of its side of the channel. */
void shl_p2p_part_free(struct shl_rank *r, struct shl_req *q);

#endif
