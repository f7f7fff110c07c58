package libgit2

/*
#include <malloc.h>
#include <stdlib.h>

// depot_limit_malloc_arenas keeps glibc's allocator to one arena, before
// the Go runtime starts its threads (glibc fixes its bound on arenas when
// a second one is first needed, so a later mallopt comes too late). glibc
// gives every thread that allocates its own arena, up to eight per core;
// Go runs cgo calls on whichever thread is free, so over time libgit2's
// allocations spread over all of them, and each arena keeps the memory its
// largest file needed (freed memory inside an arena is reused by that arena
// only). Streaming a 100 MB diff grew the resident set by 30 to 50 MB
// without holding anything; with one arena, by a few. Small allocations
// still go through each thread's cache without taking the arena's lock.
// MALLOC_ARENA_MAX in the environment, when set, is left to decide.
__attribute__((constructor)) static void depot_limit_malloc_arenas(void) {
#ifdef M_ARENA_MAX
	if (getenv("MALLOC_ARENA_MAX") == NULL)
		mallopt(M_ARENA_MAX, 1);
#endif
}
*/
import "C"
