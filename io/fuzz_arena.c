/* The fuzz targets' allocator (io/fuzz_arena.h): a list of blocks, emptied per input.
 * Entered by libFuzzer's driver thread only; never part of libmpi.so. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "io/fuzz_arena.h"

/* A block's link, in the first 128 bytes (the largest alignment asked for). */
struct block {
	struct block *prev, *next;
};

static struct block arena = { &arena, &arena };

void *fuzz_malloc(size_t n)
{
	void *p;
	struct block *b;

	if (posix_memalign(&p, 128, 128 + n) != 0)
		return NULL;
	b = p;
	b->next = arena.next;
	b->prev = &arena;
	arena.next->prev = b;
	arena.next = b;
	return (char *)p + 128;
}

void *fuzz_calloc(size_t n, size_t size)
{
	void *p = n != 0 && size > SIZE_MAX / n ? NULL : fuzz_malloc(n * size);

	if (p != NULL)
		memset(p, 0, n * size);
	return p;
}

void fuzz_free(void *p)
{
	struct block *b;

	if (p == NULL)
		return;
	b = (struct block *)((char *)p - 128);
	b->prev->next = b->next;
	b->next->prev = b->prev;
	free(b);
}

void fuzz_arena_empty(void)
{
	while (arena.next != &arena) {
		struct block *b = arena.next;
		arena.next = b->next;
		free(b);
	}
	arena.prev = &arena;
}
