/* hw_resource_info_and_pcontrol: MPI_Get_hw_resource_info gives a new info object (freed
 * by the caller) whose "mpi_hw_resource_type" is "mpi_shared_memory", the level
 * MPI_Comm_split_type's MPI_COMM_TYPE_HW_GUIDED then splits by (the ranks of the node),
 * with the host's name and CPU counts; MPI_Pcontrol returns MPI_SUCCESS at every level. */
/* ranks: 1 2 4 16 64 */
#include <stdlib.h>
#include <string.h>

#include "check.h"

int main(int argc, char **argv)
{
	MPI_Info hw;
	MPI_Comm node, guided;
	char value[MPI_MAX_INFO_VAL], host[MPI_MAX_PROCESSOR_NAME];
	int flag, len, node_size, guided_size, res;

	CHECK_INT(MPI_Pcontrol(1), MPI_SUCCESS);
	CHECK_MPI(MPI_Init(&argc, &argv));
	CHECK_INT(MPI_Pcontrol(0), MPI_SUCCESS);
	CHECK_INT(MPI_Pcontrol(2, "ignored"), MPI_SUCCESS);
	CHECK_MPI(MPI_Get_hw_resource_info(&hw));
	CHECK(hw != MPI_INFO_NULL);
	len = sizeof value;
	CHECK_MPI(MPI_Info_get_string(hw, "mpi_hw_resource_type", &len, value, &flag));
	CHECK_INT(flag, 1);
	CHECK_STR(value, "mpi_shared_memory");
	len = sizeof value;
	CHECK_MPI(MPI_Info_get_string(hw, "shoal_host", &len, value, &flag));
	CHECK_INT(flag, 1);
	CHECK_MPI(MPI_Get_processor_name(host, &len));
	CHECK_STR(value, host);
	len = sizeof value;
	CHECK_MPI(MPI_Info_get_string(hw, "shoal_cpus_online", &len, value, &flag));
	CHECK_INT(flag, 1);
	CHECK_CMP(atoi(value), >=, 1);
	len = sizeof value;
	CHECK_MPI(MPI_Info_get_string(hw, "shoal_cpus_allowed", &len, value, &flag));
	CHECK_INT(flag, 1);
	CHECK_CMP(atoi(value), >=, 1);

	/* The type it names is one MPI_COMM_TYPE_HW_GUIDED splits by. */
	CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL,
				      &node));
	CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, 0, hw, &guided));
	CHECK(guided != MPI_COMM_NULL);
	MPI_Comm_size(node, &node_size);
	MPI_Comm_size(guided, &guided_size);
	CHECK_INT(guided_size, node_size);
	CHECK_MPI(MPI_Comm_compare(node, guided, &res));
	CHECK_INT(res, MPI_CONGRUENT);
	CHECK_MPI(MPI_Comm_free(&guided));
	CHECK_MPI(MPI_Comm_free(&node));
	CHECK_MPI(MPI_Info_free(&hw));
	CHECK(hw == MPI_INFO_NULL);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
