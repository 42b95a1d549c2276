#!/usr/bin/env python3
"""The mpi_f08 backend of the Fortran binding generator.

Reads the one description of Shoal's MPI functions (bindgen.load: the C signatures of
runtime/mpi.h and the Fortran facts of runtime/fortran/bindings.txt) and writes, into OUTDIR:

  mpi_f08.f90        module mpi_f08: a generic interface per function (MPI_Send) whose
                     specifics are the int form (MPI_Send_f08) and, where MPI 4.1 has one,
                     the large-count form (MPI_Send_c_f08), and the same for PMPI_Send;
  f08_bindings.c     the C entry points MPI_X_f08ts / PMPI_X_f08ts of the specifics that
                     take choice buffers (CFI descriptors) or large counts;
  f08_constants.c    a program that prints module mpi_f08_constants (the handles and
                     integer constants of mpi.h, with the values of this build of libmpi),
                     which the build runs.

How a specific binds (docs/fortran.md, "The mpi_f08 module"):
  - no choice buffer, no string, no large count: BIND(C) to the mpif.h/`mpi` C function
    (mpi_x_, by reference, NULL ierror when absent): a TYPE(MPI_Comm) is one integer;
  - a string (no buffer) or a hand-written (callback) function: an interface without
    BIND(C) whose name is that C function's (mpi_x -> mpi_x_): gfortran's own convention is
    the mpif.h one (hidden string lengths last, procedure arguments as addresses);
  - a choice buffer or a large count: BIND(C) to MPI_X_f08ts of f08_bindings.c.

Run by the Makefile: python3 bindgen_f08.py MPI_H BINDINGS_TXT OUTDIR. A parameter it cannot
bind fails the run, so a function that lands later gets its binding or a build error."""
import fnmatch
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bindgen import DescriptionError, consts_rules, load, nonblocking  # noqa: E402  (the one description)

# Functions bound by hand in mpi_f08_types.f90, and the C-only ones (MPI 4.1 19.3.4).
HANDWRITTEN = {"Status_f082f", "Status_f2f08", "Sizeof", "F_sync_reg"}
C_ONLY = re.compile(r"_(c2f|f2c|c2f08|f082c)$")

# Callback types with an mpi_f08 abstract interface (mpi_f08_types.f90). The deprecated
# MPI_Copy_function/MPI_Delete_function (MPI_Keyval_create) have none: MPI 4.1 gives that
# function no mpi_f08 binding.
CALLBACKS = {"MPI_User_function", "MPI_User_function_c", "MPI_Comm_copy_attr_function",
             "MPI_Comm_delete_attr_function", "MPI_Win_copy_attr_function",
             "MPI_Win_delete_attr_function", "MPI_Type_copy_attr_function",
             "MPI_Type_delete_attr_function", "MPI_Comm_errhandler_function",
             "MPI_Win_errhandler_function", "MPI_File_errhandler_function",
             "MPI_Session_errhandler_function", "MPI_Grequest_query_function",
             "MPI_Grequest_free_function", "MPI_Grequest_cancel_function",
             "MPI_Datarep_extent_function", "MPI_Datarep_conversion_function",
             "MPI_Datarep_conversion_function_c"}

# Addresses a call hands back (MPI_Alloc_mem's baseptr, ...): TYPE(C_PTR) in mpi_f08.
CPTR_NAMES = {"baseptr", "buffer_addr"}

HANDLE_F2C = {"Datatype": "Type"}


def fail(func, msg):
    sys.exit(f"bindgen_f08: MPI_{func.name}: {msg}")




def is_cptr(p):
    return p.kind in ("buffer", "aint") and p.name in CPTR_NAMES


def cb_type(p):
    return p.ctype.replace("const", "").replace("*", "").strip()


def ftype(func, p, asynch):
    """The Fortran declaration of one dummy (without its name)."""
    intent = {"in": "intent(in)", "out": "intent(out)", "inout": "intent(inout)"}.get(p.intent)
    if intent is None:
        fail(func, f"parameter {p.name}: no intent")
    k = p.kind
    if k == "" and p.name.startswith("attribute_val") and func.manual:
        # The attribute families (hand-written C): INTEGER(MPI_ADDRESS_KIND) values, the
        # MPI-1 Attr_ ones INTEGER.
        k = "int" if func.name.startswith("Attr_") else "aint"
    if is_cptr(p):
        return "type(c_ptr), " + intent
    if k == "buffer":
        d = "type(*), dimension(..)"
        if p.intent == "in":
            d += ", intent(in)"
        return d + (", asynchronous" if asynch else "")
    if k == "int":
        t = "integer"
    elif k == "logical":
        t = "logical"
    elif k in ("aint", "extra_state"):
        t = "integer(MPI_ADDRESS_KIND)"
    elif k == "offset":
        t = "integer(MPI_OFFSET_KIND)"
    elif k == "count":
        t = "integer(MPI_COUNT_KIND)"
    elif k == "handle":
        t = f"type(MPI_{p.handle})"
    elif k == "string":
        t = "character(len=*)"
    elif k == "status":
        t = "type(MPI_Status)"
    elif k == "callback":
        cb = cb_type(p)
        if cb not in CALLBACKS:
            fail(func, f"parameter {p.name}: callback type {cb} has no mpi_f08 interface")
        return f"procedure({cb})"
    else:
        fail(func, f"parameter {p.name}: kind {k!r} has no mpi_f08 form")
    if asynch and p.array:
        # MPI 4.1: the arrays of a nonblocking call are ASYNCHRONOUS too.
        return f"{t}, {intent}, asynchronous"
    return f"{t}, {intent}"


def dims(p):
    if p.kind in ("buffer", "string", "callback"):
        return ""
    return "(*)" if p.array else ""


FRESULT = {"double": "double precision", "MPI_Aint": "integer(MPI_ADDRESS_KIND)",
           "MPI_Count": "integer(MPI_COUNT_KIND)", "MPI_Offset": "integer(MPI_OFFSET_KIND)",
           "int": "integer"}


def params_of(func):
    """The Fortran dummies: the description's parameters without the omitted ones (argc,
    argv) and the discarded results (but buffer_addr, which mpi_f08 returns as C_PTR)."""
    return [p for p in func.params
            if p.kind != "omit" and ("discard" not in p.flags or is_cptr(p))]


def path_of(func):
    ps = params_of(func)
    if any(p.kind == "buffer" and not is_cptr(p) for p in ps) or func.large_count:
        if func.manual:
            return "fortran"
        return "ts"
    if func.manual or any(p.kind == "string" for p in ps):
        return "fortran"
    return "mpif"


def wrap(head, args, tail, indent):
    """`head(a, b, ...)tail` broken into lines of at most 100 characters."""
    lines, cur = [], f"{indent}{head}("
    for i, a in enumerate(args):
        piece = a + (", " if i < len(args) - 1 else "")
        if len(cur) + len(piece) > 96:
            lines.append(cur.rstrip() + " &")
            cur = indent + "    "
        cur += piece
    cur += ")"
    if len(cur) + len(tail) > 100 and tail:
        lines.append(cur + " &")
        cur = indent + "   " + tail
    else:
        cur += tail
    lines.append(cur)
    return "\n".join(lines)


def specific(func, prof):
    """One interface body of the mpi_f08 module, and its specific's name."""
    ps = params_of(func)
    path = path_of(func)
    asynch = nonblocking(func.name)
    pre = "PMPI_" if prof else "MPI_"
    if path == "mpif":
        sname = f"{pre}{func.name}_f08"
        bind = f' bind(C, name="{pre.lower()}{func.name.lower()}_")'
    elif path == "ts":
        sname = f"{pre}{func.name}_f08"
        bind = f' bind(C, name="{pre}{func.name}_f08ts")'
    else:
        sname = f"{pre.lower()}{func.name.lower()}"
        bind = ""
    args = [p.name for p in ps]
    sub = func.ret == "int"
    if sub:
        args.append("ierror")
        head, end = "subroutine " + sname, "end subroutine " + sname
        tail = bind
    else:
        if func.ret not in FRESULT:
            fail(func, f"returns {func.ret}, which has no mpi_f08 form")
        head, end = f"function {sname}", f"end function {sname}"
        tail = " result(res)" + bind
    out = [wrap(head, args, tail, "    "), "      import", "      implicit none"]
    for p in ps:
        out.append(f"      {ftype(func, p, asynch)} :: {p.name}{dims(p)}")
    if sub:
        out.append("      integer, optional, intent(out) :: ierror")
    else:
        out.append(f"      {FRESULT[func.ret]} :: res")
    out.append("    " + end)
    return sname, "\n".join(out)


def signature(func):
    """What tells two specifics of one generic apart: the types, kinds and ranks of the
    dummies (MPI_ADDRESS_KIND and MPI_COUNT_KIND are both 8 bytes here)."""
    sig = []
    for p in params_of(func):
        t = ftype(func, p, False).split(",")[0]
        t = re.sub(r"integer\(MPI_(ADDRESS|OFFSET|COUNT)_KIND\)", "integer8", t)
        t = re.sub(r"procedure\(.*", "procedure", t)  # not told apart by their interfaces
        sig.append((t, bool(dims(p))))
    return tuple(sig)


def fortran_module(funcs):
    byname = {}
    for f in funcs:
        base = f.name[:-2] if f.large_count and f.name.endswith("_c") else f.name
        byname.setdefault(base, []).append(f)
    out = ["! Generated by runtime/fortran/bindgen_f08.py from runtime/mpi.h and",
           "! runtime/fortran/bindings.txt; do not edit. The mpi_f08 module (MPI 4.1 19.1.2):",
           "! its types in mpi_f08_types, its constants in mpi_f08_constants, and one generic",
           "! interface per function here.",
           "module mpi_f08",
           "  use, intrinsic :: iso_c_binding, only: c_ptr",
           "  use mpi_f08_types",
           "  use mpi_f08_constants",
           "  implicit none",
           "  private :: c_ptr",
           ""]
    generics = []
    for base in sorted(byname):
        group = byname[base]
        plain = [f for f in group if not f.large_count]
        large = [f for f in group if f.large_count]
        if plain and large and signature(plain[0]) == signature(large[0]):
            # Not told apart by their arguments (MPI_ADDRESS_KIND is MPI_COUNT_KIND here; a
            # procedure argument): the large-count form has its own name (MPI 4.1 19.2).
            generics += [(base, plain), (large[0].name, large)]
        else:
            generics.append((base, plain + large))
    for base, fs in generics:
        for prof in (False, True):
            gname = ("PMPI_" if prof else "MPI_") + base
            bodies = [specific(f, prof) for f in fs]
            out.append(f"  interface {gname}")
            out.extend(b for _, b in bodies)
            out.append(f"  end interface {gname}")
    out.append("end module mpi_f08")
    return "\n".join(out) + "\n"


# ---- C entry points -------------------------------------------------------------------------

def c_base(ctype):
    t = ctype.replace("const", "").replace("[]", "").replace("*", "").strip()
    return " ".join(t.split())


def c_is_ptr(p):
    return "*" in p.ctype or "[" in p.ctype or bool(p.array)


FPTR = {"int": "MPI_Fint *", "logical": "MPI_Fint *", "aint": "MPI_Aint *",
        "offset": "MPI_Offset *", "count": "MPI_Count *", "handle": "MPI_Fint *",
        "status": "MPI_Fint *", "buffer": "CFI_cdesc_t *", "string": "CFI_cdesc_t *"}

OBJ_KINDS = {"Comm": "SHL_F08_COMM", "Win": "SHL_F08_WIN", "File": "SHL_F08_FILE"}


def array_len(expr):
    """A length expression of the description, in C over the locals (named as the C
    parameters)."""
    return re.sub(r"\b([a-z_]+)\(", r"shl_f_\1(", expr)


def c_function(func):
    ps = list(func.params)
    asynch = nonblocking(func.name)
    fargs, call = [], []
    decls, pre, post, always, frees, sect = [], [], [], [], [], []
    obj = ("SHL_F08_NONE", "NULL")
    for p in ps:
        if p.kind == "handle" and p.handle in OBJ_KINDS and not c_is_ptr(p) and obj[1] == "NULL":
            obj = (OBJ_KINDS[p.handle], f"(void *){p.name}")
    nomem = f"{{ rc = shl_f08_no_mem(\"MPI_{func.name}\", {obj[0]}, {obj[1]}); goto out; }}"
    # Locals are named as the C parameters (the description's length expressions use them)
    # and declared first, so a jump to `out` passes no initialisation; the buffers come last:
    # their sections need the counts and datatypes.
    buffers = []
    for i, p in enumerate(ps):
        n, fn = p.name, "f_" + p.name
        k = p.kind
        if k == "omit":
            call.append(p.value)
            continue
        if "discard" in p.flags and not is_cptr(p):
            if k not in ("int", "aint", "offset", "count") or p.array:
                fail(func, f"parameter {n}: a discarded {k} has no C entry point form")
            decls.append(f"\t{c_base(p.ctype)} {n}_v = 0;")
            call.append(f"&{n}_v")
            continue
        if k not in FPTR:
            fail(func, f"parameter {n}: kind {k!r} has no C entry point form")
        call.append(n)
        if is_cptr(p):
            fargs.append(f"void *{fn}")
            decls.append(f"\tvoid *{n} = {fn};")
            continue
        fargs.append(f"{FPTR[k]}{fn}")
        if k == "buffer":
            buffers.append((i, p))
            continue
        if k in ("int", "logical", "aint", "offset", "count"):
            if "plus1" in p.flags and (p.array or k != "int"):
                fail(func, f"parameter {n}: a 1-based index array has no C entry point form")
            if c_is_ptr(p):
                ct = p.ctype.replace("[]", "").strip()
                if not ct.endswith("*"):
                    ct += " *"
                decls.append(f"\t{ct}{n} = {fn};")
                if "plus1" in p.flags:
                    post.append(f"\tif (rc == MPI_SUCCESS && *{n} >= 0)\n\t\t*{n} += 1;")
            else:
                decls.append(f"\t{c_base(p.ctype)} {n} = *{fn};")
        elif k == "handle":
            h = p.handle
            conv = HANDLE_F2C.get(h, h)
            ct = f"MPI_{h}"
            if not c_is_ptr(p):
                decls.append(f"\t{ct} {n} = shl_f_{conv}_f2c(*{fn});")
            elif not p.array:
                init = f"shl_f_{conv}_f2c(*{fn})" if p.intent != "out" else f"({ct})0"
                decls.append(f"\t{ct} {n}_h = {init};")
                decls.append(f"\t{ct} *{n} = &{n}_h;")
                # Also after an error: an out handle the call did not make is the null one.
                always.append(f"\t*{fn} = PMPI_{conv}_c2f({n}_h);")
            else:
                decls.append(f"\tint {n}_n = 0;")
                decls.append(f"\t{ct} {n}_stack[SHL_F08_STACK] = {{ 0 }};")
                decls.append(f"\t{ct} *{n} = NULL;")
                pre.append(f"\t{n}_n = (int)({array_len(p.array)});")
                pre.append(f"\t{n} = {n}_n <= SHL_F08_STACK ? {n}_stack : "
                           f"malloc(sizeof *{n} * (size_t){n}_n);")
                pre.append(f"\tif (!{n})\n\t\t{nomem}")
                if p.intent != "out":
                    pre.append(f"\tfor (int i = 0; i < {n}_n; i++)\n"
                               f"\t\t{n}[i] = shl_f_{conv}_f2c({fn}[i]);")
                if p.intent == "in" and asynch:
                    # Read by the pending operation after this returns.
                    decls.append(f"\t{ct} *{n}_kept = NULL;")
                    pre.append(f"\t{n}_kept = shl_f_keep({n}, (size_t){n}_n, sizeof *{n});")
                    pre.append(f"\tif (!{n}_kept)\n\t\t{nomem}")
                    call[-1] = f"{n}_kept"
                if p.intent != "in":
                    post.append(f"\tif (rc == MPI_SUCCESS)\n\t\tfor (int i = 0; i < {n}_n; i++)\n"
                                f"\t\t\t{fn}[i] = PMPI_{conv}_c2f({n}[i]);")
                frees.append(f"\tif ({n} != {n}_stack)\n\t\tfree({n});")
        elif k == "status":
            if p.array:
                decls.append(f"\tint {n}_n = 0;")
                decls.append(f"\tMPI_Status *{n} = MPI_STATUSES_IGNORE;")
                pre.append(f"\t{n}_n = (int)({array_len(p.array)});")
                pre.append(f"\tif (!shl_f_is_statuses_ignore({fn})) {{")
                pre.append(f"\t\t{n} = malloc(sizeof *{n} * (size_t)({n}_n > 0 ? {n}_n : 1));")
                pre.append(f"\t\tif (!{n})\n\t\t\t{nomem}")
                if p.intent != "out":
                    pre.append(f"\t\tmemcpy({n}, {fn}, sizeof *{n} * (size_t){n}_n);")
                pre.append("\t}")
                if p.intent != "in":
                    post.append(f"\tif ({n} && rc == MPI_SUCCESS)\n"
                                f"\t\tmemcpy({fn}, {n}, sizeof *{n} * (size_t){n}_n);")
                frees.append(f"\tfree({n});")
            elif p.intent == "in":
                decls.append(f"\tMPI_Status {n}_v;")
                decls.append(f"\tconst MPI_Status *{n} = memcpy(&{n}_v, {fn}, sizeof {n}_v);")
            else:
                decls.append(f"\tMPI_Status {n}_v;")
                decls.append(f"\tMPI_Status *{n} = shl_f_is_status_ignore({fn}) ? "
                             f"MPI_STATUS_IGNORE : &{n}_v;")
                post.append(f"\tif ({n} != MPI_STATUS_IGNORE)\n"
                            f"\t\tmemcpy({fn}, &{n}_v, sizeof {n}_v);")
        elif k == "string":
            decls.append(f"\tchar *{n} = NULL;")
            if p.intent == "in":
                pre.append(f"\t{n} = shl_f08_str_in({fn});")
            else:
                pre.append(f"\t{n} = calloc(1, {fn}->elem_len + 1);")
                post.append(f"\tif (rc == MPI_SUCCESS)\n\t\tshl_f08_str_out({fn}, {n});")
            pre.append(f"\tif (!{n})\n\t\t{nomem}")
            frees.append(f"\tfree({n});")
    for idx, p in buffers:
        n, fn = p.name, "f_" + p.name
        nxt = ps[idx + 1] if idx + 1 < len(ps) else None
        nxt2 = ps[idx + 2] if idx + 2 < len(ps) else None
        paired = (nxt is not None and nxt2 is not None and nxt.kind in ("int", "count")
                  and not c_is_ptr(nxt) and nxt2.kind == "handle" and nxt2.handle == "Datatype"
                  and not c_is_ptr(nxt2))
        flags = []
        if p.intent != "in":
            flags.append("SHL_F08_OUT")
        if not asynch:
            flags.append("SHL_F08_BLOCKING")
        flags = " | ".join(flags) or "0"
        const = "const " if "const" in p.ctype else ""
        decls.append(f"\t{const}void *{n};")
        decls.append(f"\tstruct shl_f08_sect {n}_s = {{ 0 }};")
        count = f"&{n}_count, &{nxt2.name}" if paired else "NULL, NULL"
        if paired:
            decls.append(f"\tMPI_Count {n}_count;")
        pre.append(f"\tif (SHL_F08_LIKELY(shl_f08_contig({fn}))) {{")
        pre.append(f"\t\t{n} = shl_f_buf({fn}->base_addr);")
        pre.append("\t} else {")
        if paired:
            pre.append(f"\t\t{n}_count = {nxt.name};")
        pre.append(f"\t\trc = shl_f08_sect_enter({fn}, &{n}_s, {count}, {flags},")
        pre.append(f"\t\t\t\t\"MPI_{func.name}\", \"{n}\", {obj[0]}, {obj[1]});")
        pre.append("\t\tif (rc != MPI_SUCCESS)")
        pre.append("\t\t\tgoto out;")
        if paired:
            pre.append(f"\t\t{nxt.name} = ({c_base(nxt.ctype)}){n}_count;")
        pre.append(f"\t\t{n} = {n}_s.addr;")
        pre.append("\t}")
        sect.append(f"\tshl_f08_sect_leave(&{n}_s, rc);")
    fargs.append("MPI_Fint *ierror")
    proto = f"void PMPI_{func.name}_f08ts({', '.join(fargs)})"
    out = [f"SHL_F08_EXPORT {proto};", proto, "{", "\tint rc = MPI_SUCCESS;"]
    out += decls + pre
    out.append(f"\trc = PMPI_{func.name}({', '.join(call)});")
    out += sect + post
    if frees or "goto out" in "\n".join(pre):
        out.append("out:")
    out += always + frees
    out += ["\tif (ierror)", "\t\t*ierror = rc;", "}", f"SHL_F08_ALIAS({func.name})"]
    return "\n".join(out)


def c_forwarder(func):
    """The hand-written large-count functions with callbacks (runtime/fortran/callbacks.c)
    are MPI_X_c_f08ts there, in gfortran's own convention (all by reference, string lengths
    last): the name an interface without BIND(C) cannot take. Their specifics call
    pmpi_x_c_ / mpi_x_c_ here, which forward; declared weak, so libmpifort loads without
    them (a call then is MPI_ERR_OTHER)."""
    args, names, lens = [], [], []
    for p in params_of(func):
        k = p.kind
        if k == "callback":
            args.append(f"void *{p.name}")
        elif k in ("aint", "extra_state"):
            args.append(f"MPI_Aint *{p.name}")
        elif k == "count":
            args.append(f"MPI_Count *{p.name}")
        elif k == "offset":
            args.append(f"MPI_Offset *{p.name}")
        elif k == "string":
            args.append(f"char *{p.name}")
            lens.append(f"{p.name}_len")
        elif k in ("int", "logical", "handle"):
            args.append(f"MPI_Fint *{p.name}")
        else:
            fail(func, f"parameter {p.name}: kind {k!r} in a hand-written large-count function")
        names.append(p.name)
    args.append("MPI_Fint *ierror")
    names.append("ierror")
    args += [f"size_t {n}" for n in lens]
    names += lens
    a, n, lo = ", ".join(args), ", ".join(names), func.name.lower()
    out = []
    for pre, low in (("PMPI_", "pmpi_"), ("MPI_", "mpi_")):
        out += [f"SHL_F08_EXPORT void {pre}{func.name}_f08ts({a}) __attribute__((weak));",
                f"SHL_F08_EXPORT void {low}{lo}_({a});",
                f"void {low}{lo}_({a})", "{",
                f"\tif ({pre}{func.name}_f08ts)",
                f"\t\t{pre}{func.name}_f08ts({n});",
                "\telse if (ierror)",
                "\t\t*ierror = MPI_ERR_OTHER;", "}", ""]
    return "\n".join(out)


def c_file(funcs):
    out = ["/* Generated by runtime/fortran/bindgen_f08.py from runtime/mpi.h and",
           " * runtime/fortran/bindings.txt; do not edit. The C entry points of mpi_f08's",
           " * specifics that take choice buffers (CFI descriptors) or large counts:",
           " * PMPI_X_f08ts, and MPI_X_f08ts as its weak alias. Part of libmpifort.so (a copy",
           " * per rank); entered by rank threads. */",
           '#include "runtime/fortran/f08.h"', ""]
    for f in funcs:
        if path_of(f) == "ts":
            out.append(c_function(f))
            out.append("")
        elif f.manual and f.large_count:
            out.append(c_forwarder(f))
    return "\n".join(out)


# ---- constants ------------------------------------------------------------------------------

def constants_program(mpi_h, bindings):
    """A C program printing module mpi_f08_constants: every predefined handle of mpi.h as a
    PARAMETER of its derived type (through PMPI_X_c2f, the integers of this build), every
    integer #define MPI_* as a PARAMETER of the kind bindings.txt gives it (INTEGER by
    default, of kind 8 where the value needs it); bindings.txt's skip-const lines apply."""
    kinds, skips = consts_rules(bindings)
    text = re.sub(r"/\*.*?\*/", "", open(mpi_h).read(), flags=re.S)
    typedefs = {}
    for m in re.finditer(r"typedef struct (\w+) \*(MPI_\w+);", text):
        typedefs[m.group(1)] = m.group(2)
    typedefs.setdefault("shl_win", "MPI_Win")
    objects = {}
    for m in re.finditer(r"extern\s+(?:SHL_MPI_OBJECT\s+)?struct (\w+)\s+([^;]+);", text):
        for o in m.group(2).split(","):
            objects[o.strip()] = m.group(1)
    handles, ints = [], []
    defines = dict(re.findall(r"^#define (MPI_\w+)[ \t]+(.+?)\s*$", text, re.M))

    def handle_of(val, depth=0):
        """The handle type a #define's value is of (MPI_Comm, ...), or None; follows
        aliases such as `#define MPI_REAL2 MPI_DATATYPE_NULL`."""
        mm = re.fullmatch(r"\(\(\s*(MPI_\w+)\s*\)\s*0\s*\)", val)
        if mm and mm.group(1) in typedefs.values():
            return mm.group(1)
        mm = re.fullmatch(r"\(&(\w+)\)", val)
        if mm and mm.group(1) in objects:
            return typedefs.get(objects[mm.group(1)])
        mm = re.fullmatch(r"\(?(MPI_\w+)\)?", val)
        if mm and mm.group(1) in defines and depth < 8:
            return handle_of(defines[mm.group(1)].strip(), depth + 1)
        return None

    for m in re.finditer(r"^#define (MPI_\w+)[ \t]+(.+)$", text, re.M):
        name, val = m.group(1), m.group(2).strip()
        if name in SKIP_CONSTANTS or any(fnmatch.fnmatchcase(name, pat) for pat, _ in skips):
            continue
        h = handle_of(val)
        if h:
            handles.append((name, h))
        elif re.fullmatch(r"[-()0-9xXa-fA-FuUlL \t|<>+*~]+|\(?MPI_\w+\)?", val):
            ints.append((name, kinds.get(name, "int")))
    p = ['/* Generated by runtime/fortran/bindgen_f08.py: prints module mpi_f08_constants. */',
         "#include <stdio.h>", '#include "mpi.h"', "",
         "int main(void)", "{",
         '\tputs("! Generated at build time by f08_constants (runtime/fortran/bindgen_f08.py); '
         'do not edit.");',
         '\tputs("module mpi_f08_constants");',
         '\tputs("  use mpi_f08_types");',
         '\tputs("  implicit none");']
    for name, h in handles:
        conv = {"MPI_Datatype": "Type"}.get(h, h[4:])
        p.append(f'\tprintf("  type({h}), parameter :: {name} = {h}(%d)\\n", '
                 f"(int)PMPI_{conv}_c2f({name}));")
    fkind = {"aint": "MPI_ADDRESS_KIND", "offset": "MPI_OFFSET_KIND", "count": "MPI_COUNT_KIND"}
    for name, kind in ints:
        if kind == "logical":
            p.append(f'\tprintf("  logical, parameter :: {name} = %s\\n", '
                     f'({name}) ? ".true." : ".false.");')
        elif kind in fkind:
            p.append(f'\tprintf("  integer({fkind[kind]}), parameter :: {name} = '
                     f'%lld_{fkind[kind]}\\n", (long long)({name}));')
        else:
            p.append(f"\t{{ long long v = (long long)({name}); if (v == (int)v) "
                     f'printf("  integer, parameter :: {name} = %lld\\n", v); else '
                     f'printf("  integer(8), parameter :: {name} = %lld_8\\n", v); }}')
    p.append('\tprintf("  integer, parameter :: MPI_STATUS_SIZE = %d\\n", MPI_F_STATUS_SIZE);')
    p.append('\tputs("end module mpi_f08_constants");')
    p.append("\treturn 0;")
    p.append("}")
    return "\n".join(p) + "\n"


# Macros that are not integer constants of Fortran, or that mpi_f08_types defines.
SKIP_CONSTANTS = {"MPI_STATUS_IGNORE", "MPI_STATUSES_IGNORE", "MPI_BOTTOM", "MPI_IN_PLACE",
                  "MPI_BUFFER_AUTOMATIC", "MPI_UNWEIGHTED", "MPI_WEIGHTS_EMPTY",
                  "MPI_ARGV_NULL", "MPI_ARGVS_NULL", "MPI_ERRCODES_IGNORE",
                  "MPI_ADDRESS_KIND", "MPI_OFFSET_KIND", "MPI_COUNT_KIND",
                  "MPI_INTEGER_KIND", "MPI_STATUS_SIZE", "MPI_SUBARRAYS_SUPPORTED",
                  "MPI_ASYNC_PROTECTS_NONBLOCKING"}


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: bindgen_f08.py MPI_H BINDINGS_TXT OUTDIR")
    mpi_h, bindings, outdir = sys.argv[1:]
    try:
        funcs = load(mpi_h, bindings)
    except DescriptionError as e:
        sys.exit("bindgen_f08: " + str(e).replace("\n", "\nbindgen_f08: "))
    funcs = [f for f in funcs if not (f.c_only or C_ONLY.search(f.name) or
                                      f.name in HANDWRITTEN or f.varargs and not f.params)]
    # Deprecated functions whose callbacks mpi_f08 has no interface for.
    funcs = [f for f in funcs
             if not any(p.kind == "callback" and cb_type(p) not in CALLBACKS for p in f.params)]
    os.makedirs(outdir, exist_ok=True)
    module = fortran_module(funcs)
    with open(os.path.join(outdir, "mpi_f08.f90"), "w") as fh:
        fh.write(module)
    with open(os.path.join(outdir, "f08_bindings.c"), "w") as fh:
        fh.write(c_file(funcs))
    with open(os.path.join(outdir, "f08_constants.c"), "w") as fh:
        fh.write(constants_program(mpi_h, bindings))


if __name__ == "__main__":
    main()
