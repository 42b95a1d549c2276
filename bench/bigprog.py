#!/usr/bin/env python3
"""bench/bigprog.py: write the C sources of a standard MPI program with about CODE_MB of
machine code and DATA_MB of initialised writable data, for measuring what a job costs in
memory per rank (bench/memory.sh, tests/private_code_is_in_memory_once_per_node.sh).

    bench/bigprog.py [--code-mb N] [--data-mb M] [--written F] [--parts K] [--seed S] OUTDIR

writes OUTDIR/main.c and OUTDIR/part_0.c .. part_{K-1}.c (K defaults to one part per ~2 MB
of code, so that `make -j` or `xargs -P` compiles them side by side). Build them with any
MPI's mpicc at -O1 or -O2 and link them into one program:

    for f in OUTDIR/*.c; do mpicc -O1 -c "$f" -o "${f%.c}.o"; done
    mpicc -o bigprog OUTDIR/*.o

Code: many distinct functions (different constants and shifts, so that no two are folded
into one), each a chain of multiply, add, shift and xor rounds on a 64-bit value, none
inlined; each part has a runner that calls all of its functions in a chain, and main calls
every runner, so every function stays in the program and every page of code runs in every
rank. The size reached is "about": 36 bytes of x86-64 code per round, as GCC 12 emits them
at -O1 and -O2 (`size` of the built program says what it is).

Data: arrays of 64-bit values, none zero (so they are in .data, not .bss); every rank adds
to one value in every 4 KiB page of the first --written fraction of the arrays (default all:
the worst case, a program that writes all its data) and reads the others.

What the program does at run time (main.c): MPI_Init; the chain of calls and the writes; a
barrier, after which every rank is alive and has run all its code. Then, before any other
collective call (whose first use may allocate buffers of the MPI's own), a rank that is its
process's main thread (an MPI with a process per rank) reads its process's Pss and Rss from
/proc/self/smaps_rollup, and so does rank 0 where ranks are threads of one process (Shoal,
one node); rank 0 finds the file its code was loaded from (dladdr of main: the path the
MPI loaded, else the file /proc/self/maps names) and, when that is not the process's
executable (Shoal's rank copies in the job directory), sums the bytes the files of its
directory hold as `du` counts them (st_blocks * 512, symbolic links not followed, hard
links once). The ranks sum what they read onto rank 0, which prints

    MEMORY ranks=R processes=P pss_kb=K rss_kb=K jobdir_bytes=B jobdir_files=F checksum=X

(kB as the kernel's, KiB; P the distinct processes of the ranks). jobdir_bytes and
jobdir_files are -1 under an MPI that runs the program file itself. The program exits 0, or
1 with a message on stderr when it cannot read what it measures.
"""

import argparse
import os
import random
import sys

ROUND_BYTES = 36          # x86-64 code per round at -O1/-O2 (GCC 12), measured
ROUNDS = 40               # rounds per function: ~1.4 KB of code each
VALUES_PER_ARRAY = 4096   # 32 KiB per data array
PART_CODE_MB = 2.0        # code per part file when --parts is not given


def function_text(rng, name):
    lines = [f"__attribute__((noinline)) static uint64_t {name}(uint64_t x)", "{"]
    for _ in range(ROUNDS):
        mul = rng.getrandbits(64) | 1
        add = rng.getrandbits(64) | (1 << 40)
        shift = rng.randrange(7, 57)
        lines.append(f"\tx = x * 0x{mul:016x}ULL + 0x{add:016x}ULL; x ^= x >> {shift};")
    lines.append("\treturn x;")
    lines.append("}")
    return "\n".join(lines)


def array_text(rng, name, count):
    values = [rng.getrandbits(64) | 1 for _ in range(count)]
    rows = []
    for i in range(0, count, 4):
        rows.append("\t" + ", ".join(f"0x{v:016x}ULL" for v in values[i:i + 4]) + ",")
    return f"static uint64_t {name}[{count}] = {{\n" + "\n".join(rows) + "\n};"


def part_text(rng, index, nfuncs, narrays, written):
    out = [f"/* Part {index} of a program written by bench/bigprog.py: {nfuncs} functions, "
           f"{narrays} data arrays and their runner. */",
           "#include <stdint.h>", "",
           f"__attribute__((visibility(\"hidden\"))) uint64_t bigprog_part_{index}(uint64_t x);",
           ""]
    for f in range(nfuncs):
        out.append(function_text(rng, f"p{index}_f{f}"))
        out.append("")
    for a in range(narrays):
        out.append(array_text(rng, f"p{index}_d{a}", VALUES_PER_ARRAY))
        out.append("")
    out.append(f"/* Runs every function of the part in a chain and writes one value in every "
               f"page of its arrays. */")
    out.append(f"uint64_t bigprog_part_{index}(uint64_t x)")
    out.append("{")
    for f in range(nfuncs):
        out.append(f"\tx = p{index}_f{f}(x);")
    for a in range(narrays):
        out.append(f"\tfor (int i = 0; i < {VALUES_PER_ARRAY}; i += 512) "
                   + (f"{{ p{index}_d{a}[i] += x; x ^= p{index}_d{a}[i + 1]; }}" if a < written
                      else f"x ^= p{index}_d{a}[i];"))
    out.append("\treturn x;")
    out.append("}")
    return "\n".join(out) + "\n"


MAIN = r'''/* The main part of a program written by bench/bigprog.py (its docstring says what the
 * program measures and prints). Every rank runs main, in its own process or, under Shoal, in
 * its own thread of the node process. */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define PARTS @PARTS@
@DECLS@
static uint64_t (*const parts[PARTS])(uint64_t) = { @NAMES@ };

/* Pss and Rss (KiB) of the calling process, from /proc/self/smaps_rollup. */
static int read_pss(long long *pss, long long *rss)
{
	FILE *f = fopen("/proc/self/smaps_rollup", "r");
	char line[256];
	*pss = *rss = -1;
	if (!f)
		return -1;
	while (fgets(line, sizeof line, f)) {
		long long v;
		if (sscanf(line, "Pss: %lld kB", &v) == 1)
			*pss = v;
		else if (sscanf(line, "Rss: %lld kB", &v) == 1)
			*rss = v;
	}
	fclose(f);
	return *pss < 0 || *rss < 0 ? -1 : 0;
}

/* The path of the file the code at addr is mapped from (/proc/self/maps), for a program
 * whose dladdr names no absolute path. */
static int mapped_file(const void *addr, char *path, size_t len)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[PATH_MAX + 128];
	uintptr_t a = (uintptr_t)addr;
	int found = -1;
	if (!f)
		return -1;
	while (found && fgets(line, sizeof line, f)) {
		uintptr_t lo, hi;
		int off = 0;
		if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR " %*s %*s %*s %*s %n", &lo, &hi, &off) < 2 ||
		    a < lo || a >= hi || off == 0)
			continue;
		char *p = line + off;
		p[strcspn(p, "\n")] = '\0';
		snprintf(path, len, "%s", p);
		found = 0;
	}
	fclose(f);
	return found;
}

/* Bytes the files of dir (and of its subdirectories) hold as du counts them: st_blocks of
 * each, symbolic links not followed, a file with several links once. */
static struct { dev_t dev; ino_t ino; } seen[4096];
static int nseen;

static long long du(const char *dir, long long *files)
{
	DIR *d = opendir(dir);
	long long total = 0;
	struct dirent *e;
	if (!d)
		return -1;
	while ((e = readdir(d))) {
		char path[PATH_MAX];
		struct stat st;
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		if (lstat(path, &st))
			continue;  /* removed meanwhile */
		if (st.st_nlink > 1 && !S_ISDIR(st.st_mode)) {
			int k = 0;
			while (k < nseen && !(seen[k].dev == st.st_dev && seen[k].ino == st.st_ino))
				k++;
			if (k < nseen)
				continue;
			if (nseen < (int)(sizeof seen / sizeof seen[0]))
				seen[nseen].dev = st.st_dev, seen[nseen++].ino = st.st_ino;
		}
		total += (long long)st.st_blocks * 512;
		++*files;
		if (S_ISDIR(st.st_mode)) {
			long long sub = du(path, files);
			if (sub > 0)
				total += sub;
		}
	}
	closedir(d);
	return total;
}

int main(int argc, char **argv)
{
	int rank, size;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);

	uint64_t x = (uint64_t)rank + 1;
	for (int k = 0; k < PARTS; k++)
		x = parts[k](x);

	/* Every rank alive, its code run and its data written. A rank that is its process's
	 * main thread (process per rank) reads its process's Pss; where ranks are threads of
	 * a process (Shoal) rank 0 reads it. Read before any other collective call: a
	 * collective's first use may allocate buffers that are not what this measures. */
	MPI_Barrier(MPI_COMM_WORLD);
	long long mine[3] = { 0, 0, 0 }, sum[3];
	int pid = (int)getpid(), own = (pid_t)syscall(SYS_gettid) == getpid();
	if (own || rank == 0) {
		if (read_pss(&mine[0], &mine[1])) {
			fprintf(stderr, "bigprog: rank %d: cannot read Pss from /proc/self/smaps_rollup\n", rank);
			mine[2] = 1;
		}
	}
	char code[PATH_MAX], exe[PATH_MAX], real[PATH_MAX];
	long long bytes = -1, files = -1;
	int rc = 0;
	if (rank == 0) {
		ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
		exe[n > 0 ? n : 0] = '\0';
		Dl_info info;
		int found = dladdr((const void *)main, &info) && info.dli_fname &&
			    info.dli_fname[0] == '/';
		if (found)
			snprintf(code, sizeof code, "%s", info.dli_fname);
		if (!found && mapped_file((const void *)main, code, sizeof code)) {
			fprintf(stderr, "bigprog: no file in /proc/self/maps holds main\n");
			rc = 1;
		} else if (strcmp(code, exe) != 0 && !(realpath(code, real) && !strcmp(real, exe))) {
			char *slash = strrchr(code, '/');
			if (slash)
				*slash = '\0';
			files = 0;
			bytes = du(code, &files);
			if (bytes < 0) {
				fprintf(stderr, "bigprog: cannot read the job directory %s: %s\n", code,
				        strerror(errno));
				rc = 1;
			}
		}
	}

	int *pids = malloc(sizeof(int) * (size_t)size);
	MPI_Allgather(&pid, 1, MPI_INT, pids, 1, MPI_INT, MPI_COMM_WORLD);
	int nproc = 0;
	for (int r = 0; r < size; r++) {
		int again = 0;
		for (int q = 0; q < r; q++)
			again |= pids[q] == pids[r];
		nproc += !again;
	}
	MPI_Reduce(mine, sum, 3, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
	uint64_t all = 0;
	MPI_Reduce(&x, &all, 1, MPI_UINT64_T, MPI_BXOR, 0, MPI_COMM_WORLD);

	if (rank == 0) {
		if (sum[2])
			rc = 1;
		printf("MEMORY ranks=%d processes=%d pss_kb=%lld rss_kb=%lld jobdir_bytes=%lld "
		       "jobdir_files=%lld checksum=%016" PRIx64 "\n",
		       size, nproc, sum[0], sum[1], bytes, files, all);
		fflush(stdout);
	}
	/* The exit status of every rank: 1 when rank 0 could not measure. */
	MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
	free(pids);
	MPI_Finalize();
	return rc;
}
'''


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--code-mb", type=float, default=2.0, help="code, MB (10^6 bytes)")
    ap.add_argument("--data-mb", type=float, default=0.2, help="initialised data, MB")
    ap.add_argument("--parts", type=int, default=0, help="part files (default: 1 per 2 MB)")
    ap.add_argument("--written", type=float, default=1.0,
                    help="fraction of the data arrays every rank writes (default 1: all)")
    ap.add_argument("--seed", type=int, default=35)
    ap.add_argument("outdir")
    a = ap.parse_args()
    if a.code_mb <= 0 or a.data_mb < 0 or not 0 <= a.written <= 1:
        sys.exit("bigprog.py: --code-mb must be > 0, --data-mb >= 0, --written in [0, 1]")
    rng = random.Random(a.seed)
    nfuncs = max(1, round(a.code_mb * 1e6 / (ROUND_BYTES * ROUNDS)))
    narrays = round(a.data_mb * 1e6 / (8 * VALUES_PER_ARRAY))
    parts = a.parts or max(1, round(a.code_mb / PART_CODE_MB))
    parts = min(parts, nfuncs)
    os.makedirs(a.outdir, exist_ok=True)
    for p in range(parts):
        f = nfuncs * (p + 1) // parts - nfuncs * p // parts
        d = narrays * (p + 1) // parts - narrays * p // parts
        w = round(d * a.written)
        with open(os.path.join(a.outdir, f"part_{p}.c"), "w") as out:
            out.write(part_text(rng, p, f, d, w))
    decls = "\n".join(f"__attribute__((visibility(\"hidden\"))) "
                      f"uint64_t bigprog_part_{p}(uint64_t x);" for p in range(parts))
    names = ", ".join(f"bigprog_part_{p}" for p in range(parts))
    with open(os.path.join(a.outdir, "main.c"), "w") as out:
        out.write(MAIN.replace("@PARTS@", str(parts)).replace("@DECLS@", decls)
                  .replace("@NAMES@", names))


if __name__ == "__main__":
    main()
