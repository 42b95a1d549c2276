! fortran_callbacks_errhandler: error handlers written in Fortran (`mpi` module) for a
! communicator, a window, a file and a session are called with the object's Fortran handle
! and the error code: a real error (MPI_Send to a rank that does not exist: MPI_ERR_RANK;
! MPI_File_open of a missing file on MPI_FILE_NULL's handler: MPI_ERR_NO_SUCH_FILE) and
! MPI_*_call_errhandler. Run by tests/fortran_callbacks_errhandler.sh; prints "ok".
module handlers
    implicit none
    integer :: got_handle = -99, got_code = -99, calls = 0, kind_seen = 0
contains
    subroutine record(k, h, code)
        integer :: k, h, code
        kind_seen = k
        got_handle = h
        got_code = code
        calls = calls + 1
    end subroutine
    subroutine comm_handler(comm, code)
        integer :: comm, code
        call record(1, comm, code)
    end subroutine
    subroutine win_handler(win, code)
        integer :: win, code
        call record(2, win, code)
    end subroutine
    subroutine file_handler(fh, code)
        integer :: fh, code
        call record(3, fh, code)
    end subroutine
    subroutine session_handler(session, code)
        integer :: session, code
        call record(4, session, code)
    end subroutine
end module

program fortran_callbacks_errhandler
    use mpi
    use handlers
    implicit none
    integer :: ierr, rank, n, comm, eh, weh, feh, seh, win, fh, session, cls, before
    integer :: buf(4)

    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, n, ierr)

    call MPI_Comm_dup(MPI_COMM_WORLD, comm, ierr)
    call MPI_Comm_create_errhandler(comm_handler, eh, ierr)
    call MPI_Comm_set_errhandler(comm, eh, ierr)
    buf = 0
    call MPI_Send(buf, 1, MPI_INTEGER, n + 5, 0, comm, ierr)
    call MPI_Error_class(got_code, cls, ierr)
    call expect(calls == 1 .and. kind_seen == 1 .and. got_handle == comm, 'comm handler on send')
    call expect(cls == MPI_ERR_RANK, 'MPI_Send to a missing rank is MPI_ERR_RANK')
    call MPI_Comm_call_errhandler(comm, MPI_ERR_OTHER, ierr)
    call expect(calls == 2 .and. got_code == MPI_ERR_OTHER .and. got_handle == comm, &
                'MPI_Comm_call_errhandler')

    call MPI_Win_create(buf, 16_MPI_ADDRESS_KIND, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
    call MPI_Win_create_errhandler(win_handler, weh, ierr)
    call MPI_Win_set_errhandler(win, weh, ierr)
    call MPI_Win_call_errhandler(win, MPI_ERR_OTHER, ierr)
    call expect(calls == 3 .and. kind_seen == 2 .and. got_handle == win .and. &
                got_code == MPI_ERR_OTHER, 'window handler')
    call MPI_Win_free(win, ierr)

    call MPI_File_create_errhandler(file_handler, feh, ierr)
    call MPI_File_set_errhandler(MPI_FILE_NULL, feh, ierr)
    before = calls
    call MPI_File_open(MPI_COMM_SELF, '/nonexistent/shoal/fortran_eh', MPI_MODE_RDONLY, &
                       MPI_INFO_NULL, fh, ierr)
    call MPI_Error_class(got_code, cls, ierr)
    call expect(calls == before + 1 .and. kind_seen == 3 .and. got_handle == MPI_FILE_NULL, &
                'file handler on MPI_FILE_NULL')
    call expect(cls == MPI_ERR_NO_SUCH_FILE, 'open of a missing file is MPI_ERR_NO_SUCH_FILE')
    call MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN, ierr)

    call MPI_Session_create_errhandler(session_handler, seh, ierr)
    call MPI_Session_init(MPI_INFO_NULL, seh, session, ierr)
    call MPI_Session_call_errhandler(session, MPI_ERR_OTHER, ierr)
    call expect(kind_seen == 4 .and. got_handle == session .and. got_code == MPI_ERR_OTHER, &
                'session handler')
    call MPI_Session_finalize(session, ierr)

    call MPI_Errhandler_free(eh, ierr)
    call MPI_Errhandler_free(weh, ierr)
    call MPI_Errhandler_free(feh, ierr)
    call MPI_Errhandler_free(seh, ierr)
    call MPI_Comm_free(comm, ierr)
    call MPI_Finalize(ierr)
    print '(a)', 'ok'
contains
    subroutine expect(cond, what)
        logical :: cond
        character(len=*) :: what
        if (.not. cond) then
            print *, 'rank', rank, 'failed: ', what, ' (calls', calls, 'kind', kind_seen, &
                     'handle', got_handle, 'code', got_code, ')'
            error stop 1
        end if
    end subroutine
end program
