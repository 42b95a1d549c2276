! fortran_callbacks_grequest_datarep: generalized-request and data-representation callbacks
! written in Fortran (`mpi` module). MPI_Grequest_start: the query function fills the
! status MPI_Wait returns, MPI_Cancel calls the cancel function with complete = .false.,
! the free function runs once per request, each with the extra_state given. MPI_Register_
! datarep: a representation whose write function stores each INTEGER plus 1000 and whose
! read function takes it off; MPI_File_write/read through a view in it, and the bytes in
! the file seen through a native view. Each rank its own file (rep.RANK in the working
! directory). Prints "ok".
module cbs
    use mpi
    implicit none
    integer :: frees = 0, cancels = 0, queries = 0
    logical :: cancel_complete = .true.
    integer(kind=MPI_ADDRESS_KIND) :: freed_extra = -1
contains
    subroutine query_fn(extra_state, status, ierror)
        integer(kind=MPI_ADDRESS_KIND) :: extra_state
        integer :: status(MPI_STATUS_SIZE), ierror
        queries = queries + 1
        call MPI_Status_set_elements(status, MPI_INTEGER, int(extra_state), ierror)
        call MPI_Status_set_cancelled(status, .false., ierror)
        status(MPI_SOURCE) = 5
        status(MPI_TAG) = 6
        ierror = MPI_SUCCESS
    end subroutine
    subroutine free_fn(extra_state, ierror)
        integer(kind=MPI_ADDRESS_KIND) :: extra_state
        integer :: ierror
        frees = frees + 1
        freed_extra = extra_state
        ierror = MPI_SUCCESS
    end subroutine
    subroutine cancel_fn(extra_state, complete, ierror)
        integer(kind=MPI_ADDRESS_KIND) :: extra_state
        logical :: complete
        integer :: ierror
        cancels = cancels + 1
        cancel_complete = complete
        ierror = MPI_SUCCESS
    end subroutine

    ! file = user + extra_state, `count` INTEGERs from element `position` of userbuf.
    subroutine write_fn(userbuf, datatype, count, filebuf, position, extra_state, ierror)
        integer :: userbuf(*), filebuf(*), datatype, count, ierror
        integer(kind=MPI_OFFSET_KIND) :: position
        integer(kind=MPI_ADDRESS_KIND) :: extra_state
        integer :: i
        if (datatype /= MPI_INTEGER) then
            ierror = MPI_ERR_TYPE
            return
        end if
        do i = 1, count
            filebuf(i) = userbuf(position + i) + int(extra_state)
        end do
        ierror = MPI_SUCCESS
    end subroutine
    subroutine read_fn(userbuf, datatype, count, filebuf, position, extra_state, ierror)
        integer :: userbuf(*), filebuf(*), datatype, count, ierror
        integer(kind=MPI_OFFSET_KIND) :: position
        integer(kind=MPI_ADDRESS_KIND) :: extra_state
        integer :: i
        do i = 1, count
            userbuf(position + i) = filebuf(i) - int(extra_state)
        end do
        ierror = MPI_SUCCESS
    end subroutine
    subroutine extent_fn(datatype, extent, extra_state, ierror)
        integer :: datatype, ierror
        integer(kind=MPI_ADDRESS_KIND) :: extent, extra_state
        extent = 4
        ierror = MPI_SUCCESS
    end subroutine
end module

program fortran_callbacks_grequest_datarep
    use mpi
    use cbs
    implicit none
    integer :: ierr, rank, req, count, fh, i
    integer :: status(MPI_STATUS_SIZE)
    integer :: out(6), back(6), raw(6)
    logical :: flag
    character(len=32) :: fname

    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)

    call MPI_Grequest_start(query_fn, free_fn, cancel_fn, 3_MPI_ADDRESS_KIND, req, ierr)
    call MPI_Grequest_complete(req, ierr)
    call MPI_Wait(req, status, ierr)
    call MPI_Get_count(status, MPI_INTEGER, count, ierr)
    call expect(queries == 1 .and. count == 3 .and. status(MPI_SOURCE) == 5 .and. &
                status(MPI_TAG) == 6, 'the query function made the status')
    call expect(frees == 1 .and. freed_extra == 3, 'the free function ran with extra_state 3')

    call MPI_Grequest_start(query_fn, free_fn, cancel_fn, 9_MPI_ADDRESS_KIND, req, ierr)
    call MPI_Cancel(req, ierr)
    call expect(cancels == 1 .and. .not. cancel_complete, 'cancel before completion')
    call MPI_Grequest_complete(req, ierr)
    call MPI_Wait(req, status, ierr)
    call MPI_Test_cancelled(status, flag, ierr)
    call expect(frees == 2 .and. freed_extra == 9, 'the second free function ran')

    call MPI_Register_datarep('fortran_plus', read_fn, write_fn, extent_fn, &
                              1000_MPI_ADDRESS_KIND, ierr)
    call expect(ierr == MPI_SUCCESS, 'MPI_Register_datarep')
    write (fname, '(a,i0)') 'rep.', rank
    call MPI_File_open(MPI_COMM_SELF, trim(fname), MPI_MODE_CREATE + MPI_MODE_RDWR, &
                       MPI_INFO_NULL, fh, ierr)
    call MPI_File_set_view(fh, 0_MPI_OFFSET_KIND, MPI_INTEGER, MPI_INTEGER, 'fortran_plus', &
                           MPI_INFO_NULL, ierr)
    out = [(rank * 10 + i, i = 1, 6)]
    call MPI_File_write(fh, out, 6, MPI_INTEGER, status, ierr)
    call expect(ierr == MPI_SUCCESS, 'write through the representation')
    call MPI_File_seek(fh, 0_MPI_OFFSET_KIND, MPI_SEEK_SET, ierr)
    back = -1
    call MPI_File_read(fh, back, 6, MPI_INTEGER, status, ierr)
    call expect(all(back == out), 'read through the representation gives the data back')
    call MPI_File_set_view(fh, 0_MPI_OFFSET_KIND, MPI_INTEGER, MPI_INTEGER, 'native', &
                           MPI_INFO_NULL, ierr)
    call MPI_File_read_at(fh, 0_MPI_OFFSET_KIND, raw, 6, MPI_INTEGER, status, ierr)
    call expect(all(raw == out + 1000), 'the file holds each value plus 1000')
    call MPI_File_close(fh, ierr)

    call MPI_Finalize(ierr)
    print '(a)', 'ok'
contains
    subroutine expect(cond, what)
        logical :: cond
        character(len=*) :: what
        if (.not. cond) then
            print *, 'rank', rank, 'failed: ', what, ' (ierr', ierr, 'queries', queries, &
                     'frees', frees, 'cancels', cancels, ')'
            error stop 1
        end if
    end subroutine
end program
