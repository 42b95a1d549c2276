/* rma_atomic_driver: the element-wise atomics of runtime/rma/atomic.c (shl_rma_atomic,
 * shl_rma_cas) hammered by threads on one element at a time, and on runs of doubles that
 * straddle the stripes' granules, without a job: built by
 * tests/rma_atomic_elements_stay_exact_under_threads.sh from the sources, with op.c's
 * kernels (its table, through the #include) and query.c's predefined datatypes. In each
 * case THREADS threads make ITERS calls each on the element, meeting every ROUND calls so
 * that they overlap, and the case checks
 * what a lost or torn update would break: exact sums, every fetched old value seen exactly
 * once, each thread's own bits as it left them, monotonic maxima, the chain of exchanges,
 * reads of a run that never go back.
 * Prints a line per case ("ok NAME" or "FAIL NAME: ..."); exits 0 if all passed, 1 if not.
 *
 * Usage: rma_atomic_driver [THREADS [ITERS]]   (defaults 8 and 400000; THREADS 2 to 8) */
#include <complex.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "runtime/datatype/op.c"
#include "runtime/datatype/query.c"
#include "runtime/rma/rma.h"

static int T = 8;
static long M = 400000;

static alignas(64) unsigned char mem[256];
static char *elem;                      /* the element of the case running */
static const struct shl_datatype *ty;   /* its type */
static enum shl_op_kind opk;            /* the case's op, where it has one */
static long iters;                      /* calls per thread in this case */
static unsigned char *seen;             /* values 0..T*M: fetched (or final) already */
static int32_t *fetched[8];             /* by thread: the values it fetched, in order */
static long nfetched[8];
static _Thread_local int me;            /* the thread's index */
static _Atomic long tally;              /* a count the threads add to */
static _Atomic int bad;                 /* failures in the case running */
static int cases, failed;               /* cases run, and failed */
static const char *case_name;

/* A failure of the case running; the first 5 are printed, each as one line. */
static void failf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void failf(const char *fmt, ...)
{
	char line[256];
	int n;
	va_list ap;

	if (atomic_fetch_add(&bad, 1) >= 5)
		return;
	n = snprintf(line, sizeof line, "FAIL %s: ", case_name);
	va_start(ap, fmt);
	vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
	va_end(ap);
	fprintf(stdout, "%s\n", line);
	fflush(stdout);
}

/* Calls a thread makes between two meetings of all threads. A meeting releases the
 * threads together, so that those the cores run at that moment overlap in the calls that
 * follow, on any machine: started once, a thread may finish its calls alone before the
 * scheduler runs another. */
#define ROUND 1000

static _Atomic unsigned arrived, rounds;

/* Call i of a thread: every ROUND calls, wait (yielding the core) until all threads are
 * there. */
static void pace(long i)
{
	if (i % ROUND != 0)
		return;
	unsigned r = atomic_load(&rounds);
	if (atomic_fetch_add(&arrived, 1) == (unsigned)T - 1) {
		atomic_store(&arrived, 0);
		atomic_fetch_add(&rounds, 1);
	} else {
		while (atomic_load(&rounds) == r)
			sched_yield();
	}
}

/* The kernel shl_fold_init gives a predefined op on a predefined type. */
static shl_kern *kern(enum shl_op_kind op, const struct shl_datatype *t)
{
	shl_kern *k = op < SHL_OP_REPLACE ? kernels[t->arith][op] : NULL;

	if (op < SHL_OP_REPLACE && k == NULL) {
		printf("driver: no kernel for op %d on %s\n", op, t->name);
		exit(2);
	}
	return k;
}

static void atomic1(enum shl_op_kind op, const void *src, void *fetch)
{
	shl_rma_atomic(op, kern(op, ty), ty, elem, src, fetch, 1);
}

/* Value x (0 <= x <= T*M) fetched by the thread: kept, and judged after the threads are
 * done (plain stores: the calls under test dominate the loop). */
static void mark(long x)
{
	fetched[me][nfetched[me]++] = x >= 0 && x <= (long)T * M ? (int32_t)x : -1;
}

/* Value x fetched, or final: twice is a lost update. */
static void seen_once(long x)
{
	if (x < 0 || x > (long)T * M)
		failf("value %ld out of 0..%ld", x, (long)T * M);
	else if (seen[x]++)
		failf("value %ld fetched twice", x);
}
/* Every value in [lo, hi] fetched (or final). */
static void all_seen(long lo, long hi)
{
	for (long x = lo; x <= hi; x++)
		if (!seen[x]) {
			failf("value %ld never fetched", x);
			return;
		}
}

static uint64_t get_uint(const void *p, size_t size)
{
	uint64_t x = 0;

	memcpy(&x, p, size);
	return x;
}

/* ---- the cases' thread bodies (t: the thread's index) ---- */

/* Integer SUM of 1 with fetch; fetched values tracked when they cannot wrap. */
static void body_int_sum(int t)
{
	uint64_t one = 1, old = 0;
	bool track = ty->size >= 4;

	for (long i = 0; i < iters; i++) {
		pace(i);
		atomic1(SHL_OP_SUM, &one, &old);
		if (track)
			mark((long)get_uint(&old, ty->size));
	}
}

/* Floating SUM of 1 with fetch: every integer below T*M is fetched once. */
static void body_float_sum(int t)
{
	for (long i = 0; i < iters; i++) {
		pace(i);
		if (ty->arith == SHL_DT_ARITH_F) {
			float v = 1, old;
			atomic1(SHL_OP_SUM, &v, &old);
			mark((long)old);
		} else if (ty->arith == SHL_DT_ARITH_D) {
			double v = 1, old;
			atomic1(SHL_OP_SUM, &v, &old);
			mark((long)old);
		} else {
			long double v = 1, old;
			atomic1(SHL_OP_SUM, &v, &old);
			mark((long)old);
		}
	}
}

/* Complex SUM of 1 + c i: the fetched imaginary part is c times the real one. */
static void body_complex_sum(int t)
{
	for (long i = 0; i < iters; i++) {
		pace(i);
		long double re, im;
		if (ty->arith == SHL_DT_ARITH_CF) {
			float _Complex v = CMPLXF(1, -1), old;
			atomic1(SHL_OP_SUM, &v, &old);
			re = crealf(old), im = -cimagf(old);
		} else if (ty->arith == SHL_DT_ARITH_CD) {
			double _Complex v = CMPLX(1, 2), old;
			atomic1(SHL_OP_SUM, &v, &old);
			re = creal(old), im = cimag(old) / 2;
		} else {
			long double _Complex v = CMPLXL(1, 3), old;
			atomic1(SHL_OP_SUM, &v, &old);
			re = creall(old), im = cimagl(old) / 3;
		}
		if (re != im)
			failf("torn complex: %Lg and %Lg", re, im);
		mark((long)re);
	}
}

/* One thread in four SUMs 1 with fetch, the others increment by compare-and-swap: every
 * old value an increment started from is fetched once (tracked for 4 and 8 bytes). */
static void body_cas_inc(int t)
{
	bool track = ty->size >= 4;

	for (long i = 0; i < iters; i++) {
		pace(i);
		uint64_t cur = 0, old = 0, nw, one = 1;
		if (t % 4 == 3) {
			atomic1(SHL_OP_SUM, &one, &old);
			cur = old;
		} else {
			atomic1(SHL_OP_NO_OP, NULL, &cur);
			for (;;) {
				nw = cur + 1;
				shl_rma_cas(ty, elem, &nw, &cur, &old);
				if (memcmp(&old, &cur, ty->size) == 0)
					break;
				cur = old;
			}
		}
		if (track)
			mark((long)get_uint(&cur, ty->size));
	}
}

/* BOR then BAND of the thread's own bit (or BXOR of it, opk): the fetched word always
 * shows that bit as the thread left it. */
static void body_bits(int t)
{
	uint64_t bit = UINT64_C(1) << t, nbit = ~bit, old = 0;

	for (long i = 0; i < iters; i++) {
		pace(i);
		if (opk == SHL_OP_BXOR) {
			atomic1(SHL_OP_BXOR, &bit, &old);
			if (((old & bit) != 0) != (i & 1))
				failf("thread %d's bit %s before its xor %ld", t,
				      (old & bit) ? "set" : "clear", i);
		} else {
			atomic1(SHL_OP_BOR, &bit, &old);
			if (old & bit)
				failf("thread %d's bit set before its or %ld", t, i);
			atomic1(SHL_OP_BAND, &nbit, &old);
			if (!(old & bit))
				failf("thread %d's bit clear before its and %ld", t, i);
		}
	}
}

/* LXOR with true: the old values alternate false, true, ...: count the trues. */
static void body_lxor(int t)
{
	long trues = 0;

	for (long i = 0; i < iters; i++) {
		pace(i);
		uint64_t v = 1, old = 0;
		atomic1(SHL_OP_LXOR, &v, &old);
		old = get_uint(&old, ty->size);
		if (old > 1)
			failf("LXOR fetched %llu", (unsigned long long)old);
		trues += (long)old;
	}
	atomic_fetch_add(&tally, trues);
}

/* A value of type `t`, to and from long double. */
static void put_num(const struct shl_datatype *t, void *p, long double x)
{
	switch (t->arith) {
	case SHL_DT_ARITH_I16: { int16_t v = (int16_t)x; memcpy(p, &v, sizeof v); break; }
	case SHL_DT_ARITH_I32: { int32_t v = (int32_t)x; memcpy(p, &v, sizeof v); break; }
	case SHL_DT_ARITH_I64: { int64_t v = (int64_t)x; memcpy(p, &v, sizeof v); break; }
	case SHL_DT_ARITH_F: { float v = (float)x; memcpy(p, &v, sizeof v); break; }
	case SHL_DT_ARITH_D: { double v = (double)x; memcpy(p, &v, sizeof v); break; }
	case SHL_DT_ARITH_LD: memcpy(p, &x, sizeof x); break;
	default: printf("driver: no number of %s\n", t->name); exit(2);
	}
}

static long double get_num(const struct shl_datatype *t, const void *p)
{
	switch (t->arith) {
	case SHL_DT_ARITH_I16: { int16_t v; memcpy(&v, p, sizeof v); return v; }
	case SHL_DT_ARITH_I32: { int32_t v; memcpy(&v, p, sizeof v); return v; }
	case SHL_DT_ARITH_I64: { int64_t v; memcpy(&v, p, sizeof v); return v; }
	case SHL_DT_ARITH_F: { float v; memcpy(&v, p, sizeof v); return v; }
	case SHL_DT_ARITH_D: { double v; memcpy(&v, p, sizeof v); return v; }
	case SHL_DT_ARITH_LD: { long double v; memcpy(&v, p, sizeof v); return v; }
	default: printf("driver: no number of %s\n", t->name); exit(2);
	}
}

/* MAX of i*T + t (MIN of its negation): the element only grows (shrinks), so the values a
 * thread fetches never go back. */
static void body_max(int t)
{
	long double sign = opk == SHL_OP_MAX ? 1 : -1, last = -1;
	alignas(16) unsigned char v[32], old[32];

	for (long i = 0; i < iters; i++) {
		pace(i);
		put_num(ty, v, sign * (long double)(i * T + t));
		atomic1(opk, v, old);
		long double o = sign * get_num(ty, old);
		if (o < last)
			failf("thread %d fetched %Lg after %Lg", t, sign * o, sign * last);
		last = o;
	}
}

/* A pair of the case's pair type: packed (value then int) from numbers, and back. */
static void put_pair(void *packed, long double v, int idx)
{
	put_num(ty->pair, packed, v);
	memcpy((char *)packed + ty->pair->size, &idx, sizeof idx);
}

static long double get_pair(const void *packed, int *idx)
{
	memcpy(idx, (const char *)packed + ty->pair->size, sizeof *idx);
	return get_num(ty->pair, packed);
}

/* MAXLOC of (i, t) (MINLOC of (-i, t)): the fetched pairs of a thread never go back, by
 * value first, then lower index (ties go to the lower index). */
static void body_loc(int t)
{
	long double sign = opk == SHL_OP_MAXLOC ? 1 : -1, lastv = -2;
	int lasti = INT_MAX;
	alignas(16) unsigned char v[32], old[32];

	for (long i = 0; i < iters; i++) {
		pace(i);
		int oi;
		put_pair(v, sign * (long double)i, t);
		atomic1(opk, v, old);
		long double ov = sign * get_pair(old, &oi);
		if (ov < lastv || (ov == lastv && oi > lasti))
			failf("thread %d fetched (%Lg, %d) after (%Lg, %d)", t, sign * ov, oi,
			      sign * lastv, lasti);
		lastv = ov, lasti = oi;
	}
}

/* The value x of the exchange chain as an element: x in every part, so that a torn one shows. */
static void put_chain(void *p, long x)
{
	if (ty->arith == SHL_DT_ARITH_I64) {
		uint64_t v = (uint64_t)x | (uint64_t)x << 32;
		memcpy(p, &v, sizeof v);
	} else if (ty->arith == SHL_DT_ARITH_CLD) {
		long double _Complex v = CMPLXL(x, -x);
		memcpy(p, &v, sizeof v);
	} else {
		put_pair(p, x, (int)-x);
	}
}

static long get_chain(const void *p)
{
	long a, b;

	if (ty->arith == SHL_DT_ARITH_I64) {
		uint64_t v;
		memcpy(&v, p, sizeof v);
		a = (long)(v & 0xffffffff), b = (long)(v >> 32);
	} else if (ty->arith == SHL_DT_ARITH_CLD) {
		long double _Complex v;
		memcpy(&v, p, sizeof v);
		a = (long)creall(v), b = (long)-cimagl(v);
	} else {
		int idx;
		a = (long)get_pair(p, &idx);
		b = -idx;
	}
	if (a != b)
		failf("torn element: %ld and %ld", a, b);
	return a;
}

/* Threads 0..T-2 exchange (REPLACE) values of their own in, each fetching the one it
 * replaced: all but the final value are fetched once. Thread T-1 reads (NO_OP): each read
 * is whole and one of the values. */
static void body_replace(int t)
{
	alignas(16) unsigned char v[32], old[32];

	for (long i = 0; i < iters; i++) {
		pace(i);
		if (t == T - 1) {
			atomic1(SHL_OP_NO_OP, NULL, old);
			long x = get_chain(old);
			if (x < 0 || x > (long)(T - 1) * iters)
				failf("read %ld, never written", x);
		} else {
			put_chain(v, (long)t * iters + i + 1);
			atomic1(SHL_OP_REPLACE, v, old);
			mark(get_chain(old));
		}
	}
}

/* SUM of (1, 2, 3) or (1, 2, 3, 4) on several elements in one call. */
static void body_vector_sum(int t)
{
	for (long i = 0; i < iters; i++) {
		pace(i);
		if (ty->arith == SHL_DT_ARITH_I32) {
			int32_t v[4] = { 1, 2, 3, 4 }, old[4];
			shl_rma_atomic(SHL_OP_SUM, kern(SHL_OP_SUM, ty), ty, elem, v, old, 4);
		} else {
			long double v[3] = { 1, 2, 3 }, old[3];
			shl_rma_atomic(SHL_OP_SUM, kern(SHL_OP_SUM, ty), ty, elem, v, NULL, 3);
			(void)old;
		}
	}
}

/* One thread in four SUMs 1.0 with fetch, the others increment by compare-and-swap of
 * doubles: every old value an increment started from is fetched once. */
static void body_cas_double(int t)
{
	for (long i = 0; i < iters; i++) {
		pace(i);
		double cur = 0, old = 0, nw, one = 1;
		if (t % 4 == 3) {
			atomic1(SHL_OP_SUM, &one, &old);
			cur = old;
		} else {
			atomic1(SHL_OP_NO_OP, NULL, &cur);
			for (;;) {
				nw = cur + 1;
				shl_rma_cas(ty, elem, &nw, &cur, &old);
				if (memcmp(&old, &cur, sizeof cur) == 0)
					break;
				cur = old;
			}
		}
		mark((long)cur);
	}
}

/* The granule case's doubles: GN of them (2 KiB from a 4 KiB boundary, so at least two
 * of atomic.c's granules of up to 1 KiB), updated in runs of GRUN that start anywhere in
 * the first GN - GRUN: every run straddles the middle, and any two runs overlap. */
#define GN 256
#define GRUN 160
static alignas(4096) double gmem[GN];
static long gcount[8][GN];              /* by thread: the 1s it added to each double */
static double glast[8][GN];             /* by thread: the value it last read of each */
static const double gones[GRUN] = { [0 ... GRUN - 1] = 1 };

/* Threads 4k and 4k+1 SUM runs of 1s (fetching the old values every other call), 4k+2
 * SUMs 1 into single doubles, 4k+3 reads runs (NO_OP): each count kept, each value read a
 * whole number that never goes back. */
static void body_granule(int t)
{
	double old[GRUN];

	for (long i = 0; i < iters; i++) {
		pace(i);
		if (t % 4 <= 1) {
			size_t at = (size_t)(i * 97 + t * 389) % (GN - GRUN);
			bool f = i & 1;
			shl_rma_atomic(SHL_OP_SUM, kern(SHL_OP_SUM, ty), ty, (char *)(gmem + at),
				       gones, f ? old : NULL, GRUN);
			for (size_t j = 0; j < GRUN; j++) {
				gcount[t][at + j]++;
				if (f && (old[j] != (double)(long)old[j] || old[j] < 0))
					failf("fetched %g from double %zu", old[j], at + j);
			}
		} else if (t % 4 == 2) {
			size_t at = (size_t)(i * 131 + t * 7) % GN;
			double one = 1, o;
			shl_rma_atomic(SHL_OP_SUM, kern(SHL_OP_SUM, ty), ty, (char *)(gmem + at),
				       &one, &o, 1);
			gcount[t][at]++;
		} else {
			size_t at = (size_t)(i * 53 + t * 11) % (GN - GRUN);
			shl_rma_atomic(SHL_OP_NO_OP, NULL, ty, (char *)(gmem + at), NULL, old, GRUN);
			for (size_t j = 0; j < GRUN; j++) {
				if (old[j] != (double)(long)old[j] || old[j] < glast[t][at + j])
					failf("read %g from double %zu after %g", old[j], at + j,
					      glast[t][at + j]);
				glast[t][at + j] = old[j];
			}
		}
	}
}

/* ---- running a case ---- */

static void (*body)(int);

static void *thread_main(void *arg)
{
	int t = (int)(intptr_t)arg;

	me = t;
	body(t);
	return NULL;
}

/* Run `fn` on T threads, `n` iterations each, on the element at mem + off (zeros first)
 * of type `t`. */
static void run(const char *name, void (*fn)(int), const struct shl_datatype *t, size_t off,
		enum shl_op_kind op, long n)
{
	pthread_t th[8];

	case_name = name;
	/* The name says which way atomic.c updates the element: "_locked" under a stripe
	 * (not an integer, MPI_BYTE or MPI_C_BOOL; size not its extent, above 8 bytes or off
	 * its alignment), else by instruction. */
	bool word = (t->arith >= SHL_DT_ARITH_I8 && t->arith <= SHL_DT_ARITH_U64) ||
		    t->arith == SHL_DT_ARITH_BYTE || t->arith == SHL_DT_ARITH_BOOL;
	word = word && (ptrdiff_t)t->size == t->extent && t->size <= 8 &&
	       ((uintptr_t)(mem + off) & (t->size - 1)) == 0;
	if (word == (strstr(name, "_locked") != NULL)) {
		printf("driver: case %s is %supdated by instruction\n", name, word ? "" : "not ");
		exit(2);
	}
	body = fn;
	ty = t;
	opk = op;
	iters = n;
	elem = (char *)mem + off;
	atomic_store(&bad, 0);
	atomic_store(&tally, 0);
	memset(mem, 0, sizeof mem);
	memset(seen, 0, (size_t)T * M + 1);
	memset(nfetched, 0, sizeof nfetched);
	for (int i = 0; i < T; i++)
		if (pthread_create(&th[i], NULL, thread_main, (void *)(intptr_t)i) != 0) {
			printf("driver: pthread_create failed\n");
			exit(2);
		}
	for (int i = 0; i < T; i++)
		pthread_join(th[i], NULL);
	for (int i = 0; i < T; i++)
		for (long j = 0; j < nfetched[i]; j++)
			seen_once(fetched[i][j]);
}

static void done(void)
{
	cases++;
	if (atomic_load(&bad) == 0)
		printf("ok %s\n", case_name);
	else
		failed++;
	fflush(stdout);
}

/* The element's value (packed) once the threads are done. */
static void final(void *packed)
{
	shl_rma_atomic(SHL_OP_NO_OP, NULL, ty, elem, NULL, packed, 1);
}

static void int_sum(const char *name, const struct shl_datatype *t, size_t off, long n)
{
	uint64_t f = 0, want = (uint64_t)T * (uint64_t)n;

	run(name, body_int_sum, t, off, SHL_OP_SUM, n);
	final(&f);
	if (t->size < 8)
		want &= (UINT64_C(1) << (8 * t->size)) - 1;
	if (f != want)
		failf("final %llu, want %llu", (unsigned long long)f, (unsigned long long)want);
	if (t->size >= 4)
		all_seen(0, (long)T * n - 1);
	done();
}

static void float_sum(const char *name, const struct shl_datatype *t, size_t off, long n)
{
	alignas(16) unsigned char f[32];

	run(name, body_float_sum, t, off, SHL_OP_SUM, n);
	final(f);
	if (get_num(ty, f) != (long double)T * n)
		failf("final %Lg, want %ld", get_num(ty, f), (long)T * n);
	all_seen(0, (long)T * n - 1);
	done();
}

static void complex_sum(const char *name, const struct shl_datatype *t, size_t off, long n)
{
	alignas(16) unsigned char f[32];
	long double re;

	run(name, body_complex_sum, t, off, SHL_OP_SUM, n);
	final(f);
	if (t->arith == SHL_DT_ARITH_CF) {
		float _Complex z;
		memcpy(&z, f, sizeof z);
		re = crealf(z);
	} else if (t->arith == SHL_DT_ARITH_CD) {
		double _Complex z;
		memcpy(&z, f, sizeof z);
		re = creal(z);
	} else {
		long double _Complex z;
		memcpy(&z, f, sizeof z);
		re = creall(z);
	}
	if (re != (long double)T * n)
		failf("final real part %Lg, want %ld", re, (long)T * n);
	all_seen(0, (long)T * n - 1);
	done();
}

static void cas_inc(const char *name, const struct shl_datatype *t, size_t off, long n)
{
	uint64_t f = 0, want = (uint64_t)T * (uint64_t)n;

	run(name, body_cas_inc, t, off, SHL_OP_NO_OP, n);
	final(&f);
	if (t->size < 8)
		want &= (UINT64_C(1) << (8 * t->size)) - 1;
	if (f != want)
		failf("final %llu, want %llu", (unsigned long long)f, (unsigned long long)want);
	if (t->size >= 4)
		all_seen(0, (long)T * n - 1);
	done();
}

static void bits(const char *name, const struct shl_datatype *t, size_t off, enum shl_op_kind op,
		 long n)
{
	uint64_t f = 0, want = 0;

	run(name, body_bits, t, off, op, n);
	final(&f);
	if (op == SHL_OP_BXOR && n % 2 == 1)
		want = (UINT64_C(1) << T) - 1;
	if (f != want)
		failf("final %#llx, want %#llx", (unsigned long long)f, (unsigned long long)want);
	done();
}

static void lxor(const char *name, const struct shl_datatype *t, size_t off, long n)
{
	uint64_t f = 0;
	long total = (long)T * n;

	run(name, body_lxor, t, off, SHL_OP_LXOR, n);
	final(&f);
	if (f != (uint64_t)(total & 1))
		failf("final %llu, want %ld", (unsigned long long)f, total & 1);
	if (atomic_load(&tally) != total / 2)
		failf("%ld old values true, want %ld", atomic_load(&tally), total / 2);
	done();
}

static void max(const char *name, const struct shl_datatype *t, size_t off, enum shl_op_kind op,
		long n)
{
	alignas(16) unsigned char f[32];
	long double want = (long double)(n * T - 1);

	run(name, body_max, t, off, op, n);
	final(f);
	if (op == SHL_OP_MIN)
		want = -want;
	if (get_num(ty, f) != want)
		failf("final %Lg, want %Lg", get_num(ty, f), want);
	done();
}

static void loc(const char *name, const struct shl_datatype *t, size_t off, enum shl_op_kind op,
		long n)
{
	alignas(16) unsigned char f[32];
	long double sign = op == SHL_OP_MAXLOC ? 1 : -1;
	int idx;

	/* run() zeroes the memory: the element starts at value 0, index 0 (its first MAXLOC
	 * (0, t) leaves it), and the bodies' pairs are compared from there. */
	run(name, body_loc, t, off, op, n);
	final(f);
	long double v = get_pair(f, &idx);
	if (v != sign * (long double)(n - 1) || idx != 0)
		failf("final (%Lg, %d), want (%Lg, 0)", v, idx, sign * (long double)(n - 1));
	done();
}

static void replace(const char *name, const struct shl_datatype *t, size_t off, long n)
{
	alignas(16) unsigned char f[32];

	run(name, body_replace, t, off, SHL_OP_REPLACE, n);
	final(f);
	seen_once(get_chain(f));
	all_seen(0, (long)(T - 1) * n);
	done();
}

static void vector_sum(const char *name, const struct shl_datatype *t, size_t off, int count,
		       long n)
{
	run(name, body_vector_sum, t, off, SHL_OP_SUM, n);
	for (int j = 0; j < count; j++) {
		long double got;
		if (t->arith == SHL_DT_ARITH_I32) {
			int32_t v;
			memcpy(&v, mem + off + j * t->extent, sizeof v);
			got = v;
		} else {
			long double v;
			memcpy(&v, mem + off + j * t->extent, sizeof v);
			got = v;
		}
		if (got != (long double)(j + 1) * T * n)
			failf("element %d: %Lg, want %Lg", j, got, (long double)(j + 1) * T * n);
	}
	done();
}

static void cas_double(const char *name, long n)
{
	double f;

	run(name, body_cas_double, &shl_mpi_double, 8, SHL_OP_NO_OP, n);
	final(&f);
	if (f != (double)T * n)
		failf("final %g, want %ld", f, (long)T * n);
	all_seen(0, (long)T * n - 1);
	done();
}

static void granule(const char *name, long n)
{
	memset(gmem, 0, sizeof gmem);
	memset(gcount, 0, sizeof gcount);
	memset(glast, 0, sizeof glast);
	run(name, body_granule, &shl_mpi_double, 8, SHL_OP_SUM, n);
	for (size_t j = 0; j < GN; j++) {
		long want = 0;
		for (int t = 0; t < T; t++)
			want += gcount[t][j];
		if (gmem[j] != (double)want)
			failf("double %zu: %g, want %ld", j, gmem[j], want);
	}
	done();
}

int main(int argc, char **argv)
{
	if (argc > 1)
		T = atoi(argv[1]);
	if (argc > 2)
		M = atol(argv[2]);
	if (T < 2 || T > 8 || M < 1 || (long)T * M >= 1L << 24) {
		printf("usage: rma_atomic_driver [THREADS (2-8) [ITERS (THREADS*ITERS < 2^24)]]\n");
		return 2;
	}
	seen = calloc((size_t)T * M + 1, 1);
	for (int i = 0; i < T; i++)
		if ((fetched[i] = calloc((size_t)M, sizeof(int32_t))) == NULL)
			return 2;
	if (seen == NULL)
		return 2;
	/* Calls per thread under a stripe: fewer, as each costs more; but compare-and-swap
	 * keeps all of them, as its unguarded window (a compare and a copy) is the shortest.
	 * MAX/MIN values of MPI_SHORT stay below 32767. */
	long L = M / 4 > 0 ? M / 4 : 1, short_n = 32000 / T;

	/* Lock-free by instruction: fetch-and-add, -and, -or, -xor, exchange, load. */
	int_sum("sum_int64_fetch_add", &shl_mpi_int64_t, 0, M);
	int_sum("sum_long_fetch_add", &shl_mpi_long, 8, M);
	int_sum("sum_int_fetch_add", &shl_mpi_int, 4, M);
	int_sum("sum_short_fetch_add", &shl_mpi_short, 2, M);
	int_sum("sum_int8_fetch_add", &shl_mpi_int8_t, 1, M);
	bits("bor_band_uint64", &shl_mpi_uint64_t, 8, SHL_OP_BOR, M);
	bits("bor_band_unsigned_short", &shl_mpi_unsigned_short, 2, SHL_OP_BOR, M);
	bits("bxor_byte", &shl_mpi_byte, 3, SHL_OP_BXOR, M);
	bits("bxor_uint32", &shl_mpi_uint32_t, 4, SHL_OP_BXOR, M);
	replace("replace_no_op_int64_exchange", &shl_mpi_int64_t, 8, M);
	/* Lock-free by compare-and-swap around the kernel. */
	lxor("lxor_c_bool_cas", &shl_mpi_c_bool, 1, M);
	lxor("lxor_int_cas", &shl_mpi_int, 4, M);
	max("max_int64_cas", &shl_mpi_int64_t, 0, SHL_OP_MAX, M);
	max("min_short_cas", &shl_mpi_short, 2, SHL_OP_MIN, short_n);
	cas_inc("cas_and_sum_int64", &shl_mpi_int64_t, 8, M);
	cas_inc("cas_and_sum_int", &shl_mpi_int, 4, M);
	cas_inc("cas_and_sum_unsigned_short", &shl_mpi_unsigned_short, 2, M);
	cas_inc("cas_and_sum_uint8", &shl_mpi_uint8_t, 1, M);
	vector_sum("sum_int_4_elements", &shl_mpi_int, 16, 4, M);
	/* Under a stripe: not an integer, too wide, padded or off alignment. */
	float_sum("sum_float_locked", &shl_mpi_float, 4, L);
	float_sum("sum_double_locked", &shl_mpi_double, 8, L);
	complex_sum("sum_c_float_complex_locked", &shl_mpi_c_float_complex, 8, L);
	max("max_double_locked", &shl_mpi_double, 8, SHL_OP_MAX, L);
	loc("maxloc_2int_locked", &shl_mpi_2int, 8, SHL_OP_MAXLOC, L);
	loc("minloc_float_int_locked", &shl_mpi_float_int, 8, SHL_OP_MINLOC, L);
	cas_double("cas_and_sum_double_locked", L);
	float_sum("sum_long_double_locked", &shl_mpi_long_double, 16, L);
	complex_sum("sum_c_double_complex_locked", &shl_mpi_c_double_complex, 16, L);
	complex_sum("sum_c_long_double_complex_locked", &shl_mpi_c_long_double_complex, 32, L);
	int_sum("sum_int_unaligned_locked", &shl_mpi_int, 1, L);
	int_sum("sum_int64_unaligned_locked", &shl_mpi_int64_t, 4, L);
	max("max_long_double_locked", &shl_mpi_long_double, 16, SHL_OP_MAX, L);
	loc("maxloc_double_int_locked", &shl_mpi_double_int, 16, SHL_OP_MAXLOC, L);
	loc("maxloc_long_double_int_locked", &shl_mpi_long_double_int, 32, SHL_OP_MAXLOC, L);
	loc("minloc_short_int_locked", &shl_mpi_short_int, 8, SHL_OP_MINLOC, short_n);
	loc("maxloc_2int_unaligned_locked", &shl_mpi_2int, 4, SHL_OP_MAXLOC, L);
	cas_inc("cas_and_sum_int64_unaligned_locked", &shl_mpi_int64_t, 3, M);
	cas_inc("cas_and_sum_int_unaligned_locked", &shl_mpi_int, 6, M);
	replace("replace_no_op_c_long_double_complex_locked", &shl_mpi_c_long_double_complex, 32, L);
	replace("replace_no_op_double_int_locked", &shl_mpi_double_int, 16, L);
	vector_sum("sum_long_double_3_elements_locked", &shl_mpi_long_double, 64, 3, L);
	granule("runs_singles_and_reads_of_doubles_locked", M);
	printf("%d of %d cases failed\n", failed, cases);
	return failed ? 1 : 0;
}
