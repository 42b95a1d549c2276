/* The monotonic clock, read the one way every part of Shoal reads it: the runtime's waits,
 * the completion thread's deadlines, mpiexec's and the node proxy's timers.
 * Header only; any thread. Must not use a clock that jumps (CLOCK_REALTIME). */
#ifndef SHL_IO_CLOCK_H
#define SHL_IO_CLOCK_H

#include <stdint.h>
#include <time.h>

/* `clock` in nanoseconds. */
static inline uint64_t shl_clock_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* CLOCK_MONOTONIC in nanoseconds, milliseconds and seconds. */
static inline uint64_t shl_mono_ns(void)
{
	return shl_clock_ns(CLOCK_MONOTONIC);
}

static inline long shl_mono_ms(void)
{
	return (long)(shl_mono_ns() / 1000000u);
}

static inline time_t shl_mono_s(void)
{
	return (time_t)(shl_mono_ns() / 1000000000u);
}

/* CLOCK_MONOTONIC_COARSE in nanoseconds, behind shl_mono_ns by up to a kernel tick (4 ms
 * here): for deadlines of tens of milliseconds. It costs 5 ns a read on the development VM
 * against 23 for shl_mono_ns, and every timed park of a rank reads it. */
static inline uint64_t shl_coarse_ns(void)
{
	return shl_clock_ns(CLOCK_MONOTONIC_COARSE);
}

#endif
