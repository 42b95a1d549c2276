/* The project library of the build-system tests (core.c). */
#ifndef CORE_H
#define CORE_H
#ifdef __cplusplus
extern "C" {
#endif
/* Sum of value over MPI_COMM_WORLD. */
int core_world_sum(int value);
#ifdef __cplusplus
}
#endif
#endif
