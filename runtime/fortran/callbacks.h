/* What libmpi exports for libmpifort's hand-written bindings (runtime/fortran/callbacks.c):
 * user operations and error handlers whose functions are written in Fortran, which libmpi
 * calls back with Fortran's conventions (every argument by reference, handles as their
 * Fortran integers). Implemented in runtime/datatype/op.c (ops) and runtime/core/errors.c
 * (error handlers); entered by the rank thread creating the object, and the callbacks run
 * in whichever thread runs the reduction or raises the error, as the C ones do. */
#ifndef SHL_RUNTIME_FORTRAN_CALLBACKS_H
#define SHL_RUNTIME_FORTRAN_CALLBACKS_H

#include "mpi.h"

/* A Fortran MPI_User_function: `len` elements of the datatype whose Fortran integer is
 * `*datatype`; the large-count twin (mpi_f08's MPI_Op_create_c) has an MPI_Count length. */
typedef void shl_f_user_function(void *invec, void *inoutvec, MPI_Fint *len, MPI_Fint *datatype);
typedef void shl_f_user_function_c(void *invec, void *inoutvec, MPI_Count *len,
				   MPI_Fint *datatype);

/* MPI_Op_create / MPI_Op_create_c for a Fortran function: same checks and errors. */
int shl_f_op_create(shl_f_user_function *fn, int commute, MPI_Op *op);
int shl_f_op_create_c(shl_f_user_function_c *fn, int commute, MPI_Op *op);

/* A Fortran error handler: the object's Fortran integer and the error code. */
typedef void shl_f_errhandler_function(MPI_Fint *handle, MPI_Fint *code);

/* The kinds of object shl_f_errhandler_create takes (libmpi's enum shl_errh_obj). */
#define SHL_F_ERRH_COMM 1
#define SHL_F_ERRH_WIN 2
#define SHL_F_ERRH_SESSION 3
#define SHL_F_ERRH_FILE 4

/* MPI_{Comm,Win,Session,File}_create_errhandler for a Fortran function, by `obj`. */
int shl_f_errhandler_create(int obj, shl_f_errhandler_function *fn, MPI_Errhandler *errhandler);

#endif
