/* Sessions as the runtime sees them (MPI 4.1, 11.3): the session object, how its errors
 * are raised, and what session.c and create.c share. The highest layer of the runtime: it
 * builds on groups and communicators (comm/), buffers (p2p/bsend.c) and communicator
 * creation across nodes (coll/net_create.c), and nothing below calls it. Entered by rank
 * threads; a session is its creating rank's, used by that rank's threads only. */
#ifndef SHL_RUNTIME_SESSION_H
#define SHL_RUNTIME_SESSION_H

#include "runtime/core/rt.h"
#include "runtime/comm/hooks.h"
#include "runtime/p2p/bsend.h"

#define SHL_SESSION_MAGIC 0x73657373u

struct shl_session {
	uint32_t magic;
	struct shl_rank *owner;
	struct shl_errhandler *errh;  /* held; the errhandler of MPI_Session_init, or set */
	MPI_Info info;                /* MPI_Session_get_info's: the hints given, and the
				       * rank's level as "thread_level" and
				       * "mpi_thread_support_level" */
	/* The buffer of MPI_Session_attach_buffer (empty: none). A communicator made from the
	 * session's groups points at it (struct shl_comm bsend_session) and may outlive the
	 * session (MPI 4.1, 11.3.1: finalizing frees no object), so it is never freed: an
	 * ended session's holder stays empty. */
	struct shl_bsend_buffer *bsend;
};

/* The rank's session for handle `h`, or NULL if `h` is not a live session of this rank. */
static inline struct shl_session *shl_session_get(struct shl_rank *r, MPI_Session h)
{
	if (!shl_handle_mapped(h, sizeof(*h)) || h->magic != SHL_SESSION_MAGIC || h->owner != r)
		return NULL;
	return h;
}

/* Raise error `errclass` of `fn` on session `s` through its handler (NULL: no session,
 * the handler of MPI_COMM_SELF). The message names the function, the rank and `fmt`'s
 * text. Returns what the handler lets the call return. (session.c) */
int shl_session_err(struct shl_session *s, int errclass, const char *fn, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* The calling rank, in MPI through the world model or a session, and *s the live session
 * for `h`, or the error MPI_ERR_SESSION raised (on no session). (session.c) */
int shl_session_arg(const char *fn, MPI_Session h, struct shl_rank **r, struct shl_session **s);

#endif
