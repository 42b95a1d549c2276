/* MPI_Get_hw_resource_info (MPI 4.1, 11.4.1): an info object describing the hardware the
 * calling rank runs on, made fresh at each call for the caller to free. Keys (also in
 * docs/architecture.md, "Hardware resources"):
 *   mpi_hw_resource_type  "mpi_shared_memory": the hardware level MPI_Comm_split_type's
 *                         MPI_COMM_TYPE_HW_GUIDED splits by (the ranks of a node share
 *                         its memory; no finer level is offered);
 *   shoal_host            the host's name (MPI_Get_processor_name's);
 *   shoal_cpus_online     the host's online CPUs;
 *   shoal_cpus_allowed    the CPUs the calling thread may run on (its affinity mask).
 * Entered by rank threads; calls only the public info functions. */
#include <sched.h>
#include <stdio.h>
#include <unistd.h>

#include "runtime/core/rt.h"

int PMPI_Get_hw_resource_info(MPI_Info *hw_info)
{
	const char *fn = "MPI_Get_hw_resource_info";
	char host[MPI_MAX_PROCESSOR_NAME], online[24], allowed[24];
	cpu_set_t set;
	MPI_Info info;
	int len, err;

	shl_rank_or_die(fn);
	if (hw_info == NULL)
		return shl_err(NULL, MPI_ERR_ARG, fn, "hw_info is NULL");
	if (PMPI_Get_processor_name(host, &len) != MPI_SUCCESS)
		snprintf(host, sizeof host, "unknown");
	snprintf(online, sizeof online, "%ld", sysconf(_SC_NPROCESSORS_ONLN));
	snprintf(allowed, sizeof allowed, "%d",
		 sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 0);
	err = PMPI_Info_create(&info);
	if (err != MPI_SUCCESS)
		return err;
	if ((err = PMPI_Info_set(info, "mpi_hw_resource_type", "mpi_shared_memory")) ||
	    (err = PMPI_Info_set(info, "shoal_host", host)) ||
	    (err = PMPI_Info_set(info, "shoal_cpus_online", online)) ||
	    (err = PMPI_Info_set(info, "shoal_cpus_allowed", allowed))) {
		PMPI_Info_free(&info);
		return err;
	}
	*hw_info = info;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Get_hw_resource_info);
