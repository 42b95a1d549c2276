"""The mpif.h / `mpi` backend of runtime/fortran/bindgen.py (which documents the IR): the C
bodies (mpif_bindings.c), the constants program (mpif_consts.c), mpif.h and the `mpi`
module's source. Run by make through bindgen.py; no thread of the library enters it."""

import fnmatch
import os
import re

import bindgen

# Arrays of handles or statuses up to this many entries convert on the stack.
STACK_ENTRIES = 32

CTYPE_OF_KIND = {"int": "MPI_Fint", "logical": "MPI_Fint", "aint": "MPI_Aint",
                 "offset": "MPI_Offset", "count": "MPI_Count", "handle": "MPI_Fint",
                 "status": "MPI_Fint", "extra_state": "MPI_Aint"}
HANDLE_CTYPE = {"Comm": "MPI_Comm", "Datatype": "MPI_Datatype", "Request": "MPI_Request",
                "Errhandler": "MPI_Errhandler", "Message": "MPI_Message", "Group": "MPI_Group",
                "Info": "MPI_Info", "Op": "MPI_Op", "Win": "MPI_Win", "File": "MPI_File",
                "Session": "MPI_Session"}


def c_length(expr):
    """A description length expression as C over the wrapper's locals."""
    expr = re.sub(r"\bcomm_size\(", "shl_f_comm_size(", expr)
    expr = re.sub(r"\bneighbors_in\(", "shl_f_neighbors_in(", expr)
    return re.sub(r"\bneighbors_out\(", "shl_f_neighbors_out(", expr)


def alloc_length(f, p):
    """The entries to make room for before the call: the length, or, for a length known
    only after the call (*outcount), the bound the rules give (incount)."""
    if p.array.startswith("*"):
        return bindgen._default_length(f, p)
    return c_length(p.array)


def wrapper(f):
    """The C function pmpi_<name>_ of one bound function, and its weak alias."""
    lname = f.name.lower()
    # pre: the scalars' conversions first, then what needs them (arrays, out strings).
    args, hidden, pre, late, call, post, cleanup = [], [], [], [], [], [], []
    fn = f'"{f.cname}"'
    for p in f.params:
        n, fp = p.name, "f_" + p.name
        k = p.kind
        if k == "omit":
            call.append(p.value)
            continue
        if k == "buffer":
            args.append(f"void *{fp}")
            if "discard" in p.flags:
                pre.append(f"void *{n} = NULL;")
                call.append(f"&{n}")
            else:
                call.append(f"shl_f_buf({fp})")
            continue
        if k == "string":
            args.append(f"char *{fp}")
            hidden.append(f"size_t {fp}_len")
            if p.intent == "in":
                pre.append(f"char {n}_stack[SHL_F_STRING_STACK];")
                pre.append(f"char *{n} = shl_f_str_in({fp}, {fp}_len, {n}_stack);")
                pre.append(f"if ({n} == NULL) {{ rc = shl_f_nomem({fn}); goto out_{n}; }}")
                call.append(n)
                cleanup.insert(0, (f"out_{n}", f"if ({n} != {n}_stack) free({n});"))
            else:
                size = p.size
                late.append(f"size_t {n}_size = (size_t)({size}) > 0 ? (size_t)({size}) : 1;")
                late.append(f"char {n}_stack[SHL_F_STRING_STACK];")
                late.append(f"char *{n} = {n}_size <= sizeof {n}_stack ? {n}_stack : "
                           f"malloc({n}_size);")
                late.append(f"if ({n} == NULL) {{ rc = shl_f_nomem({fn}); goto out_{n}; }}")
                late.append(f"{n}[0] = 0;")
                call.append(n)
                post.append(f"shl_f_str_out({fp}, {fp}_len, {n}, {n}_size);")
                cleanup.insert(0, (f"out_{n}", f"if ({n} != {n}_stack) free({n});"))
            continue
        if k == "status":
            args.append(f"MPI_Fint *{fp}")
            if p.array is None:
                pre.append(f"MPI_Status {n}_tmp;")
                pre.append(f"MPI_Status *{n} = shl_f_status_in({fp}, &{n}_tmp, "
                           f"{'1' if p.intent != 'out' else '0'});")
                call.append(n)
                if p.intent != "in":
                    post.append(f"shl_f_status_out({fp}, {n}, 1);")
            else:
                alloc = alloc_length(f, p)
                late.append(f"MPI_Status {n}_stack[SHL_F_STACK_ENTRIES];")
                late.append(f"MPI_Status *{n} = {n}_stack;")
                late.append(f"if (shl_f_statuses({fp}, shl_f_len({alloc}), &{n}) != 0) "
                           f"{{ rc = shl_f_nomem({fn}); goto out_{n}; }}")
                call.append(n)
                post.append(f"shl_f_status_out({fp}, {n}, {c_length(p.array)});")
                cleanup.insert(0, (f"out_{n}", f"shl_f_statuses_free({fp}, {n}, {n}_stack);"))
            continue
        if k == "handle":
            h = p.handle
            ct, conv = HANDLE_CTYPE[h], bindgen.HANDLE_CONV[h]
            args.append(f"MPI_Fint *{fp}")
            if p.array is None:
                if p.intent == "in":
                    pre.append(f"{ct} {n} = shl_f_{conv}_f2c(*{fp});")
                    call.append(n)
                else:
                    init = f"shl_f_{conv}_f2c(*{fp})" if p.intent == "inout" else f"({ct})0"
                    pre.append(f"{ct} {n} = {init};")
                    call.append(f"&{n}")
                    post.append(f"*{fp} = PMPI_{conv}_c2f({n});")
            else:
                alloc = alloc_length(f, p)
                late.append(f"{ct} {n}_stack[SHL_F_STACK_ENTRIES];")
                late.append(f"size_t {n}_n = shl_f_len({alloc});")
                late.append(f"{ct} *{n} = {n}_n <= SHL_F_STACK_ENTRIES ? {n}_stack : "
                           f"malloc({n}_n * sizeof *{n});")
                late.append(f"if ({n} == NULL) {{ rc = shl_f_nomem({fn}); goto out_{n}; }}")
                if p.intent in ("in", "inout"):
                    late.append(f"for (size_t i = 0; i < {n}_n; i++)")
                    late.append(f"\t{n}[i] = shl_f_{conv}_f2c({fp}[i]);")
                if p.intent == "in" and bindgen.nonblocking(f.name):
                    # Read by the pending operation after this returns.
                    late.append(f"{ct} *{n}_kept = shl_f_keep({n}, {n}_n, sizeof *{n});")
                    late.append(f"if ({n}_kept == NULL) {{ rc = shl_f_nomem({fn}); goto out_{n}; }}")
                    call.append(f"{n}_kept")
                else:
                    call.append(n)
                if p.intent in ("out", "inout"):
                    post.append(f"for (size_t i = 0, e = shl_f_len({c_length(p.array)}); "
                                f"i < e && i < {n}_n; i++)")
                    post.append(f"\t{fp}[i] = PMPI_{conv}_c2f({n}[i]);")
                cleanup.insert(0, (f"out_{n}", f"if ({n} != {n}_stack) free({n});"))
            continue
        if k in CTYPE_OF_KIND:
            ct = CTYPE_OF_KIND[k]
            args.append(f"{ct} *{fp}")
            if p.array is not None:
                base = p.ctype.replace("const ", "").replace("*", "").strip()
                pre.append(f"{base} *{n} = ({base} *){fp};")
                if "sentinel" in p.flags:
                    call.append(f"shl_f_weights({n})")
                else:
                    call.append(f"(void *){n}")
                if "plus1" in p.flags:
                    post.append(f"for (int i = 0, e = {c_length(p.array)}; i < e; i++)")
                    post.append(f"\t{n}[i] += 1;")
            elif p.intent == "in":
                base = p.ctype.replace("const ", "").strip()
                pre.append(f"{base} {n} = *{fp};")
                call.append(n)
            else:
                base = p.ctype.replace("const ", "").replace("*", "").strip()
                if p.name == "baseptr":
                    call.append(fp)
                    continue
                if "nul" in p.flags:
                    # A C string length that counts the NUL, a Fortran one that does not.
                    pre.append(f"{base} {n}_v = *{fp} > 0 ? *{fp} + 1 : *{fp};")
                    pre.append(f"{base} *{n} = &{n}_v;")
                    post.append(f"*{fp} = {n}_v > 0 ? {n}_v - 1 : {n}_v;")
                else:
                    pre.append(f"{base} *{n} = ({base} *){fp};")
                call.append(n)
                if "plus1" in p.flags:
                    post.append(f"if (*{n} >= 0)")
                    post.append(f"\t*{n} += 1;")
            continue
        raise bindgen.DescriptionError(f"{f.cname}: no C binding for kind {k} ({n})")
    pre += late

    if f.ret_kind == "error":
        sig_args = args + (["MPI_Fint *ierror"] if f.ierror else []) + hidden
        rtype = "void"
    else:
        sig_args = args + hidden
        rtype = {"double": "double", "aint": "MPI_Aint"}[f.ret_kind]
    sig = ", ".join(sig_args) if sig_args else "void"
    out = [f"SHL_F_API {rtype} pmpi_{lname}_({sig});",
           f"SHL_F_API {rtype} pmpi_{lname}_({sig})", "{"]
    if f.ret_kind != "error":
        for line in pre:
            out.append("\t" + line)
        out.append(f"\treturn PMPI_{f.name}({', '.join(call)});")
        out.append("}")
    else:
        out.append("\tint rc = MPI_SUCCESS;")
        for line in pre:
            out.append("\t" + line)
        out.append(f"\trc = PMPI_{f.name}({', '.join(call)});")
        for line in post:
            out.append("\t" + line)
        for label, line in cleanup:
            out.append(f"{label}:")
            out.append("\t" + line)
        if cleanup:
            out.append("\t;")
        if f.ierror:
            out.append("\tif (ierror != NULL)")
            out.append("\t\t*ierror = rc;")
        else:
            out.append("\t(void)rc;")
        out.append("}")
    out.append(f"SHL_F_ALIAS({rtype}, mpi_{lname}_, pmpi_{lname}_, ({sig}));")
    return "\n".join(out) + "\n"


C_HEAD = """\
/* Generated by runtime/fortran/bindgen.py from runtime/mpi.h and
 * runtime/fortran/bindings.txt: do not edit. The C bodies of the mpif.h and `mpi` module
 * bindings (and of mpi_f08's that bind to them by name): pmpi_<name>_ converts the Fortran
 * arguments (all by reference, CHARACTER lengths last) and calls PMPI_<Name>; mpi_<name>_
 * is a weak alias. Entered by the rank threads that call MPI from Fortran. */
#include <stdlib.h>
#include <string.h>

#include "runtime/fortran/fortran.h"

#define SHL_F_ALIAS(rtype, name, target, args) \\
	extern rtype name args __attribute__((weak, alias(#target), visibility("default")))

"""


def write_c(funcs, mpi_h, bindings_txt, outdir):
    os.makedirs(outdir, exist_ok=True)
    body = [C_HEAD]
    for f in funcs:
        if f.bound:
            body.append(wrapper(f))
    with open(os.path.join(outdir, "mpif_bindings.c"), "w") as fh:
        fh.write("\n".join(body))
    with open(os.path.join(outdir, "mpif_consts.c"), "w") as fh:
        fh.write(consts_program(mpi_h, bindings_txt))


def consts_program(mpi_h, bindings_txt):
    kinds, skips = bindgen.consts_rules(bindings_txt)
    lines = ["/* Generated by runtime/fortran/bindgen.py: prints \"NAME KIND VALUE\" for each",
             " * #define MPI_* of mpi.h that Fortran gets (KIND int, big or handle; handles",
             " * through PMPI_*_c2f), which mpif.h and the modules take as PARAMETERs. Run",
             " * once by the build, without MPI_Init. */",
             "#include <stdio.h>", "#include \"mpi.h\"", "",
             "static void put_int(const char *n, long long v) { printf(\"%s int %lld\\n\", n, v); }",
             "static void put_handle(const char *n, int v) { printf(\"%s handle %d\\n\", n, v); }",
             "static void put_none(const char *n) { (void)n; }", ""]
    hl = []
    for h, ct in HANDLE_CTYPE.items():
        c = bindgen.HANDLE_CONV[h]
        hl.append(f"static int c2f_{h}(void *p) {{ return PMPI_{c}_c2f(({ct})p); }}")
    lines += hl
    lines.append("#define AS_PTR(x) _Generic((x), int: (void *)0, long: (void *)0, "
                 "long long: (void *)0, unsigned: (void *)0, default: (void *)(x))")
    lines.append("#define AS_INT(x) _Generic((x), int: (long long)(x), long: (long long)(x), "
                 "long long: (long long)(x), unsigned: (long long)(x), default: 0LL)")
    br = ["\tint: put_int(n, AS_INT(x))", "\tlong: put_int(n, AS_INT(x))",
          "\tlong long: put_int(n, AS_INT(x))", "\tunsigned: put_int(n, AS_INT(x))"]
    for h, ct in HANDLE_CTYPE.items():
        br.append(f"\t{ct}: put_handle(n, c2f_{h}(AS_PTR(x)))")
    br.append("\tdefault: put_none(n)")
    lines.append("#define PUT(n, x) _Generic((x), \\\n" + ", \\\n".join(br) + ")")
    lines += ["", "int main(void)", "{"]
    for name in bindgen.mpi_h_defines(mpi_h):
        if any(fnmatch.fnmatchcase(name, pat) for pat, _ in skips):
            continue
        lines.append(f"#ifdef {name}")
        lines.append(f"\tPUT(\"{name}\", {name});")
        lines.append("#endif")
    lines += ["\treturn 0;", "}", ""]
    return "\n".join(lines)


# ---- mpif.h and the `mpi` module ----

# The Fortran-only constants (MPI 4.1, 19.1): status size and indices, kinds, features.
FORTRAN_INTS = [("MPI_STATUS_SIZE", 8), ("MPI_SOURCE", 1), ("MPI_TAG", 2), ("MPI_ERROR", 3),
                ("MPI_ADDRESS_KIND", 8), ("MPI_OFFSET_KIND", 8), ("MPI_COUNT_KIND", 8),
                ("MPI_INTEGER_KIND", 4)]
FORTRAN_LOGICALS = [("MPI_SUBARRAYS_SUPPORTED", ".FALSE."),
                    ("MPI_ASYNC_PROTECTS_NONBLOCKING", ".FALSE.")]
# The sentinels: Fortran name, mpif.h declaration's shape, storage symbol (without the
# trailing underscore of the COMMON's).
SENTINELS = [("MPI_BOTTOM", "INTEGER", "", "shl_f_bottom"),
             ("MPI_IN_PLACE", "INTEGER", "", "shl_f_in_place"),
             ("MPI_STATUS_IGNORE", "INTEGER", "(MPI_STATUS_SIZE)", "shl_f_status_ignore"),
             ("MPI_STATUSES_IGNORE", "INTEGER", "(MPI_STATUS_SIZE,1)",
              "shl_f_statuses_ignore"),
             ("MPI_ERRCODES_IGNORE", "INTEGER", "(1)", "shl_f_errcodes_ignore"),
             ("MPI_UNWEIGHTED", "INTEGER", "(1)", "shl_f_unweighted"),
             ("MPI_WEIGHTS_EMPTY", "INTEGER", "(1)", "shl_f_weights_empty"),
             ("MPI_BUFFER_AUTOMATIC", "INTEGER", "", "shl_f_buffer_automatic"),
             ("MPI_ARGV_NULL", "CHARACTER(LEN=1)", "(1)", "shl_f_argv_null"),
             ("MPI_ARGVS_NULL", "CHARACTER(LEN=1)", "(1,1)", "shl_f_argvs_null")]
# The predefined callbacks a Fortran program passes by name (written in
# runtime/fortran/callbacks.c).
CALLBACKS = ["MPI_COMM_NULL_COPY_FN", "MPI_COMM_NULL_DELETE_FN", "MPI_COMM_DUP_FN",
             "MPI_TYPE_NULL_COPY_FN", "MPI_TYPE_NULL_DELETE_FN", "MPI_TYPE_DUP_FN",
             "MPI_WIN_NULL_COPY_FN", "MPI_WIN_NULL_DELETE_FN", "MPI_WIN_DUP_FN",
             "MPI_NULL_COPY_FN", "MPI_NULL_DELETE_FN", "MPI_DUP_FN",
             "MPI_CONVERSION_FN_NULL"]
FKIND_DECL = {"int": "INTEGER", "aint": "INTEGER(KIND=MPI_ADDRESS_KIND)",
              "offset": "INTEGER(KIND=MPI_OFFSET_KIND)", "count": "INTEGER(KIND=MPI_COUNT_KIND)",
              "logical": "LOGICAL"}


def read_consts(path, bindings_txt):
    """The constants program's output as [(name, fkind, value)], first of each name."""
    kinds, _ = bindgen.consts_rules(bindings_txt)
    out, seen = [], set()
    for line in open(path):
        f = line.split()
        if len(f) != 3:
            raise bindgen.DescriptionError(f"{path}: cannot read '{line.strip()}'")
        name, what, value = f
        if name.upper() in seen:
            continue
        seen.add(name.upper())
        v = int(value)
        kind = kinds.get(name, "int")
        if kind == "int" and not -2**31 <= v < 2**31:
            raise bindgen.DescriptionError(f"{name} = {v} does not fit a Fortran INTEGER: "
                                           f"give it a kind with a 'const' line")
        out.append((name, kind, v))
    for n, _ in FORTRAN_INTS + FORTRAN_LOGICALS:
        if n.upper() in seen:
            raise bindgen.DescriptionError(f"{n} of mpi.h clashes with Fortran's own")
    return out


def fixed(line):
    """A line of mpif.h, valid in fixed and free form: statements from column 7, none past
    column 72."""
    if len(line) > 72:
        raise bindgen.DescriptionError(f"mpif.h line longer than 72 columns: {line}")
    return line


def mpif_h(funcs, consts):
    L = ["! Shoal MPI: mpif.h, the Fortran include file of MPI (MPI 4.1, 19.1.2).",
         "! Generated by runtime/fortran/bindgen.py from runtime/mpi.h and the",
         "! libmpi it was built with (handle values): do not edit. Valid in fixed",
         "! and free source form.", "!"]
    for n, v in FORTRAN_INTS:
        L += [f"      INTEGER {n}", f"      PARAMETER ({n}={v})"]
    for n, v in FORTRAN_LOGICALS:
        L += [f"      LOGICAL {n}", f"      PARAMETER ({n}={v})"]
    for name, kind, v in consts:
        L += [f"      {FKIND_DECL[kind]} {name}", f"      PARAMETER ({name}={v})"]
    L.append("! The sentinels: COMMONs whose addresses mpif_sentinels.o registers.")
    for name, typ, shape, sym in SENTINELS:
        L += [f"      {typ} {name}{shape}", f"      COMMON /{sym}/ {name}"]
    L.append("! Functions and the predefined callbacks.")
    for f in funcs:
        if f.bound and f.ret_kind != "error":
            t = {"double": "DOUBLE PRECISION", "aint": "INTEGER(KIND=MPI_ADDRESS_KIND)"}
            for pre in ("MPI_", "PMPI_"):
                L += [f"      {t[f.ret_kind]} {pre}{f.name.upper()}",
                      f"      EXTERNAL {pre}{f.name.upper()}"]
    for c in CALLBACKS:
        L.append(f"      EXTERNAL {c}")
    return "\n".join(fixed(x) for x in L) + "\n"


def f_decl(p, f=None):
    """A dummy's declaration in the `mpi` module's interfaces (kinds as literals: an
    interface body sees none of the module's names). A procedure is EXTERNAL; an attribute
    value (hand-written functions of f) INTEGER(KIND=MPI_ADDRESS_KIND), INTEGER in the
    MPI-1 Attr_ functions."""
    k = p.kind
    intent = f", INTENT({p.intent.upper()})" if p.intent else ""
    if k == "callback":
        return [f"EXTERNAL :: {p.name}"]
    if k == "" and f is not None and f.manual and p.name.startswith("attribute_val"):
        k = "int" if f.name.startswith("Attr_") else "aint"
    if k == "buffer":
        return [f"!GCC$ ATTRIBUTES NO_ARG_CHECK :: {p.name}",
                f"TYPE(*), DIMENSION(*) :: {p.name}"]
    if k == "string":
        return [f"CHARACTER(LEN=*){intent} :: {p.name}"]
    base = {"int": "INTEGER", "handle": "INTEGER", "logical": "LOGICAL",
            "aint": "INTEGER(KIND=8)", "offset": "INTEGER(KIND=8)", "count": "INTEGER(KIND=8)",
            "extra_state": "INTEGER(KIND=8)", "status": "INTEGER"}[k]
    if k == "status":
        dim = "(8)" if p.array is None else "(8, *)"
        return [f"{base}{intent} :: {p.name}{dim}"]
    if p.array is not None:
        return [f"{base}{intent} :: {p.name}(*)"]
    return [f"{base}{intent} :: {p.name}"]


def interface(f, prefix, cptr=False):
    """The interface body of f (as prefix + name); with cptr, the MPI_<NAME>_CPTR form whose
    baseptr is a TYPE(C_PTR), bound by name to the same C function (a C pointer either
    way: the INTEGER(KIND=MPI_ADDRESS_KIND) and the TYPE(C_PTR) are 8 bytes)."""
    ps = [p for p in f.params if p.kind != "omit"]
    names = [p.name for p in ps] + (["ierror"] if f.ierror else [])
    head = f"{prefix}{f.name}({', '.join(names)})"
    L = []
    if cptr:
        L.append(f"subroutine {prefix}{f.name}_cptr({', '.join(names)}) &")
        L.append(f"    bind(C, name=\"{prefix.lower()}{f.name.lower()}_\")")
        L.append("  use, intrinsic :: iso_c_binding, only: c_ptr")
        for p in ps:
            if p.name == "baseptr":
                L.append(f"  TYPE(C_PTR), INTENT({p.intent.upper()}) :: baseptr")
            else:
                L += ["  " + d for d in f_decl(p)]
        L.append("  INTEGER, INTENT(OUT) :: ierror")
        L.append("end subroutine")
        return L
    if f.ret_kind == "error":
        L.append(f"subroutine {head}")
    else:
        L.append(f"function {head}")
        t = {"double": "DOUBLE PRECISION", "aint": "INTEGER(KIND=8)"}[f.ret_kind]
        L.append(f"  {t} :: {prefix}{f.name}")
    for p in ps:
        for d in f_decl(p, f):
            L.append("  " + d)
    if f.ierror:
        L.append("  INTEGER, INTENT(OUT) :: ierror")
    L.append("end " + ("subroutine" if f.ret_kind == "error" else "function"))
    return L


def wrap_free(line, indent):
    """A free-form line cut at 100 columns with & continuations."""
    out, cur = [], indent + line
    while len(cur) > 100:
        cut = cur.rfind(", ", 0, 98)
        if cut <= len(indent):
            break
        out.append(cur[:cut + 1] + " &")
        cur = indent + "    " + cur[cut + 2:]
    out.append(cur)
    return out


SIZEOF_TYPES = [("INTEGER", k) for k in (1, 2, 4, 8, 16)] + \
    [("REAL", k) for k in (4, 8, 10, 16)] + [("COMPLEX", k) for k in (4, 8, 10, 16)]


def mpi_module(funcs, consts):
    L = ["! Shoal MPI: the `mpi` module (MPI 4.1, 19.1.3). Generated by",
         "! runtime/fortran/bindgen.py from runtime/mpi.h: do not edit. Its procedures are",
         "! the C bodies of mpif_bindings.c (linker names mpi_<name>_); the sentinels are",
         "! module shl_mpi_sentinels' (sentinels.f90), MPI_SIZEOF is generic here.",
         "module mpi", "  use shl_mpi_sentinels", "  implicit none", "  public", ""]
    for n, v in FORTRAN_INTS:
        L.append(f"  INTEGER, PARAMETER :: {n} = {v}")
    for n, v in FORTRAN_LOGICALS:
        L.append(f"  LOGICAL, PARAMETER :: {n} = {v}")
    for name, kind, v in consts:
        L.append(f"  {FKIND_DECL[kind]}, PARAMETER :: {name} = {v}")
    L.append("")
    for f in funcs:
        if f.bound and f.ret_kind != "error":
            t = {"double": "DOUBLE PRECISION", "aint": "INTEGER(KIND=MPI_ADDRESS_KIND)"}
            L.append(f"  {t[f.ret_kind]}, EXTERNAL :: MPI_{f.name}, PMPI_{f.name}")
    L += wrap_free("EXTERNAL :: " + ", ".join(CALLBACKS), "  ")
    L.append("")
    L.append("  interface")
    cptr_funcs = []
    for f in funcs:
        if not (f.bound or (f.manual and not f.large_count)) or f.ret_kind != "error":
            continue
        if any(p.name == "baseptr" for p in f.params):
            cptr_funcs.append(f)  # generic, below
            continue
        for prefix in ("MPI_", "PMPI_"):
            for x in interface(f, prefix):
                L += wrap_free(x, "    ")
    L += ["    subroutine MPI_F_sync_reg(buf)", "      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf",
          "      TYPE(*), DIMENSION(*) :: buf", "    end subroutine",
          "    subroutine PMPI_F_sync_reg(buf)", "      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf",
          "      TYPE(*), DIMENSION(*) :: buf", "    end subroutine"]
    L.append("  end interface")
    L.append("")
    # A memory address out (MPI_ALLOC_MEM, MPI_WIN_ALLOCATE, ...): generic over an
    # INTEGER(KIND=MPI_ADDRESS_KIND) and a TYPE(C_PTR) (MPI 4.1, 19.1.3).
    for f in cptr_funcs:
        for prefix in ("MPI_", "PMPI_"):
            L.append(f"  interface {prefix}{f.name}")
            for x in interface(f, prefix) + interface(f, prefix, cptr=True):
                L += wrap_free(x, "    ")
            L.append("  end interface")
    L.append("")
    specifics = [f"shl_mpi_sizeof_{t[0].lower()}{t[1]}" for t in SIZEOF_TYPES]
    for prefix in ("MPI_", "PMPI_"):
        L.append(f"  interface {prefix}Sizeof")
        L += wrap_free("module procedure " + ", ".join(specifics), "    ")
        L.append("  end interface")
    L += ["", "contains", ""]
    for (t, k), name in zip(SIZEOF_TYPES, specifics):
        L += [f"  subroutine {name}(x, size, ierror)",
              f"    {t}(KIND={k}), DIMENSION(..), INTENT(IN) :: x",
              "    INTEGER, INTENT(OUT) :: size, ierror",
              "    size = int(storage_size(x) / 8)", "    ierror = MPI_SUCCESS",
              "  end subroutine", ""]
    L.append("end module mpi")
    return "\n".join(L) + "\n"


def write_headers(funcs, bindings_txt, outdir, consts_path):
    os.makedirs(outdir, exist_ok=True)
    consts = read_consts(consts_path, bindings_txt)
    with open(os.path.join(outdir, "mpif.h"), "w") as fh:
        fh.write(mpif_h(funcs, consts))
    with open(os.path.join(outdir, "mpi.f90"), "w") as fh:
        fh.write(mpi_module(funcs, consts))
