/* The allocator of the fuzz targets that compile io/proto.c and queues/queues.c in
 * (io/fuzz_proto.c, io/fuzz_pair.c): every block is kept on one list, so that the state an
 * input leaves behind is freed before the next input and no state crosses inputs.
 * Entered by libFuzzer's driver thread only; never part of libmpi.so. */
#ifndef SHL_IO_FUZZ_ARENA_H
#define SHL_IO_FUZZ_ARENA_H

#include <stddef.h>

/* malloc, calloc and free on the arena; blocks are aligned to 128 bytes, the largest
 * alignment the protocol and the pools ask for. */
void *fuzz_malloc(size_t n);
void *fuzz_calloc(size_t n, size_t size);
void fuzz_free(void *p);
/* Free every block still allocated. */
void fuzz_arena_empty(void);

#endif
