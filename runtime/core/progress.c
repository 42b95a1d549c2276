/* Progress and waiting: draining inboxes into matches, completing requests, spin-then-sleep
 * on the rank's futex word (or spin-then-park: core/fiber.h). Entered by the rank's own threads
 * (progress, wait) and by any thread (wake, complete). Never sleeps with the rank locked. */
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <linux/membarrier.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sched.h>
#include <time.h>
#include <unistd.h>

#include "runtime/core/rt.h"
#include "runtime/core/fiber.h"
#include "io/mesh.h"

/* `timeout` (FUTEX_WAIT only; NULL: none) bounds the wait. */
static long futex(_Atomic uint32_t *word, int op, uint32_t val, const struct timespec *timeout)
{
	return syscall(SYS_futex, (uint32_t *)word, op, val, timeout, NULL, 0);
}

int shl_wait_register_fences(void)
{
	if (syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) < 0)
		return -errno;
	return 0;
}

/* A full barrier in every running thread of the process (about 2.5 µs on the 2-core VM:
 * one IPI), standing in for the barrier fastbox senders leave out. */
static void fence_everyone(void)
{
	if (syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) < 0)
		shl_panic("shl_wait", errno, "membarrier failed");
}

void shl_rank_wake_sleepers(struct shl_rank *r)
{
	/* A rank queued to run takes its last look for events after this one (sleep_once)
	 * before it can park again: its wake word need not move, and the line stays shared
	 * among the many senders of a busy receiver. Only while no other thread of the rank
	 * may sleep on the futex (not mt). */
	if (r->fiber != NULL && !r->mt && shl_fiber_queued(r->fiber))
		return;
	atomic_fetch_add(&r->wake_seq, 1);
	if (r->fiber)
		shl_fiber_wake(r->fiber);
	/* After the bump: a thread counted in later sees it in its futex word. */
	if (atomic_load(&r->futex_sleepers) > 0)
		futex(&r->wake_seq, FUTEX_WAKE_PRIVATE, INT_MAX, NULL);
}

void shl_req_complete(struct shl_req *req)
{
	/* Read the owner first: once `done` is set the owner may recycle the request. */
	struct shl_rank *owner = req->owner;

	atomic_exchange(&req->done, 1);  /* seq_cst RMW: see shl_rank_wake */
	shl_rank_wake(owner);
}

void shl_progress(struct shl_rank *r)
{
	shl_p2p_progress(r);
	if (unlikely(shl_coll_net_on))
		shl_coll_net_progress(r);
	if (r->detached != NULL)
		shl_req_reap(r);
}

void shl_poll_missed(void)
{
	struct shl_fiber *f = shl_fiber_self;

	if (f != NULL)
		shl_fiber_yield(f);
}

bool shl_poll(struct shl_rank *r, bool (*done)(void *arg), void *arg)
{
	struct shl_spin spin = { 0, 0 };
	bool net = false;   /* reading the node's connections (shl_io_poll) */
	bool ok = false;

	for (unsigned polls = 1;; polls++) {
		shl_progress(r);
		if (done(arg)) {
			ok = true;
			break;
		}
		/* Before the core is handed over: an answer due in microseconds should find
		 * the connections read by us, not by a completion thread woken for it. */
		if (shl_job.poll_net && shl_io_poll(&net)) {
			shl_progress(r);
			if (done(arg)) {
				ok = true;
				break;
			}
		}
		if (shl_job.spin_ns == 0) {
			/* Ranks outnumber cores: rather than spin, hand the core over. */
			if (polls > shl_job.yields)
				break;
			shl_rank_unlock(r);
			if (shl_fiber_self != NULL)
				shl_fiber_yield(shl_fiber_self);
			else
				sched_yield();
			shl_rank_lock(r);
		} else {
			if (!shl_spin_on(&spin))
				break;
			if (r->mt) {
				/* Let the rank's other threads in between polls. */
				shl_rank_unlock(r);
				__builtin_ia32_pause();
				shl_rank_lock(r);
			} else if (shl_job.spin_yield) {
				sched_yield();
			} else {
				shl_spin_relax(&spin);
			}
		}
	}
	if (net)
		shl_io_poll_end();
	return ok;
}

/* Whether the calling thread lost its core to another thread or process (an involuntary
 * context switch) since its previous call: its core is shared with work beside the job. */
static bool core_shared(void)
{
	static _Thread_local long seen;
	struct rusage u;
	bool shared;

	if (getrusage(RUSAGE_THREAD, &u) < 0)
		return false;
	shared = u.ru_nivcsw != seen;
	seen = u.ru_nivcsw;
	return shared;
}

uint64_t shl_spin_longer(uint64_t now)
{
	struct shl_rank *r = shl_self;
	uint64_t spin = shl_spin_ns(r);

	if (core_shared()) {
		atomic_store_explicit(&r->spin_ns, shl_job.spin_ns, memory_order_relaxed);
		return 0;
	}
	return (now + (spin > shl_job.spin_ns ? spin - shl_job.spin_ns : 0) + 2) & ~(uint64_t)1;
}

/* After a sleep of `slept` ns that an event ended. On a core of its own, a wait (spin and
 * sleep) that a spin of at most SHL_WAIT_SPIN_MAX_US (rt.h) would have covered means the
 * partner answered within a few of the scheduler's slices (it had lost its core to work
 * beside the job), and the spin time doubles until it covers such a wait. On a core shared
 * with other work the spin time goes back to SHOAL_SPIN_US: a rank that sleeps leaves its
 * share of the core unspent, and the scheduler lets it run first when the answer wakes
 * it; so does a sleep 16 times longer than the spin time. Only the rank's threads write it. */
static void adapt_spin(struct shl_rank *r, uint64_t slept)
{
	uint64_t spin = shl_spin_ns(r), waited = spin + slept;
	bool alone = !core_shared();

	if (alone && waited <= shl_job.spin_max_ns) {
		while (spin < waited)
			spin *= 2;
		if (spin > shl_job.spin_max_ns)
			spin = shl_job.spin_max_ns;
	} else if (!alone || slept > 16 * spin) {
		spin = shl_job.spin_ns;
	}
	atomic_store_explicit(&r->spin_ns, spin, memory_order_relaxed);
}

static void sleep_on_futex(struct shl_rank *r, uint32_t seq, uint64_t ns)
{
	struct timespec limit = { (time_t)(ns / 1000000000u), (long)(ns % 1000000000u) };
	uint64_t start = shl_job.spin_ns != 0 ? shl_mono_ns() : 0;
	long rc;

	atomic_fetch_add(&r->futex_sleepers, 1);  /* seq_cst: see shl_rank_wake */
	rc = futex(&r->wake_seq, FUTEX_WAIT_PRIVATE, seq, ns ? &limit : NULL);
	if (rc < 0 && errno != EAGAIN && errno != EINTR && errno != ETIMEDOUT)
		shl_panic("shl_wait", errno, "futex wait failed");
	atomic_fetch_sub(&r->futex_sleepers, 1);
	if (start != 0 && rc == 0)
		adapt_spin(r, shl_mono_ns() - start);
}

/* Sleep once on the rank's futex, or park the rank's fiber, unless `done` or an arrival
 * shows up first; `ns` (0: none) bounds the sleep. */
static void sleep_once(struct shl_rank *r, bool (*done)(void *arg), void *arg, uint64_t ns)
{
	uint32_t seq = atomic_load(&r->wake_seq);
	/* Pairs with shl_rank_wake: after this increment either we see the waker's
	 * event below, or the waker sees us and bumps wake_seq past `seq`. The last
	 * look must cover every event a waker announces: arrivals (the inbox) and
	 * completions, including those only progress turns into progress of `done`
	 * (a detached request's completion frees a buffered-send block). */
	atomic_fetch_add(&r->sleepers, 1);
	/* A fastbox sender that published without a barrier (sleeper_fences) and
	 * then read sleepers as 0 is ordered by this one: we see its cell. */
	if (shl_job.sleeper_fences)
		fence_everyone();
	shl_progress(r);
	if (shl_inbox_empty(&r->inbox) && !done(arg)) {
		shl_rank_unlock(r);
		if (shl_fiber_self != NULL)
			shl_fiber_park(shl_fiber_self, seq, ns);
		else
			sleep_on_futex(r, seq, ns);
		shl_rank_lock(r);
	}
	/* The count out needs no barrier; with one thread (not mt) no other writes it. */
	if (r->mt)
		atomic_fetch_sub(&r->sleepers, 1);
	else
		SHL_PLAIN_ADD(&r->sleepers, -1);
}

void shl_wait(struct shl_rank *r, bool (*done)(void *arg), void *arg)
{
	/* Woken, poll (or yield) again before sleeping: more events tend to follow. */
	while (!shl_poll(r, done, arg))
		sleep_once(r, done, arg, 0);
}

bool shl_wait_once(struct shl_rank *r, bool (*done)(void *arg), void *arg, uint64_t ns,
		   bool poll)
{
	if (poll ? shl_poll(r, done, arg) : done(arg))
		return true;
	sleep_once(r, done, arg, ns);
	return done(arg);
}
