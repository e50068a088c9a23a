"""zod schemas read statically into the JSON Schema the SDK advertises for them (vocabulary: kb/sdk.yaml `zod`;
the methods of a chain: extract/zod_methods.py; a low-level descriptor's inputSchema: extract/input_schemas.py)."""

from __future__ import annotations

import copy
from dataclasses import dataclass

import tree_sitter as ts

from auditor.extract import zod_flow, zod_names
from auditor.extract.bindings import imports, value_of
from auditor.extract.frames import parameters, returned
from auditor.extract.program import Module
from auditor.extract.syntax import (FUNCTION_TYPES, NOT_LITERAL, Known, ancestors, call_args, enclosing_function,
                                    excerpt, find, literal, member_chain, object_pairs, pair_value, property_name,
                                    spread_parts, strip_casts, text)
from auditor.extract.zod_methods import apply, object_schema, type_of


@dataclass(frozen=True, kw_only=True, slots=True)
class Schema:
    value: object  # the JSON-Schema-shaped dict, or NOT_LITERAL
    node: ts.Node | None  # where the properties are written (shape literal, z.object call or JSON literal)
    form: str  # json-schema | zod | zod-to-json-schema | unknown
    coercions: tuple[tuple[str, str, int, str], ...] = ()  # (property path, what the runtime does, line, file)
    problems: tuple[tuple[str, ts.Node], ...] = ()  # what could not be read, and where
    module: Module | None = None  # the module of `node`, `problems` and `coercions`, when not the one read from


def namespaces(module: Module, vocab: dict) -> frozenset[str]:
    """Local names bound to the zod namespace (extract/zod_names.py)."""
    return zod_names.namespaces(module, vocab)[0]


def constants(module: Module, link=None):
    """literal()'s environment for code of MODULE: a name's top-level value in the module where it is written,
    following the imports of the boundary when LINK is given."""
    if link is None:
        return lambda ident: _toplevel(module, text(ident))

    def value(ident: ts.Node) -> ts.Node | Known | None:
        where = link.binding(link.module_of(ident) or module, text(ident))
        return _toplevel(*where) if where is not None else None

    def member(node: ts.Node) -> ts.Node | None:
        """`ns.X` of a namespace of another module of the boundary (`import * as ns`, `const ns = require("./m")`,
        as tsc compiles an import): the value that module exports as X."""
        chain = member_chain(node)
        if not chain or len(chain) != 2:
            return None
        here = link.module_of(node) or module
        source, name = imports(here).get(chain[0], ("", ""))
        target = link.resolve_spec(here.path, source) if name == "*" else None
        where = link.exported(target, chain[1]) if target is not None else None
        return link.value(*where) if where is not None and where[1] != "*" else None
    value.member = member  # (literal() asks it for a member of a name, before reading the name itself)
    return value


def _toplevel(module: Module, name: str) -> ts.Node | Known | None:
    """The top-level value of NAME in MODULE; for a string enum (declared, or as tsc compiles it), its string members
    as a constant object (`ToolName.SEARCH` in a template)."""
    node = module.toplevel.get(name)
    if node is not None:
        return node
    prefix = f"{name}."
    members = {k[len(prefix):]: v for k, v in module.enums.items() if k.startswith(prefix)}
    return Known(members) if members else None


def is_params(node: ts.Node | None, module: Module, vocab: dict, link=None, depth: int = 0) -> bool:
    """The SDK's overload test for `tool(...)`: a raw shape (empty, or with a zod value) or a zod schema (written
    here, or, LINK given, exported by another module of the boundary)."""
    r = _Reader(module, vocab, link)
    target = r.definition(node)
    where = link.binding(module, text(target)) if link is not None and target is not None and target.type == "identifier" \
        else None
    if where is not None and where[0] is not module and where[1] in where[0].toplevel and depth < 8:  # decided there
        return is_params(where[0].toplevel[where[1]], where[0], vocab, link, depth + 1)
    imported = _imported_shape(target, module, link) if target is not None and target.type == "member_expression" \
        else None  # `schemas.getProjects` of an imported object of shapes: a raw shape there
    if imported is not None:
        return _Reader(imported[0], vocab, link).is_raw_shape(imported[1])
    if target is not None and target.type == "member_expression":  # `defs.schema` of `import * as defs`: read there
        across = r._across(target, "", 0)
        return across is not None and isinstance(across[0], dict) and across[0].get("type") == "object"
    return target is not None and ((target.type == "object" and r.is_raw_shape(target)) or r.is_zod(target))


def input_shape(node: ts.Node | None, module: Module, vocab: dict, link=None, reader=None) -> Schema:
    """A high-level inputSchema: a raw shape `{a: z.string()}`, a zod object schema, or `X.shape`. READER: the reader
    to use (one that reads a parameter as a call's argument), else a plain one."""
    r = reader if reader is not None else _Reader(module, vocab, link)
    if node is None:
        return Schema(value=NOT_LITERAL, node=None, form="unknown")
    target = r.definition(node)
    value = across = None
    imported = _imported_shape(target, module, link)
    if imported is not None:  # a raw shape exported by another module: read there, anchored here (its lines are not ours)
        mod, obj = imported
        there = input_shape(obj, mod, vocab, link)
        moved = tuple((f"{msg} (in {mod.path})", node) for msg, _ in there.problems)
        return Schema(value=there.value, node=None, form=there.form, problems=moved, coercions=there.coercions)
    if target is not None and target.type == "object" and not r.is_raw_shape(target):
        plain = literal(target, module.toplevel)
        if isinstance(plain, dict) and "type" in plain:
            return Schema(value=plain, node=target, form="json-schema")
    if target is not None and (target.type == "object" or spread_parts(target) is not None):
        props, required = r.shape(target, "")
        value = object_schema(props, required) if props is not None else None
    elif target is not None and (r.is_zod(target) or (across := r._across(target, "", 0)) is not None):
        spec = r.read(target, "")[0] if across is None else across[0]
        value = spec if isinstance(spec, dict) and spec.get("type") == "object" else None
        if spec is not None and value is None:
            r.problem("the input schema is a zod schema but not an object schema", node)
    else:
        chain = member_chain(target) or ()
        where = r.imported.get(chain[0]) if chain else None
        r.problem(f"input schema `{excerpt(node)}` " + (f"comes from {where[0]!r}; not resolved across files" if where
                                                           else "is not a zod shape or schema that can be read here"), node)
    if value is None:
        return Schema(value=NOT_LITERAL, node=target or node, form="unknown", problems=tuple(r.problems))
    return Schema(value=value, node=target, form="zod", coercions=tuple(r.coercions), problems=tuple(r.problems))


def _imported_shape(node: ts.Node | None, module: Module, link) -> tuple[Module, ts.Node] | None:
    """(module, object) of a raw shape object (`{a: z.string()}`) that NODE, an imported name or a member of one
    (`toolSchemas.getProjects` of an imported object of shapes), stands for."""
    chain = member_chain(node) if node is not None and node.type in {"identifier", "member_expression"} else None
    if not chain or link is None:
        return None
    where = link.binding(module, chain[0])
    if where is None or where[0] is module:
        return None
    value = strip_casts(link.value(*where))  # (a declaration's value, or a CommonJS `exports.X = {...}`)
    for key in chain[1:]:
        pair = object_pairs(value).get(key) if value is not None and value.type == "object" else None
        value = strip_casts(pair_value(pair)) if pair is not None else None
    return (where[0], value) if value is not None and value.type == "object" else None


def schema_of(node: ts.Node | None, module: Module, vocab: dict, link=None) -> dict | None:
    """The JSON Schema a zod schema expression stands for (a local, imported, or a member of an object of schemas),
    or None when it is not one that can be read."""
    r = _Reader(module, vocab, link)
    target = r.definition(node)
    if target is None or not (r.is_zod(target) or r._across(target, "", 0) is not None):
        return None
    spec = r.read(target, "")[0]
    return spec if isinstance(spec, dict) else None


_INLINED = "(zod inlined)"  # the namespace the constructors of an inlined zod are read as members of (not a name)


class _Constants:
    """literal()'s environment of a reader: a name's value (_Reader.constant), and `ns.X` of another module's namespace
    (`member`, as zod.constants reads it)."""

    __slots__ = ("reader", "member")

    def __init__(self, reader: "_Reader"):
        self.reader = reader
        self.member = getattr(constants(reader.module, reader.link), "member", None)

    def __call__(self, ident: ts.Node) -> ts.Node | Known | None:
        return self.reader.constant(ident)


class _Reader:
    """One conversion: the vocabulary, the module's zod bindings, and what it could not read."""

    def __init__(self, module: Module, vocab: dict, link=None):
        self.module, self.z, self.vocab, self.link = module, vocab["zod"], vocab, link
        # `zod_1` of CommonJS `const zod_1 = require("zod")` is in star: its `zod_1.z` is the namespace again
        self.ns, self.star = zod_names.namespaces(module, vocab)
        self.ctors = zod_names.constructors(module, vocab)  # `stringType` of an inlined zod: `z.string`
        self.ns |= {_INLINED} if self.ctors else frozenset()
        self.imported = imports(module)
        self.problems: list[tuple[str, ts.Node]] = []
        self.coercions: list[tuple[str, str, int, str]] = []  # each names its file: a schema may be imported
        self.calls: list[zod_flow.Call] = []  # the schema-building functions being followed (shared with sub-readers)
        self.constants = _Constants(self)  # literal()'s environment for this reader's code

    def problem(self, what: str, node: ts.Node) -> None:
        self.problems.append((what, node))

    def zchain(self, chain: tuple[str, ...] | None) -> tuple[str, ...] | None:
        """A member chain with `ns.z` (or `ns.default`) of a whole-module import of zod read as `ns` (`zod_1.z.string` is
        `zod_1.string`)."""
        if chain and len(chain) > 1 and chain[0] in self.star and (chain[1] in self.z["namespace_exports"]
                                                                   or chain[1] == "default"):  # (zod's default export:
            # the namespace; interop code reads `import z from "zod"` as `import_zod.default.object(...)`)
            return (chain[0],) + chain[2:]
        if chain and len(chain) == 1 and chain[0] in self.ctors:  # `stringType(...)`: `z.string(...)`
            return (_INLINED, self.ctors[chain[0]])
        return chain

    def constant(self, ident: ts.Node) -> ts.Node | Known | None:
        """The top-level value a name stands for, in the module where that name is written, following imports
        of the boundary (`z.enum([KIND_A, KIND_B])` with the constants exported by another file); a parameter of a
        schema-building function being followed, the constant its call passed."""
        bound = zod_flow.parameter_value(self.calls, self.module, ident)
        if bound is not NOT_LITERAL:
            return Known(bound)
        return constants(self.module, self.link)(ident)

    # -- recognising ----------------------------------------------------------------------------

    def definition(self, node: ts.Node | None, depth: int = 0) -> ts.Node | None:
        """Follow identifiers (and `X.shape`) to the expression that is written out."""
        node = strip_casts(node)
        if node is None or depth > 10:
            return node
        if node.type in {"identifier", "shorthand_property_identifier"}:  # (`{ inputSchema }` names a local too)
            value = value_of(self.module, node)
            if value is not None and strip_casts(value).type == "object" and self._filled(node, value):
                return node  # `const shape = {}` then `shape[key] = ...`: its initializer is not the whole shape
            return self.definition(value, depth + 1) if value is not None else node
        if node.type == "member_expression" and text(node.child_by_field_name("property")) == "shape":
            return self.definition(node.child_by_field_name("object"), depth + 1)
        chain = member_chain(node) if node.type == "member_expression" and self.link is not None else None
        if chain and chain[:-1] in {("exports",), ("module", "exports")}:  # CommonJS: this module's own export
            value = self.link.assigned.get(self.module.path, {}).get(chain[-1])
            return self.definition(value, depth + 1) if value is not None else node
        if node.type == "member_expression":  # `Schemas.input` of a `const Schemas = { input: z.object(...) }`
            holder = self.definition(node.child_by_field_name("object"), depth + 1)
            holder = _object_shape(holder) if holder is not None and holder.type == "call_expression" else holder
            pair = object_pairs(holder).get(text(node.child_by_field_name("property"))) \
                if holder is not None and holder.type == "object" else None
            if pair is not None:  # also `X.shape.key`: the schema of one field of `X = z.object({...})`
                return self.definition(pair_value(pair), depth + 1)
        return node

    def _filled(self, ident: ts.Node, value: ts.Node) -> bool:
        """Whether the object literal VALUE, declared for the name IDENT, is written to by a computed key
        (`shape[key] = ...`) in the function or program it is declared in: its properties are known only at run time."""
        scope = next((a for a in ancestors(value) if a.type in FUNCTION_TYPES or a.type == "program"), None)
        name = text(ident)
        for node in self.module.nodes("assign") if scope is not None else ():
            left = strip_casts(node.child_by_field_name("left"))
            if left is not None and left.type == "subscript_expression" \
                    and scope.start_byte <= node.start_byte < scope.end_byte \
                    and text(strip_casts(left.child_by_field_name("object"))) == name:
                return True
        return False

    def _base(self, node: ts.Node | None) -> ts.Node | None:
        """The innermost receiver of a method chain `a.b().c()`."""
        node = strip_casts(node)
        while node is not None:
            if node.type == "call_expression":
                node = strip_casts(node.child_by_field_name("function"))
            elif node.type == "member_expression":
                node = strip_casts(node.child_by_field_name("object"))
            else:
                return node
        return None

    def is_zod(self, node: ts.Node | None, depth: int = 0) -> bool:
        parts = zod_flow.branches(node)
        if parts is not None and depth <= 10:  # `C ? A : B`: a schema when both branches are
            return self.is_zod(parts[1], depth + 1) and self.is_zod(parts[2], depth + 1)
        base = self._base(node)
        if base is None or base.type != "identifier" or depth > 10:
            return False
        if text(base) in self.ns or text(base) in self.ctors:
            return True
        value = value_of(self.module, base)
        if value is None and text(base) in self.module.functions:
            value = self.module.functions[text(base)]
        if value is not None and value.type in FUNCTION_TYPES:  # `bulk(schema)`: a function whose one return is one
            made = returned(value)
            return len(made) == 1 and self.is_zod(made[0], depth + 1)
        if value is not None:
            return self.is_zod(value, depth + 1)
        # `Base.extend({...})`, Base a schema exported by another module of the boundary: a schema there
        where = self.link.binding(self.module, text(base)) if self.link is not None else None
        value = self.link.value(*where) if where is not None and where[0] is not self.module else None
        return value is not None and self.sibling(where[0]).is_zod(value, depth + 1)

    def is_raw_shape(self, obj: ts.Node) -> bool:
        """The SDK's test: an object that is empty or has at least one zod value."""
        values = [c for c in obj.named_children if c.type != "comment"]
        return not values or any(self.is_zod(c.child_by_field_name("value") if c.type == "pair" else c) for c in values)

    # -- reading --------------------------------------------------------------------------------

    def shape(self, node: ts.Node | None, path: str, depth: int = 0) -> tuple[dict | None, list]:
        """Properties and required names of a shape object (spreads of other shapes included); None when unreadable."""
        props: dict = {}
        required: list = []
        node = self.definition(node)
        merged = spread_parts(node)
        if merged is not None:  # `__spreadProps(__spreadValues({}, base), { x })`: `{ ...base, x }` downlevelled
            for part in merged:
                more, req = self.shape(part, path, depth + 1)
                if more is None:
                    return None, required
                props.update(more)
                required = [r for r in required if r not in more] + req
            return props, required
        parts = zod_flow.branches(node, self.constants)
        if parts is not None:  # `...(C ? {} : {a: z.string()})`: the properties of both, by configuration
            pa, ra = self.shape(parts[1], path, depth + 1)
            pb, rb = self.shape(parts[2], path, depth + 1) if pa is not None else (None, [])
            return zod_flow.merged(pa, ra, pb, rb, parts[0]) if pb is not None else (None, required)
        imported = _imported_shape(node, self.module, self.link)
        if imported is not None:  # `{...baseShape, x}`, baseShape a raw shape exported by another module: read there
            sub = self.sibling(imported[0])
            found = sub.shape(imported[1], path, depth + 1)
            self.problems += sub.problems
            self.coercions += sub.coercions
            return found
        if node is None or node.type != "object":
            spec, _ = self.read(node, path, depth + 1) if node is not None else (None, False)
            if isinstance(spec, dict) and spec.get("type") == "object":
                return dict(spec.get("properties") or {}), list(spec.get("required") or [])
            if spec is not None:
                self.problem(f"shape `{excerpt(node)}` at `{path or 'input'}` is not an object schema", node)
            return None, required
        for child in node.named_children:
            if child.type == "pair":
                name = property_name(child.child_by_field_name("key"))
                value = child.child_by_field_name("value")
            elif child.type == "shorthand_property_identifier":
                name, value = text(child), child
            elif child.type == "spread_element":
                inner = child.named_children[0] if child.named_children else None
                more, req = self.shape(inner, path, depth + 1)
                if more is None:
                    return None, required
                props.update(more)
                required = [r for r in required if r not in more] + req
                continue
            else:
                continue
            sub = f"{path}.{name}" if path else name
            spec, optional = self.read(value, sub, depth + 1)
            props[name] = spec if spec is not None else {}
            if name in required:
                required.remove(name)
            if not optional:
                required.append(name)
        return props, required

    def read(self, node: ts.Node | None, path: str, depth: int = 0) -> tuple[dict | None, bool]:
        """(JSON Schema fragment or None when unreadable, whether the value may be omitted)."""
        node = strip_casts(node)
        if node is None or depth > 40:
            return None, False
        methods = []
        cur = node
        while True:
            cur = strip_casts(cur)
            if cur.type != "call_expression":
                break
            fn = strip_casts(cur.child_by_field_name("function"))
            if fn is None or fn.type != "member_expression":
                break
            obj = strip_casts(fn.child_by_field_name("object"))
            chain = self.zchain(member_chain(obj))
            if chain is not None and chain[0] in self.ns and (len(chain) == 1 or len(chain) == 2 and (
                    chain[1] == self.z["coerce"] or chain[1] in self.z.get("groups", ()))):
                break
            methods.append((text(fn.child_by_field_name("property")), cur))
            cur = obj
        spec, optional = self._base_spec(cur, path, depth)
        unknown = spec is None
        spec_read = not unknown
        spec = dict(spec) if spec is not None else {}
        for name, call in reversed(methods):
            rule = self.z["methods"].get(name)
            args = call_args(call)
            if rule is None:
                if spec_read:  # on an unread base the method is no news: the base's problem says why
                    self.problem(f"zod method .{name}() at `{path or 'input'}` is not in kb/sdk.yaml; the property is not read", call)
                unknown = True
                continue
            spec, optional, ok = apply(self, rule, name, args, call, spec, optional, path, depth)
            unknown = unknown or not ok
        return (None if unknown else spec), optional

    def _across(self, node: ts.Node, path: str, depth: int) -> tuple[dict | None, bool] | None:
        """A schema imported from another module of the boundary (`X` or `ns.X`), read in that module."""
        chain = member_chain(node) if self.link is not None else None
        where = None
        if chain and len(chain) == 2 and chain[0] == "exports":  # CommonJS: `exports.X` of this module's own export
            value = self.link.assigned.get(self.module.path, {}).get(chain[1])
            return self.read(value, path, depth + 1) if value is not None else None
        if chain and len(chain) == 1:
            where = self.link.binding(self.module, chain[0])
        elif chain and len(chain) == 2:
            b = self.link.imports.get(self.module.path, {}).get(chain[0])
            if b is not None and b.name == "*" and b.module is not None:
                where = self.link.exported(b.module, chain[1])
            elif b is None and self.imported.get(chain[0], ("", ""))[1] == "*":  # `const m_1 = require("./m")`
                target = self.link.resolve_spec(self.module.path, self.imported[chain[0]][0])
                where = self.link.exported(target, chain[1]) if target is not None else None
        elif chain and len(chain) == 3 and chain[1] == "shape":  # `X.shape.key`, X imported: one field of it
            where = self.link.binding(self.module, chain[0])
        value = self.link.value(*where) if where is not None and where[0] is not self.module else None
        if value is None:
            return None
        mod = where[0]
        if len(chain) == 3 and chain[1] == "shape":
            pair = object_pairs(_object_shape(value)).get(chain[2]) if _object_shape(value) is not None else None
            if pair is None:
                return None
            value = pair_value(pair)
        sub = _Reader(mod, self.vocab, self.link)
        found = sub.read(value, path, depth + 1)
        self.problems += sub.problems
        self.coercions += sub.coercions  # anchored in their own file
        return found

    def sibling(self, module: Module) -> _Reader:
        """A reader of another module for the same conversion (the functions it follows are shared)."""
        if module is self.module:
            return self
        sub = _Reader(module, self.vocab, self.link)
        sub.calls = self.calls
        return sub

    def _base_spec(self, node: ts.Node, path: str, depth: int) -> tuple[dict | None, bool]:
        parts = zod_flow.branches(node, self.constants)
        if parts is not None:  # `C ? A : B`: either schema, by configuration
            a, oa = self.read(parts[1], path, depth + 1)
            b, ob = self.read(parts[2], path, depth + 1) if a is not None else (None, False)
            return (zod_flow.either(a, b, parts[0]), oa or ob) if b is not None else (None, False)
        if node.type in {"identifier", "shorthand_property_identifier"}:
            name = text(node)
            value = value_of(self.module, node)
            if value is not None and strip_casts(value).type == "object" and self._filled(node, value):
                self.problem(f"the shape `{name}` at `{path or 'input'}` is filled by computed keys at run time "
                             f"(`{name}[key] = ...`); its properties are not read", node)
                return None, False
            if value is not None:
                return self.read(value, path, depth + 1)
            found = self._across(node, path, depth)
            if found is not None:
                return found
            where = self.imported.get(name)
            self.problem(f"`{name}` at `{path or 'input'}` is " + (f"imported from {where[0]!r}; not resolved across files"
                                                                  if where else "not bound to a value in this module"), node)
            return None, False
        if node.type == "member_expression" and (written := self.definition(node, depth + 1)) is not node:
            return self.read(written, path, depth + 1)
        if node.type != "call_expression":
            found = self._across(node, path, depth)
            if found is not None:
                return found
            chain = member_chain(node) or ()
            where = self.imported.get(chain[0]) if chain else None
            self.problem(f"`{excerpt(node)}` at `{path or 'input'}` " + (f"comes from {where[0]!r}; not resolved across files"
                                                                         if where else "is not a zod expression"), node)
            return None, False
        chain = self.zchain(member_chain(node.child_by_field_name("function"))) or ()
        args = call_args(node)
        line = node.start_point[0] + 1
        coerced = len(chain) == 3 and chain[1] == self.z["coerce"]
        ctor = chain[-1] if chain else ""
        if len(chain) == 3 and chain[1] in self.z.get("groups", ()):  # z.iso.datetime(): the type `iso.datetime`
            ctor = f"{chain[1]}.{ctor}"
        if len(chain) == 2 and ctor in self.z["preprocess"]:
            spec, optional = self.read(args[1], path, depth + 1) if len(args) > 1 else (None, False)
            then = f" (then checks it as {type_of(spec)})" if spec is not None and type_of(spec) else ""
            if not (optional and args and _omits_only(args[0])):  # (`v => blank(v) ? undefined : v` of an optional
                self.coercions.append((path, f"z.{ctor}() {self.z['preprocess'][ctor]}{then}", line, self.module.path))
            return spec, optional  # field reads some values as omitted, converts none)
        rule = self.z["types"].get(ctor)
        if (not chain or chain[0] not in self.ns) and (given := zod_flow.passed_through(self, node)) is not None:
            return self.read(given, path, depth + 1)  # `typeSafeSchema()(z.object(...))`: the schema handed through
        if (not chain or chain[0] not in self.ns) and (target := zod_flow.callee(self, node)) is not None \
                and (found := zod_flow.returned(self, node, *target, path, depth)) is not None:
            return found
        if not chain or chain[0] not in self.ns:
            self.problem(f"`{excerpt(node)}` at `{path or 'input'}` is not a zod expression", node)
            return None, False
        if rule is None:
            self.problem(f"zod constructor `{excerpt(node.child_by_field_name('function'))}` at `{path or 'input'}` is not in kb/sdk.yaml", node)
            return None, False
        if coerced:
            does = self.z["coercions"].get(ctor)
            if does is None:
                self.problem(f"z.{self.z['coerce']}.{ctor}() at `{path or 'input'}` is not in kb/sdk.yaml", node)
                return None, False
            self.coercions.append((path, f"z.{self.z['coerce']}.{ctor}() {does}", line, self.module.path))
        spec = copy.deepcopy(rule["schema"])
        kind = rule.get("argument")
        at = rule.get("position", 0)
        first = args[at] if len(args) > at else None
        if kind == "wrapped":  # z.optional(S): S.optional()
            inner, optional = self.read(first, path, depth + 1) if first is not None else (None, False)
            if inner is None:
                return None, False
            spec, optional, ok = apply(self, self.z["methods"][ctor], ctor, [], node, dict(inner), optional, path, depth)
            return (spec if ok else None), optional
        if kind == "shape":
            props, required = self.shape(first, path, depth + 1) if first is not None else ({}, [])
            return (object_schema(props, required), False) if props is not None else (None, False)
        if kind == "items":
            items, _ = self.read(first, f"{path}[]", depth + 1)
            if items is None:
                return None, False
            return {**spec, "items": items}, False
        if kind in {"enum", "native_enum"}:  # a list (z.enum), or a string enum of the boundary (z.nativeEnum, zod 4 z.enum)
            values = literal(first, self.constants) if kind == "enum" else None
            values = values if isinstance(values, list) else zod_flow.enum_values(self, first)
            either = zod_flow.either_list(self, first) if values is None else None
            if either is not None:  # `C ? A : B` lists: the values of both, by configuration
                note = {"$comment": f"values of both branches of `{excerpt(either[1], 40)}`"} if either[1] is not None else {}
                return {**spec, "enum": either[0], **note}, False
            if not isinstance(values, list):
                self.problem(f"z.{ctor}() values at `{path or 'input'}` are not a literal list{zod_flow.outside(self, first)}", node)
                return None, False
            return {**spec, "enum": values}, False
        if kind == "const":
            value = literal(first, self.constants)
            if value is NOT_LITERAL:
                self.problem(f"z.{ctor}() value at `{path or 'input'}` is not a literal", node)
                return None, False
            jtype = {str: "string", bool: "boolean", int: "number", float: "number", type(None): "null"}.get(type(value))
            return {**spec, **({"type": jtype} if jtype else {}), "const": value}, False
        if kind == "any_of":
            options = [c for c in strip_casts(first).named_children if c.type != "comment"] if first is not None and strip_casts(first).type == "array" else None
            if options is None:
                self.problem(f"z.{ctor}() options at `{path or 'input'}` are not a literal list", node)
                return None, False
            specs = [self.read(o, path, depth + 1)[0] for o in options]
            return (None, False) if any(s is None for s in specs) else ({**spec, "anyOf": specs}, False)
        if kind == "all_of":  # z.intersection(A, B): every argument a schema the input must meet
            specs = [self.read(a, path, depth + 1)[0] for a in args]
            return (None, False) if not specs or any(s is None for s in specs) else ({**spec, "allOf": specs}, False)
        if kind == "values":
            values, _ = self.read(args[-1], f"{path}{{}}", depth + 1) if args else (None, False)
            return (None, False) if values is None else ({**spec, "additionalProperties": values}, False)
        if kind == "tuple":
            items = [c for c in strip_casts(first).named_children if c.type != "comment"] if first is not None and strip_casts(first).type == "array" else None
            specs = [self.read(o, f"{path}[{i}]", depth + 1)[0] for i, o in enumerate(items or [])]
            if items is None or any(s is None for s in specs):
                self.problem(f"z.{ctor}() items at `{path or 'input'}` cannot be read", node)
                return None, False
            return {**spec, "items": specs, "minItems": len(specs), "maxItems": len(specs)}, False
        return spec, False


def _object_shape(node: ts.Node | None) -> ts.Node | None:
    """The shape object of `z.object({...})` (with methods chained after it: `.strict()`, `.describe()`), or None."""
    node = strip_casts(node)
    while node is not None and node.type == "call_expression":
        fn = strip_casts(node.child_by_field_name("function"))
        if fn is None or fn.type != "member_expression":
            return None
        if text(fn.child_by_field_name("property")) == "object":
            args = call_args(node)
            shape = strip_casts(args[0]) if args else None
            return shape if shape is not None and shape.type == "object" else None
        node = strip_casts(fn.child_by_field_name("object"))
    return None


def _omits_only(fn: ts.Node | None) -> bool:
    """Whether a preprocess function gives back its argument unchanged or `undefined` from every return (`(v) => v ===
    "" ? undefined : v`, or a block: `if (typeof v !== "string") return v; ... return blank ? undefined : v`): it
    reads some values as omitted and converts none."""
    fn = strip_casts(fn)
    if fn is None or fn.type not in FUNCTION_TYPES:
        return False
    params = parameters(fn)
    first = next((n for n, (i, path) in params.items() if i == 0 and not path), None)
    body = fn.child_by_field_name("body")
    if first is None or body is None:
        return False
    returned = [strip_casts(body)] if body.type != "statement_block" else \
        [strip_casts(r.named_children[0]) if r.named_children else None
         for r in find(fn, {"return_statement"}) if enclosing_function(r) == fn]
    kept = {first, "undefined", "void 0"}

    def leaves(value: ts.Node | None) -> bool:
        if value is not None and value.type == "ternary_expression":
            return all(leaves(strip_casts(value.child_by_field_name(b))) for b in ("consequence", "alternative"))
        return value is not None and text(value) in kept
    return bool(returned) and all(leaves(v) for v in returned) and any(
        v is not None and (v.type == "ternary_expression" or text(v) != first) for v in returned)


