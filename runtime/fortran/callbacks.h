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

/* ---- libmpifort's hand-written bindings (runtime/fortran/callbacks.c) ----
 * The Fortran procedures they take, all arguments by reference: */
typedef void shl_f_copy_fn(MPI_Fint *oldobj, MPI_Fint *keyval, MPI_Aint *extra_state,
			   MPI_Aint *attribute_val_in, MPI_Aint *attribute_val_out,
			   MPI_Fint *flag, MPI_Fint *ierror);
typedef void shl_f_delete_fn(MPI_Fint *obj, MPI_Fint *keyval, MPI_Aint *attribute_val,
			     MPI_Aint *extra_state, MPI_Fint *ierror);
/* MPI_Keyval_create's (MPI-1): INTEGER values and extra_state. */
typedef void shl_f_copy1_fn(MPI_Fint *oldcomm, MPI_Fint *keyval, MPI_Fint *extra_state,
			    MPI_Fint *attribute_val_in, MPI_Fint *attribute_val_out,
			    MPI_Fint *flag, MPI_Fint *ierror);
typedef void shl_f_delete1_fn(MPI_Fint *comm, MPI_Fint *keyval, MPI_Fint *attribute_val,
			      MPI_Fint *extra_state, MPI_Fint *ierror);
typedef void shl_f_query_fn(MPI_Aint *extra_state, MPI_Fint *status, MPI_Fint *ierror);
typedef void shl_f_free_fn(MPI_Aint *extra_state, MPI_Fint *ierror);
typedef void shl_f_cancel_fn(MPI_Aint *extra_state, MPI_Fint *complete, MPI_Fint *ierror);
typedef void shl_f_conv_fn(void *userbuf, MPI_Fint *datatype, MPI_Fint *count, void *filebuf,
			   MPI_Offset *position, MPI_Aint *extra_state, MPI_Fint *ierror);
typedef void shl_f_conv_c_fn(void *userbuf, MPI_Fint *datatype, MPI_Count *count,
			     void *filebuf, MPI_Offset *position, MPI_Aint *extra_state,
			     MPI_Fint *ierror);
typedef void shl_f_extent_fn(MPI_Fint *datatype, MPI_Aint *extent, MPI_Aint *extra_state,
			     MPI_Fint *ierror);

#define SHL_F_EXPORT __attribute__((visibility("default")))
/* pmpi_x_ and its weak twin mpi_x_ (mpif.h, `mpi`, and mpi_f08 by BIND(C) name). */
#define SHL_F_BOTH(name, args) SHL_F_EXPORT void mpi_##name##_ args; \
	SHL_F_EXPORT void pmpi_##name##_ args

SHL_F_BOTH(op_create, (shl_f_user_function *fn, MPI_Fint *commute, MPI_Fint *op,
		       MPI_Fint *ierror));
SHL_F_BOTH(comm_create_errhandler, (shl_f_errhandler_function *fn, MPI_Fint *errhandler,
				    MPI_Fint *ierror));
SHL_F_BOTH(win_create_errhandler, (shl_f_errhandler_function *fn, MPI_Fint *errhandler,
				   MPI_Fint *ierror));
SHL_F_BOTH(file_create_errhandler, (shl_f_errhandler_function *fn, MPI_Fint *errhandler,
				    MPI_Fint *ierror));
SHL_F_BOTH(session_create_errhandler, (shl_f_errhandler_function *fn, MPI_Fint *errhandler,
				       MPI_Fint *ierror));
SHL_F_BOTH(comm_create_keyval, (shl_f_copy_fn *copy_fn, shl_f_delete_fn *delete_fn,
				MPI_Fint *keyval, MPI_Aint *extra_state, MPI_Fint *ierror));
SHL_F_BOTH(type_create_keyval, (shl_f_copy_fn *copy_fn, shl_f_delete_fn *delete_fn,
				MPI_Fint *keyval, MPI_Aint *extra_state, MPI_Fint *ierror));
SHL_F_BOTH(win_create_keyval, (shl_f_copy_fn *copy_fn, shl_f_delete_fn *delete_fn,
			       MPI_Fint *keyval, MPI_Aint *extra_state, MPI_Fint *ierror));
SHL_F_BOTH(keyval_create, (shl_f_copy1_fn *copy_fn, shl_f_delete1_fn *delete_fn,
			   MPI_Fint *keyval, MPI_Fint *extra_state, MPI_Fint *ierror));
SHL_F_BOTH(comm_set_attr, (MPI_Fint *comm, MPI_Fint *keyval, MPI_Aint *attribute_val,
			   MPI_Fint *ierror));
SHL_F_BOTH(type_set_attr, (MPI_Fint *type, MPI_Fint *keyval, MPI_Aint *attribute_val,
			   MPI_Fint *ierror));
SHL_F_BOTH(win_set_attr, (MPI_Fint *win, MPI_Fint *keyval, MPI_Aint *attribute_val,
			  MPI_Fint *ierror));
SHL_F_BOTH(comm_get_attr, (MPI_Fint *comm, MPI_Fint *keyval, MPI_Aint *attribute_val,
			   MPI_Fint *flag, MPI_Fint *ierror));
SHL_F_BOTH(type_get_attr, (MPI_Fint *type, MPI_Fint *keyval, MPI_Aint *attribute_val,
			   MPI_Fint *flag, MPI_Fint *ierror));
SHL_F_BOTH(win_get_attr, (MPI_Fint *win, MPI_Fint *keyval, MPI_Aint *attribute_val,
			  MPI_Fint *flag, MPI_Fint *ierror));
SHL_F_BOTH(comm_delete_attr, (MPI_Fint *comm, MPI_Fint *keyval, MPI_Fint *ierror));
SHL_F_BOTH(type_delete_attr, (MPI_Fint *type, MPI_Fint *keyval, MPI_Fint *ierror));
SHL_F_BOTH(win_delete_attr, (MPI_Fint *win, MPI_Fint *keyval, MPI_Fint *ierror));
SHL_F_BOTH(attr_put, (MPI_Fint *comm, MPI_Fint *keyval, MPI_Fint *attribute_val,
		      MPI_Fint *ierror));
SHL_F_BOTH(attr_get, (MPI_Fint *comm, MPI_Fint *keyval, MPI_Fint *attribute_val,
		      MPI_Fint *flag, MPI_Fint *ierror));
SHL_F_BOTH(attr_delete, (MPI_Fint *comm, MPI_Fint *keyval, MPI_Fint *ierror));
SHL_F_BOTH(grequest_start, (shl_f_query_fn *query_fn, shl_f_free_fn *free_fn,
			    shl_f_cancel_fn *cancel_fn, MPI_Aint *extra_state,
			    MPI_Fint *request, MPI_Fint *ierror));
SHL_F_BOTH(register_datarep, (char *datarep, shl_f_conv_fn *read_conversion_fn,
			      shl_f_conv_fn *write_conversion_fn,
			      shl_f_extent_fn *dtype_file_extent_fn, MPI_Aint *extra_state,
			      MPI_Fint *ierror, size_t datarep_len));
/* Fortran's answer: the sized Fortran types (MPI_INTEGER4, MPI_REAL8, MPI_COMPLEX16 ...). */
SHL_F_BOTH(type_match_size, (MPI_Fint *typeclass, MPI_Fint *size, MPI_Fint *datatype,
			     MPI_Fint *ierror));
#undef SHL_F_BOTH

/* mpi_f08 only: the large-count twins (MPI_X_c_f08ts and PMPI_X_c_f08ts). */
SHL_F_EXPORT void MPI_Op_create_c_f08ts(shl_f_user_function_c *fn, MPI_Fint *commute,
					MPI_Fint *op, MPI_Fint *ierror);
SHL_F_EXPORT void PMPI_Op_create_c_f08ts(shl_f_user_function_c *fn, MPI_Fint *commute,
					 MPI_Fint *op, MPI_Fint *ierror);
SHL_F_EXPORT void MPI_Register_datarep_c_f08ts(char *datarep, shl_f_conv_c_fn *read_conversion_fn,
					       shl_f_conv_c_fn *write_conversion_fn,
					       shl_f_extent_fn *dtype_file_extent_fn,
					       MPI_Aint *extra_state, MPI_Fint *ierror,
					       size_t datarep_len);
SHL_F_EXPORT void PMPI_Register_datarep_c_f08ts(char *datarep,
						shl_f_conv_c_fn *read_conversion_fn,
						shl_f_conv_c_fn *write_conversion_fn,
						shl_f_extent_fn *dtype_file_extent_fn,
						MPI_Aint *extra_state, MPI_Fint *ierror,
						size_t datarep_len);

/* The predefined callbacks as Fortran external procedures (MPI_COMM_DUP_FN ...). */
SHL_F_EXPORT shl_f_copy_fn mpi_comm_null_copy_fn_, mpi_comm_dup_fn_, mpi_type_null_copy_fn_,
	mpi_type_dup_fn_, mpi_win_null_copy_fn_, mpi_win_dup_fn_;
SHL_F_EXPORT shl_f_delete_fn mpi_comm_null_delete_fn_, mpi_type_null_delete_fn_,
	mpi_win_null_delete_fn_;
SHL_F_EXPORT shl_f_copy1_fn mpi_null_copy_fn_, mpi_dup_fn_;
SHL_F_EXPORT shl_f_delete1_fn mpi_null_delete_fn_;
SHL_F_EXPORT shl_f_conv_fn mpi_conversion_fn_null_;
SHL_F_EXPORT shl_f_conv_c_fn mpi_conversion_fn_null_c_;

#endif
