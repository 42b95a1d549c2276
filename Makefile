# Shoal MPI: one Makefile builds everything into build/.
# Targets: all deps demo test test-node test-hosts test-debugger test-san test-programs
#          bench bench-memory fuzz install clean.
# Variables: PREFIX, SAN=asan|tsan|ubsan (a sanitizer in libmpi, the node and mpiexec; build
#            into a BUILD of its own: make SAN=tsan BUILD=build-tsan; tests/README.md),
#            FUZZ_SECONDS (make fuzz, per target, default 600), FUZZ_TARGETS (make fuzz:
#            frame proto pair greet ctl), J (parallel tests of tests/run, default its own),
#            T (run only tests whose name contains T).

BUILD   ?= build
PREFIX  ?= /usr/local
CC      ?= cc
CXX     ?= c++

DEB_PACKAGES := build-essential liburcu-dev libelf-dev gdb procps time clang iproute2 python3 \
                libssl-dev slurmd slurmctld slurm-client munge cmake meson ninja-build pkg-config \
                gfortran

WARN    := -Wall -Wextra -Wno-unused-parameter -Wmissing-prototypes -Wstrict-prototypes
CFLAGS  ?= -O2 -g
ALL_CFLAGS := -std=c17 $(WARN) $(CFLAGS) -fPIC -fvisibility=hidden -D_GNU_SOURCE -I. -I$(BUILD)/include
# Under ASan the node also loads libstdc++ at start: ASan finds the real __cxa_throw, which
# its interceptor calls, only in libraries loaded before it starts, and rank copies that
# throw load libstdc++ later.
ifeq ($(SAN),asan)
  ALL_CFLAGS += -fsanitize=address -fno-omit-frame-pointer
  NODE_LIBS := -lstdc++
endif
ifeq ($(SAN),ubsan)
  ALL_CFLAGS += -fsanitize=undefined -fno-omit-frame-pointer
endif
# ThreadSanitizer does not model atomic_thread_fence (GCC warns, -Wtsan). Shoal's fences
# (coll/ring.c) order a stamp before the look for sleepers (no lost wake-up); the data a
# stamp publishes is ordered by its release store and the reader's acquire load, which
# ThreadSanitizer sees.
ifeq ($(SAN),tsan)
  ALL_CFLAGS += -fsanitize=thread -Wno-tsan
endif

# Files of loader/ that are programs or objects of their own; the rest of loader/ lives in
# libmpi.so because it interposes libc functions that must come ahead of libc.
LOADER_PROGRAMS := $(wildcard loader/mpiexec*.c) loader/shoal_node.c loader/rankcrt.c
# mpiexec's own files, and the pure parts of io/ and loader/ it shares with the node process.
MPIEXEC_SRCS := $(wildcard loader/mpiexec*.c) loader/report.c loader/jobdir.c loader/program_elf.c \
                io/ctl.c io/auth.c
# io/fuzz_*.c are libFuzzer targets (make fuzz), not library code.
# runtime/fortran/ builds libmpifort.so (the Fortran bindings block below), not libmpi.
LIB_SRCS := $(filter-out runtime/fortran/%,$(wildcard runtime/*/*.c queues/*.c)) \
            $(filter-out io/fuzz_%,$(wildcard io/*.c)) \
            $(filter-out $(LOADER_PROGRAMS),$(wildcard loader/*.c))
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/obj/%.o)
# Sources' headers; not those of build directories (build/, build-asan/ of make test-san).
HEADERS  := $(filter-out $(BUILD)/% build/% build-%,$(wildcard */*.h */*/*.h))

LIBMPI   := $(BUILD)/lib/libmpi.so
MPIH     := $(BUILD)/include/mpi.h
RANKCRT  := $(BUILD)/lib/shoal/rankcrt.o
RANKMAP  := $(BUILD)/lib/shoal/rank.map
NODE     := $(BUILD)/lib/shoal/shoal-node
MPIEXEC  := $(BUILD)/bin/mpiexec
WRAPPERS := $(BUILD)/bin/mpicc $(BUILD)/bin/mpicxx $(BUILD)/bin/mpic++ $(BUILD)/bin/mpiCC \
            $(BUILD)/bin/pkg-config
# pkg-config files: mpi.pc, and Shoal under the names Meson asks for (wrappers/ompi-c.pc.in).
PCFILES  := $(BUILD)/lib/pkgconfig/mpi.pc $(BUILD)/lib/pkgconfig/ompi-c.pc \
            $(BUILD)/lib/pkgconfig/ompi-cxx.pc
SHOALGDB := $(BUILD)/lib/shoal/shoal_gdb.py $(BUILD)/bin/shoal-gdb
EXAMPLES := $(patsubst examples/%.c,$(BUILD)/examples/%,$(wildcard examples/*.c))

.PHONY: all deps demo demo-fortran examples test-ready test test-node test-hosts test-debugger test-san test-programs \
        bench bench-memory fuzz install clean
all: $(LIBMPI) $(MPIH) $(RANKCRT) $(RANKMAP) $(NODE) $(MPIEXEC) $(BUILD)/bin/mpirun $(WRAPPERS) \
     $(PCFILES) $(SHOALGDB)

$(MPIH): runtime/mpi.h
	@mkdir -p $(@D)
	cp $< $@

$(BUILD)/obj/%.o: %.c $(HEADERS) $(MPIH)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

# The reduction kernels (datatype/op.c) vectorize only at -O3: GCC 12's -O2 cost model refuses loops
# that need a run-time check that their two buffers do not overlap (2-rank MPI_Allreduce of
# 2 KiB of floats: a quarter of the call was the scalar sum loop).
$(BUILD)/obj/runtime/datatype/op.o: ALL_CFLAGS += -O3

$(LIBMPI): $(LIB_OBJS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -shared -Wl,-soname,libmpi.so -o $@ $(LIB_OBJS) -ldl -lpthread -lcrypto -lelf

# rankcrt.o goes into every user program: never with sanitizer instrumentation.
$(RANKCRT): loader/rankcrt.c $(HEADERS)
	@mkdir -p $(@D)
	$(CC) -std=c17 $(WARN) -O2 -g -fPIC -fvisibility=hidden -D_GNU_SOURCE -I. -c $< -o $@

$(RANKMAP): loader/rank.map
	@mkdir -p $(@D)
	cp $< $@

$(NODE): loader/shoal_node.c $(LIBMPI)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $< -L$(BUILD)/lib -Wl,-rpath,'$$ORIGIN/..' -Wl,--no-as-needed -lmpi -ldl -lpthread $(NODE_LIBS)

$(MPIEXEC): $(MPIEXEC_SRCS) $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $(MPIEXEC_SRCS) -lcrypto

$(BUILD)/bin/mpirun: $(MPIEXEC)
	ln -sf mpiexec $@

$(BUILD)/bin/%: wrappers/%.in
	@mkdir -p $(@D)
	cp $< $@
	chmod +x $@

# The other names of mpicxx (Open MPI's; Meson looks for mpic++ first).
$(BUILD)/bin/mpic++ $(BUILD)/bin/mpiCC: $(BUILD)/bin/mpicxx
	ln -sf mpicxx $@

# The gdb extension and its attach launcher (debugger/).
$(BUILD)/lib/shoal/shoal_gdb.py: debugger/shoal_gdb.py
	@mkdir -p $(@D)
	cp $< $@

$(BUILD)/bin/shoal-gdb: debugger/shoal-gdb
	@mkdir -p $(@D)
	cp $< $@
	chmod +x $@

$(BUILD)/lib/pkgconfig/%.pc: wrappers/%.pc.in
	@mkdir -p $(@D)
	cp $< $@

$(BUILD)/examples/%: examples/%.c $(LIBMPI) $(MPIH) $(RANKCRT) $(RANKMAP) $(WRAPPERS)
	@mkdir -p $(@D)
	$(BUILD)/bin/mpicc -O2 -o $@ $<

deps:
	@missing=""; for p in $(DEB_PACKAGES); do \
	  dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y $$missing; \
	fi

demo: deps
	$(MAKE) all
	$(MAKE) $(EXAMPLES)
	$(MPIEXEC) -n 4 $(BUILD)/examples/hello
	$(MPIEXEC) -n 4 $(BUILD)/examples/ring
	$(MPIEXEC) -n 64 $(BUILD)/examples/ring
	$(MPIEXEC) -n 2 $(BUILD)/examples/pingpong
	$(MPIEXEC) -n 8 $(BUILD)/examples/pi
	$(MAKE) demo-fortran

examples: $(EXAMPLES)

# The suite (tests/run says how tests declare their tier, rank counts and timeout). Test
# programs (tests/*.c, tests/*.cpp) are built here with the wrappers, one per file, into
# $(BUILD)/tests/; a program that does not compile leaves no binary and its compiler's
# output in $(BUILD)/tests/NAME.build, and tests/run reports it as a failed test, so the
# build goes on (-k) past it. `make test` runs every tier in one parallel run.
TEST_PROGRAMS := $(patsubst tests/%.c,$(BUILD)/tests/%,$(wildcard tests/*.c)) \
                 $(patsubst tests/%.cpp,$(BUILD)/tests/%,$(wildcard tests/*.cpp))
TEST_TOOLS    := $(MPIH) $(RANKCRT) $(RANKMAP) $(WRAPPERS)
TEST_FLAGS    := -O1 -g -Wall -MMD -MP -Itests -I.
TEST_RUN       = SHOAL_BUILD=$(abspath $(BUILD)) tests/run $(if $(J),-j$(J)) $(T)

# mpifort and Fortran test programs: mpifort (wrappers/mpifort.in, mpicc taught Fortran)
# under its three names, ompi-fort.pc (Meson's pkg-config name for Fortran), and the Fortran
# test programs tests/NAME.f90 (free form) and tests/NAME.f (fixed form), built like the C
# ones into $(BUILD)/tests/NAME; each program's own modules go to a directory of its own.
# FORTRAN_ALL gathers what `all` builds for Fortran (every Fortran block adds to it; a block
# defined after this one adds its own `all:` line too, as prerequisites expand when read).
FORTRAN_ALL   += $(BUILD)/bin/mpifort $(BUILD)/bin/mpif77 $(BUILD)/bin/mpif90 \
                 $(BUILD)/lib/pkgconfig/ompi-fort.pc
FTEST_FLAGS   := -O1 -g -Wall
TEST_PROGRAMS += $(patsubst tests/%.f90,$(BUILD)/tests/%,$(wildcard tests/*.f90)) \
                 $(patsubst tests/%.f,$(BUILD)/tests/%,$(wildcard tests/*.f))
all: $(FORTRAN_ALL)

$(BUILD)/bin/mpif77 $(BUILD)/bin/mpif90: $(BUILD)/bin/mpifort
	ln -sf mpifort $@

# The Fortran blocks below this one add to FORTRAN_ALL later: $$(FORTRAN_ALL) is read when
# the rule is used (second expansion), with every block's part. A program may INCLUDE a
# file of tests/lib (FTEST_INCLUDES): a change to one rebuilds them all.
FTEST_INCLUDES := $(wildcard tests/lib/*.inc)
.SECONDEXPANSION:
$(BUILD)/tests/%: tests/%.f90 $(TEST_TOOLS) $(FTEST_INCLUDES) $$(FORTRAN_ALL) | $(LIBMPI)
	@mkdir -p $(@D)/fmod/$*
	@echo "$(BUILD)/bin/mpifort $(FTEST_FLAGS) -J $(@D)/fmod/$* -o $@ $<"
	@$(BUILD)/bin/mpifort $(FTEST_FLAGS) -J $(@D)/fmod/$* -o $@ $< >$@.build 2>&1 || \
	  { cat $@.build; rm -f $@; exit 1; }; cat $@.build; rm -f $@.build

$(BUILD)/tests/%: tests/%.f $(TEST_TOOLS) $(FTEST_INCLUDES) $$(FORTRAN_ALL) | $(LIBMPI)
	@mkdir -p $(@D)/fmod/$*
	@echo "$(BUILD)/bin/mpifort $(FTEST_FLAGS) -J $(@D)/fmod/$* -o $@ $<"
	@$(BUILD)/bin/mpifort $(FTEST_FLAGS) -J $(@D)/fmod/$* -o $@ $< >$@.build 2>&1 || \
	  { cat $@.build; rm -f $@; exit 1; }; cat $@.build; rm -f $@.build

test-programs: $(TEST_PROGRAMS)

$(BUILD)/tests/%: tests/%.c $(TEST_TOOLS) | $(LIBMPI)
	@mkdir -p $(@D)
	@echo "$(BUILD)/bin/mpicc -std=gnu17 $(TEST_FLAGS) -o $@ $< -lm"
	@$(BUILD)/bin/mpicc -std=gnu17 $(TEST_FLAGS) -o $@ $< -lm >$@.build 2>&1 || \
	  { cat $@.build; rm -f $@; exit 1; }; cat $@.build; rm -f $@.build

$(BUILD)/tests/%: tests/%.cpp $(TEST_TOOLS) | $(LIBMPI)
	@mkdir -p $(@D)
	@echo "$(BUILD)/bin/mpicxx -std=c++17 $(TEST_FLAGS) -o $@ $< -lm"
	@$(BUILD)/bin/mpicxx -std=c++17 $(TEST_FLAGS) -o $@ $< -lm >$@.build 2>&1 || \
	  { cat $@.build; rm -f $@; exit 1; }; cat $@.build; rm -f $@.build

-include $(wildcard $(BUILD)/tests/*.d)

# Everything a tier's tests use: the build, the examples (examples_run) and the test
# programs (built with -k: one that does not compile is one failed test, not a stopped run),
# built with a job per core when make itself was started without -j.
NPROC      := $(shell nproc 2>/dev/null || echo 2)
PAR_MAKE    = $(MAKE) $(if $(filter -j%,$(MAKEFLAGS)),,-j$(NPROC))
test-ready:
	$(PAR_MAKE) all
	$(PAR_MAKE) examples
	-$(PAR_MAKE) -k test-programs

test: deps
	$(MAKE) test-ready
	$(TEST_RUN) --tier all

test-node: deps
	$(MAKE) test-ready
	$(TEST_RUN) --tier node

test-hosts: deps
	$(MAKE) test-ready
	$(TEST_RUN) --tier hosts

test-debugger: deps
	$(MAKE) test-ready
	$(TEST_RUN) --tier debugger

# Sanitizers (tests/san/check says what each judges and why): the library, node and mpiexec
# with AddressSanitizer in $(ASAN_BUILD) and with ThreadSanitizer in $(TSAN_BUILD), and
# tests/san's standalone programs with ThreadSanitizer in $(TSAN_BUILD)/san; neither
# touches $(BUILD). Test programs are built as in any tree, by its mpicc, without a
# sanitizer: the node process's runtime judges libmpi's accesses to their memory.
ASAN_BUILD    := build-asan
TSAN_BUILD    := build-tsan
ASAN_CANARY   := tests/san/canary_heap_overflow_is_reported.c
TSAN_CANARY   := tests/san/canary_rank_race_is_reported.c
TSAN_PROGRAMS := $(patsubst tests/san/%.c,$(TSAN_BUILD)/san/%,$(filter-out $(ASAN_CANARY) $(TSAN_CANARY),$(wildcard tests/san/*.c)))

$(TSAN_BUILD)/san/%: tests/san/%.c
	@mkdir -p $(@D)
	$(CC) -std=c17 $(WARN) -O1 -g -fsanitize=thread -D_GNU_SOURCE -I. -MMD -MP -o $@ $< -lpthread

-include $(wildcard $(TSAN_BUILD)/san/*.d)

# The canaries of whole jobs are rank programs: built with the sanitizer tree's own mpicc.
$(BUILD)/san/canary_heap_overflow_is_reported: $(ASAN_CANARY) $(TEST_TOOLS) | $(LIBMPI)
	@mkdir -p $(@D)
	$(BUILD)/bin/mpicc -g -O1 -o $@ $<

$(BUILD)/san/canary_rank_race_is_reported: $(TSAN_CANARY) $(TEST_TOOLS) | $(LIBMPI)
	@mkdir -p $(@D)
	$(BUILD)/bin/mpicc -g -O1 -o $@ $<

test-san: deps
	$(MAKE) SAN=asan BUILD=$(ASAN_BUILD) test-ready
	$(PAR_MAKE) SAN=asan BUILD=$(ASAN_BUILD) $(ASAN_BUILD)/san/canary_heap_overflow_is_reported
	$(MAKE) SAN=tsan BUILD=$(TSAN_BUILD) test-ready
	$(PAR_MAKE) SAN=tsan BUILD=$(TSAN_BUILD) $(TSAN_BUILD)/san/canary_rank_race_is_reported
	$(PAR_MAKE) $(TSAN_PROGRAMS)
	ASAN_BUILD=$(ASAN_BUILD) TSAN_BUILD=$(TSAN_BUILD) tests/san/check $(if $(J),-j$(J))

# Our benchmarks built with Shoal, Open MPI and MPICH, run interleaved; QUICK=1 for a short run;
# OFFNODE=1 for latency and bandwidth between two network namespaces (root; bench/offnode.conf).
bench: deps
	$(MAKE) all
	QUICK=$(QUICK) OFFNODE=$(OFFNODE) BUILD=$(BUILD) bench/run

# Memory a job costs per rank (bench/memory.sh: programs of ~2 and ~20 MB of code at 16, 64
# and 256 ranks under Shoal, Open MPI and MPICH; its MEMORY_* variables pick others).
bench-memory: deps
	$(MAKE) all
	BUILD=$(BUILD) bench/memory.sh

# The libFuzzer targets (io/fuzz_*.c: the frame parser, the protocol's state machine
# against any peer and between two honest nodes, the mesh greeting, the control channel's
# records), each run FUZZ_SECONDS, longer than the
# 10 s of `make test`; FUZZ_TARGETS picks some. Each keeps its corpus and crashes in
# $(BUILD)/fuzz/NAME/, its run's output in $(BUILD)/fuzz/NAME.log; the last lines of the
# runs (executions, edges covered) are gathered in $(BUILD)/fuzz/summary.
FUZZ_SECONDS ?= 600
FUZZ_TARGETS ?= frame proto pair greet ctl
FUZZ_CFLAGS  := -g -O1 -D_GNU_SOURCE -fsanitize=fuzzer,address,undefined \
                -fno-sanitize-recover=undefined -I.
# What each target links besides its own file (fuzz_proto.c, fuzz_pair.c and fuzz_greet.c
# compile io/proto.c, queues/queues.c and io/conn.c in; fuzz_pair_a.c and fuzz_pair_b.c
# are io/proto.c twice).
FUZZ_LINK_frame := io/frame.c
FUZZ_LINK_proto := io/fuzz_arena.c io/frame.c
FUZZ_LINK_pair  := io/fuzz_arena.c io/fuzz_pair_a.c io/fuzz_pair_b.c io/frame.c
FUZZ_LINK_greet := io/auth.c io/ctl.c -lcrypto
FUZZ_LINK_ctl   := io/ctl.c
$(BUILD)/fuzz/fuzz_%: io/fuzz_%.c $(wildcard io/*.c queues/*.c) $(HEADERS)
	@mkdir -p $(@D)
	clang $(FUZZ_CFLAGS) -o $@ $< $(FUZZ_LINK_$*)
fuzz: $(FUZZ_TARGETS:%=$(BUILD)/fuzz/fuzz_%)
	@: >$(BUILD)/fuzz/summary
	@for t in $(FUZZ_TARGETS); do \
	  mkdir -p $(BUILD)/fuzz/$$t/corpus; \
	  echo "fuzz_$$t: $(FUZZ_SECONDS) s"; \
	  $(BUILD)/fuzz/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=2048 \
	    -artifact_prefix=$(BUILD)/fuzz/$$t/ $(BUILD)/fuzz/$$t/corpus \
	    >$(BUILD)/fuzz/$$t.log 2>&1 || { tail -n 40 $(BUILD)/fuzz/$$t.log; exit 1; }; \
	  grep -E '^#[0-9]+.*DONE|^Done' $(BUILD)/fuzz/$$t.log | sed "s/^/fuzz_$$t: /" \
	    >>$(BUILD)/fuzz/summary; \
	done; cat $(BUILD)/fuzz/summary

# Fortran bindings (libmpifort, mpif.h, modules)
# runtime/fortran/bindgen.py reads runtime/mpi.h and runtime/fortran/bindings.txt (it fails
# on a function it cannot classify) and writes, into $(FORT_GEN): the C bodies of mpif.h
# and the `mpi` module, and a program that prints mpi.h's constants (handles as their
# Fortran integers, which belong to this libmpi), run here; then mpif.h and the `mpi`
# module's source from its output. libmpifort.so: runtime/fortran/*.c (but
# mpif_sentinels.c), the generated C and the modules' objects, over libmpi and
# libgfortran; each rank loads its own copy. mpif_sentinels.o goes into every Fortran
# program and library (mpifort), never with sanitizer instrumentation.
GFORTRAN     ?= gfortran
FORT_GEN     := $(BUILD)/gen/fortran
FORT_OBJ     := $(BUILD)/obj/runtime/fortran
FORT_GEN_PY  := runtime/fortran/bindgen.py runtime/fortran/bindgen_mpif.py runtime/fortran/bindings.txt
FORT_C_SRCS  := $(filter-out runtime/fortran/mpif_sentinels.c,$(wildcard runtime/fortran/*.c))
FORT_C_OBJS  := $(FORT_C_SRCS:%.c=$(BUILD)/obj/%.o) $(FORT_OBJ)/mpif_bindings.o
FORT_MOD_OBJS := $(FORT_OBJ)/sentinels_f90.o $(FORT_OBJ)/mpi_f90.o
FORT_FFLAGS  := -O2 -g -fPIC -Wno-c-binding-type
LIBMPIFORT   := $(BUILD)/lib/libmpifort.so
MPIFH        := $(BUILD)/include/mpif.h
MPIMOD       := $(BUILD)/include/mpi.mod
MPIF_SENTINELS := $(BUILD)/lib/shoal/mpif_sentinels.o
FORTRAN_ALL  += $(LIBMPIFORT) $(MPIFH) $(MPIMOD) $(MPIF_SENTINELS)
all: $(FORTRAN_ALL)

$(FORT_GEN)/mpif_bindings.c $(FORT_GEN)/mpif_consts.c &: runtime/mpi.h $(FORT_GEN_PY)
	@mkdir -p $(@D)
	python3 runtime/fortran/bindgen.py mpif $(FORT_GEN)

$(FORT_GEN)/mpif_consts: $(FORT_GEN)/mpif_consts.c $(LIBMPI) $(MPIH)
	$(CC) $(ALL_CFLAGS) -o $@ $< -L$(BUILD)/lib -Wl,-rpath,$(abspath $(BUILD)/lib) -lmpi

$(FORT_GEN)/consts.txt: $(FORT_GEN)/mpif_consts
	$< >$@.tmp && mv $@.tmp $@

$(FORT_GEN)/mpif.h $(FORT_GEN)/mpi.f90 &: $(FORT_GEN)/consts.txt runtime/mpi.h $(FORT_GEN_PY)
	python3 runtime/fortran/bindgen.py mpif-headers $(FORT_GEN) $(FORT_GEN)/consts.txt

$(MPIFH): $(FORT_GEN)/mpif.h
	@mkdir -p $(@D)
	cp $< $@

# The modules' .mod files go to $(BUILD)/include (-J), where programs find them.
$(FORT_OBJ)/sentinels_f90.o: runtime/fortran/sentinels.f90
	@mkdir -p $(@D) $(BUILD)/include
	$(GFORTRAN) $(FORT_FFLAGS) -J$(BUILD)/include -c $< -o $@

$(FORT_OBJ)/mpi_f90.o $(MPIMOD) &: $(FORT_GEN)/mpi.f90 $(FORT_OBJ)/sentinels_f90.o
	@mkdir -p $(@D)
	$(GFORTRAN) $(FORT_FFLAGS) -J$(BUILD)/include -c $< -o $(FORT_OBJ)/mpi_f90.o

$(FORT_OBJ)/mpif_bindings.o: $(FORT_GEN)/mpif_bindings.c runtime/fortran/fortran.h $(MPIH)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -fno-plt -Wno-maybe-uninitialized -c $< -o $@

$(LIBMPIFORT): $(FORT_C_OBJS) $(FORT_MOD_OBJS) $(LIBMPI)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -shared -Wl,-soname,libmpifort.so -Wl,-Bsymbolic -o $@ \
	  $(FORT_C_OBJS) $(FORT_MOD_OBJS) -L$(BUILD)/lib -Wl,-rpath,'$$ORIGIN' -lmpi -lgfortran

# Also the object the layer test reads (tests/layers_go_down.sh).
$(FORT_OBJ)/mpif_sentinels.o: runtime/fortran/mpif_sentinels.c runtime/fortran/fortran.h $(MPIH)
	@mkdir -p $(@D)
	$(CC) -std=c17 $(WARN) -O2 -g -fPIC -fcommon -fvisibility=hidden -D_GNU_SOURCE -I. \
	  -I$(BUILD)/include -c $< -o $@

$(MPIF_SENTINELS): $(FORT_OBJ)/mpif_sentinels.o
	@mkdir -p $(@D)
	cp $< $@

# mpi_f08
# runtime/fortran/bindgen_f08.py reads the same description (bindgen.load) and writes, into
# $(FORT_GEN): the mpi_f08 module's source (a generic interface per function), the C entry
# points of its buffer and large-count specifics (f08_bindings.c, over runtime/fortran/f08.h)
# and a program printing module mpi_f08_constants (the handles' integers of this libmpi),
# run here. The hand-written runtime/fortran/mpi_f08_types.f90 holds the types. Their
# objects join libmpifort.so, their .mod files $(BUILD)/include.
F08_OBJS      := $(FORT_OBJ)/mpi_f08_types.o $(FORT_OBJ)/mpi_f08_constants.o \
                 $(FORT_OBJ)/mpi_f08.o $(FORT_OBJ)/f08_bindings.o
F08_MOD       := $(BUILD)/include/mpi_f08.mod
FORT_MOD_OBJS += $(F08_OBJS)
FORTRAN_ALL   += $(F08_MOD)
all: $(FORTRAN_ALL)
$(LIBMPIFORT): $(F08_OBJS)

$(FORT_GEN)/mpi_f08.f90 $(FORT_GEN)/f08_bindings.c $(FORT_GEN)/f08_constants.c &: \
    runtime/mpi.h runtime/fortran/bindgen_f08.py $(FORT_GEN_PY)
	@mkdir -p $(@D)
	python3 runtime/fortran/bindgen_f08.py runtime/mpi.h runtime/fortran/bindings.txt $(FORT_GEN)

$(FORT_GEN)/f08_constants: $(FORT_GEN)/f08_constants.c $(LIBMPI) $(MPIH)
	$(CC) $(ALL_CFLAGS) -o $@ $< -L$(BUILD)/lib -Wl,-rpath,$(abspath $(BUILD)/lib) -lmpi

$(FORT_GEN)/mpi_f08_constants.f90: $(FORT_GEN)/f08_constants
	$< >$@.tmp && mv $@.tmp $@

$(FORT_OBJ)/mpi_f08_types.o: runtime/fortran/mpi_f08_types.f90 $(FORT_OBJ)/sentinels_f90.o
	@mkdir -p $(@D)
	$(GFORTRAN) $(FORT_FFLAGS) -J$(BUILD)/include -c $< -o $@

$(FORT_OBJ)/mpi_f08_constants.o: $(FORT_GEN)/mpi_f08_constants.f90 $(FORT_OBJ)/mpi_f08_types.o
	$(GFORTRAN) $(FORT_FFLAGS) -J$(BUILD)/include -c $< -o $@

$(FORT_OBJ)/mpi_f08.o $(F08_MOD) &: $(FORT_GEN)/mpi_f08.f90 $(FORT_OBJ)/mpi_f08_constants.o
	$(GFORTRAN) $(FORT_FFLAGS) -J$(BUILD)/include -c $< -o $(FORT_OBJ)/mpi_f08.o

$(FORT_OBJ)/f08_bindings.o: $(FORT_GEN)/f08_bindings.c runtime/fortran/f08.h \
    runtime/fortran/fortran.h $(MPIH)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Wno-maybe-uninitialized -c $< -o $@

.PHONY: install-fortran
install: install-fortran
install-fortran: all
	install -d $(PREFIX)/include $(PREFIX)/lib/shoal
	install -m 755 $(LIBMPIFORT) $(PREFIX)/lib/
	install -m 644 $(MPIFH) $(BUILD)/include/*.mod $(PREFIX)/include/
	install -m 644 $(MPIF_SENTINELS) $(PREFIX)/lib/shoal/

install: all
	install -d $(PREFIX)/bin $(PREFIX)/include $(PREFIX)/lib/shoal $(PREFIX)/lib/pkgconfig
	install -m 755 $(MPIEXEC) $(BUILD)/bin/mpicc $(BUILD)/bin/mpicxx $(BUILD)/bin/pkg-config \
	  $(BUILD)/bin/mpifort $(PREFIX)/bin/
	ln -sf mpifort $(PREFIX)/bin/mpif77
	ln -sf mpifort $(PREFIX)/bin/mpif90
	ln -sf mpiexec $(PREFIX)/bin/mpirun
	ln -sf mpicxx $(PREFIX)/bin/mpic++
	ln -sf mpicxx $(PREFIX)/bin/mpiCC
	install -m 644 $(MPIH) $(PREFIX)/include/
	install -m 755 $(LIBMPI) $(PREFIX)/lib/
	install -m 644 $(RANKCRT) $(RANKMAP) $(PREFIX)/lib/shoal/
	install -m 755 $(NODE) $(PREFIX)/lib/shoal/
	install -m 644 $(PCFILES) $(BUILD)/lib/pkgconfig/ompi-fort.pc $(PREFIX)/lib/pkgconfig/
	install -m 644 $(BUILD)/lib/shoal/shoal_gdb.py $(PREFIX)/lib/shoal/
	install -m 755 $(BUILD)/bin/shoal-gdb $(PREFIX)/bin/

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(TSAN_BUILD)

# Fortran examples: examples/NAME.f90, built by mpifort into $(BUILD)/examples/NAME_f90 beside
# the C ones (`make examples`) and run after them by `make demo`. $$(FORTRAN_ALL) (mpifort,
# the modules, libmpifort) is read when the rule is used, with every block's part.
FORTRAN_EXAMPLES := $(patsubst examples/%.f90,$(BUILD)/examples/%_f90,$(wildcard examples/*.f90))
examples: $(FORTRAN_EXAMPLES)

$(BUILD)/examples/%_f90: examples/%.f90 $(LIBMPI) $(MPIH) $(RANKCRT) $(RANKMAP) $(WRAPPERS) \
                         $$(FORTRAN_ALL)
	@mkdir -p $(@D)
	$(BUILD)/bin/mpifort -O2 -o $@ $<

demo-fortran: all
	$(MAKE) $(FORTRAN_EXAMPLES)
	$(MPIEXEC) -n 4 $(BUILD)/examples/hello_f90
	$(MPIEXEC) -n 4 $(BUILD)/examples/ring_f90
	$(MPIEXEC) -n 64 $(BUILD)/examples/ring_f90
	$(MPIEXEC) -n 8 $(BUILD)/examples/pi_f90
