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
	int shl_cancelled;        /* internal: set by a successful MPI_Cancel */
	MPI_Count shl_bytes;      /* internal: bytes received */
	MPI_Count shl_sent_bytes; /* internal: bytes sent, if they did not fit (MPI_ERR_TRUNCATE) */
} MPI_Status;

/* ---- predefined handles ---- */
/* Code compiled -fPIE (a default-PIE compiler without mpicc's -fPIC, e.g. CMake's plain
 * executables) addresses external data directly, through a copy of the object that the
 * linker places in the program: a second MPI_COMM_WORLD, not libmpi.so's. Declared weak,
 * these objects are reached through the GOT instead, as -fPIC code reaches them, and the
 * program's other external data (stderr, std::cout) keeps the usual copy relocations
 * (docs/process-model.md, "Programs linked as executables"). -fPIC code is unchanged. */
#if defined(__PIE__) && defined(__x86_64__)
#define SHL_MPI_OBJECT __attribute__((weak))
#endif
#ifndef SHL_MPI_OBJECT
#define SHL_MPI_OBJECT
#endif

extern SHL_MPI_OBJECT struct shl_comm shl_mpi_comm_world, shl_mpi_comm_self;
#define MPI_COMM_NULL ((MPI_Comm)0)
#define MPI_COMM_WORLD (&shl_mpi_comm_world)
#define MPI_COMM_SELF (&shl_mpi_comm_self)

#define MPI_REQUEST_NULL ((MPI_Request)0)
#define MPI_MESSAGE_NULL ((MPI_Message)0)
extern SHL_MPI_OBJECT struct shl_envelope shl_mpi_message_no_proc;
#define MPI_MESSAGE_NO_PROC (&shl_mpi_message_no_proc)

extern SHL_MPI_OBJECT struct shl_errhandler shl_mpi_errors_are_fatal, shl_mpi_errors_return,
	shl_mpi_errors_abort;
#define MPI_ERRHANDLER_NULL ((MPI_Errhandler)0)
#define MPI_ERRORS_ARE_FATAL (&shl_mpi_errors_are_fatal)
#define MPI_ERRORS_RETURN (&shl_mpi_errors_return)
#define MPI_ERRORS_ABORT (&shl_mpi_errors_abort)

#define MPI_DATATYPE_NULL ((MPI_Datatype)0)
extern SHL_MPI_OBJECT struct shl_datatype shl_mpi_char, shl_mpi_signed_char, shl_mpi_unsigned_char,
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
#define SHL_DECLARE(ret, name, args) \
	__attribute__((visibility("default"))) ret MPI_##name args; \
	__attribute__((visibility("default"))) ret PMPI_##name args

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

/* Large-count point-to-point (MPI 4.1, chapter 3): the same calls with MPI_Count counts and
 * sizes. Each shares its int twin's implementation; a negative count, or one whose bytes
 * (count times the datatype's size) overflow size_t or exceed PTRDIFF_MAX (larger than any
 * buffer), is MPI_ERR_COUNT in both. */
SHL_DECLARE(int, Send_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
			  int tag, MPI_Comm comm));
SHL_DECLARE(int, Ssend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
			   int tag, MPI_Comm comm));
SHL_DECLARE(int, Bsend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
			   int tag, MPI_Comm comm));
SHL_DECLARE(int, Rsend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
			   int tag, MPI_Comm comm));
SHL_DECLARE(int, Recv_c, (void *buf, MPI_Count count, MPI_Datatype datatype, int source,
			  int tag, MPI_Comm comm, MPI_Status *status));
SHL_DECLARE(int, Isend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
			   int tag, MPI_Comm comm, MPI_Request *request));
SHL_DECLARE(int, Issend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
			    int tag, MPI_Comm comm, MPI_Request *request));
SHL_DECLARE(int, Ibsend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
			    int tag, MPI_Comm comm, MPI_Request *request));
SHL_DECLARE(int, Irsend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
			    int tag, MPI_Comm comm, MPI_Request *request));
SHL_DECLARE(int, Irecv_c, (void *buf, MPI_Count count, MPI_Datatype datatype, int source,
			   int tag, MPI_Comm comm, MPI_Request *request));
SHL_DECLARE(int, Send_init_c, (const void *buf, MPI_Count count, MPI_Datatype datatype,
			       int dest, int tag, MPI_Comm comm, MPI_Request *request));
SHL_DECLARE(int, Ssend_init_c, (const void *buf, MPI_Count count, MPI_Datatype datatype,
				int dest, int tag, MPI_Comm comm, MPI_Request *request));
SHL_DECLARE(int, Bsend_init_c, (const void *buf, MPI_Count count, MPI_Datatype datatype,
				int dest, int tag, MPI_Comm comm, MPI_Request *request));
SHL_DECLARE(int, Rsend_init_c, (const void *buf, MPI_Count count, MPI_Datatype datatype,
				int dest, int tag, MPI_Comm comm, MPI_Request *request));
SHL_DECLARE(int, Recv_init_c, (void *buf, MPI_Count count, MPI_Datatype datatype, int source,
			       int tag, MPI_Comm comm, MPI_Request *request));
SHL_DECLARE(int, Sendrecv_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
			      int dest, int sendtag, void *recvbuf, MPI_Count recvcount,
			      MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
			      MPI_Status *status));
SHL_DECLARE(int, Sendrecv_replace_c, (void *buf, MPI_Count count, MPI_Datatype datatype,
				      int dest, int sendtag, int source, int recvtag,
				      MPI_Comm comm, MPI_Status *status));
SHL_DECLARE(int, Mrecv_c, (void *buf, MPI_Count count, MPI_Datatype datatype,
			   MPI_Message *message, MPI_Status *status));
SHL_DECLARE(int, Imrecv_c, (void *buf, MPI_Count count, MPI_Datatype datatype,
			    MPI_Message *message, MPI_Request *request));
/* The int MPI_Buffer_detach of a buffer larger than INT_MAX bytes (attached with
 * MPI_Buffer_attach_c) is MPI_ERR_VALUE_TOO_LARGE and leaves the buffer attached. */
SHL_DECLARE(int, Buffer_attach_c, (void *buffer, MPI_Count size));
SHL_DECLARE(int, Buffer_detach_c, (void *buffer_addr, MPI_Count *size));

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
typedef struct shl_group *MPI_Group;
typedef struct shl_info *MPI_Info;

extern SHL_MPI_OBJECT struct shl_group shl_mpi_group_empty;
#define MPI_GROUP_NULL ((MPI_Group)0)
#define MPI_GROUP_EMPTY (&shl_mpi_group_empty)
extern SHL_MPI_OBJECT struct shl_info shl_mpi_info_env;
#define MPI_INFO_NULL ((MPI_Info)0)
#define MPI_INFO_ENV (&shl_mpi_info_env)

/* Results of MPI_Comm_compare and MPI_Group_compare. */
#define MPI_IDENT 0
#define MPI_CONGRUENT 1
#define MPI_SIMILAR 2
#define MPI_UNEQUAL 3

/* MPI_Comm_split_type: every rank of a node process shares its memory. */
#define MPI_COMM_TYPE_SHARED 1
#define MPI_COMM_TYPE_HW_UNGUIDED 2
#define MPI_COMM_TYPE_HW_GUIDED 3
#define MPI_COMM_TYPE_RESOURCE_GUIDED 4

#define MPI_MAX_OBJECT_NAME 128
#define MPI_MAX_INFO_KEY 255
#define MPI_MAX_INFO_VAL 1024

/* Attribute keyvals: the predefined ones are attributes of MPI_COMM_WORLD. */
#define MPI_KEYVAL_INVALID (-1)
#define MPI_TAG_UB 1
#define MPI_HOST 2
#define MPI_IO 3
#define MPI_WTIME_IS_GLOBAL 4
#define MPI_UNIVERSE_SIZE 5
#define MPI_APPNUM 6
#define MPI_LASTUSEDCODE 7

typedef void MPI_Comm_errhandler_function(MPI_Comm *comm, int *errorcode, ...);
typedef int MPI_Comm_copy_attr_function(MPI_Comm oldcomm, int comm_keyval, void *extra_state,
					void *attribute_val_in, void *attribute_val_out,
					int *flag);
typedef int MPI_Comm_delete_attr_function(MPI_Comm comm, int comm_keyval,
					  void *attribute_val, void *extra_state);
MPI_Comm_copy_attr_function shl_mpi_comm_null_copy_fn, shl_mpi_comm_dup_fn;
MPI_Comm_delete_attr_function shl_mpi_comm_null_delete_fn;
__attribute__((visibility("default"))) MPI_Comm_copy_attr_function MPI_COMM_NULL_COPY_FN,
	MPI_COMM_DUP_FN;
__attribute__((visibility("default"))) MPI_Comm_delete_attr_function MPI_COMM_NULL_DELETE_FN;

SHL_DECLARE(int, Group_size, (MPI_Group group, int *size));
SHL_DECLARE(int, Group_rank, (MPI_Group group, int *rank));
SHL_DECLARE(int, Group_translate_ranks, (MPI_Group group1, int n, const int ranks1[],
					 MPI_Group group2, int ranks2[]));
SHL_DECLARE(int, Group_compare, (MPI_Group group1, MPI_Group group2, int *result));
SHL_DECLARE(int, Group_union, (MPI_Group group1, MPI_Group group2, MPI_Group *newgroup));
SHL_DECLARE(int, Group_intersection, (MPI_Group group1, MPI_Group group2,
				      MPI_Group *newgroup));
SHL_DECLARE(int, Group_difference, (MPI_Group group1, MPI_Group group2, MPI_Group *newgroup));
SHL_DECLARE(int, Group_incl, (MPI_Group group, int n, const int ranks[], MPI_Group *newgroup));
SHL_DECLARE(int, Group_excl, (MPI_Group group, int n, const int ranks[], MPI_Group *newgroup));
SHL_DECLARE(int, Group_range_incl, (MPI_Group group, int n, int ranges[][3],
				    MPI_Group *newgroup));
SHL_DECLARE(int, Group_range_excl, (MPI_Group group, int n, int ranges[][3],
				    MPI_Group *newgroup));
SHL_DECLARE(int, Group_free, (MPI_Group *group));

SHL_DECLARE(int, Comm_group, (MPI_Comm comm, MPI_Group *group));
SHL_DECLARE(int, Comm_remote_group, (MPI_Comm comm, MPI_Group *group));
SHL_DECLARE(int, Comm_remote_size, (MPI_Comm comm, int *size));
SHL_DECLARE(int, Comm_test_inter, (MPI_Comm comm, int *flag));
SHL_DECLARE(int, Comm_compare, (MPI_Comm comm1, MPI_Comm comm2, int *result));
SHL_DECLARE(int, Comm_dup, (MPI_Comm comm, MPI_Comm *newcomm));
SHL_DECLARE(int, Comm_dup_with_info, (MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm));
SHL_DECLARE(int, Comm_idup, (MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request));
SHL_DECLARE(int, Comm_idup_with_info, (MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm,
				       MPI_Request *request));
SHL_DECLARE(int, Comm_create, (MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm));
SHL_DECLARE(int, Comm_create_group, (MPI_Comm comm, MPI_Group group, int tag,
				     MPI_Comm *newcomm));
SHL_DECLARE(int, Comm_split, (MPI_Comm comm, int color, int key, MPI_Comm *newcomm));
SHL_DECLARE(int, Comm_split_type, (MPI_Comm comm, int split_type, int key, MPI_Info info,
				   MPI_Comm *newcomm));
SHL_DECLARE(int, Comm_free, (MPI_Comm *comm));
SHL_DECLARE(int, Comm_set_name, (MPI_Comm comm, const char *comm_name));
SHL_DECLARE(int, Comm_get_name, (MPI_Comm comm, char *comm_name, int *resultlen));
SHL_DECLARE(int, Comm_set_info, (MPI_Comm comm, MPI_Info info));
SHL_DECLARE(int, Comm_get_info, (MPI_Comm comm, MPI_Info *info_used));
SHL_DECLARE(int, Intercomm_create, (MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm,
				    int remote_leader, int tag, MPI_Comm *newintercomm));
SHL_DECLARE(int, Intercomm_merge, (MPI_Comm intercomm, int high, MPI_Comm *newintracomm));

SHL_DECLARE(int, Comm_create_keyval, (MPI_Comm_copy_attr_function *comm_copy_attr_fn,
				      MPI_Comm_delete_attr_function *comm_delete_attr_fn,
				      int *comm_keyval, void *extra_state));
SHL_DECLARE(int, Comm_free_keyval, (int *comm_keyval));
SHL_DECLARE(int, Comm_set_attr, (MPI_Comm comm, int comm_keyval, void *attribute_val));
SHL_DECLARE(int, Comm_get_attr, (MPI_Comm comm, int comm_keyval, void *attribute_val,
				 int *flag));
SHL_DECLARE(int, Comm_delete_attr, (MPI_Comm comm, int comm_keyval));

SHL_DECLARE(int, Info_create, (MPI_Info *info));
SHL_DECLARE(int, Info_create_env, (int argc, char *argv[], MPI_Info *info));
SHL_DECLARE(int, Info_set, (MPI_Info info, const char *key, const char *value));
SHL_DECLARE(int, Info_get, (MPI_Info info, const char *key, int valuelen, char *value,
			    int *flag));
SHL_DECLARE(int, Info_get_string, (MPI_Info info, const char *key, int *buflen, char *value,
				   int *flag));
SHL_DECLARE(int, Info_get_valuelen, (MPI_Info info, const char *key, int *valuelen,
				     int *flag));
SHL_DECLARE(int, Info_delete, (MPI_Info info, const char *key));
SHL_DECLARE(int, Info_get_nkeys, (MPI_Info info, int *nkeys));
SHL_DECLARE(int, Info_get_nthkey, (MPI_Info info, int n, char *key));
SHL_DECLARE(int, Info_dup, (MPI_Info info, MPI_Info *newinfo));
SHL_DECLARE(int, Info_free, (MPI_Info *info));

SHL_DECLARE(int, Comm_create_errhandler, (MPI_Comm_errhandler_function *comm_errhandler_fn,
					  MPI_Errhandler *errhandler));
SHL_DECLARE(int, Comm_call_errhandler, (MPI_Comm comm, int errorcode));
SHL_DECLARE(int, Errhandler_free, (MPI_Errhandler *errhandler));
SHL_DECLARE(int, Add_error_class, (int *errorclass));
SHL_DECLARE(int, Add_error_code, (int errorclass, int *errorcode));
SHL_DECLARE(int, Add_error_string, (int errorcode, const char *string));

/* ---- collectives ---- */
typedef struct shl_op *MPI_Op;
typedef void MPI_User_function(void *invec, void *inoutvec, int *len, MPI_Datatype *datatype);
typedef void MPI_User_function_c(void *invec, void *inoutvec, MPI_Count *len,
				 MPI_Datatype *datatype);

/* A distinct address no buffer can start at (MPICH uses the same value). */
#define MPI_IN_PLACE ((void *)-1)

extern SHL_MPI_OBJECT struct shl_op shl_mpi_max, shl_mpi_min, shl_mpi_sum, shl_mpi_prod, shl_mpi_land,
	shl_mpi_band, shl_mpi_lor, shl_mpi_bor, shl_mpi_lxor, shl_mpi_bxor, shl_mpi_minloc,
	shl_mpi_maxloc, shl_mpi_replace, shl_mpi_no_op;
#define MPI_OP_NULL ((MPI_Op)0)
#define MPI_MAX (&shl_mpi_max)
#define MPI_MIN (&shl_mpi_min)
#define MPI_SUM (&shl_mpi_sum)
#define MPI_PROD (&shl_mpi_prod)
#define MPI_LAND (&shl_mpi_land)
#define MPI_BAND (&shl_mpi_band)
#define MPI_LOR (&shl_mpi_lor)
#define MPI_BOR (&shl_mpi_bor)
#define MPI_LXOR (&shl_mpi_lxor)
#define MPI_BXOR (&shl_mpi_bxor)
#define MPI_MINLOC (&shl_mpi_minloc)
#define MPI_MAXLOC (&shl_mpi_maxloc)
#define MPI_REPLACE (&shl_mpi_replace)
#define MPI_NO_OP (&shl_mpi_no_op)

SHL_DECLARE(int, Op_create, (MPI_User_function *user_fn, int commute, MPI_Op *op));
/* A user op whose function takes an MPI_Count length (MPI 4.1): reductions of any count. */
SHL_DECLARE(int, Op_create_c, (MPI_User_function_c *user_fn, int commute, MPI_Op *op));
SHL_DECLARE(int, Op_free, (MPI_Op *op));
SHL_DECLARE(int, Op_commutative, (MPI_Op op, int *commute));
SHL_DECLARE(int, Reduce_local, (const void *inbuf, void *inoutbuf, int count,
				MPI_Datatype datatype, MPI_Op op));
SHL_DECLARE(int, Reduce_local_c, (const void *inbuf, void *inoutbuf, MPI_Count count,
				  MPI_Datatype datatype, MPI_Op op));

SHL_DECLARE(int, Barrier, (MPI_Comm comm));
SHL_DECLARE(int, Ibarrier, (MPI_Comm comm, MPI_Request *request));
SHL_DECLARE(int, Bcast, (void *buffer, int count, MPI_Datatype datatype, int root,
			 MPI_Comm comm));
SHL_DECLARE(int, Ibcast, (void *buffer, int count, MPI_Datatype datatype, int root,
			  MPI_Comm comm, MPI_Request *request));
SHL_DECLARE(int, Gather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
			  void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
			  MPI_Comm comm));
SHL_DECLARE(int, Igather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
			   void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
			   MPI_Comm comm, MPI_Request *request));
SHL_DECLARE(int, Gatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
			   void *recvbuf, const int recvcounts[], const int displs[],
			   MPI_Datatype recvtype, int root, MPI_Comm comm));
SHL_DECLARE(int, Igatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
			    void *recvbuf, const int recvcounts[], const int displs[],
			    MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request));
SHL_DECLARE(int, Scatter, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
			   void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
			   MPI_Comm comm));
SHL_DECLARE(int, Iscatter, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
			    void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
			    MPI_Comm comm, MPI_Request *request));
SHL_DECLARE(int, Scatterv, (const void *sendbuf, const int sendcounts[], const int displs[],
			    MPI_Datatype sendtype, void *recvbuf, int recvcount,
			    MPI_Datatype recvtype, int root, MPI_Comm comm));
SHL_DECLARE(int, Iscatterv, (const void *sendbuf, const int sendcounts[], const int displs[],
			     MPI_Datatype sendtype, void *recvbuf, int recvcount,
			     MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request));
SHL_DECLARE(int, Allgather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
			     void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm));
SHL_DECLARE(int, Iallgather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
			      void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
			      MPI_Request *request));
SHL_DECLARE(int, Allgatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
			      void *recvbuf, const int recvcounts[], const int displs[],
			      MPI_Datatype recvtype, MPI_Comm comm));
SHL_DECLARE(int, Iallgatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
			       void *recvbuf, const int recvcounts[], const int displs[],
			       MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request));
SHL_DECLARE(int, Alltoall, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
			    void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm));
SHL_DECLARE(int, Ialltoall, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
			     void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
			     MPI_Request *request));
SHL_DECLARE(int, Alltoallv, (const void *sendbuf, const int sendcounts[], const int sdispls[],
			     MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
			     const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm));
SHL_DECLARE(int, Ialltoallv, (const void *sendbuf, const int sendcounts[], const int sdispls[],
			      MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
			      const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
			      MPI_Request *request));
SHL_DECLARE(int, Alltoallw, (const void *sendbuf, const int sendcounts[], const int sdispls[],
			     const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
			     const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm));
SHL_DECLARE(int, Ialltoallw, (const void *sendbuf, const int sendcounts[], const int sdispls[],
			      const MPI_Datatype sendtypes[], void *recvbuf,
			      const int recvcounts[], const int rdispls[],
			      const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request));
SHL_DECLARE(int, Reduce, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
			  MPI_Op op, int root, MPI_Comm comm));
SHL_DECLARE(int, Ireduce, (const void *sendbuf, void *recvbuf, int count,
			   MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
			   MPI_Request *request));
SHL_DECLARE(int, Allreduce, (const void *sendbuf, void *recvbuf, int count,
			     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm));
SHL_DECLARE(int, Iallreduce, (const void *sendbuf, void *recvbuf, int count,
			      MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
			      MPI_Request *request));
SHL_DECLARE(int, Reduce_scatter, (const void *sendbuf, void *recvbuf, const int recvcounts[],
				  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm));
SHL_DECLARE(int, Ireduce_scatter, (const void *sendbuf, void *recvbuf, const int recvcounts[],
				   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
				   MPI_Request *request));
SHL_DECLARE(int, Reduce_scatter_block, (const void *sendbuf, void *recvbuf, int recvcount,
					MPI_Datatype datatype, MPI_Op op, MPI_Comm comm));
SHL_DECLARE(int, Ireduce_scatter_block, (const void *sendbuf, void *recvbuf, int recvcount,
					 MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
					 MPI_Request *request));
SHL_DECLARE(int, Scan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
			MPI_Op op, MPI_Comm comm));
SHL_DECLARE(int, Iscan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
			 MPI_Op op, MPI_Comm comm, MPI_Request *request));
SHL_DECLARE(int, Exscan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
			  MPI_Op op, MPI_Comm comm));
SHL_DECLARE(int, Iexscan, (const void *sendbuf, void *recvbuf, int count,
			   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request));

/* Persistent collectives (MPI 4.1, 6.13). */
SHL_DECLARE(int, Barrier_init, (MPI_Comm comm, MPI_Info info, MPI_Request *request));
SHL_DECLARE(int, Bcast_init, (void *buffer, int count, MPI_Datatype datatype, int root,
			MPI_Comm comm, MPI_Info info, MPI_Request *request));
SHL_DECLARE(int, Gather_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
			void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
			MPI_Comm comm, MPI_Info info, MPI_Request *request));
SHL_DECLARE(int, Gatherv_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
			void *recvbuf, const int recvcounts[], const int displs[],
			MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
			MPI_Request *request));
SHL_DECLARE(int, Scatter_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
			void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
			MPI_Comm comm, MPI_Info info, MPI_Request *request));
SHL_DECLARE(int, Scatterv_init, (const void *sendbuf, const int sendcounts[],
			const int displs[], MPI_Datatype sendtype, void *recvbuf,
			int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
			MPI_Info info, MPI_Request *request));
SHL_DECLARE(int, Allgather_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
			void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
			MPI_Info info, MPI_Request *request));
SHL_DECLARE(int, Allgatherv_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
			void *recvbuf, const int recvcounts[], const int displs[],
			MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
			MPI_Request *request));
SHL_DECLARE(int, Alltoall_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
			void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
			MPI_Info info, MPI_Request *request));
SHL_DECLARE(int, Alltoallv_init, (const void *sendbuf, const int sendcounts[],
			const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
			const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
			MPI_Comm comm, MPI_Info info, MPI_Request *request));
SHL_DECLARE(int, Alltoallw_init, (const void *sendbuf, const int sendcounts[],
			const int sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
			const int recvcounts[], const int rdispls[],
			const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
			MPI_Request *request));
SHL_DECLARE(int, Reduce_init, (const void *sendbuf, void *recvbuf, int count,
			MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
			MPI_Info info, MPI_Request *request));
SHL_DECLARE(int, Allreduce_init, (const void *sendbuf, void *recvbuf, int count,
			MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
			MPI_Request *request));
SHL_DECLARE(int, Reduce_scatter_init, (const void *sendbuf, void *recvbuf,
			const int recvcounts[], MPI_Datatype datatype, MPI_Op op,
			MPI_Comm comm, MPI_Info info, MPI_Request *request));
SHL_DECLARE(int, Reduce_scatter_block_init, (const void *sendbuf, void *recvbuf, int recvcount,
			MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
			MPI_Request *request));
SHL_DECLARE(int, Scan_init, (const void *sendbuf, void *recvbuf, int count,
			MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
			MPI_Request *request));
SHL_DECLARE(int, Exscan_init, (const void *sendbuf, void *recvbuf, int count,
			MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
			MPI_Request *request));

/* Large-count collectives (MPI 4.1, chapter 6): the calls above with MPI_Count counts and
 * MPI_Aint displacements (in elements of the datatype's extent for the v forms, in bytes
 * for the w forms). Each shares its int twin's implementation and reads the arrays where
 * they lie; a negative count, or one whose bytes overflow (shl_check_count), is
 * MPI_ERR_COUNT. An MPI_Op_create function takes an int length: a reduction of more than
 * INT_MAX elements with one is MPI_ERR_COUNT (MPI_Op_create_c functions have no limit). */
SHL_DECLARE(int, Bcast_c, (void *buffer, MPI_Count count, MPI_Datatype datatype, int root,
			   MPI_Comm comm));
SHL_DECLARE(int, Ibcast_c, (void *buffer, MPI_Count count, MPI_Datatype datatype, int root,
			    MPI_Comm comm, MPI_Request *request));
SHL_DECLARE(int, Bcast_init_c, (void *buffer, MPI_Count count, MPI_Datatype datatype, int root,
				MPI_Comm comm, MPI_Info info, MPI_Request *request));
SHL_DECLARE(int, Gather_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
			    void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
			    MPI_Comm comm));
SHL_DECLARE(int, Igather_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
			     void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
			     MPI_Comm comm, MPI_Request *request));
SHL_DECLARE(int, Gather_init_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
				 void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
				 int root, MPI_Comm comm, MPI_Info info, MPI_Request *request));
SHL_DECLARE(int, Gatherv_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
			     void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
			     MPI_Datatype recvtype, int root, MPI_Comm comm));
SHL_DECLARE(int, Igatherv_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
			      void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
			      MPI_Datatype recvtype, int root, MPI_Comm comm,
			      MPI_Request *request));
SHL_DECLARE(int, Gatherv_init_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
				  void *recvbuf, const MPI_Count recvcounts[],
				  const MPI_Aint displs[], MPI_Datatype recvtype, int root,
				  MPI_Comm comm, MPI_Info info, MPI_Request *request));
SHL_DECLARE(int, Scatter_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
			     void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
			     MPI_Comm comm));
SHL_DECLARE(int, Iscatter_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
			      void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
			      MPI_Comm comm, MPI_Request *request));
SHL_DECLARE(int, Scatter_init_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
				  void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
				  int root, MPI_Comm comm, MPI_Info info, MPI_Request *request));
SHL_DECLARE(int, Scatterv_c, (const void *sendbuf, const MPI_Count sendcounts[],
			      const MPI_Aint displs[], MPI_Datatype sendtype, void *recvbuf,
			      MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm));
SHL_DECLARE(int, Iscatterv_c, (const void *sendbuf, const MPI_Count sendcounts[],
			       const MPI_Aint displs[], MPI_Datatype sendtype, void *recvbuf,
			       MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
			       MPI_Request *request));
SHL_DECLARE(int, Scatterv_init_c, (const void *sendbuf, const MPI_Count sendcounts[],
				   const MPI_Aint displs[], MPI_Datatype sendtype, void *recvbuf,
				   MPI_Count recvcount, MPI_Datatype recvtype, int root,
				   MPI_Comm comm, MPI_Info info, MPI_Request *request));
SHL_DECLARE(int, Allgather_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
			       void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
			       MPI_Comm comm));
SHL_DECLARE(int, Iallgather_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
				void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
				MPI_Comm comm, MPI_Request *request));
SHL_DECLARE(int, Allgather_init_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
				    void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
				    MPI_Comm comm, MPI_Info info, MPI_Request *request));
SHL_DECLARE(int, Allgatherv_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
				void *recvbuf, const MPI_Count recvcounts[],
				const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm));
SHL_DECLARE(int, Iallgatherv_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
				 void *recvbuf, const MPI_Count recvcounts[],
				 const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm,
				 MPI_Request *request));
SHL_DECLARE(int, Allgatherv_init_c, (const void *sendbuf, MPI_Count sendcount,
				     MPI_Datatype sendtype, void *recvbuf,
				     const MPI_Count recvcounts[], const MPI_Aint displs[],
				     MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
				     MPI_Request *request));
SHL_DECLARE(int, Alltoall_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
			      void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
			      MPI_Comm comm));
SHL_DECLARE(int, Ialltoall_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
			       void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
			       MPI_Comm comm, MPI_Request *request));
SHL_DECLARE(int, Alltoall_init_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
				   void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
				   MPI_Comm comm, MPI_Info info, MPI_Request *request));
SHL_DECLARE(int, Alltoallv_c, (const void *sendbuf, const MPI_Count sendcounts[],
			       const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
			       const MPI_Count recvcounts[], const MPI_Aint rdispls[],
			       MPI_Datatype recvtype, MPI_Comm comm));
SHL_DECLARE(int, Ialltoallv_c, (const void *sendbuf, const MPI_Count sendcounts[],
				const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
				const MPI_Count recvcounts[], const MPI_Aint rdispls[],
				MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request));
SHL_DECLARE(int, Alltoallv_init_c, (const void *sendbuf, const MPI_Count sendcounts[],
				    const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
				    const MPI_Count recvcounts[], const MPI_Aint rdispls[],
				    MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
				    MPI_Request *request));
SHL_DECLARE(int, Alltoallw_c, (const void *sendbuf, const MPI_Count sendcounts[],
			       const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
			       void *recvbuf, const MPI_Count recvcounts[],
			       const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
			       MPI_Comm comm));
SHL_DECLARE(int, Ialltoallw_c, (const void *sendbuf, const MPI_Count sendcounts[],
				const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
				void *recvbuf, const MPI_Count recvcounts[],
				const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
				MPI_Comm comm, MPI_Request *request));
SHL_DECLARE(int, Alltoallw_init_c, (const void *sendbuf, const MPI_Count sendcounts[],
				    const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
				    void *recvbuf, const MPI_Count recvcounts[],
				    const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
				    MPI_Comm comm, MPI_Info info, MPI_Request *request));
SHL_DECLARE(int, Reduce_c, (const void *sendbuf, void *recvbuf, MPI_Count count,
			    MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm));
SHL_DECLARE(int, Ireduce_c, (const void *sendbuf, void *recvbuf, MPI_Count count,
			     MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
			     MPI_Request *request));
SHL_DECLARE(int, Reduce_init_c, (const void *sendbuf, void *recvbuf, MPI_Count count,
				 MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
				 MPI_Info info, MPI_Request *request));
SHL_DECLARE(int, Allreduce_c, (const void *sendbuf, void *recvbuf, MPI_Count count,
			       MPI_Datatype datatype, MPI_Op op, MPI_Comm comm));
SHL_DECLARE(int, Iallreduce_c, (const void *sendbuf, void *recvbuf, MPI_Count count,
				MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
				MPI_Request *request));
SHL_DECLARE(int, Allreduce_init_c, (const void *sendbuf, void *recvbuf, MPI_Count count,
				    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
				    MPI_Request *request));
SHL_DECLARE(int, Reduce_scatter_c, (const void *sendbuf, void *recvbuf,
				    const MPI_Count recvcounts[], MPI_Datatype datatype, MPI_Op op,
				    MPI_Comm comm));
SHL_DECLARE(int, Ireduce_scatter_c, (const void *sendbuf, void *recvbuf,
				     const MPI_Count recvcounts[], MPI_Datatype datatype, MPI_Op op,
				     MPI_Comm comm, MPI_Request *request));
SHL_DECLARE(int, Reduce_scatter_init_c, (const void *sendbuf, void *recvbuf,
					 const MPI_Count recvcounts[], MPI_Datatype datatype,
					 MPI_Op op, MPI_Comm comm, MPI_Info info,
					 MPI_Request *request));
SHL_DECLARE(int, Reduce_scatter_block_c, (const void *sendbuf, void *recvbuf, MPI_Count recvcount,
					  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm));
SHL_DECLARE(int, Ireduce_scatter_block_c, (const void *sendbuf, void *recvbuf, MPI_Count recvcount,
					   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
					   MPI_Request *request));
SHL_DECLARE(int, Reduce_scatter_block_init_c, (const void *sendbuf, void *recvbuf,
					       MPI_Count recvcount, MPI_Datatype datatype,
					       MPI_Op op, MPI_Comm comm, MPI_Info info,
					       MPI_Request *request));
SHL_DECLARE(int, Scan_c, (const void *sendbuf, void *recvbuf, MPI_Count count,
			  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm));
SHL_DECLARE(int, Iscan_c, (const void *sendbuf, void *recvbuf, MPI_Count count,
			   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request));
SHL_DECLARE(int, Scan_init_c, (const void *sendbuf, void *recvbuf, MPI_Count count,
			       MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
			       MPI_Request *request));
SHL_DECLARE(int, Exscan_c, (const void *sendbuf, void *recvbuf, MPI_Count count,
			    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm));
SHL_DECLARE(int, Iexscan_c, (const void *sendbuf, void *recvbuf, MPI_Count count,
			     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
			     MPI_Request *request));
SHL_DECLARE(int, Exscan_init_c, (const void *sendbuf, void *recvbuf, MPI_Count count,
				 MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
				 MPI_Request *request));

/* ---- derived datatypes, packing ---- */
#define MPI_BOTTOM ((void *)0)

#define MPI_COMBINER_NAMED 1
#define MPI_COMBINER_DUP 2
#define MPI_COMBINER_CONTIGUOUS 3
#define MPI_COMBINER_VECTOR 4
#define MPI_COMBINER_HVECTOR 5
#define MPI_COMBINER_INDEXED 6
#define MPI_COMBINER_HINDEXED 7
#define MPI_COMBINER_INDEXED_BLOCK 8
#define MPI_COMBINER_HINDEXED_BLOCK 9
#define MPI_COMBINER_STRUCT 10
#define MPI_COMBINER_SUBARRAY 11
#define MPI_COMBINER_DARRAY 12
#define MPI_COMBINER_F90_REAL 13
#define MPI_COMBINER_F90_COMPLEX 14
#define MPI_COMBINER_F90_INTEGER 15
#define MPI_COMBINER_RESIZED 16
#define MPI_COMBINER_VALUE_INDEX 17

#define MPI_ORDER_C 56
#define MPI_ORDER_FORTRAN 57
#define MPI_DISTRIBUTE_BLOCK 121
#define MPI_DISTRIBUTE_CYCLIC 122
#define MPI_DISTRIBUTE_NONE 123
#define MPI_DISTRIBUTE_DFLT_DARG (-49767)

SHL_DECLARE(int, Type_contiguous, (int count, MPI_Datatype oldtype, MPI_Datatype *newtype));
SHL_DECLARE(int, Type_vector, (int count, int blocklength, int stride, MPI_Datatype oldtype,
			       MPI_Datatype *newtype));
SHL_DECLARE(int, Type_create_hvector, (int count, int blocklength, MPI_Aint stride,
				       MPI_Datatype oldtype, MPI_Datatype *newtype));
SHL_DECLARE(int, Type_indexed, (int count, const int array_of_blocklengths[],
				const int array_of_displacements[], MPI_Datatype oldtype,
				MPI_Datatype *newtype));
SHL_DECLARE(int, Type_create_hindexed, (int count, const int array_of_blocklengths[],
					const MPI_Aint array_of_displacements[],
					MPI_Datatype oldtype, MPI_Datatype *newtype));
SHL_DECLARE(int, Type_create_indexed_block, (int count, int blocklength,
					     const int array_of_displacements[],
					     MPI_Datatype oldtype, MPI_Datatype *newtype));
SHL_DECLARE(int, Type_create_hindexed_block, (int count, int blocklength,
					      const MPI_Aint array_of_displacements[],
					      MPI_Datatype oldtype, MPI_Datatype *newtype));
SHL_DECLARE(int, Type_create_struct, (int count, const int array_of_blocklengths[],
				      const MPI_Aint array_of_displacements[],
				      const MPI_Datatype array_of_types[], MPI_Datatype *newtype));
SHL_DECLARE(int, Type_create_subarray, (int ndims, const int array_of_sizes[],
					const int array_of_subsizes[], const int array_of_starts[],
					int order, MPI_Datatype oldtype, MPI_Datatype *newtype));
SHL_DECLARE(int, Type_create_darray, (int size, int rank, int ndims,
				      const int array_of_gsizes[], const int array_of_distribs[],
				      const int array_of_dargs[], const int array_of_psizes[],
				      int order, MPI_Datatype oldtype, MPI_Datatype *newtype));
SHL_DECLARE(int, Type_create_resized, (MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent,
				       MPI_Datatype *newtype));
SHL_DECLARE(int, Type_dup, (MPI_Datatype oldtype, MPI_Datatype *newtype));
/* The MPI 4.1 large-count constructors: MPI_Count counts, strides, displacements and sizes.
 * Their arguments come back from MPI_Type_get_contents_c as large counts. */
SHL_DECLARE(int, Type_contiguous_c, (MPI_Count count, MPI_Datatype oldtype,
				     MPI_Datatype *newtype));
SHL_DECLARE(int, Type_vector_c, (MPI_Count count, MPI_Count blocklength, MPI_Count stride,
				 MPI_Datatype oldtype, MPI_Datatype *newtype));
SHL_DECLARE(int, Type_create_hvector_c, (MPI_Count count, MPI_Count blocklength,
					 MPI_Count stride, MPI_Datatype oldtype,
					 MPI_Datatype *newtype));
SHL_DECLARE(int, Type_indexed_c, (MPI_Count count, const MPI_Count array_of_blocklengths[],
				  const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
				  MPI_Datatype *newtype));
SHL_DECLARE(int, Type_create_hindexed_c, (MPI_Count count,
					  const MPI_Count array_of_blocklengths[],
					  const MPI_Count array_of_displacements[],
					  MPI_Datatype oldtype, MPI_Datatype *newtype));
SHL_DECLARE(int, Type_create_indexed_block_c, (MPI_Count count, MPI_Count blocklength,
					       const MPI_Count array_of_displacements[],
					       MPI_Datatype oldtype, MPI_Datatype *newtype));
SHL_DECLARE(int, Type_create_hindexed_block_c, (MPI_Count count, MPI_Count blocklength,
						const MPI_Count array_of_displacements[],
						MPI_Datatype oldtype, MPI_Datatype *newtype));
SHL_DECLARE(int, Type_create_struct_c, (MPI_Count count,
					const MPI_Count array_of_blocklengths[],
					const MPI_Count array_of_displacements[],
					const MPI_Datatype array_of_types[],
					MPI_Datatype *newtype));
SHL_DECLARE(int, Type_create_subarray_c, (int ndims, const MPI_Count array_of_sizes[],
					  const MPI_Count array_of_subsizes[],
					  const MPI_Count array_of_starts[], int order,
					  MPI_Datatype oldtype, MPI_Datatype *newtype));
SHL_DECLARE(int, Type_create_darray_c, (int size, int rank, int ndims,
					const MPI_Count array_of_gsizes[],
					const int array_of_distribs[], const int array_of_dargs[],
					const int array_of_psizes[], int order,
					MPI_Datatype oldtype, MPI_Datatype *newtype));
SHL_DECLARE(int, Type_create_resized_c, (MPI_Datatype oldtype, MPI_Count lb, MPI_Count extent,
					 MPI_Datatype *newtype));
SHL_DECLARE(int, Type_commit, (MPI_Datatype *datatype));
SHL_DECLARE(int, Type_free, (MPI_Datatype *datatype));
SHL_DECLARE(int, Type_size_x, (MPI_Datatype datatype, MPI_Count *size));
SHL_DECLARE(int, Type_size_c, (MPI_Datatype datatype, MPI_Count *size));
SHL_DECLARE(int, Type_get_extent_x, (MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent));
SHL_DECLARE(int, Type_get_extent_c, (MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent));
SHL_DECLARE(int, Type_get_true_extent, (MPI_Datatype datatype, MPI_Aint *true_lb,
					MPI_Aint *true_extent));
SHL_DECLARE(int, Type_get_true_extent_x, (MPI_Datatype datatype, MPI_Count *true_lb,
					  MPI_Count *true_extent));
SHL_DECLARE(int, Type_get_true_extent_c, (MPI_Datatype datatype, MPI_Count *true_lb,
					  MPI_Count *true_extent));
SHL_DECLARE(int, Type_get_envelope, (MPI_Datatype datatype, int *num_integers,
				     int *num_addresses, int *num_datatypes, int *combiner));
SHL_DECLARE(int, Type_get_contents, (MPI_Datatype datatype, int max_integers,
				     int max_addresses, int max_datatypes, int array_of_integers[],
				     MPI_Aint array_of_addresses[],
				     MPI_Datatype array_of_datatypes[]));
/* The int variants fail with MPI_ERR_TYPE on a type whose arguments include large counts
 * (one built by a _c constructor); these return them (MPI 4.1, 6.1.13). */
SHL_DECLARE(int, Type_get_envelope_c, (MPI_Datatype datatype, MPI_Count *num_integers,
				       MPI_Count *num_addresses, MPI_Count *num_large_counts,
				       MPI_Count *num_datatypes, int *combiner));
SHL_DECLARE(int, Type_get_contents_c, (MPI_Datatype datatype, MPI_Count max_integers,
				       MPI_Count max_addresses, MPI_Count max_large_counts,
				       MPI_Count max_datatypes, int array_of_integers[],
				       MPI_Aint array_of_addresses[],
				       MPI_Count array_of_large_counts[],
				       MPI_Datatype array_of_datatypes[]));
/* The predefined MINLOC/MAXLOC pair type of (value_type, index_type), e.g. MPI_DOUBLE_INT
 * for (MPI_DOUBLE, MPI_INT); MPI_DATATYPE_NULL (and MPI_SUCCESS) when there is none. */
SHL_DECLARE(int, Type_get_value_index, (MPI_Datatype value_type, MPI_Datatype index_type,
					MPI_Datatype *pair_type));
/* The predefined type of class `typeclass` (MPI_TYPECLASS_INTEGER, _REAL, _COMPLEX) whose
 * size is `size` bytes (MPI 4.1, 19.1.9). Shoal has no Fortran types, so the C ones answer:
 * signed char/short/int/long, float/double/long double, and the C complex types;
 * MPI_ERR_ARG when the class has no type of that size. */
#define MPI_TYPECLASS_INTEGER 1
#define MPI_TYPECLASS_REAL 2
#define MPI_TYPECLASS_COMPLEX 3
SHL_DECLARE(int, Type_match_size, (int typeclass, int size, MPI_Datatype *datatype));
SHL_DECLARE(int, Type_set_name, (MPI_Datatype datatype, const char *type_name));

/* Datatype attributes (MPI 4.1, 7.7.4). Keyvals share the id space of communicator
 * keyvals; each works only on the kind of object it was created for. */
typedef int MPI_Type_copy_attr_function(MPI_Datatype oldtype, int type_keyval,
					void *extra_state, void *attribute_val_in,
					void *attribute_val_out, int *flag);
typedef int MPI_Type_delete_attr_function(MPI_Datatype datatype, int type_keyval,
					  void *attribute_val, void *extra_state);
MPI_Type_copy_attr_function shl_mpi_type_null_copy_fn, shl_mpi_type_dup_fn;
MPI_Type_delete_attr_function shl_mpi_type_null_delete_fn;
__attribute__((visibility("default"))) MPI_Type_copy_attr_function MPI_TYPE_NULL_COPY_FN,
	MPI_TYPE_DUP_FN;
__attribute__((visibility("default"))) MPI_Type_delete_attr_function MPI_TYPE_NULL_DELETE_FN;
SHL_DECLARE(int, Type_create_keyval, (MPI_Type_copy_attr_function *type_copy_attr_fn,
				      MPI_Type_delete_attr_function *type_delete_attr_fn,
				      int *type_keyval, void *extra_state));
SHL_DECLARE(int, Type_free_keyval, (int *type_keyval));
SHL_DECLARE(int, Type_set_attr, (MPI_Datatype datatype, int type_keyval,
				 void *attribute_val));
SHL_DECLARE(int, Type_get_attr, (MPI_Datatype datatype, int type_keyval,
				 void *attribute_val, int *flag));
SHL_DECLARE(int, Type_delete_attr, (MPI_Datatype datatype, int type_keyval));
SHL_DECLARE(int, Type_get_name, (MPI_Datatype datatype, char *type_name, int *resultlen));
SHL_DECLARE(int, Get_count_c, (const MPI_Status *status, MPI_Datatype datatype,
			       MPI_Count *count));
SHL_DECLARE(int, Get_elements_x, (const MPI_Status *status, MPI_Datatype datatype,
				  MPI_Count *count));
SHL_DECLARE(int, Get_elements_c, (const MPI_Status *status, MPI_Datatype datatype,
				  MPI_Count *count));
/* Make `status` report `count` basic elements of `datatype` to MPI_Get_elements (for
 * generalized requests and layered libraries); MPI_Get_count then gives the whole elements
 * of `datatype` they make, or MPI_UNDEFINED. */
SHL_DECLARE(int, Status_set_elements, (MPI_Status *status, MPI_Datatype datatype, int count));
SHL_DECLARE(int, Status_set_elements_x, (MPI_Status *status, MPI_Datatype datatype,
					 MPI_Count count));
SHL_DECLARE(int, Status_set_elements_c, (MPI_Status *status, MPI_Datatype datatype,
					 MPI_Count count));
SHL_DECLARE(int, Get_address, (const void *location, MPI_Aint *address));
SHL_DECLARE(MPI_Aint, Aint_add, (MPI_Aint base, MPI_Aint disp));
SHL_DECLARE(MPI_Aint, Aint_diff, (MPI_Aint addr1, MPI_Aint addr2));
SHL_DECLARE(int, Pack, (const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf,
			int outsize, int *position, MPI_Comm comm));
SHL_DECLARE(int, Pack_c, (const void *inbuf, MPI_Count incount, MPI_Datatype datatype,
			  void *outbuf, MPI_Count outsize, MPI_Count *position, MPI_Comm comm));
SHL_DECLARE(int, Unpack, (const void *inbuf, int insize, int *position, void *outbuf,
			  int outcount, MPI_Datatype datatype, MPI_Comm comm));
SHL_DECLARE(int, Unpack_c, (const void *inbuf, MPI_Count insize, MPI_Count *position,
			    void *outbuf, MPI_Count outcount, MPI_Datatype datatype,
			    MPI_Comm comm));
SHL_DECLARE(int, Pack_size, (int incount, MPI_Datatype datatype, MPI_Comm comm, int *size));
SHL_DECLARE(int, Pack_size_c, (MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm,
			       MPI_Count *size));
SHL_DECLARE(int, Pack_external, (const char datarep[], const void *inbuf, int incount,
				 MPI_Datatype datatype, void *outbuf, MPI_Aint outsize,
				 MPI_Aint *position));
SHL_DECLARE(int, Pack_external_c, (const char datarep[], const void *inbuf, MPI_Count incount,
				   MPI_Datatype datatype, void *outbuf, MPI_Count outsize,
				   MPI_Count *position));
SHL_DECLARE(int, Unpack_external, (const char datarep[], const void *inbuf, MPI_Aint insize,
				   MPI_Aint *position, void *outbuf, int outcount,
				   MPI_Datatype datatype));
SHL_DECLARE(int, Unpack_external_c, (const char datarep[], const void *inbuf,
				     MPI_Count insize, MPI_Count *position, void *outbuf,
				     MPI_Count outcount, MPI_Datatype datatype));
SHL_DECLARE(int, Pack_external_size, (const char datarep[], int incount, MPI_Datatype datatype,
				      MPI_Aint *size));
SHL_DECLARE(int, Pack_external_size_c, (const char datarep[], MPI_Count incount,
					MPI_Datatype datatype, MPI_Count *size));

/* ---- point-to-point of MPI 4.0 and 4.1: Isendrecv, partitioned communication (chapter 4),
 * generalized requests (13.2) ---- */
SHL_DECLARE(int, Isendrecv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
			     int dest, int sendtag, void *recvbuf, int recvcount,
			     MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
			     MPI_Request *request));
SHL_DECLARE(int, Isendrecv_c, (const void *sendbuf, MPI_Count sendcount,
			       MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf,
			       MPI_Count recvcount, MPI_Datatype recvtype, int source,
			       int recvtag, MPI_Comm comm, MPI_Request *request));
SHL_DECLARE(int, Isendrecv_replace, (void *buf, int count, MPI_Datatype datatype, int dest,
				     int sendtag, int source, int recvtag, MPI_Comm comm,
				     MPI_Request *request));
SHL_DECLARE(int, Isendrecv_replace_c, (void *buf, MPI_Count count, MPI_Datatype datatype,
				       int dest, int sendtag, int source, int recvtag,
				       MPI_Comm comm, MPI_Request *request));
typedef int MPI_Grequest_query_function(void *extra_state, MPI_Status *status);
typedef int MPI_Grequest_free_function(void *extra_state);
typedef int MPI_Grequest_cancel_function(void *extra_state, int complete);
SHL_DECLARE(int, Grequest_start, (MPI_Grequest_query_function *query_fn,
				  MPI_Grequest_free_function *free_fn,
				  MPI_Grequest_cancel_function *cancel_fn, void *extra_state,
				  MPI_Request *request));
SHL_DECLARE(int, Grequest_complete, (MPI_Request request));
SHL_DECLARE(int, Psend_init, (const void *buf, int partitions, MPI_Count count,
			      MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
			      MPI_Info info, MPI_Request *request));
SHL_DECLARE(int, Precv_init, (void *buf, int partitions, MPI_Count count,
			      MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
			      MPI_Info info, MPI_Request *request));
SHL_DECLARE(int, Pready, (int partition, MPI_Request request));
SHL_DECLARE(int, Pready_range, (int partition_low, int partition_high, MPI_Request request));
SHL_DECLARE(int, Pready_list, (int length, const int array_of_partitions[],
			       MPI_Request request));
SHL_DECLARE(int, Parrived, (MPI_Request request, int partition, int *flag));

/* ---- statuses, request queries, handle conversions, predefined callbacks, error classes
 * removed, hardware resources, MPI-1 names ---- */
/* The fields of a status (MPI 4.1, 3.2.5 and 13.3): what MPI_Status_set_* write,
 * MPI_Status_get_* read, for layered libraries and generalized requests. */
SHL_DECLARE(int, Status_set_cancelled, (MPI_Status *status, int flag));
SHL_DECLARE(int, Status_set_source, (MPI_Status *status, int source));
SHL_DECLARE(int, Status_set_tag, (MPI_Status *status, int tag));
SHL_DECLARE(int, Status_set_error, (MPI_Status *status, int error));
SHL_DECLARE(int, Status_get_source, (const MPI_Status *status, int *source));
SHL_DECLARE(int, Status_get_tag, (const MPI_Status *status, int *tag));
SHL_DECLARE(int, Status_get_error, (const MPI_Status *status, int *error));

/* Whether all, any or some of the requests completed, without freeing or deactivating
 * them (MPI 4.1, 3.7.5): MPI_Testall, MPI_Testany and MPI_Testsome that leave the
 * requests as they are. */
SHL_DECLARE(int, Request_get_status_all, (int count, const MPI_Request array_of_requests[],
					  int *flag, MPI_Status array_of_statuses[]));
SHL_DECLARE(int, Request_get_status_any, (int count, const MPI_Request array_of_requests[],
					  int *index, int *flag, MPI_Status *status));
SHL_DECLARE(int, Request_get_status_some, (int incount, const MPI_Request array_of_requests[],
					   int *outcount, int array_of_indices[],
					   MPI_Status array_of_statuses[]));

/* User error classes, codes and strings given back (MPI 4.1, 9.5). */
SHL_DECLARE(int, Remove_error_class, (int errorclass));
SHL_DECLARE(int, Remove_error_code, (int errorcode));
SHL_DECLARE(int, Remove_error_string, (int errorcode));

/* An info object describing the hardware the calling rank runs on (MPI 4.1, 11.4.1);
 * the caller frees it. Keys: docs/architecture.md, "Hardware resources". */
SHL_DECLARE(int, Get_hw_resource_info, (MPI_Info *hw_info));

/* The profiling hook (MPI 4.1, 15.2.4): Shoal has no profiling levels; returns
 * MPI_SUCCESS. */
SHL_DECLARE(int, Pcontrol, (const int level, ...));

/* The attribute calls of MPI-1, deprecated since MPI-2 (MPI 4.1, 16.1): the same as the
 * MPI_Comm_* ones, on the same keyvals. */
typedef int MPI_Copy_function(MPI_Comm oldcomm, int keyval, void *extra_state,
			      void *attribute_val_in, void *attribute_val_out, int *flag);
typedef int MPI_Delete_function(MPI_Comm comm, int keyval, void *attribute_val,
				void *extra_state);
SHL_DECLARE(int, Keyval_create, (MPI_Copy_function *copy_fn, MPI_Delete_function *delete_fn,
				 int *keyval, void *extra_state));
SHL_DECLARE(int, Keyval_free, (int *keyval));
SHL_DECLARE(int, Attr_put, (MPI_Comm comm, int keyval, void *attribute_val));
SHL_DECLARE(int, Attr_get, (MPI_Comm comm, int keyval, void *attribute_val, int *flag));
SHL_DECLARE(int, Attr_delete, (MPI_Comm comm, int keyval));

/* The predefined attribute callbacks of MPI-1 (MPI 4.1, 16.1): functions, as are their
 * MPI_COMM_*, MPI_TYPE_* and MPI_WIN_* kin (each declared with its kind's typedef).
 * MPI_NULL_COPY_FN asks for no copy, MPI_DUP_FN copies the value, MPI_NULL_DELETE_FN does
 * nothing. */
__attribute__((visibility("default"))) MPI_Copy_function MPI_NULL_COPY_FN, MPI_DUP_FN;
__attribute__((visibility("default"))) MPI_Delete_function MPI_NULL_DELETE_FN;

/* Handle conversions between C and Fortran (MPI 4.1, 19.3.4). An MPI_Fint names a handle:
 * 0 the kind's null handle, others as docs/architecture.md "Handles as integers" says; a
 * value that names no live object of the kind converts to the null handle. */
SHL_DECLARE(MPI_Fint, Comm_c2f, (MPI_Comm comm));
SHL_DECLARE(MPI_Comm, Comm_f2c, (MPI_Fint comm));
SHL_DECLARE(MPI_Fint, Type_c2f, (MPI_Datatype datatype));
SHL_DECLARE(MPI_Datatype, Type_f2c, (MPI_Fint datatype));
SHL_DECLARE(MPI_Fint, Group_c2f, (MPI_Group group));
SHL_DECLARE(MPI_Group, Group_f2c, (MPI_Fint group));
SHL_DECLARE(MPI_Fint, Request_c2f, (MPI_Request request));
SHL_DECLARE(MPI_Request, Request_f2c, (MPI_Fint request));
SHL_DECLARE(MPI_Fint, Info_c2f, (MPI_Info info));
SHL_DECLARE(MPI_Info, Info_f2c, (MPI_Fint info));
SHL_DECLARE(MPI_Fint, Errhandler_c2f, (MPI_Errhandler errhandler));
SHL_DECLARE(MPI_Errhandler, Errhandler_f2c, (MPI_Fint errhandler));
SHL_DECLARE(MPI_Fint, Message_c2f, (MPI_Message message));
SHL_DECLARE(MPI_Message, Message_f2c, (MPI_Fint message));
SHL_DECLARE(MPI_Fint, Op_c2f, (MPI_Op op));
SHL_DECLARE(MPI_Op, Op_f2c, (MPI_Fint op));
/* MPI_Win is struct shl_win * (declared with one-sided communication, below). */
struct shl_win;
SHL_DECLARE(MPI_Fint, Win_c2f, (struct shl_win *win));
SHL_DECLARE(struct shl_win *, Win_f2c, (MPI_Fint win));

/* Statuses as Fortran sees them: MPI_F_STATUS_SIZE integers (the include file, the mpi
 * module) or the MPI_F08_status struct (mpi_f08), with the public fields at MPI_F_SOURCE,
 * MPI_F_TAG and MPI_F_ERROR. */
#define MPI_F_STATUS_SIZE 8
#define MPI_F_SOURCE 0
#define MPI_F_TAG 1
#define MPI_F_ERROR 2
typedef struct MPI_F08_status {
	MPI_Fint MPI_SOURCE;
	MPI_Fint MPI_TAG;
	MPI_Fint MPI_ERROR;
	MPI_Fint shl_internal[MPI_F_STATUS_SIZE - 3];
} MPI_F08_status;
#define MPI_F_STATUS_IGNORE ((MPI_Fint *)0)
#define MPI_F_STATUSES_IGNORE ((MPI_Fint *)0)
#define MPI_F08_STATUS_IGNORE ((MPI_F08_status *)0)
#define MPI_F08_STATUSES_IGNORE ((MPI_F08_status *)0)
SHL_DECLARE(int, Status_c2f, (const MPI_Status *c_status, MPI_Fint *f_status));
SHL_DECLARE(int, Status_f2c, (const MPI_Fint *f_status, MPI_Status *c_status));
SHL_DECLARE(int, Status_c2f08, (const MPI_Status *c_status, MPI_F08_status *f08_status));
SHL_DECLARE(int, Status_f082c, (const MPI_F08_status *f08_status, MPI_Status *c_status));
SHL_DECLARE(int, Status_f2f08, (const MPI_Fint *f_status, MPI_F08_status *f08_status));
SHL_DECLARE(int, Status_f082f, (const MPI_F08_status *f08_status, MPI_Fint *f_status));

/* ---- buffers attached to a communicator or session, flushing them (MPI 4.1, 3.6) ---- */
/* A buffered send on a communicator takes its room from the buffer attached to that
 * communicator, else from the one attached to the session it derives from, else from the
 * process's (MPI_Buffer_attach). MPI_BUFFER_AUTOMATIC, attached in place of a buffer, lets
 * the library take room as the messages need it (the size is ignored); detaching it gives
 * back MPI_BUFFER_AUTOMATIC and size 0. Flushing waits until every message buffered there
 * has been received; the iflush forms return a request that completes then. */
#define MPI_BUFFER_AUTOMATIC ((void *)-2)
typedef struct shl_session *MPI_Session;
SHL_DECLARE(int, Buffer_flush, (void));
SHL_DECLARE(int, Buffer_iflush, (MPI_Request *request));
SHL_DECLARE(int, Comm_attach_buffer, (MPI_Comm comm, void *buffer, int size));
SHL_DECLARE(int, Comm_attach_buffer_c, (MPI_Comm comm, void *buffer, MPI_Count size));
SHL_DECLARE(int, Comm_detach_buffer, (MPI_Comm comm, void *buffer_addr, int *size));
SHL_DECLARE(int, Comm_detach_buffer_c, (MPI_Comm comm, void *buffer_addr, MPI_Count *size));
SHL_DECLARE(int, Comm_flush_buffer, (MPI_Comm comm));
SHL_DECLARE(int, Comm_iflush_buffer, (MPI_Comm comm, MPI_Request *request));
SHL_DECLARE(int, Session_attach_buffer, (MPI_Session session, void *buffer, int size));
SHL_DECLARE(int, Session_attach_buffer_c, (MPI_Session session, void *buffer, MPI_Count size));
SHL_DECLARE(int, Session_detach_buffer, (MPI_Session session, void *buffer_addr, int *size));
SHL_DECLARE(int, Session_detach_buffer_c, (MPI_Session session, void *buffer_addr,
					   MPI_Count *size));
SHL_DECLARE(int, Session_flush_buffer, (MPI_Session session));
SHL_DECLARE(int, Session_iflush_buffer, (MPI_Session session, MPI_Request *request));

/* ---- process topologies (MPI 4.1, chapter 8) ---- */
/* MPI_Topo_test's answers (MPI_UNDEFINED: no topology). MPI_UNWEIGHTED and
 * MPI_WEIGHTS_EMPTY are addresses of library objects no user array shares, told apart
 * from NULL (a rank with no edges may pass MPI_WEIGHTS_EMPTY as its weights); objects
 * rather than small constant addresses, which compilers warn of reading through. */
#define MPI_GRAPH 1
#define MPI_CART 2
#define MPI_DIST_GRAPH 3
extern SHL_MPI_OBJECT int shl_mpi_unweighted[1], shl_mpi_weights_empty[1];
#define MPI_UNWEIGHTED (shl_mpi_unweighted)
#define MPI_WEIGHTS_EMPTY (shl_mpi_weights_empty)
SHL_DECLARE(int, Dims_create, (int nnodes, int ndims, int dims[]));
SHL_DECLARE(int, Cart_create, (MPI_Comm comm_old, int ndims, const int dims[],
			       const int periods[], int reorder, MPI_Comm *comm_cart));
SHL_DECLARE(int, Cart_coords, (MPI_Comm comm, int rank, int maxdims, int coords[]));
SHL_DECLARE(int, Cart_rank, (MPI_Comm comm, const int coords[], int *rank));
SHL_DECLARE(int, Cart_shift, (MPI_Comm comm, int direction, int disp, int *rank_source,
			      int *rank_dest));
SHL_DECLARE(int, Cart_sub, (MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm));
SHL_DECLARE(int, Cart_get, (MPI_Comm comm, int maxdims, int dims[], int periods[],
			    int coords[]));
SHL_DECLARE(int, Cartdim_get, (MPI_Comm comm, int *ndims));
SHL_DECLARE(int, Cart_map, (MPI_Comm comm, int ndims, const int dims[], const int periods[],
			    int *newrank));
SHL_DECLARE(int, Graph_create, (MPI_Comm comm_old, int nnodes, const int index[],
				const int edges[], int reorder, MPI_Comm *comm_graph));
SHL_DECLARE(int, Graph_get, (MPI_Comm comm, int maxindex, int maxedges, int index[],
			     int edges[]));
SHL_DECLARE(int, Graphdims_get, (MPI_Comm comm, int *nnodes, int *nedges));
SHL_DECLARE(int, Graph_neighbors, (MPI_Comm comm, int rank, int maxneighbors,
				   int neighbors[]));
SHL_DECLARE(int, Graph_neighbors_count, (MPI_Comm comm, int rank, int *nneighbors));
SHL_DECLARE(int, Graph_map, (MPI_Comm comm, int nnodes, const int index[], const int edges[],
			     int *newrank));
SHL_DECLARE(int, Dist_graph_create, (MPI_Comm comm_old, int n, const int sources[],
				     const int degrees[], const int destinations[],
				     const int weights[], MPI_Info info, int reorder,
				     MPI_Comm *comm_dist_graph));
SHL_DECLARE(int, Dist_graph_create_adjacent, (MPI_Comm comm_old, int indegree,
					      const int sources[], const int sourceweights[],
					      int outdegree, const int destinations[],
					      const int destweights[], MPI_Info info, int reorder,
					      MPI_Comm *comm_dist_graph));
SHL_DECLARE(int, Dist_graph_neighbors, (MPI_Comm comm, int maxindegree, int sources[],
					int sourceweights[], int maxoutdegree, int destinations[],
					int destweights[]));
SHL_DECLARE(int, Dist_graph_neighbors_count, (MPI_Comm comm, int *indegree, int *outdegree,
					      int *weighted));
SHL_DECLARE(int, Topo_test, (MPI_Comm comm, int *status));

/* ---- neighborhood collectives (MPI 4.1, 8.6-8.9) ---- */
/* Blocking, nonblocking (MPI_Ineighbor_…) and persistent (…_init); then the large-count
 * (…_c) forms. */
SHL_DECLARE(int, Neighbor_allgather, (const void *sendbuf, int sendcount,
		MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm));
SHL_DECLARE(int, Ineighbor_allgather, (const void *sendbuf, int sendcount,
		MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
		MPI_Request *request));
SHL_DECLARE(int, Neighbor_allgather_init, (const void *sendbuf, int sendcount,
		MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
		MPI_Info info, MPI_Request *request));
SHL_DECLARE(int, Neighbor_allgatherv, (const void *sendbuf, int sendcount,
		MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[],
		MPI_Datatype recvtype, MPI_Comm comm));
SHL_DECLARE(int, Ineighbor_allgatherv, (const void *sendbuf, int sendcount,
		MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[],
		MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request));
SHL_DECLARE(int, Neighbor_allgatherv_init, (const void *sendbuf, int sendcount,
		MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[],
		MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request));
SHL_DECLARE(int, Neighbor_alltoall, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm));
SHL_DECLARE(int, Ineighbor_alltoall, (const void *sendbuf, int sendcount,
		MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
		MPI_Request *request));
SHL_DECLARE(int, Neighbor_alltoall_init, (const void *sendbuf, int sendcount,
		MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
		MPI_Info info, MPI_Request *request));
SHL_DECLARE(int, Neighbor_alltoallv, (const void *sendbuf, const int sendcounts[],
		const int sdispls[], MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
		const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm));
SHL_DECLARE(int, Ineighbor_alltoallv, (const void *sendbuf, const int sendcounts[],
		const int sdispls[], MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
		const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request));
SHL_DECLARE(int, Neighbor_alltoallv_init, (const void *sendbuf, const int sendcounts[],
		const int sdispls[], MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
		const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
		MPI_Request *request));
SHL_DECLARE(int, Neighbor_alltoallw, (const void *sendbuf, const int sendcounts[],
		const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
		const int recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
		MPI_Comm comm));
SHL_DECLARE(int, Ineighbor_alltoallw, (const void *sendbuf, const int sendcounts[],
		const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
		const int recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
		MPI_Comm comm, MPI_Request *request));
SHL_DECLARE(int, Neighbor_alltoallw_init, (const void *sendbuf, const int sendcounts[],
		const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
		const int recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
		MPI_Comm comm, MPI_Info info, MPI_Request *request));
SHL_DECLARE(int, Neighbor_allgather_c, (const void *sendbuf, MPI_Count sendcount,
		MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
		MPI_Comm comm));
SHL_DECLARE(int, Ineighbor_allgather_c, (const void *sendbuf, MPI_Count sendcount,
		MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
		MPI_Comm comm, MPI_Request *request));
SHL_DECLARE(int, Neighbor_allgather_init_c, (const void *sendbuf, MPI_Count sendcount,
		MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
		MPI_Comm comm, MPI_Info info, MPI_Request *request));
SHL_DECLARE(int, Neighbor_allgatherv_c, (const void *sendbuf, MPI_Count sendcount,
		MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
		MPI_Datatype recvtype, MPI_Comm comm));
SHL_DECLARE(int, Ineighbor_allgatherv_c, (const void *sendbuf, MPI_Count sendcount,
		MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
		MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request));
SHL_DECLARE(int, Neighbor_allgatherv_init_c, (const void *sendbuf, MPI_Count sendcount,
		MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
		MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request));
SHL_DECLARE(int, Neighbor_alltoall_c, (const void *sendbuf, MPI_Count sendcount,
		MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
		MPI_Comm comm));
SHL_DECLARE(int, Ineighbor_alltoall_c, (const void *sendbuf, MPI_Count sendcount,
		MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
		MPI_Comm comm, MPI_Request *request));
SHL_DECLARE(int, Neighbor_alltoall_init_c, (const void *sendbuf, MPI_Count sendcount,
		MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
		MPI_Comm comm, MPI_Info info, MPI_Request *request));
SHL_DECLARE(int, Neighbor_alltoallv_c, (const void *sendbuf, const MPI_Count sendcounts[],
		const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
		const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm));
SHL_DECLARE(int, Ineighbor_alltoallv_c, (const void *sendbuf, const MPI_Count sendcounts[],
		const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
		const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request));
SHL_DECLARE(int, Neighbor_alltoallv_init_c, (const void *sendbuf, const MPI_Count sendcounts[],
		const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
		const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
		MPI_Request *request));
SHL_DECLARE(int, Neighbor_alltoallw_c, (const void *sendbuf, const MPI_Count sendcounts[],
		const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
		const MPI_Count recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
		MPI_Comm comm));
SHL_DECLARE(int, Ineighbor_alltoallw_c, (const void *sendbuf, const MPI_Count sendcounts[],
		const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
		const MPI_Count recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
		MPI_Comm comm, MPI_Request *request));
SHL_DECLARE(int, Neighbor_alltoallw_init_c, (const void *sendbuf, const MPI_Count sendcounts[],
		const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
		const MPI_Count recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
		MPI_Comm comm, MPI_Info info, MPI_Request *request));

/* ---- sessions (MPI 4.1, 11.3) ---- */
/* Process sets: "mpi://WORLD", "mpi://SELF", and one per node of the job,
 * "shoal://node/<i>" for node index i (0 on a one-node job), its ranks in world order
 * (docs/sessions.md). A session's info holds the thread level as "thread_level" and
 * "mpi_thread_support_level"; a process set's, "mpi_size". */
typedef struct shl_session *MPI_Session;
#define MPI_SESSION_NULL ((MPI_Session)0)
#define MPI_MAX_PSET_NAME_LEN 256
#define MPI_MAX_STRINGTAG_LEN 256
typedef void MPI_Session_errhandler_function(MPI_Session *session, int *errorcode, ...);
SHL_DECLARE(int, Session_init, (MPI_Info info, MPI_Errhandler errhandler,
				MPI_Session *session));
SHL_DECLARE(int, Session_finalize, (MPI_Session *session));
SHL_DECLARE(int, Session_get_num_psets, (MPI_Session session, MPI_Info info, int *npset_names));
SHL_DECLARE(int, Session_get_nth_pset, (MPI_Session session, MPI_Info info, int n,
					int *pset_len, char *pset_name));
SHL_DECLARE(int, Session_get_pset_info, (MPI_Session session, const char *pset_name,
					 MPI_Info *info));
SHL_DECLARE(int, Session_get_info, (MPI_Session session, MPI_Info *info_used));
SHL_DECLARE(MPI_Fint, Session_c2f, (MPI_Session session));
SHL_DECLARE(MPI_Session, Session_f2c, (MPI_Fint session));
SHL_DECLARE(int, Group_from_session_pset, (MPI_Session session, const char *pset_name,
					   MPI_Group *newgroup));
SHL_DECLARE(int, Comm_create_from_group, (MPI_Group group, const char *stringtag,
					  MPI_Info info, MPI_Errhandler errhandler,
					  MPI_Comm *newcomm));
SHL_DECLARE(int, Intercomm_create_from_groups, (MPI_Group local_group, int local_leader,
						MPI_Group remote_group, int remote_leader,
						const char *stringtag, MPI_Info info,
						MPI_Errhandler errhandler,
						MPI_Comm *newintercomm));
SHL_DECLARE(int, Session_create_errhandler,
	    (MPI_Session_errhandler_function *session_errhandler_fn, MPI_Errhandler *errhandler));
SHL_DECLARE(int, Session_set_errhandler, (MPI_Session session, MPI_Errhandler errhandler));
SHL_DECLARE(int, Session_get_errhandler, (MPI_Session session, MPI_Errhandler *errhandler));
SHL_DECLARE(int, Session_call_errhandler, (MPI_Session session, int errorcode));

/* ---- one-sided communication (MPI 4.1, chapter 12) ---- */
typedef struct shl_win *MPI_Win;
#define MPI_WIN_NULL ((MPI_Win)0)

/* Window flavors (MPI_WIN_CREATE_FLAVOR) and memory models (MPI_WIN_MODEL): every window
 * is unified, the ranks of a node sharing one address space. */
#define MPI_WIN_FLAVOR_CREATE 1
#define MPI_WIN_FLAVOR_ALLOCATE 2
#define MPI_WIN_FLAVOR_DYNAMIC 3
#define MPI_WIN_FLAVOR_SHARED 4
#define MPI_WIN_SEPARATE 1
#define MPI_WIN_UNIFIED 2

/* Lock types and assertions (the values MPICH uses). */
#define MPI_LOCK_EXCLUSIVE 234
#define MPI_LOCK_SHARED 235
#define MPI_MODE_NOCHECK 1024
#define MPI_MODE_NOSTORE 2048
#define MPI_MODE_NOPUT 4096
#define MPI_MODE_NOPRECEDE 8192
#define MPI_MODE_NOSUCCEED 16384

/* The predefined window attributes; keyvals share one id space with communicators'. */
#define MPI_WIN_BASE 8
#define MPI_WIN_SIZE 9
#define MPI_WIN_DISP_UNIT 10
#define MPI_WIN_CREATE_FLAVOR 11
#define MPI_WIN_MODEL 12

typedef void MPI_Win_errhandler_function(MPI_Win *win, int *errorcode, ...);
typedef int MPI_Win_copy_attr_function(MPI_Win oldwin, int win_keyval, void *extra_state,
				       void *attribute_val_in, void *attribute_val_out, int *flag);
typedef int MPI_Win_delete_attr_function(MPI_Win win, int win_keyval, void *attribute_val,
					 void *extra_state);
MPI_Win_copy_attr_function shl_mpi_win_null_copy_fn, shl_mpi_win_dup_fn;
MPI_Win_delete_attr_function shl_mpi_win_null_delete_fn;
__attribute__((visibility("default"))) MPI_Win_copy_attr_function MPI_WIN_NULL_COPY_FN,
	MPI_WIN_DUP_FN;
__attribute__((visibility("default"))) MPI_Win_delete_attr_function MPI_WIN_NULL_DELETE_FN;

SHL_DECLARE(int, Alloc_mem, (MPI_Aint size, MPI_Info info, void *baseptr));
SHL_DECLARE(int, Free_mem, (void *base));

SHL_DECLARE(int, Win_create, (void *base, MPI_Aint size, int disp_unit, MPI_Info info,
			      MPI_Comm comm, MPI_Win *win));
SHL_DECLARE(int, Win_create_c, (void *base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info,
				MPI_Comm comm, MPI_Win *win));
SHL_DECLARE(int, Win_allocate, (MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
				void *baseptr, MPI_Win *win));
SHL_DECLARE(int, Win_allocate_c, (MPI_Aint size, MPI_Aint disp_unit, MPI_Info info,
				  MPI_Comm comm, void *baseptr, MPI_Win *win));
SHL_DECLARE(int, Win_allocate_shared, (MPI_Aint size, int disp_unit, MPI_Info info,
				       MPI_Comm comm, void *baseptr, MPI_Win *win));
SHL_DECLARE(int, Win_allocate_shared_c, (MPI_Aint size, MPI_Aint disp_unit, MPI_Info info,
					 MPI_Comm comm, void *baseptr, MPI_Win *win));
SHL_DECLARE(int, Win_shared_query, (MPI_Win win, int rank, MPI_Aint *size, int *disp_unit,
				    void *baseptr));
SHL_DECLARE(int, Win_shared_query_c, (MPI_Win win, int rank, MPI_Aint *size,
				      MPI_Aint *disp_unit, void *baseptr));
SHL_DECLARE(int, Win_create_dynamic, (MPI_Info info, MPI_Comm comm, MPI_Win *win));
SHL_DECLARE(int, Win_attach, (MPI_Win win, void *base, MPI_Aint size));
SHL_DECLARE(int, Win_detach, (MPI_Win win, const void *base));
SHL_DECLARE(int, Win_free, (MPI_Win *win));
SHL_DECLARE(int, Win_get_group, (MPI_Win win, MPI_Group *group));
SHL_DECLARE(int, Win_set_info, (MPI_Win win, MPI_Info info));
SHL_DECLARE(int, Win_get_info, (MPI_Win win, MPI_Info *info_used));
SHL_DECLARE(int, Win_set_name, (MPI_Win win, const char *win_name));
SHL_DECLARE(int, Win_get_name, (MPI_Win win, char *win_name, int *resultlen));
SHL_DECLARE(int, Win_create_keyval, (MPI_Win_copy_attr_function *win_copy_attr_fn,
				     MPI_Win_delete_attr_function *win_delete_attr_fn,
				     int *win_keyval, void *extra_state));
SHL_DECLARE(int, Win_free_keyval, (int *win_keyval));
SHL_DECLARE(int, Win_set_attr, (MPI_Win win, int win_keyval, void *attribute_val));
SHL_DECLARE(int, Win_get_attr, (MPI_Win win, int win_keyval, void *attribute_val, int *flag));
SHL_DECLARE(int, Win_delete_attr, (MPI_Win win, int win_keyval));
SHL_DECLARE(int, Win_create_errhandler, (MPI_Win_errhandler_function *win_errhandler_fn,
					 MPI_Errhandler *errhandler));
SHL_DECLARE(int, Win_set_errhandler, (MPI_Win win, MPI_Errhandler errhandler));
SHL_DECLARE(int, Win_get_errhandler, (MPI_Win win, MPI_Errhandler *errhandler));
SHL_DECLARE(int, Win_call_errhandler, (MPI_Win win, int errorcode));

SHL_DECLARE(int, Put, (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
		       int target_rank, MPI_Aint target_disp, int target_count,
		       MPI_Datatype target_datatype, MPI_Win win));
SHL_DECLARE(int, Put_c, (const void *origin_addr, MPI_Count origin_count,
			 MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
			 MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win));
SHL_DECLARE(int, Get, (void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
		       int target_rank, MPI_Aint target_disp, int target_count,
		       MPI_Datatype target_datatype, MPI_Win win));
SHL_DECLARE(int, Get_c, (void *origin_addr, MPI_Count origin_count,
			 MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
			 MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win));
SHL_DECLARE(int, Accumulate, (const void *origin_addr, int origin_count,
			      MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
			      int target_count, MPI_Datatype target_datatype, MPI_Op op,
			      MPI_Win win));
SHL_DECLARE(int, Accumulate_c, (const void *origin_addr, MPI_Count origin_count,
				MPI_Datatype origin_datatype, int target_rank,
				MPI_Aint target_disp, MPI_Count target_count,
				MPI_Datatype target_datatype, MPI_Op op, MPI_Win win));
SHL_DECLARE(int, Get_accumulate, (const void *origin_addr, int origin_count,
				  MPI_Datatype origin_datatype, void *result_addr,
				  int result_count, MPI_Datatype result_datatype, int target_rank,
				  MPI_Aint target_disp, int target_count,
				  MPI_Datatype target_datatype, MPI_Op op, MPI_Win win));
SHL_DECLARE(int, Get_accumulate_c, (const void *origin_addr, MPI_Count origin_count,
				    MPI_Datatype origin_datatype, void *result_addr,
				    MPI_Count result_count, MPI_Datatype result_datatype,
				    int target_rank, MPI_Aint target_disp, MPI_Count target_count,
				    MPI_Datatype target_datatype, MPI_Op op, MPI_Win win));
SHL_DECLARE(int, Fetch_and_op, (const void *origin_addr, void *result_addr,
				MPI_Datatype datatype, int target_rank, MPI_Aint target_disp,
				MPI_Op op, MPI_Win win));
SHL_DECLARE(int, Compare_and_swap, (const void *origin_addr, const void *compare_addr,
				    void *result_addr, MPI_Datatype datatype, int target_rank,
				    MPI_Aint target_disp, MPI_Win win));
SHL_DECLARE(int, Rput, (const void *origin_addr, int origin_count,
			MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
			int target_count, MPI_Datatype target_datatype, MPI_Win win,
			MPI_Request *request));
SHL_DECLARE(int, Rput_c, (const void *origin_addr, MPI_Count origin_count,
			  MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
			  MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win,
			  MPI_Request *request));
SHL_DECLARE(int, Rget, (void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
			int target_rank, MPI_Aint target_disp, int target_count,
			MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request));
SHL_DECLARE(int, Rget_c, (void *origin_addr, MPI_Count origin_count,
			  MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
			  MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win,
			  MPI_Request *request));
SHL_DECLARE(int, Raccumulate, (const void *origin_addr, int origin_count,
			       MPI_Datatype origin_datatype, int target_rank,
			       MPI_Aint target_disp, int target_count,
			       MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
			       MPI_Request *request));
SHL_DECLARE(int, Raccumulate_c, (const void *origin_addr, MPI_Count origin_count,
				 MPI_Datatype origin_datatype, int target_rank,
				 MPI_Aint target_disp, MPI_Count target_count,
				 MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
				 MPI_Request *request));
SHL_DECLARE(int, Rget_accumulate, (const void *origin_addr, int origin_count,
				   MPI_Datatype origin_datatype, void *result_addr,
				   int result_count, MPI_Datatype result_datatype,
				   int target_rank, MPI_Aint target_disp, int target_count,
				   MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
				   MPI_Request *request));
SHL_DECLARE(int, Rget_accumulate_c, (const void *origin_addr, MPI_Count origin_count,
				     MPI_Datatype origin_datatype, void *result_addr,
				     MPI_Count result_count, MPI_Datatype result_datatype,
				     int target_rank, MPI_Aint target_disp,
				     MPI_Count target_count, MPI_Datatype target_datatype,
				     MPI_Op op, MPI_Win win, MPI_Request *request));

SHL_DECLARE(int, Win_fence, (int assert, MPI_Win win));
SHL_DECLARE(int, Win_post, (MPI_Group group, int assert, MPI_Win win));
SHL_DECLARE(int, Win_start, (MPI_Group group, int assert, MPI_Win win));
SHL_DECLARE(int, Win_complete, (MPI_Win win));
SHL_DECLARE(int, Win_wait, (MPI_Win win));
SHL_DECLARE(int, Win_test, (MPI_Win win, int *flag));
SHL_DECLARE(int, Win_lock, (int lock_type, int rank, int assert, MPI_Win win));
SHL_DECLARE(int, Win_unlock, (int rank, MPI_Win win));
SHL_DECLARE(int, Win_lock_all, (int assert, MPI_Win win));
SHL_DECLARE(int, Win_unlock_all, (MPI_Win win));
SHL_DECLARE(int, Win_flush, (int rank, MPI_Win win));
SHL_DECLARE(int, Win_flush_all, (MPI_Win win));
SHL_DECLARE(int, Win_flush_local, (int rank, MPI_Win win));
SHL_DECLARE(int, Win_flush_local_all, (MPI_Win win));
SHL_DECLARE(int, Win_sync, (MPI_Win win));

/* ---- files: the handle, opening, closing, management, hints, errors, conversion
 * (MPI 4.1, 14.2, 14.6.4, 14.7) ---- */
typedef struct shl_file *MPI_File;
#define MPI_FILE_NULL ((MPI_File)0)

/* Access modes (MPI_File_open's amode, or'ed): bits of their own, apart from the RMA
 * assertions MPI_MODE_NOCHECK.. (1024..16384). */
#define MPI_MODE_CREATE 1
#define MPI_MODE_RDONLY 2
#define MPI_MODE_WRONLY 4
#define MPI_MODE_RDWR 8
#define MPI_MODE_DELETE_ON_CLOSE 16
#define MPI_MODE_UNIQUE_OPEN 32
#define MPI_MODE_EXCL 64
#define MPI_MODE_APPEND 128
#define MPI_MODE_SEQUENTIAL 256

/* MPI_File_seek's whence, MPI_File_set_view's disp for the shared pointer's position. */
#define MPI_SEEK_SET 600
#define MPI_SEEK_CUR 602
#define MPI_SEEK_END 604
#define MPI_DISPLACEMENT_CURRENT -54278278
#define MPI_MAX_DATAREP_STRING 128

typedef void MPI_File_errhandler_function(MPI_File *file, int *errorcode, ...);
typedef int MPI_Datarep_conversion_function(void *userbuf, MPI_Datatype datatype, int count,
					    void *filebuf, MPI_Offset position,
					    void *extra_state);
typedef int MPI_Datarep_conversion_function_c(void *userbuf, MPI_Datatype datatype,
					      MPI_Count count, void *filebuf,
					      MPI_Offset position, void *extra_state);
typedef int MPI_Datarep_extent_function(MPI_Datatype datatype, MPI_Aint *extent,
					void *extra_state);
#define MPI_CONVERSION_FN_NULL ((MPI_Datarep_conversion_function *)0)
#define MPI_CONVERSION_FN_NULL_C ((MPI_Datarep_conversion_function_c *)0)

SHL_DECLARE(int, File_open, (MPI_Comm comm, const char *filename, int amode, MPI_Info info,
			     MPI_File *fh));
SHL_DECLARE(int, File_close, (MPI_File *fh));
SHL_DECLARE(int, File_delete, (const char *filename, MPI_Info info));
SHL_DECLARE(int, File_set_size, (MPI_File fh, MPI_Offset size));
SHL_DECLARE(int, File_preallocate, (MPI_File fh, MPI_Offset size));
SHL_DECLARE(int, File_get_size, (MPI_File fh, MPI_Offset *size));
SHL_DECLARE(int, File_get_group, (MPI_File fh, MPI_Group *group));
SHL_DECLARE(int, File_get_amode, (MPI_File fh, int *amode));
SHL_DECLARE(int, File_set_info, (MPI_File fh, MPI_Info info));
SHL_DECLARE(int, File_get_info, (MPI_File fh, MPI_Info *info_used));
SHL_DECLARE(int, File_sync, (MPI_File fh));
SHL_DECLARE(int, File_set_atomicity, (MPI_File fh, int flag));
SHL_DECLARE(int, File_get_atomicity, (MPI_File fh, int *flag));
SHL_DECLARE(int, File_create_errhandler, (MPI_File_errhandler_function *file_errhandler_fn,
					  MPI_Errhandler *errhandler));
SHL_DECLARE(int, File_set_errhandler, (MPI_File file, MPI_Errhandler errhandler));
SHL_DECLARE(int, File_get_errhandler, (MPI_File file, MPI_Errhandler *errhandler));
SHL_DECLARE(int, File_call_errhandler, (MPI_File fh, int errorcode));
SHL_DECLARE(MPI_Fint, File_c2f, (MPI_File file));
SHL_DECLARE(MPI_File, File_f2c, (MPI_Fint file));
SHL_DECLARE(int, Register_datarep, (const char *datarep,
				    MPI_Datarep_conversion_function *read_conversion_fn,
				    MPI_Datarep_conversion_function *write_conversion_fn,
				    MPI_Datarep_extent_function *dtype_file_extent_fn,
				    void *extra_state));
SHL_DECLARE(int, Register_datarep_c, (const char *datarep,
				      MPI_Datarep_conversion_function_c *read_conversion_fn,
				      MPI_Datarep_conversion_function_c *write_conversion_fn,
				      MPI_Datarep_extent_function *dtype_file_extent_fn,
				      void *extra_state));

/* ---- file views, data representations, independent access through explicit offsets and
 * the individual file pointer (MPI 4.1, 14.3, 14.4.1-14.4.3, 14.5) ---- */
SHL_DECLARE(int, File_set_view, (MPI_File fh, MPI_Offset disp, MPI_Datatype etype,
				 MPI_Datatype filetype, const char *datarep, MPI_Info info));
SHL_DECLARE(int, File_get_view, (MPI_File fh, MPI_Offset *disp, MPI_Datatype *etype,
				 MPI_Datatype *filetype, char *datarep));
SHL_DECLARE(int, File_read_at, (MPI_File fh, MPI_Offset offset, void *buf, int count,
				MPI_Datatype datatype, MPI_Status *status));
SHL_DECLARE(int, File_read_at_c, (MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count,
				  MPI_Datatype datatype, MPI_Status *status));
SHL_DECLARE(int, File_write_at, (MPI_File fh, MPI_Offset offset, const void *buf, int count,
				 MPI_Datatype datatype, MPI_Status *status));
SHL_DECLARE(int, File_write_at_c, (MPI_File fh, MPI_Offset offset, const void *buf,
				   MPI_Count count, MPI_Datatype datatype, MPI_Status *status));
SHL_DECLARE(int, File_read, (MPI_File fh, void *buf, int count, MPI_Datatype datatype,
			     MPI_Status *status));
SHL_DECLARE(int, File_read_c, (MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype,
			       MPI_Status *status));
SHL_DECLARE(int, File_write, (MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
			      MPI_Status *status));
SHL_DECLARE(int, File_write_c, (MPI_File fh, const void *buf, MPI_Count count,
				MPI_Datatype datatype, MPI_Status *status));
SHL_DECLARE(int, File_seek, (MPI_File fh, MPI_Offset offset, int whence));
SHL_DECLARE(int, File_get_position, (MPI_File fh, MPI_Offset *offset));
SHL_DECLARE(int, File_get_byte_offset, (MPI_File fh, MPI_Offset offset, MPI_Offset *disp));
SHL_DECLARE(int, File_get_type_extent, (MPI_File fh, MPI_Datatype datatype, MPI_Aint *extent));
SHL_DECLARE(int, File_get_type_extent_c, (MPI_File fh, MPI_Datatype datatype,
					  MPI_Count *extent));

/* ---- shared file pointers, ordered access, nonblocking independent access (MPI 4.1,
 * 14.4.4) ---- */
SHL_DECLARE(int, File_iread_at, (MPI_File fh, MPI_Offset offset, void *buf, int count,
				  MPI_Datatype datatype, MPI_Request *request));
SHL_DECLARE(int, File_iread_at_c, (MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count,
				    MPI_Datatype datatype, MPI_Request *request));
SHL_DECLARE(int, File_iwrite_at, (MPI_File fh, MPI_Offset offset, const void *buf, int count,
				   MPI_Datatype datatype, MPI_Request *request));
SHL_DECLARE(int, File_iwrite_at_c, (MPI_File fh, MPI_Offset offset, const void *buf,
				     MPI_Count count, MPI_Datatype datatype,
				     MPI_Request *request));
SHL_DECLARE(int, File_iread, (MPI_File fh, void *buf, int count, MPI_Datatype datatype,
			       MPI_Request *request));
SHL_DECLARE(int, File_iread_c, (MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype,
				 MPI_Request *request));
SHL_DECLARE(int, File_iwrite, (MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
				MPI_Request *request));
SHL_DECLARE(int, File_iwrite_c, (MPI_File fh, const void *buf, MPI_Count count,
				  MPI_Datatype datatype, MPI_Request *request));
SHL_DECLARE(int, File_read_shared, (MPI_File fh, void *buf, int count, MPI_Datatype datatype,
				     MPI_Status *status));
SHL_DECLARE(int, File_read_shared_c, (MPI_File fh, void *buf, MPI_Count count,
				       MPI_Datatype datatype, MPI_Status *status));
SHL_DECLARE(int, File_write_shared, (MPI_File fh, const void *buf, int count,
				      MPI_Datatype datatype, MPI_Status *status));
SHL_DECLARE(int, File_write_shared_c, (MPI_File fh, const void *buf, MPI_Count count,
					MPI_Datatype datatype, MPI_Status *status));
SHL_DECLARE(int, File_iread_shared, (MPI_File fh, void *buf, int count, MPI_Datatype datatype,
				      MPI_Request *request));
SHL_DECLARE(int, File_iread_shared_c, (MPI_File fh, void *buf, MPI_Count count,
					MPI_Datatype datatype, MPI_Request *request));
SHL_DECLARE(int, File_iwrite_shared, (MPI_File fh, const void *buf, int count,
				       MPI_Datatype datatype, MPI_Request *request));
SHL_DECLARE(int, File_iwrite_shared_c, (MPI_File fh, const void *buf, MPI_Count count,
					 MPI_Datatype datatype, MPI_Request *request));
SHL_DECLARE(int, File_seek_shared, (MPI_File fh, MPI_Offset offset, int whence));
SHL_DECLARE(int, File_get_position_shared, (MPI_File fh, MPI_Offset *offset));
SHL_DECLARE(int, File_read_ordered, (MPI_File fh, void *buf, int count, MPI_Datatype datatype,
				      MPI_Status *status));
SHL_DECLARE(int, File_read_ordered_c, (MPI_File fh, void *buf, MPI_Count count,
					MPI_Datatype datatype, MPI_Status *status));
SHL_DECLARE(int, File_write_ordered, (MPI_File fh, const void *buf, int count,
				       MPI_Datatype datatype, MPI_Status *status));
SHL_DECLARE(int, File_write_ordered_c, (MPI_File fh, const void *buf, MPI_Count count,
					 MPI_Datatype datatype, MPI_Status *status));
SHL_DECLARE(int, File_read_ordered_begin, (MPI_File fh, void *buf, int count,
					    MPI_Datatype datatype));
SHL_DECLARE(int, File_read_ordered_begin_c, (MPI_File fh, void *buf, MPI_Count count,
					      MPI_Datatype datatype));
SHL_DECLARE(int, File_read_ordered_end, (MPI_File fh, void *buf, MPI_Status *status));
SHL_DECLARE(int, File_write_ordered_begin, (MPI_File fh, const void *buf, int count,
					     MPI_Datatype datatype));
SHL_DECLARE(int, File_write_ordered_begin_c, (MPI_File fh, const void *buf, MPI_Count count,
					       MPI_Datatype datatype));
SHL_DECLARE(int, File_write_ordered_end, (MPI_File fh, const void *buf, MPI_Status *status));

/* ---- collective file access: _all, split collectives, nonblocking collectives (MPI 4.1,
 * 14.4) ---- */
SHL_DECLARE(int, File_read_all, (MPI_File fh, void *buf, int count, MPI_Datatype datatype,
				 MPI_Status *status));
SHL_DECLARE(int, File_read_all_c, (MPI_File fh, void *buf, MPI_Count count,
				   MPI_Datatype datatype, MPI_Status *status));
SHL_DECLARE(int, File_write_all, (MPI_File fh, const void *buf, int count,
				  MPI_Datatype datatype, MPI_Status *status));
SHL_DECLARE(int, File_write_all_c, (MPI_File fh, const void *buf, MPI_Count count,
				    MPI_Datatype datatype, MPI_Status *status));
SHL_DECLARE(int, File_read_at_all, (MPI_File fh, MPI_Offset offset, void *buf, int count,
				    MPI_Datatype datatype, MPI_Status *status));
SHL_DECLARE(int, File_read_at_all_c, (MPI_File fh, MPI_Offset offset, void *buf,
				      MPI_Count count, MPI_Datatype datatype,
				      MPI_Status *status));
SHL_DECLARE(int, File_write_at_all, (MPI_File fh, MPI_Offset offset, const void *buf,
				     int count, MPI_Datatype datatype, MPI_Status *status));
SHL_DECLARE(int, File_write_at_all_c, (MPI_File fh, MPI_Offset offset, const void *buf,
				       MPI_Count count, MPI_Datatype datatype,
				       MPI_Status *status));
SHL_DECLARE(int, File_read_all_begin, (MPI_File fh, void *buf, int count,
				       MPI_Datatype datatype));
SHL_DECLARE(int, File_read_all_begin_c, (MPI_File fh, void *buf, MPI_Count count,
					 MPI_Datatype datatype));
SHL_DECLARE(int, File_read_all_end, (MPI_File fh, void *buf, MPI_Status *status));
SHL_DECLARE(int, File_write_all_begin, (MPI_File fh, const void *buf, int count,
					MPI_Datatype datatype));
SHL_DECLARE(int, File_write_all_begin_c, (MPI_File fh, const void *buf, MPI_Count count,
					  MPI_Datatype datatype));
SHL_DECLARE(int, File_write_all_end, (MPI_File fh, const void *buf, MPI_Status *status));
SHL_DECLARE(int, File_read_at_all_begin, (MPI_File fh, MPI_Offset offset, void *buf,
					  int count, MPI_Datatype datatype));
SHL_DECLARE(int, File_read_at_all_begin_c, (MPI_File fh, MPI_Offset offset, void *buf,
					    MPI_Count count, MPI_Datatype datatype));
SHL_DECLARE(int, File_read_at_all_end, (MPI_File fh, void *buf, MPI_Status *status));
SHL_DECLARE(int, File_write_at_all_begin, (MPI_File fh, MPI_Offset offset, const void *buf,
					   int count, MPI_Datatype datatype));
SHL_DECLARE(int, File_write_at_all_begin_c, (MPI_File fh, MPI_Offset offset,
					     const void *buf, MPI_Count count,
					     MPI_Datatype datatype));
SHL_DECLARE(int, File_write_at_all_end, (MPI_File fh, const void *buf, MPI_Status *status));
SHL_DECLARE(int, File_iread_all, (MPI_File fh, void *buf, int count, MPI_Datatype datatype,
				  MPI_Request *request));
SHL_DECLARE(int, File_iread_all_c, (MPI_File fh, void *buf, MPI_Count count,
				    MPI_Datatype datatype, MPI_Request *request));
SHL_DECLARE(int, File_iwrite_all, (MPI_File fh, const void *buf, int count,
				   MPI_Datatype datatype, MPI_Request *request));
SHL_DECLARE(int, File_iwrite_all_c, (MPI_File fh, const void *buf, MPI_Count count,
				     MPI_Datatype datatype, MPI_Request *request));
SHL_DECLARE(int, File_iread_at_all, (MPI_File fh, MPI_Offset offset, void *buf, int count,
				     MPI_Datatype datatype, MPI_Request *request));
SHL_DECLARE(int, File_iread_at_all_c, (MPI_File fh, MPI_Offset offset, void *buf,
				       MPI_Count count, MPI_Datatype datatype,
				       MPI_Request *request));
SHL_DECLARE(int, File_iwrite_at_all, (MPI_File fh, MPI_Offset offset, const void *buf,
				      int count, MPI_Datatype datatype, MPI_Request *request));
SHL_DECLARE(int, File_iwrite_at_all_c, (MPI_File fh, MPI_Offset offset, const void *buf,
					MPI_Count count, MPI_Datatype datatype,
					MPI_Request *request));

/* ---- Fortran datatypes and MPI_Type_create_f90_* (MPI 4.1, 3.2.2, 6.9.4, 19.1.9) ----
 * The Fortran types exist in C too (a C routine may receive Fortran data). Layouts are
 * gfortran's: default INTEGER, REAL, LOGICAL 4 bytes; REAL16 is IEEE binary128. gfortran
 * has no 2-byte REAL: MPI_REAL2 and MPI_COMPLEX4 are MPI_DATATYPE_NULL. */
extern SHL_MPI_OBJECT struct shl_datatype shl_mpi_character, shl_mpi_logical, shl_mpi_integer,
	shl_mpi_real, shl_mpi_double_precision, shl_mpi_complex, shl_mpi_double_complex,
	shl_mpi_integer1, shl_mpi_integer2, shl_mpi_integer4, shl_mpi_integer8,
	shl_mpi_integer16, shl_mpi_real4, shl_mpi_real8, shl_mpi_real16, shl_mpi_complex8,
	shl_mpi_complex16, shl_mpi_complex32, shl_mpi_logical1, shl_mpi_logical2,
	shl_mpi_logical4, shl_mpi_logical8, shl_mpi_logical16, shl_mpi_2real,
	shl_mpi_2double_precision, shl_mpi_2integer;
#define MPI_CHARACTER (&shl_mpi_character)
#define MPI_LOGICAL (&shl_mpi_logical)
#define MPI_INTEGER (&shl_mpi_integer)
#define MPI_REAL (&shl_mpi_real)
#define MPI_DOUBLE_PRECISION (&shl_mpi_double_precision)
#define MPI_COMPLEX (&shl_mpi_complex)
#define MPI_DOUBLE_COMPLEX (&shl_mpi_double_complex)
#define MPI_INTEGER1 (&shl_mpi_integer1)
#define MPI_INTEGER2 (&shl_mpi_integer2)
#define MPI_INTEGER4 (&shl_mpi_integer4)
#define MPI_INTEGER8 (&shl_mpi_integer8)
#define MPI_INTEGER16 (&shl_mpi_integer16)
#define MPI_REAL2 MPI_DATATYPE_NULL
#define MPI_REAL4 (&shl_mpi_real4)
#define MPI_REAL8 (&shl_mpi_real8)
#define MPI_REAL16 (&shl_mpi_real16)
#define MPI_COMPLEX4 MPI_DATATYPE_NULL
#define MPI_COMPLEX8 (&shl_mpi_complex8)
#define MPI_COMPLEX16 (&shl_mpi_complex16)
#define MPI_COMPLEX32 (&shl_mpi_complex32)
#define MPI_LOGICAL1 (&shl_mpi_logical1)
#define MPI_LOGICAL2 (&shl_mpi_logical2)
#define MPI_LOGICAL4 (&shl_mpi_logical4)
#define MPI_LOGICAL8 (&shl_mpi_logical8)
#define MPI_LOGICAL16 (&shl_mpi_logical16)
#define MPI_2REAL (&shl_mpi_2real)
#define MPI_2DOUBLE_PRECISION (&shl_mpi_2double_precision)
#define MPI_2INTEGER (&shl_mpi_2integer)

/* A type matching SELECTED_INT_KIND(r) / SELECTED_REAL_KIND(p, r) of gfortran (p or r may
 * be MPI_UNDEFINED), with combiner MPI_COMBINER_F90_*; the same (p, r) gives the same
 * handle, which must not be freed. */
SHL_DECLARE(int, Type_create_f90_integer, (int r, MPI_Datatype *newtype));
SHL_DECLARE(int, Type_create_f90_real, (int p, int r, MPI_Datatype *newtype));
SHL_DECLARE(int, Type_create_f90_complex, (int p, int r, MPI_Datatype *newtype));

#undef SHL_DECLARE

#ifdef __cplusplus
}
#endif
#endif
