/* The MPI bindings of the collectives that move data (coll/move.c): Barrier, Bcast,
 * Gather(v), Scatter(v), Allgather(v), Alltoall(v/w), blocking and nonblocking (MPI_I…),
 * persistent (MPI_…_init, started by MPI_Start) and, but Barrier, in their large-count
 * (…_c) forms. Entered by rank threads (the user's calls). Each names its call and passes
 * its arguments on to the collective's entry (an …_init form checks its info first): must
 * not check or decide anything else itself. */
#include "runtime/coll/internal.h"

/* ---- blocking and nonblocking ---- */

int PMPI_Barrier(MPI_Comm comm)
{
	return shl_coll_barrier("MPI_Barrier", comm, NULL, SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Barrier);

int PMPI_Ibarrier(MPI_Comm comm, MPI_Request *request)
{
	return shl_coll_barrier("MPI_Ibarrier", comm, request, SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Ibarrier);

int PMPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
	return shl_coll_bcast("MPI_Bcast", buffer, count, datatype, root, comm, NULL,
			      SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Bcast);

int PMPI_Ibcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
		MPI_Request *request)
{
	return shl_coll_bcast("MPI_Ibcast", buffer, count, datatype, root, comm, request,
			      SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Ibcast);

int PMPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
		int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
	return shl_coll_rooted("MPI_Gather", false, false, false, sendbuf, sendcount, sendtype,
			       NULL, NULL, recvbuf, recvcount, recvtype, NULL, NULL, root, comm,
			       NULL, SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Gather);

int PMPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
		 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
		 MPI_Request *request)
{
	return shl_coll_rooted("MPI_Igather", false, false, false, sendbuf, sendcount, sendtype,
			       NULL, NULL, recvbuf, recvcount, recvtype, NULL, NULL, root, comm,
			       request, SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Igather);

int PMPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
		 const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
		 MPI_Comm comm)
{
	return shl_coll_rooted("MPI_Gatherv", false, true, false, sendbuf, sendcount, sendtype,
			       NULL, NULL, recvbuf, 0, recvtype, recvcounts, displs, root, comm,
			       NULL, SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Gatherv);

int PMPI_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
		  const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
		  MPI_Comm comm, MPI_Request *request)
{
	return shl_coll_rooted("MPI_Igatherv", false, true, false, sendbuf, sendcount, sendtype,
			       NULL, NULL, recvbuf, 0, recvtype, recvcounts, displs, root, comm,
			       request, SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Igatherv);

int PMPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
		 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
	return shl_coll_rooted("MPI_Scatter", true, false, false, sendbuf, sendcount, sendtype,
			       NULL, NULL, recvbuf, recvcount, recvtype, NULL, NULL, root, comm,
			       NULL, SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Scatter);

int PMPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
		  int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
		  MPI_Request *request)
{
	return shl_coll_rooted("MPI_Iscatter", true, false, false, sendbuf, sendcount, sendtype,
			       NULL, NULL, recvbuf, recvcount, recvtype, NULL, NULL, root, comm,
			       request, SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Iscatter);

int PMPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
		  MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
		  int root, MPI_Comm comm)
{
	return shl_coll_rooted("MPI_Scatterv", true, true, false, sendbuf, 0, sendtype, sendcounts,
			       displs, recvbuf, recvcount, recvtype, NULL, NULL, root, comm, NULL,
			       SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Scatterv);

int PMPI_Iscatterv(const void *sendbuf, const int sendcounts[], const int displs[],
		   MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
		   int root, MPI_Comm comm, MPI_Request *request)
{
	return shl_coll_rooted("MPI_Iscatterv", true, true, false, sendbuf, 0, sendtype, sendcounts,
			       displs, recvbuf, recvcount, recvtype, NULL, NULL, root, comm,
			       request, SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Iscatterv);

int PMPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
		   int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
	return shl_coll_allgather("MPI_Allgather", false, false, sendbuf, sendcount, sendtype,
				  recvbuf, recvcount, NULL, NULL, recvtype, comm, NULL,
				  SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Allgather);

int PMPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
		    int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
	return shl_coll_allgather("MPI_Iallgather", false, false, sendbuf, sendcount, sendtype,
				  recvbuf, recvcount, NULL, NULL, recvtype, comm, request,
				  SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Iallgather);

int PMPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
		    const int recvcounts[], const int displs[], MPI_Datatype recvtype,
		    MPI_Comm comm)
{
	return shl_coll_allgather("MPI_Allgatherv", true, false, sendbuf, sendcount, sendtype,
				  recvbuf, 0, recvcounts, displs, recvtype, comm, NULL,
				  SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Allgatherv);

int PMPI_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
		     const int recvcounts[], const int displs[], MPI_Datatype recvtype,
		     MPI_Comm comm, MPI_Request *request)
{
	return shl_coll_allgather("MPI_Iallgatherv", true, false, sendbuf, sendcount, sendtype,
				  recvbuf, 0, recvcounts, displs, recvtype, comm, request,
				  SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Iallgatherv);

int PMPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
		  int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
	return shl_coll_alltoall("MPI_Alltoall", SHL_VEC_NONE, false, sendbuf, sendcount, NULL,
				 NULL, sendtype, NULL, recvbuf, recvcount, NULL, NULL, recvtype,
				 NULL, comm, NULL, SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Alltoall);

int PMPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
		   int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
	return shl_coll_alltoall("MPI_Ialltoall", SHL_VEC_NONE, false, sendbuf, sendcount, NULL,
				 NULL, sendtype, NULL, recvbuf, recvcount, NULL, NULL, recvtype,
				 NULL, comm, request, SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Ialltoall);

int PMPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
		   MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
		   const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
	return shl_coll_alltoall("MPI_Alltoallv", SHL_VEC_V, false, sendbuf, 0, sendcounts, sdispls,
				 sendtype, NULL, recvbuf, 0, recvcounts, rdispls, recvtype, NULL,
				 comm, NULL, SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Alltoallv);

int PMPI_Ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
		    MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
		    const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
		    MPI_Request *request)
{
	return shl_coll_alltoall("MPI_Ialltoallv", SHL_VEC_V, false, sendbuf, 0, sendcounts,
				 sdispls, sendtype, NULL, recvbuf, 0, recvcounts, rdispls, recvtype,
				 NULL, comm, request, SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Ialltoallv);

int PMPI_Alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
		   const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
		   const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
	return shl_coll_alltoall("MPI_Alltoallw", SHL_VEC_W, false, sendbuf, 0, sendcounts, sdispls,
				 NULL, sendtypes, recvbuf, 0, recvcounts, rdispls, NULL, recvtypes,
				 comm, NULL, SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Alltoallw);

int PMPI_Ialltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
		    const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
		    const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
		    MPI_Request *request)
{
	return shl_coll_alltoall("MPI_Ialltoallw", SHL_VEC_W, false, sendbuf, 0, sendcounts,
				 sdispls, NULL, sendtypes, recvbuf, 0, recvcounts, rdispls, NULL,
				 recvtypes, comm, request, SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Ialltoallw);

/* ---- persistent collectives (MPI 4.1, 6.13): MPI_…_init, started by MPI_Start ---- */

int PMPI_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Barrier_init"), comm, "MPI_Barrier_init", info);

	if (err != MPI_SUCCESS)
		return err;
	return shl_coll_barrier("MPI_Barrier_init", comm, request, SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Barrier_init);

int PMPI_Bcast_init(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
		MPI_Info info, MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Bcast_init"), comm, "MPI_Bcast_init", info);

	if (err != MPI_SUCCESS)
		return err;
	return shl_coll_bcast("MPI_Bcast_init", buffer, count, datatype, root, comm, request,
			      SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Bcast_init);

int PMPI_Gather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
		int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
		MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Gather_init"), comm, "MPI_Gather_init", info);

	if (err != MPI_SUCCESS)
		return err;
	return shl_coll_rooted("MPI_Gather_init", false, false, false, sendbuf, sendcount, sendtype,
			       NULL, NULL, recvbuf, recvcount, recvtype, NULL, NULL, root, comm,
			       request, SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Gather_init);

int PMPI_Gatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
		const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
		MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Gatherv_init"), comm, "MPI_Gatherv_init", info);

	if (err != MPI_SUCCESS)
		return err;
	return shl_coll_rooted("MPI_Gatherv_init", false, true, false, sendbuf, sendcount, sendtype,
			       NULL, NULL, recvbuf, 0, recvtype, recvcounts, displs, root, comm,
			       request, SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Gatherv_init);

int PMPI_Scatter_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
		int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
		MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Scatter_init"), comm, "MPI_Scatter_init", info);

	if (err != MPI_SUCCESS)
		return err;
	return shl_coll_rooted("MPI_Scatter_init", true, false, false, sendbuf, sendcount, sendtype,
			       NULL, NULL, recvbuf, recvcount, recvtype, NULL, NULL, root, comm,
			       request, SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Scatter_init);

int PMPI_Scatterv_init(const void *sendbuf, const int sendcounts[], const int displs[],
		MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
		int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Scatterv_init"), comm, "MPI_Scatterv_init", info);

	if (err != MPI_SUCCESS)
		return err;
	return shl_coll_rooted("MPI_Scatterv_init", true, true, false, sendbuf, 0, sendtype,
			       sendcounts, displs, recvbuf, recvcount, recvtype, NULL, NULL, root,
			       comm, request, SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Scatterv_init);

int PMPI_Allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
		MPI_Info info, MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Allgather_init"), comm, "MPI_Allgather_init", info);

	if (err != MPI_SUCCESS)
		return err;
	return shl_coll_allgather("MPI_Allgather_init", false, false, sendbuf, sendcount, sendtype,
				  recvbuf, recvcount, NULL, NULL, recvtype, comm, request,
				  SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Allgather_init);

int PMPI_Allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		void *recvbuf, const int recvcounts[], const int displs[],
		MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Allgatherv_init"), comm, "MPI_Allgatherv_init", info);

	if (err != MPI_SUCCESS)
		return err;
	return shl_coll_allgather("MPI_Allgatherv_init", true, false, sendbuf, sendcount, sendtype,
				  recvbuf, 0, recvcounts, displs, recvtype, comm, request,
				  SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Allgatherv_init);

int PMPI_Alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
		MPI_Info info, MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Alltoall_init"), comm, "MPI_Alltoall_init", info);

	if (err != MPI_SUCCESS)
		return err;
	return shl_coll_alltoall("MPI_Alltoall_init", SHL_VEC_NONE, false, sendbuf, sendcount, NULL,
				 NULL, sendtype, NULL, recvbuf, recvcount, NULL, NULL, recvtype,
				 NULL, comm, request, SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Alltoall_init);

int PMPI_Alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
		MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
		const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
		MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Alltoallv_init"), comm, "MPI_Alltoallv_init", info);

	if (err != MPI_SUCCESS)
		return err;
	return shl_coll_alltoall("MPI_Alltoallv_init", SHL_VEC_V, false, sendbuf, 0, sendcounts,
				 sdispls, sendtype, NULL, recvbuf, 0, recvcounts, rdispls, recvtype,
				 NULL, comm, request, SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Alltoallv_init);

int PMPI_Alltoallw_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
		const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
		const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
		MPI_Info info, MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Alltoallw_init"), comm, "MPI_Alltoallw_init", info);

	if (err != MPI_SUCCESS)
		return err;
	return shl_coll_alltoall("MPI_Alltoallw_init", SHL_VEC_W, false, sendbuf, 0, sendcounts,
				 sdispls, NULL, sendtypes, recvbuf, 0, recvcounts, rdispls, NULL,
				 recvtypes, comm, request, SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Alltoallw_init);

/* ---- large-count forms (MPI 4.1): the same paths, MPI_Count/MPI_Aint arrays read in
 * place (struct shl_cargs.wide) ---- */

int PMPI_Bcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
	return shl_coll_bcast("MPI_Bcast_c", buffer, count, datatype, root, comm, NULL,
			      SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Bcast_c);

int PMPI_Ibcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
		  MPI_Request *request)
{
	return shl_coll_bcast("MPI_Ibcast_c", buffer, count, datatype, root, comm, request,
			      SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Ibcast_c);

int PMPI_Bcast_init_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
		      MPI_Info info, MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Bcast_init_c"), comm, "MPI_Bcast_init_c", info);

	if (err != MPI_SUCCESS)
		return err;
	return shl_coll_bcast("MPI_Bcast_init_c", buffer, count, datatype, root, comm, request,
			      SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Bcast_init_c);

int PMPI_Gather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
		  MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
	return shl_coll_rooted("MPI_Gather_c", false, false, true, sendbuf, sendcount, sendtype,
			       NULL, NULL, recvbuf, recvcount, recvtype, NULL, NULL, root, comm,
			       NULL, SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Gather_c);

int PMPI_Igather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
		   MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
		   MPI_Request *request)
{
	return shl_coll_rooted("MPI_Igather_c", false, false, true, sendbuf, sendcount, sendtype,
			       NULL, NULL, recvbuf, recvcount, recvtype, NULL, NULL, root, comm,
			       request, SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Igather_c);

int PMPI_Gather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
		       void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
		       MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Gather_init_c"), comm, "MPI_Gather_init_c", info);

	if (err != MPI_SUCCESS)
		return err;
	return shl_coll_rooted("MPI_Gather_init_c", false, false, true, sendbuf, sendcount,
			       sendtype, NULL, NULL, recvbuf, recvcount, recvtype, NULL, NULL, root,
			       comm, request, SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Gather_init_c);

int PMPI_Gatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
		   const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
		   int root, MPI_Comm comm)
{
	return shl_coll_rooted("MPI_Gatherv_c", false, true, true, sendbuf, sendcount, sendtype,
			       NULL, NULL, recvbuf, 0, recvtype, recvcounts, displs, root, comm,
			       NULL, SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Gatherv_c);

int PMPI_Igatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
		    const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
		    int root, MPI_Comm comm, MPI_Request *request)
{
	return shl_coll_rooted("MPI_Igatherv_c", false, true, true, sendbuf, sendcount, sendtype,
			       NULL, NULL, recvbuf, 0, recvtype, recvcounts, displs, root, comm,
			       request, SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Igatherv_c);

int PMPI_Gatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
			void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
			MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
			MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Gatherv_init_c"), comm, "MPI_Gatherv_init_c", info);

	if (err != MPI_SUCCESS)
		return err;
	return shl_coll_rooted("MPI_Gatherv_init_c", false, true, true, sendbuf, sendcount,
			       sendtype, NULL, NULL, recvbuf, 0, recvtype, recvcounts, displs, root,
			       comm, request, SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Gatherv_init_c);

int PMPI_Scatter_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
		   MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
	return shl_coll_rooted("MPI_Scatter_c", true, false, true, sendbuf, sendcount, sendtype,
			       NULL, NULL, recvbuf, recvcount, recvtype, NULL, NULL, root, comm,
			       NULL, SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Scatter_c);

int PMPI_Iscatter_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
		    MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
		    MPI_Request *request)
{
	return shl_coll_rooted("MPI_Iscatter_c", true, false, true, sendbuf, sendcount, sendtype,
			       NULL, NULL, recvbuf, recvcount, recvtype, NULL, NULL, root, comm,
			       request, SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Iscatter_c);

int PMPI_Scatter_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
			void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
			MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Scatter_init_c"), comm, "MPI_Scatter_init_c", info);

	if (err != MPI_SUCCESS)
		return err;
	return shl_coll_rooted("MPI_Scatter_init_c", true, false, true, sendbuf, sendcount,
			       sendtype, NULL, NULL, recvbuf, recvcount, recvtype, NULL, NULL, root,
			       comm, request, SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Scatter_init_c);

int PMPI_Scatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
		    MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
		    MPI_Datatype recvtype, int root, MPI_Comm comm)
{
	return shl_coll_rooted("MPI_Scatterv_c", true, true, true, sendbuf, 0, sendtype, sendcounts,
			       displs, recvbuf, recvcount, recvtype, NULL, NULL, root, comm, NULL,
			       SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Scatterv_c);

int PMPI_Iscatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
		     MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
		     MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
	return shl_coll_rooted("MPI_Iscatterv_c", true, true, true, sendbuf, 0, sendtype,
			       sendcounts, displs, recvbuf, recvcount, recvtype, NULL, NULL, root,
			       comm, request, SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Iscatterv_c);

int PMPI_Scatterv_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
			 MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
			 MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
			 MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Scatterv_init_c"), comm, "MPI_Scatterv_init_c", info);

	if (err != MPI_SUCCESS)
		return err;
	return shl_coll_rooted("MPI_Scatterv_init_c", true, true, true, sendbuf, 0, sendtype,
			       sendcounts, displs, recvbuf, recvcount, recvtype, NULL, NULL, root,
			       comm, request, SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Scatterv_init_c);

int PMPI_Allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
		     MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
	return shl_coll_allgather("MPI_Allgather_c", false, true, sendbuf, sendcount, sendtype,
				  recvbuf, recvcount, NULL, NULL, recvtype, comm, NULL,
				  SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Allgather_c);

int PMPI_Iallgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
		      void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
		      MPI_Request *request)
{
	return shl_coll_allgather("MPI_Iallgather_c", false, true, sendbuf, sendcount, sendtype,
				  recvbuf, recvcount, NULL, NULL, recvtype, comm, request,
				  SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Iallgather_c);

int PMPI_Allgather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
			  void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
			  MPI_Info info, MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Allgather_init_c"), comm, "MPI_Allgather_init_c", info);

	if (err != MPI_SUCCESS)
		return err;
	return shl_coll_allgather("MPI_Allgather_init_c", false, true, sendbuf, sendcount, sendtype,
				  recvbuf, recvcount, NULL, NULL, recvtype, comm, request,
				  SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Allgather_init_c);

int PMPI_Allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
		      void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
		      MPI_Datatype recvtype, MPI_Comm comm)
{
	return shl_coll_allgather("MPI_Allgatherv_c", true, true, sendbuf, sendcount, sendtype,
				  recvbuf, 0, recvcounts, displs, recvtype, comm, NULL,
				  SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Allgatherv_c);

int PMPI_Iallgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
		       void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
		       MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
	return shl_coll_allgather("MPI_Iallgatherv_c", true, true, sendbuf, sendcount, sendtype,
				  recvbuf, 0, recvcounts, displs, recvtype, comm, request,
				  SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Iallgatherv_c);

int PMPI_Allgatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
			   void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
			   MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
			   MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Allgatherv_init_c"), comm, "MPI_Allgatherv_init_c", info);

	if (err != MPI_SUCCESS)
		return err;
	return shl_coll_allgather("MPI_Allgatherv_init_c", true, true, sendbuf, sendcount, sendtype,
				  recvbuf, 0, recvcounts, displs, recvtype, comm, request,
				  SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Allgatherv_init_c);

int PMPI_Alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
		    MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
	return shl_coll_alltoall("MPI_Alltoall_c", SHL_VEC_NONE, true, sendbuf, sendcount, NULL,
				 NULL, sendtype, NULL, recvbuf, recvcount, NULL, NULL, recvtype,
				 NULL, comm, NULL, SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Alltoall_c);

int PMPI_Ialltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
		     MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
		     MPI_Request *request)
{
	return shl_coll_alltoall("MPI_Ialltoall_c", SHL_VEC_NONE, true, sendbuf, sendcount, NULL,
				 NULL, sendtype, NULL, recvbuf, recvcount, NULL, NULL, recvtype,
				 NULL, comm, request, SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Ialltoall_c);

int PMPI_Alltoall_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
			 void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
			 MPI_Info info, MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Alltoall_init_c"), comm, "MPI_Alltoall_init_c", info);

	if (err != MPI_SUCCESS)
		return err;
	return shl_coll_alltoall("MPI_Alltoall_init_c", SHL_VEC_NONE, true, sendbuf, sendcount,
				 NULL, NULL, sendtype, NULL, recvbuf, recvcount, NULL, NULL,
				 recvtype, NULL, comm, request, SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Alltoall_init_c);

int PMPI_Alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
		     MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
		     const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
	return shl_coll_alltoall("MPI_Alltoallv_c", SHL_VEC_V, true, sendbuf, 0, sendcounts,
				 sdispls, sendtype, NULL, recvbuf, 0, recvcounts, rdispls, recvtype,
				 NULL, comm, NULL, SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Alltoallv_c);

int PMPI_Ialltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
		      MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
		      const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
		      MPI_Request *request)
{
	return shl_coll_alltoall("MPI_Ialltoallv_c", SHL_VEC_V, true, sendbuf, 0, sendcounts,
				 sdispls, sendtype, NULL, recvbuf, 0, recvcounts, rdispls, recvtype,
				 NULL, comm, request, SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Ialltoallv_c);

int PMPI_Alltoallv_init_c(const void *sendbuf, const MPI_Count sendcounts[],
			  const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
			  const MPI_Count recvcounts[], const MPI_Aint rdispls[],
			  MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Alltoallv_init_c"), comm, "MPI_Alltoallv_init_c", info);

	if (err != MPI_SUCCESS)
		return err;
	return shl_coll_alltoall("MPI_Alltoallv_init_c", SHL_VEC_V, true, sendbuf, 0, sendcounts,
				 sdispls, sendtype, NULL, recvbuf, 0, recvcounts, rdispls, recvtype,
				 NULL, comm, request, SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Alltoallv_init_c);

int PMPI_Alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
		     const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
		     const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
	return shl_coll_alltoall("MPI_Alltoallw_c", SHL_VEC_W, true, sendbuf, 0, sendcounts,
				 sdispls, NULL, sendtypes, recvbuf, 0, recvcounts, rdispls, NULL,
				 recvtypes, comm, NULL, SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Alltoallw_c);

int PMPI_Ialltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
		      const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
		      const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
		      MPI_Request *request)
{
	return shl_coll_alltoall("MPI_Ialltoallw_c", SHL_VEC_W, true, sendbuf, 0, sendcounts,
				 sdispls, NULL, sendtypes, recvbuf, 0, recvcounts, rdispls, NULL,
				 recvtypes, comm, request, SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Ialltoallw_c);

int PMPI_Alltoallw_init_c(const void *sendbuf, const MPI_Count sendcounts[],
			  const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
			  const MPI_Count recvcounts[], const MPI_Aint rdispls[],
			  const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
			  MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Alltoallw_init_c"), comm, "MPI_Alltoallw_init_c", info);

	if (err != MPI_SUCCESS)
		return err;
	return shl_coll_alltoall("MPI_Alltoallw_init_c", SHL_VEC_W, true, sendbuf, 0, sendcounts,
				 sdispls, NULL, sendtypes, recvbuf, 0, recvcounts, rdispls, NULL,
				 recvtypes, comm, request, SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Alltoallw_init_c);
