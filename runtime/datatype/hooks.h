/* Every function datatype calls in a higher layer: the one list of datatype's upcalls, each
 * with its contract and the layer that implements it. Plain functions, called directly.
 * Entered by whichever thread the contract names. Must not hold anything but declarations:
 * a datatype file that needs a higher layer includes this, never that layer's headers
 * (tests/layers_go_down.sh checks both). */
#ifndef SHL_RUNTIME_DATATYPE_HOOKS_H
#define SHL_RUNTIME_DATATYPE_HOOKS_H

#include "mpi.h"

/* ---- implemented by comm (comm/attr.c) ---- */

/* Owner thread, rank unlocked (MPI_Type_dup): copy `from`'s attributes onto the new derived
 * type `to` through the copy callbacks. Returns MPI_SUCCESS or the failing callback's code
 * (attributes copied so far stay on `to`). */
int shl_attr_copy_type(MPI_Datatype from, MPI_Datatype to);

/* Owner thread, rank unlocked (the last MPI_Type_free of a derived type): delete every
 * attribute of `t` through the delete callbacks. Returns MPI_SUCCESS or the failing
 * callback's code (the rest stay attached). */
int shl_attr_delete_type(MPI_Datatype t);

#endif
