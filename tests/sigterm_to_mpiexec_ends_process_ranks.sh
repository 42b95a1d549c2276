#!/bin/bash
# sigterm_to_mpiexec_ends_process_ranks: SIGTERM (and SIGINT) to mpiexec running ranks that are processes (a #! script that waits on a child command) ends every rank and the commands they started, leaves no process with the job's marker behind, and mpiexec ends with 128+signal; with 8 ranks on one node and on nodes started by --launcher local.
# timeout: 150
. "$SHOAL_TESTS/lib/common.bash"
cd "$TEST_TMP"
marker=stopme_$$_$RANDOM

cat >wait.sh <<'SH'
#!/bin/bash
echo "rank $SHOAL_RANK waiting"
(exec -a "$1" sleep 600)  # a command the rank waits on: it must end too
echo "rank $SHOAL_RANK not stopped"
SH
chmod +x wait.sh

# stop SIGNAL WHERE...: start the job, wait for every rank, send SIGNAL to mpiexec.
stop() {
	local sig=$1 pid
	shift
	"$MPIEXEC" "$@" ./wait.sh "$marker" >"$OUT" 2>"$ERR" </dev/null &
	pid=$!
	await_out_count waiting 8 || { kill -KILL $pid; show; fail "$*: the job did not start"; }
	for _ in $(seq 600); do  # every rank's child runs
		[ "$(pgrep -fc "^$marker")" = 8 ] && break
		sleep 0.1
	done
	kill -"$sig" $pid
	await_exit $pid "$*: mpiexec runs a minute after SIG$sig"
	for _ in $(seq 600); do
		pgrep -f "$marker" >/dev/null || break
		sleep 0.1
	done
	pgrep -af "$marker" && { pkill -KILL -f "$marker"; fail "$*: processes left after SIG$sig"; }
	grep -q 'not stopped' "$OUT" && { show; fail "$*: a rank went on after SIG$sig"; }
	return 0
}

stop TERM -n 8
expect_rc 143
stop INT -n 8
expect_rc 130
stop TERM --launcher local -H a:4,b:4
expect_rc 143
exit 0
