"""Modules a dynamic import (or a CommonJS `require`) loads from a path made at run time.

- From a folder: `await import(join(toolsDir, file))`, the path joined from a folder the code names beside its own
  file (`join(__dirname, "tools")`, `new URL("./tools/", import.meta.url)`) and a name it does not (an entry of
  `readdir(toolsDir)`): every code module of that folder may be loaded, so each is what the import gives (an
  autoloader of tools).
- A file: `await import(pathToFileURL(join(here, "..", "dist", "cli.js")).href)`, the path joined from the module's
  own folder and literal names only, or the first of a list of such paths that exists (`paths.find(existsSync)`, a
  launcher that finds its build): each file of the boundary so named.
- A file under a root the code finds at run time: `resolve(root, "dist/index.js")` with `root` an option, an
  environment variable or the script's folder: each file of the package (not of an installed dependency) whose path
  ends with that literal path of folders and a code file (`dist/index.js`, `claude-plugin/dist/index.js`; of
  `../src/index.ts`, `src/index.ts`); a path no shipped file ends with loads nothing of the package. The path may be
  what a function of the module returns (`const p = resolveRegistry();`), each of its returns read."""

from __future__ import annotations

import posixpath

import tree_sitter as ts

from auditor.extract.bindings import value_of
from auditor.extract.program import Module
from auditor.extract.syntax import FUNCTION_TYPES, call_args, member_chain, string_value, strip_casts, text
from auditor.model import DECLARATIONS

_JOINS = {"join", "resolve"}  # path.join / path.resolve and their imported names
_ANY = "*/"  # (a path of _files under a root not known: every file of the boundary ending with the rest)
_CODE = (".js", ".mjs", ".cjs", ".ts", ".mts", ".cts")
_DEPTH = 6
_NOT_CODE = (*DECLARATIONS, ".map")
_TESTS = (".test.", ".spec.")


def loaded(call: ts.Node, module: Module, modules: dict[str, Module]) -> list[Module] | None:
    """The modules `import(path)` (CALL, written in MODULE) may load, in path order: those of the folder its path is
    joined from; None when the path is not so made."""
    args = call_args(call)
    if not _loads(call) or len(args) != 1 or string_value(args[0]) is not None:
        return None
    folder = _joined_folder(args[0], module, 0)
    if folder is None:
        files = _files(args[0], module, 0)
        paths = {p for f in files for p in ([q for q in modules if _ends_with(q, f[len(_ANY):])
                                             and "node_modules/" not in q] if f.startswith(_ANY) else [f])}
        return [modules[f] for f in sorted(paths) if f in modules and f != module.path] if files else None
    return [m for path, m in sorted(modules.items()) if posixpath.dirname(path) == folder
            and not path.endswith(_NOT_CODE) and not any(t in posixpath.basename(path) for t in _TESTS)
            and m.path != module.path]


def dynamic_imports(module: Module) -> list[ts.Node]:
    """The `import(x)` and `require(x)` calls of MODULE whose path is not a literal."""
    out = []
    for call in module.nodes("call"):
        args = call_args(call)
        if _loads(call) and len(args) == 1 and string_value(args[0]) is None:
            out.append(call)
    return out


def _loads(call: ts.Node) -> bool:
    """Whether CALL loads a module: `import(x)`, or CommonJS's `require(x)` (`const p = join(__dirname, "../s.js");
    require(p)`)."""
    fn = call.child_by_field_name("function")
    return fn is not None and (fn.type == "import" or fn.type == "identifier" and text(fn) == "require")


def _joined_folder(node: ts.Node | None, module: Module, depth: int) -> str | None:
    """The folder a path made of a known folder and a name not known is in (`join(dir, file)`, `${dir}/${file}`)."""
    node = _value(node, module)
    if node is None or depth > _DEPTH:
        return None
    if node.type == "call_expression":
        chain = member_chain(node.child_by_field_name("function")) or ()
        args = call_args(node)
        if chain[-1:] == ("pathToFileURL",) and len(args) == 1:  # `pathToFileURL(p)`, `.href` of it: p
            return _joined_folder(args[0], module, depth + 1)
        if chain and chain[-1] in _JOINS and len(args) >= 2 and string_value(args[-1]) is None:
            return _folder(args[0], module, depth + 1) if len(args) == 2 else None
        return None
    if node.type == "member_expression" and text(node.child_by_field_name("property")) in {"href", "pathname"}:
        return _joined_folder(node.child_by_field_name("object"), module, depth + 1)
    if node.type == "template_string":  # `${dir}/${file}`
        parts = [c for c in node.named_children if c.type != "string_fragment"]
        fragments = "".join(text(c) for c in node.named_children if c.type == "string_fragment")
        if len(parts) == 2 and fragments == "/" and parts[0].named_children:
            return _folder(parts[0].named_children[0], module, depth + 1)
    return None


def _files(node: ts.Node | None, module: Module, depth: int) -> list[str]:
    """The paths of the boundary a path made of the module's own folder and literal names may be
    (`pathToFileURL(p).href`, `join(here, "..", "dist", "x.js")`), or any element of a list of them `find` picks."""
    node = _value(node, module)
    if node is None or depth > _DEPTH:
        return []
    if node.type == "member_expression" and text(node.child_by_field_name("property")) in {"href", "pathname"}:
        return _files(node.child_by_field_name("object"), module, depth + 1)
    if node.type == "call_expression":
        fn = node.child_by_field_name("function")
        chain = member_chain(fn) or ()
        args = call_args(node)
        if chain[-1:] == ("pathToFileURL",) and len(args) == 1:
            return _files(args[0], module, depth + 1)
        if chain[-1:] == ("find",) and fn is not None and fn.type == "member_expression":
            items = _value(fn.child_by_field_name("object"), module)
            if items is None or items.type != "array":
                return []
            found = [_files(e, module, depth + 1) for e in items.named_children]
            return [] if any(not f for f in found) else [p for f in found for p in f]
        if fn is not None and fn.type == "identifier" and not args:  # `resolveRegistryPath()`: what it returns
            found = [_files(r, module, depth + 1) for r in _returns(module.functions.get(text(fn)))]
            return [] if not found or any(not f for f in found) else [p for f in found for p in f]
    path = _folder(node, module, 0)  # (a depth of its own: this one counts the wrappers above)
    if path:
        return [path]
    tail = _under_root(node)
    return [_ANY + tail] if tail else []


def _returns(fn: ts.Node | None) -> list[ts.Node]:
    """The values FN's own return statements return (not those of functions inside it); none for a body that is an
    expression or a function not known."""
    body = fn.child_by_field_name("body") if fn is not None else None
    if body is None or body.type != "statement_block":
        return []
    out, todo = [], list(body.named_children)
    while todo:
        n = todo.pop()
        if n.type in FUNCTION_TYPES or n.type in {"class_declaration", "class"}:
            continue
        if n.type == "return_statement":
            if not n.named_children:
                return []
            out.append(n.named_children[0])
            continue
        todo += n.named_children
    return out


def _under_root(node: ts.Node) -> str | None:
    """The literal path of `resolve(root, "dist/index.js")` (`join(root, "dist", "index.js")`) whose ROOT is not a
    folder the code fixes: a path of folders and a code file, the `..` that lead out of the root left off (a file
    beside the root ends with the rest all the same)."""
    if node.type != "call_expression":
        return None
    chain = member_chain(node.child_by_field_name("function")) or ()
    args = call_args(node)
    if not chain or chain[-1] not in _JOINS or len(args) < 2 or string_value(args[0]) is not None:
        return None
    rest = [string_value(a) for a in args[1:]]
    if any(r is None for r in rest):
        return None
    parts = posixpath.normpath(posixpath.join(*rest)).split("/")
    while parts[:1] == [".."]:  # (`resolve(root, "../src/index.ts")`: a file beside the root, `src/index.ts` still)
        parts = parts[1:]
    tail = "/".join(parts)
    return tail if len(parts) >= 2 and ".." not in parts and parts[0] and tail.endswith(_CODE) \
        and not tail.endswith(_NOT_CODE) else None


def _ends_with(path: str, tail: str) -> bool:
    return path == tail or path.endswith("/" + tail)


def _folder(node: ts.Node | None, module: Module, depth: int) -> str | None:
    """The folder of the boundary NODE names: the module's own (`__dirname`, `dirname(fileURLToPath(import.meta.url))`)
    or a literal path joined to it (`join(__dirname, "tools")`, `new URL("./tools/", import.meta.url)`)."""
    node = _value(node, module)
    here = posixpath.dirname(module.path)
    if node is None or depth > _DEPTH:
        return None
    if node.type == "identifier" and text(node) == "__dirname":
        return here
    if node.type == "call_expression":
        chain = member_chain(node.child_by_field_name("function")) or ()
        args = call_args(node)
        if chain[-1:] == ("dirname",) and len(args) == 1 and _this_file(args[0], module, depth + 1):
            return here
        if chain[-1:] == ("fileURLToPath",) and len(args) == 1:
            return _folder(args[0], module, depth + 1)
        if chain and chain[-1] in _JOINS and len(args) >= 2:
            base = _folder(args[0], module, depth + 1)
            rest = [string_value(a) for a in args[1:]]
            if base is None or any(r is None for r in rest):
                return None
            return _inside(posixpath.normpath(posixpath.join(base, *rest)))
    if node.type == "new_expression" and text(node.child_by_field_name("constructor")) == "URL":
        args = call_args(node)
        rel = string_value(args[0]) if args else None
        if rel is not None and len(args) == 2 and text(args[1]) == "import.meta.url":
            return _inside(posixpath.normpath(posixpath.join(here, rel)))
    return None


def _this_file(node: ts.Node | None, module: Module, depth: int) -> bool:
    """`__filename`, `fileURLToPath(import.meta.url)`, `import.meta.url`, or a name bound to one."""
    node = _value(node, module)
    if node is None or depth > _DEPTH:
        return False
    if text(node) in {"__filename", "import.meta.url"}:
        return True
    if node.type == "call_expression" and (member_chain(node.child_by_field_name("function")) or ())[-1:] == \
            ("fileURLToPath",) and call_args(node):
        return _this_file(call_args(node)[0], module, depth + 1)
    return False


def _inside(path: str) -> str | None:
    return None if path.startswith("..") else ("" if path == "." else path)


def _value(node: ts.Node | None, module: Module) -> ts.Node | None:
    """NODE, through the names it is bound to (a local or top-level constant), a few deep."""
    node = strip_casts(node)
    for _ in range(_DEPTH):
        if node is None or node.type != "identifier" or text(node) in {"__dirname", "__filename"}:
            return node
        value = strip_casts(value_of(module, node))
        if value is None:
            return node
        if value.type == "await_expression" and value.named_children:
            value = strip_casts(value.named_children[0])
        node = value
    return node
