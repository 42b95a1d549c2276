#!/bin/bash
# fortran_description_binds_new_functions_or_fails: a function that lands in mpi.h later
# gets Fortran bindings from the rules alone when they classify its parameters, and the
# binding description (runtime/fortran/bindgen.py) refuses to load, naming the function
# and parameter, when they cannot (a char ** argument, a callback) until bindings.txt
# settles it: never silently no binding. Also a bindings.txt line that names no function.
. "$SHOAL_TESTS/lib/common.bash"
root=$(cd "$SHOAL_TESTS/.." && pwd)
command -v python3 >/dev/null || skip "no python3"
gen=$root/runtime/fortran/bindgen.py
txt=$root/runtime/fortran/bindings.txt

# mpi.h plus one declaration, before the closing #undef.
with_decl() {
	sed "s|^#undef SHL_DECLARE|$1\n#undef SHL_DECLARE|" "$root/runtime/mpi.h" >"$TEST_TMP/mpi.h"
}

with_decl 'SHL_DECLARE(int, Comm_shoal_probe, (MPI_Comm comm, const char *what, int *flag, MPI_Datatype *types, int n));'
run env SHOAL_MPI_H="$TEST_TMP/mpi.h" SHOAL_BINDINGS="$txt" python3 "$gen" list
expect_rc 0
expect_out '^MPI_Comm_shoal_probe bound$'
# and its C body is generated: handle, string in, LOGICAL, handle array of length n.
run env SHOAL_MPI_H="$TEST_TMP/mpi.h" SHOAL_BINDINGS="$txt" python3 "$gen" mpif "$TEST_TMP/gen"
expect_rc 0
grep -q 'void pmpi_comm_shoal_probe_(MPI_Fint \*f_comm, char \*f_what, MPI_Fint \*f_flag, MPI_Fint \*f_types, MPI_Fint \*f_n, MPI_Fint \*ierror, size_t f_what_len)' \
	"$TEST_TMP/gen/mpif_bindings.c" || fail "no C body for MPI_Comm_shoal_probe"

with_decl 'SHL_DECLARE(int, Comm_shoal_names, (MPI_Comm comm, char **names));'
run env SHOAL_MPI_H="$TEST_TMP/mpi.h" SHOAL_BINDINGS="$txt" python3 "$gen" mpif "$TEST_TMP/gen2"
expect_nonzero
expect_err "MPI_Comm_shoal_names: no rule classifies parameter 'char \*\* names'"
[ -e "$TEST_TMP/gen2/mpif_bindings.c" ] && fail "wrote bindings despite the error"

with_decl 'SHL_DECLARE(int, Comm_shoal_call, (MPI_Comm_errhandler_function *fn, MPI_Comm comm));'
run env SHOAL_MPI_H="$TEST_TMP/mpi.h" SHOAL_BINDINGS="$txt" python3 "$gen" list
expect_nonzero
expect_err "MPI_Comm_shoal_call: parameter fn is a callback: list the function as manual"

# Listed as manual with a reason, it loads.
cp "$txt" "$TEST_TMP/bindings.txt"
echo "manual Comm_shoal_call a Fortran callback" >>"$TEST_TMP/bindings.txt"
run env SHOAL_MPI_H="$TEST_TMP/mpi.h" SHOAL_BINDINGS="$TEST_TMP/bindings.txt" python3 "$gen" list
expect_rc 0
expect_out '^MPI_Comm_shoal_call manual a Fortran callback$'

# A line for a function mpi.h does not declare is an error too (a stale description).
cp "$txt" "$TEST_TMP/bindings.txt"
echo "param Comm_gone comm intent=in" >>"$TEST_TMP/bindings.txt"
run env SHOAL_BINDINGS="$TEST_TMP/bindings.txt" python3 "$gen" list
expect_nonzero
expect_err "mpi.h declares no MPI_Comm_gone"
echo "new functions are bound by the rules or refused by name"
