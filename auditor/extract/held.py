"""Every value an expression may hold, in any run, when the code fixes them all: a constant (syntax.literal, its names
read as below), the element of a `for (const x of XS)` loop over lists held so, a parameter at every call of its
function (when the boundary names that function nowhere else), a member or an entry of a record held so (`GROUPS[k]`
of a grouping `reduce` over a constant record, for each key k may be). Read with no frame: a loop's variable stands
for every element of every list the loop may walk. None whenever one of those values is not known, or a name is
changed after it is set (assigned again, a member of it assigned, a list or map method that changes it called on it).
"""

from __future__ import annotations

import copy
import re

import tree_sitter as ts

from auditor.extract import dead
from auditor.extract.bindings import shadowed, value_of, visible
from auditor.extract.frames import loop_names, parameters
from auditor.extract.program import Module
from auditor.extract.syntax import (FUNCTION_TYPES, NOT_LITERAL, Known, ancestors, call_args, function_name, literal,
                                    member_chain, strip_casts, text, within)

MAX_DEPTH = 10
_MAX_VALUES = 256  # more values than this for one expression: not read
_CHANGES = frozenset({"push", "unshift", "splice", "pop", "shift", "sort", "reverse", "fill", "copyWithin", "set",
                      "delete", "clear", "add", "assign"})
_ASSIGN = re.compile(r"=(?![=>])|(?:[-+*/%&|^]|\*\*|<<|>>>?|\|\||&&|\?\?)=")
_GLOBALS = frozenset({"Object", "Array", "JSON", "String", "Number", "Boolean", "Math", "Promise", "console",
                      "Set", "Map", "structuredClone"})  # the language's own: they read what they are handed
_MEMBER = re.compile(r"\s*(?:\?\.|\.)\s*[\w$]+")
_UNREAD = object()  # a memo entry being read (a cycle gives nothing)
_SCOPES = frozenset({"program", "statement_block"})  # a declaration here binds a name of the module's own


def possible(values, node: ts.Node | None, module: Module, depth: int = 0) -> list | None:
    """The values NODE may hold (see the module's note), or None."""
    node = strip_casts(node)
    if node is None or depth > MAX_DEPTH or values.link is None:
        return None
    memo = values.link.memo.setdefault("held", {})
    key = (module.path, node.id)
    found = memo.get(key)
    if found is _UNREAD:
        return None
    if key in memo:
        return found
    memo[key] = _UNREAD
    memo[key] = found = _held(values, node, module, depth)
    return found


def _held(values, node: ts.Node, module: Module, depth: int) -> list | None:
    if node.type == "identifier":
        return _name(values, node, module, depth)
    if node.type in {"subscript_expression", "member_expression"}:
        holders = possible(values, node.child_by_field_name("object"), module, depth + 1)
        index = node.child_by_field_name("index")
        keys = possible(values, index, module, depth + 1) if node.type == "subscript_expression" \
            else [text(node.child_by_field_name("property"))]
        if holders is None or keys is None or len(holders) * len(keys) > _MAX_VALUES:
            return None
        out = []
        for h in holders:
            for k in keys:
                if isinstance(h, list) and k == "length":
                    out.append(len(h))
                elif isinstance(h, dict) and isinstance(k, str):
                    out.append(h.get(k))  # (a key the record lacks: undefined)
                else:
                    return None
        return out

    def env(ident: ts.Node):  # (a copy: literal changes the records a reduce fills in place)
        got = possible(values, ident, module, depth + 1)
        return Known(copy.deepcopy(got[0])) if got is not None and len(got) == 1 else None
    value = literal(node, env)
    return None if value is NOT_LITERAL else [value]


def _name(values, node: ts.Node, module: Module, depth: int) -> list | None:
    name = text(node)
    if name == "undefined":
        return [None]
    local = visible(node, name)  # (a local declared nearer than a loop or a parameter of the same name hides it)
    for scope in ancestors(node):
        if local is not None and within(local, scope):
            break
        if scope.type == "for_in_statement":
            body = scope.child_by_field_name("body")
            names = loop_names(scope.child_by_field_name("left"))
            if name not in names or body is None or not within(node, body):
                continue
            if names[name] != (0, ()) or text(scope.child_by_field_name("operator")) != "of":
                return None
            lists = possible(values, scope.child_by_field_name("right"), module, depth + 1)
            if lists is None or not all(isinstance(x, list) for x in lists if x is not None):
                return None  # (`for (x of undefined)` throws: no element)
            return _capped([v for x in lists if x is not None for v in x])
        if scope.type in FUNCTION_TYPES and name in parameters(scope):
            index, path = parameters(scope)[name]
            return None if path else _argued(values, scope, index, module, depth)
    value = value_of(module, node)
    where = module
    if value is None:
        bound = values.link.binding(module, name)
        if bound is None or bound[0] is module or bound[1] == "*":
            return None
        where, value = bound[0], values.link.value(bound[0], bound[1])
        if value is None:
            return None
        name = bound[1]
    if not unchanged(values, name, value, where):
        return None
    return possible(values, value, where, depth + 1)


def unchanged(values, name: str, value: ts.Node, module: Module, shared: bool = False, scalar: bool = False) -> bool:
    """Whether NAME, set to VALUE in MODULE, is never changed (see _unchanged); memoised per program. With SHARED,
    a name handed on whole to another holder (`[LIST]`, `{ LIST }`, `return LIST`) may still be unchanged: what
    holds it then is not followed (extract/evaluate.py reads a record's fields as written). With SCALAR (VALUE a
    string, a number, a boolean: nothing can change it in place), only setting NAME again changes it."""
    memo = values.link.memo.setdefault("held.unchanged", {})
    key = (module.path, name, value.id, shared, scalar)
    if key not in memo:
        memo[key] = _unchanged(values, name, value, module, shared=shared, scalar=scalar)
    return memo[key]


def _argued(values, fn: ts.Node, index: int, module: Module, depth: int) -> list | None:
    """What parameter INDEX of FN is handed at each of its calls, when the boundary writes FN's name nowhere but
    there and where it is defined (nothing else can call it)."""
    calls = only_calls(values.link, fn)
    if calls is None:
        return None
    out: list = []
    for cmod, call in calls:
        args = call_args(call)
        if index >= len(args) or any(a.type == "spread_element" for a in args[:index + 1]):
            return None
        got = possible(values, args[index], cmod, depth + 1)
        if got is None:
            return None
        out += got
    return _capped(out)


def only_calls(link, fn: ts.Node) -> list[tuple[Module, ts.Node]] | None:
    """The calls of FN (with their modules), when nothing else can call it: the boundary writes FN's name nowhere but
    at them and where FN is defined, or FN is a function bound to a name of its module's own (declared, or a
    variable's value, not exported, not a method: nothing outside the module can name it) and the module writes that
    name nowhere else (a minified bundle reuses short names in every module); else None."""
    calls = link.callers(fn)
    name = function_name(fn)
    if not calls or name is None:
        return None
    word = name.encode()
    if dead.boundary_words(link).get(word, 0) == len(calls) + 1:
        return calls
    home = link.module_of(fn)
    holder = fn if fn.type == "function_declaration" else fn.parent.parent \
        if fn.parent is not None and fn.parent.type == "variable_declarator" else None
    if home is None or holder is None or holder.parent is None or holder.parent.type not in _SCOPES \
            or any(m is not home for m, _ in calls) or dead.module_words(link, home).get(word, 0) != len(calls) + 1:
        return None
    return calls


def _unchanged(values, name: str, value: ts.Node, module: Module, depth: int = 0, shared: bool = False,
               scalar: bool = False) -> bool:
    """Whether NAME, set to VALUE, is never changed: the code that can see it (its function, else its module, and
    for a name the module exports each importer under the name it imports it by, or every module when some module
    imports it whole as a namespace) assigns it or a member of it once (where VALUE is set), calls no
    method on it that changes it (push, set, splice...), hands it to neither Object.assign nor `delete`, hands it
    only to functions of the boundary that change no parameter it becomes (or to the language's own that read it:
    `Object.entries(M)`, `new Set(L)`), and hands it on whole to no other holder (`const l = LIST`, `return LIST`,
    `[LIST]`, `{ LIST }`)."""
    scope = next((a for a in ancestors(value) if a.type in FUNCTION_TYPES), None)
    holder = value.parent
    while holder is not None and holder.type not in {"variable_declarator", "assignment_expression"}:
        holder = holder.parent if holder.type in {"parenthesized_expression", "as_expression"} else None
    if holder is None:
        return False
    if scope is not None and holder.type == "variable_declarator":
        spans = [(module, scope)]
    elif _exported(values.link, module, name):
        importers = _importers(values.link, module, name)
        if importers is not None:  # the module's own writes of it, and each importer's of the name it imports
            return _kept(values, name, [(module, module.tree.root_node)], 1, depth, own=True, shared=shared,
                         scalar=scalar) and all(
                _kept(values, alias, [(m, m.tree.root_node)], 0, depth, own=True, shared=shared, scalar=scalar)
                for m, alias in importers)
        spans = [(m, m.tree.root_node) for m in values.link.by_path.values()]
    else:
        return _kept(values, name, [(module, module.tree.root_node)], 1, depth, own=True, shared=shared,
                     scalar=scalar)
    return _kept(values, name, spans, 1, depth, shared=shared, scalar=scalar)


def assigned_unchanged(values, module: Module, name: str, value: ts.Node) -> bool:
    """Whether the CommonJS export NAME of MODULE, set to VALUE (`exports.NAME = VALUE`, tsc's `exports.NAME = void 0`
    before it aside), is never changed: no other write of `exports.NAME` (or `module.exports.NAME`), no method that
    changes it called on it, no member of it written, nor through a module's namespace of MODULE (`ns_1.NAME.push(x)`
    of `const ns_1 = require("./m")`); handed to a call only of the language's own functions that read it."""
    memo = values.link.memo.setdefault("held.assigned_unchanged", {})
    key = (module.path, name, value.id)
    if key not in memo:
        spans = [(module, ("exports", "module.exports"))]
        for path, bound in values.link.imports.items():
            m = values.link.by_path.get(path)
            spans += [(m, (alias,)) for alias, b in bound.items() if m is not None and b.name == "*"
                      and b.module == module.path]
        memo[key] = all(_export_kept(m, holders, name, value) for m, holders in spans)
    return memo[key]


def _export_kept(module: Module, holders: tuple[str, ...], name: str, value: ts.Node) -> bool:
    """Whether `HOLDER.NAME` (HOLDER one of HOLDERS) is written in MODULE only as VALUE or `void 0`, and changed
    nowhere there (assigned, a member of it assigned, a changing method called on it, handed to a call)."""
    wanted = {f"{h}.{name}" for h in holders}
    for node in _members_named(module, name):
        if text(node) not in wanted:
            continue
        up = node.parent
        if up is not None and up.type in {"assignment_expression", "augmented_assignment_expression"} \
                and up.child_by_field_name("left") == node:
            right = strip_casts(up.child_by_field_name("right"))
            while right is not None and right.type == "assignment_expression":  # `exports.a = exports.b = void 0`
                right = strip_casts(right.child_by_field_name("right"))
            if up.type != "assignment_expression" or right is None or (
                    right.id != value.id and text(right) not in {"void 0", "undefined"}):
                return False
            continue
        if up is not None and up.type in {"member_expression", "subscript_expression"} \
                and up.child_by_field_name("object") == node:
            above = up.parent
            if above is not None and above.type in {"assignment_expression", "augmented_assignment_expression",
                                                    "update_expression"} and above.child_by_field_name("left") == up:
                return False  # `exports.NAME.x = y`
            if above is not None and above.type == "call_expression" and above.child_by_field_name("function") == up \
                    and up.type == "member_expression" and text(up.child_by_field_name("property")) in _CHANGES:
                return False  # `exports.NAME.push(x)`
            continue
        if up is not None and up.type == "arguments":
            call = up.parent
            chain = member_chain(call.child_by_field_name("function")) if call is not None \
                and call.type == "call_expression" else None
            if not chain or chain[0] not in _GLOBALS or chain[-1] in _CHANGES:
                return False  # (handed to a function that may change it)
    return True


def _members_named(module: Module, name: str) -> list[ts.Node]:
    """The member expressions of MODULE whose property is NAME (its indexed members, grouped once: `module.memo`)."""
    index = module.memo.get("held.members")
    if index is None:
        index = module.memo["held.members"] = {}
        for n in module.nodes("member"):
            prop = n.child_by_field_name("property") if n.type == "member_expression" else None
            if prop is not None:
                index.setdefault(text(prop), []).append(n)
    return index.get(name, [])


def _exported(link, module: Module, name: str) -> bool:
    """Whether MODULE exports its top-level NAME (under any name)."""
    return link.exported(module.path, name) is not None \
        or any(link.exported(module.path, e) == (module, name) for e in link.exports.get(module.path, {}))


def _importers(link, module: Module, name: str) -> list[tuple[Module, str]] | None:
    """(module, the name it is bound to there) for each import of MODULE's NAME by an ES `import`; None when some
    module imports MODULE whole (a namespace: `ns.NAME` is read there) or the boundary loads it otherwise."""
    index = link.memo.get("held.importers")
    if index is None:  # (home path, local name) -> its importers; the modules some namespace import may reach
        index = link.memo["held.importers"] = ({}, set())
        for path, bound in link.imports.items():
            if path not in link.by_path:
                continue
            for alias, b in bound.items():
                if b.module is None:
                    continue
                if b.name == "*":
                    index[1].add(b.module)
                    continue
                home = link.exported(b.module, b.name)
                if home is not None and home[1] != "*":
                    index[0].setdefault((home[0].path, home[1]), []).append((link.by_path[path], alias))
    names = [e for e in link.exports.get(module.path, {}) if link.exported(module.path, e) == (module, name)]
    for space in index[1]:  # a namespace of MODULE, or of a module that re-exports NAME
        if space == module.path or any(link.exported(space, e) == (module, name) for e in names):
            return None
    return list(index[0].get((module.path, name), ()))


def _kept(values, name: str, spans: list[tuple[Module, ts.Node]], sets_allowed: int, depth: int,
          own: bool = False, shared: bool = False, scalar: bool = False) -> bool:
    """Whether NAME is set at most SETS_ALLOWED times in SPANS (module, node) and changed nowhere there (_unchanged).
    With OWN, NAME is a top-level name of each span's module: where a function declares a name of its own so (a
    minifier reuses one-letter names), that is another variable."""
    word = re.compile(rb"(?<![\w$.])" + re.escape(name.encode()) + rb"(?![\w$])")
    sets = 0
    for module, span in spans:
        source, base = span.text, span.start_byte
        for hit in word.finditer(source):
            if own and _local(module, base + hit.start(), base + hit.end()):
                continue
            before = source[max(0, hit.start() - 16):hit.start()].decode("utf-8", "replace")
            if before.rstrip().endswith(("delete", "Object.assign(")):
                return False
            after = source[hit.end():hit.end() + 300].decode("utf-8", "replace")
            end = _members(after)
            rest, members = after[end:].lstrip(), after[:end]
            if _ASSIGN.match(rest):  # `NAME = ...` where it is set, else `NAME = ...` again or `NAME[k] ||= ...`
                sets += 1
            elif not members and (rest.startswith(("++", "--")) or before.rstrip().endswith(("++", "--"))):
                return False  # `NAME++`
            if scalar:
                continue
            last = re.findall(r"[\w$]+", members)
            if rest.startswith("(") and last and last[-1] in _CHANGES:
                return False  # `NAME.push(x)`
            if not members and not _read_where_handed(values, module, base + hit.start(), base + hit.end(), depth,
                                                      shared):
                return False  # `fill(NAME)`, fill changing its parameter
    return sets <= sets_allowed


def _local(module: Module, start: int, end: int) -> bool:
    """Whether the name written at START..END of MODULE is one a function around it declares (bindings.shadowed)."""
    node = module.tree.root_node.descendant_for_byte_range(start, end)
    return node is not None and node.type in {"identifier", "shorthand_property_identifier"} and shadowed(module, node)


def _read_where_handed(values, module: Module, start: int, end: int, depth: int, shared: bool = False) -> bool:
    """Whether the name written at START..END of MODULE is only read there: not handed on whole (_escapes), and when
    it is an argument, the call is of a function of the boundary whose parameter it becomes is changed nowhere in
    it, or of the language's own functions other than Object.assign (`Object.entries(M)`, `new Set(L)`)."""
    node = module.tree.root_node.descendant_for_byte_range(start, end)
    if not shared and (node is not None and node.type == "shorthand_property_identifier" or _escapes(node)):
        return False  # (`{ LIST }`, `const l = LIST`, `return LIST`: another name holds it, and may change it)
    if node is None or node.parent is None or node.parent.type != "arguments":
        return True
    call = node.parent.parent
    if call is None or call.type == "new_expression":  # `new Set(L)`, `new Map(E)`: a copy (a class's own may keep
        made = call.child_by_field_name("constructor") if call is not None else None  # it, and change it later)
        return made is not None and text(made) in _GLOBALS
    hit = values.link.resolve(module, call) if call.type == "call_expression" else None
    if hit is None:
        chain = member_chain(call.child_by_field_name("function")) or ()
        return bool(chain) and chain[0] in _GLOBALS and chain[-1] not in _CHANGES
    fn = hit[1]
    index = next((i for i, a in enumerate(call_args(call)) if a.id == node.id), None)
    params = [p for p, (i, path) in parameters(fn).items() if i == index and not path]
    if depth > 3 or index is None or len(params) != 1:
        return False
    return _kept(values, params[0], [(hit[0], fn)], 0, depth + 1, shared=shared)


def _escapes(node: ts.Node | None) -> bool:
    """Whether the name NODE is handed on whole to another holder: a variable's value, a returned value or an arrow
    function's result (dead.value_position), a value assigned or set as an object's member, an element of a list."""
    if node is None or dead.value_position(node) is not None:
        return node is not None
    parent = node.parent
    if parent is not None and parent.type in {"assignment_expression", "pair"}:
        got = parent.child_by_field_name("right" if parent.type == "assignment_expression" else "value")
        return got is not None and got.id == node.id
    return parent is not None and parent.type == "array"


def _capped(found: list) -> list | None:
    return found if len(found) <= _MAX_VALUES else None


def _members(after: str) -> int:
    """Where the members read after a name end in AFTER (`.a?.b[k[0]]`: brackets nested), 0 for none."""
    at = 0
    while True:
        dot = _MEMBER.match(after, at)
        if dot is not None:
            at = dot.end()
            continue
        open_ = at + len(after[at:]) - len(after[at:].lstrip())
        if open_ >= len(after) or after[open_] != "[":
            return at
        depth = 0
        for i in range(open_, len(after)):
            depth += {"[": 1, "]": -1}.get(after[i], 0)
            if depth == 0:
                break
        else:
            return at  # (no closing bracket within the text read)
        at = i + 1
