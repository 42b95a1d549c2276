/* The transport callbacks the protocol's fuzz targets (io/fuzz_proto.c, io/fuzz_pair.c)
 * share: nothing to poll, and a failure that ends the run, since no frame a peer sends may
 * lead the protocol into a state it thinks impossible. Each target defines the rest of its
 * fake transport (how frames are taken and written).
 * Entered by libFuzzer's driver thread only; never part of libmpi.so. */
#ifndef SHL_IO_FUZZ_TRANSPORT_H
#define SHL_IO_FUZZ_TRANSPORT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

static bool tp_poll(bool *joined)
{
	(void)joined;
	return false;
}

static void tp_poll_end(void)
{
}

__attribute__((noreturn, format(printf, 1, 2)))
static void tp_fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

#endif
