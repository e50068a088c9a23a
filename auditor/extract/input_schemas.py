"""A low-level descriptor's inputSchema, wherever it is written: a JSON Schema literal (its values may be constants of
other modules; a part that stays unknown is a gap at its path and the rest is read), a conversion of a zod schema (a
library's function, zod's own, a schema's method, or a function of the server that returns one: a summary, read at
each call with its parameters bound to the call's arguments), or a zod schema or raw shape that the server converts
elsewhere (read as what the conversion gives, form `zod`)."""

from __future__ import annotations

from dataclasses import replace

import tree_sitter as ts

from auditor.extract.bindings import literal_env, value_of
from auditor.extract.frames import Frame, parameters, returned
from auditor.extract.helpers import folded
from auditor.extract.program import Module
from auditor.extract.syntax import (FUNCTION_TYPES, NOT_LITERAL, call_args, call_function, excerpt, literal,
                                    member_chain, object_pairs, property_name, strip_casts, text)
from auditor.extract.values import Values
from auditor.extract import zod_wrappers
from auditor.extract.zod import Schema, _Reader, input_shape

MAX_SUMMARY = 3  # a server's conversion function calling another one, followed this deep


def descriptor_schema(node: ts.Node, module: Module, vocab: dict, link=None, bind=None) -> Schema:
    """A low-level descriptor's inputSchema. BIND (node -> (node, module)) reads a parameter as the argument of a call
    site (a descriptor made by a function)."""
    if bind is not None:
        bound, where = bind(node)
        plain = strip_casts(node)
        if bound is not None and plain is not None and (where is not module or bound.id != plain.id):
            read = descriptor_schema(bound, where, vocab, link)  # `inputSchema: schema`, a parameter
            if read.form != "unknown":
                return replace(read, module=where)
    found = _read(node, module, vocab, link, bind, 0, None)
    if found is None and bind is None:
        found = _written(node, module, vocab, link)
    if found is not None:
        return found
    return Schema(value=NOT_LITERAL, node=node, form="unknown",
                  problems=((f"input schema `{excerpt(node)}` is neither a literal nor a zod conversion", node),))


def _read(node: ts.Node, module: Module, vocab: dict, link, bind, depth: int, home: Module | None) -> Schema | None:
    """A JSON Schema literal or a conversion call, or None when NODE is neither. HOME, in a summary: the module of the
    descriptor, which the result is reported in."""
    value = literal(node, module.toplevel)
    if value is not NOT_LITERAL:
        return Schema(value=value, node=node, form="json-schema")
    call = strip_casts(node)
    if call is None or call.type != "call_expression":
        return None
    r = _Reader(module, vocab, link)
    arg, converts = _converted(call, r, bind)
    if not converts:
        return _summary(call, module, vocab, link, node, depth, home or module)
    if arg is None:
        return Schema(value=NOT_LITERAL, node=node, form="unknown",
                      problems=((f"input schema `{excerpt(node)}` is a conversion of nothing", node),))
    target, tmod = bind(arg) if bind is not None else (arg, module)
    if target is None:
        return Schema(value=NOT_LITERAL, node=node, form="unknown",
                      problems=((f"input schema `{excerpt(node)}`: its argument is not passed", node),))
    if home is not None:  # in a summary: a parameter in the converted expression is the call's argument
        r = _Bound(tmod, vocab, link, bind if tmod is module else None, home)
    elif tmod is not module:  # a parameter: the schema its call site hands over
        r = _Reader(tmod, vocab, link)
    spec, _ = r.read(target, "")
    if spec is None:
        return Schema(value=NOT_LITERAL, node=node if tmod is module else None, form="unknown",
                      problems=tuple(r.problems), coercions=tuple(r.coercions), module=tmod)
    return Schema(value=spec, node=r.definition(target) or (node if tmod is module else None), form="zod-to-json-schema",
                  coercions=tuple(r.coercions), problems=tuple(r.problems), module=tmod)


def _converted(call: ts.Node, r: _Reader, bind) -> tuple[ts.Node | None, bool]:
    """(the zod schema CALL converts, whether CALL is a conversion): a function of a conversion library (kb/sdk.yaml
    zod.to_json_schema, by its name or as `lib_1.name` of CommonJS), zod's own (`z.toJSONSchema(x)`), or a schema's
    method (`x.toJSONSchema()`). Compiled CommonJS calls them as `(0, lib_1.name)(x)`."""
    fn = call_function(call)
    chain = r.zchain(member_chain(fn))
    args = call_args(call)
    first = args[0] if args else None
    source, name = r.imported.get(chain[0], ("", "")) if chain else ("", "")
    if source and not source.startswith(".") and (  # a converter imported from its package under a name of the server's
            len(chain) == 1 and (name in r.z["to_json_schema"] or name == "default" and source in r.z["to_json_schema_packages"])
            or len(chain) == 2 and name in {"*", "default"} and chain[1] == "default" and source in r.z["to_json_schema_packages"]):
        return first, True  # `import { zodToJsonSchema as convert }`, `import convert from`, `(0, lib_1.default)(x)`
    if chain and chain[-1] in r.z["to_json_schema"]:
        if len(chain) == 1 and r.link is not None and r.link.resolve(r.module, fn) is not None:
            return None, False  # the server's own function of that name: a summary, if any
        package = r.imported.get(chain[0], ("", ""))
        if len(chain) == 1 or len(chain) == 2 and package[1] in {"*", "default"} and not package[0].startswith("."):
            return first, True
    if chain and len(chain) == 2 and chain[0] in r.ns and chain[1] in r.z["namespace_to_json_schema"]:
        return first, True
    if fn is not None and fn.type == "member_expression" \
            and text(fn.child_by_field_name("property")) in r.z.get("schema_to_json_schema", ()):
        receiver = fn.child_by_field_name("object")
        bound = bind(receiver)[0] if bind is not None else None  # a parameter: what its call site hands over
        if r.is_zod(receiver) or bound is not None and bound.id != strip_casts(receiver).id:
            return receiver, True
    return None, False


def _summary(call: ts.Node, module: Module, vocab: dict, link, node: ts.Node, depth: int, home: Module) -> Schema | None:
    """`f(x)`, f a function of the boundary whose one returned value is a conversion (or a JSON Schema literal): that
    value read with f's parameters bound to the call's arguments, reported where the call is written."""
    if link is None or depth >= MAX_SUMMARY:
        return None
    values = Values(link)
    fn, fmod = values.function_of(call_function(call), module, None)
    if fn is None or not (fn.type in FUNCTION_TYPES or fn.type == "method_definition"):
        return None
    frame = Frame(scope=fn, module=fmod, names=parameters(fn), args=tuple(call_args(call)), caller=module, site=call,
                  evaluated=True)
    bind = lambda n: values.bound(n, fmod, frame)  # noqa: E731
    reader = _Reader(fmod, vocab, link)
    out = zod_wrappers.single(fn, returned(fn), fmod, vocab["zod"].get("named_definitions"),
                              lambda c: _converted(c, reader, bind)[1])
    if out is None:
        return None
    read = _read(out, fmod, vocab, link, bind, depth + 1, home)
    return _settle(read, home, node, link, read.module or fmod) if read is not None else None


def bound_reader(module: Module, vocab: dict, link, bind) -> _Reader:
    """A zod reader of code in MODULE that reads a parameter as what BIND (node -> (node, module)) gives: a forwarding
    function's parameter as its call site's argument (`z.object(shape)` in `const tool = (name, shape) => ...`)."""
    return _Bound(module, vocab, link, bind, module)


class _Bound(_Reader):
    """A reader of a function's body whose parameters stand for a call's arguments (BIND), each read where it is
    written; HOME is the module the result is reported in (each coercion names the file it is written in)."""

    def __init__(self, module: Module, vocab: dict, link, bind, home: Module):
        super().__init__(module, vocab, link)
        self.bind, self.home = bind, home

    def _argument(self, node: ts.Node | None) -> tuple[ts.Node, Module] | None:
        node = strip_casts(node)
        if self.bind is None or node is None or node.type != "identifier" or value_of(self.module, node) is not None:
            return None
        value, where = self.bind(node)
        value = strip_casts(value)
        if value is None or (where is self.module and value.id == node.id):
            return None
        return value, where

    def _merge(self, sub: _Reader, at: ts.Node) -> None:
        self.problems += sub.problems
        self.coercions += sub.coercions

    def shape(self, node, path, depth=0):
        return self._there(node, path, depth, super().shape, _Reader.shape)

    def _base_spec(self, node, path, depth):
        return self._there(node, path, depth, super()._base_spec, _Reader.read)

    def _there(self, node, path, depth, here, there):
        """HERE reads NODE as written; a parameter bound to an argument is read by THERE where the argument is."""
        hit = self._argument(node)
        if hit is None:
            return here(node, path, depth)
        sub = _Reader(hit[1], self.vocab, self.link)
        out = there(sub, hit[0], path, depth + 1)
        self._merge(sub, node)
        return out


def _settle(read: Schema, home: Module, at: ts.Node, link, where: Module) -> Schema:
    """READ (read in WHERE) as the descriptor in HOME reports it: anchored at AT when written elsewhere; a problem
    written in another file is anchored at AT and names that file; a coercion names its own file."""
    problems = []
    for msg, n in read.problems:
        m = link.module_of(n) if link is not None else None
        problems.append((msg, n) if m is home else (f"{msg} (in {(m or where).path})", at))
    node = read.node if read.node is not None and link is not None and link.module_of(read.node) is home else at
    return replace(read, node=node, problems=tuple(problems), module=None)


def _written(node: ts.Node, module: Module, vocab: dict, link) -> Schema | None:
    """An inputSchema that names what is written elsewhere (in this module or another): a JSON Schema literal, read
    part by part; a zod schema or a raw shape, read as what converting it gives (form `zod`)."""
    r = _Reader(module, vocab, link)
    target, tmod = r.definition(node), module
    chain = member_chain(target) if target is not None and target.type in {"identifier", "member_expression"} else None
    if chain and link is not None and len(chain) <= 2:
        where = link.binding(module, chain[0]) if len(chain) == 1 else None
        value = link.value(*where) if where is not None and where[0] is not module else None
        plain = strip_casts(value)
        json = plain is not None and plain.type == "object" and {"type", "properties"} & set(object_pairs(plain)) \
            and not _Reader(where[0], vocab, link).is_raw_shape(plain)  # a JSON Schema literal, not a zod shape
        if value is not None and (json or r._across(target, "", 0) is None):
            tmod = where[0]
            target = _Reader(tmod, vocab, link).definition(value)
    target = strip_casts(target)
    if target is None:
        return None
    tr = _Reader(tmod, vocab, link)
    env = literal_env(link, tmod)
    made = folded(target, env, link) if target.type == "call_expression" else None  # `inputSchema: schemaFor("x")`
    if made is not None and {"type", "properties"} & set(object_pairs(made[0])):
        target, env = made
    if target.type == "object" and {"type", "properties"} & set(object_pairs(target)) and not tr.is_raw_shape(target):
        problems: list = []
        value = _partial(target, env, "", problems, 0, link)
        read = Schema(value=value if isinstance(value, dict) else NOT_LITERAL, node=target,
                      form="json-schema" if isinstance(value, dict) else "unknown", problems=tuple(problems))
        return _settle(read, module, node, link, tmod) if link is not None else read
    if tr.is_zod(target) or target.type == "object" or r._across(strip_casts(node), "", 0) is not None:
        read = input_shape(node, module, vocab, link)
        return _settle(read, module, node, link, module) if link is not None else read
    return None


def _partial(node: ts.Node | None, env, path: str, problems: list, depth: int, link=None):
    """The literal NODE stands for, with each part that is not one left out and named in PROBLEMS by its path (a
    property whose schema is unknown stays, as any value: `{}`). A call of a helper of the server that returns an object
    literal is that literal, its parameters bound to the call's arguments (extract/helpers.py)."""
    value = literal(node, env)
    node = strip_casts(node)
    if value is not NOT_LITERAL or node is None or depth > 20:
        return value
    if node.type == "identifier":
        bound = env(node)
        if bound is not None:
            return _partial(bound, env, path, problems, depth + 1, link)
    if node.type == "call_expression" and (made := folded(node, env, link)) is not None:
        return _partial(made[0], made[1], path, problems, depth + 1, link)
    if node.type == "object":
        out: dict = {}
        for child in node.named_children:
            if child.type == "spread_element":
                inner = _partial(child.named_children[0], env, path, problems, depth + 1, link) if child.named_children else None
                if isinstance(inner, dict):
                    out.update(inner)
                elif inner is not NOT_LITERAL:
                    problems.append((f"input schema `{path or '.'}`: spread `{excerpt(child)}` is not an object", child))
                continue
            if child.type == "pair":
                key, value_node = property_name(child.child_by_field_name("key")), child.child_by_field_name("value")
            elif child.type == "shorthand_property_identifier":
                key, value_node = text(child), child
            else:
                continue
            sub = _partial(value_node, env, f"{path}.{key}" if path else key, problems, depth + 1, link)
            if sub is not NOT_LITERAL:
                out[key] = sub
            elif path.rsplit(".", 1)[-1] == "properties":
                out[key] = {}
        return out
    problems.append((f"input schema `{path or '.'}`: `{excerpt(node)}` is not a literal; left out", node))
    return NOT_LITERAL
