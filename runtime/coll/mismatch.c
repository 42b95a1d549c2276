/* Finding collective calls that do not match across paths that cannot see each other (the
 * meeting, the flag barrier, the rings), and describing them. Entered by rank threads that
 * have been blocked in a collective for a while, and by error reporting. Must not run on a
 * fast path: it reads every member's history line.
 *
 * Each member notes what it calls at collective number k in its own row of the
 * communicator's history (shl_coll_next). A member blocked in call k for
 * SHL_COLL_CHECK_NS looks at every member's entry for k: one that took another path means
 * neither call can complete (a Barrier waits for a counter a Bcast never adds to), and the
 * paths' own counters are out of step for good. The first member to see it records both
 * calls and marks the communicator broken; every meeting still waiting for members fails,
 * every member is woken, and every later collective on it fails at entry, naming the two
 * calls. Same-path mismatches are each path's own business (the meeting compares run
 * functions, the rings compare roots, ops and sizes) and leave the communicator usable. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/coll/internal.h"

static uint64_t entry_at(const struct shl_comm_shared *sh, int member, uint64_t k)
{
	return atomic_load_explicit(&sh->hist[(size_t)member * SHL_COLL_HIST + k % SHL_COLL_HIST],
				    memory_order_relaxed);
}

static bool entry_is(uint64_t e, uint64_t k)
{
	return e != 0 && e >> 49 == (k & 0x7fff);
}

static int entry_path(uint64_t e)
{
	return (int)(e >> 47 & 3);
}

static const char *entry_fn(uint64_t e)
{
	return (const char *)(uintptr_t)(e & ((UINT64_C(1) << 47) - 1));
}

/* Fail every numbered meeting still waiting for members: nobody else will join them now that
 * every collective on the communicator fails at entry. Caller holds sh->lock. */
static void fail_meetings(struct shl_comm_shared *sh)
{
	struct shl_meeting *m;

	for (struct shl_meeting **link = &sh->meetings; (m = *link) != NULL;) {
		if (m->key >> 63) {
			link = &m->next;  /* MPI_Comm_create_group's rendezvous: not numbered */
			continue;
		}
		*link = m->next;
		for (int i = 0; i < m->n; i++) {
			struct shl_arrival *x = m->arrival[i];
			if (x == NULL)
				continue;
			struct shl_req *q = x->req;
			bool heap = x->heap;
			x->err = MPI_ERR_NOT_SAME;
			if (heap && x->drop != NULL)
				x->drop(x);
			q->status.MPI_ERROR = MPI_ERR_NOT_SAME;
			shl_req_complete(q);  /* the member may return now: `x` may vanish */
			if (heap)
				free(x);
		}
		free(m);
	}
}

/* theirs: other's entry for k, or 0 (unknown); their_k: stray data's number, or 0. */
static void mark_broken(struct shl_comm *c, uint64_t k, uint64_t mine, int other, uint64_t theirs,
			uint64_t their_k)
{
	struct shl_comm_shared *sh = c->sh;

	pthread_mutex_lock(&sh->lock);
	if (!atomic_load_explicit(&sh->broken, memory_order_relaxed)) {
		sh->bad = (struct shl_coll_bad){ .k = k, .member = { c->member, other },
						 .fn = { entry_fn(mine), theirs ? entry_fn(theirs)
										: NULL },
						 .their_k = their_k };
		/* Release: pairs with the acquire in shl_coll_check and shl_coll_describe. */
		atomic_store_explicit(&sh->broken, true, memory_order_release);
		fail_meetings(sh);
	}
	pthread_mutex_unlock(&sh->lock);
	/* Wake every member: those blocked on a flag or a ring look again (shl_wait_once). */
	for (int i = 0; i < sh->nmembers; i++)
		if (i != c->member)
			shl_rank_wake(shl_job.ranks[sh->world[i]]);
}

int shl_coll_check(struct shl_comm *c, uint64_t k)
{
	struct shl_comm_shared *sh = c->sh;
	uint64_t mine = entry_at(sh, c->member, k);

	if (atomic_load_explicit(&sh->broken, memory_order_acquire))
		return MPI_ERR_NOT_SAME;
	if (!entry_is(mine, k))
		return 0;  /* not our own entry: ran SHL_COLL_HIST calls ahead (cannot be) */
	for (int j = 0; j < sh->nmembers; j++) {
		uint64_t e = entry_at(sh, j, k);
		if (j == c->member || !entry_is(e, k) || entry_path(e) == entry_path(mine))
			continue;
		mark_broken(c, k, mine, j, e, 0);
		return MPI_ERR_NOT_SAME;
	}
	return 0;
}

int shl_coll_stray(struct shl_comm *c, uint64_t k, int other, uint32_t their)
{
	struct shl_comm_shared *sh = c->sh;
	/* Their full number: the one nearest k with those low bits. */
	uint64_t tk = (k & ~(uint64_t)UINT32_MAX) | their;

	if (tk > k)
		tk -= UINT64_C(1) << 32;
	uint64_t e = entry_at(sh, other, k);
	mark_broken(c, k, entry_at(sh, c->member, k), other, entry_is(e, k) ? e : 0, tk);
	return MPI_ERR_NOT_SAME;
}

/* "rank 3" on an intracommunicator, "rank 3 of the second group" on an intercommunicator. */
static void name_member(const struct shl_comm_shared *sh, int i, char *buf, size_t len)
{
	if (!sh->inter)
		snprintf(buf, len, "rank %d", i);
	else
		snprintf(buf, len, "rank %d of the %s group", shl_coll_lrank(sh, i),
			 shl_coll_side(sh, i) ? "second" : "first");
}

/* The name of a call without its large-count suffix: MPI_Bcast_c matches MPI_Bcast. */
static size_t stem(const char *fn)
{
	size_t n = strlen(fn);

	return n > 2 && strcmp(fn + n - 2, "_c") == 0 ? n - 2 : n;
}

bool shl_coll_describe(struct shl_comm *c, char *buf, size_t len)
{
	struct shl_comm_shared *sh = c->sh;
	char a[48], b[48];
	struct shl_coll_bad bad;

	if (atomic_load_explicit(&sh->broken, memory_order_acquire)) {
		bad = sh->bad;  /* fixed once `broken` is set */
		name_member(sh, bad.member[0], a, sizeof(a));
		name_member(sh, bad.member[1], b, sizeof(b));
		if (bad.their_k != 0) {
			char at[80] = "";
			if (bad.fn[1] != NULL)
				snprintf(at, sizeof(at), ", and its number %llu was %s",
					 (unsigned long long)bad.k, bad.fn[1]);
			snprintf(buf, len,
				 "%s's %s (collective number %llu) got the data of %s's collective "
				 "number %llu%s: an earlier collective did not match, so the members' "
				 "calls are out of step and no further collective can run", a,
				 bad.fn[0], (unsigned long long)bad.k, b,
				 (unsigned long long)bad.their_k, at);
			return true;
		}
		bool same = stem(bad.fn[0]) == stem(bad.fn[1]) &&
			    strncmp(bad.fn[0], bad.fn[1], stem(bad.fn[0])) == 0;
		snprintf(buf, len,
			 "%s called %s while %s called %s (collective number %llu)%s: the two "
			 "cannot meet, so no further collective can run", a, bad.fn[0], b,
			 bad.fn[1], (unsigned long long)bad.k,
			 same ? " with a message size on the other side of SHOAL_COLL_SMALL_MAX "
				"(their counts or datatypes differ)" : "");
		return true;
	}
	/* A same-path mismatch of the rank's last collective: name a member that called
	 * something else, if the history still shows it. */
	uint64_t k = c->seq, mine = entry_at(sh, c->member, k);
	if (k == 0 || !entry_is(mine, k))
		return false;
	for (int j = 0; j < sh->nmembers; j++) {
		uint64_t e = entry_at(sh, j, k);
		const char *f = entry_fn(e), *g = entry_fn(mine);
		if (j == c->member || !entry_is(e, k) ||
		    (stem(f) == stem(g) && strncmp(f, g, stem(f)) == 0))
			continue;
		name_member(sh, c->member, a, sizeof(a));
		name_member(sh, j, b, sizeof(b));
		snprintf(buf, len, "%s called %s while %s called %s (collective number %llu)", a,
			 g, b, f, (unsigned long long)k);
		return true;
	}
	return false;
}

int shl_coll_usable(struct shl_comm *c, const char *fn)
{
	char why[400];

	if (!atomic_load_explicit(&c->sh->broken, memory_order_relaxed))
		return MPI_SUCCESS;
	shl_coll_describe(c, why, sizeof(why));
	return shl_err(c, MPI_ERR_NOT_SAME, fn, "%s", why);
}
