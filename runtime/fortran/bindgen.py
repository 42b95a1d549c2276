#!/usr/bin/env python3
"""The one description of Shoal's Fortran bindings, and the command that runs its mpif.h /
`mpi` backend (bindgen_mpif.py).

Owns: reading every SHL_DECLARE of runtime/mpi.h and the Fortran facts of
runtime/fortran/bindings.txt (whose opening documents its line format) into the IR below
(load()), and writing, for `python3 bindgen.py mpif OUTDIR`:
  mpif_bindings.c    the C bodies of mpif.h and the `mpi` module: `pmpi_x_` for every
                     function that is not manual, C-only or large-count, `mpi_x_` a weak
                     alias of it (the linker names gfortran gives external procedures);
  mpif_consts.c      a C program that prints the value of every #define MPI_* of mpi.h a
                     Fortran program gets (handles through PMPI_*_c2f), run by the build;
and, for `python3 bindgen.py mpif-headers OUTDIR CONSTS` (CONSTS: that program's output):
  mpif.h             the include file (lines valid in fixed and free form);
  mpi.f90            the `mpi` module (constants, sentinels, explicit interfaces).
`python3 bindgen.py list` prints each function's fate (bound, manual, c-only,
large-count, fortran-only) and reason. Run by make (stdlib only); no thread of the library
enters it. bindgen_f08.py (mpi_f08) imports load().

The IR (stable: fields are added, never renamed):
  Func(name, ret, params, manual, fortran_only, large_count, c_only, reason, varargs,
       ierror)
    name: without MPI_ ("Send", "Send_c"); ret: the C return type ("int", "double",
    "MPI_Aint", ...); manual: written by hand (runtime/fortran/callbacks.c); c_only: no
    Fortran binding; reason: why manual or C-only; large_count: a `_c` twin (mpi_f08
    only); fortran_only: a function of the Fortran bindings alone (MPI_SIZEOF,
    MPI_F_SYNC_REG); varargs: the C declaration ends in `...` (MPI_Pcontrol), dropped.
    ierror: the Fortran call has a final IERROR argument (an MPI call's int return);
    false for functions (MPI_WTIME) and for those bindings.txt lists as no-ierror.
    Properties: fname ("MPI_SEND"), cname ("MPI_Send"), ret_kind ("error" for the int
    return of an MPI call, else the kind of a function's value: "double", "aint").
  Param(name, ctype, kind, handle, array, intent, fkind, size, value, flags)
    kind: buffer int logical aint offset count handle string status callback
          extra_state omit (omit: not in Fortran; C gets `value`);
    handle: the family of the _c2f/_f2c pair ("Comm", "Datatype", "Request", ...);
    array: None for a scalar, else a C expression of its length over the other
          parameters' C values ("count", "*outcount", "3*n", "comm_size(comm)",
          "neighbors_in(comm)", "neighbors_out(comm)"), or "*" where the length is not
          known to the description (arrays that pass through without conversion);
    intent: in out inout; fkind: the Fortran type in mpif.h/`mpi` ("INTEGER",
          "LOGICAL", "INTEGER(KIND=MPI_ADDRESS_KIND)", "CHARACTER(LEN=*)", None for a
          choice buffer); size: the C room of an out string (with its NUL);
    flags: set of "plus1" (a 0-based C index, 1-based in Fortran), "discard" (an out
          value C writes and Fortran does not get), "sentinel" (an int array that may be
          MPI_UNWEIGHTED / MPI_WEIGHTS_EMPTY), "const" (declared const in C), "nul" (a
          string length that counts the NUL in C and not in Fortran).
"""

import fnmatch
import os
import re
import sys
from dataclasses import dataclass, field
from typing import List, Optional

HANDLES = {
    "MPI_Comm": "Comm", "MPI_Datatype": "Datatype", "MPI_Request": "Request",
    "MPI_Errhandler": "Errhandler", "MPI_Message": "Message", "MPI_Group": "Group",
    "MPI_Info": "Info", "MPI_Op": "Op", "MPI_Win": "Win", "MPI_File": "File",
    "MPI_Session": "Session", "struct shl_win": "Win",
}
# The C conversion functions of a handle family (PMPI_<x>_c2f): MPI_Datatype's is Type_.
HANDLE_CONV = {h: ("Type" if h == "Datatype" else h) for h in set(HANDLES.values())}

FKIND = {
    "int": "INTEGER", "logical": "LOGICAL", "aint": "INTEGER(KIND=MPI_ADDRESS_KIND)",
    "offset": "INTEGER(KIND=MPI_OFFSET_KIND)", "count": "INTEGER(KIND=MPI_COUNT_KIND)",
    "handle": "INTEGER", "string": "CHARACTER(LEN=*)", "status": "INTEGER",
    "buffer": None, "callback": "EXTERNAL", "extra_state": "INTEGER(KIND=MPI_ADDRESS_KIND)",
    "omit": None,
}
KINDS = set(FKIND)

# Handle pointers that are both read and written: the handle is freed, committed or
# completed (set to the null handle, or to the new state's integer).
INOUT_HANDLE_FUNCS = {"Wait", "Test", "Cancel", "Start", "Request_free", "Type_commit",
                      "File_close", "Session_finalize", "Mrecv", "Mrecv_c", "Imrecv",
                      "Imrecv_c", "Comm_disconnect"}
# Ints a function both reads and writes.
INOUT_INT_NAMES = {"position"}
# Names whose length the rules know, by the function's other parameters (first present).
LENGTH_PARAMS = ("count", "incount", "n", "ndims", "maxdims", "length")


class DescriptionError(Exception):
    pass


@dataclass
class Param:
    name: str
    ctype: str
    kind: str = ""
    handle: Optional[str] = None
    array: Optional[str] = None
    intent: str = "in"
    fkind: Optional[str] = None
    size: Optional[str] = None
    value: Optional[str] = None
    flags: set = field(default_factory=set)


@dataclass
class Func:
    name: str
    ret: str
    params: List[Param]
    manual: bool = False
    fortran_only: bool = False
    large_count: bool = False
    c_only: bool = False
    reason: str = ""
    varargs: bool = False
    ierror: bool = True

    @property
    def cname(self):
        return "MPI_" + self.name

    @property
    def fname(self):
        return ("MPI_" + self.name).upper()

    @property
    def ret_kind(self):
        return {"int": "error", "double": "double", "MPI_Aint": "aint",
                "MPI_Fint": "int"}.get(self.ret, self.ret)

    @property
    def bound(self):
        """Whether the generated mpif.h/`mpi` bindings have this function."""
        return not (self.manual or self.c_only or self.large_count or self.fortran_only)


def _strip_comments(text):
    return re.sub(r"/\*.*?\*/", " ", text, flags=re.S)


def _split_params(s):
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur)
    return [p.strip() for p in out]


def _parse_param(text, where):
    """'const int ranks[]' -> Param(name='ranks', ctype='const int *', array='*')."""
    m = re.match(r"^(.*?)([A-Za-z_][A-Za-z0-9_]*)\s*((?:\[[^\]]*\])*)$", text.strip())
    if not m:
        raise DescriptionError(f"{where}: cannot read parameter '{text}'")
    base, name, dims = m.group(1).strip(), m.group(2), m.group(3)
    base = re.sub(r"\s+", " ", base).replace(" *", "*").replace("*", " *").strip()
    base = re.sub(r"\s*\*", " *", base).replace("* *", "**").strip()
    p = Param(name=name, ctype=base)
    if dims:
        p.ctype = base + (" *" if not base.endswith("*") else "*")
        p.array = "*"
        inner = re.findall(r"\[([^\]]*)\]", dims)
        if len(inner) == 2 and inner[1].strip():
            p.flags.add("dim2=" + inner[1].strip())
    if base.startswith("const ") or " const" in base:
        p.flags.add("const")
    return p


def parse_mpi_h(path):
    """Every SHL_DECLARE(ret, name, (params)) of mpi.h, as Funcs (unclassified)."""
    text = _strip_comments(open(path).read())
    funcs = []
    for m in re.finditer(r"\bSHL_DECLARE\s*\(", text):
        i = m.end()
        depth, j = 1, i
        while depth:
            if text[j] == "(":
                depth += 1
            elif text[j] == ")":
                depth -= 1
            j += 1
        body = text[i:j - 1]
        if body.strip().startswith("ret,"):
            continue  # the macro's own definition
        parts = _split_params(body)
        if len(parts) != 3:
            raise DescriptionError(f"mpi.h: cannot read SHL_DECLARE({body[:60]}...)")
        ret, name, args = parts[0].strip(), parts[1].strip(), parts[2].strip()
        if not (args.startswith("(") and args.endswith(")")):
            raise DescriptionError(f"mpi.h: MPI_{name}: cannot read its parameters")
        args = args[1:-1].strip()
        f = Func(name=name, ret=re.sub(r"\s+", " ", ret), params=[])
        if args != "void":
            for a in _split_params(args):
                if a == "...":
                    f.varargs = True
                    continue
                f.params.append(_parse_param(a, "mpi.h: MPI_" + name))
        f.large_count = name.endswith("_c")
        funcs.append(f)
    return funcs


def parse_bindings(path):
    """bindings.txt as lists of directives (each a dict)."""
    out = {"c-only": [], "manual": [], "param": [], "fortran-only": [], "const": [],
           "skip-const": [], "no-ierror": []}
    for n, raw in enumerate(open(path), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        where = f"{os.path.basename(path)}:{n}"
        word, _, rest = line.partition(" ")
        rest = rest.strip()
        if word in ("c-only", "manual", "skip-const", "no-ierror"):
            pat, _, reason = rest.partition(" ")
            if not reason.strip():
                raise DescriptionError(f"{where}: '{word} {pat}' needs a reason")
            out[word].append({"pattern": pat, "reason": reason.strip(), "where": where,
                              "used": False})
        elif word == "param":
            fields = rest.split()
            if len(fields) < 3:
                raise DescriptionError(f"{where}: param FUNC PARAM KEY=VALUE...")
            kv = {}
            for f in fields[2:]:
                k, eq, v = f.partition("=")
                if not eq or k not in ("kind", "handle", "array", "intent", "size",
                                       "value", "flags"):
                    raise DescriptionError(f"{where}: unknown setting '{f}'")
                kv[k] = v
            if "kind" in kv and kv["kind"] not in KINDS:
                raise DescriptionError(f"{where}: unknown kind '{kv['kind']}'")
            if "intent" in kv and kv["intent"] not in ("in", "out", "inout"):
                raise DescriptionError(f"{where}: unknown intent '{kv['intent']}'")
            out["param"].append({"func": fields[0], "param": fields[1], "set": kv,
                                 "where": where, "used": False})
        elif word == "fortran-only":
            m = re.match(r"^(\w+)\s*\((.*?)\)\s*(.*)$", rest)
            if not m or not m.group(3):
                raise DescriptionError(f"{where}: fortran-only NAME (PARAMS) REASON")
            out[word].append({"name": m.group(1), "params": m.group(2),
                              "reason": m.group(3), "where": where})
        elif word == "const":
            name, _, kind = rest.partition(" ")
            if kind.strip() not in ("int", "aint", "offset", "count", "logical"):
                raise DescriptionError(f"{where}: const NAME int|aint|offset|count|logical")
            out[word].append({"name": name, "kind": kind.strip(), "where": where})
        else:
            raise DescriptionError(f"{where}: unknown directive '{word}'")
    return out


def _default_length(func, p):
    names = [q.name for q in func.params]
    for n in LENGTH_PARAMS:
        if n in names and n != p.name:
            return n
    return "*"


def classify(func, p):
    """The rules: a parameter's kind, handle, intent and array length from its C type and
    name. Leaves kind "" when no rule applies."""
    t = p.ctype.replace("const ", "").strip()
    ptr = t.count("*")
    base = t.replace("*", "").strip()
    is_array = p.array is not None
    if base.endswith("_function") or base.endswith("_function_c") or \
            base == "MPI_User_function":
        p.kind, p.intent = "callback", "in"
        return
    if base in HANDLES:
        p.kind, p.handle = "handle", HANDLES[base]
        if is_array:
            p.intent = ("in" if "const" in p.flags else
                        "inout" if p.handle == "Request" else "out")
            p.array = _default_length(func, p)
        elif ptr == 0:
            p.intent = "in"
        elif ptr == 1:
            p.intent = "inout" if func.name in INOUT_HANDLE_FUNCS or (
                func.name.endswith("_free") and not func.name.endswith("_keyval")) \
                else "out"
        else:
            p.kind = ""
        return
    if base == "MPI_Status":
        p.kind = "status"
        if is_array:
            p.intent = "in" if "const" in p.flags else "out"
            p.array = _default_length(func, p)
        else:
            p.intent = ("in" if "const" in p.flags else
                        "inout" if func.name.startswith("Status_set") else "out")
            if ptr != 1:
                p.kind = ""
        return
    if base == "void" and ptr == 1:
        if p.name == "extra_state":
            p.kind, p.intent = "extra_state", "in"
        elif p.name in ("attribute_val", "attribute_val_in", "attribute_val_out"):
            p.kind = ""  # language-dependent values: manual functions only
            # The get_attr family writes the value; the others read it.
            get = func.name.endswith("get_attr") or func.name == "Attr_get"
            p.intent = "out" if get or p.name == "attribute_val_out" else "in"
        elif p.name == "baseptr":
            p.kind, p.intent = "aint", "out"  # C writes a pointer into the Fortran integer
        else:
            p.kind = "buffer"
            p.intent = "in" if "const" in p.flags else "inout"
        return
    if base == "char":
        if ptr == 1 and "const" in p.flags:
            p.kind, p.intent, p.array = "string", "in", None
        elif ptr == 1:
            p.kind, p.intent, p.array = "string", "out", None
        else:
            p.kind = ""  # argv-like: no rule
        return
    simple = {"int": "int", "MPI_Fint": "int", "MPI_Aint": "aint", "MPI_Offset": "offset",
              "MPI_Count": "count"}
    if base in simple:
        p.kind = simple[base]
        if p.name in ("flag", "commute", "weighted") and base == "int":
            p.kind = "logical"
        if is_array:
            p.intent = "in" if "const" in p.flags else "out"
            if any(f.startswith("dim2=") for f in p.flags):
                d2 = [f for f in p.flags if f.startswith("dim2=")][0][5:]
                n = _default_length(func, p)
                p.array = f"{d2}*{n}" if n != "*" else "*"
            else:
                p.array = _default_length(func, p)
            if p.name in ("weights", "sourceweights", "destweights") and base == "int":
                p.flags.add("sentinel")
        elif ptr == 0:
            p.intent = "in"
        elif ptr == 1:
            p.intent = "inout" if p.name in INOUT_INT_NAMES else "out"
        else:
            p.kind = ""
        return
    p.kind = ""


def nonblocking(name):
    """True where the buffer is used after the call returns: nonblocking, persistent,
    split, partitioned and one-sided calls, and buffers attached to the library. Their
    buffers, and arrays converted for C, must stay as they are until the call completes."""
    base = name[:-2] if name.endswith("_c") else name
    return bool(re.match(r"I(?!nfo|ntercomm|nit|s_)|File_i(read|write)|R(put|get|accumulate|"
                         r"get_accumulate)$|(Put|Get|Accumulate|Get_accumulate|Fetch_and_op|"
                         r"Compare_and_swap)$|Win_(create|attach|detach)$|"
                         r"(Buffer|Comm|Session)_(attach|detach)", base)
                or re.search(r"_(init|begin|end)$", base))


def load(mpi_h, bindings_txt):
    """The description: every function of mpi.h classified, plus the Fortran-only ones.
    Raises DescriptionError naming what it cannot classify."""
    funcs = parse_mpi_h(mpi_h)
    b = parse_bindings(bindings_txt)
    errors = []
    byname = {f.name: f for f in funcs}
    for f in funcs:
        # Every matching c-only line is used; an exact name's reason wins over a pattern's.
        for d in sorted(b["c-only"], key=lambda d: d["pattern"] != f.name):
            if fnmatch.fnmatchcase(f.name, d["pattern"]):
                if not f.c_only:
                    f.c_only, f.reason = True, d["reason"]
                d["used"] = True
        for d in b["manual"]:
            if fnmatch.fnmatchcase(f.name, d["pattern"]):
                if f.c_only:
                    errors.append(f"{d['where']}: MPI_{f.name} is listed as c-only too")
                f.manual, f.reason, d["used"] = True, d["reason"], True
                break
        for p in f.params:
            classify(f, p)
    for d in b["param"]:
        f = byname.get(d["func"])
        if f is None:
            errors.append(f"{d['where']}: mpi.h declares no MPI_{d['func']}")
            continue
        ps = [p for p in f.params if p.name == d["param"]]
        if not ps:
            errors.append(f"{d['where']}: MPI_{d['func']} has no parameter {d['param']}")
            continue
        p = ps[0]
        for k, v in d["set"].items():
            if k == "flags":
                p.flags |= set(x for x in v.split(",") if x)
            else:
                setattr(p, k, v)
        if d["set"].get("kind") in ("string",) and "array" not in d["set"]:
            p.array = None
    for d in b["no-ierror"]:
        f = byname.get(d["pattern"])
        if f is None:
            errors.append(f"{d['where']}: mpi.h declares no MPI_{d['pattern']}")
        else:
            f.ierror, d["used"] = False, True
    for f in funcs:
        if f.ret != "int":
            f.ierror = False
    for d in b["c-only"] + b["manual"]:
        if not d["used"]:
            errors.append(f"{d['where']}: '{d['pattern']}' matches no function of mpi.h")
    for d in b["fortran-only"]:
        f = Func(name=d["name"], ret="int", params=[], fortran_only=True,
                 reason=d["reason"])
        for a in _split_params(d["params"]):
            p = _parse_param(a, d["where"])
            classify(f, p)
            f.params.append(p)
        funcs.append(f)
    for f in funcs:
        for p in f.params:
            if p.kind == "" or p.kind not in KINDS:
                if not (f.manual or f.c_only):
                    errors.append(f"MPI_{f.name}: no rule classifies parameter "
                                  f"'{p.ctype} {p.name}': add a 'param' line to "
                                  f"bindings.txt, or list the function as manual or c-only "
                                  f"with a reason")
                continue
            if p.kind == "callback" and not (f.manual or f.c_only):
                errors.append(f"MPI_{f.name}: parameter {p.name} is a callback: list the "
                              f"function as manual (runtime/fortran/callbacks.c)")
            if p.kind in ("handle", "status") and p.array == "*" and \
                    not (f.manual or f.c_only):
                errors.append(f"MPI_{f.name}: the length of {p.name} is unknown: add "
                              f"'param {f.name} {p.name} array=EXPR' to bindings.txt")
            if "plus1" in p.flags and p.array == "*":
                errors.append(f"MPI_{f.name}: the length of {p.name} is unknown")
            if p.kind == "string" and p.intent == "out" and not p.size and \
                    not (f.manual or f.c_only):
                errors.append(f"MPI_{f.name}: string {p.name} is written by C: add "
                              f"'param {f.name} {p.name} size=EXPR' to bindings.txt")
            if p.kind == "omit" and p.value is None:
                errors.append(f"MPI_{f.name}: omitted parameter {p.name} needs value=")
            p.fkind = FKIND.get(p.kind)
        if f.ret not in ("int", "double", "MPI_Aint") and not (f.c_only or f.manual):
            errors.append(f"MPI_{f.name}: returns {f.ret}, which no rule binds")
    if errors:
        raise DescriptionError("\n".join(errors))
    return funcs


def consts_rules(bindings_txt):
    """(Fortran kinds of constants by name, skip patterns) from bindings.txt."""
    b = parse_bindings(bindings_txt)
    return ({d["name"]: d["kind"] for d in b["const"]},
            [(d["pattern"], d["reason"]) for d in b["skip-const"]])


def mpi_h_defines(mpi_h):
    """The object-like #define MPI_* names of mpi.h, in order."""
    names = []
    for line in open(mpi_h):
        m = re.match(r"^\s*#\s*define\s+(MPI_[A-Za-z0-9_]+)(\s|$)", line)
        if m and m.group(1) not in names:
            names.append(m.group(1))
    return names


def _fail(msg):
    sys.stderr.write("bindgen: " + msg.replace("\n", "\nbindgen: ") + "\n")
    sys.exit(1)


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    mpi_h = os.environ.get("SHOAL_MPI_H", os.path.join(here, "..", "mpi.h"))
    txt = os.environ.get("SHOAL_BINDINGS", os.path.join(here, "bindings.txt"))
    if len(argv) < 2:
        _fail("usage: bindgen.py mpif OUTDIR | mpif-headers OUTDIR CONSTS | list")
    try:
        funcs = load(mpi_h, txt)
    except DescriptionError as e:
        _fail(str(e))
    if argv[1] == "list":
        for f in funcs:
            what = ("bound" if f.bound else "manual" if f.manual else "c-only" if f.c_only
                    else "large-count" if f.large_count else "fortran-only")
            print(f"{f.cname} {what} {f.reason}".rstrip())
        return 0
    import bindgen_mpif  # the backend, beside this file
    try:
        if argv[1] == "mpif":
            bindgen_mpif.write_c(funcs, mpi_h, txt, argv[2])
        elif argv[1] == "mpif-headers":
            bindgen_mpif.write_headers(funcs, txt, argv[2], argv[3])
        else:
            _fail(f"unknown backend '{argv[1]}'")
    except DescriptionError as e:
        _fail(str(e))
    return 0


if __name__ == "__main__":
    # Run as the module `bindgen` (the one the backends import), not as __main__.
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import bindgen
    sys.exit(bindgen.main(sys.argv))
