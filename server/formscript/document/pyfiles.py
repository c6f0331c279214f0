"""Texts a Python file writes to a file for lionagi to read (``pyextract``): the writes
(``write_text``, ``open(...).write``, ``yaml.safe_dump`` / ``json.dump`` of a literal), and
where each written file goes (the calls that hand its path to lionagi decide its kind)."""

from __future__ import annotations

import ast
import itertools

from formscript.document.pyapi import (
    AGENT_CLI,
    ENV_HELPERS,
    MAIN_ENTRIES,
    SCRIPT_PATH_VARIABLE,
    SCRIPT_PATH_VARIABLES,
    SCRIPT_READERS,
    Embedded,
    ReadBy,
)
from formscript.document.pyinline import bind_arguments, free_names, substituted
from formscript.document.pyliteral import PyNode
from formscript.document.pyscopes import Binding, Collector, Scope, meaning_of
from formscript.document.pystrings import text_positions
from formscript.document.pywalker import Walker, argument_of, dumpable, yaml_named


class FileCalls(Walker):
    """The texts the walk finds written to files, and where each file goes."""

    # -- texts written to files

    def _write(self, call: ast.Call) -> None:
        func = call.func
        assert isinstance(func, ast.Attribute)
        argument = argument_of(call, 0, "data" if func.attr == "write_text" else "s")
        if argument is None:
            return
        path: ast.expr | None
        if func.attr == "write_text":
            target, path = self._file_name(func.value), func.value
        else:
            opened = self._opened(func.value)
            if opened is None:
                return
            target, path = opened
        located = text_positions(self.lines, argument, self.resolve)
        peeled = self.peel(argument)
        if located is not None:
            found = self._add(call, self.written(func), "text", None, peeled, None, text=located, target=target or None)
            self._written(found, path)
            return
        if not isinstance(peeled, ast.Call):
            return
        dumper = self.qualify(peeled.func)
        if dumper == "json.dumps":
            self._written(self._dumped(call, self.written(func), peeled, target), path)
        elif dumper in ("yaml.safe_dump", "yaml.dump") and target is not None and yaml_named(target):
            for embedded in self._yaml_dumped(call, self.written(func), peeled, target):
                self._written(embedded, path)

    def _written(self, embedded: Embedded | None, path: ast.expr | None) -> None:
        """Remember the path *embedded* is written to, when it is a name (to follow it)."""
        if embedded is not None and isinstance(path, ast.Name):
            self._written_to.append((embedded, path, self._scope))

    def _dumped(self, call: ast.Call, api: str, dumps: ast.Call, target: str | None) -> Embedded | None:
        """A value written as JSON text (``json.dumps(value)`` written, ``json.dump(value, f)``):
        the value with the keyword arguments ``json.dumps`` is given, when they are literals."""
        value = argument_of(dumps, 0, "obj")
        if value is None:
            return None
        options = self.reader().keywords(dumps, dumps.keywords)
        if options.kind != "dict" or any(v.kind not in ("scalar", "seq") for _, v in options.pairs):
            return None
        root = self.read(value)
        if root.kind == "opaque":
            return None
        literal = self.peel(value)
        return self._add(call, api, "dumped", None, literal, root, target=target or None, options=options.materialize())

    def _yaml_dumped(self, call: ast.Call, api: str, dumps: ast.Call, target: str) -> list[Embedded]:
        """A value written as YAML text (``yaml.safe_dump(value)``) to a ``.yaml`` file: the file
        loads back as the value itself. Inside a function of the module that writes its own
        parameter (``_write_script(tmp_path, monkeypatch, entries)``), one document per call of
        that function, with the arguments the call gives (one level deep)."""
        value = argument_of(dumps, 0, "data")
        if value is None:
            return []
        helper = self._scope.function
        parameters = [n for n in free_names(value, []) if (meaning_of(self._scope.lookup(n)) or ("",))[0] == "param"]
        if not parameters:
            root = self.read(value)
            return [self._yaml_document(call, api, value, root, target)] if dumpable(root) else []
        if helper is None:
            return []
        found = []
        for site, site_scope in self.calls:
            if not (isinstance(site.func, ast.Name) and site.func.id == helper.name):
                continue
            meaning = meaning_of(site_scope.lookup(helper.name))
            if meaning is None or meaning[1] is not helper:
                continue
            bound = bind_arguments(helper, site)
            if bound is None:
                continue
            made = substituted(value, bound)
            if any(site_scope.lookup(n) is not self._scope.lookup(n) for n in free_names(made, list(bound.values()))):
                continue  # a name of the function's own would mean something else at the call
            with self._in_scope(site_scope):
                root = self.read(made)
            if dumpable(root):
                found.append(self._yaml_document(site, self.written(site.func), bound[parameters[0]], root, target))
        return found

    def _yaml_document(self, call: ast.Call, api: str, literal: ast.expr, root: PyNode, target: str) -> Embedded:
        return self._add(call, api, "yaml_dumped", None, self.peel(literal), root, target=target)

    def _json_dump(self, call: ast.Call) -> None:
        """``json.dump(value, handle)`` into a file opened for writing."""
        handle = argument_of(call, 1, "fp")
        if handle is None:
            return
        opened = self._opened(handle)
        if opened is None:
            return
        target, path = opened
        rest = [k for k in call.keywords if k.arg not in ("obj", "fp")]
        dumps = ast.Call(func=call.func, args=call.args[:1], keywords=rest)
        ast.copy_location(dumps, call)
        dumps.end_lineno, dumps.end_col_offset = call.end_lineno, call.end_col_offset
        self._written(self._dumped(call, self.written(call.func), dumps, target), path)

    def _opened(self, expr: ast.expr) -> tuple[str, ast.expr | None] | None:
        """The file an ``open(path, "w")`` (or a name bound by ``with`` to one) writes: its
        name ('' when not known) and its path expression; None when *expr* is not such a call."""
        if isinstance(expr, ast.Name):
            meaning = meaning_of(self._scope.lookup(expr.id))
            if meaning is None or meaning[0] != "with":
                return None
            expr = meaning[1]
        if not isinstance(expr, ast.Call):
            return None
        func = expr.func
        path: ast.expr | None
        if isinstance(func, ast.Attribute) and func.attr == "open":  # path.open(mode)
            mode_node, path = argument_of(expr, 0, "mode"), func.value
        elif isinstance(func, ast.Name) and func.id == "open":
            mode_node, path = argument_of(expr, 1, "mode"), argument_of(expr, 0, "file")
        else:
            return None
        mode = self.read(mode_node) if mode_node is not None else None
        if mode is None or mode.kind != "scalar" or not isinstance(mode.value, str):
            return None
        if "w" not in mode.value or "b" in mode.value:
            return None
        return (self._file_name(path) or "") if path is not None else "", path

    def _file_name(self, expr: ast.expr) -> str | None:
        """The file name a path expression ends with, when written as a literal."""
        expr = self.peel(expr)
        if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Div):
            return self._file_name(expr.right)
        if isinstance(expr, ast.Call) and expr.args and not expr.keywords:
            func = expr.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            method = name == "joinpath" and isinstance(func, ast.Attribute)
            if method or name in ("Path", "PurePath", "PosixPath", "join"):
                return self._file_name(expr.args[-1])
        read = self.read(expr)
        if read.kind == "scalar" and isinstance(read.value, str) and read.value:
            return read.value.replace("\\", "/").rpartition("/")[2]
        return None

    # -- where a written file goes

    def _follow_paths(self) -> None:
        """For each text written to a path held by a name: the calls that hand that path to
        lionagi, in the writer's scope, after the write and before the name's file is written
        again; the first decides how the text is read (kind, and YAML or JSON)."""
        writes: dict[int, list[tuple[int, int]]] = {}
        for _embedded, name, scope in self._written_to:
            bindings = scope.lookup(name.id)
            if bindings is not None:
                writes.setdefault(id(bindings), []).append((name.lineno, name.col_offset))
        for embedded, name, scope in self._written_to:
            bindings = scope.lookup(name.id)
            if bindings is None or len(bindings) != 1 or bindings[0][0] not in ("assign", "param"):
                continue
            at = (name.lineno, name.col_offset)
            later = [w for w in writes[id(bindings)] if w > at]
            until = min(later) if later else (1 << 60, 0)
            reads: list[tuple[ast.stmt | ast.expr, str, str | None, ast.Call | None]] = []
            sites: list[tuple[ast.Call | ast.Assign, Scope]] = [*self.calls, *self.stores]  # and item assignments
            for node, where in sites:
                if where.lookup(name.id) is not bindings or not at < (node.lineno, node.col_offset) < until:
                    continue
                self._scope = where
                if isinstance(node, ast.Call):
                    found = self._reads(node, bindings, depth=0)
                    if found is not None:
                        kind, syntax, reads_file = found
                        reads.append((node, kind, syntax, node if reads_file else None))
                elif self._env_store(node, bindings):
                    reads.append((node, "script", None, None))
            if not reads:
                continue
            reads.sort(key=lambda r: (r[0].lineno, r[0].col_offset))
            _node, kind, syntax, _call = reads[0]
            if kind == "form":  # only loaded, unless some read also builds and validates it
                syntax = "mapping" if all(r[2] == "mapping" for r in reads if r[1] == "form") else None
            embedded.kind = kind
            embedded.reads_as = syntax
            embedded.consumers = [r[3] for r in reads if r[3] is not None and r[1] == kind]

    def _is_path(self, expr: ast.expr | None, bindings: list[Binding]) -> bool:
        """Whether *expr* (None: an argument not given) is the path held by the name of
        *bindings* (``p``, ``str(p)``, ``os.fspath(p)``, ``p.as_posix()``, ``f"{p}"``)."""
        if isinstance(expr, ast.Name):
            return self._scope.lookup(expr.id) is bindings
        if isinstance(expr, ast.JoinedStr) and len(expr.values) == 1:
            value = expr.values[0]
            return (
                isinstance(value, ast.FormattedValue)
                and value.format_spec is None
                and self._is_path(value.value, bindings)
            )
        if not isinstance(expr, ast.Call) or expr.keywords:
            return False
        func = expr.func
        if isinstance(func, ast.Attribute) and func.attr == "as_posix" and not expr.args:
            return self._is_path(func.value, bindings)
        if len(expr.args) != 1:
            return False
        if (isinstance(func, ast.Name) and func.id == "str") or self.qualify(func) in ("os.fspath", "os.path.abspath"):
            return self._is_path(expr.args[0], bindings)
        return False

    def _env_key(self, expr: ast.expr) -> bool:
        """Whether *expr* names the variable the scripted endpoint reads its script path from."""
        if self.qualify(expr) in SCRIPT_PATH_VARIABLES:
            return True
        read = self.read(expr)
        return read.kind == "scalar" and read.value == SCRIPT_PATH_VARIABLE

    def _env_store(self, store: ast.Assign, bindings: list[Binding]) -> bool:
        """``env["LIONAGI_TEST_SCRIPT"] = str(p)`` (an environment a subprocess is given)."""
        path = self._is_path(store.value, bindings)
        return path and any(isinstance(t, ast.Subscript) and self._env_key(t.slice) for t in store.targets)

    def _reads(self, call: ast.Call, bindings: list[Binding], depth: int) -> ReadBy | None:
        """How *call* has lionagi read the file at the path of *bindings*."""
        arguments = [*call.args, *(k.value for k in call.keywords)]
        if not any(self._mentions(a, bindings) or self._mentions(self.peel(a), bindings) for a in arguments):
            return None
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr == "setenv" and len(call.args) >= 2:
            if self._env_key(call.args[0]) and self._is_path(call.args[1], bindings):
                return "script", None, False
            return None
        qualified = self.qualify(func)
        if qualified is not None and qualified.partition(".")[0] == "lionagi":
            found = self._lionagi_reads(call, qualified, bindings)
            if found is not None:
                return found
        if depth == 0 and isinstance(func, ast.Name):
            meaning = meaning_of(self._scope.lookup(func.id))
            if meaning is not None and meaning[0] == "def":
                return self._helper_reads(call, meaning[1], bindings)
        return None

    def _mentions(self, expr: ast.expr, bindings: list[Binding]) -> bool:
        return any(isinstance(n, ast.Name) and self._scope.lookup(n.id) is bindings for n in ast.walk(expr))

    def _lionagi_reads(self, call: ast.Call, qualified: str, bindings: list[Binding]) -> ReadBy | None:
        found = self.target(call.func)
        if found is not None:
            read = SCRIPT_READERS.get(found)
            if read is not None:
                index, keyword, syntax = read
                if self._is_path(argument_of(call, index, keyword), bindings):
                    if found in (("iModel", None), ("match_endpoint", None)) and not self._scripted(call):
                        return None
                    return "script", syntax, True
            return None
        name = qualified.rpartition(".")[2]
        if qualified in ENV_HELPERS:
            return ("script", None, False) if self._is_path(argument_of(call, 0, "script_path"), bindings) else None
        if qualified == f"{AGENT_CLI}._load_form_spec":
            return ("form", "mapping", True) if self._is_path(argument_of(call, 0, "path"), bindings) else None
        if qualified in (f"{AGENT_CLI}.run_agent", *MAIN_ENTRIES) and name in ("run_agent", "main"):
            argument = argument_of(call, 0, "args" if name == "run_agent" else "argv")
            if argument is not None and self._form_argument(self.peel(argument), bindings, name == "main"):
                return "form", None, True
        return None

    def _scripted(self, call: ast.Call) -> bool:
        """Whether an ``iModel`` / ``match_endpoint`` call names the scripted provider."""
        provider = argument_of(call, 0, "provider")
        read = self.read(provider) if provider is not None else None
        return read is not None and read.kind == "scalar" and read.value == "scripted"

    def _form_argument(self, expr: ast.expr, bindings: list[Binding], argv: bool) -> bool:
        """Whether *expr* (what run_agent / main is given) carries the path as ``--form``: an
        argument list holding ``"--form", str(p)``; for run_agent, a namespace built with
        ``form=str(p)`` (``SimpleNamespace``, ``argparse.Namespace``, a helper of the module) or
        parsed from such a list."""
        if isinstance(expr, ast.List | ast.Tuple):
            return any(
                isinstance(flag, ast.Constant) and flag.value == "--form" and self._is_path(value, bindings)
                for flag, value in itertools.pairwise(expr.elts)
            )
        if argv or not isinstance(expr, ast.Call):
            return False
        if any(keyword.arg == "form" and self._is_path(keyword.value, bindings) for keyword in expr.keywords):
            return True
        return any(
            self._form_argument(self.peel(a), bindings, True) for a in expr.args if not isinstance(a, ast.Starred)
        )

    def _helper_reads(
        self, call: ast.Call, helper: ast.FunctionDef | ast.AsyncFunctionDef, bindings: list[Binding]
    ) -> ReadBy | None:
        """One level into a function of this module: the parameter the path is given as, read
        by lionagi in the function's body (the call of the helper is the consumer)."""
        parameters = [a.arg for a in (*helper.args.posonlyargs, *helper.args.args)]
        given: str | None = None
        for index, argument in enumerate(call.args):
            if isinstance(argument, ast.Starred):
                return None
            if self._is_path(argument, bindings) and index < len(parameters):
                given = parameters[index]
        for keyword in call.keywords:
            if keyword.arg is not None and self._is_path(keyword.value, bindings):
                given = keyword.arg
        if given is None:
            return None
        collector = Collector()
        inner = Scope(self.module_scope)
        collector._params(helper.args, inner)
        collector._body(helper.body, inner)
        parameter = inner.bindings.get(given)
        if parameter is None or len(parameter) != 1 or parameter[0][0] != "param":
            return None
        for inner_call, inner_scope in collector.calls:
            with self._in_scope(inner_scope):
                found = self._reads(inner_call, parameter, depth=1)
            if found is not None:
                return found
        return None
