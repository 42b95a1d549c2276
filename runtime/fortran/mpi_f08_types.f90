! The mpi_f08 module's types (MPI 4.1, 19.2): one derived type per handle kind, each BIND(C)
! with the handle's integer as its only component (the same ABI as the integer of mpif.h and
! the `mpi` module, so a TYPE(MPI_Comm) argument passes as the MPI_Fint* of the C side);
! == and /= on them; TYPE(MPI_Status), laid out as C's MPI_F08_status (8 integers); the
! abstract interfaces of the callbacks users write in Fortran; the status conversions
! between the f08 and integer forms; MPI_SIZEOF and MPI_F_SYNC_REG. The generated module
! mpi_f08 (runtime/fortran/bindgen_f08.py) uses this one and adds the constants and the
! function interfaces. Compiled into libmpifort.so; entered by rank threads (MPI_Status_*
! conversions, MPI_SIZEOF). Its only variables are the sentinels (MPI_BOTTOM, ...), whose
! addresses matter, never their values; libmpifort is a copy per rank, so each rank has its own.
module mpi_f08_types
  use, intrinsic :: iso_c_binding, only: c_int, c_intptr_t, c_long_long, c_ptr
  use shl_mpi_sentinels, only: MPI_BOTTOM, MPI_IN_PLACE, MPI_BUFFER_AUTOMATIC, &
    MPI_ERRCODES_IGNORE, MPI_UNWEIGHTED, MPI_WEIGHTS_EMPTY, MPI_ARGV_NULL, MPI_ARGVS_NULL
  implicit none
  private :: c_int, c_intptr_t, c_long_long, c_ptr

  ! Kinds; the C types of mpi.h (MPI_Aint intptr_t, MPI_Offset and MPI_Count long long).
  integer, parameter :: MPI_ADDRESS_KIND = c_intptr_t
  integer, parameter :: MPI_OFFSET_KIND = c_long_long
  integer, parameter :: MPI_COUNT_KIND = c_long_long
  integer, parameter :: MPI_INTEGER_KIND = kind(0)

  ! What the module's buffers take (MPI 4.1 19.1.6, 19.1.7): non-contiguous sections work
  ! in blocking calls and, with a predefined datatype of the elements' size, in all calls;
  ! other sections of nonblocking calls are MPI_ERR_BUFFER (docs/fortran.md).
  logical, parameter :: MPI_SUBARRAYS_SUPPORTED = .false.
  logical, parameter :: MPI_ASYNC_PROTECTS_NONBLOCKING = .false.

  ! The sentinels: variables whose addresses the C side tells apart (runtime/fortran/
  ! fortran.h), the `mpi` module's objects (shl_mpi_sentinels); the statuses' are typed here
  ! under the same binding names.
  ! Handles.
  type, bind(C) :: MPI_Comm
    integer :: MPI_VAL
  end type MPI_Comm
  type, bind(C) :: MPI_Datatype
    integer :: MPI_VAL
  end type MPI_Datatype
  type, bind(C) :: MPI_Group
    integer :: MPI_VAL
  end type MPI_Group
  type, bind(C) :: MPI_Request
    integer :: MPI_VAL
  end type MPI_Request
  type, bind(C) :: MPI_Op
    integer :: MPI_VAL
  end type MPI_Op
  type, bind(C) :: MPI_Errhandler
    integer :: MPI_VAL
  end type MPI_Errhandler
  type, bind(C) :: MPI_Info
    integer :: MPI_VAL
  end type MPI_Info
  type, bind(C) :: MPI_Win
    integer :: MPI_VAL
  end type MPI_Win
  type, bind(C) :: MPI_File
    integer :: MPI_VAL
  end type MPI_File
  type, bind(C) :: MPI_Message
    integer :: MPI_VAL
  end type MPI_Message
  type, bind(C) :: MPI_Session
    integer :: MPI_VAL
  end type MPI_Session

  ! A status: the public fields, then the internal ones (cancelled flag, received and
  ! unsent byte counts) at the places of C's MPI_Status and MPI_F08_status.
  type, bind(C) :: MPI_Status
    integer :: MPI_SOURCE
    integer :: MPI_TAG
    integer :: MPI_ERROR
    integer, private :: shl_internal(5)
  end type MPI_Status
  ! The places of the public fields in an INTEGER status (MPI_Status_f082f's).
  integer, parameter :: MPI_SOURCE = 1, MPI_TAG = 2, MPI_ERROR = 3
  type(MPI_Status), bind(C, name="shl_f_status_ignore") :: MPI_STATUS_IGNORE
  type(MPI_Status), bind(C, name="shl_f_statuses_ignore") :: MPI_STATUSES_IGNORE(1)

  interface operator(==)
    module procedure shl_comm_eq
    module procedure shl_datatype_eq
    module procedure shl_group_eq
    module procedure shl_request_eq
    module procedure shl_op_eq
    module procedure shl_errhandler_eq
    module procedure shl_info_eq
    module procedure shl_win_eq
    module procedure shl_file_eq
    module procedure shl_message_eq
    module procedure shl_session_eq
  end interface operator(==)
  interface operator(/=)
    module procedure shl_comm_ne
    module procedure shl_datatype_ne
    module procedure shl_group_ne
    module procedure shl_request_ne
    module procedure shl_op_ne
    module procedure shl_errhandler_ne
    module procedure shl_info_ne
    module procedure shl_win_ne
    module procedure shl_file_ne
    module procedure shl_message_ne
    module procedure shl_session_ne
  end interface operator(/=)
  private :: shl_comm_eq
  private :: shl_comm_ne
  private :: shl_datatype_eq
  private :: shl_datatype_ne
  private :: shl_group_eq
  private :: shl_group_ne
  private :: shl_request_eq
  private :: shl_request_ne
  private :: shl_op_eq
  private :: shl_op_ne
  private :: shl_errhandler_eq
  private :: shl_errhandler_ne
  private :: shl_info_eq
  private :: shl_info_ne
  private :: shl_win_eq
  private :: shl_win_ne
  private :: shl_file_eq
  private :: shl_file_ne
  private :: shl_message_eq
  private :: shl_message_ne
  private :: shl_session_eq
  private :: shl_session_ne

  ! The status conversions of MPI 4.1 19.3.5 between TYPE(MPI_Status) and INTEGER statuses
  ! (MPI_STATUS_SIZE integers, the same bytes).
  interface MPI_Status_f082f
    module procedure shl_status_f082f
  end interface MPI_Status_f082f
  interface PMPI_Status_f082f
    module procedure shl_status_f082f
  end interface PMPI_Status_f082f
  interface MPI_Status_f2f08
    module procedure shl_status_f2f08
  end interface MPI_Status_f2f08
  interface PMPI_Status_f2f08
    module procedure shl_status_f2f08
  end interface PMPI_Status_f2f08
  private :: shl_status_f082f, shl_status_f2f08

  ! MPI_SIZEOF (MPI 4.1 19.1.9): the bytes of one element of an intrinsic numeric variable.
  interface MPI_Sizeof
    module procedure shl_sizeof_integer1
    module procedure shl_sizeof_integer2
    module procedure shl_sizeof_integer4
    module procedure shl_sizeof_integer8
    module procedure shl_sizeof_integer16
    module procedure shl_sizeof_real4
    module procedure shl_sizeof_real8
    module procedure shl_sizeof_real10
    module procedure shl_sizeof_real16
    module procedure shl_sizeof_complex4
    module procedure shl_sizeof_complex8
    module procedure shl_sizeof_complex10
    module procedure shl_sizeof_complex16
    module procedure shl_sizeof_logical1
    module procedure shl_sizeof_logical2
    module procedure shl_sizeof_logical4
    module procedure shl_sizeof_logical8
    module procedure shl_sizeof_logical16
    module procedure shl_sizeof_character1
  end interface MPI_Sizeof
  interface PMPI_Sizeof
    module procedure shl_sizeof_integer1
    module procedure shl_sizeof_integer2
    module procedure shl_sizeof_integer4
    module procedure shl_sizeof_integer8
    module procedure shl_sizeof_integer16
    module procedure shl_sizeof_real4
    module procedure shl_sizeof_real8
    module procedure shl_sizeof_real10
    module procedure shl_sizeof_real16
    module procedure shl_sizeof_complex4
    module procedure shl_sizeof_complex8
    module procedure shl_sizeof_complex10
    module procedure shl_sizeof_complex16
    module procedure shl_sizeof_logical1
    module procedure shl_sizeof_logical2
    module procedure shl_sizeof_logical4
    module procedure shl_sizeof_logical8
    module procedure shl_sizeof_logical16
    module procedure shl_sizeof_character1
  end interface PMPI_Sizeof
  private :: shl_sizeof_integer1
  private :: shl_sizeof_integer2
  private :: shl_sizeof_integer4
  private :: shl_sizeof_integer8
  private :: shl_sizeof_integer16
  private :: shl_sizeof_real4
  private :: shl_sizeof_real8
  private :: shl_sizeof_real10
  private :: shl_sizeof_real16
  private :: shl_sizeof_complex4
  private :: shl_sizeof_complex8
  private :: shl_sizeof_complex10
  private :: shl_sizeof_complex16
  private :: shl_sizeof_logical1
  private :: shl_sizeof_logical2
  private :: shl_sizeof_logical4
  private :: shl_sizeof_logical8
  private :: shl_sizeof_logical16
  private :: shl_sizeof_character1

  ! MPI_F_SYNC_REG (MPI 4.1 19.1.17): an external call the compiler cannot see into, so a
  ! buffer of a nonblocking call is not kept in registers across it (runtime/fortran/
  ! support.c's, which does nothing).
  interface MPI_F_sync_reg
    subroutine shl_f08_sync_reg(buf) bind(C, name="mpi_f_sync_reg_")
      type(*), dimension(..), asynchronous :: buf
    end subroutine shl_f08_sync_reg
  end interface MPI_F_sync_reg
  interface PMPI_F_sync_reg
    subroutine shl_f08_psync_reg(buf) bind(C, name="pmpi_f_sync_reg_")
      type(*), dimension(..), asynchronous :: buf
    end subroutine shl_f08_psync_reg
  end interface PMPI_F_sync_reg

  ! The callbacks a Fortran program passes (MPI 4.1 19.3.x, "Fortran 2008 bindings").
  abstract interface
    subroutine MPI_User_function(invec, inoutvec, len, datatype)
      import :: c_ptr, MPI_Datatype
      type(c_ptr), value :: invec, inoutvec
      integer :: len
      type(MPI_Datatype) :: datatype
    end subroutine MPI_User_function
    subroutine MPI_User_function_c(invec, inoutvec, len, datatype)
      import :: c_ptr, MPI_Datatype, MPI_COUNT_KIND
      type(c_ptr), value :: invec, inoutvec
      integer(kind=MPI_COUNT_KIND) :: len
      type(MPI_Datatype) :: datatype
    end subroutine MPI_User_function_c
    subroutine MPI_Comm_copy_attr_function(oldcomm, comm_keyval, extra_state, &
        attribute_val_in, attribute_val_out, flag, ierror)
      import :: MPI_Comm, MPI_ADDRESS_KIND
      type(MPI_Comm) :: oldcomm
      integer :: comm_keyval, ierror
      integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out
      logical :: flag
    end subroutine MPI_Comm_copy_attr_function
    subroutine MPI_Comm_delete_attr_function(comm, comm_keyval, attribute_val, &
        extra_state, ierror)
      import :: MPI_Comm, MPI_ADDRESS_KIND
      type(MPI_Comm) :: comm
      integer :: comm_keyval, ierror
      integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    end subroutine MPI_Comm_delete_attr_function
    subroutine MPI_Win_copy_attr_function(oldwin, win_keyval, extra_state, &
        attribute_val_in, attribute_val_out, flag, ierror)
      import :: MPI_Win, MPI_ADDRESS_KIND
      type(MPI_Win) :: oldwin
      integer :: win_keyval, ierror
      integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out
      logical :: flag
    end subroutine MPI_Win_copy_attr_function
    subroutine MPI_Win_delete_attr_function(win, win_keyval, attribute_val, &
        extra_state, ierror)
      import :: MPI_Win, MPI_ADDRESS_KIND
      type(MPI_Win) :: win
      integer :: win_keyval, ierror
      integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    end subroutine MPI_Win_delete_attr_function
    subroutine MPI_Type_copy_attr_function(oldtype, type_keyval, extra_state, &
        attribute_val_in, attribute_val_out, flag, ierror)
      import :: MPI_Datatype, MPI_ADDRESS_KIND
      type(MPI_Datatype) :: oldtype
      integer :: type_keyval, ierror
      integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out
      logical :: flag
    end subroutine MPI_Type_copy_attr_function
    subroutine MPI_Type_delete_attr_function(datatype, type_keyval, attribute_val, &
        extra_state, ierror)
      import :: MPI_Datatype, MPI_ADDRESS_KIND
      type(MPI_Datatype) :: datatype
      integer :: type_keyval, ierror
      integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    end subroutine MPI_Type_delete_attr_function
    subroutine MPI_Comm_errhandler_function(comm, error_code)
      import :: MPI_Comm
      type(MPI_Comm) :: comm
      integer :: error_code
    end subroutine MPI_Comm_errhandler_function
    subroutine MPI_Win_errhandler_function(win, error_code)
      import :: MPI_Win
      type(MPI_Win) :: win
      integer :: error_code
    end subroutine MPI_Win_errhandler_function
    subroutine MPI_File_errhandler_function(file, error_code)
      import :: MPI_File
      type(MPI_File) :: file
      integer :: error_code
    end subroutine MPI_File_errhandler_function
    subroutine MPI_Session_errhandler_function(session, error_code)
      import :: MPI_Session
      type(MPI_Session) :: session
      integer :: error_code
    end subroutine MPI_Session_errhandler_function
    subroutine MPI_Grequest_query_function(extra_state, status, ierror)
      import :: MPI_Status, MPI_ADDRESS_KIND
      integer(kind=MPI_ADDRESS_KIND) :: extra_state
      type(MPI_Status) :: status
      integer :: ierror
    end subroutine MPI_Grequest_query_function
    subroutine MPI_Grequest_free_function(extra_state, ierror)
      import :: MPI_ADDRESS_KIND
      integer(kind=MPI_ADDRESS_KIND) :: extra_state
      integer :: ierror
    end subroutine MPI_Grequest_free_function
    subroutine MPI_Grequest_cancel_function(extra_state, complete, ierror)
      import :: MPI_ADDRESS_KIND
      integer(kind=MPI_ADDRESS_KIND) :: extra_state
      logical :: complete
      integer :: ierror
    end subroutine MPI_Grequest_cancel_function
    subroutine MPI_Datarep_extent_function(datatype, extent, extra_state, ierror)
      import :: MPI_Datatype, MPI_ADDRESS_KIND
      type(MPI_Datatype) :: datatype
      integer(kind=MPI_ADDRESS_KIND) :: extent, extra_state
      integer :: ierror
    end subroutine MPI_Datarep_extent_function
    subroutine MPI_Datarep_conversion_function(userbuf, datatype, count, filebuf, &
        position, extra_state, ierror)
      import :: c_ptr, MPI_Datatype, MPI_OFFSET_KIND, MPI_ADDRESS_KIND
      type(c_ptr), value :: userbuf, filebuf
      type(MPI_Datatype) :: datatype
      integer :: count, ierror
      integer(kind=MPI_OFFSET_KIND) :: position
      integer(kind=MPI_ADDRESS_KIND) :: extra_state
    end subroutine MPI_Datarep_conversion_function
    subroutine MPI_Datarep_conversion_function_c(userbuf, datatype, count, filebuf, &
        position, extra_state, ierror)
      import :: c_ptr, MPI_Datatype, MPI_COUNT_KIND, MPI_OFFSET_KIND, MPI_ADDRESS_KIND
      type(c_ptr), value :: userbuf, filebuf
      type(MPI_Datatype) :: datatype
      integer(kind=MPI_COUNT_KIND) :: count
      integer :: ierror
      integer(kind=MPI_OFFSET_KIND) :: position
      integer(kind=MPI_ADDRESS_KIND) :: extra_state
    end subroutine MPI_Datarep_conversion_function_c
  end interface

  ! The predefined callbacks (runtime/fortran/callbacks.c's external procedures, which the
  ! create functions recognise).
  procedure(MPI_Comm_copy_attr_function) :: MPI_COMM_NULL_COPY_FN, MPI_COMM_DUP_FN
  procedure(MPI_Comm_delete_attr_function) :: MPI_COMM_NULL_DELETE_FN
  procedure(MPI_Type_copy_attr_function) :: MPI_TYPE_NULL_COPY_FN, MPI_TYPE_DUP_FN
  procedure(MPI_Type_delete_attr_function) :: MPI_TYPE_NULL_DELETE_FN
  procedure(MPI_Win_copy_attr_function) :: MPI_WIN_NULL_COPY_FN, MPI_WIN_DUP_FN
  procedure(MPI_Win_delete_attr_function) :: MPI_WIN_NULL_DELETE_FN
  procedure(MPI_Datarep_conversion_function) :: MPI_CONVERSION_FN_NULL
  procedure(MPI_Datarep_conversion_function_c) :: MPI_CONVERSION_FN_NULL_C

contains

  elemental logical function shl_comm_eq(a, b)
    type(MPI_Comm), intent(in) :: a, b
    shl_comm_eq = a%MPI_VAL == b%MPI_VAL
  end function shl_comm_eq
  elemental logical function shl_comm_ne(a, b)
    type(MPI_Comm), intent(in) :: a, b
    shl_comm_ne = a%MPI_VAL /= b%MPI_VAL
  end function shl_comm_ne
  elemental logical function shl_datatype_eq(a, b)
    type(MPI_Datatype), intent(in) :: a, b
    shl_datatype_eq = a%MPI_VAL == b%MPI_VAL
  end function shl_datatype_eq
  elemental logical function shl_datatype_ne(a, b)
    type(MPI_Datatype), intent(in) :: a, b
    shl_datatype_ne = a%MPI_VAL /= b%MPI_VAL
  end function shl_datatype_ne
  elemental logical function shl_group_eq(a, b)
    type(MPI_Group), intent(in) :: a, b
    shl_group_eq = a%MPI_VAL == b%MPI_VAL
  end function shl_group_eq
  elemental logical function shl_group_ne(a, b)
    type(MPI_Group), intent(in) :: a, b
    shl_group_ne = a%MPI_VAL /= b%MPI_VAL
  end function shl_group_ne
  elemental logical function shl_request_eq(a, b)
    type(MPI_Request), intent(in) :: a, b
    shl_request_eq = a%MPI_VAL == b%MPI_VAL
  end function shl_request_eq
  elemental logical function shl_request_ne(a, b)
    type(MPI_Request), intent(in) :: a, b
    shl_request_ne = a%MPI_VAL /= b%MPI_VAL
  end function shl_request_ne
  elemental logical function shl_op_eq(a, b)
    type(MPI_Op), intent(in) :: a, b
    shl_op_eq = a%MPI_VAL == b%MPI_VAL
  end function shl_op_eq
  elemental logical function shl_op_ne(a, b)
    type(MPI_Op), intent(in) :: a, b
    shl_op_ne = a%MPI_VAL /= b%MPI_VAL
  end function shl_op_ne
  elemental logical function shl_errhandler_eq(a, b)
    type(MPI_Errhandler), intent(in) :: a, b
    shl_errhandler_eq = a%MPI_VAL == b%MPI_VAL
  end function shl_errhandler_eq
  elemental logical function shl_errhandler_ne(a, b)
    type(MPI_Errhandler), intent(in) :: a, b
    shl_errhandler_ne = a%MPI_VAL /= b%MPI_VAL
  end function shl_errhandler_ne
  elemental logical function shl_info_eq(a, b)
    type(MPI_Info), intent(in) :: a, b
    shl_info_eq = a%MPI_VAL == b%MPI_VAL
  end function shl_info_eq
  elemental logical function shl_info_ne(a, b)
    type(MPI_Info), intent(in) :: a, b
    shl_info_ne = a%MPI_VAL /= b%MPI_VAL
  end function shl_info_ne
  elemental logical function shl_win_eq(a, b)
    type(MPI_Win), intent(in) :: a, b
    shl_win_eq = a%MPI_VAL == b%MPI_VAL
  end function shl_win_eq
  elemental logical function shl_win_ne(a, b)
    type(MPI_Win), intent(in) :: a, b
    shl_win_ne = a%MPI_VAL /= b%MPI_VAL
  end function shl_win_ne
  elemental logical function shl_file_eq(a, b)
    type(MPI_File), intent(in) :: a, b
    shl_file_eq = a%MPI_VAL == b%MPI_VAL
  end function shl_file_eq
  elemental logical function shl_file_ne(a, b)
    type(MPI_File), intent(in) :: a, b
    shl_file_ne = a%MPI_VAL /= b%MPI_VAL
  end function shl_file_ne
  elemental logical function shl_message_eq(a, b)
    type(MPI_Message), intent(in) :: a, b
    shl_message_eq = a%MPI_VAL == b%MPI_VAL
  end function shl_message_eq
  elemental logical function shl_message_ne(a, b)
    type(MPI_Message), intent(in) :: a, b
    shl_message_ne = a%MPI_VAL /= b%MPI_VAL
  end function shl_message_ne
  elemental logical function shl_session_eq(a, b)
    type(MPI_Session), intent(in) :: a, b
    shl_session_eq = a%MPI_VAL == b%MPI_VAL
  end function shl_session_eq
  elemental logical function shl_session_ne(a, b)
    type(MPI_Session), intent(in) :: a, b
    shl_session_ne = a%MPI_VAL /= b%MPI_VAL
  end function shl_session_ne

  subroutine shl_status_f082f(f08_status, f_status, ierror)
    type(MPI_Status), intent(in) :: f08_status
    integer, intent(out) :: f_status(*)
    integer, optional, intent(out) :: ierror
    f_status(1) = f08_status%MPI_SOURCE
    f_status(2) = f08_status%MPI_TAG
    f_status(3) = f08_status%MPI_ERROR
    f_status(4:8) = f08_status%shl_internal
    if (present(ierror)) ierror = 0
  end subroutine shl_status_f082f

  subroutine shl_status_f2f08(f_status, f08_status, ierror)
    integer, intent(in) :: f_status(*)
    type(MPI_Status), intent(out) :: f08_status
    integer, optional, intent(out) :: ierror
    f08_status%MPI_SOURCE = f_status(1)
    f08_status%MPI_TAG = f_status(2)
    f08_status%MPI_ERROR = f_status(3)
    f08_status%shl_internal = f_status(4:8)
    if (present(ierror)) ierror = 0
  end subroutine shl_status_f2f08

  subroutine shl_sizeof_integer1(x, size, ierror)
    integer(kind=1), dimension(..), intent(in) :: x
    integer, intent(out) :: size
    integer, optional, intent(out) :: ierror
    size = storage_size(x) / 8
    if (present(ierror)) ierror = 0
  end subroutine shl_sizeof_integer1
  subroutine shl_sizeof_integer2(x, size, ierror)
    integer(kind=2), dimension(..), intent(in) :: x
    integer, intent(out) :: size
    integer, optional, intent(out) :: ierror
    size = storage_size(x) / 8
    if (present(ierror)) ierror = 0
  end subroutine shl_sizeof_integer2
  subroutine shl_sizeof_integer4(x, size, ierror)
    integer(kind=4), dimension(..), intent(in) :: x
    integer, intent(out) :: size
    integer, optional, intent(out) :: ierror
    size = storage_size(x) / 8
    if (present(ierror)) ierror = 0
  end subroutine shl_sizeof_integer4
  subroutine shl_sizeof_integer8(x, size, ierror)
    integer(kind=8), dimension(..), intent(in) :: x
    integer, intent(out) :: size
    integer, optional, intent(out) :: ierror
    size = storage_size(x) / 8
    if (present(ierror)) ierror = 0
  end subroutine shl_sizeof_integer8
  subroutine shl_sizeof_integer16(x, size, ierror)
    integer(kind=16), dimension(..), intent(in) :: x
    integer, intent(out) :: size
    integer, optional, intent(out) :: ierror
    size = storage_size(x) / 8
    if (present(ierror)) ierror = 0
  end subroutine shl_sizeof_integer16
  subroutine shl_sizeof_real4(x, size, ierror)
    real(kind=4), dimension(..), intent(in) :: x
    integer, intent(out) :: size
    integer, optional, intent(out) :: ierror
    size = storage_size(x) / 8
    if (present(ierror)) ierror = 0
  end subroutine shl_sizeof_real4
  subroutine shl_sizeof_real8(x, size, ierror)
    real(kind=8), dimension(..), intent(in) :: x
    integer, intent(out) :: size
    integer, optional, intent(out) :: ierror
    size = storage_size(x) / 8
    if (present(ierror)) ierror = 0
  end subroutine shl_sizeof_real8
  subroutine shl_sizeof_real10(x, size, ierror)
    real(kind=10), dimension(..), intent(in) :: x
    integer, intent(out) :: size
    integer, optional, intent(out) :: ierror
    size = storage_size(x) / 8
    if (present(ierror)) ierror = 0
  end subroutine shl_sizeof_real10
  subroutine shl_sizeof_real16(x, size, ierror)
    real(kind=16), dimension(..), intent(in) :: x
    integer, intent(out) :: size
    integer, optional, intent(out) :: ierror
    size = storage_size(x) / 8
    if (present(ierror)) ierror = 0
  end subroutine shl_sizeof_real16
  subroutine shl_sizeof_complex4(x, size, ierror)
    complex(kind=4), dimension(..), intent(in) :: x
    integer, intent(out) :: size
    integer, optional, intent(out) :: ierror
    size = storage_size(x) / 8
    if (present(ierror)) ierror = 0
  end subroutine shl_sizeof_complex4
  subroutine shl_sizeof_complex8(x, size, ierror)
    complex(kind=8), dimension(..), intent(in) :: x
    integer, intent(out) :: size
    integer, optional, intent(out) :: ierror
    size = storage_size(x) / 8
    if (present(ierror)) ierror = 0
  end subroutine shl_sizeof_complex8
  subroutine shl_sizeof_complex10(x, size, ierror)
    complex(kind=10), dimension(..), intent(in) :: x
    integer, intent(out) :: size
    integer, optional, intent(out) :: ierror
    size = storage_size(x) / 8
    if (present(ierror)) ierror = 0
  end subroutine shl_sizeof_complex10
  subroutine shl_sizeof_complex16(x, size, ierror)
    complex(kind=16), dimension(..), intent(in) :: x
    integer, intent(out) :: size
    integer, optional, intent(out) :: ierror
    size = storage_size(x) / 8
    if (present(ierror)) ierror = 0
  end subroutine shl_sizeof_complex16
  subroutine shl_sizeof_logical1(x, size, ierror)
    logical(kind=1), dimension(..), intent(in) :: x
    integer, intent(out) :: size
    integer, optional, intent(out) :: ierror
    size = storage_size(x) / 8
    if (present(ierror)) ierror = 0
  end subroutine shl_sizeof_logical1
  subroutine shl_sizeof_logical2(x, size, ierror)
    logical(kind=2), dimension(..), intent(in) :: x
    integer, intent(out) :: size
    integer, optional, intent(out) :: ierror
    size = storage_size(x) / 8
    if (present(ierror)) ierror = 0
  end subroutine shl_sizeof_logical2
  subroutine shl_sizeof_logical4(x, size, ierror)
    logical(kind=4), dimension(..), intent(in) :: x
    integer, intent(out) :: size
    integer, optional, intent(out) :: ierror
    size = storage_size(x) / 8
    if (present(ierror)) ierror = 0
  end subroutine shl_sizeof_logical4
  subroutine shl_sizeof_logical8(x, size, ierror)
    logical(kind=8), dimension(..), intent(in) :: x
    integer, intent(out) :: size
    integer, optional, intent(out) :: ierror
    size = storage_size(x) / 8
    if (present(ierror)) ierror = 0
  end subroutine shl_sizeof_logical8
  subroutine shl_sizeof_logical16(x, size, ierror)
    logical(kind=16), dimension(..), intent(in) :: x
    integer, intent(out) :: size
    integer, optional, intent(out) :: ierror
    size = storage_size(x) / 8
    if (present(ierror)) ierror = 0
  end subroutine shl_sizeof_logical16
  subroutine shl_sizeof_character1(x, size, ierror)
    character(len=*), dimension(..), intent(in) :: x
    integer, intent(out) :: size
    integer, optional, intent(out) :: ierror
    size = storage_size(x) / 8
    if (present(ierror)) ierror = 0
  end subroutine shl_sizeof_character1
end module mpi_f08_types
