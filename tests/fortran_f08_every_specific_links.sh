#!/bin/bash
# fortran_f08_every_specific_links: every linker name the mpi_f08 module's interfaces call
# (the BIND(C) names, the gfortran names of the interfaces without BIND(C), the predefined
# callbacks) is defined by libmpifort.so, so any MPI call of a Fortran program links; and
# a program that names the predefined callbacks links and runs.
. "$SHOAL_TESTS/lib/common.bash"

mod=$SHOAL_BUILD/gen/fortran/mpi_f08.f90
types=$SHOAL_TESTS/../runtime/fortran/mpi_f08_types.f90
lib=$SHOAL_BUILD/lib/libmpifort.so
[ -f "$mod" ] || fail "no generated $mod"
nm -D --defined-only "$lib" | awk '{ print $NF }' | sort -u >"$TEST_TMP/defined"
python3 - "$mod" "$types" >"$TEST_TMP/called" <<'PY'
import re, sys
names = set()
for path in sys.argv[1:]:
    text = open(path).read()
    names |= set(re.findall(r'bind\(C, name="(\w+)"\)', text))
    for m in re.finditer(r"^\s+(?:subroutine|function) ((?:p?mpi)_\w+)\(", text, re.M):
        if not m.group(1).endswith("_f08"):
            names.add(m.group(1) + "_")
    for m in re.finditer(r"^  procedure\(\w+\) :: (.*)$", text, re.M):
        names |= set(n.strip().lower() + "_" for n in m.group(1).split(","))
print("\n".join(sorted(names)))
PY
[ "$(wc -l <"$TEST_TMP/called")" -gt 900 ] || fail "too few names read from $mod"
missing=$(comm -23 "$TEST_TMP/called" "$TEST_TMP/defined")
[ -z "$missing" ] || fail "libmpifort.so defines none of: $(echo $missing)"

cat >"$TEST_TMP/keyval.f90" <<'SRC'
program keyval
  use mpi_f08
  implicit none
  integer :: kv
  call MPI_Init()
  call MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, kv, 0_MPI_ADDRESS_KIND)
  call MPI_Comm_free_keyval(kv)
  call MPI_Finalize()
  print '(a)', 'keyval ok'
end program keyval
SRC
build_fortran keyval -g "$TEST_TMP/keyval.f90"
run "$MPIEXEC" -n 2 "$TEST_TMP/keyval"
expect_rc 0
expect_out_count "keyval ok" 2
