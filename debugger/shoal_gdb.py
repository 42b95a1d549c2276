# Shoal's gdb extension: makes the ranks of a node process (threads named "rank N", each
# running its own copy <jobdir>/<prog>.rank<N>) feel like separate programs.
# Entered by gdb's Python interpreter only, with the inferior stopped (all-stop mode) except
# for `rank N continue`. Must not write inferior memory or resume ranks the user did not name.
#
# Commands (docs/debugging.md): info ranks, rank [SPEC [COMMAND]], mpi queues [SPEC],
# mpi load [SPEC], shoal-start (used by mpiexec --gdb).
#
# Ranks switched in user space (runtime/core/fiber.h): a rank that waits may be parked (its
# registers saved on its own stack) or running on a thread named "carrier N", while its own
# thread "rank N" idles in home_main. FiberUnwinder continues a parked rank's home stack
# into the rank's frames, and rank_threads() maps a rank that runs on a carrier to that
# carrier, so every command sees the rank as before.
import re
import time

import gdb
import gdb.unwinder

# Frames unwound per rank looking for the MPI call and the program's frame: deeper stacks
# are recursion in user code, and the MPI call is within the innermost frames.
SHL_GDB_MAX_FRAMES = 64
# Arguments of an MPI call shown in `info ranks`, in this order.
KEY_ARGS = ("source", "dest", "tag", "sendtag", "recvtag", "root", "comm", "count",
            "sendcount", "recvcount", "incount", "outcount")
COPY_RE = re.compile(r"\.rank(\d+)$")
NAME_RE = re.compile(r"^rank (\d+)$")
CARRIER_RE = re.compile(r"^carrier \d+$")
MPI_ANY_SOURCE = -1
MPI_ANY_TAG = -1
MPI_PROC_NULL = -2


# ---- inferior state -------------------------------------------------------------------

def symbols_on_demand():
    """Whether gdb loads shared library symbols only when asked (set auto-solib-add off)."""
    return not gdb.parameter("auto-solib-add")


_loaded = set()


def load_runtime():
    """With auto-solib-add off: load the symbols the extension needs (libmpi, libc, the
    dynamic loader) and nothing per rank."""
    if not symbols_on_demand() or "runtime" in _loaded:
        return
    for lib in (r"libmpi\.so", r"libc\.so", r"ld-linux", r"libgcc_s"):
        gdb.execute("sharedlibrary " + lib, to_string=True)
    _loaded.add("runtime")


def load_copy(rank):
    """With auto-solib-add off: load the symbols of rank `rank`'s copy of the program."""
    if not symbols_on_demand() or rank in _loaded:
        return
    gdb.execute(r"sharedlibrary \.rank%d$" % rank, to_string=True)
    _loaded.add(rank)


def nranks():
    load_runtime()
    try:
        return int(gdb.parse_and_eval("shl_loader.nranks"))
    except gdb.error:
        return 0


_local = []


def local_ranks():
    """The world ranks of this node process's copies, in copy order: 0..n-1 for a job on
    one node, the node's share of the world on several hosts."""
    global _local
    n = nranks()
    if len(_local) != n:
        try:
            _local = [int(gdb.parse_and_eval("shl_loader.copies[%d].rank" % k))
                      for k in range(n)]
        except gdb.error:
            _local = list(range(n))
    return _local


def world_size():
    load_runtime()
    try:
        return int(gdb.parse_and_eval("shl_loader.world_size")) or nranks()
    except gdb.error:
        return nranks()


def ranks_of(spec):
    """SPEC (see parse_spec) as world ranks of this node: 'all' is every one of them; a
    list keeps those on this node and fails if that leaves none."""
    local = local_ranks()
    if spec == "all":
        return list(local)
    mine = set(local)
    ranks = [r for r in parse_spec(spec, world_size()) if not mine or r in mine]
    if not ranks:
        raise gdb.GdbError("no rank of '%s' is on this node (its ranks: %s)" % (
            spec, compact(sorted(mine))))
    return ranks


def rank_threads():
    """{rank: gdb.InferiorThread} for every live rank; a rank's own threads inherit its
    name, so the rank is its lowest-numbered thread of that name. A rank that runs on a
    carrier (a fiber, runtime/core/fiber.h) maps to that carrier thread."""
    found = {}
    inf = gdb.selected_inferior()
    threads = sorted(inf.threads(), key=lambda t: t.num)
    for t in threads:
        m = NAME_RE.match(t.name or "")
        if m and int(m.group(1)) not in found:
            found[int(m.group(1))] = t
    away = carried(threads)
    if away:
        for k, t in found.items():
            c = away.get(thread_handle(t))
            if c is not None:
                found[k] = c
    return found


def thread_rank_by_name(thread):
    m = NAME_RE.match((thread.name or "") if thread else "")
    return int(m.group(1)) if m else None


def thread_rank(thread):
    """The rank a thread belongs to: by its name, or for a carrier, the rank it runs."""
    r = thread_rank_by_name(thread)
    if r is not None:
        return r
    if thread and CARRIER_RE.match(thread.name or ""):
        base = fs_base(thread)
        for t in gdb.selected_inferior().threads():
            m = NAME_RE.match(t.name or "")
            if m and base is not None and thread_handle(t) == base:
                return int(m.group(1))
    return None


# ---- ranks switched in user space (runtime/core/fiber.h, runtime/core/fiber.c) -----------------
# A rank's own thread keeps the rank's thread pointer (%fs base, which is its pthread_t, the
# thread's handle), and a carrier that runs the rank loads it: a carrier runs the rank
# whose own thread's handle equals the carrier's $fs_base. (A carrier's own handle is no
# use: libthread_db reads it from %fs, so it may name the rank the carrier ran when gdb
# first saw it.)

def thread_handle(thread):
    """A thread's pthread_t (its thread pointer) as an int, or None."""
    try:
        return int.from_bytes(thread.handle(), "little")
    except (gdb.error, RuntimeError, TypeError, AttributeError):
        return None


def fs_base(thread):
    """A stopped thread's $fs_base, or None. Selects `thread`. (The thread a breakpoint's
    stop() runs in still counts as running there, but its registers can be read.)"""
    if not thread.is_valid():
        return None
    try:
        if gdb.selected_thread() != thread:
            if thread.is_running():
                return None
            thread.switch()
        return int(gdb.newest_frame().read_register("fs_base"))
    except (gdb.error, ValueError):
        return None


def carried(threads):
    """{$fs_base: carrier thread} for the carriers among `threads`: a carrier that runs a
    rank has the rank's thread handle there, an idle one its own."""
    away = {}
    carriers = [t for t in threads if CARRIER_RE.match(t.name or "")]
    if not carriers:
        return away
    with Restore():
        for c in carriers:
            base = fs_base(c)
            if base is not None:
                away[base] = c
    return away


FIBER_RUNNING = 0
# The registers shl_fiber_switch saves at a parked fiber's sp, by offset (core/fiber.c); the
# rank's stack pointer there was sp + SAVED_SIZE.
SAVED_REGS = (("r15", 16), ("r14", 24), ("r13", 32), ("r12", 40), ("rbx", 48),
              ("rbp", 56), ("rip", 64))
SAVED_SIZE = 72
_home_pcs = {}
_layout = []


def forget_symbols(*_):
    _home_pcs.clear()
    _text_starts.clear()
    del _layout[:]


def forget_program(*_):
    forget_symbols()
    del _ref_copy[:]


gdb.events.new_objfile.connect(forget_symbols)
gdb.events.clear_objfiles.connect(forget_program)


def in_home_main(pc):
    """Whether `pc` is in core/fiber.c's home_main (or a function inlined there). Needs no
    frame, which matters inside an unwinder; cached per pc."""
    hit = _home_pcs.get(pc)
    if hit is None:
        hit = False
        try:
            block = gdb.block_for_pc(pc)
            while block is not None and not hit:
                hit = block.function is not None and block.function.name == "home_main"
                block = block.superblock
        except RuntimeError:
            pass
        _home_pcs[pc] = hit
    return hit


def fiber_layout():
    """(&shl_job, and byte offsets of the fields parked_sp reads) from libmpi's debug info,
    once per symbol change; None without it."""
    if not _layout:
        sym = gdb.lookup_global_symbol("shl_job")
        if sym is None:
            return None

        def offsets(name):
            return {f.name: f.bitpos // 8 for f in gdb.lookup_type(name).fields()}

        job, rank, fiber = (offsets("struct shl_job"), offsets("struct shl_rank"),
                            offsets("struct shl_fiber"))
        _layout.append((int(sym.value().address), job["size"], job["ranks"], rank["fiber"],
                        fiber["rank"], fiber["state"], fiber["sp"]))
    return _layout[0]


def parked_sp(rank):
    """The saved sp of world rank `rank`'s fiber if it is parked or queued, else None
    (running on a carrier, no fiber, or no symbols). Reads memory only: no frame."""
    layout = fiber_layout()
    if layout is None:
        return None
    job, o_size, o_ranks, o_fiber, o_rank, o_state, o_sp = layout
    inf = gdb.selected_inferior()

    def word(addr, size=8):
        return int.from_bytes(inf.read_memory(addr, size).tobytes(), "little")

    ranks = word(job + o_ranks)
    if rank >= word(job + o_size, 4) or ranks == 0:
        return None
    r = word(ranks + 8 * rank)
    f = word(r + o_fiber) if r else 0
    if f == 0 or word(f + o_rank) != r or word(f + o_state, 4) == FIBER_RUNNING:
        return None
    sp = word(f + o_sp)
    return sp if sp and sp % 8 == 0 else None


class FrameId:
    """What create_unwind_info wants (gdb 13 has no gdb.unwinder.FrameId): gdb.Values."""

    def __init__(self, sp, pc):
        self.sp = sp
        self.pc = pc


class FiberUnwinder(gdb.unwinder.Unwinder):
    """While a rank is away from its own thread ("rank N"), that thread idles in core/fiber.c's
    home_main on a stack of its own. If the rank is parked or queued, home_main's caller is
    shown as the rank's context saved at fiber->sp, so bt goes on into the rank's frames
    (shl_fiber_park, sleep_once, shl_wait, MPI_Recv, main). A rank running on a carrier is
    found on the carrier instead (rank_threads).

    home_main's frame is the one replaced, not shl_fiber_start's, its caller on the home
    stack: gdb ends a backtrace whose frame ids go from one stack to a lower one between
    two normal frames ("previous frame inner to this frame"), and home stacks may be mapped
    above or below rank stacks. home_main's own frame is innermost or called only inlined
    code, so gdb does not compare it; its id is the saved sp, just below the rank's frames."""

    def __init__(self):
        super().__init__("shoal fibers")

    def __call__(self, pending):
        try:
            pc = pending.read_register("rip")
            if not in_home_main(int(pc)):
                return None
            rank = thread_rank_by_name(gdb.selected_thread())
            sp = parked_sp(rank) if rank is not None else None
            if sp is None:
                return None
            saved = gdb.selected_inferior().read_memory(sp, SAVED_SIZE).tobytes()
            rsp = pending.read_register("rsp")
            info = pending.create_unwind_info(FrameId(gdb.Value(sp).cast(rsp.type), pc))
            for name, off in SAVED_REGS:
                v = int.from_bytes(saved[off:off + 8], "little")
                info.add_saved_register(name, gdb.Value(v).cast(pending.read_register(name).type))
            info.add_saved_register("rsp", gdb.Value(sp + SAVED_SIZE).cast(rsp.type))
            return info
        except (gdb.error, gdb.MemoryError, ValueError, KeyError, RuntimeError):
            return None


gdb.unwinder.register_unwinder(None, FiberUnwinder(), replace=True)


def parse_spec(spec, n):
    """'3', '0-7', '1,4-6', 'all' -> sorted list of ranks below n (n 0: unchecked)."""
    if spec == "all":
        return list(range(n))
    out = set()
    for part in spec.split(","):
        m = re.fullmatch(r"(\d+)(?:-(\d+))?", part.strip())
        if not m:
            raise gdb.GdbError("bad rank list '%s' (want N, N-M, N,M or all)" % spec)
        lo = int(m.group(1))
        hi = int(m.group(2)) if m.group(2) else lo
        if hi < lo or (n and hi >= n):
            raise gdb.GdbError("rank list '%s' is outside 0..%d" % (spec, n - 1))
        out.update(range(lo, hi + 1))
    return sorted(out)


def is_spec(word):
    return word == "all" or re.fullmatch(r"[\d,\-]+", word) is not None


class Restore:
    """Puts the selected thread and frame back after a command looked at other ranks."""

    def __enter__(self):
        self.thread = gdb.selected_thread()
        try:
            self.frame = gdb.selected_frame()
        except gdb.error:
            self.frame = None
        return self

    def __exit__(self, *exc):
        if self.thread and self.thread.is_valid():
            self.thread.switch()
            if self.frame and self.frame.is_valid():
                self.frame.select()
        return False


# ---- formatting runtime objects -------------------------------------------------------

def comm_name(v):
    """An MPI_Comm (struct shl_comm *) as the user would name it."""
    try:
        if int(v) == 0:
            return "MPI_COMM_NULL"
        c = v.dereference()
        predef = int(c["predef"])
        if predef == 1:
            return "MPI_COMM_WORLD"
        if predef == 2:
            return "MPI_COMM_SELF"
        if int(c["name"]) != 0:
            name = c["name"].string()
            if name:
                return name
        return "comm(context=%d, size=%d)" % (int(c["context"]), int(c["size"]))
    except gdb.error:
        return "?"


def peer_name(v, any_value):
    v = int(v)
    if v == any_value:
        return "MPI_ANY_SOURCE" if any_value == MPI_ANY_SOURCE else "MPI_ANY_TAG"
    if v == MPI_PROC_NULL and any_value == MPI_ANY_SOURCE:
        return "MPI_PROC_NULL"
    return str(v)


def arg_text(name, v):
    if name == "comm":
        return comm_name(v)
    if name == "source":
        return peer_name(v, MPI_ANY_SOURCE)
    if name in ("tag", "recvtag"):
        return peer_name(v, MPI_ANY_TAG)
    return str(int(v))


def waited_request(wait):
    """The struct shl_req * a shl_wait/shl_poll frame waits for, or None: its `arg` is a
    request when `done` is one of the runtime's request predicates."""
    try:
        # The predicate prints as "0x... <req_done>"; static functions have no block of
        # their own once inlined elsewhere, so go by the symbol name gdb shows.
        if not re.search(r"<(req_done|send_done)>", str(wait.read_var("done"))):
            return None
        return wait.read_var("arg").cast(gdb.lookup_type("struct shl_req").pointer())
    except (gdb.error, RuntimeError, ValueError):
        return None


def request_args(q):
    """Key arguments recovered from the request a blocking call waits for (the call's own
    arguments are often optimized out at -O2)."""
    req = q.dereference()
    recv = int(req["kind"]) == 1
    return {("source" if recv else "dest"): arg_text("source" if recv else "dest", req["peer"]),
            "tag": arg_text("tag", req["tag"]), "comm": comm_name(req["comm"]),
            "count": str(int(req["count"]))}


def pending_requests(frame, args):
    """' pending: [recv source=1 tag=3 ...]' for the requests an MPI_Wait*/Test* call
    still waits for."""
    try:
        n = None
        for name in ("count", "incount"):
            try:
                n = int(frame.read_var(name))
                break
            except (gdb.error, ValueError):
                continue
        arr = None
        for name in ("array_of_requests", "reqs"):  # reqs: core/request.c's all(), some()
            try:
                arr = frame.read_var(name)
                break
            except (gdb.error, ValueError):
                continue
        if arr is None:
            arr, n = frame.read_var("request"), 1
        out = []
        for i in range(min(n or 0, 1024)):
            q = arr[i]
            if int(q) and not int(q.dereference()["done"]):
                out.append(req_text(q))
    except (gdb.error, ValueError, RuntimeError):
        return ""
    if not out:
        return ""
    more = " ... %d more" % (len(out) - 4) if len(out) > 4 else ""
    return " pending: [%s%s]" % ("; ".join(out[:4]), more)


def mpi_call(frame, wait=None, call=None):
    """'MPI_Recv(source=3, tag=7, comm=MPI_COMM_WORLD, count=10)' for a PMPI_/MPI_ frame,
    or for the frame of an internal function working for MPI call `call`; `wait` is the
    shl_wait frame below it, if any. Arguments optimized out at -O2 and not recoverable
    from the waited-for request are left out."""
    if call is None:
        name = frame.name()
        call = "MPI_" + name[5:] if name.startswith("PMPI_") else name
    args = {}
    try:
        block = frame.block()
        while block and not block.function:
            block = block.superblock
        for sym in (block or []):
            if sym.is_argument and sym.name in KEY_ARGS:
                try:
                    v = frame.read_var(sym)
                    if not v.is_optimized_out:
                        args[sym.name] = arg_text(sym.name, v)
                except (gdb.error, ValueError):
                    pass
    except RuntimeError:
        pass
    q = waited_request(wait) if wait else None
    # A large-count twin (MPI_Recv_c) waits the way its int binding does.
    base = call[:-2] if call.endswith("_c") else call
    if q is not None and base in ("MPI_Recv", "MPI_Send", "MPI_Ssend", "MPI_Rsend",
                                  "MPI_Bsend", "MPI_Sendrecv", "MPI_Sendrecv_replace",
                                  "MPI_Wait", "MPI_Probe", "MPI_Mprobe"):
        for k, v in request_args(q).items():
            args.setdefault(k, v)
    shown = ", ".join("%s=%s" % (k, args[k]) for k in KEY_ARGS if k in args)
    pending = ""
    if call.startswith("MPI_Wait") or call.startswith("MPI_Test"):
        pending = pending_requests(frame, args)
    return "%s(%s)%s" % (call, shown, pending)


_text_starts = {}
_ref_copy = []  # the path of the copy whose symbols copy_line uses


def text_starts():
    """{shared object path: address of its .text} from `info sharedlibrary`."""
    if not _text_starts:
        out = gdb.execute("info sharedlibrary", to_string=True)
        for line in out.splitlines():
            m = re.match(r"^(0x[0-9a-f]+)\s+0x[0-9a-f]+\s+(?:Yes \(\*\)|Yes|No)\s+(\S.*)$",
                         line.strip())
            if m:
                _text_starts[m.group(2)] = int(m.group(1), 16)
    return _text_starts


def copy_line(frame, lib):
    """(function, file, line) of a frame in a rank's copy whose symbols are not loaded, from
    another copy's (every copy is the same file): with symbols on demand, one copy's
    symbols give every rank's source lines. None if that fails."""
    # A caller's pc is a return address: its line is the call's.
    pc = frame.pc()
    if frame.type() == gdb.NORMAL_FRAME and frame != gdb.newest_frame():
        pc -= 1
    if not _ref_copy:
        local = local_ranks()
        if not local:
            return None
        load_copy(local[0])  # new symbols: `frame` is no longer valid
        pattern = re.compile(r"\.rank%d$" % local[0])
        _ref_copy.append(next((p for p in text_starts() if pattern.search(p)), None))
    starts = text_starts()
    if _ref_copy[0] not in starts or lib not in starts:
        return None
    pc = pc - starts[lib] + starts[_ref_copy[0]]
    sal = gdb.find_pc_line(pc)
    block = gdb.block_for_pc(pc)
    while block is not None and block.function is None:
        block = block.superblock
    if not sal.symtab or block is None:
        return None
    return block.function.name, sal.symtab.filename.split("/")[-1], sal.line


def frame_text(frame):
    """'compute () at ring.c:12', or '0x7f.. in prog.rank3' when no symbols are found."""
    name = frame.name()
    sal = frame.find_sal()
    pc = frame.pc()  # now: loading the copy's symbols below makes `frame` invalid
    if name and sal.symtab:
        return "%s () at %s:%d" % (name, sal.symtab.filename.split("/")[-1], sal.line)
    lib = gdb.solib_name(pc)
    if lib and COPY_RE.search(lib) and symbols_on_demand():
        try:
            where = copy_line(frame, lib)
        except (gdb.error, RuntimeError, ValueError):
            where = None
        if where:
            return "%s () at %s:%d" % where
    where = (lib or "?").split("/")[-1]
    if name:
        return "%s () from %s" % (name, where)
    return "0x%x in %s" % (pc, where)


def served_call(frame):
    """The MPI call an internal function works for, from its `fn` argument ("MPI_Waitall"),
    or None. An entry point that ends in a tail call (MPI_Waitall's `return all(...)`)
    leaves no PMPI_ frame on the stack."""
    try:
        text = frame.read_var("fn").string(length=64).split("\0")[0]
    except (gdb.error, ValueError, RuntimeError, UnicodeError):
        return None
    return text if text.startswith("MPI_") else None


def examine(thread):
    """(state, program frame or None) of a stopped rank thread."""
    thread.switch()
    try:
        frame = gdb.newest_frame()
    except gdb.error:
        return "running", None
    call, served, user, wait, depth = None, None, None, None, 0
    while frame and depth < SHL_GDB_MAX_FRAMES:
        name = frame.name() or ""
        if name in ("shl_wait", "shl_poll") and call is None:
            wait = frame
        elif name.startswith("PMPI_") or name.startswith("MPI_"):
            call = frame  # keep the outermost: the call the program made
        else:
            lib = gdb.solib_name(frame.pc()) or ""
            if COPY_RE.search(lib):
                user = frame
                break
            fn = served_call(frame) if call is None else None
            if fn:
                served = (frame, fn)  # the outermost too
        try:
            frame = frame.older()
        except gdb.error:
            break
        depth += 1
    if call:
        return "in " + mpi_call(call, wait), user
    if served:
        return "in " + mpi_call(served[0], wait, served[1]), user
    return "running", user


def phase_text(rank):
    try:
        r = gdb.parse_and_eval("shl_job.ranks[%d]" % rank)
        phase = int(r["phase"]) if int(r) else 0
    except gdb.error:
        return ""
    return {0: " (before MPI_Init)", 2: " (after MPI_Finalize)"}.get(phase, "")


def copy_field(rank, field):
    """Field of world rank `rank`'s copy (copies are in this node's order)."""
    local = local_ranks()
    k = local.index(rank) if rank in local else rank
    return gdb.parse_and_eval("shl_loader.copies[%d].%s" % (k, field))


# ---- commands ------------------------------------------------------------------------

class InfoRanks(gdb.Command):
    """List the ranks: rank, gdb thread, state (running, in MPI_Recv(source=.., tag=..,
    comm=.., count=..), exited) and the rank's innermost frame in the program.
Usage: info ranks [SPEC]   (SPEC: N, N-M, N,M or all; default all)"""

    def __init__(self):
        super().__init__("info ranks", gdb.COMMAND_STATUS)

    def invoke(self, arg, from_tty):
        threads = rank_threads()
        ranks = ranks_of(arg.strip()) if arg.strip() else (local_ranks() or sorted(threads))
        current = thread_rank(gdb.selected_thread())
        t0 = time.monotonic()
        lines = ["  %-5s %-7s %s" % ("Rank", "Thread", "State / frame")]
        with Restore():
            for k in ranks:
                t = threads.get(k)
                mark = "*" if k == current else " "
                if t is None:
                    try:
                        done = int(copy_field(k, "reported"))
                        code = int(copy_field(k, "code"))
                    except gdb.error:
                        done, code = 0, 0
                    state = "exited (code %d)" % code if done else "not started"
                    lines.append("%s %-5d %-7s %s" % (mark, k, "-", state))
                    continue
                if t.is_running():
                    lines.append("%s %-5d %-7d running" % (mark, k, t.num))
                    continue
                state, user = examine(t)
                if state == "running":
                    try:
                        loading = int(copy_field(k, "stage")) == 0  # SHL_STAGE_LOADING
                    except gdb.error:
                        loading = False
                    state = "loaded, before main" if loading else state + phase_text(k)
                where = frame_text(user) if user else ""
                lines.append("%s %-5d %-7d %-60s %s" % (mark, k, t.num, state, where))
        gdb.write("\n".join(line.rstrip() for line in lines) + "\n")
        if len(ranks) >= 256:
            gdb.write("(%d ranks in %.2f s)\n" % (len(ranks), time.monotonic() - t0))


def select_rank(rank, threads=None):
    threads = threads if threads is not None else rank_threads()
    t = threads.get(rank)
    if t is None:
        raise gdb.GdbError("rank %d has no thread (not started or exited)" % rank)
    load_copy(rank)
    t.switch()
    # Select the rank's innermost frame in its copy, so `print global` reads this copy.
    try:
        frame = gdb.newest_frame()
        depth = 0
        while frame and depth < SHL_GDB_MAX_FRAMES:
            if COPY_RE.search(gdb.solib_name(frame.pc()) or ""):
                frame.select()
                break
            frame = frame.older()
            depth += 1
    except gdb.error:
        pass


RESUME = ("continue", "c", "next", "n", "step", "s", "finish", "fin", "until", "u",
          "advance", "stepi", "si", "nexti", "ni")
BREAK = ("break", "b", "br", "tbreak", "tb")


class RankBreakpoint(gdb.Breakpoint):
    """A breakpoint that stops only in the threads of the given ranks (a rank's own threads
    count as the rank)."""

    def __init__(self, spec, ranks, temporary):
        super().__init__(spec, internal=False, temporary=temporary)
        self.ranks = frozenset(ranks)

    def stop(self):
        return thread_rank(gdb.selected_thread()) in self.ranks


class Rank(gdb.Command):
    """Select a rank or run a command in some ranks.
Usage: rank                 show the selected rank
       rank N               switch to rank N's thread and its innermost program frame
       rank SPEC break LOC  breakpoint that stops only in ranks SPEC (N, N-M, N,M, all)
       rank N continue      resume rank N only (scheduler-locking on) until it stops
                            (also next, step, finish, until, advance)
       rank SPEC CMD        run CMD (print, bt, frame, info locals...) in each rank of SPEC"""

    def __init__(self):
        super().__init__("rank", gdb.COMMAND_RUNNING)

    def invoke(self, arg, from_tty):
        words = arg.split(None, 1)
        if not words:
            r = thread_rank(gdb.selected_thread())
            gdb.write("no rank selected\n" if r is None else "rank %d\n" % r)
            return
        if not is_spec(words[0]):
            raise gdb.GdbError("usage: rank N | rank SPEC COMMAND (see help rank)")
        ranks = ranks_of(words[0])
        cmd = words[1].strip() if len(words) > 1 else ""
        verb = cmd.split(None, 1)[0] if cmd else ""
        if not cmd:
            if len(ranks) != 1:
                raise gdb.GdbError("select one rank (rank N), or give a command")
            select_rank(ranks[0])
            gdb.execute("frame", from_tty=from_tty)
        elif verb in BREAK:
            self.breakpoint(ranks, cmd, verb)
        elif verb in RESUME:
            if len(ranks) != 1:
                raise gdb.GdbError("resume one rank at a time (scheduler-locking)")
            self.resume(ranks[0], cmd)
        else:
            threads = rank_threads()
            with Restore():
                for k in ranks:
                    gdb.write("[rank %d]\n" % k)
                    try:
                        select_rank(k, threads)
                        gdb.execute(cmd, from_tty=from_tty)
                    except gdb.error as e:
                        gdb.write("%s\n" % e)

    def breakpoint(self, ranks, cmd, verb):
        rest = cmd.split(None, 1)
        if len(rest) < 2:
            raise gdb.GdbError("usage: rank SPEC break LOCATION [if CONDITION]")
        spec, cond = rest[1], None
        m = re.match(r"(.*?)\s+if\s+(.*)$", spec)
        if m:
            spec, cond = m.group(1), m.group(2)
        for k in ranks:  # with symbols on demand, only these copies get locations
            load_copy(k)
        bp = RankBreakpoint(spec, ranks, temporary=verb.startswith("t"))
        if cond:
            bp.condition = cond
        gdb.write("Breakpoint %d (%s) for rank%s %s\n" % (
            bp.number, spec, "" if len(ranks) == 1 else "s", compact(ranks)))

    def resume(self, rank, cmd):
        old = gdb.parameter("scheduler-locking")
        select_rank(rank)
        gdb.execute("set scheduler-locking on")
        try:
            gdb.execute(cmd)
        finally:
            gdb.execute("set scheduler-locking %s" % old)


def compact(ranks):
    out, i = [], 0
    while i < len(ranks):
        j = i
        while j + 1 < len(ranks) and ranks[j + 1] == ranks[j] + 1:
            j += 1
        out.append(str(ranks[i]) if i == j else "%d-%d" % (ranks[i], ranks[j]))
        i = j + 1
    return ",".join(out)


class Mpi(gdb.Command):
    """Shoal MPI commands: mpi queues [SPEC], mpi load [SPEC]."""

    def __init__(self):
        super().__init__("mpi", gdb.COMMAND_DATA, prefix=True)


def walk(head, field="next"):
    """The nodes of a NULL-terminated list, at most a million (a corrupt list ends)."""
    node, seen = head, 0
    while int(node) != 0 and seen < 1000000:
        yield node
        node = node.dereference()[field]
        seen += 1


def matching(r, kind):
    """Rank r's posted receives (kind "posted") or unexpected messages ("unexpected"),
    oldest first: they wait in bins by source, and MPI_ANY_SOURCE receives on a list of
    their own (runtime/core/rt.h, "matching"); each took the next of its rank's numbers."""
    bins = r["bins"]
    lo, hi = bins.type.range()
    heads = [bins[b][kind]["head"] for b in range(lo, hi + 1)]
    if kind == "posted":
        heads.append(r["wild"]["head"])
    items = [x for head in heads for x in walk(head)]
    return sorted(items, key=lambda x: int(x.dereference()["seq"]))


def contexts_of(r):
    """{context: communicator name} known to rank r: its world and self, and the
    communicators of its posted receives."""
    names = {int(r["world"]["context"]): "MPI_COMM_WORLD",
             int(r["self"]["context"]): "MPI_COMM_SELF"}
    for q in matching(r, "posted"):
        c = q.dereference()["comm"]
        if int(c):
            names.setdefault(int(c.dereference()["context"]), comm_name(c))
    return names


def envelope_text(e, names):
    env = e.dereference()
    ctx = int(env["context"])
    waiting = "  (sender waits)" if int(env["cookie"]) else ""
    return "source=%d tag=%d comm=%s bytes=%d%s" % (
        int(env["src"]), int(env["tag"]), names.get(ctx, "context=%d" % ctx),
        int(env["bytes"]), waiting)


def inbox(r):
    """Envelopes pushed into rank r's inbox and not yet drained by it, lane by lane."""
    etype = gdb.lookup_type("struct shl_envelope").pointer()
    for lane in range(int(r["inbox"]["lanes"])):
        node = r["inbox"]["lane"][lane]["head"]["node"]["next"]
        seen = 0
        while int(node) != 0 and seen < 1000000:
            yield node.cast(etype)
            node = node.dereference()["next"]
            seen += 1


def req_text(q):
    req = q.dereference()
    kinds = {0: "send", 1: "recv", 2: "done"}
    kind = kinds.get(int(req["kind"]), "?")
    peer = int(req["peer"])
    who = "source" if kind == "recv" else "dest"
    return "%s %s=%s tag=%s comm=%s count=%d buf=0x%x" % (
        kind, who, peer_name(peer, MPI_ANY_SOURCE if kind == "recv" else -99),
        peer_name(req["tag"], MPI_ANY_TAG), comm_name(req["comm"]), int(req["count"]),
        int(req["buf"]))


class MpiQueues(gdb.Command):
    """Show a rank's message queues: posted receives, unexpected messages (arrived and
not matched), messages still in its inbox, its sends waiting for a receiver, and its
requests still in flight after being freed.
Usage: mpi queues [SPEC]   (default: the selected rank; SPEC: N, N-M, N,M or all)"""

    def __init__(self):
        super().__init__("mpi queues", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        local = local_ranks()
        if arg.strip():
            ranks = ranks_of(arg.strip())
        else:
            r = thread_rank(gdb.selected_thread())
            if r is None:
                raise gdb.GdbError("no rank selected: mpi queues N, or rank N first")
            ranks = [r]
        for k in ranks:
            self.show(k, local, terse=len(ranks) > 1)

    def show(self, k, local, terse):
        """Every section for one rank; for several ranks only the non-empty ones."""
        r = gdb.parse_and_eval("shl_job.ranks[%d]" % k)
        if int(r) == 0:
            gdb.write("rank %d: not in MPI\n" % k)
            return
        names = contexts_of(r)
        posted = [req_text(q) for q in matching(r, "posted")]
        unexpected = [envelope_text(e, names) for e in matching(r, "unexpected")]
        arrived = [envelope_text(e, names) for e in inbox(r)]
        detached = [req_text(q) for q in walk(r["detached"])
                    if not int(q.dereference()["done"])]
        sends = []
        for j in local:  # a send to another node waits there, not here
            other = gdb.parse_and_eval("shl_job.ranks[%d]" % j)
            if j == k or int(other) == 0:
                continue
            for e in matching(other, "unexpected") + list(inbox(other)):
                cookie = e.dereference()["cookie"]
                if int(cookie) == 0:
                    continue
                q = cookie.cast(gdb.lookup_type("struct shl_req").pointer()).dereference()
                if int(q["owner"]) == int(r):
                    sends.append("to rank %d: %s" % (j, envelope_text(e, contexts_of(other))))
        for title, items in (("posted receives", posted), ("unexpected messages", unexpected),
                             ("in inbox, not yet matched", arrived),
                             ("sends waiting for a receive", sends),
                             ("freed requests in flight", detached)):
            if terse and not items:
                continue
            gdb.write("rank %d: %s: %d\n" % (k, title, len(items)))
            for it in items:
                gdb.write("    %s\n" % it)
        if terse and not (posted or unexpected or arrived or sends or detached):
            gdb.write("rank %d: nothing queued\n" % k)


class MpiLoad(gdb.Command):
    """Load the symbols of the given ranks' copies of the program (with auto-solib-add off,
as shoal-gdb attaches to large jobs). Usage: mpi load SPEC"""

    def __init__(self):
        super().__init__("mpi load", gdb.COMMAND_FILES)

    def invoke(self, arg, from_tty):
        load_runtime()
        for k in ranks_of(arg.strip() or "all"):
            load_copy(k)


class ShoalStart(gdb.Command):
    """Run the job (mpiexec --gdb) and stop once every rank has loaded its copy of the
program, before any rank enters main."""

    def __init__(self):
        super().__init__("shoal-start", gdb.COMMAND_RUNNING)

    def invoke(self, arg, from_tty):
        gdb.execute("set print thread-events off")
        gdb.execute("set pagination off")
        # shoal-node's main runs before any rank exists; libmpi is loaded by then.
        gdb.execute("tbreak main", to_string=True)
        gdb.execute("run", to_string=True)
        load_runtime()
        gdb.execute("tbreak shl_node_ranks_loaded", to_string=True)
        gdb.execute("continue", to_string=True)
        try:
            gdb.execute("up", to_string=True)  # out of the hook, into the rank's run_rank
        except gdb.error:
            pass
        gdb.write("shoal: %d ranks loaded, none has entered main yet.\n"
                  "shoal: commands: info ranks, rank N, rank SPEC break F, rank N continue, "
                  "mpi queues [SPEC]; see help rank\n" % nranks())


class ShoalAttached(gdb.Command):
    """Set-up after attaching to a node process (shoal-gdb PID)."""

    def __init__(self):
        super().__init__("shoal-attached", gdb.COMMAND_RUNNING)

    def invoke(self, arg, from_tty):
        load_runtime()
        n = nranks()
        gdb.write("shoal: attached to a node process of %d ranks%s\n" % (
            n, "; program symbols load per rank (rank N, mpi load SPEC)"
            if symbols_on_demand() else ""))


class ShoalReportAttach(gdb.Command):
    """Attach to node process PID for a hang report, quietly: gdb's own attach messages
(libthread_db, the frame it stopped in) are not part of the report.
Usage: shoal-report-attach PID"""

    def __init__(self):
        super().__init__("shoal-report-attach", gdb.COMMAND_RUNNING)

    def invoke(self, arg, from_tty):
        gdb.execute("attach %d" % int(arg), to_string=True)
        load_runtime()


def on_stop(event):
    """gdb names the thread that hit a breakpoint; for a carrier, say which rank it runs."""
    if not isinstance(event, gdb.BreakpointEvent):
        return
    t = gdb.selected_thread()
    if t is None or not CARRIER_RE.match(t.name or ""):
        return
    r = thread_rank(t)
    if r is not None:
        bp = event.breakpoints[0]
        gdb.write("[rank %d hit %s %d on thread %d \"%s\"]\n" % (
            r, "Temporary breakpoint" if bp.temporary else "Breakpoint", bp.number, t.num,
            t.name))


gdb.events.stop.connect(on_stop)
ShoalReportAttach()
InfoRanks()
Rank()
Mpi()
MpiQueues()
MpiLoad()
ShoalStart()
ShoalAttached()
