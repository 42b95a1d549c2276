/* Ranks switched in user space: when a node's ranks outnumber its cores, a rank that waits
 * does not sleep in the kernel. Its registers are saved on its own stack and one of a few
 * carrier threads (one per core) goes on with the next runnable rank: a switch is a few
 * dozen instructions instead of a futex hand-off and a kernel context switch (4.1-6.7 µs
 * here, docs/performance.md, "Ranks switched in user space").
 *
 * A rank keeps its own thread, stack and thread control block: a carrier that runs it loads
 * the rank's %fs base (wrfsbase), so the rank's globals, thread-locals, errno and
 * pthread_self are its own wherever it runs. The rank's own thread idles ("at home") while
 * the rank runs on a carrier; MPI_Finalize brings the rank back to it, so everything after
 * (atexit handlers, thread exit) happens on the rank's own thread as before.
 *
 * Only a rank's main thread (the one the loader started) becomes a fiber, only inside MPI
 * waits (shl_wait), and never under a debugger (SHOAL_DEBUG_STOP). A rank's other threads
 * and timed-out waits of any thread still sleep on the rank's futex. SHOAL_FIBERS=0 turns
 * the mechanism off, =1 turns it on even when ranks do not outnumber cores (not under
 * the debugger's stop either way).
 *
 * Entered by rank threads (park, yield, go home), by any thread (wake), and by the node's
 * main thread (start). */
#ifndef SHL_RUNTIME_FIBER_H
#define SHL_RUNTIME_FIBER_H

#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

struct shl_rank;
struct shl_carrier;

enum shl_fiber_state {
	SHL_FIBER_RUNNING,  /* on a thread: its own or a carrier */
	SHL_FIBER_PARKED,   /* registers saved; waits for shl_fiber_wake (or its deadline) */
	SHL_FIBER_QUEUED,   /* registers saved; in the run queue */
};

/* One rank's fiber. Fields up to `state` are written only by the thread running the fiber
 * or by the one that just switched away from it (release), but for `home`, written once by
 * shl_fibers_start; `state` is the only field other threads write (compare-and-swap).
 * debugger/shoal_gdb.py reads `sp`, `state` and `rank` to show a parked rank's stack as the
 * caller of home_main (it knows a rank's idle thread by that function's name): the frame
 * layout at `sp` is the one shl_fiber_switch pushes. */
struct shl_fiber {
	void *sp;                     /* saved registers, when not running */
	void *home_sp;                /* the rank's own thread idling, when the rank is away */
	struct shl_carrier *carrier;  /* where it runs; NULL: on the rank's own thread */
	struct shl_fiber *next;       /* run queue link */
	int home;                     /* its run queue: rank i's is i % carriers (core/fiber.c push) */
	struct shl_rank *rank;
	uint32_t park_seq;            /* the rank's wake_seq when it parked */
	int leaving;                  /* why it switched away (core/fiber.c) */
	_Atomic uint64_t deadline_ns; /* a timed park's end (shl_coarse_ns), 0: none */
	_Atomic uint32_t home_word;   /* 1: the rank's own thread is to take it back */
	alignas(64) _Atomic int state;  /* enum shl_fiber_state */
};

/* The calling thread's fiber: set only in a rank's main thread, only when fibers are on. */
extern __thread struct shl_fiber *shl_fiber_self __attribute__((tls_model("initial-exec")));

/* Node main thread, once, before any rank runs, after shl_job.cores is set: decide whether
 * `nlocal` ranks run as fibers (they outnumber shl_job.cores, FSGSBASE is usable, no
 * debugger stop; SHOAL_FIBERS overrides all but the debugger) and if so give each of
 * `ranks` its fiber, its home carrier's lane and a lane per carrier in its inbox
 * (queues.h SHL_Q_LANES), and start the carriers. Returns whether fibers are on. A rank's main
 * thread then sets shl_fiber_self to its rank's fiber when it binds (shl_job_bind_rank). */
bool shl_fibers_start(struct shl_rank *ranks, int nlocal);

/* The calling fiber `f`, rank unlocked: switch away until shl_fiber_wake, or until the
 * rank's wake_seq differs from `seq` (checked after the registers are saved: no wake-up is
 * lost), or, with `ns` > 0, about `ns` nanoseconds later (the carriers' ticker checks every
 * millisecond or so). Returns on whatever thread runs the fiber next. */
void shl_fiber_park(struct shl_fiber *f, uint32_t seq, uint64_t ns);

/* Any thread: whether `f` is in the run queue (it will run, and look for events, before it
 * can park again). */
static inline bool shl_fiber_queued(struct shl_fiber *f)
{
	return atomic_load(&f->state) == SHL_FIBER_QUEUED;
}

/* Any thread, after bumping f->rank's wake_seq: make `f` runnable if it is parked. */
void shl_fiber_wake(struct shl_fiber *f);

/* The calling fiber, rank unlocked: let another runnable rank of this node run first, if
 * there is one, and move to a carrier if still on the rank's own thread. For polls that
 * found nothing (MPI_Test, MPI_Iprobe, shl_poll's turns). */
void shl_fiber_yield(struct shl_fiber *f);

/* A rank's main thread, any time: if the caller's fiber runs on a carrier, move it back to
 * the rank's own thread. MPI_Finalize and the loader call it before the rank ends. */
void shl_fiber_go_home(void);

#endif
