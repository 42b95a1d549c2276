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
                    pre.append(f"{ct} {n} = PMPI_{conv}_f2c(*{fp});")
                    call.append(n)
                else:
                    init = f"PMPI_{conv}_f2c(*{fp})" if p.intent == "inout" else f"({ct})0"
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
                    late.append(f"\t{n}[i] = PMPI_{conv}_f2c({fp}[i]);")
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
                pre.append(f"{base} *{n} = ({base} *){fp};")
                call.append(n)
                if "plus1" in p.flags:
                    post.append(f"if (*{n} >= 0)")
                    post.append(f"\t*{n} += 1;")
            continue
        raise bindgen.DescriptionError(f"{f.cname}: no C binding for kind {k} ({n})")
    pre += late

    if f.ret_kind == "error":
        sig_args = args + ["MPI_Fint *ierror"] + hidden
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
        out.append("\tif (ierror != NULL)")
        out.append("\t\t*ierror = rc;")
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
