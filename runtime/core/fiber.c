/* Ranks switched in user space (core/fiber.h): the switch, the run queue, the carriers and
 * their ticker. Entered by rank threads and carriers (park, yield, go home), any thread
 * (wake), the node's main thread (start) and the ticker.
 *
 * Code that runs on a rank's own thread while the rank is away (home_main and everything
 * it calls) shares the rank's thread control block with the carrier running the rank, so
 * it must not write thread-locals: no errno, hence raw system calls throughout this file. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <linux/futex.h>

#include "runtime/core/rt.h"
#include "runtime/core/fiber.h"

/* A rank's own thread idles on a stack of its own while the rank is away: the rank's stack
 * belongs to the rank. Signal handlers may run there too. */
#define SHL_FIBER_HOME_STACK (256 * 1024)
/* The ticker's period while ranks wait in the run queue (wakes an idle carrier for a
 * queue a busy carrier left: see push) and otherwise (timed parks, shl_wait_once). */
#define SHL_FIBER_TICK_BUSY_NS 1000000u
#define SHL_FIBER_TICK_IDLE_NS 10000000u
/* A queue no carrier took from for this long, while none was idle, gets one more carrier:
 * a rank that computes, or polls something other than MPI, holds its carrier. */
#define SHL_FIBER_STUCK_NS 10000000u

#ifndef HWCAP2_FSGSBASE
#define HWCAP2_FSGSBASE (1 << 1)
#endif

enum { LEAVE_PARK, LEAVE_YIELD, LEAVE_HOME };

struct shl_carrier {
	void *sp;          /* its own loop's registers, while it runs a fiber */
	int index;
	int queue;         /* the run queue it serves first (an extra carrier: shares one) */
	bool extra;        /* added by the ticker: ends after one rank's turn */
};

/* One per carrier: the queue of the ranks whose home it is (rank i's: i % carriers, for
 * good). A carrier takes from its own queue, then from the others: a rank's stack,
 * requests and queues stay in the cache of the core its carrier runs on while both cores
 * are busy, and so do the lanes it pushes messages into (shl_rank.lane). Carriers are not
 * pinned, but the kernel seldom moves a busy one (14-25 migrations in a launch of 500
 * exchange rounds of 32 ranks). `lock` guards head and tail; `queued` pairs with `idle`
 * (seq_cst) so that a rank queued to an idle carrier wakes it. */
struct run_queue {
	alignas(64) _Atomic bool lock;
	struct shl_fiber *head, *tail;
	_Atomic int queued;            /* fibers in the queue */
	_Atomic uint64_t pops;         /* fibers taken from it, ever (the ticker) */
	alignas(64) _Atomic bool idle; /* its carrier asleep or about to be */
	_Atomic bool waking;           /* it was woken and has not looked yet */
	_Atomic uint32_t idle_seq;     /* its futex word */
};

/* Process-wide: the node's fibers, carriers and run queues, written once by
 * shl_fibers_start but for the counters. */
static struct {
	struct shl_fiber *fibers;
	int nfibers;
	struct run_queue *queues;
	int nqueues;                   /* one per carrier started at first: per core */
	_Atomic int ncarriers;         /* running; above the cores' count only while stuck */
	_Atomic int named;             /* carriers ever started: their names */
} fs;

__thread struct shl_fiber *shl_fiber_self __attribute__((tls_model("initial-exec")));

/* ---- the switch ----
 * shl_fiber_switch(save, to, arg): push the callee-saved registers, the %fs base and the
 * SSE/x87 control words, store the stack pointer in *save, load `to`, pop the same, and
 * return `arg` in the context resumed. At a saved sp: [0] mxcsr | x87 cw << 32, [8] fs
 * base, [16] r15, [24] r14, [32] r13, [40] r12, [48] rbx, [56] rbp, [64] return address
 * (the caller's rsp is sp + 72). shl_fiber_start is where a new context first returns to:
 * it calls r12(rbx, arg). */
void *shl_fiber_switch(void **save, void *to, void *arg);
void shl_fiber_start(void);
__asm__(".text\n"
	".globl shl_fiber_switch\n"
	".hidden shl_fiber_switch\n"
	".type shl_fiber_switch,@function\n"
	"shl_fiber_switch:\n"
	"	.cfi_startproc\n"
	"	pushq %rbp\n"
	"	pushq %rbx\n"
	"	pushq %r12\n"
	"	pushq %r13\n"
	"	pushq %r14\n"
	"	pushq %r15\n"
	"	rdfsbase %rax\n"
	"	pushq %rax\n"
	"	subq $8, %rsp\n"
	"	stmxcsr (%rsp)\n"
	"	fnstcw 4(%rsp)\n"
	"	movq %rsp, (%rdi)\n"
	"	movq %rsi, %rsp\n"
	"	ldmxcsr (%rsp)\n"
	"	fldcw 4(%rsp)\n"
	"	addq $8, %rsp\n"
	"	popq %rax\n"
	"	wrfsbase %rax\n"
	"	popq %r15\n"
	"	popq %r14\n"
	"	popq %r13\n"
	"	popq %r12\n"
	"	popq %rbx\n"
	"	popq %rbp\n"
	"	movq %rdx, %rax\n"
	"	ret\n"
	"	.cfi_endproc\n"
	".size shl_fiber_switch, .-shl_fiber_switch\n"
	".globl shl_fiber_start\n"
	".hidden shl_fiber_start\n"
	".type shl_fiber_start,@function\n"
	"shl_fiber_start:\n"
	"	.cfi_startproc\n"
	"	.cfi_undefined rip\n"
	"	movq %rbx, %rdi\n"
	"	movq %rax, %rsi\n"
	"	call *%r12\n"
	"	ud2\n"
	"	.cfi_endproc\n"
	".size shl_fiber_start, .-shl_fiber_start\n");

/* ---- raw system calls: no errno (see the top of the file) ---- */
static long raw_syscall(long n, long a, long b, long c, long d)
{
	register long r10 __asm__("r10") = d;
	long ret;

	__asm__ volatile("syscall" : "=a"(ret) : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10)
			 : "rcx", "r11", "memory");
	return ret;
}

/* Sleep while *word == val, at most `ns` (0: no limit). */
static void futex_wait(_Atomic uint32_t *word, uint32_t val, uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000u), (long)(ns % 1000000000u) };

	raw_syscall(SYS_futex, (long)word, FUTEX_WAIT_PRIVATE, val, ns ? (long)&ts : 0);
}

static void futex_wake(_Atomic uint32_t *word)
{
	raw_syscall(SYS_futex, (long)word, FUTEX_WAKE_PRIVATE, 1, 0);
}

/* ---- the run queues ---- */
/* The holder may be a thread the kernel preempted (a rank's own thread, or a carrier when
 * other programs load the cores): after a few polls, give the core away. */
static void lock_queue(struct run_queue *q)
{
	while (atomic_exchange_explicit(&q->lock, true, memory_order_acquire))
		for (int polls = 0; atomic_load_explicit(&q->lock, memory_order_relaxed); polls++)
			if (polls < 64)
				__builtin_ia32_pause();
			else
				raw_syscall(SYS_sched_yield, 0, 0, 0, 0);
}

static void unlock_queue(struct run_queue *q)
{
	atomic_store_explicit(&q->lock, false, memory_order_release);
}

static bool any_queued(void)
{
	for (int i = 0; i < fs.nqueues; i++)
		if (atomic_load(&fs.queues[i].queued) > 0)
			return true;
	return false;
}

/* Wake `q`'s carrier if it is idle, once until it looks: more wake-ups would only cost
 * their system calls. Returns whether it was idle. */
static bool wake_carrier(struct run_queue *q)
{
	if (!atomic_load(&q->idle))
		return false;
	if (!atomic_exchange(&q->waking, true)) {
		atomic_fetch_add(&q->idle_seq, 1);
		futex_wake(&q->idle_seq);
	}
	return true;
}

/* A backlog: wake an idle carrier, which takes from the others' queues. */
static void wake_any_carrier(void)
{
	for (int i = 0; i < fs.nqueues; i++)
		if (wake_carrier(&fs.queues[i]))
			return;
}

/* Queue `f` (state QUEUED) on its home queue, unless that carrier is idle and `from` (the
 * carrier of the fiber queueing it, or NULL) is not: then on `from`'s queue, which `from`
 * takes when its fiber waits, a switch instead of a kernel wake-up (a ring of ranks passing
 * a token stays on one core; the ticker wakes a carrier if the fiber keeps `from`). Its
 * home stays: ranks that moved home with such a wake-up, or when another carrier took
 * them, soon pushed into lanes of the other core, and the lanes gained nothing
 * (docs/performance.md "Inbox lanes"). A rank queued to an idle carrier wakes it; a queue
 * with a backlog, or a rank queued by a thread that is no carrier's (the completion
 * thread, a program's thread), wakes another idle one, which takes from the others'
 * queues. */
static void push(struct shl_fiber *f, struct shl_carrier *from)
{
	struct run_queue *q = &fs.queues[f->home];
	struct run_queue *mine = from && !from->extra ? &fs.queues[from->queue] : NULL;
	int before;

	if (mine != NULL && q != mine && atomic_load_explicit(&q->idle, memory_order_relaxed))
		q = mine;
	f->next = NULL;
	lock_queue(q);
	if (q->tail)
		q->tail->next = f;
	else
		q->head = f;
	q->tail = f;
	before = atomic_fetch_add(&q->queued, 1);  /* seq_cst: see idle() */
	unlock_queue(q);
	if (q == mine && before == 0)
		return;
	if (!wake_carrier(q) && (before > 0 || mine == NULL))
		wake_any_carrier();
}

static struct shl_fiber *pop_from(struct run_queue *q)
{
	struct shl_fiber *f;

	if (atomic_load_explicit(&q->queued, memory_order_relaxed) == 0)
		return NULL;
	lock_queue(q);
	f = q->head;
	if (f) {
		q->head = f->next;
		if (q->head == NULL)
			q->tail = NULL;
		/* Both counts change only under the lock (push's increment stays a locked
		 * one: it orders `queued` before its load of `idle`). */
		SHL_PLAIN_ADD(&q->queued, -1);
		SHL_PLAIN_ADD(&q->pops, 1);
	}
	unlock_queue(q);
	return f;
}

/* For carrier `c`: the next fiber of its own queue, else of another's. */
static struct shl_fiber *pop(struct shl_carrier *c)
{
	for (int i = 0; i < fs.nqueues; i++) {
		struct shl_fiber *f = pop_from(&fs.queues[(c->queue + i) % fs.nqueues]);

		if (f != NULL) {
			f->carrier = c;
			atomic_store_explicit(&f->state, SHL_FIBER_RUNNING, memory_order_relaxed);
			return f;
		}
	}
	return NULL;
}

static void try_wake(struct shl_fiber *f, struct shl_carrier *from)
{
	int parked = SHL_FIBER_PARKED;

	/* Most messages find their receiver queued or running already: a load shares the
	 * line where a failed compare-and-swap would take it. */
	if (atomic_load(&f->state) == SHL_FIBER_PARKED &&
	    atomic_compare_exchange_strong(&f->state, &parked, SHL_FIBER_QUEUED))
		push(f, from);
}

void shl_fiber_wake(struct shl_fiber *f)
{
	struct shl_fiber *me = shl_fiber_self;

	try_wake(f, me != NULL ? me->carrier : NULL);
}

/* In the context just resumed, on carrier `on` (NULL: a rank's own thread): finish what
 * `prev` (the fiber that switched to it, or NULL) left for after its registers were saved. */
static void release(struct shl_fiber *prev, struct shl_carrier *on)
{
	if (prev == NULL)
		return;
	switch (prev->leaving) {
	case LEAVE_PARK:
		/* Pairs with shl_rank_wake's wake_seq bump (both seq_cst): either the waker
		 * sees PARKED and queues, or we see its bump. */
		atomic_store(&prev->state, SHL_FIBER_PARKED);
		if (atomic_load(&prev->rank->wake_seq) != prev->park_seq)
			try_wake(prev, on);
		break;
	case LEAVE_YIELD:
		atomic_store(&prev->state, SHL_FIBER_QUEUED);
		push(prev, on);
		break;
	case LEAVE_HOME:
		atomic_store(&prev->home_word, 1);
		futex_wake(&prev->home_word);
		break;
	}
}

/* ---- a rank's own thread while the rank is away ---- */
static void home_main(struct shl_fiber *f, struct shl_fiber *prev)
{
	for (;;) {
		release(prev, NULL);
		while (atomic_exchange(&f->home_word, 0) == 0)
			futex_wait(&f->home_word, 0, 0);
		f->carrier = NULL;
		prev = shl_fiber_switch(&f->home_sp, f->sp, NULL);
	}
}

/* The fiber's home context, made the first time it leaves its own thread: a stack whose
 * first switch "returns" into shl_fiber_start, which calls home_main(f, prev). */
static void make_home(struct shl_fiber *f)
{
	char *stack = mmap(NULL, SHL_FIBER_HOME_STACK, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	uint64_t *sp, fsbase;

	if (stack == MAP_FAILED)
		shl_panic("shl_fiber_park", ENOMEM, "cannot map a stack for a rank's thread");
	__asm__ volatile("rdfsbase %0" : "=r"(fsbase));
	sp = (uint64_t *)(stack + SHL_FIBER_HOME_STACK - 16) - 9;  /* sp + 72 16-aligned */
	memset(sp, 0, 9 * sizeof(*sp));
	sp[0] = 0x1f80u | (uint64_t)0x37f << 32;  /* default MXCSR and x87 control word */
	sp[1] = fsbase;
	sp[5] = (uint64_t)(uintptr_t)home_main;   /* r12 */
	sp[6] = (uint64_t)(uintptr_t)f;           /* rbx */
	sp[8] = (uint64_t)(uintptr_t)shl_fiber_start;
	f->home_sp = sp;
}

/* ---- switching away ---- */
static void leave(struct shl_fiber *f, int why)
{
	struct shl_carrier *c = f->carrier;
	struct shl_fiber *next;
	void *to;

	f->leaving = why;
	if (c == NULL) {
		if (f->home_sp == NULL)
			make_home(f);
		to = f->home_sp;
	} else if (!c->extra && (next = pop(c)) != NULL) {
		to = next->sp;
	} else {
		to = c->sp;  /* an extra carrier ends after each turn (carrier_main) */
	}
	release(shl_fiber_switch(&f->sp, to, f), f->carrier);
}

void shl_fiber_park(struct shl_fiber *f, uint32_t seq, uint64_t ns)
{
	f->park_seq = seq;
	atomic_store_explicit(&f->deadline_ns, ns ? shl_coarse_ns() + ns : 0,
			      memory_order_relaxed);
	leave(f, LEAVE_PARK);
}

void shl_fiber_yield(struct shl_fiber *f)
{
	/* On its own thread, the rank moves to the carriers: a rank that polls and never
	 * waits would otherwise stay a thread the kernel time-slices with them. */
	if (f->carrier == NULL || any_queued())
		leave(f, LEAVE_YIELD);
}

void shl_fiber_go_home(void)
{
	struct shl_fiber *f = shl_fiber_self;

	if (f != NULL && f->carrier != NULL)
		leave(f, LEAVE_HOME);
}

/* ---- carriers and their ticker ---- */
static void idle(struct run_queue *q)
{
	uint32_t seq = atomic_load(&q->idle_seq);

	atomic_store(&q->idle, true);  /* seq_cst: pairs with push's `queued` increment */
	if (!any_queued())
		futex_wait(&q->idle_seq, seq, 0);
	atomic_store(&q->idle, false);
	atomic_store(&q->waking, false);
}

static void *carrier_main(void *arg)
{
	struct shl_carrier *c = arg;
	char name[16];

	snprintf(name, sizeof(name), "carrier %d", c->index);
	pthread_setname_np(pthread_self(), name);
	shl_job_signal_stack();  /* for the crash report of a rank it runs */
	for (bool served = false;; served = true) {
		struct shl_fiber *f = c->extra && served ? NULL : pop(c);

		if (f == NULL && c->extra)
			break;
		if (f == NULL) {
			idle(&fs.queues[c->queue]);
			continue;
		}
		if (atomic_load_explicit(&fs.queues[c->queue].queued, memory_order_relaxed) > 0)
			wake_any_carrier();  /* a backlog: one more core can help */
		release(shl_fiber_switch(&c->sp, f->sp, NULL), c);
	}
	atomic_fetch_sub(&fs.ncarriers, 1);
	free(c);
	return NULL;
}

/* Ticker thread or node main thread: start one more carrier. */
static int add_carrier(bool extra)
{
	struct shl_carrier *c = calloc(1, sizeof(*c));
	pthread_t t;
	int err;

	if (c == NULL)
		return ENOMEM;
	c->index = atomic_fetch_add(&fs.named, 1);
	c->queue = c->index % fs.nqueues;
	c->extra = extra;
	atomic_fetch_add(&fs.ncarriers, 1);
	err = pthread_create(&t, NULL, carrier_main, c);
	if (err != 0) {
		atomic_fetch_sub(&fs.ncarriers, 1);
		free(c);
		return err;
	}
	pthread_detach(t);
	return 0;
}

static void *ticker_main(void *arg)
{
	uint64_t last_pops = 0, stuck_since = 0;
	_Atomic uint32_t never = 0;

	pthread_setname_np(pthread_self(), "shoal ticker");
	for (;;) {
		bool busy = any_queued(), woke = false;
		uint64_t now, pops = 0;

		futex_wait(&never, 0, busy ? SHL_FIBER_TICK_BUSY_NS : SHL_FIBER_TICK_IDLE_NS);
		now = shl_mono_ns();
		uint64_t coarse = shl_coarse_ns();
		for (int i = 0; i < fs.nfibers; i++) {
			struct shl_fiber *f = &fs.fibers[i];
			uint64_t end = atomic_load_explicit(&f->deadline_ns, memory_order_relaxed);

			if (end != 0 && end <= coarse &&
			    atomic_load(&f->state) == SHL_FIBER_PARKED)
				try_wake(f, NULL);
		}
		if (!any_queued()) {
			stuck_since = 0;
			continue;
		}
		for (int i = 0; i < fs.nqueues; i++) {
			/* A wake-up can be lost to a carrier that looked at the queues and
			 * went on just as it came (idle() clears `waking` after): redo it. */
			if (atomic_load(&fs.queues[i].idle)) {
				atomic_store(&fs.queues[i].waking, false);
				woke |= wake_carrier(&fs.queues[i]);
			}
		}
		if (woke)
			continue;
		for (int i = 0; i < fs.nqueues; i++)
			pops += atomic_load_explicit(&fs.queues[i].pops, memory_order_relaxed);
		if (pops != last_pops || stuck_since == 0) {
			last_pops = pops;
			stuck_since = now;
		} else if (now - stuck_since >= SHL_FIBER_STUCK_NS &&
			   atomic_load(&fs.ncarriers) < fs.nfibers) {
			add_carrier(true);
			stuck_since = 0;
		}
	}
	return NULL;
}

bool shl_fibers_start(struct shl_rank *ranks, int nlocal)
{
	const char *want = getenv("SHOAL_FIBERS");
	int cores = shl_job.cores;
	pthread_t ticker;

	if (shl_job_debug_stop())
		return false;  /* gdb's thread-per-rank view, for breakpoints and single ranks */
	if (want && *want ? strcmp(want, "0") == 0 : nlocal <= cores)
		return false;
	if (!(getauxval(AT_HWCAP2) & HWCAP2_FSGSBASE))
		return false;
	fs.fibers = aligned_alloc(64, (size_t)nlocal * sizeof(*fs.fibers));
	if (fs.fibers == NULL)
		return false;
	memset(fs.fibers, 0, (size_t)nlocal * sizeof(*fs.fibers));
	fs.nfibers = nlocal;
	fs.nqueues = cores < nlocal ? cores : nlocal;
	fs.queues = aligned_alloc(64, (size_t)fs.nqueues * sizeof(*fs.queues));
	if (fs.queues == NULL)
		return false;
	memset(fs.queues, 0, (size_t)fs.nqueues * sizeof(*fs.queues));
	for (int i = 0; i < nlocal; i++) {
		fs.fibers[i].rank = &ranks[i];
		fs.fibers[i].home = i % fs.nqueues;
		ranks[i].fiber = &fs.fibers[i];
		ranks[i].lane = fs.fibers[i].home % SHL_Q_LANES;
		shl_inbox_init(&ranks[i].inbox, fs.nqueues < SHL_Q_LANES ? fs.nqueues : SHL_Q_LANES);
	}
	for (int i = 0; i < fs.nqueues; i++)
		if (add_carrier(false) != 0)
			shl_panic("MPI_Init", EAGAIN, "cannot start a carrier thread");
	if (pthread_create(&ticker, NULL, ticker_main, NULL) != 0)
		shl_panic("MPI_Init", EAGAIN, "cannot start the carriers' ticker");
	pthread_detach(ticker);
	return true;
}
