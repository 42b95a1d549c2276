/* The job table (runtime/job.h), MPI_Init/Finalize, a rank's start and end shared with the
 * sessions (runtime/session/), and the environment queries. Entered by the node process's
 * main thread (shl_job_create) and by rank threads. Must not know how ranks are started;
 * the process-wide state is `shl_job`, written before ranks run (or by the singleton's
 * first MPI_Init or MPI_Session_init), and the lock of the ranks' ways into MPI. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include "io/exit.h"
#include "runtime/core/rt.h"
#include "runtime/core/fiber.h"

SHL_API SHL_HANDLE_PREDEF struct shl_comm shl_mpi_comm_world = {
	.magic = SHL_COMM_MAGIC, .predef = SHL_COMM_IS_WORLD, .name = "MPI_COMM_WORLD" };
SHL_API SHL_HANDLE_PREDEF struct shl_comm shl_mpi_comm_self = {
	.magic = SHL_COMM_MAGIC, .predef = SHL_COMM_IS_SELF, .name = "MPI_COMM_SELF" };

struct shl_job shl_job;
__thread struct shl_rank *shl_self __attribute__((tls_model("initial-exec")));

static void rank_init(struct shl_rank *r, int world_rank, int size)
{
	r->world_rank = world_rank;
	pthread_mutex_init(&r->lock, NULL);
	r->world = (struct shl_comm){ .magic = SHL_COMM_MAGIC, .context = SHL_CTX_WORLD,
				      .rank = world_rank, .size = size,
				      .errh = &shl_mpi_errors_are_fatal,
				      .name = "MPI_COMM_WORLD" };
	r->self_world[0] = world_rank;
	r->self = (struct shl_comm){ .magic = SHL_COMM_MAGIC, .context = SHL_CTX_SELF,
				     .rank = 0, .size = 1, .world = r->self_world,
				     .errh = &shl_mpi_errors_are_fatal, .name = "MPI_COMM_SELF" };
	shl_pool_init(&r->pool);
	shl_inbox_init(&r->inbox, 1);  /* shl_fibers_start may give it a lane per carrier */
	for (int b = 0; b < SHL_MATCH_BINS; b++) {
		r->bins[b].posted.tail = &r->bins[b].posted.head;
		r->bins[b].unexpected.tail = &r->bins[b].unexpected.head;
	}
	r->wild.tail = &r->wild.head;
	r->sent = (struct shl_req){ .magic = SHL_REQ_MAGIC, .kind = SHL_REQ_SEND, .done = 1,
				    .owner = r };
	shl_status_empty(&r->sent.status, MPI_ANY_SOURCE);
}

int shl_job_create(int size)
{
	return shl_job_create_part(size, size, NULL);
}

/* A crash report with dladdr and .symtab lookups needs ~8 KiB; glibc's SIGSTKSZ (now
 * sysconf) can be as low as 2 KiB, so each thread gets 64 KiB of signal stack. */
#define SHL_JOB_SIGNAL_STACK (64UL << 10)

/* The cores this process may run on (its affinity: taskset, cpusets, a batch system's
 * binding), which decide whether ranks outnumber cores. */
static int usable_cores(void)
{
	cpu_set_t set;
	long online = sysconf(_SC_NPROCESSORS_ONLN);

	if (sched_getaffinity(0, sizeof(set), &set) == 0)
		return CPU_COUNT(&set);
	return online > 0 ? (int)online : 1;
}

int shl_job_create_part(int size, int nlocal, const int *local)
{
	struct shl_rank *ranks;

	if (size < 1 || nlocal < 1 || nlocal > size)
		return -EINVAL;
	shl_job.ranks = calloc((size_t)size, sizeof(*shl_job.ranks));
	ranks = aligned_alloc(64, (size_t)nlocal * sizeof(*ranks));
	if (shl_job.ranks == NULL || ranks == NULL)
		return -ENOMEM;
	memset(ranks, 0, (size_t)nlocal * sizeof(*ranks));
	for (int i = 0; i < nlocal; i++) {
		int w = local ? local[i] : i;

		if (w < 0 || w >= size || shl_job.ranks[w])
			return -EINVAL;
		rank_init(&ranks[i], w, size);
		shl_job.ranks[w] = &ranks[i];
	}
	if (shl_comm_job_init(size) < 0)
		return -ENOMEM;
	shl_job.size = size;
	shl_job.wtime_base = (double)shl_mono_ns() * 1e-9;
	shl_job.inline_max = shl_env_size("SHOAL_INLINE_MAX", SHL_Q_INLINE_MAX, SHL_Q_INLINE_MAX);
	shl_job.medium_max = shl_env_size("SHOAL_MEDIUM_MAX", SHL_Q_MEDIUM_MAX, SHL_Q_MEDIUM_MAX);
	shl_job.split_min = shl_env_size("SHOAL_SPLIT_MIN", SHL_P2P_SPLIT_MIN, SIZE_MAX);
	shl_job.split_min_typed = shl_env_size("SHOAL_SPLIT_MIN_TYPED", SHL_P2P_SPLIT_MIN_TYPED,
					       SIZE_MAX);
	shl_job.split_chunk_typed = shl_env_size("SHOAL_SPLIT_CHUNK_TYPED",
						 SHL_P2P_SPLIT_CHUNK_TYPED, 1u << 30);
	if (shl_job.split_chunk_typed < SHL_P2P_SPLIT_CHUNK_TYPED_MIN)
		shl_job.split_chunk_typed = SHL_P2P_SPLIT_CHUNK_TYPED_MIN;
	shl_job.cores = usable_cores();
	/* Ranks that outnumber cores take none: their boxes' lines, walked by one-way
	 * streams and polled box by box, cost more than the inbox (docs/performance.md,
	 * "Fastboxes"). */
	shl_job.fbox_peers = (int)shl_env_size("SHOAL_FBOX_PEERS",
					       nlocal > shl_job.cores ? 0 : SHL_Q_FBOX_PEERS,
					       SHL_Q_FBOX_PEERS);
	for (int i = 0; i < nlocal; i++)
		if (shl_fbox_set_init(&ranks[i].fbox_in, shl_job.fbox_peers) < 0 ||
		    shl_pool_prefill(&ranks[i].pool, SHL_RANK_PREFILL) < 0 ||
		    shl_req_prefill(&ranks[i], SHL_RANK_PREFILL) < 0)
			return -ENOMEM;
	shl_job.coll_small_max = shl_env_size("SHOAL_COLL_SMALL_MAX", SHL_COLL_SMALL_MAX,
					      1 << 20);
	shl_job.coll_spin_ns = 1000 * shl_env_size("SHOAL_COLL_SPIN_US", SHL_COLL_SPIN_US, 1000000);
	shl_job.spin_ns = 1000 * shl_env_size("SHOAL_SPIN_US",
					      nlocal > shl_job.cores ? 0 : SHL_WAIT_SPIN_US,
					      1000000);
	shl_job.spin_max_ns = 1000 * shl_env_size("SHOAL_SPIN_MAX_US", SHL_WAIT_SPIN_MAX_US,
						  1000000);
	for (int i = 0; i < nlocal; i++)
		atomic_store_explicit(&ranks[i].spin_ns, shl_job.spin_ns, memory_order_relaxed);
	/* Switched in user space, a waiting rank parks at once: the next rank runs in a
	 * fraction of a microsecond, and a turn of polling only delays it (core/fiber.h). */
	bool fibers = shl_fibers_start(ranks, nlocal);
	shl_job.yields = (unsigned)shl_env_size("SHOAL_YIELDS", fibers ? 0 : SHL_WAIT_YIELDS,
						1000);
	/* Without spinning every wait sleeps, and a membarrier per sleep (2.5 µs) costs more
	 * than the senders' barriers it saves. */
	shl_job.sleeper_fences = shl_job.spin_ns > 0 && shl_wait_register_fences() == 0;
	return 0;
}

void shl_job_bind_rank(int rank)
{
	shl_self = shl_job.ranks[rank];
	shl_fiber_self = shl_self->fiber;
}

void *shl_job_signal_stack(void)
{
	stack_t ss = { .ss_size = SHL_JOB_SIGNAL_STACK };

	ss.ss_sp = mmap(NULL, ss.ss_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS |
			MAP_STACK, -1, 0);
	if (ss.ss_sp == MAP_FAILED)
		return NULL;
	if (sigaltstack(&ss, NULL) < 0) {
		munmap(ss.ss_sp, ss.ss_size);
		return NULL;
	}
	return ss.ss_sp;
}

bool shl_job_debug_stop(void)
{
	const char *stop = getenv("SHOAL_DEBUG_STOP");

	return stop && *stop && strcmp(stop, "0") != 0;
}

void shl_job_rank_home(void)
{
	shl_fiber_go_home();
}

enum shl_phase shl_job_phase(int rank)
{
	return atomic_load_explicit(&shl_job.ranks[rank]->phase, memory_order_acquire);
}

bool shl_job_rank_blocked(int rank, uint32_t *seq)
{
	struct shl_rank *r = shl_job.ranks[rank];
	int phase = atomic_load(&r->phase);

	*seq = atomic_load(&r->wake_seq);
	if (phase == SHL_PHASE_FINALIZED)
		return true;
	return phase == SHL_PHASE_IN_MPI && r->thread_level <= MPI_THREAD_FUNNELED &&
	       atomic_load(&r->sleepers) > 0 && shl_inbox_empty(&r->inbox);
}

int shl_job_my_rank(void)
{
	return shl_self ? shl_self->world_rank : -1;
}

_Noreturn void shl_job_abort(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	shl_exit_vfatal(code, fmt, ap);
}

/* A program built by mpicc that mpiexec did not start itself, but a process rank did (a
 * script mpiexec ran, which started or exec'd it: SHOAL_RANK is in its environment), would
 * be a singleton instead of that rank: end it saying so. In a job of one rank the
 * singleton is that rank (0 of 1), and runs. */
static void refuse_under_process_rank(const char *fn)
{
	const char *rank = getenv("SHOAL_RANK"), *size = getenv("SHOAL_SIZE");

	if (rank == NULL || *rank == '\0' || (size != NULL && !strcmp(size, "1")))
		return;
	shl_job_abort(1, "%s: %s was built with Shoal's mpicc but was started by rank %s of %s "
		      "of a job whose program mpicc did not build (a script or command that "
		      "mpiexec ran as a process per rank): it cannot join that job and would run "
		      "alone as a singleton. Start it with mpiexec itself (mpiexec -n %s %s); "
		      "to run it alone on purpose, unset SHOAL_RANK first", fn,
		      program_invocation_short_name, rank, size ? size : "?", size ? size : "N",
		      program_invocation_name);
}

/* The world model and the sessions are independent ways into MPI (MPI 4.1, 11.2-11.3): a
 * rank is in MPI (`phase`) while either is, and leaves when the last of them ends. This
 * lock guards every rank's world_model, sessions and ended (rare calls). */
static pthread_mutex_t models_lock = PTHREAD_MUTEX_INITIALIZER;

/* The calling rank, bound first when mpiexec did not start the process: a singleton,
 * MPI_COMM_WORLD of size 1. The part of bringing a rank up that MPI_Init and
 * MPI_Session_init share; everything else a rank needs was made with the job. */
static struct shl_rank *rank_bound(const char *fn)
{
	struct shl_rank *r = shl_self;

	if (likely(r != NULL))
		return r;
	pthread_mutex_lock(&models_lock);
	if (shl_job.size == 0) {
		refuse_under_process_rank(fn);
		if (shl_job_create(1) < 0)
			shl_panic(fn, ENOMEM, "cannot create the job");
	}
	pthread_mutex_unlock(&models_lock);
	shl_job_bind_rank(0);
	return shl_self;
}

/* Under models_lock: the rank's thread level becomes at least `level`. */
static void raise_level(struct shl_rank *r, int level)
{
	if (atomic_load(&r->phase) == SHL_PHASE_IN_MPI && r->thread_level > level)
		level = r->thread_level;
	r->thread_level = level;
	r->mt = level == MPI_THREAD_MULTIPLE;
}

static int init(const char *fn, int required, int *provided)
{
	struct shl_rank *r = rank_bound(fn);

	if (required < MPI_THREAD_SINGLE || required > MPI_THREAD_MULTIPLE)
		required = MPI_THREAD_MULTIPLE;
	pthread_mutex_lock(&models_lock);
	if (r->world_model != SHL_MODEL_NEVER) {
		bool in = r->world_model == SHL_MODEL_IN;
		pthread_mutex_unlock(&models_lock);
		return shl_err(&r->world, MPI_ERR_OTHER, fn, "MPI is already %s%s",
			       in ? "initialized" : "finalized",
			       in ? "" : " (MPI 4.1, 11.2: the world model starts once)");
	}
	r->world_model = SHL_MODEL_IN;
	raise_level(r, required);
	r->main_thread = pthread_self();
	if (provided != NULL)
		*provided = r->thread_level;
	/* Pairs with the acquire load in shl_job_phase (the loader reads it at rank exit). */
	atomic_store_explicit(&r->phase, SHL_PHASE_IN_MPI, memory_order_release);
	pthread_mutex_unlock(&models_lock);
	return MPI_SUCCESS;
}

int PMPI_Init(int *argc, char ***argv)
{
	return init("MPI_Init", MPI_THREAD_SINGLE, NULL);
}
SHL_WEAK_ALIAS(Init);

int PMPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
	if (provided == NULL)
		return shl_err(NULL, MPI_ERR_ARG, "MPI_Init_thread", "provided is NULL");
	return init("MPI_Init_thread", required, provided);
}
SHL_WEAK_ALIAS(Init_thread);

static bool nothing_detached(void *arg)
{
	struct shl_rank *r = arg;

	return r->detached == NULL;
}

/* The end of one way into MPI (`last`: the last one open). Buffered sends and freed
 * requests still in flight complete first (MPI 4.1, 11.2.2). The end barrier with the
 * other nodes is a collective of MPI_COMM_WORLD that each rank joins once: when it leaves
 * MPI after its world model ended, or at its exit if it only ever had sessions
 * (shl_job_rank_exit); a session opened after it goes without. */
static void rank_end(struct shl_rank *r, bool last)
{
	shl_rank_lock(r);
	shl_wait(r, nothing_detached, r);
	shl_rank_unlock(r);
	if (!last)
		return;
	pthread_mutex_lock(&models_lock);
	bool world_ended = r->world_model == SHL_MODEL_ENDED, barrier = world_ended && !r->ended;
	r->ended = r->ended || world_ended;
	pthread_mutex_unlock(&models_lock);
	if (barrier)
		shl_coll_net_finalize(r);
	pthread_mutex_lock(&models_lock);
	/* A session opened meanwhile (another thread) keeps the rank in MPI. */
	if (r->sessions == 0 && r->world_model != SHL_MODEL_IN)
		atomic_store_explicit(&r->phase, world_ended ? SHL_PHASE_FINALIZED
							     : SHL_PHASE_BEFORE_INIT,
				      memory_order_release);
	pthread_mutex_unlock(&models_lock);
	if (world_ended)
		shl_fiber_go_home();
}

int PMPI_Finalize(void)
{
	struct shl_rank *r = shl_rank_or_die("MPI_Finalize");

	pthread_mutex_lock(&models_lock);
	if (r->world_model != SHL_MODEL_IN) {
		pthread_mutex_unlock(&models_lock);
		return shl_err(&r->world, MPI_ERR_OTHER, "MPI_Finalize", "%s",
			       r->world_model == SHL_MODEL_NEVER
				       ? "MPI_Init was not called (only sessions are open)"
				       : "MPI is already finalized");
	}
	pthread_mutex_unlock(&models_lock);
	shl_comm_finalize(r);
	pthread_mutex_lock(&models_lock);
	r->world_model = SHL_MODEL_ENDED;
	bool last = r->sessions == 0;
	pthread_mutex_unlock(&models_lock);
	rank_end(r, last);
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Finalize);

struct shl_rank *shl_rank_session_start(const char *fn, int level)
{
	struct shl_rank *r = rank_bound(fn);

	pthread_mutex_lock(&models_lock);
	raise_level(r, level);
	r->sessions++;
	r->ever_session = true;
	atomic_store_explicit(&r->phase, SHL_PHASE_IN_MPI, memory_order_release);
	pthread_mutex_unlock(&models_lock);
	return r;
}

void shl_rank_session_end(struct shl_rank *r)
{
	pthread_mutex_lock(&models_lock);
	bool last = --r->sessions == 0 && r->world_model != SHL_MODEL_IN;
	pthread_mutex_unlock(&models_lock);
	rank_end(r, last);
}

void shl_job_rank_exit(int rank)
{
	struct shl_rank *r = shl_job.ranks[rank];

	pthread_mutex_lock(&models_lock);
	bool barrier = r->ever_session && !r->ended && r->world_model == SHL_MODEL_NEVER &&
		       r->sessions == 0;
	r->ended = r->ended || barrier;
	pthread_mutex_unlock(&models_lock);
	if (barrier)
		shl_coll_net_finalize(r);
}

int PMPI_Initialized(int *flag)
{
	struct shl_rank *r = shl_self;

	if (flag == NULL)
		return shl_err(NULL, MPI_ERR_ARG, "MPI_Initialized", "flag is NULL");
	/* The world model's state only (MPI 4.1, 11.2.1): sessions do not count. */
	pthread_mutex_lock(&models_lock);
	*flag = r != NULL && r->world_model != SHL_MODEL_NEVER;
	pthread_mutex_unlock(&models_lock);
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Initialized);

int PMPI_Finalized(int *flag)
{
	struct shl_rank *r = shl_self;

	if (flag == NULL)
		return shl_err(NULL, MPI_ERR_ARG, "MPI_Finalized", "flag is NULL");
	pthread_mutex_lock(&models_lock);
	*flag = r != NULL && r->world_model == SHL_MODEL_ENDED;
	pthread_mutex_unlock(&models_lock);
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Finalized);

int PMPI_Query_thread(int *provided)
{
	struct shl_rank *r = shl_rank_or_die("MPI_Query_thread");

	if (provided == NULL)
		return shl_err(NULL, MPI_ERR_ARG, "MPI_Query_thread", "provided is NULL");
	*provided = r->thread_level;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Query_thread);

int PMPI_Is_thread_main(int *flag)
{
	struct shl_rank *r = shl_rank_or_die("MPI_Is_thread_main");

	if (flag == NULL)
		return shl_err(NULL, MPI_ERR_ARG, "MPI_Is_thread_main", "flag is NULL");
	*flag = pthread_equal(r->main_thread, pthread_self());
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Is_thread_main);

int PMPI_Abort(MPI_Comm comm, int errorcode)
{
	struct shl_rank *r = shl_self;
	struct shl_comm *c = r ? shl_comm_get(r, comm) : NULL;

	shl_job_abort(errorcode, "rank %d called MPI_Abort(%s, %d): ending the job",
		      r ? r->world_rank : 0, c && c->name ? c->name : "comm", errorcode);
}
SHL_WEAK_ALIAS(Abort);

static int comm_query(const char *fn, MPI_Comm comm, int *out, struct shl_comm **c)
{
	struct shl_rank *r = shl_rank_or_die(fn);

	*c = shl_comm_get(r, comm);
	if (*c == NULL)
		return shl_err(NULL, MPI_ERR_COMM, fn, "invalid communicator argument comm");
	if (out == NULL)
		return shl_err(*c, MPI_ERR_ARG, fn, "output argument is NULL");
	return MPI_SUCCESS;
}

int PMPI_Comm_rank(MPI_Comm comm, int *rank)
{
	struct shl_comm *c;
	int err = comm_query("MPI_Comm_rank", comm, rank, &c);

	if (err == MPI_SUCCESS)
		*rank = c->rank;
	return err;
}
SHL_WEAK_ALIAS(Comm_rank);

int PMPI_Comm_size(MPI_Comm comm, int *size)
{
	struct shl_comm *c;
	int err = comm_query("MPI_Comm_size", comm, size, &c);

	if (err == MPI_SUCCESS)
		*size = c->size;
	return err;
}
SHL_WEAK_ALIAS(Comm_size);

double PMPI_Wtime(void)
{
	return (double)shl_mono_ns() * 1e-9 - shl_job.wtime_base;
}
SHL_WEAK_ALIAS(Wtime);

double PMPI_Wtick(void)
{
	struct timespec res;

	clock_getres(CLOCK_MONOTONIC, &res);
	return (double)res.tv_sec + (double)res.tv_nsec * 1e-9;
}
SHL_WEAK_ALIAS(Wtick);

int PMPI_Get_processor_name(char *name, int *resultlen)
{
	if (name == NULL || resultlen == NULL)
		return shl_err(NULL, MPI_ERR_ARG, "MPI_Get_processor_name", "name or resultlen is NULL");
	if (gethostname(name, MPI_MAX_PROCESSOR_NAME) < 0)
		snprintf(name, MPI_MAX_PROCESSOR_NAME, "localhost");
	name[MPI_MAX_PROCESSOR_NAME - 1] = '\0';
	*resultlen = (int)strlen(name);
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Get_processor_name);

int PMPI_Get_version(int *version, int *subversion)
{
	if (version == NULL || subversion == NULL)
		return shl_err(NULL, MPI_ERR_ARG, "MPI_Get_version", "version or subversion is NULL");
	*version = MPI_VERSION;
	*subversion = MPI_SUBVERSION;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Get_version);

int PMPI_Get_library_version(char *version, int *resultlen)
{
	if (version == NULL || resultlen == NULL)
		return shl_err(NULL, MPI_ERR_ARG, "MPI_Get_library_version",
			       "version or resultlen is NULL");
	*resultlen = snprintf(version, MPI_MAX_LIBRARY_VERSION_STRING,
			      "Shoal MPI %s (MPI %d.%d), ranks as threads of one process per node",
			      SHOAL_VERSION_STRING, MPI_VERSION, MPI_SUBVERSION);
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Get_library_version);
