"""Small, pure helpers over tree-sitter nodes: text, lines, walking and literal values."""

from __future__ import annotations

import re
from array import array
from bisect import bisect_left
from typing import Any, Callable, Iterator

import tree_sitter as ts

CLASS_TYPES = frozenset({"class_declaration", "abstract_class_declaration", "class"})  # a class, declared or an expression
FUNCTION_TYPES = frozenset({"function_declaration", "function_expression", "arrow_function",
                            "method_definition", "generator_function_declaration", "generator_function", "function"})
CAST_TYPES = frozenset({"as_expression", "satisfies_expression", "non_null_expression",
                        "parenthesized_expression", "type_assertion"})


class NotLiteral:
    """Marks a value that is not a compile-time literal."""

    def __repr__(self) -> str:
        return "<not literal>"


NOT_LITERAL = NotLiteral()


def text(node: ts.Node | None) -> str:
    return "" if node is None else node.text.decode("utf-8", "replace")


def excerpt(node: ts.Node | None, limit: int = 60) -> str:
    """The start of a node's text on one line (runs of white space made one space), for messages."""
    if node is None:
        return ""
    head = node.text[:limit * 8].decode("utf-8", "replace")
    return " ".join(head.split())[:limit]


def lines(node: ts.Node) -> tuple[int, int]:
    return node.start_point[0] + 1, node.end_point[0] + 1


# Walk index: every analysis walks function bodies and whole files, many times over. The first walk
# into a tree lays out that tree's named nodes once, in pre-order, with where each subtree ends; every
# later walk is a slice. Keys are node ids (addresses, unique while the tree lives); the index holds the
# nodes and so keeps their trees alive, and `forget()` drops it (the orchestrator calls it per audit).
_flat: list[ts.Node] = []
_ends = array("q")  # machine integers, not int objects: an index of a large bundle holds millions
_pos: dict[int, int] = {}
_by_type: dict[str, array] = {}  # node type -> its positions in _flat, ascending
_depth: dict[int, int] = {}  # root node id -> the deepest nesting of named nodes in its tree (the root is 0)
# Position in _flat of each node's parent (-1: none; -2: not known, a node laid out alone). tree-sitter finds a
# node's parent by descending from the root (Node.parent costs the depth), so a walk up the ancestors of every node
# of a deep tree (a chain of 1,000 `else if`) would cost the cube of the depth: this makes each step O(1).
_parents = array("q")


def walk(node: ts.Node) -> list[ts.Node]:
    """The named descendants of `node`, itself included, in pre-order."""
    i = _pos.get(node.id)
    if i is None:
        i = _index(node)
    return _flat[i:_ends[i]]


def find(node: ts.Node, types: frozenset[str] | set[str]) -> list[ts.Node]:
    """The nodes of `walk(node)` whose type is in `types`, in the same order (without visiting the others)."""
    i = _pos.get(node.id)
    if i is None:
        i = _index(node)
        if node.id not in _pos:  # an anonymous node: no layout to search
            return [n for n in walk(node) if n.type in types]
    j = _ends[i]
    hits: list[int] = []
    for kind in types:
        where = _by_type.get(kind)
        if where:
            hits += where[bisect_left(where, i):bisect_left(where, j)]
    if len(types) > 1:
        hits.sort()
    flat = _flat
    return [flat[k] for k in hits]


def _index(node: ts.Node, limit: int | None = None) -> int | None:
    """Lay out the whole tree that holds `node`; returns the position of `node`. With LIMIT, a tree that nests deeper
    is not laid out (None): the layout stops there, so that a refused tree costs little."""
    root = node
    while root.parent is not None:
        root = root.parent
    if root.id in _pos:  # laid out already: `node` is anonymous
        return _index_alone(node)
    flat, ends, pos, by_type, parents = _flat, _ends, _pos, _by_type, _parents
    stack: list[ts.Node | None] = [root]
    open_: list[int] = []  # the positions of the ancestors of the next node: its depth is their number
    deepest = 0
    while stack:
        cur = stack.pop()
        if cur is None:
            ends[open_.pop()] = len(flat)
            continue
        if len(open_) > deepest:
            deepest = len(open_)
            if limit is not None and deepest > limit:
                _undo(pos[root.id] if root.id in pos else len(flat))
                _depth[root.id] = deepest
                return None
        i = len(flat)
        pos[cur.id] = i
        flat.append(cur)
        ends.append(i + 1)
        parents.append(open_[-1] if open_ else -1)
        kind = cur.type
        where = by_type.get(kind)
        if where is None:
            where = by_type[kind] = array("q")
        where.append(i)
        children = cur.named_children
        if children:
            open_.append(i)
            stack.append(None)
            stack.extend(reversed(children))
    _depth[root.id] = deepest
    found = pos.get(node.id)
    if found is None:  # an anonymous node: not in the layout; index it alone
        return _index_alone(node)
    return found


def depth(root: ts.Node, limit: int | None = None) -> int:
    """How deep named nodes nest in the tree of `root` (a root node): measured while laying the tree out for walk(),
    which every analysis needs anyway, so it costs nothing more. Over LIMIT, the tree is not laid out, and the depth
    given is LIMIT + 1 (the layout stopped there)."""
    if root.id not in _pos and root.id not in _depth:
        _index(root, limit)
    return _depth[root.id]


def drop(root: ts.Node) -> None:
    """Take the tree of `root` (a root node) out of the walk index, when it was the last laid out: a file refused
    after its layout (too deep to analyse) holds no memory until forget()."""
    _depth.pop(root.id, None)
    i = _pos.get(root.id)
    if i is not None and _ends[i] == len(_flat):
        _undo(i)


def _undo(i: int) -> None:
    """Take every node laid out from position i on out of the index."""
    _nearest.clear()
    for n in _flat[i:]:
        _pos.pop(n.id, None)
    del _flat[i:]
    del _ends[i:]
    del _parents[i:]
    for where in _by_type.values():
        while where and where[-1] >= i:
            where.pop()


def _index_alone(node: ts.Node) -> int:
    i = len(_flat)
    _flat.extend(_preorder(node))
    _ends.extend([len(_flat)] * (len(_flat) - i))  # only position i is ever looked up
    _parents.extend([-2] * (len(_flat) - i))
    return i


def _preorder(node: ts.Node) -> Iterator[ts.Node]:
    stack = [node]
    while stack:
        cur = stack.pop()
        yield cur
        stack.extend(reversed(cur.named_children))


_chains: dict[int, tuple[ts.Node, tuple[str, ...] | None]] = {}  # member_chain() by node id
_memos: list[dict] = []  # the memos of other modules by node id, dropped with these (memo())


def memo() -> dict:
    """A memo by node id that forget() drops with the others (its values keep their nodes, so the ids, alive)."""
    out: dict = {}
    _memos.append(out)
    return out


def forget() -> None:
    """Drop the walk index and the member_chain() memo (and with them the references they hold to trees)."""
    _flat.clear()
    del _ends[:]
    del _parents[:]
    _pos.clear()
    _by_type.clear()
    _depth.clear()
    _nearest.clear()
    _chains.clear()
    for m in _memos:
        m.clear()


def parent(node: ts.Node) -> ts.Node | None:
    """node.parent, in O(1) for a node of a tree laid out by walk()."""
    i = _pos.get(node.id)
    j = _parents[i] if i is not None else -2
    return node.parent if j == -2 else _flat[j] if j >= 0 else None


def within(node: ts.Node, outer: ts.Node | None) -> bool:
    """Whether NODE lies inside OUTER (by byte span: both of one file)."""
    return outer is not None and outer.start_byte <= node.start_byte and node.end_byte <= outer.end_byte


def ancestors(node: ts.Node) -> Iterator[ts.Node]:
    cur = parent(node)
    while cur is not None:
        yield cur
        cur = parent(cur)


# (types, position) -> position of the nearest ancestor-or-self of one of those types (-1: none), for enclosing():
# filled along every path it walks, so that asking it for every node of a deep tree costs O(n), not O(n x depth).
_nearest: dict[tuple[frozenset, int], int] = {}


def enclosing(node: ts.Node, types: frozenset[str] | set[str]) -> ts.Node | None:
    i = _pos.get(node.id)
    if i is not None and _parents[i] != -2:
        types = types if isinstance(types, frozenset) else frozenset(types)
        j = _parents[i]
        if j < 0:
            return None
        walked: list[int] = []
        found = -1
        while j >= 0:
            hit = _nearest.get((types, j))
            if hit is not None:
                found = hit
                break
            walked.append(j)
            if _flat[j].type in types:
                found = j
                break
            j = _parents[j]
        for k in walked:
            _nearest[(types, k)] = found
        return _flat[found] if found >= 0 else None
    for anc in ancestors(node):
        if anc.type in types:
            return anc
    return None


def function_name(fn: ts.Node) -> str | None:
    """The name FN is called by: a method's or a declared function's own, or the variable's it is assigned to."""
    own = fn.child_by_field_name("name")
    if own is not None:
        return text(own)
    holder = fn.parent
    if holder is not None and holder.type == "variable_declarator":
        named = holder.child_by_field_name("name")
        return text(named) if named is not None and named.type == "identifier" else None
    return None


def enclosing_function(node: ts.Node) -> ts.Node | None:
    return enclosing(node, FUNCTION_TYPES)


def statement_of(node: ts.Node) -> ts.Node:
    """The statement that contains `node` (its nearest ancestor whose parent is a block)."""
    cur = node
    while (up := parent(cur)) is not None and up.type not in {"statement_block", "program", "class_body", "switch_case", "switch_default"}:
        cur = up
    return cur


# Calls that build an object from the members of their arguments, in order: `Object.assign`, and the helpers tsc
# (`__assign`), esbuild (`__spreadValues`, `__spreadProps`) and Babel (`_objectSpread`, `_extends`) write for an
# object spread `{ ...a, b: 1 }` when the target has none.
SPREAD_HELPERS = frozenset({"Object.assign", "__assign", "__spreadValues", "__spreadProps", "_objectSpread",
                            "_objectSpread2", "_extends"})


# Calls that build an array of the elements of their arguments, in order, written for an array spread `[...a, ...b]`
# when the target has none: tsc's helpers (`__spreadArray(to, from, pack)`, its third argument a flag;
# `__spreadArrays(a, b)` and `__spread(a, b)` of older tslib) and Babel's `_toConsumableArray(a)`. The value: how
# many leading arguments are lists (None: all).
ARRAY_SPREAD_HELPERS = {"__spreadArray": 2, "__spreadArrays": None, "__spread": None, "_toConsumableArray": 1}


def array_spread_parts(node: ts.Node | None) -> list[ts.Node] | None:
    """The lists an array spread helper's call joins (`__spreadArray(__spreadArray([], a, true), b, true)`: `[]`, a,
    b), in order, nested calls of a helper flattened (tsc nests one per spread: a chain of a dozen lists is one
    step, not a dozen); None when NODE is no such call."""
    node = strip_casts(node)
    chain = member_chain(node.child_by_field_name("function")) if node is not None and node.type == "call_expression" \
        else None
    if not chain or chain[-1] not in ARRAY_SPREAD_HELPERS:
        return None
    out: list[ts.Node] = []
    for arg in call_args(node)[:ARRAY_SPREAD_HELPERS[chain[-1]]]:
        inner = array_spread_parts(arg)
        out += inner if inner is not None else [strip_casts(arg)]
    return out


def spread_parts(node: ts.Node | None) -> list[ts.Node] | None:
    """The objects a spread helper's call merges (`__spreadProps(__spreadValues({}, A), { b })`: `{}`, A, `{ b }`), in
    order, nested calls of a helper flattened; None when NODE is no such call."""
    node = strip_casts(node)
    if node is None or node.type != "call_expression" or text(node.child_by_field_name("function")) not in SPREAD_HELPERS:
        return None
    out: list[ts.Node] = []
    for arg in call_args(node):
        inner = spread_parts(arg)
        out += inner if inner is not None else [strip_casts(arg)]
    return out


def strip_casts(node: ts.Node | None) -> ts.Node | None:
    """`x as T`, `x!`, `(x)` -> x."""
    while node is not None and node.type in CAST_TYPES:
        inner = node.named_children[0] if node.named_children else None
        if inner is None:
            break
        node = inner
    return node


def unawaited(node: ts.Node | None) -> ts.Node | None:
    """NODE without casts and `await`s: `await (x as T)` -> x."""
    node = strip_casts(node)
    while node is not None and node.type == "await_expression" and node.named_children:
        node = strip_casts(node.named_children[0])
    return node


def nullish(node: ts.Node | None) -> bool:
    """Whether NODE is `null`, `undefined` or `void 0` (through casts and parentheses)."""
    node = strip_casts(node)
    if node is None:
        return False
    if node.type == "identifier":
        return text(node) == "undefined"
    return node.type in {"null", "undefined"} or (
        node.type == "unary_expression" and text(node.child_by_field_name("operator")) == "void")


def is_cast(node: ts.Node | None) -> bool:
    return node is not None and node.type in {"as_expression", "satisfies_expression", "type_assertion"}


# A member chain longer than this is no name the analyses could match (generated or hostile code): member_chain()
# gives None for it, so that reading every link of a chain of n links costs O(n), never O(n^2).
MAX_CHAIN = 64


def member_chain(node: ts.Node | None) -> tuple[str, ...] | None:
    """`this.a.b` -> ('this','a','b'); `x[k].y` -> ('x','[]','y'); None when not a plain chain (or one of more than
    MAX_CHAIN links)."""
    if node is None:
        return None
    hit = _chains.get(node.id)
    if hit is None:
        hit = _chains[node.id] = (node, _member_chain(node))  # the node keeps its tree, so its id, alive
    return hit[1]


_CHAIN_BASES = frozenset({"identifier", "this", "property_identifier", "shorthand_property_identifier"})


def _member_chain(node: ts.Node | None) -> tuple[str, ...] | None:
    # Down the chain to its base (or to a member whose chain is known), then back up, keeping the chain of every
    # member passed: each member of a chain of n links is read once, whichever of them is asked first.
    spine: list[ts.Node] = []
    cur = strip_casts(node)
    while cur is not None and cur.type in {"member_expression", "subscript_expression"}:
        hit = _chains.get(cur.id)
        if hit is not None:
            chain = hit[1]
            break
        spine.append(cur)
        cur = strip_casts(cur.child_by_field_name("object"))
    else:
        chain = (text(cur),) if cur is not None and cur.type in _CHAIN_BASES else None
    for member in reversed(spine):
        if chain is not None:
            if member.type == "member_expression":
                prop = member.child_by_field_name("property")
                chain = None if prop is None else chain + (text(prop),)
            else:
                chain = chain + ("[]",)
            if chain is not None and len(chain) > MAX_CHAIN:
                chain = None
        _chains[member.id] = (member, chain)
    return chain


def parameter_pattern(param: ts.Node) -> ts.Node | None:
    """The binding of one formal parameter in either grammar: TypeScript wraps it (`required_parameter`,
    `optional_parameter`: its pattern), JavaScript writes a default as `assignment_pattern` (its left side)."""
    if param.type in {"required_parameter", "optional_parameter"}:
        return param.child_by_field_name("pattern")
    if param.type == "assignment_pattern":
        return param.child_by_field_name("left")
    return param


def callee_text(call: ts.Node) -> str:
    fn = call.child_by_field_name("function")
    chain = member_chain(fn)
    return ".".join(chain) if chain else text(fn)


def call_function(call: ts.Node) -> ts.Node | None:
    """The function a call calls, as written: `f` of `(0, f)(...)`, the indirect call compiled CommonJS writes for an
    imported function (`(0, mod_1.f)(x)` is `mod_1.f(x)` without a `this`)."""
    return direct(call.child_by_field_name("function"))


def direct(node: ts.Node | None) -> ts.Node | None:
    """NODE without casts and the `(0, x)` of compiled CommonJS (`new (0, mod_1.C)(x)` constructs `mod_1.C`)."""
    node = strip_casts(node)
    if node is not None and node.type == "sequence_expression" and node.named_children:
        node = strip_casts(node.named_children[-1])
    return node


def class_base(cls: ts.Node | None) -> ts.Node | None:
    """The class a class extends, as written (`class A extends B`, `extends pkg.Base`), or None."""
    heritage = next((c for c in cls.named_children if c.type == "class_heritage"), None) if cls is not None else None
    clause = next((c for c in heritage.named_children if c.type != "implements_clause"), None) if heritage is not None else None
    if clause is not None and clause.type == "extends_clause":
        clause = clause.child_by_field_name("value") or (clause.named_children[0] if clause.named_children else None)
    return strip_casts(clause)


def call_args(call: ts.Node) -> list[ts.Node]:
    args = call.child_by_field_name("arguments")
    return [] if args is None else [a for a in args.named_children if a.type != "comment"]


def string_value(node: ts.Node | None) -> str | None:
    """The value of a string literal or a template string without substitutions, its escapes decoded (the one place
    literal text is decoded: `"get\\u005fweather"` is the name `get_weather`)."""
    node = strip_casts(node)
    if node is None:
        return None
    if node.type == "string":
        return _unescape("".join(text(c) for c in node.named_children if c.type in {"string_fragment", "escape_sequence"}))
    if node.type == "template_string":
        if any(c.type == "template_substitution" for c in node.named_children):
            return None
        # A template's line breaks are LF in its value, whatever the file uses.
        return _unescape(text(node)[1:-1].replace("\r\n", "\n").replace("\r", "\n"))
    return None


# One escape sequence of ECMAScript (ECMA-262 EscapeSequence, LineContinuation, legacy octal): \u{...}, \uXXXX, \xXX,
# \0-\377, a line continuation (backslash before a line terminator), or any other character (which stands for itself).
_ESCAPE = re.compile(r"\\(?:u\{([0-9A-Fa-f]+)\}|u([0-9A-Fa-f]{4})|x([0-9A-Fa-f]{2})|([0-3][0-7]{0,2}|[4-7][0-7]?)"
                     r"|(\r\n|[\n\r\u2028\u2029])|(.))", re.S)
_SIMPLE = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v"}
_SURROGATE = re.compile("[\ud800-\udfff]")


def unescape(raw: str) -> str:
    """The value of the raw text of a string's or template's piece, its escape sequences decoded."""
    return _unescape(raw)


def _escape(m: re.Match) -> str:
    braced, four, hex2, octal, _continuation, other = m.groups()
    if other is not None:
        return _SIMPLE.get(other, other)
    if octal is not None:
        return chr(int(octal, 8))
    if hex2 is not None:
        return chr(int(hex2, 16))
    code = int(braced or four, 16) if (braced or four) is not None else None
    if code is None:
        return ""  # a line continuation stands for nothing
    return chr(code) if code <= 0x10FFFF else m.group(0)  # \u{110000} is no character: kept as written


def _unescape(s: str) -> str:
    if "\\" not in s:
        return s
    out = _ESCAPE.sub(_escape, s)
    if _SURROGATE.search(out):
        # "\ud83d\ude00" is one character written as a UTF-16 pair; a lone surrogate is no character (nothing could
        # encode it): it is kept as its escape text.
        out = re.sub("[\ud800-\udbff][\udc00-\udfff]",
                     lambda p: chr(0x10000 + ((ord(p.group(0)[0]) - 0xD800) << 10) + ord(p.group(0)[1]) - 0xDC00), out)
        out = _SURROGATE.sub(lambda c: f"\\u{ord(c.group(0)):04x}", out)
    return out


def property_name(key: ts.Node) -> str:
    value = string_value(key)
    return value if value is not None else text(key)


def object_pairs(node: ts.Node | None) -> dict[str, ts.Node]:
    """Key -> pair node of an object literal (shorthand properties map to themselves)."""
    node = strip_casts(node)
    out: dict[str, ts.Node] = {}
    if node is None or node.type != "object":
        return out
    for child in node.named_children:
        if child.type == "pair":
            out[property_name(child.child_by_field_name("key"))] = child
        elif child.type == "shorthand_property_identifier":
            out[text(child)] = child
    return out


def pair_value(pair: ts.Node) -> ts.Node:
    return pair.child_by_field_name("value") if pair.type == "pair" else pair


class Known:
    """A value ENV hands to literal() for a name when it is known without a node (a parameter bound to a computed
    argument)."""

    __slots__ = ("value",)

    def __init__(self, value: Any):
        self.value = value


def literal(node: ts.Node | None, env: dict[str, ts.Node] | Callable[[ts.Node], ts.Node | Known | None] | None = None,
            depth: int = 0) -> Any:
    """Evaluate a constant expression (objects, arrays, strings, numbers, booleans, null; strings joined by `+`, a
    template's constant substitutions, `[...].join(sep)`, spreads of constant arrays, `Object.keys/values` of a
    constant object, integer arithmetic and comparisons). ENV gives the value of an identifier: a dict by name, or a
    function of the identifier node (which can tell where it is written)."""
    node = strip_casts(node)
    if node is None or depth > 20:
        return NOT_LITERAL
    kind = node.type
    if kind == "string" or kind == "template_string" and not _substitutions(node):
        value = string_value(node)
        return NOT_LITERAL if value is None else value
    if kind == "template_string":  # `a ${B} c`: each substitution a constant string or integer
        out, at, raw = [], node.start_byte + 1, node.text
        for sub in _substitutions(node):
            value = _piece(literal(sub.named_children[0] if sub.named_children else None, env, depth + 1))
            if value is None:
                return NOT_LITERAL
            out += [_template_text(raw[at - node.start_byte:sub.start_byte - node.start_byte]), value]
            at = sub.end_byte
        return "".join(out) + _template_text(raw[at - node.start_byte:-1])
    if kind == "number":
        number = number_value(node)
        return NOT_LITERAL if number is None else number
    if kind in {"true", "false"}:
        return kind == "true"
    if kind in {"null", "undefined"}:
        return None
    if kind == "unary_expression" and text(node.child_by_field_name("operator")) == "-":
        inner = literal(node.child_by_field_name("argument"), env, depth + 1)
        return -inner if isinstance(inner, (int, float)) and not isinstance(inner, bool) else NOT_LITERAL
    if kind == "unary_expression" and text(node.child_by_field_name("operator")) == "!" \
            and node.child_by_field_name("argument") is not None \
            and node.child_by_field_name("argument").type == "number":  # a minifier's `!0` (true) and `!1` (false)
        inner = literal(node.child_by_field_name("argument"), env, depth + 1)
        return not inner if isinstance(inner, (int, float)) else NOT_LITERAL
    if kind == "binary_expression":  # a chain `a + b + c ...` folded left to right, as long as it is
        operands = plus_chain(node)
        value = literal(operands[0], env, depth + 1)
        for right in operands[1:]:
            value = _binary("+", value, literal(right, env, depth + 1))
        if len(operands) > 1:
            return value
        return _binary(text(node.child_by_field_name("operator")), literal(node.child_by_field_name("left"), env, depth + 1),
                       literal(node.child_by_field_name("right"), env, depth + 1))
    if kind == "array":
        items = []
        for c in node.named_children:
            if c.type == "comment":
                continue
            if c.type == "spread_element":  # [...KINDS, "other"]
                more = literal(c.named_children[0] if c.named_children else None, env, depth + 1)
                if not isinstance(more, list):
                    return NOT_LITERAL
                items += more
                continue
            items.append(literal(c, env, depth + 1))
        return NOT_LITERAL if any(i is NOT_LITERAL for i in items) else items
    if kind == "object":
        out = {}
        for child in node.named_children:
            if child.type == "spread_element":  # `{...BASE, x: 1}`: BASE's entries in place; one not known, no literal
                more = literal(child.named_children[0] if child.named_children else None, env, depth + 1)
                if not isinstance(more, dict):
                    return NOT_LITERAL
                out.update(more)
            elif child.type in {"pair", "shorthand_property_identifier"}:
                value = literal(pair_value(child), env, depth + 1)
                if value is NOT_LITERAL:
                    return NOT_LITERAL
                out[property_name(child.child_by_field_name("key")) if child.type == "pair" else text(child)] = value
        return out
    if kind == "call_expression":
        return _constant_call(node, env, depth)
    if kind == "sequence_expression":  # `(a, b)`: each in turn, the last one's value
        value = NOT_LITERAL
        for c in node.named_children:
            value = literal(c, env, depth + 1) if c.type != "comment" else value
            if value is NOT_LITERAL:
                return NOT_LITERAL
        return value
    if kind == "subscript_expression":  # `GROUPS[kind]` of a constant record and key (undefined: a key it lacks)
        key = literal(node.child_by_field_name("index"), env, depth + 1)
        return NOT_LITERAL if key is NOT_LITERAL else _entry(literal(node.child_by_field_name("object"), env, depth + 1), key)
    if kind == "augmented_assignment_expression" and text(node.child_by_field_name("operator")) in {"||=", "??="}:
        return _default_entry(node, env, depth)
    if kind in {"identifier", "shorthand_property_identifier"} and env:  # `{name}` is `{name: name}`
        value = env(node) if callable(env) else env.get(text(node))
        if isinstance(value, Known):
            return value.value
        if value is not None:
            return literal(value, env, depth + 1)
    if kind == "member_expression" and env:  # `TOOLS.echo` of a `const TOOLS = { echo: "echo", ... }`
        across = getattr(env, "member", None)
        found = across(node) if across is not None else None
        if found is not None:  # `ns.X` of another module's namespace (an environment that reads them: zod.constants)
            return literal(found, env, depth + 1)
        obj, prop = strip_casts(node.child_by_field_name("object")), node.child_by_field_name("property")
        known = env(obj) if callable(env) and obj is not None and obj.type == "identifier" else None
        if isinstance(known, Known):  # `opts.depth` of a parameter bound to a constant object
            value = known.value
            return value[text(prop)] if isinstance(value, dict) and prop is not None and text(prop) in value else NOT_LITERAL
        holder = _object_literal(node.child_by_field_name("object"), env, depth + 1)
        pair = object_pairs(holder).get(text(prop)) if holder is not None and prop is not None else None
        if pair is not None:
            return literal(pair_value(pair), env, depth + 1)
    return NOT_LITERAL


def number_value(node: ts.Node) -> int | float | None:
    """A number literal's value (`1_000`, `0x1f`, `1e3`); None for one Python does not read so (a BigInt `5n`, a
    legacy octal `010`)."""
    raw = text(node).replace("_", "")
    try:
        return int(raw, 0) if raw.isdigit() or raw.lower().startswith(("0x", "0o", "0b")) else float(raw)
    except ValueError:
        return None


def plus_chain(node: ts.Node) -> list[ts.Node]:
    """The operands of a left-nested `a + b + c ...` (a description of many lines), read without recursion; [node]
    when it is not a `+`."""
    operands: list[ts.Node] = []
    while node.type == "binary_expression" and text(node.child_by_field_name("operator")) == "+":
        operands.append(node.child_by_field_name("right"))
        node = strip_casts(node.child_by_field_name("left"))
    return [node] + operands[::-1]


def _substitutions(node: ts.Node) -> list[ts.Node]:
    return [c for c in node.named_children if c.type == "template_substitution"]


def _template_text(raw: bytes) -> str:
    """A template's text between substitutions, its escapes decoded and its line breaks LF (as string_value)."""
    return _unescape(raw.decode("utf-8", "replace").replace("\r\n", "\n").replace("\r", "\n"))


def _piece(value: Any) -> str | None:
    """The text a constant becomes in a string (`${N}`, `"a" + N`): strings and numbers where JavaScript writes them
    as Python does (a minifier's `1e3` is "1000"; "1e+21" and "0.00001" are not known; an object's text is not)."""
    if isinstance(value, str):
        return value
    if isinstance(value, float) and abs(value) < 1e21 and value.is_integer():
        return str(int(value))
    if isinstance(value, float) and 1e-4 <= abs(value) < 1e16:
        return repr(value)  # (both the shortest text that reads back as the same number, in digits: below 1e-4
    # Python writes 1e-05 where JavaScript writes 0.00001)
    return str(value) if isinstance(value, int) and not isinstance(value, bool) else None


_COMPARE = {"<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
            "===": lambda a, b: a == b, "!==": lambda a, b: a != b}


def _binary(op: str, left: Any, right: Any) -> Any:
    """`+` joins strings (a string and an integer too); on integers `+ - *` and comparisons are arithmetic."""
    if left is NOT_LITERAL or right is NOT_LITERAL:
        return NOT_LITERAL
    ints = all(isinstance(v, int) and not isinstance(v, bool) for v in (left, right))
    if op == "+" and (isinstance(left, str) or isinstance(right, str)):
        a, b = _piece(left), _piece(right)
        return a + b if a is not None and b is not None else NOT_LITERAL
    if ints and op in {"+", "-", "*"}:
        return left + right if op == "+" else left - right if op == "-" else left * right
    if op in {"===", "!=="} and type(left) is type(right) and isinstance(left, (str, int, bool)):
        return _COMPARE[op](left, right)
    if ints and op in _COMPARE:
        return _COMPARE[op](left, right)
    return NOT_LITERAL


def _entry(holder: Any, key: Any) -> Any:
    """HOLDER[KEY] of a constant record (None, undefined, for a key it lacks) or list (an index within it)."""
    if isinstance(holder, dict) and isinstance(key, str):
        return holder.get(key)
    if isinstance(holder, list) and isinstance(key, int) and not isinstance(key, bool) and 0 <= key < len(holder):
        return holder[key]
    return NOT_LITERAL


def _default_entry(node: ts.Node, env, depth: int) -> Any:
    """`acc[k] ||= []` (or `??=`) on a record a callback is handed (a grouping `reduce`'s accumulator): the entry,
    set to the right side's value first when it is falsy (nullish for `??=`). The record is changed in place."""
    left = strip_casts(node.child_by_field_name("left"))
    if left is None or left.type != "subscript_expression":
        return NOT_LITERAL
    holder = literal(left.child_by_field_name("object"), env, depth + 1)
    key = literal(left.child_by_field_name("index"), env, depth + 1)
    if not isinstance(holder, dict) or not isinstance(key, str):
        return NOT_LITERAL
    current = holder.get(key)
    if current is not None and (text(node.child_by_field_name("operator")) == "??=" or _truthy(current)):
        return current
    value = literal(node.child_by_field_name("right"), env, depth + 1)
    if value is NOT_LITERAL:
        return NOT_LITERAL
    holder[key] = value
    return value


def _truthy(value: Any) -> bool:
    """JavaScript's truth of a constant (every object and list is true)."""
    return True if isinstance(value, (dict, list)) else bool(value)


def _constant_call(node: ts.Node, env, depth: int) -> Any:
    """`[...].join(sep)` of constant strings, `Object.keys(X)` / `Object.values(X)` of a constant object literal, a
    constant list's map/flatMap/reduce, and `push` onto a list a callback holds."""
    chain = member_chain(node.child_by_field_name("function"))
    args = call_args(node)
    fn = strip_casts(node.child_by_field_name("function"))
    method = text(fn.child_by_field_name("property")) if fn is not None and fn.type == "member_expression" else ""
    if method == "reduce" and len(args) == 2:
        return _constant_reduce(fn.child_by_field_name("object"), args[0], args[1], env, depth)
    if method == "push" and args:  # (`(groups[k] ||= []).push(v)` in a reduce: the list grows in place)
        items = literal(fn.child_by_field_name("object"), env, depth + 1)
        more = [literal(a, env, depth + 1) for a in args]
        if not isinstance(items, list) or any(m is NOT_LITERAL or a.type == "spread_element" for m, a in zip(more, args)):
            return NOT_LITERAL
        items += more
        return len(items)
    if chain in {("Object", "keys"), ("Object", "values"), ("Object", "entries")} and len(args) == 1:
        holder = _object_literal(args[0], env, depth + 1)
        if holder is None or any(c.type == "spread_element" for c in holder.named_children):
            # `{...BASE, X: "x"}`, or a record ENV knows with no node: its keys and values are read whole
            whole = literal(holder if holder is not None else args[0], env, depth + 1)
            if not isinstance(whole, dict) or any(k.isdigit() for k in whole):
                return NOT_LITERAL
            return list(whole) if chain[1] == "keys" else list(whole.values()) if chain[1] == "values" \
                else [[k, v] for k, v in whole.items()]
        if holder is None or any(c.type not in {"pair", "shorthand_property_identifier", "comment"} for c in holder.named_children):
            return NOT_LITERAL
        pairs = object_pairs(holder)
        if any(k.isdigit() for k in pairs):  # integer keys come first in JavaScript, whatever the written order
            return NOT_LITERAL
        if chain[1] == "keys":
            return list(pairs)
        values = [literal(pair_value(p), env, depth + 1) for p in pairs.values()]
        if any(v is NOT_LITERAL for v in values):
            return NOT_LITERAL
        return [[k, v] for k, v in zip(pairs, values)] if chain[1] == "entries" else values
    if fn is not None and fn.type == "member_expression" and text(fn.child_by_field_name("property")) in {"map", "flatMap"} \
            and len(args) == 1:
        return _constant_map(text(fn.child_by_field_name("property")), fn.child_by_field_name("object"), args[0], env, depth)
    if fn is not None and fn.type == "member_expression" and text(fn.child_by_field_name("property")) == "join" \
            and len(args) <= 1:
        items = literal(fn.child_by_field_name("object"), env, depth + 1)
        sep = literal(args[0], env, depth + 1) if args else ","
        pieces = [_piece(i) for i in items] if isinstance(items, list) else [None]
        if not isinstance(sep, str) or any(p is None for p in pieces):
            return NOT_LITERAL
        return sep.join(pieces)
    return NOT_LITERAL


def object_method(obj: ts.Node | None, name: str) -> ts.Node | None:
    """The method NAME written in an object literal (`{ async run(args) {...} }`), which object_pairs leaves out."""
    obj = strip_casts(obj)
    return next((c for c in obj.named_children if c.type == "method_definition"
                 and text(c.child_by_field_name("name")) == name), None) if obj is not None else None


def arrow_parts(fn: ts.Node | None) -> tuple[list[ts.Node], ts.Node] | None:
    """(parameters, returned expression) of an arrow function that only returns: `(a, b) => expr`, or a block that is
    one `return expr`; None for anything else."""
    fn = strip_casts(fn)
    if fn is None or fn.type != "arrow_function":
        return None
    body = fn.child_by_field_name("body")
    if body is not None and body.type == "statement_block":
        stmts = [c for c in body.named_children if c.type != "comment"]
        body = stmts[0].named_children[0] if len(stmts) == 1 and stmts[0].type == "return_statement" \
            and stmts[0].named_children else None
    if body is None:
        return None
    single, formal = fn.child_by_field_name("parameter"), fn.child_by_field_name("parameters")
    params = [single] if single is not None else \
        [c for c in formal.named_children if c.type != "comment"] if formal is not None else []
    return params, body


_MAX_FOLDED_ITEMS = 10_000  # a constant list built by map/flatMap longer than this is left unknown


def _constant_map(method: str, held: ts.Node, callback: ts.Node, env, depth: int) -> Any:
    """`XS.map((x) => expr)` / `XS.flatMap(...)` of a constant list, the callback an arrow function whose body is an
    expression (or one `return`) of its parameters and constants: `Object.entries(M).flatMap(([k, vs]) => vs.map((v)
    => `${k}/${v}`))`. Parameters are bound by name over ENV, destructuring included."""
    items = literal(held, env, depth + 1)
    parts = arrow_parts(callback)
    if not isinstance(items, list) or parts is None or len(parts[0]) > 2:
        return NOT_LITERAL
    params, body = parts
    out: list = []
    for index, item in enumerate(items):
        bound: dict[str, Any] = {}
        if not all(_bind(p, v, bound) for p, v in zip(params, (item, index))):
            return NOT_LITERAL
        value = literal(body, _scoped(bound, env), depth + 1)
        if value is NOT_LITERAL:
            return NOT_LITERAL
        if method == "flatMap" and isinstance(value, list):
            out += value
        else:
            out.append(value)
        if len(out) > _MAX_FOLDED_ITEMS:
            return NOT_LITERAL
    return out


def _constant_reduce(held: ts.Node, callback: ts.Node, start: ts.Node, env, depth: int) -> Any:
    """`XS.reduce((acc, x) => expr, START)` of a constant list: the callback read for each element in turn with the
    accumulator it returned last (`Object.entries(M).reduce((g, [k, v]) => ((g[v] ||= []).push(k), g), {})`, a
    record grouping M's keys by value)."""
    items = literal(held, env, depth + 1)
    parts = arrow_parts(callback)
    acc = literal(start, env, depth + 1)
    if not isinstance(items, list) or parts is None or not 1 <= len(parts[0]) <= 3 or acc is NOT_LITERAL \
            or len(items) > _MAX_FOLDED_ITEMS:
        return NOT_LITERAL
    params, body = parts
    for index, item in enumerate(items):
        bound: dict[str, Any] = {}
        if not all(_bind(p, v, bound) for p, v in zip(params, (acc, item, index))):
            return NOT_LITERAL
        acc = literal(body, _scoped(bound, env), depth + 1)
        if acc is NOT_LITERAL:
            return NOT_LITERAL
    return acc


def _bind(pattern: ts.Node, value: Any, out: dict[str, Any]) -> bool:
    """Bind the names of a parameter pattern (`x`, `[a, b]`, `{a, b: c}`) to the parts of a constant VALUE; False for
    a pattern not read here (defaults, rest elements)."""
    if pattern.type in {"required_parameter", "optional_parameter"}:
        pattern = pattern.child_by_field_name("pattern")
    if pattern is None:
        return False
    if pattern.type == "identifier":
        out[text(pattern)] = value
        return True
    if pattern.type == "array_pattern" and isinstance(value, list):
        parts = [c for c in pattern.named_children if c.type != "comment"]
        return all(_bind(p, value[i] if i < len(value) else None, out) for i, p in enumerate(parts))
    if pattern.type == "object_pattern" and isinstance(value, dict):
        for c in pattern.named_children:
            if c.type == "shorthand_property_identifier_pattern":
                out[text(c)] = value.get(text(c))
            elif c.type == "pair_pattern" and c.child_by_field_name("value") is not None:
                if not _bind(c.child_by_field_name("value"), value.get(property_name(c.child_by_field_name("key"))), out):
                    return False
            elif c.type != "comment":
                return False
        return True
    return False


def _scoped(bound: dict[str, Any], env):
    """ENV with the names of BOUND (a callback's parameters) known first."""
    def value(ident: ts.Node):
        name = text(ident)
        if name in bound:
            return Known(bound[name])
        return env(ident) if callable(env) else (env or {}).get(name)
    return value


def unknown_part(node: ts.Node | None, env=None, depth: int = 0) -> ts.Node | None:
    """The smallest part of a string expression that is not a constant (the `${x}` of a template, one operand of
    `+`, one element of a joined list), or NODE itself; None when it is a constant."""
    node = strip_casts(node)
    if node is None or literal(node, env) is not NOT_LITERAL:
        return None
    if depth > 20:
        return node
    if node.type == "template_string":
        parts = [s.named_children[0] for s in _substitutions(node) if s.named_children]
    elif node.type == "binary_expression" and text(node.child_by_field_name("operator")) == "+":
        parts = plus_chain(node)
    elif node.type == "call_expression" and (fn := strip_casts(node.child_by_field_name("function"))) is not None \
            and fn.type == "member_expression" and text(fn.child_by_field_name("property")) == "join":
        held = strip_casts(fn.child_by_field_name("object"))
        parts = [c for c in held.named_children if c.type != "comment"] if held is not None and held.type == "array" else []
    else:  # a name, a call, a condition: this part is the one not known
        parts = []
    for part in parts:
        inner = unknown_part(part, env, depth + 1)
        if inner is not None:
            return inner
    return node


def literal_fields(node: ts.Node | None, env=None) -> dict:
    """The entries of an object literal whose values are literals (`{name: "x", version: VERSION}` gives the name);
    the others are left out. An identifier naming a literal object (through ENV) gives that object."""
    whole = literal(node, env)
    if isinstance(whole, dict):
        return whole
    out = {}
    for key, pair in object_pairs(strip_casts(node)).items():
        value = literal(pair_value(pair), env)
        if value is not NOT_LITERAL:
            out[key] = value
    return out


def _object_literal(node: ts.Node | None, env, depth: int) -> ts.Node | None:
    """The object literal an identifier (or a member of one) stands for, through ENV."""
    node = strip_casts(node)
    if node is None or depth > 20:
        return None
    if node.type == "identifier":
        value = env(node) if callable(env) else env.get(text(node)) if env is not None else None
        value = strip_casts(value) if not isinstance(value, Known) else None
        return _object_literal(value, env, depth + 1) if value is not None and value.type == "identifier" else \
            value if value is not None and value.type == "object" else None
    if node.type == "member_expression":
        across = getattr(env, "member", None)
        found = strip_casts(across(node)) if across is not None else None
        if found is not None:
            return _object_literal(found, env, depth + 1) if found.type == "identifier" else \
                found if found.type == "object" else None
        holder = _object_literal(node.child_by_field_name("object"), env, depth + 1)
        prop = node.child_by_field_name("property")
        pair = object_pairs(holder).get(text(prop)) if holder is not None and prop is not None else None
        value = strip_casts(pair_value(pair)) if pair is not None else None
        return value if value is not None and value.type == "object" else None
    return node if node.type == "object" else None


def condition_terms(node: ts.Node | None, op: str = "||") -> list[ts.Node]:
    """Split `a || b || c` (or `&&`) into its terms, stripping parentheses."""
    out: list[ts.Node] = []
    todo = [node]
    while todo:  # a stack, not recursion: a chain of thousands of terms is one deep tree
        cur = strip_casts(todo.pop())
        if cur is None:
            continue
        if cur.type == "binary_expression" and text(cur.child_by_field_name("operator")) == op:
            todo += [cur.child_by_field_name("right"), cur.child_by_field_name("left")]
        else:
            out.append(cur)
    return out


def first_line(node: ts.Node, limit: int = 100) -> str:
    line = text(node).splitlines()[0] if text(node) else ""
    return line if len(line) <= limit else line[: limit - 1] + "…"


def local_values_of(node: ts.Node, name: str, top: bool = False) -> list[ts.Node]:
    """The values NAME holds when a function around NODE declares it (the nearest; with TOP, the module too): its
    initializer and what is assigned to it anywhere in that function (a nested one's included), else none."""
    for scope in ancestors(node):
        if scope.type in FUNCTION_TYPES or top and scope.type == "program":
            decl = next((d for d in find(scope, {"variable_declarator"}) if text(d.child_by_field_name("name")) == name
                         and next((a for a in ancestors(d) if a.type in FUNCTION_TYPES), scope) == scope), None)
            if decl is not None:
                assigned = [a.child_by_field_name("right") for a in find(scope, {"assignment_expression"})
                            if text(a.child_by_field_name("left")) == name]
                return [v for v in (decl.child_by_field_name("value"), *assigned)
                        if v is not None and strip_casts(v) is not None and strip_casts(v).type != "null"]
    return []


_BRANCHING = frozenset({"if_statement", "switch_statement", "for_statement", "for_in_statement", "while_statement",
                        "do_statement", "ternary_expression", "catch_clause", *FUNCTION_TYPES})


def dominates(a: ts.Node, b: ts.Node) -> bool:
    """Whether A runs before B on every path to B: A's statement is unconditional in a block that holds B in a later
    statement (A in no branch, loop or callback of that statement)."""
    for block in (x for x in ancestors(a) if x.type == "statement_block"):
        if not block.start_byte <= b.start_byte < block.end_byte:
            continue
        stmt = next(c for c in block.named_children if c.start_byte <= a.start_byte < c.end_byte)
        if any(x.type in _BRANCHING for x in ancestors(a)
               if stmt.start_byte <= x.start_byte and x.end_byte <= stmt.end_byte and x != a):
            return False
        return stmt.end_byte <= b.start_byte
    return False


_WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")


def words(name: str) -> tuple[str, ...]:
    """`braveApiKey` -> (brave, api, key); `HTTPS_PROXY` -> (https, proxy); `APIKey` -> (api, key)."""
    return tuple(w.lower() for w in _WORD.findall(name))
