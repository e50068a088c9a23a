"""The boundary's tests read as evidence: each test block, what it calls and what it asserts (no test is run)."""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, field
from typing import Any, Mapping

import tree_sitter as ts

from auditor.extract import cache, parse, program
from auditor.extract.assertions import Assertion, assertion, callee
from auditor.extract.syntax import NOT_LITERAL, call_args, literal, object_pairs, pair_value, string_value, strip_casts, text

@dataclass(frozen=True, kw_only=True, slots=True)
class Call:
    """A call of code of the boundary: a function, a method of a class or its constructor, imported by the test."""

    path: str  # the module the name is exported from (resolved through re-exports)
    name: str  # `function`, `Class.method`, `Class.constructor`
    line: int
    setup: bool  # written in a hook (beforeEach, ...) of a suite that holds the test, not in the test itself


@dataclass(frozen=True, kw_only=True, slots=True)
class TestCase:
    """One `it`/`test` block of a test file."""

    path: str
    module: str  # the test file's module name (stable ids)
    title: str  # the suites' titles and the test's, joined with " > "
    start_line: int
    end_line: int
    calls: tuple[Call, ...]
    tools: tuple[tuple[str, int], ...]  # MCP tools called by name, with the line
    assertions: tuple[Assertion, ...]
    inputs: tuple[tuple[int, Mapping[str, Any]], ...]  # (line, literal fields) of the object literals it writes
    unresolved: tuple[str, ...] = field(default=())  # imports of the test that resolve to no module of the boundary


def read(prog, kb: dict, subtree: str) -> list[TestCase]:
    """Every test block of the test files of the boundary that were parsed (kb/method.yaml `test` layer)."""
    out: list[TestCase] = []
    for e in prog.entries:
        path = e.file.path
        lang = e.lang
        if e.layer != "test" or e.context or e.omitted or lang in {None, "json"} or path in prog.skipped:
            continue
        name = program.module_name(path, subtree)  # the key facts.build parsed it under: the cached tree
        tree = cache.tree(e.file.blob, path, name, lang, e.code())
        out += _File(prog, kb, path, name, tree, lang).cases()
    return sorted(out, key=lambda c: (c.path, c.start_line, c.title))


class _File:
    """One test file: its imports of the boundary, the instances it makes, and its test blocks."""

    def __init__(self, prog, kb: dict, path: str, name: str, tree: ts.Tree, lang: str):
        self.kb, self.path, self.name, self.link = kb, path, name, prog.linker
        self.caps = parse.query_captures(tree, lang, "tests")
        self.starts = {k: [n.start_byte for n in nodes] for k, nodes in self.caps.items()}  # sorted: for bisect
        self.imports: dict[str, tuple[str, str]] = {}  # local name -> (module path, exported name); "*" for a namespace
        self.unresolved: list[str] = []
        for node in self.caps.get("test.import", []):
            self._import(node)
        for node in self.caps.get("test.call", []):  # const { a } = require("../x")
            if text(node.child_by_field_name("function")) == "require":
                self._require(node)
        self.hooks_of: dict[int, list[ts.Node]] = {}  # suite body -> its hooks' callbacks (many tests share a suite)
        self.setup: dict[int, list[Call]] = {}  # hook callback -> the calls it makes
        self.instances: dict[str, tuple[str, str]] = {}  # variable -> (module path, class name)
        for node in self.caps.get("test.new", []):
            self._instance(node)

    # -- bindings ----------------------------------------------------------------------------
    def _exported(self, spec: str, name: str) -> tuple[str, str] | None:
        target = self.link.resolve_spec(self.path, spec)
        if target is None:
            if spec.startswith(".") and spec not in self.unresolved:
                self.unresolved.append(spec)
            return None
        if name == "*":
            return target, "*"
        hit = self.link.exported(target, name)
        return (hit[0].path, hit[1]) if hit is not None else (target, name)

    def _import(self, node: ts.Node) -> None:
        spec = string_value(node.child_by_field_name("source"))
        clause = next((c for c in node.named_children if c.type == "import_clause"), None)
        if spec is None or clause is None:
            return
        for c in clause.named_children:
            if c.type == "identifier":
                self._bind(text(c), spec, "default")
            elif c.type == "namespace_import":
                ident = next((i for i in c.named_children if i.type == "identifier"), None)
                if ident is not None:
                    self._bind(text(ident), spec, "*")
            elif c.type == "named_imports":
                for s in c.named_children:
                    if s.type == "import_specifier":
                        orig, alias = s.child_by_field_name("name"), s.child_by_field_name("alias")
                        self._bind(text(alias or orig), spec, text(orig))

    def _require(self, call: ts.Node) -> None:
        args = call_args(call)
        spec = string_value(args[0]) if args else None
        decl = call.parent
        if spec is None or decl is None or decl.type != "variable_declarator":
            return
        target = decl.child_by_field_name("name")
        if target is not None and target.type == "identifier":
            self._bind(text(target), spec, "*")
        elif target is not None and target.type == "object_pattern":
            for c in target.named_children:
                if c.type == "shorthand_property_identifier_pattern":
                    self._bind(text(c), spec, text(c))
                elif c.type == "pair_pattern":
                    key, value = c.child_by_field_name("key"), c.child_by_field_name("value")
                    if value is not None and value.type == "identifier":
                        self._bind(text(value), spec, text(key))

    def _bind(self, local: str, spec: str, name: str) -> None:
        hit = self._exported(spec, name)
        if hit is not None:
            self.imports[local] = hit

    def _class_of(self, name: str) -> tuple[str, str] | None:
        hit = self.imports.get(name)
        if hit is None or hit[1] == "*":
            return None
        module = self.link.by_path.get(hit[0])
        return hit if module is not None and hit[1] in module.classes else None

    def _instance(self, new: ts.Node) -> None:
        cls = self._class_of(text(new.child_by_field_name("constructor")))
        parent = new.parent
        while parent is not None and parent.type in {"await_expression", "as_expression", "parenthesized_expression"}:
            parent = parent.parent
        if cls is None or parent is None:
            return
        target = parent.child_by_field_name("name" if parent.type == "variable_declarator" else "left") \
            if parent.type in {"variable_declarator", "assignment_expression"} else None
        if target is not None and target.type == "identifier":
            self.instances[text(target)] = cls

    # -- test blocks ---------------------------------------------------------------------------
    def cases(self) -> list[TestCase]:
        out, seen = [], {}
        calls = self.caps.get("test.call", []) + self.caps.get("test.member_call", [])
        for node in sorted(calls, key=lambda n: n.start_byte):
            head, mods = callee(node)
            if head not in self.kb["blocks"] or set(mods) & set(self.kb["skipped_modifiers"]):
                continue
            args = call_args(node)
            body = next((a for a in args[1:] if a.type in {"arrow_function", "function_expression", "function"}), None)
            title = string_value(args[0]) if args else None
            if body is None or title is None or self._skipped(node):
                continue
            full = " > ".join(self._suites(node) + [title])
            seen[full] = seen.get(full, 0) + 1
            if seen[full] > 1:
                full += f" ({seen[full]})"
            out.append(self._case(node, body, full))
        return out

    def _outer_calls(self, node: ts.Node):
        """The calls that hold NODE as an argument's body, innermost first (its suites)."""
        cur = node.parent
        while cur is not None:
            if cur.type == "call_expression":
                yield cur
            cur = cur.parent

    def _skipped(self, node: ts.Node) -> bool:
        skipped = set(self.kb["skipped_modifiers"])
        for outer in self._outer_calls(node):
            head, mods = callee(outer)
            if head in self.kb["suites"] and set(mods) & skipped or head in skipped:
                return True
        return False

    def _suites(self, node: ts.Node) -> list[str]:
        titles = []
        for outer in self._outer_calls(node):
            head, _ = callee(outer)
            args = call_args(outer)
            if head in self.kb["suites"] and args and string_value(args[0]) is not None:
                titles.insert(0, string_value(args[0]))
        return titles

    def _hooks(self, node: ts.Node) -> list[ts.Node]:
        """The callbacks of the hooks of every suite that holds NODE, and of the file's top level."""
        scopes = [o for o in self._outer_calls(node) if callee(o)[0] in self.kb["suites"]]
        bodies = []
        for suite in scopes:
            fn = next((a for a in call_args(suite)[1:] if a.type in {"arrow_function", "function_expression", "function"}), None)
            if fn is not None and fn.child_by_field_name("body") is not None:
                bodies.append(fn.child_by_field_name("body"))
        root = node
        while root.parent is not None:
            root = root.parent
        bodies.append(root)
        hooks = []
        for body in bodies:
            if body.id not in self.hooks_of:
                found = []
                for stmt in body.named_children:
                    call = stmt.named_children[0] if stmt.type == "expression_statement" and stmt.named_children else None
                    if call is not None and call.type == "call_expression" and callee(call)[0] in self.kb["hooks"]:
                        found += [a for a in call_args(call) if a.type in {"arrow_function", "function_expression", "function"}]
                self.hooks_of[body.id] = found
            hooks += self.hooks_of[body.id]
        return hooks

    def _inside(self, outer: ts.Node, kind: str) -> list[ts.Node]:
        """The captures of KIND within OUTER (a range of the sorted captures: a file of many blocks stays linear)."""
        nodes, starts = self.caps.get(kind, []), self.starts.get(kind, [])
        lo, hi = bisect_left(starts, outer.start_byte), bisect_left(starts, outer.end_byte)
        return [n for n in nodes[lo:hi] if n.end_byte <= outer.end_byte]

    def _case(self, node: ts.Node, body: ts.Node, title: str) -> TestCase:
        calls = self._calls(body, setup=False)
        for hook in self._hooks(node):
            if hook.id not in self.setup:
                self.setup[hook.id] = self._calls(hook, setup=True)
            calls += self.setup[hook.id]
        inside = sorted(self._inside(body, "test.call") + self._inside(body, "test.member_call"), key=lambda n: n.start_byte)
        assertions = [a for c in inside for a in [assertion(c, self.kb)] if a is not None]
        inputs = []
        for obj in self._inside(body, "test.object"):
            fields = {k: v for k, pair in object_pairs(obj).items()
                      if (v := literal(pair_value(pair))) is not NOT_LITERAL and not isinstance(v, (dict, list))}
            if fields:
                inputs.append((obj.start_point[0] + 1, fields))
        return TestCase(path=self.path, module=self.name, title=title, start_line=node.start_point[0] + 1,
                        end_line=node.end_point[0] + 1, calls=tuple(calls), tools=tuple(self._tools(body, inside)),
                        assertions=tuple(assertions), inputs=tuple(inputs), unresolved=tuple(self.unresolved))

    def _calls(self, fn: ts.Node, setup: bool) -> list[Call]:
        out = []
        for new in self._inside(fn, "test.new"):
            cls = self._class_of(text(new.child_by_field_name("constructor")))
            if cls is not None:
                out.append(Call(path=cls[0], name=f"{cls[1]}.constructor", line=new.start_point[0] + 1, setup=setup))
        for call in self._inside(fn, "test.call") + self._inside(fn, "test.member_call"):
            hit = self._target(call)
            if hit is not None:
                out.append(Call(path=hit[0], name=hit[1], line=call.start_point[0] + 1, setup=setup))
        return sorted(out, key=lambda c: (c.line, c.name))

    def _target(self, call: ts.Node) -> tuple[str, str] | None:
        fn = strip_casts(call.child_by_field_name("function"))
        if fn is None:
            return None
        if fn.type == "identifier":
            hit = self.imports.get(text(fn))
            return hit if hit is not None and hit[1] != "*" else None
        if fn.type != "member_expression":
            return None
        obj, prop = strip_casts(fn.child_by_field_name("object")), text(fn.child_by_field_name("property"))
        while obj is not None and obj.type == "parenthesized_expression" and obj.named_children:
            obj = strip_casts(obj.named_children[0])
        if obj is not None and obj.type == "new_expression":  # new C().method()
            cls = self._class_of(text(obj.child_by_field_name("constructor")))
            return (cls[0], f"{cls[1]}.{prop}") if cls is not None else None
        if obj is None or obj.type != "identifier":
            return None
        name = text(obj)
        if name in self.instances:
            path, cls = self.instances[name]
            return path, f"{cls}.{prop}"
        hit = self.imports.get(name)
        if hit is None:
            return None
        if hit[1] == "*":
            exported = self.link.exported(hit[0], prop)
            return (exported[0].path, exported[1]) if exported is not None else (hit[0], prop)
        return (hit[0], f"{hit[1]}.{prop}") if self._class_of(name) is not None else None

    def _tools(self, body: ts.Node, calls: list[ts.Node]) -> list[tuple[str, int]]:
        out = []
        for call in calls:
            _, mods = callee(call)
            fn = call.child_by_field_name("function")
            last = mods[-1] if mods else text(fn)
            if last not in self.kb["tool_calls"]:
                continue
            args = call_args(call)
            first = args[0] if args else None
            name = string_value(first)
            if name is None and first is not None:
                pair = object_pairs(first).get("name")
                name = string_value(pair_value(pair)) if pair is not None else None
            if name is not None:
                out.append((name, call.start_point[0] + 1))
        for obj in self._inside(body, "test.object"):  # a raw request: { method: "tools/call", params: { name } }
            pairs = object_pairs(obj)
            if "method" in pairs and string_value(pair_value(pairs["method"])) == "tools/call" and "params" in pairs:
                named = object_pairs(pair_value(pairs["params"])).get("name")
                name = string_value(pair_value(named)) if named is not None else None
                if name is not None:
                    out.append((name, obj.start_point[0] + 1))
        return sorted(set(out), key=lambda t: (t[1], t[0]))
