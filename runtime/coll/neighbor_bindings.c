/* The MPI bindings of the neighborhood collectives (coll/neighbor.c):
 * Neighbor_allgather(v) and Neighbor_alltoall(v/w), blocking, nonblocking (MPI_Ineighbor_…)
 * and persistent (MPI_Neighbor_…_init, started by MPI_Start), in their int and large-count
 * (…_c) forms. Entered by rank threads (the user's calls). Each names its call and passes
 * its arguments on to shl_coll_neighbor (an …_init form checks its info first): must not
 * check or decide anything else itself. */
#include "runtime/coll/internal.h"

int PMPI_Neighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
	return shl_coll_neighbor("MPI_Neighbor_allgather", true, SHL_VEC_NONE, false, sendbuf,
				 sendcount, NULL, NULL, sendtype, NULL, recvbuf, recvcount,
				 NULL, NULL, recvtype, NULL, comm, NULL, SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Neighbor_allgather);

int PMPI_Ineighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
	return shl_coll_neighbor("MPI_Ineighbor_allgather", true, SHL_VEC_NONE, false, sendbuf,
				 sendcount, NULL, NULL, sendtype, NULL, recvbuf, recvcount,
				 NULL, NULL, recvtype, NULL, comm, request,
				 SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Ineighbor_allgather);

int PMPI_Neighbor_allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
		MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Neighbor_allgather_init"), comm,
				 "MPI_Neighbor_allgather_init", info);

	if (err != MPI_SUCCESS)
		return err;
	return shl_coll_neighbor("MPI_Neighbor_allgather_init", true, SHL_VEC_NONE, false,
				 sendbuf, sendcount, NULL, NULL, sendtype, NULL, recvbuf,
				 recvcount, NULL, NULL, recvtype, NULL, comm, request,
				 SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Neighbor_allgather_init);

int PMPI_Neighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype,
		MPI_Comm comm)
{
	return shl_coll_neighbor("MPI_Neighbor_allgatherv", true, SHL_VEC_V, false, sendbuf,
				 sendcount, NULL, NULL, sendtype, NULL, recvbuf, 0, recvcounts,
				 displs, recvtype, NULL, comm, NULL, SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Neighbor_allgatherv);

int PMPI_Ineighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype,
		MPI_Comm comm, MPI_Request *request)
{
	return shl_coll_neighbor("MPI_Ineighbor_allgatherv", true, SHL_VEC_V, false, sendbuf,
				 sendcount, NULL, NULL, sendtype, NULL, recvbuf, 0, recvcounts,
				 displs, recvtype, NULL, comm, request, SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Ineighbor_allgatherv);

int PMPI_Neighbor_allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype,
		MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Neighbor_allgatherv_init"), comm,
				 "MPI_Neighbor_allgatherv_init", info);

	if (err != MPI_SUCCESS)
		return err;
	return shl_coll_neighbor("MPI_Neighbor_allgatherv_init", true, SHL_VEC_V, false,
				 sendbuf, sendcount, NULL, NULL, sendtype, NULL, recvbuf, 0,
				 recvcounts, displs, recvtype, NULL, comm, request,
				 SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Neighbor_allgatherv_init);

int PMPI_Neighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
	return shl_coll_neighbor("MPI_Neighbor_alltoall", false, SHL_VEC_NONE, false, sendbuf,
				 sendcount, NULL, NULL, sendtype, NULL, recvbuf, recvcount,
				 NULL, NULL, recvtype, NULL, comm, NULL, SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Neighbor_alltoall);

int PMPI_Ineighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
	return shl_coll_neighbor("MPI_Ineighbor_alltoall", false, SHL_VEC_NONE, false, sendbuf,
				 sendcount, NULL, NULL, sendtype, NULL, recvbuf, recvcount,
				 NULL, NULL, recvtype, NULL, comm, request,
				 SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Ineighbor_alltoall);

int PMPI_Neighbor_alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
		MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Neighbor_alltoall_init"), comm,
				 "MPI_Neighbor_alltoall_init", info);

	if (err != MPI_SUCCESS)
		return err;
	return shl_coll_neighbor("MPI_Neighbor_alltoall_init", false, SHL_VEC_NONE, false,
				 sendbuf, sendcount, NULL, NULL, sendtype, NULL, recvbuf,
				 recvcount, NULL, NULL, recvtype, NULL, comm, request,
				 SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Neighbor_alltoall_init);

int PMPI_Neighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
		MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
		MPI_Datatype recvtype, MPI_Comm comm)
{
	return shl_coll_neighbor("MPI_Neighbor_alltoallv", false, SHL_VEC_V, false, sendbuf, 0,
				 sendcounts, sdispls, sendtype, NULL, recvbuf, 0, recvcounts,
				 rdispls, recvtype, NULL, comm, NULL, SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Neighbor_alltoallv);

int PMPI_Ineighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
		MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
		MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
	return shl_coll_neighbor("MPI_Ineighbor_alltoallv", false, SHL_VEC_V, false, sendbuf,
				 0, sendcounts, sdispls, sendtype, NULL, recvbuf, 0,
				 recvcounts, rdispls, recvtype, NULL, comm, request,
				 SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Ineighbor_alltoallv);

int PMPI_Neighbor_alltoallv_init(const void *sendbuf, const int sendcounts[],
		const int sdispls[], MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
		const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
		MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Neighbor_alltoallv_init"), comm,
				 "MPI_Neighbor_alltoallv_init", info);

	if (err != MPI_SUCCESS)
		return err;
	return shl_coll_neighbor("MPI_Neighbor_alltoallv_init", false, SHL_VEC_V, false,
				 sendbuf, 0, sendcounts, sdispls, sendtype, NULL, recvbuf, 0,
				 recvcounts, rdispls, recvtype, NULL, comm, request,
				 SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Neighbor_alltoallv_init);

int PMPI_Neighbor_alltoallw(const void *sendbuf, const int sendcounts[],
		const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
		const int recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
		MPI_Comm comm)
{
	return shl_coll_neighbor("MPI_Neighbor_alltoallw", false, SHL_VEC_W, false, sendbuf, 0,
				 sendcounts, sdispls, NULL, sendtypes, recvbuf, 0, recvcounts,
				 rdispls, NULL, recvtypes, comm, NULL, SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Neighbor_alltoallw);

int PMPI_Ineighbor_alltoallw(const void *sendbuf, const int sendcounts[],
		const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
		const int recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
		MPI_Comm comm, MPI_Request *request)
{
	return shl_coll_neighbor("MPI_Ineighbor_alltoallw", false, SHL_VEC_W, false, sendbuf,
				 0, sendcounts, sdispls, NULL, sendtypes, recvbuf, 0,
				 recvcounts, rdispls, NULL, recvtypes, comm, request,
				 SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Ineighbor_alltoallw);

int PMPI_Neighbor_alltoallw_init(const void *sendbuf, const int sendcounts[],
		const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
		const int recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
		MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Neighbor_alltoallw_init"), comm,
				 "MPI_Neighbor_alltoallw_init", info);

	if (err != MPI_SUCCESS)
		return err;
	return shl_coll_neighbor("MPI_Neighbor_alltoallw_init", false, SHL_VEC_W, false,
				 sendbuf, 0, sendcounts, sdispls, NULL, sendtypes, recvbuf, 0,
				 recvcounts, rdispls, NULL, recvtypes, comm, request,
				 SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Neighbor_alltoallw_init);

int PMPI_Neighbor_allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
		void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
	return shl_coll_neighbor("MPI_Neighbor_allgather_c", true, SHL_VEC_NONE, true, sendbuf,
				 sendcount, NULL, NULL, sendtype, NULL, recvbuf, recvcount,
				 NULL, NULL, recvtype, NULL, comm, NULL, SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Neighbor_allgather_c);

int PMPI_Ineighbor_allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
		void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
		MPI_Request *request)
{
	return shl_coll_neighbor("MPI_Ineighbor_allgather_c", true, SHL_VEC_NONE, true,
				 sendbuf, sendcount, NULL, NULL, sendtype, NULL, recvbuf,
				 recvcount, NULL, NULL, recvtype, NULL, comm, request,
				 SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Ineighbor_allgather_c);

int PMPI_Neighbor_allgather_init_c(const void *sendbuf, MPI_Count sendcount,
		MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
		MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Neighbor_allgather_init_c"), comm,
				 "MPI_Neighbor_allgather_init_c", info);

	if (err != MPI_SUCCESS)
		return err;
	return shl_coll_neighbor("MPI_Neighbor_allgather_init_c", true, SHL_VEC_NONE, true,
				 sendbuf, sendcount, NULL, NULL, sendtype, NULL, recvbuf,
				 recvcount, NULL, NULL, recvtype, NULL, comm, request,
				 SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Neighbor_allgather_init_c);

int PMPI_Neighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
		void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
		MPI_Comm comm)
{
	return shl_coll_neighbor("MPI_Neighbor_allgatherv_c", true, SHL_VEC_V, true, sendbuf,
				 sendcount, NULL, NULL, sendtype, NULL, recvbuf, 0, recvcounts,
				 displs, recvtype, NULL, comm, NULL, SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Neighbor_allgatherv_c);

int PMPI_Ineighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount,
		MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
		MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
	return shl_coll_neighbor("MPI_Ineighbor_allgatherv_c", true, SHL_VEC_V, true, sendbuf,
				 sendcount, NULL, NULL, sendtype, NULL, recvbuf, 0, recvcounts,
				 displs, recvtype, NULL, comm, request, SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Ineighbor_allgatherv_c);

int PMPI_Neighbor_allgatherv_init_c(const void *sendbuf, MPI_Count sendcount,
		MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
		MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Neighbor_allgatherv_init_c"), comm,
				 "MPI_Neighbor_allgatherv_init_c", info);

	if (err != MPI_SUCCESS)
		return err;
	return shl_coll_neighbor("MPI_Neighbor_allgatherv_init_c", true, SHL_VEC_V, true,
				 sendbuf, sendcount, NULL, NULL, sendtype, NULL, recvbuf, 0,
				 recvcounts, displs, recvtype, NULL, comm, request,
				 SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Neighbor_allgatherv_init_c);

int PMPI_Neighbor_alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
		void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
	return shl_coll_neighbor("MPI_Neighbor_alltoall_c", false, SHL_VEC_NONE, true, sendbuf,
				 sendcount, NULL, NULL, sendtype, NULL, recvbuf, recvcount,
				 NULL, NULL, recvtype, NULL, comm, NULL, SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Neighbor_alltoall_c);

int PMPI_Ineighbor_alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
		void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
		MPI_Request *request)
{
	return shl_coll_neighbor("MPI_Ineighbor_alltoall_c", false, SHL_VEC_NONE, true,
				 sendbuf, sendcount, NULL, NULL, sendtype, NULL, recvbuf,
				 recvcount, NULL, NULL, recvtype, NULL, comm, request,
				 SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Ineighbor_alltoall_c);

int PMPI_Neighbor_alltoall_init_c(const void *sendbuf, MPI_Count sendcount,
		MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
		MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Neighbor_alltoall_init_c"), comm,
				 "MPI_Neighbor_alltoall_init_c", info);

	if (err != MPI_SUCCESS)
		return err;
	return shl_coll_neighbor("MPI_Neighbor_alltoall_init_c", false, SHL_VEC_NONE, true,
				 sendbuf, sendcount, NULL, NULL, sendtype, NULL, recvbuf,
				 recvcount, NULL, NULL, recvtype, NULL, comm, request,
				 SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Neighbor_alltoall_init_c);

int PMPI_Neighbor_alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[],
		const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
		const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
	return shl_coll_neighbor("MPI_Neighbor_alltoallv_c", false, SHL_VEC_V, true, sendbuf,
				 0, sendcounts, sdispls, sendtype, NULL, recvbuf, 0,
				 recvcounts, rdispls, recvtype, NULL, comm, NULL,
				 SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Neighbor_alltoallv_c);

int PMPI_Ineighbor_alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[],
		const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
		const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
	return shl_coll_neighbor("MPI_Ineighbor_alltoallv_c", false, SHL_VEC_V, true, sendbuf,
				 0, sendcounts, sdispls, sendtype, NULL, recvbuf, 0,
				 recvcounts, rdispls, recvtype, NULL, comm, request,
				 SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Ineighbor_alltoallv_c);

int PMPI_Neighbor_alltoallv_init_c(const void *sendbuf, const MPI_Count sendcounts[],
		const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
		const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
		MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Neighbor_alltoallv_init_c"), comm,
				 "MPI_Neighbor_alltoallv_init_c", info);

	if (err != MPI_SUCCESS)
		return err;
	return shl_coll_neighbor("MPI_Neighbor_alltoallv_init_c", false, SHL_VEC_V, true,
				 sendbuf, 0, sendcounts, sdispls, sendtype, NULL, recvbuf, 0,
				 recvcounts, rdispls, recvtype, NULL, comm, request,
				 SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Neighbor_alltoallv_init_c);

int PMPI_Neighbor_alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[],
		const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
		const MPI_Count recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
		MPI_Comm comm)
{
	return shl_coll_neighbor("MPI_Neighbor_alltoallw_c", false, SHL_VEC_W, true, sendbuf,
				 0, sendcounts, sdispls, NULL, sendtypes, recvbuf, 0,
				 recvcounts, rdispls, NULL, recvtypes, comm, NULL,
				 SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Neighbor_alltoallw_c);

int PMPI_Ineighbor_alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[],
		const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
		const MPI_Count recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
		MPI_Comm comm, MPI_Request *request)
{
	return shl_coll_neighbor("MPI_Ineighbor_alltoallw_c", false, SHL_VEC_W, true, sendbuf,
				 0, sendcounts, sdispls, NULL, sendtypes, recvbuf, 0,
				 recvcounts, rdispls, NULL, recvtypes, comm, request,
				 SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Ineighbor_alltoallw_c);

int PMPI_Neighbor_alltoallw_init_c(const void *sendbuf, const MPI_Count sendcounts[],
		const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
		const MPI_Count recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
		MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Neighbor_alltoallw_init_c"), comm,
				 "MPI_Neighbor_alltoallw_init_c", info);

	if (err != MPI_SUCCESS)
		return err;
	return shl_coll_neighbor("MPI_Neighbor_alltoallw_init_c", false, SHL_VEC_W, true,
				 sendbuf, 0, sendcounts, sdispls, NULL, sendtypes, recvbuf, 0,
				 recvcounts, rdispls, NULL, recvtypes, comm, request,
				 SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Neighbor_alltoallw_init_c);
