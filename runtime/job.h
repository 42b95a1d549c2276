/* The job as the runtime sees it: the table of ranks hosted by this node process.
 * Entered by the loader (node process main thread and rank threads) and by MPI_Init.
 * Knows nothing of how ranks are started; the loader knows nothing of MPI semantics. */
#ifndef SHL_RUNTIME_JOB_H
#define SHL_RUNTIME_JOB_H

#include <stdbool.h>
#include <stdint.h>
#include <sched.h>
#include <stdio.h>

/* Where a rank is in its MPI life; read by the loader when the rank's main ends. */
enum shl_phase {
	SHL_PHASE_BEFORE_INIT = 0, /* MPI_Init not called yet (or never), no session open */
	SHL_PHASE_IN_MPI,          /* between MPI_Init and MPI_Finalize, or a session open */
	SHL_PHASE_FINALIZED,       /* MPI_Finalize returned, no session open */
};

/* Node process, main thread, once, before any rank thread starts: create the table of
 * `size` ranks, all on this node. Returns 0 or -errno. */
int shl_job_create(int size);

/* Node process of a job on several nodes, main thread, once, before any rank thread
 * starts: a world of `size` ranks of which the `nlocal` world ranks in `local` (distinct,
 * in 0..size-1) live here; the others exist only as numbers. Only local ranks may be passed
 * to the other shl_job_* calls. Returns 0 or -errno (-EINVAL for a bad list). */
int shl_job_create_part(int size, int nlocal, const int *local);

struct shl_io_config;

/* Node process of a job on several nodes, main thread, once, after shl_job_create_part and
 * before any rank thread starts: join the mesh described by `cfg` and start the completion
 * thread (io/mesh.h), so sends to ranks of other nodes can go. Returns 0 or -errno. */
int shl_job_connect(const struct shl_io_config *cfg);

/* Rank thread, first thing: bind the calling thread to rank `rank` so MPI_Init in this
 * thread becomes that rank. Without a bound thread, MPI_Init makes a singleton job. */
void shl_job_bind_rank(int rank);

/* Any thread the node starts (a rank's, a carrier): give it a signal stack, so the node's
 * crash report can run on it after a stack overflow. Returns the stack or NULL. */
void *shl_job_signal_stack(void);

/* Any thread: whether ranks are held for a debugger before main (SHOAL_DEBUG_STOP set and
 * not "0": mpiexec --gdb, the MPIR gate); the runtime then keeps each rank on its own
 * thread (core/fiber.h). */
bool shl_job_debug_stop(void);

/* A rank's main thread, before the rank's thread ends: make sure the rank runs on its own
 * thread again, if waits moved it onto a carrier (runtime/core/fiber.h). */
void shl_job_rank_home(void);

/* Any thread: the phase of rank `rank` (acquire load; pairs with the release store in
 * MPI_Init / MPI_Finalize). */
enum shl_phase shl_job_phase(int rank);

/* The rank's thread, after its main returned: a rank that used MPI only through sessions
 * and never the world model takes its part in the end barrier with the other nodes here
 * (core/init.c). */
void shl_job_rank_exit(int rank);

/* Any thread: the rank the calling thread is bound to, or -1. */
int shl_job_my_rank(void);

/* Any thread: how many threads created by rank `rank` (by its main thread or by threads it
 * created) have not ended yet; such a thread may still run code of the rank's program. */
int shl_job_rank_threads(int rank);

/* Node process, main thread, after shl_job_create_part and before ranks start: the ranks'
 * own threads are bound to a core each by default (loader/node_bind.c); threads a rank
 * creates run on `cpus`, the node's CPUs, instead of its core (core/threads.c). */
void shl_job_free_threads(const cpu_set_t *cpus);

/* Any thread: whether rank `rank` is stuck in MPI unless another rank sends to it: every
 * thread that may call MPI (MPI_THREAD_FUNNELED at most) sleeps in a wait and its inbox is
 * empty; a rank past MPI_Finalize counts too (it can no longer send). *seq gets a value
 * that changes whenever the rank is woken. A hint for deadlock detection: it reads another
 * rank's state without synchronising, so callers confirm it over time. */
bool shl_job_rank_blocked(int rank, uint32_t *seq);

/* Any thread, with rank `rank` blocked (see above): print what it waits for — posted
 * receives, unexpected messages, sends not yet matched — one line each to `out`. */
void shl_job_describe_rank(int rank, FILE *out);

/* Any thread: end the whole job now. Prints "shoal: <message>" on stderr, flushes every
 * stdio stream, removes nothing, and ends the node process with exit status `code`
 * (1 if code is 0 or out of 1..255). Safe to call from several threads at once: the first
 * caller wins, the others block forever. */
_Noreturn void shl_job_abort(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
