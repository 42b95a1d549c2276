! fortran_mixed_main: the mpi_f08 half of one program whose other half
! (fortran_mixed_mpif.f) includes mpif.h; built and run by
! tests/fortran_f08_and_mpif_h_in_one_job.sh. Handles cross between the two as INTEGERs
! (the MPI_VAL of the f08 types): a communicator split here is used there, a datatype
! committed here is sent there, a request started there is completed here, a status
! filled there is converted here with MPI_Status_f2f08; MPI_IN_PLACE and
! MPI_STATUS_IGNORE of both bindings work as the sentinels they are. Entered by each
! rank's main thread.
program fortran_mixed_main
    use mpi_f08
    implicit none
    integer :: rank, n, hrank, hsize, left, right, i, want, fsum, freq
    integer :: fstatus(MPI_STATUS_SIZE), vals(3), got(3), got9(3), got10(3)
    type(MPI_Comm) :: half
    type(MPI_Datatype) :: triple
    type(MPI_Request) :: req, req10
    type(MPI_Status) :: st
    external :: mixed_mpif_part

    call MPI_Init()
    call MPI_Comm_rank(MPI_COMM_WORLD, rank)
    call MPI_Comm_size(MPI_COMM_WORLD, n)
    call MPI_Comm_split(MPI_COMM_WORLD, mod(rank, 2), rank, half)
    call MPI_Comm_rank(half, hrank)
    call MPI_Comm_size(half, hsize)
    right = mod(hrank + 1, hsize)
    left = mod(hrank + hsize - 1, hsize)
    call MPI_Type_contiguous(3, MPI_INTEGER, triple)
    call MPI_Type_commit(triple)
    call MPI_Irecv(got10, 1, triple, MPI_ANY_SOURCE, 10, half, req10)

    ! The mpif.h half: in-place sum and a ring (tag 8) on the half with the type made here,
    ! a receive (tag 9) left posted for this half to satisfy and complete, a message
    ! (tag 10) to the receive posted above.
    got9 = -1
    call mixed_mpif_part(half%MPI_VAL, triple%MPI_VAL, MPI_COMM_WORLD%MPI_VAL, fsum, &
        fstatus, got, got9, freq)
    want = 0
    do i = 0, hsize - 1
        want = want + world_of(i)
    end do
    call check(fsum == want, 'in-place sum of the mpif.h half')
    call check(all(got == [10, 20, 30] + world_of(left)), 'ring of the mpif.h half')
    call MPI_Status_f2f08(fstatus, st)
    call check(st%MPI_SOURCE == left .and. st%MPI_TAG == 8, &
        'MPI_Status_f2f08 of the mpif.h half''s status')

    ! Complete the mpif.h half's receive: the right neighbour's comes from this rank.
    vals = [world_of(hrank), -1, 7]
    call MPI_Send(vals, 1, triple, right, 9, half)
    req%MPI_VAL = freq
    call MPI_Wait(req, st)
    call check(req == MPI_REQUEST_NULL, 'MPI_Wait on the mpif.h half''s request')
    call check(st%MPI_SOURCE == left .and. st%MPI_TAG == 9, 'status of its request')
    call check(all(got9 == [world_of(left), -1, 7]), 'data of its request')
    call MPI_Wait(req10, MPI_STATUS_IGNORE)
    call check(all(got10 == [world_of(left), 0, 0]), 'message from the mpif.h half')

    ! MPI_IN_PLACE of this module.
    vals = [1, rank, -rank]
    call MPI_Allreduce(MPI_IN_PLACE, vals, 3, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
    call check(all(vals == [n, n * (n - 1) / 2, -n * (n - 1) / 2]), 'mpi_f08 MPI_IN_PLACE')

    call MPI_Type_free(triple)
    call MPI_Comm_free(half)
    call MPI_Barrier(MPI_COMM_WORLD)
    if (rank == 0) print '(a,i0,a)', 'mixed: ', n, ' ranks ok'
    call MPI_Finalize()

contains

    ! world_of H: the world rank of rank H of this rank's half.
    integer function world_of(h)
        integer, intent(in) :: h
        world_of = 2 * h + mod(rank, 2)
    end function

    subroutine check(ok, what)
        logical, intent(in) :: ok
        character(*), intent(in) :: what

        if (.not. ok) then
            print '(a,i0,a,a)', 'FAIL rank ', rank, ': ', what
            call MPI_Abort(MPI_COMM_WORLD, 1)
        end if
    end subroutine
end program
