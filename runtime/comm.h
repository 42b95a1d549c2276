/* Communicators and error handlers as the runtime sees them: one object per rank per
 * communicator (what differs between ranks lives there), predefined handles as sentinels.
 * Entered by rank threads. Must not touch another rank's communicator objects. */
#ifndef SHL_RUNTIME_COMM_H
#define SHL_RUNTIME_COMM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mpi.h"

#define SHL_COMM_MAGIC 0x636f6d6du
#define SHL_ERRH_MAGIC 0x65727268u

/* Context ids of the predefined communicators. */
#define SHL_CTX_WORLD 0
#define SHL_CTX_SELF 1

struct shl_rank;

/* ---- error handlers ---- */
enum shl_errh_kind { SHL_ERRH_FATAL, SHL_ERRH_RETURN, SHL_ERRH_ABORT };

struct shl_errhandler {
	uint32_t magic;
	enum shl_errh_kind kind;
};

/* ---- communicators ---- */
enum shl_predef_comm { SHL_COMM_NOT_PREDEF = 0, SHL_COMM_IS_WORLD, SHL_COMM_IS_SELF };

/* One rank's view of a communicator: what differs between ranks (rank, error handler) is
 * here, so each rank has its own object. The predefined handles are sentinels that
 * shl_comm_get maps to the calling rank's own object. */
struct shl_comm {
	uint32_t magic;
	enum shl_predef_comm predef;
	uint32_t context;
	int rank;
	int size;
	const int *world;             /* comm rank -> world rank; NULL: identity */
	struct shl_errhandler *errh;
	const char *name;
};

static inline int shl_comm_world_rank(const struct shl_comm *c, int rank)
{
	return c->world ? c->world[rank] : rank;
}

#endif
