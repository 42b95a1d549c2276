#!/bin/bash
# layers_go_down: the runtime's folders call only down the layers core < datatype < comm <
# p2p < coll < rma < file < session < fortran. A file in runtime/<folder> includes headers of its own folder and lower ones
# only (core/rt.h, the object model, may include datatype/datatype.h and comm/comm.h), and
# every function an object of runtime/<folder> calls in a higher folder is declared in the
# hooks.h of its folder or of a lower one (core/hooks.h, datatype/hooks.h): the upcalls are
# named, each in one list. The include rule reads the sources; the call rule reads the
# objects of the build ($SHOAL_BUILD/obj), and is skipped where the build has none.
. "$SHOAL_TESTS/lib/common.bash"
root=$(cd "$SHOAL_TESTS/.." && pwd)
command -v nm >/dev/null && command -v perl >/dev/null || skip "no nm or perl"

# Known exceptions, each "file -> what it reaches": p2p/remote.c, the transport's side of
# point-to-point, starts the collectives' network state when the job connects
# (shl_coll_net_init, coll/net.h). It is to become a hook or move down, and leave this list.
include_exceptions="
p2p/remote.c -> runtime/coll/net.h
"
call_exceptions="
p2p/remote.o -> shl_coll_net_init
"

folders="core datatype comm p2p coll rma file session fortran"
level() {
	local i=0 f
	for f in $folders; do
		[ "$f" = "$1" ] && { echo $i; return; }
		i=$((i + 1))
	done
	echo -1
}

for f in $folders; do
	[ -d "$root/runtime/$f" ] || fail "runtime/$f is missing: update this test's folder list"
done
for d in "$root"/runtime/*/; do
	d=${d%/}
	[ "$(level "${d##*/}")" -ge 0 ] || fail "runtime/${d##*/} has no place in this test's folder list"
done

# The awk programs' start: lvl[folder], 1 for the lowest, from `order` ($folders), and
# skip["file -> what"] for each line of `exceptions`.
layers_awk='
	BEGIN {
		n = split(order, o, " ")
		for (i = 1; i <= n; i++)
			lvl[o[i]] = i
		m = split(exceptions, e, "\n")
		for (i = 1; i <= m; i++)
			if (e[i] != "")
				skip[e[i]] = 1
	}'

bad=()

# Includes go down.
while read -r line; do
	[ -n "$line" ] && bad+=("$line")
done < <(cd "$root" && grep -H '^[[:space:]]*#[[:space:]]*include[[:space:]]*"runtime/[a-z0-9_]*/' runtime/*/*.[ch] |
	sed 's@^runtime/\([^:]*\):.*"\(runtime/[^"]*\)".*@\1 \2@' |
	awk -v order="$folders" -v exceptions="$include_exceptions" "$layers_awk"'
		BEGIN {
			skip["core/rt.h -> runtime/datatype/datatype.h"] = 1
			skip["core/rt.h -> runtime/comm/comm.h"] = 1
		}
		{
			split($1, from, "/")
			split($2, to, "/")
			if (lvl[to[2]] > lvl[from[1]] && !(($1 " -> " $2) in skip))
				printf "runtime/%s includes %s, a higher layer'"'"'s header\n", $1, $2
		}')

# Calls go down, or through a hook.
objs=$SHOAL_BUILD/obj/runtime
if [ -d "$objs" ]; then
	# One line per symbol: "def FOLDER SYMBOL" or "use FOLDER OBJECT SYMBOL".
	list=()
	for src in "$root"/runtime/*/*.c; do
		rel=${src#"$root"/runtime/}
		obj=${rel%.c}.o
		[ -f "$objs/$obj" ] || fail "no object $objs/$obj for runtime/$rel: run make all"
		list+=("$obj")
	done
	(cd "$objs" && nm -A "${list[@]}") | awk '
		{ split($1, p, ":"); split(p[1], f, "/") }
		NF == 3 && $2 == "U" { print "use", f[1], p[1], $3 }
		NF == 3 && $2 ~ /^[TDBRC]$/ { print "def", f[1], $3 }' >"$TEST_TMP/symbols"
	# The names each folder's hooks.h declares: "hook FOLDER SYMBOL".
	for h in "$root"/runtime/*/hooks.h; do
		f=${h%/hooks.h}
		perl -0777 -pe 's{/\*.*?\*/}{}gs' "$h" |
			grep -Eo '[A-Za-z_][A-Za-z0-9_]*[[:space:]]*(\(|;)' | grep -Eo '^[A-Za-z_][A-Za-z0-9_]*' |
			sed "s@^@hook ${f##*/} @"
	done >>"$TEST_TMP/symbols"
	while read -r line; do
		[ -n "$line" ] && bad+=("$line")
	done < <(awk -v order="$folders" -v exceptions="$call_exceptions" "$layers_awk"'
		$1 == "def" { owner[$3] = $2 }
		$1 == "hook" { if (!($3 in hooklvl) || lvl[$2] < hooklvl[$3]) hooklvl[$3] = lvl[$2] }
		$1 == "use" { nu++; uf[nu] = $2; uo[nu] = $3; us[nu] = $4 }
		END {
			for (i = 1; i <= nu; i++) {
				s = us[i]; to = owner[s]
				if (to == "" || lvl[to] <= lvl[uf[i]])
					continue
				if ((uo[i] " -> " s) in skip)
					continue
				if ((s in hooklvl) && hooklvl[s] <= lvl[uf[i]])
					continue
				printf "runtime/%s calls %s of runtime/%s, which no hooks.h of its layer or below declares\n",
					substr(uo[i], 1, length(uo[i]) - 2) ".c", s, to
			}
		}' "$TEST_TMP/symbols" | sort -u)
else
	echo "no objects in $objs: the call rule is not checked"
fi

if [ ${#bad[@]} -gt 0 ]; then
	printf '%s\n' "${bad[@]}"
	fail "${#bad[@]} references go up the layers"
fi
echo "every include and call goes down the layers or through a hook"
