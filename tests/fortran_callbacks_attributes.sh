#!/bin/bash
# fortran_callbacks_attributes: attribute copy/delete callbacks written in Fortran, the predefined MPI_*_DUP_FN / NULL_COPY_FN, MPI-1 attributes, predefined attributes read from Fortran as values (MPI_TAG_UB, MPI_WIN_*), values crossing between C and Fortran, MPI_Type_match_size and MPI_Type_create_f90_* from Fortran (a Fortran program with a C part, both built here), at 1 and 4 ranks.
# timeout: 120
. "$SHOAL_TESTS/lib/common.bash"
name=fortran_callbacks_attributes
cat >"$TEST_TMP/cpart.c" <<'C'
#include <stdint.h>
#include <mpi.h>

static int value_in_c = 17;

/* Sets the attribute to a C pointer and says its address. */
void c_set_pointer(MPI_Fint *comm, MPI_Fint *keyval, MPI_Aint *addr)
{
	MPI_Comm_set_attr(MPI_Comm_f2c(*comm), *keyval, &value_in_c);
	*addr = (MPI_Aint)&value_in_c;
}

/* 1 when C reads the attribute as a pointer whose value is `want`. */
int c_reads_value(MPI_Fint *comm, MPI_Fint *keyval, MPI_Aint *want)
{
	void *v = NULL;
	int flag = 0;

	MPI_Comm_get_attr(MPI_Comm_f2c(*comm), *keyval, &v, &flag);
	return flag && (MPI_Aint)v == *want;
}
C
# The Fortran part (here, not in tests/*.f90: it does not link without the C part).
cat >"$TEST_TMP/$name.f90" <<'FORTRAN'
! fortran_callbacks_attributes: attribute callbacks and values across Fortran and C
! (MPI 4.1 7.7, 19.3.7), through the `mpi` module: a Fortran copy function runs on
! MPI_Comm_dup with its extra_state and the old communicator's handle and its value lands
! in the new one; the delete function runs on MPI_Comm_free; MPI_COMM_DUP_FN and
! MPI_COMM_NULL_COPY_FN copy and do not; MPI_Keyval_create/Attr_put/Attr_get keep signed
! INTEGERs; MPI_TYPE_DUP_FN on MPI_Type_dup; MPI_TAG_UB, MPI_WIN_SIZE, MPI_WIN_DISP_UNIT,
! MPI_WIN_CREATE_FLAVOR read as values and MPI_WIN_BASE as the address; a value set in C is
! an address in Fortran and a value set in Fortran a pointer-sized integer in C (c_* in
! the script's C part); MPI_Type_match_size answers the sized Fortran types;
! MPI_Type_create_f90_real/integer types reduce Fortran kinds.
! Prints "ok".
module attrfns
    use mpi
    implicit none
    integer :: copies = 0, deletes = 0, seen_old = -1
    integer(kind=MPI_ADDRESS_KIND) :: seen_extra = -1, deleted_val = -1
contains
    subroutine copy_plus1(oldcomm, keyval, extra_state, val_in, val_out, flag, ierror)
        integer :: oldcomm, keyval, ierror
        integer(kind=MPI_ADDRESS_KIND) :: extra_state, val_in, val_out
        logical :: flag
        copies = copies + 1
        seen_old = oldcomm
        seen_extra = extra_state
        val_out = val_in + 1
        flag = .true.
        ierror = MPI_SUCCESS
    end subroutine
    subroutine delete_note(comm, keyval, val, extra_state, ierror)
        integer :: comm, keyval, ierror
        integer(kind=MPI_ADDRESS_KIND) :: val, extra_state
        deletes = deletes + 1
        deleted_val = val
        ierror = MPI_SUCCESS
    end subroutine
    ! MPI-1 form: INTEGER values.
    subroutine copy_double(oldcomm, keyval, extra_state, val_in, val_out, flag, ierror)
        integer :: oldcomm, keyval, extra_state, val_in, val_out, ierror
        logical :: flag
        val_out = 2 * val_in + extra_state
        flag = .true.
        ierror = MPI_SUCCESS
    end subroutine
end module

program fortran_callbacks_attributes
    use mpi
    use attrfns
    implicit none
    interface
        subroutine c_set_pointer(comm, keyval, addr) bind(C, name='c_set_pointer')
            import :: MPI_ADDRESS_KIND
            integer :: comm, keyval
            integer(kind=MPI_ADDRESS_KIND) :: addr
        end subroutine
        integer function c_reads_value(comm, keyval, want) bind(C, name='c_reads_value')
            import :: MPI_ADDRESS_KIND
            integer :: comm, keyval
            integer(kind=MPI_ADDRESS_KIND) :: want
        end function
    end interface
    integer :: ierr, rank, n, c1, c2, key, dupkey, nullkey, key1, tkey, t1, t2, win, ival, t
    integer(kind=MPI_ADDRESS_KIND) :: val, addr
    logical :: flag
    integer :: wbuf(25)
    integer, parameter :: dp = selected_real_kind(15)
    real(dp) :: x, xs
    integer(kind=selected_int_kind(18)) :: i8, i8s

    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, n, ierr)
    call MPI_Comm_dup(MPI_COMM_WORLD, c1, ierr)

    call MPI_Comm_create_keyval(copy_plus1, delete_note, key, 1000_MPI_ADDRESS_KIND, ierr)
    call MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, dupkey, &
                                0_MPI_ADDRESS_KIND, ierr)
    call MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, nullkey, &
                                0_MPI_ADDRESS_KIND, ierr)
    call MPI_Keyval_create(copy_double, MPI_NULL_DELETE_FN, key1, 3, ierr)
    call MPI_Comm_set_attr(c1, key, 41_MPI_ADDRESS_KIND, ierr)
    call MPI_Comm_set_attr(c1, dupkey, 12345678901_MPI_ADDRESS_KIND, ierr)
    call MPI_Comm_set_attr(c1, nullkey, 5_MPI_ADDRESS_KIND, ierr)
    call MPI_Attr_put(c1, key1, -5, ierr)
    call MPI_Comm_dup(c1, c2, ierr)
    call expect(copies == 1 .and. seen_old == c1 .and. seen_extra == 1000, &
                'the copy function ran once with c1 and extra_state 1000')
    call MPI_Comm_get_attr(c2, key, val, flag, ierr)
    call expect(flag .and. val == 42, 'the copied value is 42')
    call MPI_Comm_get_attr(c2, dupkey, val, flag, ierr)
    call expect(flag .and. val == 12345678901_MPI_ADDRESS_KIND, 'MPI_COMM_DUP_FN copies')
    call MPI_Comm_get_attr(c2, nullkey, val, flag, ierr)
    call expect(.not. flag, 'MPI_COMM_NULL_COPY_FN does not copy')
    call MPI_Attr_get(c2, key1, ival, flag, ierr)
    call expect(flag .and. ival == -7, 'MPI_Keyval_create copy: 2 * -5 + 3')
    call MPI_Comm_get_attr(c2, key1, val, flag, ierr)
    call expect(flag .and. val == -7, 'an MPI_Attr_put value reads sign-extended')
    call MPI_Comm_free(c2, ierr)
    call expect(deletes == 1 .and. deleted_val == 42, 'the delete function saw 42')
    call MPI_Comm_delete_attr(c1, key, ierr)
    call expect(deletes == 2 .and. deleted_val == 41, 'MPI_Comm_delete_attr deletes 41')

    ! C and Fortran: an address set in C, a value set in Fortran.
    call c_set_pointer(c1, dupkey, addr)
    call MPI_Comm_get_attr(c1, dupkey, val, flag, ierr)
    call expect(flag .and. val == addr, 'a C pointer reads as its address in Fortran')
    call MPI_Comm_set_attr(c1, dupkey, 777_MPI_ADDRESS_KIND, ierr)
    call expect(c_reads_value(c1, dupkey, 777_MPI_ADDRESS_KIND) == 1, &
                'a Fortran value reads as that pointer value in C')

    call MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, tkey, &
                                0_MPI_ADDRESS_KIND, ierr)
    call MPI_Type_contiguous(2, MPI_INTEGER, t1, ierr)
    call MPI_Type_set_attr(t1, tkey, 99_MPI_ADDRESS_KIND, ierr)
    call MPI_Type_dup(t1, t2, ierr)
    call MPI_Type_get_attr(t2, tkey, val, flag, ierr)
    call expect(flag .and. val == 99, 'MPI_TYPE_DUP_FN copies a type attribute')
    call MPI_Type_delete_attr(t2, tkey, ierr)
    call MPI_Type_get_attr(t2, tkey, val, flag, ierr)
    call expect(.not. flag, 'MPI_Type_delete_attr removes it')

    ! Predefined attributes are values in Fortran.
    call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, val, flag, ierr)
    call expect(flag .and. val == 1073741823, 'MPI_TAG_UB is the value 2**30 - 1')
    call MPI_Attr_get(MPI_COMM_WORLD, MPI_TAG_UB, ival, flag, ierr)
    call expect(flag .and. ival == 1073741823, 'MPI_Attr_get of MPI_TAG_UB')
    call MPI_Win_create(wbuf, 100_MPI_ADDRESS_KIND, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
    call MPI_Win_get_attr(win, MPI_WIN_SIZE, val, flag, ierr)
    call expect(flag .and. val == 100, 'MPI_WIN_SIZE')
    call MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, val, flag, ierr)
    call expect(flag .and. val == 4, 'MPI_WIN_DISP_UNIT')
    call MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, val, flag, ierr)
    call expect(flag .and. val == MPI_WIN_FLAVOR_CREATE, 'MPI_WIN_CREATE_FLAVOR')
    call MPI_Win_get_attr(win, MPI_WIN_BASE, val, flag, ierr)
    call expect(flag .and. val == loc(wbuf), 'MPI_WIN_BASE is the address of the buffer')
    call MPI_Win_free(win, ierr)

    call MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 8, t, ierr)
    call expect(t == MPI_INTEGER8, 'match_size integer 8 is MPI_INTEGER8')
    call MPI_Type_match_size(MPI_TYPECLASS_REAL, 4, t, ierr)
    call expect(t == MPI_REAL4, 'match_size real 4 is MPI_REAL4')
    call MPI_Type_match_size(MPI_TYPECLASS_COMPLEX, 16, t, ierr)
    call expect(t == MPI_COMPLEX16, 'match_size complex 16 is MPI_COMPLEX16')
    call MPI_Type_create_f90_real(15, MPI_UNDEFINED, t, ierr)
    x = rank + 0.5_dp
    call MPI_Allreduce(x, xs, 1, t, MPI_SUM, MPI_COMM_WORLD, ierr)
    call expect(ierr == MPI_SUCCESS .and. xs == n * n / 2.0_dp, &
                'an MPI_Type_create_f90_real type sums REAL(selected_real_kind(15))')
    call MPI_Type_create_f90_integer(18, t, ierr)
    i8 = rank * 10000000000_8
    call MPI_Allreduce(i8, i8s, 1, t, MPI_MAX, MPI_COMM_WORLD, ierr)
    call expect(i8s == (n - 1) * 10000000000_8, 'an MPI_Type_create_f90_integer(18) type')

    call MPI_Type_free(t1, ierr)
    call MPI_Type_free(t2, ierr)
    call MPI_Comm_free_keyval(key, ierr)
    call MPI_Comm_free(c1, ierr)
    call MPI_Finalize(ierr)
    print '(a)', 'ok'
contains
    subroutine expect(cond, what)
        logical :: cond
        character(len=*) :: what
        if (.not. cond) then
            print *, 'rank', rank, 'failed: ', what, ' (val', val, 'flag', flag, ')'
            error stop 1
        end if
    end subroutine
end program
FORTRAN
"$MPICC" -g -c -o "$TEST_TMP/cpart.o" "$TEST_TMP/cpart.c" >"$TEST_TMP/build.log" 2>&1 ||
	{ cat "$TEST_TMP/build.log"; fail "mpicc could not build cpart.c"; }
build_fortran $name -O1 -g "$TEST_TMP/$name.f90" "$TEST_TMP/cpart.o"
for n in 1 4; do
	run -t 60 "$MPIEXEC" -n $n "$TEST_TMP/$name"
	expect_rc 0
	expect_out_count '^ok$' $n
done
exit 0
