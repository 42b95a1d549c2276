#!/bin/bash
# lib_search_matches_the_dynamic_linker: shl_lib_search (loader/lib_search.c) finds, for every DT_NEEDED of a program's closure, the file the dynamic linker loads, as ldd and LD_TRACE_LOADED_OBJECTS print it: system programs and libraries (through /etc/ld.so.cache), RPATH inherited down the loader chain and RUNPATH not, $ORIGIN of a program run directly and through a link as ld.so's argument, LD_LIBRARY_PATH (empty, relative and $ORIGIN entries) before and after each, $LIB and $PLATFORM, glibc-hwcaps and legacy hwcaps subdirectories, files of another class or machine passed over, a list ended by a name it cannot open, names with a slash; a file ld.so stops at is reported.
# timeout: 240
. "$SHOAL_TESTS/lib/common.bash"
root=$(cd "$SHOAL_TESTS/.." && pwd)
command -v ldd >/dev/null && command -v cc >/dev/null || skip "no ldd or cc"
unset LD_PRELOAD LD_LIBRARY_PATH
T=$TEST_TMP
walk=$T/walk
cc -std=c17 -O1 -g -D_GNU_SOURCE -I"$root" -o "$walk" "$root/tests/lib/lib_search_walk.c" \
	"$root/loader/lib_search.c" -lelf -lpthread >"$T/walk.build" 2>&1 ||
	{ cat "$T/walk.build"; fail "cannot build the walk driver"; }
differ=0

# The dynamic linker's trace without load addresses, the vDSO and ld.so itself.
trace() {
	sed -e 's/^\t//' -e 's/ (0x[0-9a-f]*)$//' |
		grep -v -e '^linux-vdso\.so\.1$' -e '^/lib64/ld-linux-x86-64\.so\.2$' -e '^statically linked'
}

# compare WHAT EXPECTED-FILE WALK-ARGS...: the walk must print EXPECTED-FILE's lines.
compare() {
	local what=$1 expected=$2
	shift 2
	"$walk" "$@" >"$T/got" 2>"$T/got.err"
	if ! diff -u "$expected" "$T/got" >"$T/diff"; then
		echo "DIFFERS: $what (- dynamic linker, + shl_lib_search)"
		cat "$T/diff" "$T/got.err"
		differ=$((differ + 1))
	elif [ ! -s "$expected" ]; then
		echo "EMPTY: $what: the dynamic linker listed nothing"
		differ=$((differ + 1))
	fi
}

# as_ldd OBJECT: as ld.so's argument (ldd); as_run PROGRAM: run directly, ld.so tracing.
as_ldd() {
	ldd "$1" 2>/dev/null | trace >"$T/want"
	compare "ldd $1 (LD_LIBRARY_PATH=${LD_LIBRARY_PATH-}, in $PWD)" "$T/want" -r "$1"
}
as_run() {
	LD_TRACE_LOADED_OBJECTS=1 "$1" 2>/dev/null | trace >"$T/want"
	compare "$1 run (LD_LIBRARY_PATH=${LD_LIBRARY_PATH-}, in $PWD)" "$T/want" "$1"
}

# --- System programs and the libraries they load (through the cache).
checked=0
for p in /usr/bin/python3 /usr/bin/gdb /usr/bin/cmake /usr/bin/clang /usr/bin/ssh; do
	[ -x "$p" ] || continue
	as_ldd "$p"
	as_run "$p"
	checked=$((checked + 1))
done
[ "$checked" -ge 2 ] || skip "fewer than two of python3, gdb, cmake, clang, ssh installed"
# (libc.so.6 needs only ld.so: nothing to compare.)
for lib in $(ldd /usr/bin/gdb 2>/dev/null | grep -v libc.so.6 | sed -n 's/.* => \(\/[^ ]*\) .*/\1/p' | head -n 6); do
	as_ldd "$lib"
done

# --- Programs and libraries of our own.
echo 'int main(void) { return 0; }' >"$T/main.c"
lib() { # lib DIR NAME [cc args...]: DIR/NAME.so with soname NAME.so, a function NAME_f.
	local dir=$1 name=$2
	shift 2
	mkdir -p "$dir"
	echo "int ${name//[^a-z0-9]/_}_f(void) { return 1; }" >"$T/lib.c"
	cc -shared -fPIC -Wl,--no-as-needed -Wl,-soname,"$name.so" -o "$dir/$name.so" "$T/lib.c" "$@" ||
		fail "cannot build $dir/$name.so"
}
prog() { # prog PATH cc-args...
	local out=$1
	shift
	mkdir -p "$(dirname "$out")"
	cc -o "$out" "$T/main.c" -Wl,--no-as-needed "$@" || fail "cannot build $out"
}

# libb is needed by liba only: the program's RPATH finds it (RPATH is searched up the
# chain of loaders), its RUNPATH does not.
lib "$T/app/lib" libb
lib "$T/app/lib" liba -L"$T/app/lib" -lb
prog "$T/app/bin/rpath" -L"$T/app/lib" -la -Wl,-rpath,'$ORIGIN/../lib' -Wl,--disable-new-dtags
prog "$T/app/bin/runpath" -L"$T/app/lib" -la -Wl,-rpath,'$ORIGIN/../lib' -Wl,--enable-new-dtags
# Other copies in LD_LIBRARY_PATH's directories: it comes after RPATH, before RUNPATH.
lib "$T/llp" liba -L"$T/app/lib" -lb
lib "$T/llp" libb
lib "$T/cwd" libb
lib "$T/cwd/rel" liba -L"$T/app/lib" -lb
lib "$T/app/llp2" libb

# A link to a program: run directly, $ORIGIN is the program's directory; as ld.so's
# argument, the link's.
mkdir -p "$T/link"
ln -s ../app/bin/runpath "$T/link/runpath"

# $LIB and $PLATFORM: the file is in every platform's directory; ld.so takes its own.
lib "$T/tok/lib/x86_64-linux-gnu" libtok
for plat in x86_64 haswell xeon_phi; do lib "$T/tok/plat/$plat" libplat; done
prog "$T/tok/bin/tokens" -L"$T/tok/lib/x86_64-linux-gnu" -L"$T/tok/plat/x86_64" -ltok -lplat \
	-Wl,-rpath,'$ORIGIN/../$LIB:${ORIGIN}/../plat/$PLATFORM'

# hwcaps subdirectories before the directory itself: glibc-hwcaps (the levels this CPU has),
# legacy tls and x86_64.
lib "$T/hw" libh
for level in x86-64-v2 x86-64-v3 x86-64-v4; do lib "$T/hw/glibc-hwcaps/$level" libh; done
lib "$T/hw" libleg
lib "$T/hw/x86_64" libleg
lib "$T/hw/tls" libt
lib "$T/hw" libt
prog "$T/hw/hwcaps" -L"$T/hw" -lh -lleg -lt -Wl,-rpath,"$T/hw"

# Files of the other ELF class, or another machine, come first and are passed over.
lib "$T/good" libc32
lib "$T/good" libarm
lib "$T/bad" libc32
lib "$T/bad" libarm
printf '\001' | dd of="$T/bad/libc32.so" bs=1 seek=4 conv=notrunc status=none
printf '\267\000' | dd of="$T/bad/libarm.so" bs=1 seek=18 conv=notrunc status=none
prog "$T/classes" -L"$T/good" -lc32 -larm -Wl,-rpath,"$T/bad:$T/good"

# Names with a slash: the library has no soname, the link names it by its path.
mkdir -p "$T/noso"
echo 'int noso_f(void) { return 1; }' >"$T/lib.c"
cc -shared -fPIC -o "$T/noso/libnoso.so" "$T/lib.c" && cc -shared -fPIC -o "$T/noso/librel.so" "$T/lib.c" ||
	fail "cannot build the libraries without soname"
(cd "$T" && cc -o slash main.c -Wl,--no-as-needed "$T/noso/libnoso.so" noso/librel.so) || fail "cannot build $T/slash"

# A library found only through the cache (its directory is not a default one).
fakeroot_dir=/usr/lib/x86_64-linux-gnu/libfakeroot
[ -e "$fakeroot_dir/libfakeroot-sysv.so" ] &&
	prog "$T/fake" -L"$fakeroot_dir" -lfakeroot-sysv

programs="$T/app/bin/rpath $T/app/bin/runpath $T/link/runpath $T/tok/bin/tokens
	  $T/hw/hwcaps $T/classes $T/slash"
[ -e "$T/fake" ] && programs="$programs $T/fake"
cd "$T" || fail "no $T"
for p in $programs; do
	as_ldd "$p"
	as_run "$p"
done
# LD_LIBRARY_PATH as ld.so reads it at start: a directory, an empty entry (the current
# directory), a relative one and one of the program's $ORIGIN, separated by ':' and ';'. A
# name that cannot be opened for another reason than its absence (a link to itself: ELOOP)
# ends the search of that list: libb.so is not found, liba.so is.
mkdir -p "$T/loop"
ln -s libb.so "$T/loop/libb.so"
cd "$T/cwd" || fail "no $T/cwd"
for llp in "$T/llp//" ":rel" "rel;$T/llp" '$ORIGIN/../llp2' "$T/loop:$T/llp"; do
	export LD_LIBRARY_PATH=$llp
	for p in $T/app/bin/rpath $T/app/bin/runpath $T/link/runpath; do
		as_ldd "$p"
		as_run "$p"
	done
done
unset LD_LIBRARY_PATH

# Caches of each format ldconfig writes (new, old, both), with glibc-hwcaps entries, in
# place of /etc/ld.so.cache in a mount namespace of our own (root only).
ldconfig=$(command -v ldconfig || echo /sbin/ldconfig)
if [ -x "$ldconfig" ] && unshare -m true 2>/dev/null; then
	for level in "" x86-64-v2 x86-64-v3; do lib "$T/cached/lib${level:+/glibc-hwcaps/$level}" libcx; done
	for level in "" x86-64-v2 x86-64-v4; do lib "$T/cached/lib${level:+/glibc-hwcaps/$level}" libcy; done
	prog "$T/cached/prog" "$T/cached/lib/libcx.so" "$T/cached/lib/libcy.so"
	echo "$T/cached/lib" >"$T/cached/ld.so.conf"
	for format in new old compat; do
		"$ldconfig" -X -c "$format" -C "$T/cached/cache.$format" -f "$T/cached/ld.so.conf" ||
			fail "ldconfig cannot write a cache of format $format"
		for p in "$T/cached/prog" /usr/bin/python3; do
			unshare -m bash -c 'mount --bind "$1" /etc/ld.so.cache &&
				ldd "$2" >"$3.ldd" && "$4" -r "$2" >"$3.walk"' \
				cache "$T/cached/cache.$format" "$p" "$T/cached/out" "$walk" ||
				fail "cannot list $p with the cache of format $format"
			trace <"$T/cached/out.ldd" >"$T/want"
			if ! diff -u "$T/want" "$T/cached/out.walk"; then
				echo "DIFFERS: ldd $p with a cache of format $format"
				differ=$((differ + 1))
			fi
			[ "$p" = /usr/bin/python3 ] || grep -q "^libcy.so => $T/cached/lib/" "$T/want" ||
				fail "libcy.so is not found through the cache of format $format"
		done
	done
fi

# via_origin: set for what an $ORIGIN entry found, not for the rest.
"$walk" -o "$T/app/bin/rpath" >"$T/marks"
grep -qx "liba.so => $T/app/bin/../lib/liba.so \$ORIGIN" "$T/marks" &&
	grep -qx "libb.so => $T/app/bin/../lib/libb.so \$ORIGIN" "$T/marks" &&
	grep -q '^libc.so.6 => /[^ ]*$' "$T/marks" || { cat "$T/marks"; fail "via_origin is not as found"; }

# A file that is not ELF, first in the path: ld.so fails there; so does the search.
mkdir -p "$T/broken"
printf '%0100d\n' 0 >"$T/broken/libb.so"
LD_LIBRARY_PATH=$T/broken LD_TRACE_LOADED_OBJECTS=1 "$T/app/bin/runpath" >"$OUT" 2>"$ERR"
grep -q "libb.so: invalid ELF header" "$ERR" || { cat "$ERR"; fail "ld.so does not stop at $T/broken/libb.so"; }
LD_LIBRARY_PATH=$T/broken "$walk" "$T/app/bin/runpath" >"$OUT" 2>"$ERR"
RC=$?
expect_rc 2
expect_out "^libb.so => error: Exec format error$"

[ "$differ" = 0 ] || fail "$differ listings differ from the dynamic linker's"
echo "all listings match the dynamic linker's"
