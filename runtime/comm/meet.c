/* The meeting: where the members of a communicator join one collective operation, or one
 * creation, by its number, and the last to arrive runs it for everyone. Members publish
 * their part (struct shl_arrival: buffers, arguments, where the result goes) and the last
 * arriver's run function reads and writes every member's memory (they share the address
 * space), then completes every member's request. Entered by rank threads (any member
 * joining; the last one runs), under MPI_THREAD_MULTIPLE several per rank. Never blocks
 * except in a waiting member's shl_wait; runs no function while holding the shared
 * object's lock. The collectives' paths that need no meeting (flags, rings) are coll/'s. */
#include <errno.h>
#include <stdlib.h>

#include "runtime/comm/internal.h"
#include "runtime/comm/hooks.h"

int shl_comm_meet(struct shl_comm_shared *sh, uint64_t key, int n, int member, shl_meet_fn *fn,
		  struct shl_arrival *a)
{
	struct shl_meeting **link, *m;
	bool last;

	a->err = MPI_SUCCESS;
	pthread_mutex_lock(&sh->lock);
	if (atomic_load_explicit(&sh->broken, memory_order_relaxed) && !(key >> 63)) {
		/* Its members' collectives are out of step (shl_coll_check): fail at once. */
		pthread_mutex_unlock(&sh->lock);
		a->err = MPI_ERR_NOT_SAME;
		if (a->heap && a->drop != NULL)
			a->drop(a);
		a->req->status.MPI_ERROR = MPI_ERR_NOT_SAME;
		struct shl_req *q = a->req;
		if (a->heap)
			free(a);
		shl_req_complete(q);
		return 0;
	}
	for (link = &sh->meetings; (m = *link) != NULL; link = &m->next)
		if (m->key == key)
			break;
	if (m == NULL) {
		m = calloc(1, sizeof(*m) + (size_t)n * sizeof(m->arrival[0]));
		if (m == NULL) {
			pthread_mutex_unlock(&sh->lock);
			return -ENOMEM;
		}
		*m = (struct shl_meeting){ .key = key, .fn = fn, .n = n, .sh = sh,
					   .next = sh->meetings };
		sh->meetings = m;
		link = &sh->meetings;
	}
	/* Different operations, sizes or a member twice: the calls do not match. */
	if (m->fn != fn || m->n != n || member < 0 || member >= m->n || m->arrival[member]) {
		m->mismatch = true;
		for (member = 0; member < m->n && m->arrival[member] != NULL; member++)
			;
	}
	m->arrival[member] = a;
	last = ++m->arrived == m->n;
	if (last)
		*link = m->next;
	pthread_mutex_unlock(&sh->lock);
	if (!last)
		return 0;
	/* Everyone's contribution was published before their unlock of sh->lock. */
	if (m->mismatch)
		for (int i = 0; i < m->n; i++)
			m->arrival[i]->err = MPI_ERR_NOT_SAME;
	else
		m->fn(m);
	shl_coll_share_run(m);
	for (int i = 0; i < m->n; i++) {
		struct shl_arrival *x = m->arrival[i];
		struct shl_req *q = x->req;
		bool heap = x->heap;
		if (heap && x->drop != NULL)
			x->drop(x);
		if (x->err != MPI_SUCCESS)
			q->status.MPI_ERROR = x->err;
		/* The member may return (and its arrival vanish) once this completes. */
		shl_req_complete(q);
		if (heap)
			free(x);
	}
	free(m);
	return 0;
}

int shl_comm_meet_wait(struct shl_rank *r, struct shl_comm_shared *sh, uint64_t key, int n,
		       int member, shl_meet_fn *fn, const void *in, void *out)
{
	struct shl_req q = { .magic = SHL_REQ_MAGIC, .kind = SHL_REQ_DONE, .owner = r };
	struct shl_arrival a = { .req = &q, .in = in, .out = out };

	if (shl_comm_meet(sh, key, n, member, fn, &a) < 0)
		return MPI_ERR_NO_MEM;
	shl_rank_lock(r);
	shl_wait(r, shl_req_done, &q);
	shl_rank_unlock(r);
	return a.err;
}

int shl_comm_meet_all(struct shl_rank *r, struct shl_comm *c, const char *name, shl_meet_fn *fn,
		      const void *in, void *out)
{
	struct shl_req q = { .magic = SHL_REQ_MAGIC, .kind = SHL_REQ_DONE, .owner = r };
	struct shl_arrival a = { .req = &q, .in = in, .out = out };
	uint64_t k = shl_coll_next(c, name, SHL_COLL_MEET);

	if (shl_comm_meet(c->sh, k, c->sh->nmembers, c->member, fn, &a) < 0)
		return MPI_ERR_NO_MEM;
	shl_coll_wait_checked(r, c, k, &q);
	return a.err;
}
