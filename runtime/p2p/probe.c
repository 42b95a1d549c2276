/* Probes and matched probes: MPI_Probe, MPI_Iprobe, MPI_Mprobe, MPI_Improbe, and the
 * receives of a matched message, MPI_Mrecv and MPI_Imrecv. A probe looks at the unexpected
 * messages (after progress); a matched probe takes the message off them onto the rank's
 * list of matched messages (`matched`: the valid MPI_Message handles), from which a
 * matched receive delivers it. Entered by rank threads, which take the rank lock around
 * every use of the rank's lists. Never blocks except in shl_wait; must not match a message
 * that a receive posted before could take. Also a message handle as a Fortran integer
 * (MPI_Message_c2f/f2c, through one process-wide table under its own lock). */
#include <pthread.h>
#include <stdlib.h>

#include "runtime/core/rt.h"
#include "runtime/core/check.h"
#include "runtime/p2p/check.h"
#include "runtime/p2p/internal.h"
#include "runtime/p2p/match.h"

/* MPI_MESSAGE_NO_PROC: the message a matched probe of MPI_PROC_NULL returns; never queued. */
SHL_API struct shl_envelope shl_mpi_message_no_proc;

struct probe {
	struct shl_rank *r;
	struct shl_comm *c;
	int source, tag;
	bool take;
	struct shl_envelope *env;
};

/* A wait's predicate, so it may be asked again after it said yes (sleep_once looks once
 * more before sleeping, then shl_poll looks again): a matched probe must keep the message
 * it took, not take the next one too and lose the first. */
static bool found_unexpected(void *arg)
{
	struct probe *p = arg;

	if (p->env == NULL)
		p->env = find_unexpected(p->r, p->c, p->source, p->tag, p->take);
	return p->env != NULL;
}

static void probe_status(MPI_Status *status, const struct shl_envelope *env)
{
	if (status == MPI_STATUS_IGNORE)
		return;
	status->MPI_SOURCE = env->src;
	status->MPI_TAG = env->tag;
	status->shl_cancelled = 0;
	status->shl_bytes = (MPI_Count)env->bytes;
}

/* Probe for (source, tag) on `comm`; blocking unless `flag` is given. With `message`,
 * the message is taken (matched probe). */
static int probe(const char *fn, int source, int tag, MPI_Comm comm, int *flag,
		 MPI_Message *message, MPI_Status *status)
{
	struct shl_rank *r = shl_rank_or_die(fn);
	struct probe p = { .r = r, .source = source, .tag = tag, .take = message != NULL };
	int err = shl_check_comm(fn, r, comm, &p.c);

	if (err == MPI_SUCCESS)
		err = check_source(fn, "", p.c, source, tag);
	if (err != MPI_SUCCESS)
		return err;
	if (source == MPI_PROC_NULL) {
		/* Source MPI_PROC_NULL, tag MPI_ANY_TAG, count 0; MPI_ERROR is left as it
		 * was, as a probe that finds a message leaves it (MPI 4.1, 3.8 and 3.11). */
		MPI_Status st;
		if (flag != NULL)
			*flag = 1;
		if (message != NULL)
			*message = MPI_MESSAGE_NO_PROC;
		shl_status_empty(&st, MPI_PROC_NULL);
		shl_status_out(status, &st);
		return MPI_SUCCESS;
	}
	shl_rank_lock(r);
	if (flag != NULL) {
		shl_progress(r);
		found_unexpected(&p);
	} else {
		shl_wait(r, found_unexpected, &p);
	}
	if (p.env != NULL && message != NULL) {
		p.env->probed_on = p.c;  /* where MPI_Mrecv raises its errors */
		p.env->next = r->matched;
		r->matched = p.env;
	}
	shl_rank_unlock(r);
	if (flag != NULL)
		*flag = p.env != NULL;
	if (p.env == NULL) {
		shl_poll_missed();
		return MPI_SUCCESS;
	}
	probe_status(status, p.env);
	if (message != NULL)
		*message = p.env;
	return MPI_SUCCESS;
}

/* Output argument `what` of probe call `fn` on `comm` is NULL: MPI_ERR_ARG, raised on
 * `comm` (whose handler the caller set) once it is known to be valid. */
static int probe_null(const char *fn, MPI_Comm comm, const char *what)
{
	struct shl_comm *c;
	int err = shl_check_comm(fn, shl_rank_or_die(fn), comm, &c);

	return err != MPI_SUCCESS ? err : shl_err(c, MPI_ERR_ARG, fn, "%s is NULL", what);
}

int PMPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
	return probe("MPI_Probe", source, tag, comm, NULL, NULL, status);
}
SHL_WEAK_ALIAS(Probe);

int PMPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
	if (flag == NULL)
		return probe_null("MPI_Iprobe", comm, "flag");
	return probe("MPI_Iprobe", source, tag, comm, flag, NULL, status);
}
SHL_WEAK_ALIAS(Iprobe);

int PMPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status)
{
	if (message == NULL)
		return probe_null("MPI_Mprobe", comm, "message");
	return probe("MPI_Mprobe", source, tag, comm, NULL, message, status);
}
SHL_WEAK_ALIAS(Mprobe);

int PMPI_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message,
		 MPI_Status *status)
{
	if (flag == NULL || message == NULL)
		return probe_null("MPI_Improbe", comm, flag == NULL ? "flag" : "message");
	return probe("MPI_Improbe", source, tag, comm, flag, message, status);
}
SHL_WEAK_ALIAS(Improbe);

/* Where `env` is linked on `r`'s messages taken by matched probes, or NULL if it is not
 * one of them: a stale, foreign or garbage handle, never read. Rank locked. */
static struct shl_envelope **matched_link(struct shl_rank *r, const struct shl_envelope *env)
{
	struct shl_envelope **link = &r->matched;

	while (*link != NULL && *link != env)
		link = &(*link)->next;
	return *link != NULL ? link : NULL;
}

/* ---- MPI_Message_c2f and MPI_Message_f2c ----
 * A message's envelope lives in a rank's pool, not in the handle arena, so its integer is
 * its place in this process-wide table (plus 1): 0 is MPI_MESSAGE_NULL, -1
 * MPI_MESSAGE_NO_PROC. An envelope keeps its place for the life of the process (a pool's
 * envelopes are reused, so the table holds at most one entry per envelope ever converted).
 * MPI_Message_f2c gives back a message only while it is one of the calling rank's matched
 * messages; otherwise MPI_MESSAGE_NULL. */
static struct {
	pthread_mutex_t lock;         /* guards every field */
	const struct shl_envelope **env;
	int n, cap;
} messages = { .lock = PTHREAD_MUTEX_INITIALIZER };

#define NO_PROC_INT (-1)

MPI_Fint PMPI_Message_c2f(MPI_Message message)
{
	int i;

	if (message == MPI_MESSAGE_NULL)
		return 0;
	if (message == MPI_MESSAGE_NO_PROC)
		return NO_PROC_INT;
	pthread_mutex_lock(&messages.lock);
	for (i = 0; i < messages.n && messages.env[i] != message; i++)
		;
	if (i == messages.n) {
		if (messages.n == messages.cap) {
			int cap = messages.cap ? 2 * messages.cap : 64;
			const struct shl_envelope **grown =
				realloc(messages.env, (size_t)cap * sizeof(*grown));
			if (grown == NULL) {
				pthread_mutex_unlock(&messages.lock);
				return 0;
			}
			messages.env = grown;
			messages.cap = cap;
		}
		messages.env[messages.n++] = message;
	}
	pthread_mutex_unlock(&messages.lock);
	return i + 1;
}
SHL_WEAK_ALIAS(Message_c2f);

MPI_Message PMPI_Message_f2c(MPI_Fint message)
{
	struct shl_rank *r = shl_self;
	const struct shl_envelope *env = NULL;

	if (message == NO_PROC_INT)
		return MPI_MESSAGE_NO_PROC;
	if (message <= 0 || r == NULL)
		return MPI_MESSAGE_NULL;
	pthread_mutex_lock(&messages.lock);
	if (message <= messages.n)
		env = messages.env[message - 1];
	pthread_mutex_unlock(&messages.lock);
	if (env == NULL)
		return MPI_MESSAGE_NULL;
	shl_rank_lock(r);
	bool mine = matched_link(r, env) != NULL;
	shl_rank_unlock(r);
	return mine ? (MPI_Message)env : MPI_MESSAGE_NULL;
}
SHL_WEAK_ALIAS(Message_f2c);

static int not_matched(const char *fn)
{
	return shl_err(NULL, MPI_ERR_REQUEST, fn, "message is not one that a matched probe of "
		       "this rank took and no receive took since (received already?)");
}

/* Receive matched message *message into `q` (filled but not started). */
static int matched_recv(const char *fn, struct shl_rank *r, void *buf, MPI_Count count,
			MPI_Datatype type, MPI_Message *message, struct shl_req *q)
{
	struct shl_envelope **link = NULL;
	int err;

	if (message == NULL)
		return shl_err(NULL, MPI_ERR_ARG, fn, "message is NULL");
	if (*message == MPI_MESSAGE_NULL)
		return shl_err(NULL, MPI_ERR_REQUEST, fn, "message is MPI_MESSAGE_NULL");
	if (*message != MPI_MESSAGE_NO_PROC) {
		shl_rank_lock(r);
		link = matched_link(r, *message);
		shl_rank_unlock(r);
		if (link == NULL)
			return not_matched(fn);
	}
	/* Errors go to the communicator the message was probed on; MPI_MESSAGE_NO_PROC
	 * has none, so MPI_COMM_SELF (MPI 4.1, 9.3). */
	struct shl_comm *c = *message == MPI_MESSAGE_NO_PROC ? &r->self : (*message)->probed_on;
	err = shl_check_buffer(c, fn, "", buf, count, type);
	if (err == MPI_SUCCESS)
		err = shl_check_layout(c, fn, "", count, type);
	if (err != MPI_SUCCESS)
		return err;
	shl_p2p_fill(q, c, buf, count, type, MPI_ANY_SOURCE, MPI_ANY_TAG, SHL_MODE_STANDARD);
	if (*message == MPI_MESSAGE_NO_PROC) {
		shl_status_empty(&q->status, MPI_PROC_NULL);
		shl_req_complete(q);
	} else {
		shl_rank_lock(r);
		link = matched_link(r, *message);  /* again: another thread may have taken it */
		if (link != NULL) {
			*link = (*message)->next;
			deliver(r, q, *message);
		}
		shl_rank_unlock(r);
		if (link == NULL)
			return not_matched(fn);
	}
	*message = MPI_MESSAGE_NULL;
	return MPI_SUCCESS;
}

static int mrecv(const char *fn, void *buf, MPI_Count count, MPI_Datatype datatype,
		 MPI_Message *message, MPI_Status *status)
{
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_req q;
	int err;

	shl_req_init(&q, r, SHL_REQ_RECV);
	err = matched_recv(fn, r, buf, count, datatype, message, &q);

	if (err != MPI_SUCCESS)
		return err;
	shl_status_out(status, &q.status);
	if (q.status.MPI_ERROR == MPI_ERR_TRUNCATE)
		return shl_p2p_truncated(fn, q.comm, &q.status, count, datatype);
	return MPI_SUCCESS;
}

int PMPI_Mrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
	       MPI_Status *status)
{
	return mrecv("MPI_Mrecv", buf, count, datatype, message, status);
}
SHL_WEAK_ALIAS(Mrecv);

int PMPI_Mrecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message,
		 MPI_Status *status)
{
	return mrecv("MPI_Mrecv_c", buf, count, datatype, message, status);
}
SHL_WEAK_ALIAS(Mrecv_c);

static int imrecv(const char *fn, void *buf, MPI_Count count, MPI_Datatype datatype,
		  MPI_Message *message, MPI_Request *request)
{
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_req *q;
	int err;

	if (request == NULL)
		return shl_err(NULL, MPI_ERR_REQUEST, fn, "request is NULL");
	shl_rank_lock(r);
	q = shl_req_new(r, SHL_REQ_RECV);
	shl_rank_unlock(r);
	if (q == NULL)
		return shl_err(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
	err = matched_recv(fn, r, buf, count, datatype, message, q);
	if (err != MPI_SUCCESS) {
		shl_rank_lock(r);
		shl_req_release(r, q);
		shl_rank_unlock(r);
		return err;
	}
	shl_dt_hold(q->type);  /* balances the release in shl_req_release */
	*request = q;
	return MPI_SUCCESS;
}

int PMPI_Imrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
		MPI_Request *request)
{
	return imrecv("MPI_Imrecv", buf, count, datatype, message, request);
}
SHL_WEAK_ALIAS(Imrecv);

int PMPI_Imrecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message,
		  MPI_Request *request)
{
	return imrecv("MPI_Imrecv_c", buf, count, datatype, message, request);
}
SHL_WEAK_ALIAS(Imrecv_c);
