"""Evaluate an expression the code fixes, through the boundary's own small functions: what `[...listed(), HELP]`
is, when `listed()` filters a constant catalog by its flags, maps the names through a Map of definitions and copies
each definition's fields.

An interpreter over the syntax tree, in frames (a call binds its function's parameters to its arguments, a callback
its element), with lazy records (an object literal's fields are read when asked for, in the frame it was written in,
so a record with a field not known is known in its other fields: a partial record). It reads expressions, the
language's own list, Set, Map and Object functions, and functions whose bodies are declarations, `if`s and a
`return`. Anything else is UNKNOWN: a parameter no call fixes, `process.env`, a call of a function outside the
boundary, a loop, a `try`, a name that changes (held.unchanged: assigned again, or changed through a method or a
function it is handed to). A guard `if (c) throw ...` whose condition is not known is taken as not thrown: the value
is what a run that goes on returns."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import tree_sitter as ts

from auditor.extract import held
from auditor.extract.bindings import shadowed
from auditor.extract.program import Module
from auditor.extract.syntax import (FUNCTION_TYPES, _template_text, number_value, property_name, string_value,
                                    strip_casts, text)


class _Sentinel:
    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return self.name


UNKNOWN = _Sentinel("UNKNOWN")  # not fixed by the code
NULL = _Sentinel("null")  # JavaScript's null (undefined is None)
_ABSENT = _Sentinel("ABSENT")  # a key a record does not hold (read as undefined)
_END = _Sentinel("END")  # statements run to their end in an empty scope
_STEPS = 200_000  # evaluation steps for one question: beyond, UNKNOWN
_CALLS = 40  # calls nested
_MAX_ITEMS = 10_000  # a list longer than this is not made


class _Budget(Exception):
    pass


@dataclass(frozen=True, slots=True)
class Scope:
    """One name bound in a frame, and the scope it extends (a persistent chain: a record keeps the scope it was made
    in). VALUE is a value, or a _Thunk read on first use."""

    name: str
    value: Any
    outer: "Scope | None"


class _Thunk:
    """A local's initializer, read when the local is first read, in the scope it was declared in."""

    __slots__ = ("node", "module", "scope", "value")

    def __init__(self, node: ts.Node, module: Module, scope: Scope | None):
        self.node, self.module, self.scope, self.value = node, module, scope, _ABSENT


@dataclass(frozen=True, slots=True, eq=False)
class Record:
    """An object literal made in SCOPE: its fields read lazily."""

    node: ts.Node
    module: Module
    scope: Scope | None


@dataclass(frozen=True, slots=True, eq=False)
class Function:
    """A function (its node) and the scope it closes over."""

    node: ts.Node
    module: Module
    scope: Scope | None


@dataclass(frozen=True, slots=True, eq=False)
class JsSet:
    items: tuple  # the keys (_key) of its elements, in insertion order, once each


@dataclass(frozen=True, slots=True, eq=False)
class JsMap:
    entries: dict  # a primitive key -> value, in insertion order


_SCALARS = frozenset({"string", "template_string", "number", "true", "false", "null", "undefined", "unary_expression"})
_PRIMITIVES = (str, int, float, bool, type(None), _Sentinel)


def _primitive(v: Any) -> bool:
    return isinstance(v, _PRIMITIVES) and v is not UNKNOWN and v is not _ABSENT


class Evaluator:
    """Evaluates expressions of the modules LINK knows; VALUES (extract/values.py) serves held.unchanged."""

    def __init__(self, link, values) -> None:
        self.link, self.values = link, values
        self._steps = 0
        self._calls = 0
        memo = link.memo.setdefault("evaluate", {})
        self._constants: dict = memo  # (module path, node id) -> a module-level constant's value

    # -- the entry points ---------------------------------------------------------------------------------------------
    def value(self, node: ts.Node | None, module: Module) -> Any:
        """NODE's value in every run (UNKNOWN when that is not fixed)."""
        return self._guarded(lambda: self._eval(node, module, None))

    def member(self, node: ts.Node | None, module: Module, *keys: str) -> Any:
        """NODE's member KEYS[0], its member KEYS[1] ... (None: a key a record lacks)."""
        def run():
            value = self._lookup(node, module, None, keys[0])
            for key in keys[1:]:
                value = self._get(value, key)
            return None if value is _ABSENT else value
        return self._guarded(run)

    def field(self, value: Any, key: str) -> Any:
        """The member KEY of a value this evaluator gave (a record's field)."""
        return self._guarded(lambda: self._get(value, key))  # (_guarded reads _ABSENT as undefined)

    def plain(self, value: Any) -> Any:
        """VALUE (one this evaluator gave) as plain data, records and lists all through (dicts, lists, strings,
        numbers, booleans, None for null): what a literal written out would be; UNKNOWN when a part is not known or
        is no data (a function)."""
        return self._guarded(lambda: self._plain(value, 0))

    def _plain(self, value: Any, depth: int) -> Any:
        self._steps += 1
        if self._steps > _STEPS or depth > 32:
            raise _Budget()
        if value is NULL:
            return None
        if isinstance(value, (str, bool)) or _number(value):
            return value
        if isinstance(value, list):
            out = [self._plain(v, depth + 1) for v in value]
            return UNKNOWN if any(v is UNKNOWN for v in out) else out
        if isinstance(value, (Record, dict)):
            keys = self._keys(value)
            if keys is None:
                return UNKNOWN
            out = {}
            for k in keys:
                got = self._get(value, k)
                if got is _ABSENT or got is None:  # (`{ a: undefined }`: no key in JSON)
                    continue
                got = self._plain(got, depth + 1)
                if got is UNKNOWN:
                    return UNKNOWN
                out[k] = got
            return out
        return UNKNOWN

    def _guarded(self, run) -> Any:
        self._steps, self._calls = 0, 0
        try:
            out = run()
        except (_Budget, RecursionError):
            return UNKNOWN
        return None if out is _ABSENT else out

    # -- expressions -------------------------------------------------------------------------------------------------
    def _eval(self, node: ts.Node | None, module: Module, scope: Scope | None) -> Any:
        self._steps += 1
        if self._steps > _STEPS:
            raise _Budget()
        node = strip_casts(node)
        if node is None:
            return UNKNOWN
        t = node.type
        if t in {"string", "template_string"}:
            return self._string(node, module, scope)
        if t == "number":
            number = number_value(node)
            return UNKNOWN if number is None else number
        if t in {"true", "false"}:
            return t == "true"
        if t == "null":
            return NULL
        if t == "undefined":
            return None
        if t == "identifier":
            return self._name(node, module, scope)
        if t == "object":
            return Record(node, module, scope)
        if t == "array":
            return self._array(node, module, scope)
        if t in FUNCTION_TYPES:
            return Function(node, module, scope)
        if t == "unary_expression":
            return self._unary(node, module, scope)
        if t == "binary_expression":
            return self._binary(node, module, scope)
        if t == "ternary_expression":
            cond = self._truth(self._eval(node.child_by_field_name("condition"), module, scope))
            if cond is UNKNOWN:
                return UNKNOWN
            return self._eval(node.child_by_field_name("consequence" if cond else "alternative"), module, scope)
        if t == "member_expression":
            prop = node.child_by_field_name("property")
            got = self._lookup(node.child_by_field_name("object"), module, scope, text(prop), optional=_optional(node))
            return None if got is _ABSENT else got
        if t == "subscript_expression":
            key = self._eval(node.child_by_field_name("index"), module, scope)
            if not _primitive(key):
                return UNKNOWN
            return self._index(self._eval(node.child_by_field_name("object"), module, scope), key)
        if t == "sequence_expression":
            parts = [c for c in node.named_children if c.type != "comment"]
            for c in parts[:-1]:
                scope = self._effect(c, module, scope)
            return self._eval(parts[-1], module, scope) if parts else UNKNOWN
        if t == "call_expression":
            return self._call(node, module, scope)
        if t == "new_expression":
            return self._new(node, module, scope)
        return UNKNOWN

    def _string(self, node: ts.Node, module: Module, scope: Scope | None) -> Any:
        subs = [c for c in node.named_children if c.type == "template_substitution"]
        if not subs:
            value = string_value(node)
            return UNKNOWN if value is None else value
        out, at, raw = [], node.start_byte + 1, node.text
        for sub in subs:
            piece = _piece(self._eval(sub.named_children[0] if sub.named_children else None, module, scope))
            if piece is None:
                return UNKNOWN
            out += [_template_text(raw[at - node.start_byte:sub.start_byte - node.start_byte]), piece]
            at = sub.end_byte
        return "".join(out) + _template_text(raw[at - node.start_byte:-1])

    def _array(self, node: ts.Node, module: Module, scope: Scope | None) -> Any:
        items = self._args(node, module, scope)
        return UNKNOWN if items is None else items

    def _unary(self, node: ts.Node, module: Module, scope: Scope | None) -> Any:
        op = text(node.child_by_field_name("operator"))
        arg = node.child_by_field_name("argument")
        if op == "void":
            return None
        value = self._eval(arg, module, scope)
        if op == "!":
            truth = self._truth(value)
            return UNKNOWN if truth is UNKNOWN else not truth
        if op == "-" and isinstance(value, (int, float)) and not isinstance(value, bool):
            return -value
        return UNKNOWN

    def _binary(self, node: ts.Node, module: Module, scope: Scope | None) -> Any:
        op = text(node.child_by_field_name("operator"))
        left = self._eval(node.child_by_field_name("left"), module, scope)
        right_node = node.child_by_field_name("right")
        if op in {"&&", "||"}:
            truth = self._truth(left)
            if truth is UNKNOWN:
                return UNKNOWN
            return left if truth == (op == "||") else self._eval(right_node, module, scope)
        if op == "??":
            if left is UNKNOWN:
                return UNKNOWN
            return self._eval(right_node, module, scope) if left is None or left is NULL else left
        right = self._eval(right_node, module, scope)
        if left is UNKNOWN or right is UNKNOWN:
            return UNKNOWN
        if op in {"===", "!==", "==", "!="}:
            same = _same(left, right, loose=op in {"==", "!="})
            return UNKNOWN if same is UNKNOWN else same == (op in {"===", "=="})
        if op == "in":
            return self._has(right, left)
        if op == "+" and (isinstance(left, str) or isinstance(right, str)):
            a, b = _piece(left), _piece(right)
            return a + b if a is not None and b is not None else UNKNOWN
        if _number(left) and _number(right):
            if op in {"+", "-", "*"}:
                return left + right if op == "+" else left - right if op == "-" else left * right
            if op in {"<", "<=", ">", ">="}:
                return {"<": left < right, "<=": left <= right, ">": left > right, ">=": left >= right}[op]
        return UNKNOWN

    # -- names -------------------------------------------------------------------------------------------------------
    def _name(self, node: ts.Node, module: Module, scope: Scope | None) -> Any:
        name = text(node)
        bound = _scoped(scope, name)
        if bound is not _ABSENT:
            return self._forced(bound)
        if name == "undefined":
            return None
        if shadowed(module, node):  # a parameter or a local of a function not being evaluated
            return UNKNOWN
        return self._global(module, name)

    def _global(self, module: Module, name: str) -> Any:
        """A top-level name of MODULE (through its imports): a function, or a constant no code changes."""
        where = self.link.binding(module, name)
        return UNKNOWN if where is None else self._defined(*where)

    def _defined(self, home: Module, local: str) -> Any:
        """The top-level name LOCAL of module HOME: a function, or a constant no code changes (a declaration's, or
        what CommonJS `exports.LOCAL = value` assigns)."""
        fn = home.functions.get(local)
        if fn is not None and fn.type == "function_declaration":
            return Function(fn, home, None)
        value = self.link.value(home, local)  # (a declaration's, or what `exports.X = [...]` assigns)
        if value is None:
            return UNKNOWN
        key = (home.path, value.id)
        if key not in self._constants:
            self._constants[key] = UNKNOWN  # (a constant read while it is read: a cycle)
            scalar = strip_casts(value) is not None and strip_casts(value).type in _SCALARS
            try:
                kept = held.unchanged(self.values, local, value, home, shared=True, scalar=scalar) \
                    if home.toplevel.get(local) is not None \
                    else held.assigned_unchanged(self.values, home, local, value)  # (`exports.X = value`)
                if kept:
                    self._constants[key] = self._eval(value, home, None)
            except (_Budget, RecursionError):
                del self._constants[key]  # (out of steps for this question: another may read it whole)
                raise
        return self._constants[key]

    def _forced(self, value: Any) -> Any:
        if isinstance(value, _Thunk):
            if value.value is _ABSENT:
                value.value = UNKNOWN
                value.value = self._eval(value.node, value.module, value.scope)
            return value.value
        return value

    # -- members -----------------------------------------------------------------------------------------------------
    def _lookup(self, node: ts.Node | None, module: Module, scope: Scope | None, key: str, optional: bool = False
                ) -> Any:
        """NODE's member KEY, read without making NODE's whole value where that is not needed: `c ? {a} : {b}` lacks
        a key neither branch has, whatever c is; a call's returned expression is looked into the same way."""
        node = strip_casts(node)
        if node is not None and node.type == "ternary_expression":
            cond = self._truth(self._eval(node.child_by_field_name("condition"), module, scope))
            if cond is UNKNOWN:
                a = self._lookup(node.child_by_field_name("consequence"), module, scope, key, optional)
                b = self._lookup(node.child_by_field_name("alternative"), module, scope, key, optional)
                return a if _same(a, b) is True or a is b else UNKNOWN
            return self._lookup(node.child_by_field_name("consequence" if cond else "alternative"), module, scope,
                                key, optional)
        if node is not None and node.type == "call_expression":
            self._calls += 1
            try:
                if self._calls > _CALLS:
                    raise _Budget()
                returned = self._returned(node, module, scope)
                if returned is not None:
                    return self._lookup(returned[0], returned[1], returned[2], key, optional)
            finally:
                self._calls -= 1
        if node is not None and node.type == "identifier" and _scoped(scope, text(node)) is _ABSENT \
                and not shadowed(module, node):  # `tools_1.tools` of `const tools_1 = require("./tools")`
            b = self.link.imports.get(module.path, {}).get(text(node))
            if b is not None and b.name == "*" and b.module is not None:
                where = self.link.exported(b.module, key)
                return self._defined(*where) if where is not None and where[1] != "*" else UNKNOWN
        holder = self._eval(node, module, scope)
        if optional and (holder is None or holder is NULL):
            return None
        return self._get(holder, key)

    def _get(self, holder: Any, key: str) -> Any:
        if isinstance(holder, Record):
            return self._field(holder, key)
        if isinstance(holder, dict):
            return holder.get(key, _ABSENT)
        if isinstance(holder, (list, str)) and key == "length":
            return len(holder)
        if isinstance(holder, JsSet) and key == "size":
            return len(holder.items)
        if isinstance(holder, JsMap) and key == "size":
            return len(holder.entries)
        if holder is None or holder is NULL:
            raise _Budget()  # (reading a member of nothing throws: no run goes on)
        return UNKNOWN

    def _field(self, record: Record, key: str) -> Any:
        """The field KEY of RECORD: the last of its entries that sets it (a spread's, an entry's), _ABSENT for none."""
        for child in reversed(record.node.named_children):
            t = child.type
            if t == "pair":
                k = child.child_by_field_name("key")
                if k is not None and k.type == "computed_property_name":
                    name = self._eval(k.named_children[0] if k.named_children else None, record.module, record.scope)
                    if name is UNKNOWN:
                        return UNKNOWN
                    name = _piece(name)
                else:
                    name = property_name(k) if k is not None else None
                if name == key:
                    return self._eval(child.child_by_field_name("value"), record.module, record.scope)
            elif t == "shorthand_property_identifier" and text(child) == key:
                return self._name(child, record.module, record.scope)
            elif t == "method_definition":
                if text(child.child_by_field_name("name")) == key:
                    accessor = any(c.type in {"get", "set"} for c in child.children)
                    return UNKNOWN if accessor else Function(child, record.module, record.scope)
            elif t == "spread_element":
                found = self._lookup(child.named_children[0] if child.named_children else None, record.module,
                                     record.scope, key, optional=True)
                if found is not _ABSENT and found is not None or found is None and self._spread_sets(child, record, key):
                    return found
            elif t not in {"comment", "pair", "shorthand_property_identifier", "method_definition"}:
                return UNKNOWN
        return _ABSENT

    def _spread_sets(self, spread: ts.Node, record: Record, key: str) -> bool:
        """Whether a spread whose KEY read as undefined sets it so (`{...{a: undefined}}`) rather than lacking it
        (`{...undefined}`, `{...{}}`): only a record that holds KEY sets it."""
        value = self._eval(spread.named_children[0] if spread.named_children else None, record.module, record.scope)
        if value is None or value is NULL:
            return False
        if isinstance(value, Record):
            return self._field(value, key) is not _ABSENT
        return isinstance(value, dict) and key in value

    def _keys(self, holder: Any) -> list[str] | None:
        """The own keys of a record, in order; None when one is not known."""
        if isinstance(holder, dict):
            return list(holder)
        if not isinstance(holder, Record):
            return None
        out: list[str] = []
        for child in holder.node.named_children:
            t = child.type
            if t == "pair":
                k = child.child_by_field_name("key")
                if k is not None and k.type == "computed_property_name":
                    name = _piece(self._eval(k.named_children[0] if k.named_children else None, holder.module,
                                             holder.scope))
                else:
                    name = property_name(k) if k is not None else None
                if name is None:
                    return None
                new = [name]
            elif t == "shorthand_property_identifier":
                new = [text(child)]
            elif t == "method_definition":
                new = [text(child.child_by_field_name("name"))]
            elif t == "spread_element":
                value = self._eval(child.named_children[0] if child.named_children else None, holder.module, holder.scope)
                new = [] if value is None or value is NULL else self._keys(value)
                if new is None:
                    return None
            elif t == "comment":
                continue
            else:
                return None
            out += [k for k in new if k not in out]
        if any(k.isdigit() for k in out):  # (integer keys come first in JavaScript)
            return None
        return out

    def _has(self, holder: Any, key: Any) -> Any:
        keys = self._keys(holder)
        return UNKNOWN if keys is None or not isinstance(key, str) else key in keys

    def _index(self, holder: Any, key: Any) -> Any:
        if isinstance(holder, list) and isinstance(key, int) and not isinstance(key, bool):
            return holder[key] if 0 <= key < len(holder) else None
        if isinstance(key, str) and (isinstance(holder, (Record, dict)) or key == "length"):
            got = self._get(holder, key)
            return None if got is _ABSENT else got
        return UNKNOWN

    # -- calls -------------------------------------------------------------------------------------------------------
    def _call(self, node: ts.Node, module: Module, scope: Scope | None) -> Any:
        callee = strip_casts(node.child_by_field_name("function"))
        args_node = node.child_by_field_name("arguments")
        if callee is None or args_node is None or args_node.type != "arguments":
            return UNKNOWN
        if callee.type == "member_expression":
            method = text(callee.child_by_field_name("property"))
            receiver = strip_casts(callee.child_by_field_name("object"))
            if receiver is not None and receiver.type == "identifier" and text(receiver) in {"Object", "Array"} \
                    and not shadowed(module, receiver) and self._name(receiver, module, scope) is UNKNOWN:
                return self._builtin(text(receiver), method, self._args(args_node, module, scope))
            holder = self._eval(receiver, module, scope)
            if holder is UNKNOWN:
                return UNKNOWN
            if isinstance(holder, (list, str, JsSet, JsMap)):
                return self._method(holder, method, args_node, module, scope)
            fn = self._get(holder, method)
            if isinstance(fn, Function):
                return self._apply(fn, self._args(args_node, module, scope))
            return UNKNOWN
        fn = self._eval(callee, module, scope)
        if not isinstance(fn, Function):
            return UNKNOWN
        return self._apply(fn, self._args(args_node, module, scope))

    def _args(self, args_node: ts.Node, module: Module, scope: Scope | None) -> list | None:
        """The values of a call's arguments or an array's elements, spreads spread; None when a spread is not known."""
        out: list = []
        for a in args_node.named_children:
            if a.type == "comment":
                continue
            if a.type == "spread_element":
                more = self._items(self._eval(a.named_children[0] if a.named_children else None, module, scope))
                if more is None:
                    return None
                out += more
            else:
                out.append(self._eval(a, module, scope))
        return out

    def _returned(self, node: ts.Node, module: Module, scope: Scope | None
                  ) -> tuple[ts.Node, Module, Scope | None] | None:
        """For a call of a function of the boundary: (the expression it returns, its module, the call's scope)."""
        callee = strip_casts(node.child_by_field_name("function"))
        if callee is None or callee.type == "member_expression":
            return None
        fn = self._eval(callee, module, scope)
        args = self._args(node.child_by_field_name("arguments"), module, scope) \
            if node.child_by_field_name("arguments") is not None else None
        if not isinstance(fn, Function) or args is None:
            return None
        return self._body(fn, args)

    def _apply(self, fn: Function, args: list | None) -> Any:
        if args is None:
            return UNKNOWN
        self._calls += 1
        try:
            if self._calls > _CALLS:
                raise _Budget()
            found = self._body(fn, args)
            return UNKNOWN if found is None else self._eval(*found)
        finally:
            self._calls -= 1

    def _body(self, fn: Function, args: list) -> tuple[ts.Node, Module, Scope | None] | None:
        """(the expression FN returns, its module, its scope) when called with ARGS; None when not read."""
        node = fn.node
        if node.type in {"generator_function_declaration", "generator_function"} \
                or any(c.type == "async" for c in node.children):
            return None
        scope = self._bind_parameters(fn, args)
        if scope is UNKNOWN:
            return None
        body = node.child_by_field_name("body")
        if body is None:
            return None
        if body.type != "statement_block":
            return body, fn.module, scope
        return self._statements(body, fn.module, scope)

    def _bind_parameters(self, fn: Function, args: list) -> Any:
        single = fn.node.child_by_field_name("parameter")
        formal = fn.node.child_by_field_name("parameters")
        params = [single] if single is not None else \
            [c for c in formal.named_children if c.type != "comment"] if formal is not None else []
        scope = fn.scope
        for i, p in enumerate(params):
            value = args[i] if i < len(args) else None
            if p.type in {"required_parameter", "optional_parameter"}:
                default = p.child_by_field_name("value")
                p = p.child_by_field_name("pattern")
                if p is None:
                    return UNKNOWN
                if default is not None and value is None:
                    value = self._eval(default, fn.module, scope)
            if p.type == "assignment_pattern":
                if value is None:
                    value = self._eval(p.child_by_field_name("right"), fn.module, scope)
                p = p.child_by_field_name("left")
            if p is None or p.type in {"rest_pattern", "this"}:
                return UNKNOWN
            scope = self._pattern(p, value, fn.module, scope)
            if scope is UNKNOWN:
                return UNKNOWN
        return scope

    def _pattern(self, p: ts.Node, value: Any, module: Module, scope: Scope | None) -> Any:
        """SCOPE with the names of pattern P bound to the parts of VALUE."""
        if p.type == "identifier":
            return Scope(text(p), value, scope)
        if p.type == "object_pattern":
            for c in p.named_children:
                if c.type == "shorthand_property_identifier_pattern":
                    got = self._get(value, text(c)) if value is not UNKNOWN else UNKNOWN
                    scope = Scope(text(c), None if got is _ABSENT else got, scope)
                elif c.type == "pair_pattern" and c.child_by_field_name("value") is not None:
                    got = self._get(value, property_name(c.child_by_field_name("key"))) if value is not UNKNOWN \
                        else UNKNOWN
                    scope = self._pattern(c.child_by_field_name("value"), None if got is _ABSENT else got, module, scope)
                elif c.type != "comment":
                    return UNKNOWN
                if scope is UNKNOWN:
                    return UNKNOWN
            return scope
        if p.type == "array_pattern":
            items = self._items(value) if value is not UNKNOWN else None
            for i, c in enumerate(x for x in p.named_children if x.type != "comment"):
                got = UNKNOWN if items is None else items[i] if i < len(items) else None
                scope = self._pattern(c, got, module, scope)
                if scope is UNKNOWN:
                    return UNKNOWN
            return scope
        return UNKNOWN

    def _statements(self, block: ts.Node, module: Module, scope: Scope | None
                    ) -> tuple[ts.Node, Module, Scope | None] | None:
        """Run a block of declarations, guards and effects to its `return`: (returned expression, module, scope);
        None when the block is not read or returns nothing."""
        done = self._run([block], module, scope)
        return done if isinstance(done, tuple) else None

    def _run(self, stmts: list, module: Module, scope: Scope | None) -> Any:
        """Run STMTS in turn: a tuple (returned expression, module, scope) at a `return`, the scope after them when
        they end without one, or None when one is not read."""
        for stmt in stmts:
            t = stmt.type
            if t in {"comment", "empty_statement"}:
                continue
            if t == "statement_block":
                done = self._run(stmt.named_children, module, scope)
                if not isinstance(done, Scope) and done is not _END:
                    return done
                continue  # (a block's declarations are its own: the scope before it goes on)
            if t in {"lexical_declaration", "variable_declaration"}:
                for decl in (c for c in stmt.named_children if c.type == "variable_declarator"):
                    name, value = decl.child_by_field_name("name"), decl.child_by_field_name("value")
                    if name is None:
                        return None
                    if name.type == "identifier":
                        scope = Scope(text(name), _Thunk(value, module, scope) if value is not None else None, scope)
                    else:
                        scope = self._pattern(name, self._eval(value, module, scope), module, scope)
                        if scope is UNKNOWN:
                            return None
                continue
            if t == "return_statement":
                parts = [c for c in stmt.named_children if c.type != "comment"]
                return (parts[0], module, scope) if parts else None
            if t == "if_statement":
                cond = self._truth(self._eval(stmt.child_by_field_name("condition"), module, scope))
                taken = stmt.child_by_field_name("consequence")
                other = stmt.child_by_field_name("alternative")
                other = next((c for c in other.named_children if c.type != "comment"), None) if other is not None \
                    else None
                if cond is UNKNOWN:
                    if other is None and _throws(taken):
                        continue  # a guard: a run that goes on does not take it
                    return None
                branch = taken if cond else other
                if branch is None:
                    continue
                if _throws(branch):
                    raise _Budget()  # (every run throws here: no value)
                done = self._run([branch], module, scope)
                if not isinstance(done, Scope) and done is not _END:
                    return done
                continue
            if t == "expression_statement":
                scope = self._effect(stmt.named_children[0] if stmt.named_children else None, module, scope)
                continue
            if t == "function_declaration":
                name = stmt.child_by_field_name("name")
                scope = Scope(text(name), Function(stmt, module, scope), scope) if name is not None else scope
                continue
            if t in _OTHER_STATEMENTS and not _returns(stmt):  # a loop filling a record: each name it may change is
                scope = self._effect(stmt, module, scope)       # not known after it
                continue
            return None
        return scope if scope is not None else _END

    def _effect(self, node: ts.Node | None, module: Module, scope: Scope | None) -> Scope | None:
        """SCOPE after an expression evaluated for its effect: a local it names may have changed (`check(x)`,
        `x.push(y)`, `x = y`), so each local of the frame it writes is not known after it."""
        if node is None:
            return scope
        names = _changed(node)
        cur, bound = scope, set()
        while cur is not None:
            bound.add(cur.name)
            cur = cur.outer
        for name in sorted(names & bound):
            scope = Scope(name, UNKNOWN, scope)
        return scope

    # -- the language's own ------------------------------------------------------------------------------------------
    def _builtin(self, owner: str, method: str, args: list | None) -> Any:
        if args is None or not args:
            return UNKNOWN
        first = args[0]
        if owner == "Object" and method in {"keys", "values", "entries"}:
            keys = self._keys(first)
            if keys is None:
                return UNKNOWN
            if method == "keys":
                return keys
            values = [self._get(first, k) for k in keys]
            values = [None if v is _ABSENT else v for v in values]
            return values if method == "values" else [[k, v] for k, v in zip(keys, values)]
        if owner == "Object" and method == "fromEntries":
            items = self._items(first)
            if items is None:
                return UNKNOWN
            out = {}
            for pair in items:
                if not isinstance(pair, list) or len(pair) < 2 or _piece(pair[0]) is None:
                    return UNKNOWN
                out[_piece(pair[0])] = pair[1]
            return out
        if owner == "Array" and method == "from" and len(args) == 1:
            items = self._items(first)
            return UNKNOWN if items is None else list(items)
        if owner == "Array" and method == "isArray":
            return UNKNOWN if first is UNKNOWN else isinstance(first, list)
        return UNKNOWN

    def _new(self, node: ts.Node, module: Module, scope: Scope | None) -> Any:
        made = text(node.child_by_field_name("constructor"))
        args_node = node.child_by_field_name("arguments")
        if made not in {"Set", "Map"} or self._name(node.child_by_field_name("constructor"), module, scope) \
                is not UNKNOWN:
            return UNKNOWN
        args = self._args(args_node, module, scope) if args_node is not None else []
        if args is None:
            return UNKNOWN
        items = self._items(args[0]) if args and args[0] is not None else []
        if items is None:
            return UNKNOWN
        if made == "Set":
            return JsSet(tuple(dict.fromkeys(_key(i) for i in items))) if all(_primitive(i) for i in items) \
                else UNKNOWN
        entries: dict = {}
        for pair in items:
            if not isinstance(pair, list) or not pair or not _primitive(pair[0]):
                return UNKNOWN
            entries[_key(pair[0])] = pair[1] if len(pair) > 1 else None
        return JsMap(entries)

    def _method(self, holder: Any, method: str, args_node: ts.Node, module: Module, scope: Scope | None) -> Any:
        args = self._args(args_node, module, scope)
        if args is None:
            return UNKNOWN
        if isinstance(holder, JsSet):
            if method == "has" and args and _primitive(args[0]):
                return _key(args[0]) in holder.items
            if method in {"values", "keys"} and not args:
                return [_unkey(k) for k in holder.items]
            return UNKNOWN
        if isinstance(holder, JsMap):
            if method in {"get", "has"} and args and _primitive(args[0]):
                k = _key(args[0])
                return (k in holder.entries) if method == "has" else holder.entries.get(k)
            if method == "values" and not args:
                return list(holder.entries.values())
            if method == "keys" and not args:
                return [_unkey(k) for k in holder.entries]
            return UNKNOWN
        if isinstance(holder, str):
            return UNKNOWN
        items = holder
        if method in {"map", "filter", "flatMap", "find", "some", "every", "forEach"}:
            fn = args[0] if args else None
            if not isinstance(fn, Function):
                return UNKNOWN
            out: list = []
            for i, item in enumerate(items):
                got = self._apply(fn, [item, i, items])
                if method in {"filter", "find", "some", "every"}:
                    truth = self._truth(got)
                    if truth is UNKNOWN:
                        return UNKNOWN
                    if method == "find" and truth:
                        return item
                    if method == "some" and truth:
                        return True
                    if method == "every" and not truth:
                        return False
                    if method == "filter" and truth:
                        out.append(item)
                    continue
                if got is UNKNOWN and method != "map":
                    return UNKNOWN
                if method == "flatMap" and isinstance(got, list):
                    out += got
                else:
                    out.append(got)
                if len(out) > _MAX_ITEMS:
                    return UNKNOWN
            return {"find": None, "some": False, "every": True, "forEach": None}.get(method, out)
        if method == "sort" and not args:
            if not all(isinstance(i, str) for i in items):
                return UNKNOWN
            return sorted(items, key=lambda s: s.encode("utf-16-be"))
        if method == "includes" and args and _primitive(args[0]):
            if not all(_primitive(i) for i in items):
                return UNKNOWN
            return any(_same(i, args[0]) is True for i in items)
        if method == "flat" and len(args) <= 1 and all(isinstance(a, int) and not isinstance(a, bool) for a in args):
            out, level = list(items), args[0] if args else 1  # (`Object.values(GROUPS).flat()`: one level down)
            for _ in range(max(level, 0)):
                out = [x for i in out for x in (i if isinstance(i, list) else [i])]
            return out if len(out) <= _MAX_ITEMS else UNKNOWN
        if method == "concat":
            out = list(items)
            for a in args:
                more = a if isinstance(a, list) else [a]
                out += more
            return out
        if method == "slice" and all(isinstance(a, int) and not isinstance(a, bool) for a in args) and len(args) <= 2:
            return items[slice(*args)] if args else list(items)
        if method == "join" and len(args) <= 1:
            sep = args[0] if args else ","
            pieces = [_piece(i) for i in items]
            return sep.join(pieces) if isinstance(sep, str) and None not in pieces else UNKNOWN
        return UNKNOWN

    def _items(self, value: Any) -> list | None:
        """The elements iterating VALUE gives (a list's, a Map's entries, a Set's), None when not known."""
        if isinstance(value, list):
            return value
        if isinstance(value, JsMap):
            return [[_unkey(k), v] for k, v in value.entries.items()]
        if isinstance(value, JsSet):
            return [_unkey(k) for k in value.items]
        return None

    def _truth(self, value: Any) -> Any:
        if value is UNKNOWN:
            return UNKNOWN
        if value is None or value is NULL or value is _ABSENT:
            return False
        if isinstance(value, (Record, Function, list, dict, JsSet, JsMap)):
            return True
        if isinstance(value, float) and value != value:
            return False
        return bool(value)


def _scoped(scope: Scope | None, name: str) -> Any:
    """What SCOPE binds NAME to (a value, or a _Thunk), _ABSENT when it does not bind it."""
    while scope is not None:
        if scope.name == name:
            return scope.value
        scope = scope.outer
    return _ABSENT


def _optional(node: ts.Node) -> bool:
    return any(c.type == "optional_chain" for c in node.children)


def _throws(node: ts.Node | None) -> bool:
    """Whether NODE is a `throw`, or a block that only throws."""
    if node is None:
        return False
    if node.type == "throw_statement":
        return True
    if node.type == "statement_block":
        stmts = [c for c in node.named_children if c.type != "comment"]
        return len(stmts) == 1 and stmts[0].type == "throw_statement"
    return False


_OTHER_STATEMENTS = frozenset({"for_statement", "for_in_statement", "while_statement", "do_statement",
                               "try_statement", "switch_statement", "labeled_statement"})


def _returns(node: ts.Node) -> bool:
    """Whether NODE holds a `return` of its own function (not of a function written in it)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if n.type == "return_statement":
            return True
        stack.extend(c for c in n.named_children if c.type not in FUNCTION_TYPES)
    return False


def _changed(node: ts.Node) -> set[str]:
    """The names an expression may change: what a call is handed (`check(x)`, `f({ x })`) or called a method on
    (`x.push(y)`), what it assigns or deletes (`x = y`, `x.k = y`, `x++`, `delete x.k`); a member read (`x.k ===
    "a"`) changes nothing."""
    out: set[str] = set()
    stack = [node]
    while stack:
        n = stack.pop()
        t = n.type
        if t == "call_expression" or t == "new_expression":
            args = n.child_by_field_name("arguments")
            out |= {text(i) for i in _all(args, {"identifier", "shorthand_property_identifier"})} if args else set()
            callee = n.child_by_field_name("function")
            root = _root(callee.child_by_field_name("object")) if callee is not None \
                and callee.type == "member_expression" else None
            out |= {root} if root else set()
        elif t in {"assignment_expression", "augmented_assignment_expression"}:
            root = _root(n.child_by_field_name("left"))
            out |= {root} if root else set()
        elif t == "update_expression" or t == "unary_expression" and text(n.child_by_field_name("operator")) == "delete":
            root = _root(n.child_by_field_name("argument"))
            out |= {root} if root else set()
        elif t == "variable_declarator" and n.child_by_field_name("name") is not None:  # (a `var` in a loop)
            out |= {text(i) for i in _all(n.child_by_field_name("name"), {"identifier",
                                                                          "shorthand_property_identifier_pattern"})}
        stack.extend(n.named_children)
    return out


def _root(node: ts.Node | None) -> str | None:
    """The name a member chain starts at (`x` of `x.a[b].c`)."""
    node = strip_casts(node)
    while node is not None and node.type in {"member_expression", "subscript_expression"}:
        node = strip_casts(node.child_by_field_name("object"))
    return text(node) if node is not None and node.type == "identifier" else None


def _all(node: ts.Node, types: set[str]) -> list[ts.Node]:
    out, stack = [], [node]
    while stack:
        n = stack.pop()
        if n.type in types:
            out.append(n)
        stack.extend(n.named_children)
    return out


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _piece(value: Any) -> str | None:
    """The text a value becomes in a string: strings and integers only."""
    if isinstance(value, str):
        return value
    return str(value) if isinstance(value, int) and not isinstance(value, bool) else None


def _same(a: Any, b: Any, loose: bool = False) -> Any:
    """JavaScript's `===` (`==` for null and undefined when LOOSE); UNKNOWN when not known."""
    if a is UNKNOWN or b is UNKNOWN:
        return UNKNOWN
    if a is _ABSENT:
        a = None
    if b is _ABSENT:
        b = None
    if loose and (a is None or a is NULL) and (b is None or b is NULL):
        return True
    if not _primitive(a) or not _primitive(b):
        return a is b
    if loose and type(a) is not type(b) and not (_number(a) and _number(b)) \
            and not any(x is None or x is NULL for x in (a, b)):
        return UNKNOWN  # (`1 == "1"` converts: not read)
    if isinstance(a, bool) != isinstance(b, bool):
        return False
    if _number(a) and _number(b):
        return a == b
    return type(a) is type(b) and a == b


def _key(v: Any) -> tuple:
    """A Map's key for a primitive (1 and True and "1" are different keys)."""
    return (type(v).__name__, v)


def _unkey(k: tuple) -> Any:
    return k[1]

