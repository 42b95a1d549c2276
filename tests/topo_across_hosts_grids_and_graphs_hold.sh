#!/bin/bash
# topo_across_hosts_grids_and_graphs_hold: on 2 and 4 hosts (network namespaces), ranks by node and by slot, up to 16 ranks over 2 hosts (oversubscribed): Cartesian grids made with and without reorder answer every query consistently, shifts name the right neighbours and halo messages arrive from them, sub-grids, dup and split behave as on one node (topo_cart_queries_agree_and_neighbours_exchange); graphs and distributed graphs (the edges declared by other ranks reach both their ends across hosts) list their neighbours and carry messages along their edges (topo_graph_and_dist_graph_neighbours_match); and reorder cuts fewer grid edges between hosts than the identity when ranks alternate hosts.
# timeout: 300
. "$SHOAL_TESTS/lib/common.bash"
. "$SHOAL_TESTS/lib/netns.bash"

build cart < "$SHOAL_TESTS/topo_cart_queries_agree_and_neighbours_exchange.c"
build graph < "$SHOAL_TESTS/topo_graph_and_dist_graph_neighbours_match.c"

netns_up 4
hosts2=$(IFS=,; echo "${NS_HOSTS[*]:0:2}")
hosts4=$(netns_hosts)
while read -r hosts ppn np map; do
	for prog in cart graph; do
		run -t 120 "${NETNS_MPIEXEC[@]}" -H "$hosts" -ppn "$ppn" -n "$np" --map-by "$map" \
			"$TEST_TMP/$prog"
		[ "$RC" = 0 ] || { show; fail "$prog: $np ranks on $hosts ($ppn per host, by $map): exit $RC"; }
	done
	# The cart run's last output: rank 0's count of grid edges between hosts.
	run -t 120 "${NETNS_MPIEXEC[@]}" -H "$hosts" -ppn "$ppn" -n "$np" --map-by "$map" \
		"$TEST_TMP/cart"
	read -r identity reorder < <(sed -n 's/^cut 2d identity \([0-9]*\) reorder \([0-9]*\)$/\1 \2/p' "$OUT")
	[ -n "$reorder" ] || { show; fail "no cut line"; }
	echo "$np ranks, $ppn per host, by $map: grid edges between hosts: identity $identity, reorder $reorder"
	[ "$reorder" -le "$identity" ] || fail "$np ranks by $map: reorder cuts $reorder edges, identity $identity"
	if [ "$hosts" = "$hosts2" ] && [ "$map" = node ] && [ "$np" = 8 ]; then
		# 4x2 grid, ranks alternating 2 hosts: identity cuts every row (4), blocks 2.
		[ "$identity" = 4 ] && [ "$reorder" = 2 ] ||
			fail "8 ranks by node: cut identity $identity reorder $reorder, want 4 and 2"
	fi
done <<LIST
$hosts2 1 2 node
$hosts2 4 8 node
$hosts2 3 6 slot
$hosts4 2 8 node
$hosts4 3 12 slot
$hosts2 8 16 node
LIST
exit 0
