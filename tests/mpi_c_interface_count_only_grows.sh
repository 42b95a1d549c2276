#!/bin/bash
# mpi_c_interface_count_only_grows: runtime/mpi.h declares at least FLOOR of the MPI 4.1 C functions listed in mpi41_functions.txt under tests/lib (the standard's C functions without the `_c` twins and the tools interface), and every one it declares links as MPI_x and as PMPI_x (a program taking the address of each, built with the tree's mpicc). Prints the count and the names still missing, so a reader sees what remains.
. "$SHOAL_TESTS/lib/common.bash"

# The count the tree reaches: raise it as functions arrive, never lower it.
FLOOR_MPI41_C_FUNCTIONS=440

list=$SHOAL_TESTS/lib/mpi41_functions.txt
header=$SHOAL_BUILD/include/mpi.h
[ -r "$header" ] || fail "no $header: build the tree first"
grep -v '^#' "$list" | sort -u >"$TEST_TMP/standard"
[ -s "$TEST_TMP/standard" ] || fail "$list lists no function"

# Every name mpi.h declares through SHL_DECLARE(ret, name, args), which declares MPI_name
# and PMPI_name (names in its comments do not count).
sed -n 's/^SHL_DECLARE([^,]*, *\([A-Za-z0-9_]*\),.*/MPI_\1/p' "$header" | sort -u >"$TEST_TMP/declared"
comm -12 "$TEST_TMP/standard" "$TEST_TMP/declared" >"$TEST_TMP/have"
comm -23 "$TEST_TMP/standard" "$TEST_TMP/declared" >"$TEST_TMP/missing"
have=$(wc -l <"$TEST_TMP/have")
total=$(wc -l <"$TEST_TMP/standard")
echo "mpi.h declares $have of the $total MPI 4.1 C functions (floor $FLOOR_MPI41_C_FUNCTIONS)"
echo "missing ($(wc -l <"$TEST_TMP/missing")):"
sed 's/^/  /' "$TEST_TMP/missing"

# Each declared one links, with its profiling twin. A name that is a macro in mpi.h would
# not be a function: the program takes addresses, so it fails to build then too.
{
	echo '#include <mpi.h>'
	echo 'void *volatile shl_sink;'
	echo 'int main(void)'
	echo '{'
	sed 's/^MPI_\(.*\)/\tshl_sink = (void *)\&MPI_\1;\n\tshl_sink = (void *)\&PMPI_\1;/' "$TEST_TMP/have"
	echo '	return 0;'
	echo '}'
} | build links_every_function ||
	fail "a declared function or its PMPI_ twin does not link"
[ "$have" -ge "$FLOOR_MPI41_C_FUNCTIONS" ] ||
	fail "mpi.h declares $have MPI 4.1 C functions, fewer than the floor $FLOOR_MPI41_C_FUNCTIONS"
exit 0
