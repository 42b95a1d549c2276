/* Shoal MPI: the public C interface (MPI 4.1). Every function declared here is implemented,
 * with its PMPI_ twin; capabilities not yet built are absent rather than stubbed.
 * Handles are pointers to library objects; predefined handles are addresses of exported
 * objects named shl_mpi_* (the only exported names besides MPI_*, PMPI_* and interposed libc). */
#ifndef SHOAL_MPI_H
#define SHOAL_MPI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SHOAL_MPI 1
#define SHOAL_VERSION_STRING "0.1.0"
#define MPI_VERSION 4
#define MPI_SUBVERSION 1

/* ---- basic types ---- */
typedef intptr_t MPI_Aint;
typedef long long MPI_Offset;
typedef long long MPI_Count;
typedef int MPI_Fint;

typedef struct shl_comm *MPI_Comm;
typedef struct shl_datatype *MPI_Datatype;
typedef struct shl_req *MPI_Request;
typedef struct shl_errhandler *MPI_Errhandler;
typedef struct shl_envelope *MPI_Message;

typedef struct MPI_Status {
	int MPI_SOURCE;
	int MPI_TAG;
	int MPI_ERROR;
	int shl_cancelled;      /* internal: set by a successful MPI_Cancel */
	MPI_Count shl_bytes;    /* internal: bytes of the received message */
} MPI_Status;

/* ---- predefined handles ---- */
extern struct shl_comm shl_mpi_comm_world, shl_mpi_comm_self;
#define MPI_COMM_NULL ((MPI_Comm)0)
#define MPI_COMM_WORLD (&shl_mpi_comm_world)
#define MPI_COMM_SELF (&shl_mpi_comm_self)

#define MPI_REQUEST_NULL ((MPI_Request)0)
#define MPI_MESSAGE_NULL ((MPI_Message)0)
extern struct shl_envelope shl_mpi_message_no_proc;
#define MPI_MESSAGE_NO_PROC (&shl_mpi_message_no_proc)

extern struct shl_errhandler shl_mpi_errors_are_fatal, shl_mpi_errors_return,
	shl_mpi_errors_abort;
#define MPI_ERRHANDLER_NULL ((MPI_Errhandler)0)
#define MPI_ERRORS_ARE_FATAL (&shl_mpi_errors_are_fatal)
#define MPI_ERRORS_RETURN (&shl_mpi_errors_return)
#define MPI_ERRORS_ABORT (&shl_mpi_errors_abort)

#define MPI_DATATYPE_NULL ((MPI_Datatype)0)
extern struct shl_datatype shl_mpi_char, shl_mpi_signed_char, shl_mpi_unsigned_char,
	shl_mpi_byte, shl_mpi_wchar, shl_mpi_short, shl_mpi_unsigned_short, shl_mpi_int,
	shl_mpi_unsigned, shl_mpi_long, shl_mpi_unsigned_long, shl_mpi_long_long,
	shl_mpi_unsigned_long_long, shl_mpi_float, shl_mpi_double, shl_mpi_long_double,
	shl_mpi_c_bool, shl_mpi_int8_t, shl_mpi_int16_t, shl_mpi_int32_t, shl_mpi_int64_t,
	shl_mpi_uint8_t, shl_mpi_uint16_t, shl_mpi_uint32_t, shl_mpi_uint64_t,
	shl_mpi_c_float_complex, shl_mpi_c_double_complex, shl_mpi_c_long_double_complex,
	shl_mpi_aint, shl_mpi_offset, shl_mpi_count, shl_mpi_packed,
	shl_mpi_float_int, shl_mpi_double_int, shl_mpi_long_int, shl_mpi_2int,
	shl_mpi_short_int, shl_mpi_long_double_int,
	shl_mpi_cxx_bool, shl_mpi_cxx_float_complex, shl_mpi_cxx_double_complex,
	shl_mpi_cxx_long_double_complex;
#define MPI_CHAR (&shl_mpi_char)
#define MPI_SIGNED_CHAR (&shl_mpi_signed_char)
#define MPI_UNSIGNED_CHAR (&shl_mpi_unsigned_char)
#define MPI_BYTE (&shl_mpi_byte)
#define MPI_WCHAR (&shl_mpi_wchar)
#define MPI_SHORT (&shl_mpi_short)
#define MPI_UNSIGNED_SHORT (&shl_mpi_unsigned_short)
#define MPI_INT (&shl_mpi_int)
#define MPI_UNSIGNED (&shl_mpi_unsigned)
#define MPI_LONG (&shl_mpi_long)
#define MPI_UNSIGNED_LONG (&shl_mpi_unsigned_long)
#define MPI_LONG_LONG_INT (&shl_mpi_long_long)
#define MPI_LONG_LONG (&shl_mpi_long_long)
#define MPI_UNSIGNED_LONG_LONG (&shl_mpi_unsigned_long_long)
#define MPI_FLOAT (&shl_mpi_float)
#define MPI_DOUBLE (&shl_mpi_double)
#define MPI_LONG_DOUBLE (&shl_mpi_long_double)
#define MPI_C_BOOL (&shl_mpi_c_bool)
#define MPI_INT8_T (&shl_mpi_int8_t)
#define MPI_INT16_T (&shl_mpi_int16_t)
#define MPI_INT32_T (&shl_mpi_int32_t)
#define MPI_INT64_T (&shl_mpi_int64_t)
#define MPI_UINT8_T (&shl_mpi_uint8_t)
#define MPI_UINT16_T (&shl_mpi_uint16_t)
#define MPI_UINT32_T (&shl_mpi_uint32_t)
#define MPI_UINT64_T (&shl_mpi_uint64_t)
#define MPI_C_COMPLEX (&shl_mpi_c_float_complex)
#define MPI_C_FLOAT_COMPLEX (&shl_mpi_c_float_complex)
#define MPI_C_DOUBLE_COMPLEX (&shl_mpi_c_double_complex)
#define MPI_C_LONG_DOUBLE_COMPLEX (&shl_mpi_c_long_double_complex)
#define MPI_AINT (&shl_mpi_aint)
#define MPI_OFFSET (&shl_mpi_offset)
#define MPI_COUNT (&shl_mpi_count)
#define MPI_PACKED (&shl_mpi_packed)
#define MPI_FLOAT_INT (&shl_mpi_float_int)
#define MPI_DOUBLE_INT (&shl_mpi_double_int)
#define MPI_LONG_INT (&shl_mpi_long_int)
#define MPI_2INT (&shl_mpi_2int)
#define MPI_SHORT_INT (&shl_mpi_short_int)
#define MPI_LONG_DOUBLE_INT (&shl_mpi_long_double_int)
#define MPI_CXX_BOOL (&shl_mpi_cxx_bool)
#define MPI_CXX_FLOAT_COMPLEX (&shl_mpi_cxx_float_complex)
#define MPI_CXX_DOUBLE_COMPLEX (&shl_mpi_cxx_double_complex)
#define MPI_CXX_LONG_DOUBLE_COMPLEX (&shl_mpi_cxx_long_double_complex)

/* ---- constants ---- */
#define MPI_ANY_SOURCE (-1)
#define MPI_PROC_NULL (-2)
#define MPI_ROOT (-3)
#define MPI_ANY_TAG (-1)
#define MPI_UNDEFINED (-32766)
#define MPI_TAG_UB_VALUE 0x3fffffff  /* largest tag; MPI requires at least 32767 */

#define MPI_STATUS_IGNORE ((MPI_Status *)0)
#define MPI_STATUSES_IGNORE ((MPI_Status *)0)

#define MPI_MAX_PROCESSOR_NAME 256
#define MPI_MAX_ERROR_STRING 512
#define MPI_MAX_LIBRARY_VERSION_STRING 256
#define MPI_BSEND_OVERHEAD 64

#define MPI_THREAD_SINGLE 0
#define MPI_THREAD_FUNNELED 1
#define MPI_THREAD_SERIALIZED 2
#define MPI_THREAD_MULTIPLE 3

/* ---- error classes (MPI 4.1, section 9.4) ---- */
#define MPI_SUCCESS 0
#define MPI_ERR_BUFFER 1
#define MPI_ERR_COUNT 2
#define MPI_ERR_TYPE 3
#define MPI_ERR_TAG 4
#define MPI_ERR_COMM 5
#define MPI_ERR_RANK 6
#define MPI_ERR_REQUEST 7
#define MPI_ERR_ROOT 8
#define MPI_ERR_GROUP 9
#define MPI_ERR_OP 10
#define MPI_ERR_TOPOLOGY 11
#define MPI_ERR_DIMS 12
#define MPI_ERR_ARG 13
#define MPI_ERR_UNKNOWN 14
#define MPI_ERR_TRUNCATE 15
#define MPI_ERR_OTHER 16
#define MPI_ERR_INTERN 17
#define MPI_ERR_PENDING 18
#define MPI_ERR_IN_STATUS 19
#define MPI_ERR_ACCESS 20
#define MPI_ERR_AMODE 21
#define MPI_ERR_ASSERT 22
#define MPI_ERR_BAD_FILE 23
#define MPI_ERR_BASE 24
#define MPI_ERR_CONVERSION 25
#define MPI_ERR_DISP 26
#define MPI_ERR_DUP_DATAREP 27
#define MPI_ERR_FILE_EXISTS 28
#define MPI_ERR_FILE_IN_USE 29
#define MPI_ERR_FILE 30
#define MPI_ERR_INFO_KEY 31
#define MPI_ERR_INFO_NOKEY 32
#define MPI_ERR_INFO_VALUE 33
#define MPI_ERR_INFO 34
#define MPI_ERR_IO 35
#define MPI_ERR_KEYVAL 36
#define MPI_ERR_LOCKTYPE 37
#define MPI_ERR_NAME 38
#define MPI_ERR_NO_MEM 39
#define MPI_ERR_NOT_SAME 40
#define MPI_ERR_NO_SPACE 41
#define MPI_ERR_NO_SUCH_FILE 42
#define MPI_ERR_PORT 43
#define MPI_ERR_PROC_ABORTED 44
#define MPI_ERR_QUOTA 45
#define MPI_ERR_READ_ONLY 46
#define MPI_ERR_RMA_ATTACH 47
#define MPI_ERR_RMA_CONFLICT 48
#define MPI_ERR_RMA_RANGE 49
#define MPI_ERR_RMA_SHARED 50
#define MPI_ERR_RMA_SYNC 51
#define MPI_ERR_RMA_FLAVOR 52
#define MPI_ERR_SERVICE 53
#define MPI_ERR_SESSION 54
#define MPI_ERR_SIZE 55
#define MPI_ERR_SPAWN 56
#define MPI_ERR_UNSUPPORTED_DATAREP 57
#define MPI_ERR_UNSUPPORTED_OPERATION 58
#define MPI_ERR_VALUE_TOO_LARGE 59
#define MPI_ERR_WIN 60
#define MPI_ERR_ERRHANDLER 61
#define MPI_T_ERR_NOT_SUPPORTED 62
#define MPI_ERR_LASTCODE 62

/* Each function is declared twice: MPI_name and its profiling twin PMPI_name. */
#define SHL_DECLARE(ret, name, args) ret MPI_##name args; ret PMPI_##name args

/* ---- environment ---- */
SHL_DECLARE(int, Init, (int *argc, char ***argv));
SHL_DECLARE(int, Init_thread, (int *argc, char ***argv, int required, int *provided));
SHL_DECLARE(int, Finalize, (void));
SHL_DECLARE(int, Initialized, (int *flag));
SHL_DECLARE(int, Finalized, (int *flag));
SHL_DECLARE(int, Query_thread, (int *provided));
SHL_DECLARE(int, Is_thread_main, (int *flag));
SHL_DECLARE(int, Abort, (MPI_Comm comm, int errorcode));
SHL_DECLARE(int, Comm_rank, (MPI_Comm comm, int *rank));
SHL_DECLARE(int, Comm_size, (MPI_Comm comm, int *size));
SHL_DECLARE(double, Wtime, (void));
SHL_DECLARE(double, Wtick, (void));
SHL_DECLARE(int, Get_processor_name, (char *name, int *resultlen));
SHL_DECLARE(int, Get_version, (int *version, int *subversion));
SHL_DECLARE(int, Get_library_version, (char *version, int *resultlen));

/* ---- errors ---- */
SHL_DECLARE(int, Comm_set_errhandler, (MPI_Comm comm, MPI_Errhandler errhandler));
SHL_DECLARE(int, Comm_get_errhandler, (MPI_Comm comm, MPI_Errhandler *errhandler));
SHL_DECLARE(int, Error_string, (int errorcode, char *string, int *resultlen));
SHL_DECLARE(int, Error_class, (int errorcode, int *errorclass));

/* ---- datatypes (predefined, contiguous use) ---- */
SHL_DECLARE(int, Type_size, (MPI_Datatype datatype, int *size));
SHL_DECLARE(int, Type_get_extent, (MPI_Datatype datatype, MPI_Aint *lb, MPI_Aint *extent));
SHL_DECLARE(int, Get_count, (const MPI_Status *status, MPI_Datatype datatype, int *count));
SHL_DECLARE(int, Get_elements, (const MPI_Status *status, MPI_Datatype datatype, int *count));

/* ---- point-to-point ---- */
SHL_DECLARE(int, Send, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
			MPI_Comm comm));
SHL_DECLARE(int, Ssend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
			 MPI_Comm comm));
SHL_DECLARE(int, Bsend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
			 MPI_Comm comm));
SHL_DECLARE(int, Rsend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
			 MPI_Comm comm));
SHL_DECLARE(int, Recv, (void *buf, int count, MPI_Datatype datatype, int source, int tag,
			MPI_Comm comm, MPI_Status *status));
SHL_DECLARE(int, Isend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
			 MPI_Comm comm, MPI_Request *request));
SHL_DECLARE(int, Issend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
			  MPI_Comm comm, MPI_Request *request));
SHL_DECLARE(int, Ibsend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
			  MPI_Comm comm, MPI_Request *request));
SHL_DECLARE(int, Irsend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
			  MPI_Comm comm, MPI_Request *request));
SHL_DECLARE(int, Irecv, (void *buf, int count, MPI_Datatype datatype, int source, int tag,
			 MPI_Comm comm, MPI_Request *request));
SHL_DECLARE(int, Send_init, (const void *buf, int count, MPI_Datatype datatype, int dest,
			     int tag, MPI_Comm comm, MPI_Request *request));
SHL_DECLARE(int, Ssend_init, (const void *buf, int count, MPI_Datatype datatype, int dest,
			      int tag, MPI_Comm comm, MPI_Request *request));
SHL_DECLARE(int, Bsend_init, (const void *buf, int count, MPI_Datatype datatype, int dest,
			      int tag, MPI_Comm comm, MPI_Request *request));
SHL_DECLARE(int, Rsend_init, (const void *buf, int count, MPI_Datatype datatype, int dest,
			      int tag, MPI_Comm comm, MPI_Request *request));
SHL_DECLARE(int, Recv_init, (void *buf, int count, MPI_Datatype datatype, int source, int tag,
			     MPI_Comm comm, MPI_Request *request));
SHL_DECLARE(int, Sendrecv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
			    int dest, int sendtag, void *recvbuf, int recvcount,
			    MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
			    MPI_Status *status));
SHL_DECLARE(int, Sendrecv_replace, (void *buf, int count, MPI_Datatype datatype, int dest,
				    int sendtag, int source, int recvtag, MPI_Comm comm,
				    MPI_Status *status));
SHL_DECLARE(int, Buffer_attach, (void *buffer, int size));
SHL_DECLARE(int, Buffer_detach, (void *buffer_addr, int *size));
SHL_DECLARE(int, Probe, (int source, int tag, MPI_Comm comm, MPI_Status *status));
SHL_DECLARE(int, Iprobe, (int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status));
SHL_DECLARE(int, Mprobe, (int source, int tag, MPI_Comm comm, MPI_Message *message,
			  MPI_Status *status));
SHL_DECLARE(int, Improbe, (int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message,
			   MPI_Status *status));
SHL_DECLARE(int, Mrecv, (void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
			 MPI_Status *status));
SHL_DECLARE(int, Imrecv, (void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
			  MPI_Request *request));

/* ---- requests ---- */
SHL_DECLARE(int, Wait, (MPI_Request *request, MPI_Status *status));
SHL_DECLARE(int, Test, (MPI_Request *request, int *flag, MPI_Status *status));
SHL_DECLARE(int, Waitany, (int count, MPI_Request array_of_requests[], int *index,
			   MPI_Status *status));
SHL_DECLARE(int, Testany, (int count, MPI_Request array_of_requests[], int *index, int *flag,
			   MPI_Status *status));
SHL_DECLARE(int, Waitall, (int count, MPI_Request array_of_requests[],
			   MPI_Status array_of_statuses[]));
SHL_DECLARE(int, Testall, (int count, MPI_Request array_of_requests[], int *flag,
			   MPI_Status array_of_statuses[]));
SHL_DECLARE(int, Waitsome, (int incount, MPI_Request array_of_requests[], int *outcount,
			    int array_of_indices[], MPI_Status array_of_statuses[]));
SHL_DECLARE(int, Testsome, (int incount, MPI_Request array_of_requests[], int *outcount,
			    int array_of_indices[], MPI_Status array_of_statuses[]));
SHL_DECLARE(int, Request_get_status, (MPI_Request request, int *flag, MPI_Status *status));
SHL_DECLARE(int, Request_free, (MPI_Request *request));
SHL_DECLARE(int, Cancel, (MPI_Request *request));
SHL_DECLARE(int, Test_cancelled, (const MPI_Status *status, int *flag));
SHL_DECLARE(int, Start, (MPI_Request *request));
SHL_DECLARE(int, Startall, (int count, MPI_Request array_of_requests[]));

/* ---- groups, communicators, attributes, info, user error handlers ---- */

/* ---- collectives ---- */

/* ---- derived datatypes, packing ---- */

#undef SHL_DECLARE

#ifdef __cplusplus
}
#endif
#endif
