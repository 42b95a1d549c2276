/* MPI_Op_c2f and MPI_Op_f2c: an operation's handle as a Fortran integer, core/handle.c's
 * encoding (core/convert.c has the other kinds). Entered by any thread; no lock. */
#include "runtime/core/rt.h"
#include "runtime/datatype/op.h"

MPI_Fint PMPI_Op_c2f(MPI_Op op)
{
	return shl_handle_to_int(op);
}
SHL_WEAK_ALIAS(Op_c2f);

MPI_Op PMPI_Op_f2c(MPI_Fint op)
{
	return shl_handle_from_int(op, sizeof(struct shl_op), SHL_OP_MAGIC);
}
SHL_WEAK_ALIAS(Op_f2c);
