! hello: every rank says hello, in Fortran with the mpi_f08 module.
! Build: build/bin/mpifort -o hello hello.f90 (make examples: build/examples/hello_f90)
! Run: mpiexec -n 4 build/examples/hello_f90
program hello
    use mpi_f08
    implicit none
    integer :: rank, size, len
    character(len=MPI_MAX_PROCESSOR_NAME) :: host

    ! Every MPI program starts with MPI_Init and ends with MPI_Finalize; with mpi_f08 the
    ! ierror argument is optional.
    call MPI_Init()

    ! MPI_COMM_WORLD holds every rank of the job: ask who we are and how many we are.
    call MPI_Comm_rank(MPI_COMM_WORLD, rank)
    call MPI_Comm_size(MPI_COMM_WORLD, size)
    call MPI_Get_processor_name(host, len)

    ! Lines from different ranks may come out in any order.
    print '(a,i0,a,i0,a,a)', 'Hello from rank ', rank, ' of ', size, ' on ', host(1:len)

    call MPI_Finalize()
end program
