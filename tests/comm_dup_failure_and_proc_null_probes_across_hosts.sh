#!/bin/bash
# comm_dup_failure_and_proc_null_probes_across_hosts: on 2 hosts (network namespaces), 4 ranks placed round-robin: a failing attribute copy callback gives MPI_COMM_NULL and its error from MPI_Comm_dup, _dup_with_info, _idup and _idup_with_info, and the parent then duplicates into a communicator that spans the hosts (the C test comm_dup_failed_copy_gives_comm_null), also when the callback fails on the odd ranks only (comm_dup_copy_failing_on_some_ranks_returns_everywhere); probes of MPI_PROC_NULL keep status.MPI_ERROR (probe_of_proc_null_leaves_status_error).
# timeout: 120
. "$SHOAL_TESTS/lib/common.bash"
. "$SHOAL_TESTS/lib/netns.bash"

tests="comm_dup_failed_copy_gives_comm_null comm_dup_copy_failing_on_some_ranks_returns_everywhere
probe_of_proc_null_leaves_status_error"

for t in $tests; do
	[ -x "$SHOAL_BUILD/tests/$t" ] || skip "$t is not built (make test-programs)"
done
netns_up 2
for t in $tests; do
	run -t 60 "${NETNS_MPIEXEC[@]}" -H "$(netns_hosts)" -ppn 2 -n 4 --map-by node \
		"$SHOAL_BUILD/tests/$t"
	expect_rc 0
done
exit 0
