#!/bin/bash
# process_ranks_across_hosts: on 2 hosts (network namespaces), a #! script not built with mpicc runs as a process per rank on the host placement gives it (each rank sees its own namespace), with its rank, size and local rank, -x variables and --tag-output labels; stdin reaches rank 0 alone; a rank on the second host exiting 3 makes the job's status 3 and one killed by SIGSEGV is named with its host and gives 139; SIGTERM to mpiexec ends every rank and what it started, leaving no process in any namespace.
# timeout: 150
. "$SHOAL_TESTS/lib/common.bash"
. "$SHOAL_TESTS/lib/netns.bash"
cd "$TEST_TMP"

cat >rank.sh <<'SH'
#!/bin/bash
case "$1" in
where)
	echo "rank $SHOAL_RANK of $OMPI_COMM_WORLD_SIZE local $OMPI_COMM_WORLD_LOCAL_RANK of" \
		"$SHOAL_LOCAL_SIZE pmi $PMI_RANK x $SHL_X in $(ip netns identify $$)"
	echo "read $(wc -l) lines" ;;
three) [ "$SHOAL_RANK" = 3 ] && exit 3; exit 0 ;;
segv) [ "$SHOAL_RANK" = 3 ] && kill -SEGV $$; sleep 600 ;;
wait) echo "rank $SHOAL_RANK waiting"; sleep 600; echo "rank $SHOAL_RANK not stopped" ;;
esac
SH
chmod +x rank.sh

netns_up 2
h1=${NS_HOSTS[0]} h2=${NS_HOSTS[1]}
# Ranks 0, 1 on the first host, 2, 3 on the second (-ppn 2, by slot).
timeout -k 5 60 bash -c 'printf "a\nb\n" | "$@"' feed "${NETNS_MPIEXEC[@]}" -H "$(netns_hosts)" \
	-ppn 2 -x SHL_X=one --tag-output ./rank.sh where >"$OUT" 2>"$ERR"
RC=$?
expect_rc 0
expect_out_count "^\[1,0\]<stdout>:rank 0 of 4 local 0 of 2 pmi 0 x one in $h1\$" 1
expect_out_count "^\[1,1\]<stdout>:rank 1 of 4 local 1 of 2 pmi 1 x one in $h1\$" 1
expect_out_count "^\[1,2\]<stdout>:rank 2 of 4 local 0 of 2 pmi 2 x one in $h2\$" 1
expect_out_count "^\[1,3\]<stdout>:rank 3 of 4 local 1 of 2 pmi 3 x one in $h2\$" 1
expect_out_count '^\[1,0\]<stdout>:read 2 lines$' 1
expect_out_count '^\[1,[123]\]<stdout>:read 0 lines$' 3

run -t 60 "${NETNS_MPIEXEC[@]}" -H "$(netns_hosts)" -ppn 2 ./rank.sh three
expect_rc 3
expect_err '^shoal: rank 3 exited with code 3$'
netns_nothing_left three

run -t 60 "${NETNS_MPIEXEC[@]}" -H "$(netns_hosts)" -ppn 2 ./rank.sh segv
expect_rc 139
expect_err "^shoal: rank 3 on host $h2: killed by signal SIGSEGV"
netns_nothing_left segv

"${NETNS_MPIEXEC[@]}" -H "$(netns_hosts)" -ppn 2 ./rank.sh wait >"$OUT" 2>"$ERR" </dev/null &
pid=$!
await_out_count waiting 4 || { kill -KILL $pid; show; fail "the job did not start"; }
kill -TERM $pid
await_exit $pid "mpiexec runs a minute after SIGTERM"
expect_nonzero
grep -q 'not stopped' "$OUT" && { show; fail "a rank went on after SIGTERM"; }
netns_nothing_left SIGTERM
exit 0
