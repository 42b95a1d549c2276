#!/bin/bash
# unreachable_host_gives_clear_error: a job whose launcher cannot start a host's node process (the agent fails, or a node never connects back) ends (by mpiexec's launch limit when a node never connects back) with a non-zero status and a message naming the host and its ranks; a bad --launcher is refused.
. "$SHOAL_TESTS/lib/common.bash"

build hello <<'SRC'
#include <mpi.h>
int main(int argc, char **argv) { MPI_Init(&argc, &argv); MPI_Finalize(); return 0; }
SRC

# An agent that fails at once, as ssh does for an unknown host.
cat >"$TEST_TMP/agent" <<'EOF2'
#!/bin/sh
echo "agent: cannot reach $1" >&2
exit 255
EOF2
chmod +x "$TEST_TMP/agent"
run -t 60 "$MPIEXEC" --launcher-agent "$TEST_TMP/agent" -H nowhere:2 "$TEST_TMP/hello"
expect_nonzero
expect_err 'cannot start the node process on host nowhere \(ranks 0-1\): launcher exited with status 255'
expect_err 'agent: cannot reach nowhere'

# An agent that starts nothing and lingers past the test's limit: only mpiexec's launch
# limit (SHOAL_LAUNCH_TIMEOUT) ends the job.
cat >"$TEST_TMP/silent" <<'EOF2'
#!/bin/sh
exec sleep 600
EOF2
chmod +x "$TEST_TMP/silent"
run -t 60 env SHOAL_LAUNCH_TIMEOUT=2 "$MPIEXEC" --launcher-agent "$TEST_TMP/silent" -H quiet:1 "$TEST_TMP/hello"
expect_nonzero
expect_err 'node process on host quiet \(ranks 0\) did not connect back'

run "$MPIEXEC" --launcher pigeon -H a "$TEST_TMP/hello"
expect_rc 2
exit 0
