#!/usr/bin/env python3
"""Inventory of torch_musa's Python-visible surface at a git tag, read from the vendor's source.

Usage: ``python make_inventory.py GIT_DIR TAG > torch_musa-TAG.tsv``

Reads the tree with ``git --git-dir GIT_DIR ls-tree/show/grep TAG`` (no checkout) and writes one TSV row per
name: what each module under ``torch_musa/`` defines and re-exports (parsed with ``ast``), what torch_musa sets
on torch (``patch``), and what its C++ extension modules bind (``PyMethodDef`` tables, ``PyTypeObject``
types, pybind11 ``def``/``class_``/``enum_``/``def_submodule``). Stdlib only; output is deterministic.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass, field

PKG = "torch_musa"
HEADER = ("name", "kind", "signature", "source", "note")
CPP_EXTS = (".cpp", ".cc", ".h", ".hpp", ".mu", ".muh", ".cu")
CPP_MARKERS = (
    r"PyMethodDef|PyTypeObject|PyModuleDef|py::|pybind11|PYBIND11_MODULE|PyModule_AddObject|PyObject_SetAttrString"
)
PATCH_ROOTS = ("torch", "torchgen", "triton")
REGISTRATIONS = {
    "rename_privateuse1_backend",
    "generate_methods_for_privateuse1_backend",
    "_register_device_module",
    "register_interface_for_device",
    "register_backend",
    "register_backend_for_device",
    "register_device_op_overrides",
    "register_package",
    "add_safe_globals",
}


@dataclass(frozen=True)
class Row:
    """One inventory line."""

    name: str
    kind: str
    signature: str
    source: str
    note: str

    def tsv(self) -> str:
        """The row as a tab-separated line (tabs and newlines in fields become spaces)."""
        return "\t".join(
            re.sub(r"\s+", " ", f).strip() for f in (self.name, self.kind, self.signature, self.source, self.note)
        )


class Repo:
    """Read-only access to one tag of a bare git repository."""

    def __init__(self, git_dir: str, tag: str) -> None:
        self.git_dir, self.tag = git_dir, tag

    def _git(self, *args: str) -> str:
        return subprocess.run(
            ["git", "--git-dir", self.git_dir, *args], check=True, capture_output=True, text=True, errors="replace"
        ).stdout

    def files(self) -> list[str]:
        """Every path in the tag's tree."""
        return self._git("ls-tree", "-r", "--name-only", self.tag).splitlines()

    def show(self, path: str) -> str:
        """A file's text at the tag."""
        return self._git("show", f"{self.tag}:{path}")

    def grep_files(self, pattern: str, pathspec: str) -> set[str]:
        """Paths under pathspec whose text matches the extended regex pattern."""
        out = subprocess.run(
            ["git", "--git-dir", self.git_dir, "grep", "-l", "-E", pattern, self.tag, "--", pathspec],
            capture_output=True,
            text=True,
        ).stdout
        return {line.split(":", 1)[1] for line in out.splitlines() if ":" in line}


def under(path: str, roots: tuple[str, ...]) -> bool:
    """Whether a dotted path is one of roots or inside one."""
    return any(path == r or path.startswith(r + ".") for r in roots)


def short(text: str, limit: int = 100) -> str:
    """text on one line, cut to limit characters."""
    text = re.sub(r"\s+", " ", text).strip()
    return text if len(text) <= limit else text[: limit - 3] + "..."


# ----------------------------------------------------------------------------------------------------------- C++


def lex_cpp(src: str) -> tuple[str, str]:
    """(code, masked): comments blanked in both; string/char literal contents also blanked in masked.

    Offsets and newlines are preserved so positions map between src, code and masked.
    """
    code, masked = list(src), list(src)
    i, n = 0, len(src)

    def blank(a: int, b: int, both: bool) -> None:
        for k in range(a, b):
            if src[k] != "\n":
                masked[k] = " "
                if both:
                    code[k] = " "

    while i < n:
        c = src[i]
        if src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
            blank(i, j, True)
            i = j
        elif src.startswith("/*", i):
            j = src.find("*/", i + 2)
            j = n if j < 0 else j + 2
            blank(i, j, True)
            i = j
        elif c == "R" and i + 1 < n and src[i + 1] == '"' and not (i and (src[i - 1].isalnum() or src[i - 1] == "_")):
            m = re.match(r'R"([^(\s]*)\(', src[i:])
            if not m:
                i += 1
                continue
            end = src.find(")" + m.group(1) + '"', i)
            end = n if end < 0 else end + len(m.group(1)) + 2
            blank(i + 2, end - 1, False)
            i = end
        elif c in "\"'":
            j = i + 1
            while j < n and src[j] != c and src[j] != "\n":
                j += 2 if src[j] == "\\" else 1
            blank(i + 1, min(j, n), False)
            i = j + 1
        else:
            i += 1
    return "".join(code), "".join(masked)


def close_of(masked: str, i: int) -> int:
    """Index of the bracket closing the one at i (same bracket type only)."""
    pair = {"(": ")", "[": "]", "{": "}", "<": ">"}
    open_, shut, depth = masked[i], pair[masked[i]], 0
    for k in range(i, len(masked)):
        if masked[k] == open_:
            depth += 1
        elif masked[k] == shut:
            depth -= 1
            if depth == 0:
                return k
    return len(masked) - 1


def split_top(text: str, masked: str, sep: str = ",") -> list[tuple[int, str]]:
    """Split text at sep outside any (), [], {}, <> nesting in masked; (offset, part) pairs."""
    parts, depth, start = [], 0, 0
    for k, ch in enumerate(masked):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == sep and depth == 0:
            parts.append((start, text[start:k]))
            start = k + 1
    parts.append((start, text[start:]))
    return [(o, p) for o, p in parts if p.strip()]


def split_types(text: str) -> list[str]:
    """Split a C++ template argument list at top-level commas (nesting by <>, (), [])."""
    out, depth, start = [], 0, 0
    for k, ch in enumerate(text):
        depth += ch in "<([" and 1 or ch in ">)]" and -1 or 0
        if ch == "," and depth == 0:
            out.append(text[start:k].strip())
            start = k + 1
    return [t for t in [*out, text[start:].strip()] if t]


def param_names(params: str) -> list[str]:
    """Parameter names of a C++ parameter list (the last identifier of each, defaults dropped)."""
    names = []
    for piece in re.split(r",(?![^<]*>)", params):
        piece = piece.split("=")[0].strip()
        m = re.search(r"(\w+)\s*(\[\s*\])?$", piece)
        if m and piece not in ("void", ""):
            names.append(m.group(1))
    return names


@dataclass
class CFunc:
    """A C++ function definition found in a source file."""

    name: str
    path: str
    params: list[tuple[str, str]]  # (type text, name)
    start: int  # offset of the body's "{"
    end: int  # offset of the body's "}"


@dataclass
class CFile:
    """A lexed C++ file with line lookup and #if conditions per line."""

    path: str
    src: str
    code: str
    masked: str
    line_starts: list[int] = field(default_factory=list)
    conds: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", self.src)]
        stack: list[str] = []
        for line in self.src.split("\n"):
            s = line.strip()
            m = re.match(r"#\s*(ifdef|ifndef|if|elif|else|endif)\b\s*(.*)", s)
            if m and m.group(1) in ("ifdef", "ifndef", "if"):
                stack.append(("!" if m.group(1) == "ifndef" else "") + m.group(2).strip())
            elif m and m.group(1) in ("elif", "else") and stack:
                stack[-1] = f"not ({stack[-1]})" + (f" and {m.group(2).strip()}" if m.group(2).strip() else "")
            elif m and m.group(1) == "endif" and stack:
                stack.pop()
            self.conds.append(" && ".join(c for c in stack if not c.startswith(("!", "defined(__", "!defined"))))

    def line(self, off: int) -> int:
        """1-based line number of an offset."""
        lo, hi = 0, len(self.line_starts)
        while lo + 1 < hi:
            mid = (lo + hi) // 2
            if self.line_starts[mid] <= off:
                lo = mid
            else:
                hi = mid
        return lo + 1

    def cond(self, off: int) -> str:
        """The #if condition active at an offset ('' when none)."""
        return self.conds[self.line(off) - 1]

    def where(self, off: int) -> str:
        """path:line of an offset."""
        return f"{self.path}:{self.line(off)}"


class CppScan:
    """Finds what C++ binds into Python modules: PyMethodDef tables, PyTypeObject types, pybind11 calls."""

    FUNC_RE = re.compile(r"\b([A-Za-z_][\w:~]*)\s*\(")
    NOT_FUNCS = {"if", "for", "while", "switch", "catch", "return", "sizeof", "defined", "decltype", "alignof"}

    def __init__(self, files: dict[str, str], ext_modules: dict[str, str]) -> None:
        self.files = {p: CFile(p, s, *lex_cpp(s)) for p, s in sorted(files.items())}
        self.ext_modules = ext_modules  # source path -> extension module name (from setup.py)
        self.funcs: dict[str, CFunc] = {}
        self.rows: list[Row] = []
        self.tables: dict[str, tuple[CFile, str, list[tuple[int, str, str, str]]]] = {}  # name -> (file, type, entries)
        self.unresolved = 0
        self.class_paths: set[str] = set()
        for f in self.files.values():
            self._find_funcs(f)
            self._find_tables(f)

    # -- discovery
    def _find_funcs(self, f: CFile) -> None:
        pos = 0
        for m in self.FUNC_RE.finditer(f.masked):
            if m.start() < pos or m.group(1).split("::")[-1] in self.NOT_FUNCS:
                continue
            close = close_of(f.masked, m.end() - 1)
            rest = re.match(r"\s*(?:const\s*|noexcept\s*|override\s*|->\s*[\w:<>*& ]+?\s*)*\{", f.masked[close + 1 :])
            if not rest or m.group(1)[0].isdigit():
                continue
            start = close + rest.end()
            end = close_of(f.masked, start)
            ptext = f.code[m.end() : close]
            params = []
            for _, p in split_top(ptext, f.masked[m.end() : close]):
                names = param_names(p)
                if names:
                    params.append((p.rsplit(names[-1], 1)[0].strip(), names[-1]))
            name = m.group(1).split("::")[-1]
            self.funcs.setdefault(name, CFunc(name, f.path, params, start, end))
            pos = end

    def _find_tables(self, f: CFile) -> None:
        for m in re.finditer(r"\b(PyMethodDef|PyGetSetDef|PyMemberDef)\s+(\w+)\s*\[\s*\]\s*=\s*\{", f.masked):
            end = close_of(f.masked, m.end() - 1)
            entries = []
            for e in re.finditer(r'\{\s*(?:\(char\s*\*\)\s*)?"(\w+)"\s*,([^{}]*)\}', f.code[m.end() : end]):
                fields = [x.strip() for x in e.group(2).split(",")]
                fn = re.sub(r"^\((?:getter|PyCFunction)\)|^castPyCFunction\w*\((\w+)\)$", r"\1", fields[0]).strip("() ")
                flags = fields[1] if len(fields) > 1 else ""
                entries.append((m.end() + e.start(), e.group(1), fn, flags))
            self.tables[m.group(2)] = (f, m.group(1), entries)

    # -- helpers
    def body(self, fn: CFunc) -> tuple[CFile, str, str, int]:
        """(file, code, masked, offset) of a function body."""
        f = self.files[fn.path]
        return f, f.code[fn.start : fn.end + 1], f.masked[fn.start : fn.end + 1], fn.start

    def c_signature(self, cname: str, flags: str) -> tuple[str, str]:
        """(signature, note) of a PyMethodDef entry from its flags and its C function's argument parsing."""
        fn = self.funcs.get(cname)
        sig = ""
        if fn:
            _, code, _, _ = self.body(fn)
            kw = re.search(r"kwlist\[\]\s*=\s*\{([^}]*)\}", code)
            parser = re.search(r'PythonArgParser\s+\w+\s*\(\s*\{\s*"\w*(\([^"]*\))', code)
            invalid = re.search(r'THPUtils_invalidArguments\([^;]*?"(\([^"]*\))', code)
            if kw:
                sig = "(" + ", ".join(re.findall(r'"(\w+)"', kw.group(1))) + ")"
            elif parser:
                sig = parser.group(1)
            elif invalid:
                sig = invalid.group(1).rstrip(";")
        if not sig:
            if "METH_NOARGS" in flags:
                sig = "()"
            elif "METH_O" in flags:
                sig = "(arg)"
            elif "METH_KEYWORDS" in flags:
                sig = "(*args, **kwargs)"
            elif "METH_VARARGS" in flags:
                sig = "(*args)"
        extra = "; classmethod" if "METH_CLASS" in flags else "; staticmethod" if "METH_STATIC" in flags else ""
        return sig, f"PyMethodDef {flags.replace(' ', '')} -> C {cname}{extra}"

    def emit(self, name: str, f: CFile, off: int, sig: str, note: str, cond: str = "", kind: str = "binding") -> None:
        """Add a binding row, noting a preprocessor condition when one applies."""
        conds = [c.strip() for text in (cond, f.cond(off)) for c in text.split("&&") if c.strip()]
        if conds:
            note += "; only when " + " && ".join(dict.fromkeys(conds))
        self.rows.append(Row(name, kind, sig, f.where(off), note))

    # -- module expressions
    def eval_mod(self, expr: str, env: dict[str, str], moddefs: dict[str, str]) -> str | None:
        """Dotted Python path a C++ module/object expression denotes, or None."""
        e = expr.strip()
        m = re.match(r"^(.*)\.attr\(\s*\"(\w+)\"\s*\)$", e, re.S)
        if m:
            base = self.eval_mod(m.group(1), env, moddefs)
            return f"{base}.{m.group(2)}" if base else None
        m = re.match(r"^(.*)\.def_submodule\(\s*\"(\w+)\"", e, re.S)
        if m:
            base = self.eval_mod(m.group(1), env, moddefs)
            return f"{base}.{m.group(2)}" if base else None
        for pat in (
            r"^py::handle\((\w+)\)\.cast<py::module_?>\(\)$",
            r"^py::cast<py::module_?>\((\w+)\)$",
            r"^py::reinterpret_borrow<py::module_?>\((\w+)\)$",
            r"^THPObjectPtr\((.*)\)$",
        ):
            m = re.match(pat, e, re.S)
            if m:
                return self.eval_mod(m.group(1), env, moddefs)
        m = re.match(r'^(?:PyImport_ImportModule|py::module_?::import)\(\s*"([\w.]+)"\s*\)$', e)
        if m:
            return m.group(1)
        m = re.match(r"^PyModule_Create\(\s*&(\w+)\s*\)$", e)
        if m:
            return moddefs.get(m.group(1))
        return env.get(e) if re.fullmatch(r"\w+", e) else None

    # -- analysis of one function body
    def analyze(
        self, fn: CFunc, env: dict[str, str], cond: str, moddefs: dict[str, str], emit: bool
    ) -> list[tuple[str, int, str]]:
        """Walk a function body; return calls (callee, arg index, module path); emit rows when emit is set."""
        f, code, masked, base = self.body(fn)
        env = dict(env)
        calls: list[tuple[str, int, str]] = []
        for off, stmt in self.statements(code, masked):
            smask = masked[off : off + len(stmt)]
            lead = len(stmt) - len(stmt.lstrip())
            stmt, smask, off = stmt.strip(), smask.strip(), off + lead
            where = base + off
            m = re.match(r"^(?:[\w:<>*&]+(?:\s*<[^=;]*>)?[\s*&]+)?(\w+)\s*=\s*(?!=)", smask)
            target_var = None
            rhs_off = 0
            if m and not re.match(r"^(return|if|while)\b", stmt):
                target_var, rhs_off = m.group(1), m.end()
            rhs, rmask = stmt[rhs_off:], smask[rhs_off:]
            # m.attr("x") = ...
            am = re.match(r'^(\w+)\.attr\(\s*"(\w+)"\s*\)\s*=\s*(.*)$', stmt, re.S)
            if am and emit and env.get(am.group(1)):
                self.emit(
                    f"{env[am.group(1)]}.{am.group(2)}",
                    f,
                    where,
                    "",
                    f"pybind11 attr = {short(am.group(3), 60)} in {fn.name}()",
                    cond,
                )
                continue
            # class heads and chains
            chain = self.chain(rhs, rmask, env, moddefs, f, base + off + rhs_off, fn, cond, emit)
            if target_var:
                val = chain if chain else self.eval_mod(rhs, env, moddefs)
                if val:
                    env[target_var] = val
                    if emit and ".def_submodule(" in rhs:
                        doc = re.search(r'def_submodule\(\s*"\w+"\s*,\s*"([^"]*)"', rhs)
                        self.emit(
                            val,
                            f,
                            where,
                            "",
                            f"pybind11 def_submodule in {fn.name}()" + (f"; doc: {doc.group(1)}" if doc else ""),
                            cond,
                            kind="module",
                        )
            # PyModule_AddObject(module, "Name", (PyObject*)&Type)
            for ao in re.finditer(
                r'PyModule_AddObject\(\s*(\w+)\s*,\s*"(\w+)"\s*,\s*\(PyObject\s*\*\)\s*&(\w+)\s*\)', stmt
            ):
                if env.get(ao.group(1)) and emit:
                    self.emit_type(f"{env[ao.group(1)]}.{ao.group(2)}", ao.group(3), f, where, fn, cond)
            # PyObject_SetAttrString(mod, "x", v)
            for sa in re.finditer(r'PyObject_SetAttrString\(\s*(\w+)\s*,\s*"(\w+)"', stmt):
                if env.get(sa.group(1)) and emit:
                    self.emit(
                        f"{env[sa.group(1)]}.{sa.group(2)}",
                        f,
                        where,
                        "",
                        f"PyObject_SetAttrString in {fn.name}()",
                        cond,
                        kind="attribute",
                    )
            # calls passing a module-valued variable
            for cm in re.finditer(r"\b([A-Za-z_][\w:]*)\s*\(", smask):
                callee = cm.group(1).split("::")[-1]
                if callee not in self.funcs or callee == fn.name:
                    continue
                args = split_top(
                    stmt[cm.end() : close_of(smask, cm.end() - 1)], smask[cm.end() : close_of(smask, cm.end() - 1)]
                )
                for idx, (_, a) in enumerate(args):
                    val = self.eval_mod(a, env, moddefs)
                    if val:
                        calls.append((callee, idx, val))
        # set_module_attr("x", ...) through a lambda wrapping PyObject_SetAttrString(m, name, ...)
        for lm in re.finditer(
            r"auto\s+(\w+)\s*=\s*\[[^\]]*\]\s*\(\s*const\s+char\s*\*\s*(\w+)[^)]*\)\s*\{"
            r"[^}]*?PyObject_SetAttrString\(\s*(\w+)\s*,\s*\2",
            code,
        ):
            mod = self.eval_mod(lm.group(3), env, moddefs) or env.get(lm.group(3))
            for cm in re.finditer(rf'\b{lm.group(1)}\(\s*"(\w+)"', code):
                if mod and emit:
                    self.emit(
                        f"{mod}.{cm.group(1)}",
                        f,
                        base + cm.start(),
                        "",
                        f"set by {lm.group(1)}() (PyObject_SetAttrString) in {fn.name}()",
                        cond,
                        kind="attribute",
                    )
        return calls

    @staticmethod
    def statements(code: str, masked: str) -> list[tuple[int, str]]:
        """Statements of a body: split at ';' and braces outside parentheses."""
        out, depth, start = [], 0, 1
        for k, ch in enumerate(masked):
            if ch in "([":
                depth += 1
            elif ch in ")]":
                depth -= 1
            elif depth == 0 and ch in ";{}":
                if code[start:k].strip():
                    out.append((start, code[start:k]))
                start = k + 1
        return out

    def chain(
        self,
        stmt: str,
        smask: str,
        env: dict[str, str],
        moddefs: dict[str, str],
        f: CFile,
        base: int,
        fn: CFunc,
        cond: str,
        emit: bool,
    ) -> str | None:
        """Handle `X.def(...).def(...)` and `py::class_<...>(m, "Name", ...).def(...)`; return a class's path."""
        head = re.match(r"^((?:py::class_|py::enum_|[\w:]*class_))\s*<", smask)
        pos, target, is_class = 0, None, False
        if head:
            tclose = close_of(smask, head.end() - 1)
            targs = stmt[head.end() : tclose]
            paren = smask.find("(", tclose)
            if paren < 0 or smask[tclose + 1 : paren].strip():
                return None
            pclose = close_of(smask, paren)
            args = split_top(stmt[paren + 1 : pclose], smask[paren + 1 : pclose])
            parent = self.eval_mod(args[0][1], env, moddefs) if args else None
            name = re.match(r'\s*"(\w+)"', args[1][1]) if len(args) > 1 else None
            if not parent or not name:
                self.unresolved += 1
                return None
            target, is_class, pos = f"{parent}.{name.group(1)}", True, pclose + 1
            self.class_paths.add(target)
            if emit:
                ctype = split_types(targs)
                bases = [
                    self.eval_mod(a, env, moddefs) or a.strip()
                    for _, a in args[2:]
                    if not a.strip().startswith(('"', 'R"'))
                ]
                note = f"pybind11 {head.group(1).split('::')[-1]} of C++ {short(ctype[0], 70)}"
                if len(ctype) > 1 and not re.match(r"(std::shared_ptr|c10::intrusive_ptr|\w*Destructor)", ctype[1]):
                    note += f"; C++ base {short(ctype[1], 60)}"
                if bases:
                    note += "; Python base " + ", ".join(bases)
                self.emit(target, f, base, "", note + f"; in {fn.name}()", cond)
        else:
            m = re.match(r"^(\w+)\s*\.", smask)
            if not m or not re.match(
                r"^\w+\s*\.\s*(def|def_static|def_readonly|def_readwrite|def_property|def_property_readonly)\s*\(",
                smask,
            ):
                return None
            target = env.get(m.group(1))
            if not target:
                self.unresolved += 1
                return None
            is_class = target in self.class_paths
            pos = m.end() - 1
        while True:
            mm = re.match(r"\s*\.\s*(\w+)\s*\(", smask[pos:])
            if not mm:
                break
            open_ = pos + mm.end() - 1
            close = close_of(smask, open_)
            if emit:
                self.member(
                    target,
                    is_class,
                    mm.group(1),
                    stmt[open_ + 1 : close],
                    smask[open_ + 1 : close],
                    f,
                    base + open_,
                    fn,
                    cond,
                )
            pos = close + 1
        return target if is_class else None

    def member(
        self, target: str, is_class: bool, meth: str, args: str, amask: str, f: CFile, off: int, fn: CFunc, cond: str
    ) -> None:
        """Emit one `.def*`/`.value` member of a pybind chain."""
        parts = split_top(args, amask)
        if not parts:
            return
        first = parts[0][1].strip()
        lit = re.match(r'^"(\w+)"$', first)
        if meth in ("def", "def_static") and first.startswith("py::init"):
            tm = re.match(r"\s*py::init\s*<(.*?)>\s*\(\s*\)", args, re.S)
            sig = self.pyargs(args) or (f"({', '.join(short(t, 60) for t in split_types(tm.group(1)))})" if tm else "")
            sig = sig or self.pysig(args, amask, False)
            self.emit(f"{target}.__init__", f, off, sig, f"pybind11 py::init in {fn.name}()", cond)
            return
        if not lit:
            return
        name = lit.group(1)
        rest = args[parts[1][0] :] if len(parts) > 1 else ""
        rmask = amask[parts[1][0] :] if len(parts) > 1 else ""
        if meth in ("def", "def_static"):
            sig = self.pyargs(rest) or self.pysig(rest, rmask, is_class and meth == "def")
            impl = parts[1][1].strip() if len(parts) > 1 else ""
            note = f"pybind11 {meth}"
            if impl and not impl.startswith("["):
                note += f" -> {short(impl, 70)}"
            self.emit(f"{target}.{name}", f, off, sig, note + f" in {fn.name}()", cond)
        elif meth == "value":
            self.emit(
                f"{target}.{name}",
                f,
                off,
                "",
                f"pybind11 enum value {short(rest, 60)} in {fn.name}()",
                cond,
                kind="binding",
            )
        else:
            self.emit(
                f"{target}.{name}", f, off, "", f"pybind11 {meth} (attribute) -> {short(rest, 60)} in {fn.name}()", cond
            )

    @staticmethod
    def pyargs(args: str) -> str:
        """'(a, b=default)' from py::arg(...) annotations, or ''."""
        found = re.findall(r'py::arg\(\s*"(\w+)"\s*\)(\s*=\s*[^,)]+(?:\([^)]*\))?)?', args)
        return (
            "(" + ", ".join(n + (("=" + d.split("=", 1)[1].strip()) if d else "") for n, d in found) + ")"
            if found
            else ""
        )

    @staticmethod
    def pysig(text: str, mask: str, drop_self: bool) -> str:
        """'(a, b)' from the first lambda's parameter names, or ''."""
        lm = re.search(r"\[[^\]]*\]\s*\(", mask)
        if not lm:
            return ""
        names = param_names(text[lm.end() : close_of(mask, lm.end() - 1)])
        if drop_self and names:
            names = names[1:]
        return "(" + ", ".join(names) + ")"

    def emit_type(self, path: str, tvar: str, f: CFile, off: int, fn: CFunc, cond: str) -> None:
        """Rows for a PyTypeObject registered under path: the type, its tp_new, methods and getsets."""
        for tf in self.files.values():
            m = re.search(rf"PyTypeObject\s+{tvar}\s*=\s*\{{", tf.masked)
            if not m:
                continue
            end = close_of(tf.masked, m.end() - 1)
            block, raw = tf.code[m.end() : end], tf.src[m.end() : end]
            base = re.search(rf"{tvar}\.tp_base\s*=\s*(\w+)", tf.code)
            torch_names = {"THPStreamClass": "torch.Stream", "THPEventClass": "torch.Event"}
            note = f"C type {tvar} (PyModule_AddObject in {fn.name}())"
            if base:
                note += f"; tp_base {base.group(1)}" + (
                    f" ({torch_names[base.group(1)]})" if base.group(1) in torch_names else ""
                )
            tp_new = re.search(r"(\w+)\s*,\s*/\*\s*tp_new\s*\*/", raw)
            self.emit(path, f, off, self.c_signature(tp_new.group(1), "")[0] if tp_new else "", note, cond)
            if tp_new:
                sig, _ = self.c_signature(tp_new.group(1), "")
                self.emit(f"{path}.__new__", tf, m.start(), sig, f"tp_new -> C {tp_new.group(1)}", cond)
            for ident in sorted(set(re.findall(r"\b(\w+)\b", block)) & set(self.tables)):
                tfile, ttype, entries = self.tables[ident]
                for eoff, name, cname, flags in entries:
                    if ttype == "PyMethodDef":
                        sig, note2 = self.c_signature(cname, flags)
                        self.emit(f"{path}.{name}", tfile, eoff, sig, note2, cond)
                    else:
                        self.emit(f"{path}.{name}", tfile, eoff, "", f"{ttype} (attribute) getter {cname}", cond)
            return

    # -- driver
    def run(self) -> list[Row]:
        """Resolve module variables through calls, then emit every binding row."""
        moddefs: dict[str, str] = {}
        containers: dict[str, str] = {}  # method-table container variable -> module
        for f in self.files.values():
            for m in re.finditer(
                r'PyModuleDef\s+(\w+)\s*=\s*\{\s*PyModuleDef_HEAD_INIT\s*,\s*"([\w.]+)"\s*,[^,]*,[^,]*,\s*(\w+)', f.code
            ):
                moddefs[m.group(1)] = m.group(2)
                containers[m.group(3)] = m.group(2)
                self.rows.append(Row(m.group(2), "module", "", f.where(m.start()), "C extension module (PyModuleDef)"))
        param_env: dict[str, dict[str, str]] = {}
        param_cond: dict[str, str] = {}
        roots: dict[str, dict[str, str]] = {}
        for fn in self.funcs.values():
            if fn.name == "PYBIND11_MODULE" and fn.params:
                modname = self.ext_modules.get(fn.path)
                if modname:
                    roots[fn.name + fn.path] = {fn.params[-1][1]: modname}
                    self.rows.append(
                        Row(
                            modname,
                            "module",
                            "",
                            f"{fn.path}:{self.files[fn.path].line(fn.start)}",
                            "C extension module (PYBIND11_MODULE; name from setup.py)",
                        )
                    )
        for _ in range(8):
            changed = False
            for fn in self.funcs.values():
                env = dict(param_env.get(fn.name, {}))
                env.update(roots.get(fn.name + fn.path, {}))
                for callee, idx, val in self.analyze(fn, env, param_cond.get(fn.name, ""), moddefs, emit=False):
                    target = self.funcs[callee]
                    if idx < len(target.params):
                        pname = target.params[idx][1]
                        if param_env.setdefault(callee, {}).get(pname) != val:
                            param_env[callee][pname] = val
                            f = self.files[fn.path]
                            call_cond = " && ".join(c for c in (param_cond.get(fn.name, ""),) if c)
                            # the condition at the call site, found by searching the caller's body for the call
                            body = f.code[fn.start : fn.end]
                            cm = re.search(rf"\b{callee}\s*\(", body)
                            site = f.cond(fn.start + cm.start()) if cm else ""
                            param_cond[callee] = " && ".join(c for c in (call_cond, site) if c)
                            changed = True
            if not changed:
                break
        self.unresolved = 0
        for fn in self.funcs.values():
            env = dict(param_env.get(fn.name, {}))
            env.update(roots.get(fn.name + fn.path, {}))
            self.analyze(fn, env, param_cond.get(fn.name, ""), moddefs, emit=True)
        self._module_tables(containers)
        self._tensor_types()
        self._registered_backends()
        return self.rows

    def _module_tables(self, containers: dict[str, str]) -> None:
        """Rows for PyMethodDef tables added to a module's method vector (AddPyMethodDefs) or named in PyModuleDef."""
        for f in self.files.values():
            for m in re.finditer(r"AddPyMethodDefs\(\s*(\w+)\s*,\s*([\w:]+)\s*(\(\s*\))?\s*\)", f.code):
                module = containers.get(m.group(1))
                table = m.group(2).split("::")[-1]
                if m.group(3):  # a getter function returning the table
                    getter = self.funcs.get(table)
                    rm = re.search(r"return\s+(\w+)\s*;", self.body(getter)[1]) if getter else None
                    table = rm.group(1) if rm else table
                if not module or table not in self.tables:
                    self.unresolved += 1
                    continue
                tfile, _, entries = self.tables[table]
                for eoff, name, cname, flags in entries:
                    sig, note = self.c_signature(cname, flags)
                    self.emit(f"{module}.{name}", tfile, eoff, sig, note + f"; table {table}", f.cond(m.start()))
        for var, module in containers.items():
            if var in self.tables:
                tfile, _, entries = self.tables[var]
                for eoff, name, cname, flags in entries:
                    sig, note = self.c_signature(cname, flags)
                    self.emit(f"{module}.{name}", tfile, eoff, sig, note + f"; table {var}")

    def _tensor_types(self) -> None:
        """Legacy tensor types (e.g. torch_musa.FloatTensor) created from a ScalarType list by PythonTensor.cpp."""
        init, backend = self.funcs.get("InitializeMusaAtenTypes"), self.funcs.get("GetBackendName")
        if not init or not backend:
            return
        f, code, _, base = self.body(init)
        bm = re.search(r'case\s+at::musa::kMUSABackend\s*:\s*return\s+"([\w.]+)"', self.body(backend)[1])
        if not bm or "PyModule_AddObject" not in f.code:
            return
        for m in re.finditer(r"at::ScalarType::(\w+)\s*[,}]", code):
            self.emit(
                f"{bm.group(1)}.{m.group(1)}Tensor",
                f,
                base + m.start(),
                "",
                "legacy tensor type: a PyTensorType named GetBackendName(backend) + '.' + ScalarType + 'Tensor', "
                "added by PyModule_AddObject in PyBindTensorTypes()",
            )

    def _registered_backends(self) -> None:
        """torch.distributed.Backend.register_backend("name", ...) calls made from C++."""
        for f in self.files.values():
            if not re.search(r'attr\("Backend"\)\.attr\("register_backend"\)', f.code):
                continue
            for m in re.finditer(r'\bregister_backend\(\s*"(\w+)"', f.code):
                args = f.code[m.start() : close_of(f.masked, f.masked.index("(", m.start())) + 1]
                device = re.findall(r'"(\w+)"', args)[-1]
                self.emit(
                    "torch.distributed.Backend.register_backend",
                    f,
                    m.start(),
                    f'("{m.group(1)}", ...)',
                    f"call from C++ registering backend '{m.group(1)}' for device '{device}'",
                    kind="patch",
                )


# -------------------------------------------------------------------------------------------------------- Python


@dataclass
class Def:
    """Something a module defines: a function, class or assigned name (with class members)."""

    kind: str
    signature: str
    line: int
    note: str
    members: list[tuple[str, Def]] = field(default_factory=list)


@dataclass
class Bind:
    """One name in a module's namespace: a local Def, or a reference to module.attr (or to a module)."""

    line: int
    local: Def | None = None
    module: str = ""
    attr: str | None = None  # None: the binding is the module itself
    via_star: bool = False


@dataclass
class PyMod:
    """A parsed module of the package."""

    name: str
    path: str
    is_pkg: bool
    tree: ast.Module
    all_: list[str] | None = None
    replaced: str = ""


def signature_of(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> str:
    """Parameters as written (ast.unparse of the arguments)."""
    return f"({ast.unparse(fn.args)})"


def decorators_note(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> list[str]:
    """Notes for decorators (cached ones marked)."""
    out = []
    for d in node.decorator_list:
        text = ast.unparse(d)
        out.append(f"@{text}" + (" (cached)" if re.search(r"\b(lru_cache|cache|cached_property)\b", text) else ""))
    return out


def describe(node: ast.stmt) -> Def | None:
    """A Def for a function/class/assignment statement."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        notes = decorators_note(node)
        if node.returns is not None:
            notes.append(f"returns {short(ast.unparse(node.returns), 60)}")
        return Def("function", signature_of(node), node.lineno, "; ".join(notes))
    if isinstance(node, ast.ClassDef):
        notes = []
        if node.bases:
            notes.append("bases: " + ", ".join(ast.unparse(b) for b in node.bases))
        notes += [f"{k.arg}={ast.unparse(k.value)}" for k in node.keywords]
        notes += decorators_note(node)
        d = Def("class", "", node.lineno, "; ".join(notes))
        for item in node.body:
            if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and (
                not item.name.startswith("_") or item.name in ("__init__", "__new__")
            ):
                sub = describe(item)
                if sub:
                    sub.kind = "method"
                    d.members.append((item.name, sub))
            elif isinstance(item, ast.ClassDef) and not item.name.startswith("_"):
                sub = describe(item)
                if sub:
                    d.members.append((item.name, sub))
            elif isinstance(item, (ast.Assign, ast.AnnAssign)):
                targets = item.targets if isinstance(item, ast.Assign) else [item.target]
                for t in targets:
                    if isinstance(t, ast.Name) and not t.id.startswith("_") and item.value is not None:
                        d.members.append(
                            (
                                t.id,
                                Def(
                                    "attribute",
                                    "",
                                    item.lineno,
                                    f"class attribute = {short(ast.unparse(item.value), 80)}",
                                ),
                            )
                        )
        return d
    return None


class PyScan:
    """Namespaces, re-exports and patches of the package's Python modules."""

    def __init__(self, sources: dict[str, str], cpp_rows: list[Row]) -> None:
        self.mods: dict[str, PyMod] = {}
        for path, text in sorted(sources.items()):
            parts = path[:-3].split("/")
            is_pkg = parts[-1] == "__init__"
            name = ".".join(parts[:-1] if is_pkg else parts)
            self.mods[name] = PyMod(name, path, is_pkg, ast.parse(text, filename=path))
        self.cpp = {r.name: r for r in cpp_rows}
        self.cpp_children: dict[str, list[Row]] = {}
        for r in cpp_rows:
            self.cpp_children.setdefault(r.name.rsplit(".", 1)[0], []).append(r)
        self.cpp_modules = {r.name for r in cpp_rows if r.kind == "module"}
        self._ns: dict[str, dict[str, Bind]] = {}
        self._busy: set[str] = set()
        self.pkg_attrs: dict[str, dict[str, tuple[str, str, int]]] = {}  # package -> attr -> (module, expr, line)
        self.patch_rows: list[Row] = []

    # -- names
    def absolute(self, mod: PyMod, module: str | None, level: int) -> str:
        """Absolute module name of a (possibly relative) import."""
        if level == 0:
            return module or ""
        base = mod.name.split(".") if mod.is_pkg else mod.name.split(".")[:-1]
        base = base[: len(base) - (level - 1)]
        return ".".join(base + ([module] if module else []))

    def walk_top(self, body: list[ast.stmt], in_handler: bool = False) -> list[tuple[ast.stmt, bool]]:
        """Module-level statements, descending into if/try/with blocks (handler statements flagged)."""
        out = []
        for node in body:
            if isinstance(node, ast.If):
                out += self.walk_top(node.body, in_handler) + self.walk_top(node.orelse, True)
            elif isinstance(node, ast.Try):
                out += self.walk_top(node.body, in_handler)
                for h in node.handlers:
                    out += self.walk_top(h.body, True)
                out += self.walk_top(node.orelse, in_handler) + self.walk_top(node.finalbody, in_handler)
            elif isinstance(node, ast.With):
                out += self.walk_top(node.body, in_handler)
            else:
                out.append((node, in_handler))
        return out

    def namespace(self, name: str) -> dict[str, Bind]:
        """The final top-level bindings of an internal module (star imports expanded)."""
        if name in self._ns:
            return self._ns[name]
        mod = self.mods[name]
        if name in self._busy:
            return {}
        self._busy.add(name)
        ns: dict[str, Bind] = {}

        def bind(key: str, b: Bind, fallback: bool) -> None:
            if not (fallback and key in ns):
                ns[key] = b

        for node, fallback in self.walk_top(mod.tree.body):
            d = describe(node)
            if d and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                bind(node.name, Bind(node.lineno, local=d), fallback)
            elif isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for t in targets:
                    if isinstance(t, ast.Name):
                        if t.id == "__all__" and isinstance(node.value, (ast.List, ast.Tuple)):
                            mod.all_ = [
                                e.value
                                for e in node.value.elts
                                if isinstance(e, ast.Constant) and isinstance(e.value, str)
                            ]
                        value = ast.unparse(node.value)
                        ref = self.ref_of(mod, node.value)
                        if ref and ref[0] in self.cpp_modules:
                            bind(t.id, Bind(node.lineno, module=ref[0], attr=ref[1]), fallback)
                        else:
                            bind(
                                t.id,
                                Bind(node.lineno, local=Def("attribute", "", node.lineno, f"= {short(value, 90)}")),
                                fallback,
                            )
                    elif isinstance(t, ast.Subscript) and ast.unparse(t) == "sys.modules[__name__]":
                        value = short(ast.unparse(node.value), 60)
                        mod.replaced = (
                            f"module object replaced: sys.modules[__name__] = {value} ({mod.path}:{node.lineno})"
                        )
            elif isinstance(node, ast.ImportFrom):
                src = self.absolute(mod, node.module, node.level)
                for alias in node.names:
                    if alias.name == "*":
                        for key, b in self.exports(src).items():
                            bind(
                                key,
                                Bind(node.lineno, b.local, b.module, b.attr, True)
                                if b.local is None
                                else Bind(node.lineno, module=src, attr=key, via_star=True),
                                fallback,
                            )
                        continue
                    key = alias.asname or alias.name
                    if f"{src}.{alias.name}" in self.mods and (
                        src not in self.mods or alias.name not in self.namespace(src)
                    ):
                        bind(key, Bind(node.lineno, module=f"{src}.{alias.name}"), fallback)
                    else:
                        bind(key, Bind(node.lineno, module=src, attr=alias.name), fallback)
                if node.level and mod.is_pkg and node.module:  # `from .a.b import x` binds submodule a in the package
                    first = f"{mod.name}.{node.module.split('.')[0]}"
                    if first in self.mods and node.module.split(".")[0] not in ns:
                        ns[node.module.split(".")[0]] = Bind(node.lineno, module=first)
        self._busy.discard(name)
        self._ns[name] = ns
        return ns

    def exports(self, name: str) -> dict[str, Bind]:
        """What `from name import *` binds: __all__, else public names (submodules included)."""
        if name not in self.mods:
            return {}
        ns = self.namespace(name)
        mod = self.mods[name]
        if mod.replaced:
            return {}
        if mod.all_ is not None:
            out = {}
            for key in mod.all_:
                if key in ns:
                    out[key] = ns[key]
                elif f"{name}.{key}" in self.mods:
                    out[key] = Bind(0, module=f"{name}.{key}")
            return out
        return {k: b for k, b in ns.items() if not k.startswith("_")}

    def ref_of(self, mod: PyMod, expr: ast.expr) -> tuple[str, str] | None:
        """(module, attr) when expr is a dotted reference into a C++ extension module, e.g. torch_musa._MUSAC.x."""
        text = ast.unparse(expr)
        if not re.fullmatch(r"[\w.]+", text) or "." not in text:
            return None
        head, attr = text.rsplit(".", 1)
        aliases = {PKG: PKG, "_MUSAC": f"{PKG}._MUSAC"}
        root, _, rest = head.partition(".")
        full = aliases.get(root, root) + (f".{rest}" if rest else "")
        return (full, attr) if full in self.cpp_modules else None

    # -- resolution
    def resolve(
        self, module: str, attr: str | None, seen: frozenset[tuple[str, str | None]] = frozenset()
    ) -> tuple[str, object]:
        """What module.attr is: ('def', (module, name, Def)), ('cpp', Row), ('module', name), ('external', dotted)
        or ('missing', dotted)."""
        key = (module, attr)
        if key in seen:
            return "missing", f"{module}.{attr}"
        seen = seen | {key}
        if attr is None:
            if module in self.mods:
                return "module", module
            if module in self.cpp_modules:
                return "cpp", self.cpp[module]
            return ("missing" if module.startswith(PKG) else "external"), module
        if module in self.mods:
            ns = self.namespace(module)
            if attr in ns:
                b = ns[attr]
                if b.local is not None:
                    return "def", (module, attr, b.local)
                return self.resolve(b.module, b.attr, seen)
            if f"{module}.{attr}" in self.mods:
                return "module", f"{module}.{attr}"
            if attr in self.pkg_attrs.get(module, {}):
                src, expr, _ = self.pkg_attrs[module][attr]
                return self.resolve(src, expr, seen)
            if f"{module}.{attr}" in self.cpp:
                return "cpp", self.cpp[f"{module}.{attr}"]
            return "missing", f"{module}.{attr}"
        if module in self.cpp_modules or f"{module}.{attr}" in self.cpp:
            row = self.cpp.get(f"{module}.{attr}")
            return ("cpp", row) if row else ("missing", f"{module}.{attr}")
        return ("missing" if module.startswith(PKG) else "external"), f"{module}.{attr}"

    # -- rows
    def rows(self) -> list[Row]:
        """Every Python row: modules, definitions, re-exports, then patches."""
        for mod in self.mods.values():
            self.namespace(mod.name)
        self.scan_patches()
        out: list[Row] = []
        for name, mod in self.mods.items():
            note = "package" if mod.is_pkg else ""
            if mod.replaced:
                note = "; ".join(x for x in (note, mod.replaced) if x)
            if mod.all_ is not None:
                note = "; ".join(x for x in (note, f"__all__ has {len(mod.all_)} names") if x)
            out.append(Row(name, "module", "", f"{mod.path}:1", note))
            bindings = dict(self.namespace(name))
            for attr, (src, expr, line) in self.pkg_attrs.get(name, {}).items():
                bindings.setdefault(attr, Bind(line, module=src, attr=expr))
            for attr, b in bindings.items():
                out += self.rows_for(name, mod, attr, b)
        return out + self.patch_rows

    def rows_for(self, modname: str, mod: PyMod, attr: str, b: Bind) -> list[Row]:
        """Rows for one namespace entry of modname."""
        full = f"{modname}.{attr}"
        if b.local is not None:
            return self.def_rows(full, mod.path, b.local, "")
        kind, target = self.resolve(b.module, b.attr)
        origin = b.module + (f".{b.attr}" if b.attr else "")
        via = " (star import)" if b.via_star else ""
        if kind == "def":
            dmod, dname, d = target  # type: ignore[misc]
            canon = f"{dmod}.{dname}"
            return self.def_rows(full, self.mods[dmod].path, d, f"re-export of {canon}{via}" if canon != full else "")
        if kind == "cpp":
            row: Row = target  # type: ignore[assignment]
            rows = [Row(full, row.kind, row.signature, row.source, f"re-export of {row.name}{via}; {row.note}")]
            for child in self.cpp_children.get(row.name, []) if row.kind != "module" else []:
                rows.append(
                    Row(f"{full}.{child.name.rsplit('.', 1)[1]}", child.kind, child.signature, child.source, child.note)
                )
            return rows
        if kind == "module":
            if target == full:  # a package's own submodule: its module row exists
                return []
            path = self.mods[str(target)].path
            return [Row(full, "module", "", f"{path}:1", f"module {target}{via}")]
        if kind == "external":
            if not under(str(target), PATCH_ROOTS) or attr.startswith("__") or b.attr is None:
                return []
            return [Row(full, "attribute", "", f"{mod.path}:{b.line}", f"{target} (external){via}")]
        return [Row(full, "attribute", "", f"{mod.path}:{b.line}", f"from {origin}: not in the tree at this tag{via}")]

    def def_rows(self, full: str, path: str, d: Def, note: str) -> list[Row]:
        """A definition's row and its members' rows under the name full."""
        rows = [Row(full, d.kind, d.signature, f"{path}:{d.line}", "; ".join(x for x in (note, d.note) if x))]
        for mname, sub in d.members:
            rows += self.def_rows(f"{full}.{mname}", path, sub, "")
        return rows

    # -- patches
    def scan_patches(self) -> None:
        """Patch rows (what is set on torch/triton) and attributes set on the package itself."""
        for mod in self.mods.values():
            module_aliases = self.aliases(mod, mod.tree.body, {})
            self.visit(mod, mod.tree.body, module_aliases, "")

    def aliases(self, mod: PyMod, body: list[ast.stmt], inherited: dict[str, str]) -> dict[str, str]:
        """Names bound to dotted paths by imports and simple assignments in a block (not nested defs)."""
        env = dict(inherited)
        for node in ast.walk(ast.Module(body=body, type_ignores=[])):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)) and node not in body:
                continue
            if isinstance(node, ast.Import):
                for a in node.names:
                    env[a.asname or a.name.split(".")[0]] = a.name if a.asname else a.name.split(".")[0]
            elif isinstance(node, ast.ImportFrom):
                src = self.absolute(mod, node.module, node.level)
                for a in node.names:
                    if a.name != "*":
                        kind, target = (
                            self.resolve(src, a.name) if under(src, (PKG,)) else ("external", f"{src}.{a.name}")
                        )
                        env[a.asname or a.name] = str(target) if kind == "external" else f"{src}.{a.name}"
            elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                val = node.value
                if (
                    isinstance(val, ast.Call)
                    and ast.unparse(val.func) in ("importlib.import_module", "import_module")
                    and val.args
                    and isinstance(val.args[0], ast.Constant)
                ):
                    env[node.targets[0].id] = str(val.args[0].value)
                else:
                    path = self.dotted(val, env)
                    if path and under(path, PATCH_ROOTS + (PKG,)):
                        env[node.targets[0].id] = path
        return env

    @staticmethod
    def dotted(expr: ast.expr, env: dict[str, str]) -> str | None:
        """Resolved dotted path of a Name/Attribute chain, or None."""
        parts = []
        while isinstance(expr, ast.Attribute):
            parts.append(expr.attr)
            expr = expr.value
        if not isinstance(expr, ast.Name) or expr.id not in env:
            return None
        return ".".join([env[expr.id], *reversed(parts)])

    def visit(self, mod: PyMod, body: list[ast.stmt], env: dict[str, str], where: str) -> None:
        """Scan a block for patches; recurse into nested functions and classes with their own aliases."""
        ctx = f"in {where}()" if where else "at import (module level)"
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.visit(
                    mod, node.body, self.aliases(mod, node.body, env), f"{where}.{node.name}" if where else node.name
                )
                continue
            if isinstance(node, ast.ClassDef):
                continue
            for sub in ast.walk(node):
                if isinstance(sub, (ast.Assign, ast.AugAssign)):
                    targets = sub.targets if isinstance(sub, ast.Assign) else [sub.target]
                    for t in targets:
                        self.patch_target(mod, t, sub.value, env, ctx, sub.lineno)
                elif isinstance(sub, ast.Call):
                    self.patch_call(mod, sub, env, ctx)
            for sub in ast.walk(node):
                if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    self.visit(
                        mod, sub.body, self.aliases(mod, sub.body, env), f"{where}.{sub.name}" if where else sub.name
                    )

    def value_info(self, mod: PyMod, value: ast.expr) -> tuple[str, str]:
        """(signature, provenance) of a patched-in value that names a definition of this package."""
        if isinstance(value, ast.Name) and value.id in self.namespace(mod.name):
            kind, target = self.resolve(mod.name, value.id)
            if kind == "def":
                dmod, dname, d = target  # type: ignore[misc]
                where = f"{dmod}.{dname} at {self.mods[dmod].path}:{d.line}"
                return d.signature, f" ({where}{'; ' + d.note if d.note else ''})"
        return "", ""

    def patch_target(
        self, mod: PyMod, target: ast.expr, value: ast.expr, env: dict[str, str], ctx: str, line: int
    ) -> None:
        """A patch row for `torch.a.b = value` (also `sys.modules["torch.x"] = value`)."""
        if (
            isinstance(target, ast.Subscript)
            and ast.unparse(target.value) == "sys.modules"
            and isinstance(target.slice, ast.Constant)
        ):
            path = str(target.slice.value)
        elif isinstance(target, ast.Attribute):
            path = self.dotted(target, env)
        else:
            return
        if not path:
            return
        if under(path, PATCH_ROOTS):
            sig, info = self.value_info(mod, value)
            note = f"= {short(ast.unparse(value), 80)}{info}; {ctx}"
            self.patch_rows.append(Row(path, "patch", sig, f"{mod.path}:{line}", note))
        elif path.startswith(PKG + ".") and path.count(".") == 1 and isinstance(value, ast.Name):
            self.pkg_attrs.setdefault(PKG, {})[path.split(".")[1]] = (mod.name, value.id, line)

    def patch_call(self, mod: PyMod, call: ast.Call, env: dict[str, str], ctx: str) -> None:
        """Patch rows for setattr(torch..., "x", v), torch...__setattr__("x", v) and registration calls."""
        func = call.func
        obj = attr = None
        if isinstance(func, ast.Name) and func.id == "setattr" and len(call.args) == 3:
            obj, attr, value = call.args
        elif isinstance(func, ast.Attribute) and func.attr == "__setattr__" and len(call.args) == 2:
            obj, (attr, value) = func.value, call.args
        if obj is not None and isinstance(attr, ast.Constant):
            path = self.dotted(obj, env)
            if path and under(path, PATCH_ROOTS):
                sig, info = self.value_info(mod, value)
                note = f"{ast.unparse(func)}: = {short(ast.unparse(value), 70)}{info}; {ctx}"
                self.patch_rows.append(Row(f"{path}.{attr.value}", "patch", sig, f"{mod.path}:{call.lineno}", note))
            elif path == PKG and isinstance(value, ast.Name):
                self.pkg_attrs.setdefault(PKG, {})[str(attr.value)] = (mod.name, value.id, call.lineno)
            return
        path = self.dotted(func, env) if isinstance(func, (ast.Name, ast.Attribute)) else None
        if path and under(path, PATCH_ROOTS) and path.rsplit(".", 1)[-1] in REGISTRATIONS:
            args = ", ".join([ast.unparse(a) for a in call.args] + [ast.unparse(k) for k in call.keywords])
            self.patch_rows.append(
                Row(path, "patch", f"({short(args, 100)})", f"{mod.path}:{call.lineno}", f"registration call; {ctx}")
            )


# ---------------------------------------------------------------------------------------------------------- main


def main(argv: list[str]) -> int:
    """Write the inventory TSV to stdout and a one-line summary to stderr."""
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    repo = Repo(argv[1], argv[2])
    paths = repo.files()
    py = {
        p: repo.show(p)
        for p in paths
        if p.startswith(f"{PKG}/") and p.endswith(".py") and not p.startswith(f"{PKG}/testing/")
    }
    candidates = repo.grep_files(CPP_MARKERS, f"{PKG}/csrc")
    cpp = {p: repo.show(p) for p in sorted(candidates) if p.endswith(CPP_EXTS)}
    ext_modules: dict[str, str] = {}
    if "setup.py" in paths:
        for m in re.finditer(r'name="([\w.]+)",\s*sources=glob\.glob\("([^"*]+)"\)', repo.show("setup.py")):
            ext_modules[m.group(2)] = m.group(1)
    scan = CppScan(cpp, ext_modules)
    cpp_rows = scan.run()
    pyscan = PyScan(py, cpp_rows)
    rows = sorted(set(cpp_rows + pyscan.rows()), key=lambda r: (r.name, r.kind, r.source, r.signature, r.note))
    sys.stdout.write("\t".join(HEADER) + "\n" + "".join(r.tsv() + "\n" for r in rows))
    counts = Counter(r.kind for r in rows)
    print(
        f"{len(rows)} rows ({', '.join(f'{k} {v}' for k, v in sorted(counts.items()))}) from {len(py)} Python and "
        f"{len(cpp)} C++ files at {argv[2]}; {scan.unresolved} C++ binding sites unresolved",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
