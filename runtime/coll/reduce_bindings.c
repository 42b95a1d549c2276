/* The MPI bindings of the collectives that combine data (coll/reduce.c): Reduce,
 * Allreduce, Reduce_scatter(_block), Scan, Exscan, blocking and nonblocking (MPI_I…),
 * persistent (MPI_…_init, started by MPI_Start) and in their large-count (…_c) forms.
 * Entered by rank threads (the user's calls). Each names its call and passes its arguments
 * on to the collective's entry; it checks only what the entry cannot tell apart (an
 * …_init form's info, Reduce_scatter's recvcounts pointer): must not decide anything. */
#include "runtime/coll/internal.h"

/* ---- blocking and nonblocking ---- */

int PMPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
		int root, MPI_Comm comm)
{
	return shl_coll_reduce("MPI_Reduce", sendbuf, recvbuf, count, datatype, op, root, comm,
			       NULL, SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Reduce);

int PMPI_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
		 MPI_Op op, int root, MPI_Comm comm, MPI_Request *request)
{
	return shl_coll_reduce("MPI_Ireduce", sendbuf, recvbuf, count, datatype, op, root, comm,
			       request, SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Ireduce);

int PMPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
		   MPI_Op op, MPI_Comm comm)
{
	return shl_coll_symmetric("MPI_Allreduce", shl_coll_allreduce_run, false, sendbuf, recvbuf,
				  count, datatype, op, comm, NULL, SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Allreduce);

int PMPI_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
		    MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
	return shl_coll_symmetric("MPI_Iallreduce", shl_coll_allreduce_run, false, sendbuf, recvbuf,
				  count, datatype, op, comm, request, SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Iallreduce);

int PMPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
	      MPI_Comm comm)
{
	return shl_coll_symmetric("MPI_Scan", shl_coll_scan_run, true, sendbuf, recvbuf, count,
				  datatype, op, comm, NULL, SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Scan);

int PMPI_Iscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
	       MPI_Comm comm, MPI_Request *request)
{
	return shl_coll_symmetric("MPI_Iscan", shl_coll_scan_run, true, sendbuf, recvbuf, count,
				  datatype, op, comm, request, SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Iscan);

int PMPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
		MPI_Comm comm)
{
	return shl_coll_symmetric("MPI_Exscan", shl_coll_exscan_run, true, sendbuf, recvbuf, count,
				  datatype, op, comm, NULL, SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Exscan);

int PMPI_Iexscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
		 MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
	return shl_coll_symmetric("MPI_Iexscan", shl_coll_exscan_run, true, sendbuf, recvbuf, count,
				  datatype, op, comm, request, SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Iexscan);

int PMPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
			MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
	if (recvcounts == NULL)
		return shl_err(NULL, MPI_ERR_ARG, "MPI_Reduce_scatter", "recvcounts is NULL");
	return shl_coll_reduce_scatter("MPI_Reduce_scatter", false, sendbuf, recvbuf, 0, recvcounts,
				       datatype, op, comm, NULL, SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Reduce_scatter);

int PMPI_Ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
			 MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
	if (recvcounts == NULL)
		return shl_err(NULL, MPI_ERR_ARG, "MPI_Ireduce_scatter", "recvcounts is NULL");
	return shl_coll_reduce_scatter("MPI_Ireduce_scatter", false, sendbuf, recvbuf, 0,
				       recvcounts, datatype, op, comm, request,
				       SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Ireduce_scatter);

int PMPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
			      MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
	return shl_coll_reduce_scatter("MPI_Reduce_scatter_block", false, sendbuf, recvbuf,
				       recvcount, NULL, datatype, op, comm, NULL,
				       SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Reduce_scatter_block);

int PMPI_Ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
			       MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
			       MPI_Request *request)
{
	return shl_coll_reduce_scatter("MPI_Ireduce_scatter_block", false, sendbuf, recvbuf,
				       recvcount, NULL, datatype, op, comm, request,
				       SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Ireduce_scatter_block);

/* ---- persistent collectives (MPI 4.1, 6.13): MPI_…_init, started by MPI_Start ---- */

int PMPI_Reduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
		MPI_Op op, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Reduce_init"), comm, "MPI_Reduce_init", info);

	if (err != MPI_SUCCESS)
		return err;
	return shl_coll_reduce("MPI_Reduce_init", sendbuf, recvbuf, count, datatype, op, root, comm,
			       request, SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Reduce_init);

int PMPI_Allreduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
		MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Allreduce_init"), comm, "MPI_Allreduce_init", info);

	if (err != MPI_SUCCESS)
		return err;
	return shl_coll_symmetric("MPI_Allreduce_init", shl_coll_allreduce_run, false, sendbuf,
				  recvbuf, count, datatype, op, comm, request, SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Allreduce_init);

int PMPI_Reduce_scatter_init(const void *sendbuf, void *recvbuf, const int recvcounts[],
		MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
		MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Reduce_scatter_init"), comm, "MPI_Reduce_scatter_init", info);

	if (recvcounts == NULL)
		return shl_err(NULL, MPI_ERR_ARG, "MPI_Reduce_scatter_init", "recvcounts is NULL");
	if (err != MPI_SUCCESS)
		return err;
	return shl_coll_reduce_scatter("MPI_Reduce_scatter_init", false, sendbuf, recvbuf, 0,
				       recvcounts, datatype, op, comm, request,
				       SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Reduce_scatter_init);

int PMPI_Reduce_scatter_block_init(const void *sendbuf, void *recvbuf, int recvcount,
		MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
		MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Reduce_scatter_block_init"), comm, "MPI_Reduce_scatter_block_init", info);

	if (err != MPI_SUCCESS)
		return err;
	return shl_coll_reduce_scatter("MPI_Reduce_scatter_block_init", false, sendbuf, recvbuf,
				       recvcount, NULL, datatype, op, comm, request,
				       SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Reduce_scatter_block_init);

int PMPI_Scan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
		MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Scan_init"), comm, "MPI_Scan_init", info);

	if (err != MPI_SUCCESS)
		return err;
	return shl_coll_symmetric("MPI_Scan_init", shl_coll_scan_run, true, sendbuf, recvbuf, count,
				  datatype, op, comm, request, SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Scan_init);

int PMPI_Exscan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
		MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Exscan_init"), comm, "MPI_Exscan_init", info);

	if (err != MPI_SUCCESS)
		return err;
	return shl_coll_symmetric("MPI_Exscan_init", shl_coll_exscan_run, true, sendbuf, recvbuf,
				  count, datatype, op, comm, request, SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Exscan_init);

/* ---- large-count forms (MPI 4.1): the same paths, MPI_Count/MPI_Aint arrays read in
 * place (struct shl_cargs.wide) ---- */

int PMPI_Reduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
		  MPI_Op op, int root, MPI_Comm comm)
{
	return shl_coll_reduce("MPI_Reduce_c", sendbuf, recvbuf, count, datatype, op, root, comm,
			       NULL, SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Reduce_c);

int PMPI_Ireduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
		   MPI_Op op, int root, MPI_Comm comm, MPI_Request *request)
{
	return shl_coll_reduce("MPI_Ireduce_c", sendbuf, recvbuf, count, datatype, op, root, comm,
			       request, SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Ireduce_c);

int PMPI_Reduce_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
		       MPI_Op op, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Reduce_init_c"), comm, "MPI_Reduce_init_c", info);

	if (err != MPI_SUCCESS)
		return err;
	return shl_coll_reduce("MPI_Reduce_init_c", sendbuf, recvbuf, count, datatype, op, root,
			       comm, request, SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Reduce_init_c);

int PMPI_Allreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
		     MPI_Op op, MPI_Comm comm)
{
	return shl_coll_symmetric("MPI_Allreduce_c", shl_coll_allreduce_run, false, sendbuf,
				  recvbuf, count, datatype, op, comm, NULL, SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Allreduce_c);

int PMPI_Iallreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
		      MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
	return shl_coll_symmetric("MPI_Iallreduce_c", shl_coll_allreduce_run, false, sendbuf,
				  recvbuf, count, datatype, op, comm, request,
				  SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Iallreduce_c);

int PMPI_Allreduce_init_c(const void *sendbuf, void *recvbuf, MPI_Count count,
			  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
			  MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Allreduce_init_c"), comm, "MPI_Allreduce_init_c", info);

	if (err != MPI_SUCCESS)
		return err;
	return shl_coll_symmetric("MPI_Allreduce_init_c", shl_coll_allreduce_run, false, sendbuf,
				  recvbuf, count, datatype, op, comm, request, SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Allreduce_init_c);

int PMPI_Reduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
			  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
	if (recvcounts == NULL)
		return shl_err(NULL, MPI_ERR_ARG, "MPI_Reduce_scatter_c", "recvcounts is NULL");
	return shl_coll_reduce_scatter("MPI_Reduce_scatter_c", true, sendbuf, recvbuf, 0,
				       recvcounts, datatype, op, comm, NULL, SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Reduce_scatter_c);

int PMPI_Ireduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
			   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
	if (recvcounts == NULL)
		return shl_err(NULL, MPI_ERR_ARG, "MPI_Ireduce_scatter_c", "recvcounts is NULL");
	return shl_coll_reduce_scatter("MPI_Ireduce_scatter_c", true, sendbuf, recvbuf, 0,
				       recvcounts, datatype, op, comm, request,
				       SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Ireduce_scatter_c);

int PMPI_Reduce_scatter_init_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
			       MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
			       MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Reduce_scatter_init_c"), comm, "MPI_Reduce_scatter_init_c", info);

	if (recvcounts == NULL)
		return shl_err(NULL, MPI_ERR_ARG, "MPI_Reduce_scatter_init_c", "recvcounts is NULL");
	if (err != MPI_SUCCESS)
		return err;
	return shl_coll_reduce_scatter("MPI_Reduce_scatter_init_c", true, sendbuf, recvbuf, 0,
				       recvcounts, datatype, op, comm, request,
				       SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Reduce_scatter_init_c);

int PMPI_Reduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
				MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
	return shl_coll_reduce_scatter("MPI_Reduce_scatter_block_c", true, sendbuf, recvbuf,
				       recvcount, NULL, datatype, op, comm, NULL,
				       SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Reduce_scatter_block_c);

int PMPI_Ireduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
				 MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
				 MPI_Request *request)
{
	return shl_coll_reduce_scatter("MPI_Ireduce_scatter_block_c", true, sendbuf, recvbuf,
				       recvcount, NULL, datatype, op, comm, request,
				       SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Ireduce_scatter_block_c);

int PMPI_Reduce_scatter_block_init_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
				     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
				     MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Reduce_scatter_block_init_c"), comm, "MPI_Reduce_scatter_block_init_c", info);

	if (err != MPI_SUCCESS)
		return err;
	return shl_coll_reduce_scatter("MPI_Reduce_scatter_block_init_c", true, sendbuf, recvbuf,
				       recvcount, NULL, datatype, op, comm, request,
				       SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Reduce_scatter_block_init_c);

int PMPI_Scan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
		MPI_Op op, MPI_Comm comm)
{
	return shl_coll_symmetric("MPI_Scan_c", shl_coll_scan_run, true, sendbuf, recvbuf, count,
				  datatype, op, comm, NULL, SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Scan_c);

int PMPI_Iscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
		 MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
	return shl_coll_symmetric("MPI_Iscan_c", shl_coll_scan_run, true, sendbuf, recvbuf, count,
				  datatype, op, comm, request, SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Iscan_c);

int PMPI_Scan_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
		     MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Scan_init_c"), comm, "MPI_Scan_init_c", info);

	if (err != MPI_SUCCESS)
		return err;
	return shl_coll_symmetric("MPI_Scan_init_c", shl_coll_scan_run, true, sendbuf, recvbuf,
				  count, datatype, op, comm, request, SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Scan_init_c);

int PMPI_Exscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
		  MPI_Op op, MPI_Comm comm)
{
	return shl_coll_symmetric("MPI_Exscan_c", shl_coll_exscan_run, true, sendbuf, recvbuf,
				  count, datatype, op, comm, NULL, SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Exscan_c);

int PMPI_Iexscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
		   MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
	return shl_coll_symmetric("MPI_Iexscan_c", shl_coll_exscan_run, true, sendbuf, recvbuf,
				  count, datatype, op, comm, request, SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Iexscan_c);

int PMPI_Exscan_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
		       MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Exscan_init_c"), comm, "MPI_Exscan_init_c", info);

	if (err != MPI_SUCCESS)
		return err;
	return shl_coll_symmetric("MPI_Exscan_init_c", shl_coll_exscan_run, true, sendbuf, recvbuf,
				  count, datatype, op, comm, request, SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Exscan_init_c);
