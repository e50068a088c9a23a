"""Run the boundary's own code, on the data it ships, to a registration whose tool name it computes: what `for (const
op of operations) server.tool(op.name, ...)` registers when `operations` is read from a JSON document of the package
by loops, regular expressions and string functions (a catalog generated from an OpenAPI or Postman document).

An interpreter over the syntax tree, with JavaScript's values (extract/jsvalues.py; the language's functions and
Node's modules: jsbuiltins.py), that never runs anything else: it reads no file but the boundary's own (by the text
the audit read), no variable of the environment it runs in, no network; a package outside the boundary, an API it
does not model, or a value the code does not fix is UNKNOWN. The run is that of a launch with no configuration: every
environment variable unset, no command-line argument. How it gets to the registration:

- the function that holds it is run once for each time a run of a caller's function reaches a call of it, with the
  arguments that call passes (a call in a loop: once per element); a function the boundary never calls, with its
  arguments not known; one whose calls no run reaches (a command not given), not at all; a method with `this` the
  instance the first construction of its class a run reaches makes;
- a test it cannot decide (it reads what is UNKNOWN) takes the branch that holds the registration, else runs each
  branch as a possibility: what it writes joins what was there (a value and UNKNOWN: the value; a list and a list
  filtered from it: the longer), and a `return`, `throw` or `continue` there ends only that branch (the run that goes
  on);
- a value read from the environment is undefined (`process.env.PORT || 3000` is 3000), but a test of it may go either
  way (`if (!process.env.KEY) throw ...`: a configured launch passes it);
- a function that may return at such a branch returns what its returns join to (a value and another: UNKNOWN);
- a list such a branch may add to holds what it adds, and its length is UNKNOWN;
- a loop over what is UNKNOWN is not run (nor reached into: its registrations are not read).

Bounded by steps and nested calls; past them, what the runs reached so far is kept and the answer is incomplete."""

from __future__ import annotations

import os
import posixpath
from dataclasses import dataclass
from typing import Any, Callable, Iterable

import tree_sitter as ts

from auditor.extract import jsbuiltins as B, jsvalues as J
from auditor.extract.evaluate import NULL, UNKNOWN
from auditor.extract.linker import candidates
from auditor.extract.program import Module
from auditor.extract.syntax import (CLASS_TYPES, FUNCTION_TYPES, _template_text, ancestors, call_function,
                                    class_base, direct, number_value, property_name, string_value, strip_casts,
                                    text, unescape)

MAX_STEPS = 1_500_000  # expressions and statements one question may evaluate (about 10 s of CPU at most)
MAX_TOTAL_STEPS = 4_000_000  # and all the questions of one program
MAX_CALLS = 30  # calls nested
MAX_FRAMES = 64  # calls of one function run to (each a frame of it)
MAX_RUNS = 8  # runs nested (a caller's run to read the arguments of a call, within another run)
MAX_LOOP = 200_000  # iterations of one loop
_ABSENT = object()


class _Unset:
    """An environment variable that is not set: undefined, and a test of it is a test of the configuration."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "UNSET"


UNSET = _Unset()


class _Budget(Exception):
    """Out of steps, calls or runs: what was reached so far is kept."""


class _Unknown(Exception):
    """A run that cannot go on: the way to the registration is not known."""


class _TooDeep(_Unknown):
    """Runs nested past MAX_RUNS: the value a further run would read is not known."""


class _Return(Exception):
    def __init__(self, value: Any):
        self.value = value


class _Break(Exception):
    def __init__(self, label: str | None = None):
        self.label = label


class _Continue(Exception):
    def __init__(self, label: str | None = None):
        self.label = label


class Env:
    __slots__ = ("vars", "parent", "module", "this", "home")

    def __init__(self, parent: "Env | None", module: Module, this: Any = _ABSENT, home: Any = None):
        self.vars: dict[str, Any] = {}
        self.parent, self.module, self.this, self.home = parent, module, this, home


class Closure:
    __slots__ = ("node", "module", "env", "home")

    def __init__(self, node: ts.Node, module: Module, env: Env | None, home: Any = None):
        self.node, self.module, self.env, self.home = node, module, env, home


class JsClass:
    __slots__ = ("node", "module", "env", "parent", "statics", "methods", "getters", "fields", "name")

    def __init__(self, node: ts.Node, module: Module, env: Env | None, parent: Any):
        self.node, self.module, self.env, self.parent = node, module, env, parent
        n = node.child_by_field_name("name")
        self.name = text(n) if n is not None else ""
        self.statics: dict | None = None
        self.methods: dict[str, ts.Node] = {}
        self.getters: dict[str, ts.Node] = {}
        self.fields: list[ts.Node] = []
        body = node.child_by_field_name("body")
        for m in body.named_children if body is not None else ():
            static = any(c.type == "static" for c in m.children)
            if m.type == "method_definition" and not static:
                name = property_name(m.child_by_field_name("name"))
                if any(c.type == "get" for c in m.children):
                    self.getters[name] = m
                elif not any(c.type == "set" for c in m.children):
                    self.methods[name] = m
            elif m.type == "public_field_definition" and not static:
                self.fields.append(m)


class Method:
    """A function of the language bound to its receiver (`s.trim`, `list.map`)."""

    __slots__ = ("receiver", "name")

    def __init__(self, receiver: Any, name: str):
        self.receiver, self.name = receiver, name


class Lazy:
    """A parameter or `this` read from the callers only when the run reads it."""

    __slots__ = ("force", "value")

    def __init__(self, force: Callable[[], Any]):
        self.force, self.value = force, _ABSENT


J._CALLABLE = (Closure, JsClass, Method, J.Builtin)


@dataclass
class _Run:
    target: ts.Node  # a call: its arguments are read each time the run reaches it, and the run goes on
    inside: frozenset[int]  # TARGET and its ancestors (by id)
    records: list
    main: str | None = None  # the module a top-level run runs (the script `process.argv[1]` names)


@dataclass(frozen=True, slots=True)
class Probed:
    """The values CALL's arguments had each time a run reached it; COMPLETE: every run went to its end."""

    arguments: tuple[tuple, ...]
    complete: bool


class Interpreter:
    def __init__(self, link, calls_of: Callable[[ts.Node], list], texts: dict[str, str], paths: frozenset[str]):
        self.link, self.calls_of, self.texts, self.paths = link, calls_of, texts, paths
        self.max_steps = MAX_STEPS
        self._spent = 0  # steps of the calls asked before
        self._steps = 0
        self._calls = 0
        self._maybe = 0  # depth of branches run as possibilities
        self._returns: list[list] = []  # of each call running: what a branch run as a possibility returned
        self._uncertain: dict[int, list] = {}  # lists a branch run as a possibility added to (their length: UNKNOWN)
        self._unset_read = False
        self._runs: list[_Run] = []
        self._globals: dict[tuple[str, str], Any] = {}
        self._module_envs: dict[str, Env] = {}
        self._classes: dict[int, JsClass] = {}
        self._reached: dict[int, tuple] = {}  # call id -> the arguments runs reached it with
        self._instances: dict[int, Any] = {}  # class node id -> an instance its constructions make
        self._builtins = B.modules(self)

    # -- the entry point ---------------------------------------------------------------------------------------------
    def probe(self, call: ts.Node, module: Module) -> Probed:
        """The arguments CALL is reached with in the runs that reach it (each of its functions run in the frames
        its callers give); within MAX_STEPS for this call, and MAX_TOTAL_STEPS for all the calls asked of this
        interpreter (one program)."""
        self.max_steps = min(MAX_STEPS, MAX_TOTAL_STEPS - self._spent)
        self._steps = 0
        if self.max_steps <= 0:
            return Probed((), False)
        run = _Run(call, frozenset([call.id, *(a.id for a in ancestors(call))]), [])
        complete = True
        try:
            complete = self._start(run, call, module)
        except (_Budget, RecursionError, _Unknown):
            complete = False
        except Exception:  # noqa: BLE001 - what the interpreter does not model is no tool, not a failed audit
            if os.environ.get("AUDITOR_DEBUG"):
                raise
            return Probed((), False)
        finally:
            self._spent += self._steps
            self._runs.clear()
            self._calls = self._maybe = 0
            self._returns.clear()
        return Probed(tuple(tuple(r) for r in run.records), complete)

    # -- runs ---------------------------------------------------------------------------------------------------------
    def _start(self, run: _Run, node: ts.Node, module: Module) -> bool:
        """Run what holds NODE in every frame its callers give; whether every run went to its end."""
        if len(self._runs) >= MAX_RUNS:
            raise _TooDeep()
        fn = _runnable(node)
        self._runs.append(run)
        complete = True
        try:
            if fn is None:
                run.main = module.path
                env = self._module_env(module)
                try:
                    self._block(module.tree.root_node.named_children, env)
                except (J.Throw, J.Exit, _Return):
                    pass
                except _Unknown:
                    complete = False
            else:
                for this, args in self._frames(fn, module):
                    try:
                        self._invoke(self._closure(fn, module), this, args)
                    except (J.Throw, J.Exit):
                        pass
                    except _Unknown:
                        complete = False
        finally:
            self._runs.pop()
        return complete

    def _frames(self, fn: ts.Node, module: Module) -> Iterable[tuple[Any, list]]:
        """(this, arguments) of each run of FN: one per time a run of a caller's function reaches a call of it (a call
        in a loop, once per element), `this` an instance its class's constructions make; one with the arguments not
        known when the boundary has no call of it (another package's to make), none when it has calls no run
        reaches (a command not given: `switch (command) { case "list": list(options) }`), one when it takes none."""
        params = _parameters(fn)
        cls = _class_of(fn)
        this = Lazy(lambda: self._instance(cls, module)) if cls is not None else None
        calls = self.calls_of(fn) if params else []
        made = 0
        for cmod, call in calls:
            for args in self._arguments_at(call, cmod):
                made += 1
                if made > MAX_FRAMES:
                    raise _Budget()
                yield this, list(args)
        if not calls:
            yield this, [UNKNOWN] * len(params)

    def _arguments_at(self, call: ts.Node, module: Module) -> tuple[tuple, ...]:
        """The arguments CALL is reached with, each time a run of the function it is written in reaches it."""
        if call.id in self._reached:
            return self._reached[call.id]
        self._reached[call.id] = ()  # (asked while it is read: a cycle)
        run = _Run(call, frozenset([call.id, *(a.id for a in ancestors(call))]), [])
        saved, self._maybe, calls, self._calls = self._maybe, 0, self._calls, 0  # (a run of its own)
        try:
            self._start(run, call, module)
        except _TooDeep:
            pass
        finally:
            self._maybe, self._calls = saved, calls
        self._reached[call.id] = tuple(tuple(r) for r in run.records)
        return self._reached[call.id]

    def _instance(self, cls: ts.Node, module: Module) -> Any:
        """An instance of class CLS as a construction of the boundary makes it (its constructor run on the
        arguments the first construction a run reaches passes); one made from unknown arguments when the boundary
        constructs it nowhere, UNKNOWN when no run reaches a construction of it."""
        if cls.id in self._instances:
            return self._instances[cls.id]
        self._instances[cls.id] = UNKNOWN
        jc = self._class(cls, module)
        made = None
        constructions = self._constructions(cls)
        for m, new in constructions:
            reached = self._arguments_at(new, m)
            if reached:
                made = self._construct(self._class_value(new, m) or jc, list(reached[0]))
                break
        if made is None:
            made = self._construct(jc, [UNKNOWN] * 4) if not constructions else UNKNOWN
        self._instances[cls.id] = made
        return made

    def _class_value(self, new: ts.Node, module: Module) -> JsClass | None:
        ctor = new.child_by_field_name("constructor")
        got = self._try(lambda: self._eval(ctor, self._module_env(module))) if ctor is not None else None
        return got if isinstance(got, JsClass) else None

    def _constructions(self, cls: ts.Node) -> list[tuple[Module, ts.Node]]:
        """`new C(...)` of the boundary for class CLS, or of a class of the boundary that extends it."""
        out = list(self.link.constructions(cls))
        for m in self.link.by_path.values():
            for info in m.classes.values():
                base = _base_class(info.node, m, self.link)
                if base is not None and base[0].id == cls.id and info.node.id != cls.id:
                    out += self.link.constructions(info.node)
        return out

    def _closure(self, fn: ts.Node, module: Module) -> Closure:
        """FN as a value: a method closes over its class, a top-level function over its module."""
        if fn.type == "method_definition" and fn.parent is not None and fn.parent.parent is not None \
                and fn.parent.parent.type in CLASS_TYPES:
            jc = self._class(fn.parent.parent, module)
            return Closure(fn, module, jc.env, jc)
        return Closure(fn, module, self._module_env(module))

    def _try(self, fn: Callable[[], Any]) -> Any:
        try:
            return fn()
        except (_Unknown, J.Throw, J.Exit, _Return, _Break, _Continue):
            return UNKNOWN

    # -- statements ---------------------------------------------------------------------------------------------------
    def _block(self, stmts: list[ts.Node], env: Env) -> None:
        for s in stmts:  # (function declarations are hoisted)
            if s.type == "function_declaration" or s.type == "export_statement" and s.named_children \
                    and s.named_children[0].type == "function_declaration":
                d = s if s.type == "function_declaration" else s.named_children[0]
                name = d.child_by_field_name("name")
                if name is not None:
                    env.vars[text(name)] = Closure(d, env.module, env)
        for s in stmts:
            self._exec(s, env)

    def _exec(self, s: ts.Node, env: Env) -> None:
        self._tick()
        t = s.type
        if t == "expression_statement":
            if s.named_children:
                self._eval(s.named_children[0], env)
        elif t in ("lexical_declaration", "variable_declaration"):
            for d in s.named_children:
                if d.type == "variable_declarator":
                    value = d.child_by_field_name("value")
                    self._bind(d.child_by_field_name("name"), self._eval(value, env) if value is not None else None,
                               env, declare=True)
        elif t == "statement_block":
            self._block(s.named_children, Env(env, env.module))
        elif t == "if_statement":
            self._if(s, env)
        elif t == "return_statement":
            parts = [c for c in s.named_children if c.type != "comment"]
            raise _Return(self._eval(parts[0], env) if parts else None)
        elif t == "throw_statement":
            parts = [c for c in s.named_children if c.type != "comment"]
            raise J.Throw(self._eval(parts[0], env) if parts else None)
        elif t == "for_in_statement":
            self._for_in(s, env)
        elif t == "for_statement":
            self._for(s, env)
        elif t in ("while_statement", "do_statement"):
            self._while(s, env, t == "do_statement")
        elif t == "break_statement":
            label = s.child_by_field_name("label")
            raise _Break(text(label) if label is not None else None)
        elif t == "continue_statement":
            label = s.child_by_field_name("label")
            raise _Continue(text(label) if label is not None else None)
        elif t == "try_statement":
            self._try_statement(s, env)
        elif t == "switch_statement":
            self._switch(s, env)
        elif t == "labeled_statement":
            label, body = text(s.child_by_field_name("label")), s.child_by_field_name("body")
            try:
                self._exec(body, env)
            except _Break as b:
                if b.label != label:
                    raise
        elif t == "function_declaration":
            name = s.child_by_field_name("name")
            if name is not None and text(name) not in env.vars:
                env.vars[text(name)] = Closure(s, env.module, env)
        elif t in ("class_declaration", "abstract_class_declaration"):
            name = s.child_by_field_name("name")
            if name is not None:
                env.vars[text(name)] = self._class(s, env.module, env)
        elif t == "export_statement":
            d = s.child_by_field_name("declaration")
            if d is not None:
                self._exec(d, env)
            elif s.child_by_field_name("value") is not None:
                self._eval(s.child_by_field_name("value"), env)
        # (imports, types, interfaces, comments, empty statements: nothing to run)

    def _if(self, s: ts.Node, env: Env) -> None:
        run = self._runs[-1]
        before = self._unset_read
        self._unset_read = False
        cond = J.truth(self._value(self._eval(s.child_by_field_name("condition"), env)))
        if self._unset_read:
            cond = UNKNOWN  # (a test of the configuration: either way)
        self._unset_read = before
        taken = s.child_by_field_name("consequence")
        other = s.child_by_field_name("alternative")
        other = next((c for c in other.named_children if c.type != "comment"), None) if other is not None else None
        if cond is UNKNOWN:
            if taken.id in run.inside:
                self._exec(taken, env)
            elif other is not None and other.id in run.inside:
                self._exec(other, env)
            else:
                self._possibly(taken, env)
                if other is not None:
                    self._possibly(other, env)
            return
        branch = taken if cond else other
        if branch is not None:
            self._exec(branch, env)

    def _possibly(self, s: ts.Node, env: Env) -> None:
        """Run S as what a run may or may not do: its writes join what was there; a jump ends only S."""
        self._maybe += 1
        try:
            self._exec(s, env)
        except _Return as r:
            if self._returns:
                self._returns[-1].append(r.value)
        except (J.Throw, J.Exit, _Break, _Continue, _Unknown):
            pass
        finally:
            self._maybe -= 1

    def _loop_body(self, body: ts.Node, env: Env, label: str | None) -> bool:
        """Run one iteration; False when the loop breaks."""
        try:
            self._exec(body, env)
        except _Break as b:
            if b.label is None or b.label == label:
                return False
            raise
        except _Continue as c:
            if c.label is not None and c.label != label:
                raise
        return True

    def _for_in(self, s: ts.Node, env: Env) -> None:
        of = text(s.child_by_field_name("operator")) == "of"
        right = self._value(self._eval(s.child_by_field_name("right"), env))
        items = self._items(right) if of else self._keys(right)
        body = s.child_by_field_name("body")
        if items is None:
            if body.id in self._runs[-1].inside:
                raise _Unknown()
            return
        left, kind = s.child_by_field_name("left"), s.child_by_field_name("kind")
        label = _label(s)
        for i, item in enumerate(list(items)):
            if i >= MAX_LOOP:
                raise _Budget()
            inner = Env(env, env.module)
            self._bind(left, item, inner if kind is not None else env, declare=kind is not None)
            if not self._loop_body(body, inner, label):
                break

    def _for(self, s: ts.Node, env: Env) -> None:
        inner = Env(env, env.module)
        init = s.child_by_field_name("initializer")
        if init is not None:
            if init.type in ("lexical_declaration", "variable_declaration"):
                self._exec(init, inner)
            else:
                self._eval(init, inner)
        cond = next((c for c in s.children_by_field_name("condition") if c.type != ";"), None)
        incr = s.child_by_field_name("increment")
        body, label = s.child_by_field_name("body"), _label(s)
        for i in range(MAX_LOOP + 1):
            if i == MAX_LOOP:
                raise _Budget()
            if cond is not None and not self._goes_on(cond.named_children[0] if cond.type == "expression_statement"
                                                      and cond.named_children else cond, body, inner):
                return
            if not self._loop_body(body, Env(inner, env.module), label):
                return
            if incr is not None:
                self._eval(incr, inner)

    def _while(self, s: ts.Node, env: Env, do: bool) -> None:
        cond, body, label = s.child_by_field_name("condition"), s.child_by_field_name("body"), _label(s)
        for i in range(MAX_LOOP + 1):
            if i == MAX_LOOP:
                raise _Budget()
            if not (do and i == 0) and not self._goes_on(cond, body, env):
                return
            if not self._loop_body(body, Env(env, env.module), label):
                return

    def _goes_on(self, cond: ts.Node, body: ts.Node, env: Env) -> bool:
        """Whether a loop's test lets it go on; one not known ends it (the run where it does not), unless the body
        holds what the run is to reach (then the run cannot go on)."""
        go = J.truth(self._value(self._eval(cond, env)))
        if go is UNKNOWN and body.id in self._runs[-1].inside:
            raise _Unknown()
        return go is True

    def _try_statement(self, s: ts.Node, env: Env) -> None:
        handler, finalizer = s.child_by_field_name("handler"), s.child_by_field_name("finalizer")
        try:
            try:
                self._exec(s.child_by_field_name("body"), env)
            except J.Throw as t:
                if handler is None:
                    raise
                inner = Env(env, env.module)
                param = handler.child_by_field_name("parameter")
                if param is not None:
                    self._bind(param, t.value, inner, declare=True)
                self._exec(handler.child_by_field_name("body"), inner)
        finally:
            if finalizer is not None:
                self._exec(finalizer.child_by_field_name("body"), env)

    def _switch(self, s: ts.Node, env: Env) -> None:
        before, self._unset_read = self._unset_read, False
        value = self._value(self._eval(s.child_by_field_name("value"), env))
        if self._unset_read:
            value = UNKNOWN  # (a test of the configuration)
        self._unset_read = before
        body = s.child_by_field_name("body")
        cases = [c for c in body.named_children if c.type in ("switch_case", "switch_default")]
        start = None
        if value is not UNKNOWN:
            for i, c in enumerate(cases):
                if c.type == "switch_case":
                    same = J.strict_equal(value, self._value(self._eval(c.child_by_field_name("value"), env)))
                    if same is UNKNOWN:
                        start = None
                        break
                    if same:
                        start = i
                        break
            else:
                start = next((i for i, c in enumerate(cases) if c.type == "switch_default"), None)
                if start is None:
                    return
        if start is None:
            start = next((i for i, c in enumerate(cases) if c.id in self._runs[-1].inside), None)
            if start is None:
                return
        inner = Env(env, env.module)
        try:
            for c in cases[start:]:
                for st in c.children_by_field_name("body"):
                    self._exec(st, inner)
        except _Break as b:
            if b.label is not None:
                raise

    # -- bindings -----------------------------------------------------------------------------------------------------
    def _bind(self, pattern: ts.Node | None, value: Any, env: Env, declare: bool) -> None:
        if pattern is None:
            return
        t = pattern.type
        if t in ("identifier", "shorthand_property_identifier_pattern"):
            self._set(text(pattern), value, env, declare)
        elif t == "object_pattern":
            held = self._value(value)
            used = []
            for c in pattern.named_children:
                if c.type == "shorthand_property_identifier_pattern":
                    used.append(text(c))
                    self._set(text(c), self._member(held, text(c)), env, declare)
                elif c.type == "pair_pattern":
                    k = c.child_by_field_name("key")
                    name = self._key_name(k, env)
                    used.append(name)
                    self._bind(c.child_by_field_name("value"), self._member(held, name) if name is not UNKNOWN
                               else UNKNOWN, env, declare)
                elif c.type == "object_assignment_pattern":
                    left, right = c.child_by_field_name("left"), c.child_by_field_name("right")
                    name = text(left)
                    used.append(name)
                    got = self._member(held, name)
                    self._bind(left, self._eval(right, env) if got is None else got, env, declare)
                elif c.type == "rest_pattern":
                    rest = J.JsObject({k: v for k, v in held.items() if k not in used}) \
                        if isinstance(held, dict) else UNKNOWN
                    self._bind(c.named_children[0] if c.named_children else None, rest, env, declare)
        elif t == "array_pattern":
            held = self._value(value)
            items = self._items(held)
            for i, c in enumerate(pattern.named_children):
                if c.type == "rest_pattern":
                    self._bind(c.named_children[0] if c.named_children else None,
                               list(items[i:]) if items is not None else UNKNOWN, env, declare)
                    break
                item = (items[i] if i < len(items) else None) if items is not None else UNKNOWN
                if c.type == "assignment_pattern":
                    if item is None:
                        item = self._eval(c.child_by_field_name("right"), env)
                    c = c.child_by_field_name("left")
                self._bind(c, item, env, declare)
        elif t == "assignment_pattern":
            if value is None:
                value = self._eval(pattern.child_by_field_name("right"), env)
            self._bind(pattern.child_by_field_name("left"), value, env, declare)
        elif t in ("member_expression", "subscript_expression"):
            self._assign_to(pattern, value, env)
        elif t == "parenthesized_expression" and pattern.named_children:
            self._bind(pattern.named_children[0], value, env, declare)

    def _set(self, name: str, value: Any, env: Env, declare: bool) -> None:
        if declare:
            env.vars[name] = value
            return
        cur = env
        while cur is not None:
            if name in cur.vars:
                cur.vars[name] = _join(cur.vars[name], value) if self._maybe else value
                return
            cur = cur.parent
        where = self.link.binding(env.module, name)
        if where is not None:
            home_env = self._module_env(where[0])
            if where[1] in home_env.vars:
                home_env.vars[where[1]] = _join(home_env.vars[where[1]], value) if self._maybe else value
                return
            k = (where[0].path, where[1])
            self._globals[k] = _join(self._global(env.module, name), value) if self._maybe else value

    # -- expressions --------------------------------------------------------------------------------------------------
    def _tick(self) -> None:
        self._steps += 1
        if self._steps > self.max_steps:
            raise _Budget()

    def _value(self, v: Any) -> Any:
        """V as an operation reads it: a Lazy read, an environment variable not set as undefined."""
        if isinstance(v, Lazy):
            v = self._force(v)
        if v is UNSET:
            self._unset_read = True
            return None
        return v

    def _text(self, v: Any) -> Any:
        """V where it is made text (a template, `+`): a configured value is not known (undefined is no name)."""
        if isinstance(v, Lazy):
            v = self._force(v)
        return UNKNOWN if v is UNSET else v

    def _force(self, lazy: Lazy) -> Any:
        if lazy.value is _ABSENT:
            lazy.value = UNKNOWN
            lazy.value = lazy.force()
        return lazy.value

    def _eval(self, node: ts.Node | None, env: Env) -> Any:
        if node is None:
            return UNKNOWN
        self._tick()
        node = strip_casts(node)
        t = node.type
        if t == "identifier":
            return self._name(text(node), env, node)
        if t in ("string", "template_string"):
            return self._string(node, env)
        if t == "number":
            number = number_value(node)
            return UNKNOWN if number is None else number
        if t in ("true", "false"):
            return t == "true"
        if t == "null":
            return NULL
        if t == "undefined":
            return None
        if t == "this":
            return self._this(env)
        if t == "member_expression":
            return self._member_expression(node, env)
        if t == "subscript_expression":
            holder = self._value(self._eval(node.child_by_field_name("object"), env))
            if holder is None or holder is NULL and node.child_by_field_name("optional_chain") is not None:
                return None
            k = self._value(self._eval(node.child_by_field_name("index"), env))
            return self._member(holder, k)
        if t == "call_expression":
            return self._call(node, env)
        if t == "new_expression":
            return self._new(node, env)
        if t == "await_expression":
            inner = node.named_children[0] if node.named_children else None
            return self._eval(inner, env)
        if t == "object":
            return self._object(node, env)
        if t == "array":
            out: list = []
            for c in node.named_children:
                if c.type == "spread_element":
                    items = self._items(self._value(self._eval(c.named_children[0], env)))
                    if items is None:
                        return UNKNOWN
                    out += items
                elif c.type != "comment":
                    out.append(self._eval(c, env))
            return out
        if t in FUNCTION_TYPES:
            fn = Closure(node, env.module, env, _home(env))
            name = node.child_by_field_name("name")
            if name is not None and t in ("function_expression", "function"):
                inner = Env(env, env.module)
                inner.vars[text(name)] = fn
                fn.env = inner
            return fn
        if t in CLASS_TYPES:
            return self._class(node, env.module, env)
        if t == "binary_expression":
            return self._binary(node, env)
        if t == "unary_expression":
            return self._unary(node, env)
        if t == "update_expression":
            arg = node.child_by_field_name("argument")
            old = J.to_number(self._value(self._eval(arg, env)))
            new = J.arithmetic("+" if "++" in text(node.child_by_field_name("operator")) else "-", old, 1)
            self._assign_to(arg, new, env)
            return new if text(node).startswith(("++", "--")) else old
        if t == "assignment_expression":
            value = self._eval(node.child_by_field_name("right"), env)
            left = node.child_by_field_name("left")
            if left.type in ("object_pattern", "array_pattern"):
                self._bind(left, value, env, declare=False)
            else:
                self._assign_to(left, value, env)
            return value
        if t == "augmented_assignment_expression":
            return self._augmented(node, env)
        if t == "ternary_expression":
            before, self._unset_read = self._unset_read, False
            cond = J.truth(self._value(self._eval(node.child_by_field_name("condition"), env)))
            if self._unset_read:
                cond = UNKNOWN  # (a test of the configuration)
            self._unset_read = before or self._unset_read
            if cond is UNKNOWN:
                a = self._eval(node.child_by_field_name("consequence"), env)
                b = self._eval(node.child_by_field_name("alternative"), env)
                return _join(self._value(a), self._value(b))
            return self._eval(node.child_by_field_name("consequence" if cond else "alternative"), env)
        if t == "sequence_expression":
            out = UNKNOWN
            for c in node.named_children:
                out = self._eval(c, env)
            return out
        if t == "regex":
            return J.JsRegex(text(node.child_by_field_name("pattern")), text(node.child_by_field_name("flags")))
        if t == "spread_element":
            return UNKNOWN
        return UNKNOWN

    def _name(self, name: str, env: Env, node: ts.Node | None = None) -> Any:
        cur = env
        while cur is not None:
            if name in cur.vars:
                v = cur.vars[name]
                if isinstance(v, Lazy):
                    v = self._force(v)
                return v
            cur = cur.parent
        if name == "undefined":
            return None
        return self._global(env.module, name)

    def _global(self, module: Module, name: str) -> Any:
        b = self.link.imports.get(module.path, {}).get(name)
        if b is not None and b.module is None:
            return self._package(b.spec, b.name, module)
        if b is not None and b.name == "*":
            return _Namespace(b.module) if b.module is not None else UNKNOWN
        where = self.link.binding(module, name)
        if where is None:
            return UNKNOWN
        home, local = where
        env = self._module_env(home)
        if local in env.vars:
            return env.vars[local]
        k = (home.path, local)
        if k in self._globals:
            v = self._globals[k]
            return self._force(v) if isinstance(v, Lazy) else v
        fn = home.functions.get(local)
        if fn is not None:
            got = self._globals[k] = Closure(fn, home, env)
            return got
        info = home.classes.get(local)
        value = self.link.value(home, local)
        if info is not None and (value is None or value.type in CLASS_TYPES):
            got = self._globals[k] = self._class(info.node, home, env)
            return got
        if value is None:
            if home is module and b is None:
                return self._ambient(name, module)
            return UNKNOWN
        self._globals[k] = UNKNOWN  # (read while it is read: a cycle)
        try:
            got = self._eval(value, env)
        except (_Unknown, J.Throw, J.Exit, _Return, _Break, _Continue):
            got = UNKNOWN
        decl = value.parent
        pattern = decl.child_by_field_name("name") if decl is not None and decl.type == "variable_declarator" else None
        if pattern is not None and pattern.type != "identifier":  # `const { a, b } = make()`
            scratch = Env(None, home)
            self._bind(pattern, got, scratch, declare=True)
            got = scratch.vars.get(local, UNKNOWN)
        self._globals[k] = got
        return got

    def _ambient(self, name: str, module: Module) -> Any:
        """A name no code of the module declares: the language's own, or Node's."""
        if name == "__dirname":
            return posixpath.join(J.ROOT, posixpath.dirname(module.path)).rstrip("/")
        if name == "__filename":
            return posixpath.join(J.ROOT, module.path)
        if name == "require":
            return J.Builtin("require", lambda this, args, m=module: self._require(args, m))
        return self._builtins.get(name, UNKNOWN)

    def _require(self, args: list, module: Module) -> Any:
        spec = self._value(args[0]) if args else UNKNOWN
        if not isinstance(spec, str):
            return UNKNOWN
        if not spec.startswith("."):
            return self._package(spec, "*", module)
        for c in candidates(module.path, spec):
            if c in self.link.by_path:
                return _Namespace(c)
        return self._package(spec, "*", module)

    def _package(self, spec: str, name: str, module: Module) -> Any:
        """What an import of SPEC (outside the boundary's modules) gives: Node's modules the interpreter models, a
        JSON document of the boundary; else UNKNOWN."""
        if spec.startswith(".") and spec.endswith(".json"):
            path = posixpath.normpath(posixpath.join(posixpath.dirname(module.path), spec))
            return J.json_parse(self.texts.get(path)) if name in ("default", "*") else UNKNOWN
        base = spec[5:] if spec.startswith("node:") else spec
        held = self._builtins.get("module:" + base)
        if held is None:
            return UNKNOWN
        return held if name in ("default", "*") else held.get(name, UNKNOWN)

    def _module_env(self, module: Module) -> Env:
        env = self._module_envs.get(module.path)
        if env is None:
            env = self._module_envs[module.path] = Env(None, module)
        return env

    def _string(self, node: ts.Node, env: Env) -> Any:
        if node.type == "string":
            v = string_value(node)
            return v if v is not None else UNKNOWN
        out = []
        for c in node.children:
            if c.type == "string_fragment":
                out.append(_template_text(c.text))
            elif c.type == "escape_sequence":
                out.append(unescape(text(c)))
            elif c.type == "template_substitution":
                inner = c.named_children[0] if c.named_children else None
                s = J.to_str(self._text(self._eval(inner, env)))
                if s is UNKNOWN:
                    return UNKNOWN
                out.append(s)
        return "".join(out)

    def _key_name(self, k: ts.Node | None, env: Env) -> Any:
        if k is None:
            return UNKNOWN
        if k.type == "computed_property_name":
            v = self._value(self._eval(k.named_children[0] if k.named_children else None, env))
            return J.to_str(v) if v is not UNKNOWN else UNKNOWN
        return property_name(k)

    def _object(self, node: ts.Node, env: Env) -> Any:
        out = J.JsObject(node=node, module=env.module)
        for c in node.named_children:
            t = c.type
            if t == "pair":
                k = self._key_name(c.child_by_field_name("key"), env)
                v = self._eval(c.child_by_field_name("value"), env)
                if k is UNKNOWN:
                    return UNKNOWN
                out[k] = v
            elif t == "shorthand_property_identifier":
                out[text(c)] = self._name(text(c), env)
            elif t == "method_definition":
                k = self._key_name(c.child_by_field_name("name"), env)
                if k is UNKNOWN or any(x.type in ("get", "set") for x in c.children):
                    continue
                out[k] = Closure(c, env.module, env, _home(env))
            elif t == "spread_element":
                v = self._value(self._eval(c.named_children[0] if c.named_children else None, env))
                if isinstance(v, dict):
                    out.update(v)
                elif isinstance(v, list):
                    out.update({str(i): x for i, x in enumerate(v)})
                elif v is not None and v is not NULL and not isinstance(v, (str, int, float, bool)):
                    return UNKNOWN
        return out

    def _member_expression(self, node: ts.Node, env: Env) -> Any:
        obj = node.child_by_field_name("object")
        key = text(node.child_by_field_name("property"))
        if obj is not None and obj.type == "meta_property":
            return "file://" + posixpath.join(J.ROOT, env.module.path) if key == "url" else UNKNOWN
        if obj is not None and obj.type == "super":
            home = _home(env)
            parent = home.parent if isinstance(home, JsClass) else None
            m = self._class_member(parent, key) if isinstance(parent, JsClass) else None
            return m if m is not None else UNKNOWN
        holder = self._value(self._eval(obj, env))
        if (holder is None or holder is NULL) and node.child_by_field_name("optional_chain") is not None:
            return None
        return self._member(holder, key)

    def _member(self, holder: Any, key: Any) -> Any:
        holder = self._value(holder)
        key = self._value(key)
        if holder is UNKNOWN or key is UNKNOWN:
            return UNKNOWN
        if holder is None or holder is NULL:
            raise J.Throw(B.error(f"Cannot read properties of {J.to_str(holder)}"))
        if not isinstance(key, str):
            n = J.integral(key)
            if isinstance(holder, (list, str)) and n is not None:
                return holder[n] if 0 <= n < len(holder) else None
            key = J.to_str(key)
            if key is UNKNOWN:
                return UNKNOWN
        if isinstance(holder, _Namespace):
            return self._exported(holder.path, key)
        if isinstance(holder, B.EnvVars):
            return UNSET
        if isinstance(holder, dict):
            if key in holder:
                v = holder[key]
                return self._force(v) if isinstance(v, Lazy) else v
            if isinstance(holder, J.JsObject) and holder.cls is not None:
                got = self._class_member(holder.cls, key, holder)
                if got is not None:
                    return got
            if isinstance(holder, B.BuiltinModule):
                return UNKNOWN
            return Method(holder, key) if key in B.OBJECT_METHODS else None
        if isinstance(holder, list):
            if key == "length":
                return len(holder) if id(holder) not in self._uncertain else UNKNOWN
            n = J.integral(J.to_number(key)) if key.isdigit() else None
            if n is not None:
                return holder[n] if n < len(holder) else None
            return Method(holder, key) if key in B.LIST_METHODS else None
        if isinstance(holder, str):
            if key == "length":
                return len(holder.encode("utf-16-le")) // 2
            if key.isdigit():
                n = int(key)
                return holder[n] if n < len(holder) else None
            return Method(holder, key) if key in B.STRING_METHODS else None
        if isinstance(holder, JsClass):
            return self._static(holder, key)
        if isinstance(holder, (J.JsMap, J.JsSet)):
            if key == "size":
                return len(holder.entries)
            return Method(holder, key)
        if isinstance(holder, J.JsRegex):
            if key in ("source", "flags"):
                return getattr(holder, key)
            if key == "global":
                return "g" in holder.flags
            return Method(holder, key) if key in ("test", "exec") else None
        if isinstance(holder, B.WithMembers) and key in holder.members:
            return holder.members[key]
        if isinstance(holder, (Closure, J.Builtin, Method)):
            if key in ("call", "apply", "bind"):
                return Method(holder, key)
            if key == "name" and isinstance(holder, Closure):
                n = holder.node.child_by_field_name("name")
                return text(n) if n is not None else ""
            return UNKNOWN
        if isinstance(holder, (int, float, bool)):
            return Method(holder, key) if key in ("toString", "toFixed", "valueOf") else None
        return UNKNOWN

    def _exported(self, path: str, key: str) -> Any:
        m = self.link.by_path.get(path)
        where = self.link.exported(path, key) if m is not None else None
        if where is None:
            return UNKNOWN
        home, local = where
        if local == "*":
            return _Namespace(home.path)
        return self._global(home, local) if local in home.toplevel or local in home.functions \
            or local in home.classes or self.link.value(home, local) is not None else UNKNOWN

    # -- classes ------------------------------------------------------------------------------------------------------
    def _class(self, node: ts.Node, module: Module, env: Env | None = None) -> JsClass:
        got = self._classes.get(node.id)
        if got is None:
            env = env or self._module_env(module)
            base = class_base(node)
            parent = None
            if base is not None:
                parent = self._try(lambda: self._value(self._eval(base, env)))
                parent = parent if isinstance(parent, JsClass) else UNKNOWN
            got = self._classes[node.id] = JsClass(node, module, env, parent)
        return got

    def _class_member(self, cls: Any, key: str, this: Any = None) -> Any:
        while isinstance(cls, JsClass):
            if key in cls.methods:
                return Closure(cls.methods[key], cls.module, cls.env, cls)
            if key in cls.getters and this is not None:
                return self._invoke(Closure(cls.getters[key], cls.module, cls.env, cls), this, [])
            cls = cls.parent
        return None

    def _static(self, cls: JsClass, key: str) -> Any:
        if cls.statics is None:
            cls.statics = {}
            body = cls.node.child_by_field_name("body")
            for m in body.named_children if body is not None else ():
                if not any(c.type == "static" for c in m.children):
                    continue
                name = property_name(m.child_by_field_name("name")) if m.child_by_field_name("name") else None
                if name is None:
                    continue
                if m.type == "method_definition":
                    cls.statics[name] = Closure(m, cls.module, cls.env, cls)
                elif m.type == "public_field_definition":
                    v = m.child_by_field_name("value")
                    env = Env(cls.env, cls.module, this=cls, home=cls)
                    cls.statics[name] = self._try(lambda v=v, env=env: self._eval(v, env)) if v is not None else None
        if key in cls.statics:
            return cls.statics[key]
        if key == "name":
            return cls.name
        return self._static(cls.parent, key) if isinstance(cls.parent, JsClass) else UNKNOWN

    def _construct(self, cls: Any, args: list) -> Any:
        if not isinstance(cls, JsClass):
            return UNKNOWN
        obj = J.JsObject(cls=cls)
        self._initialise(cls, obj, args)
        return obj

    def _initialise(self, cls: JsClass, obj: J.JsObject, args: list) -> None:
        ctor = cls.methods.get("constructor")
        if ctor is None:
            if isinstance(cls.parent, JsClass):
                self._initialise(cls.parent, obj, args)
            self._fields(cls, obj)
            return
        if cls.parent is None:
            self._fields(cls, obj)
        self._invoke(Closure(ctor, cls.module, cls.env, cls), obj, args, constructing=True)

    def _fields(self, cls: JsClass, obj: J.JsObject) -> None:
        env = Env(cls.env, cls.module, this=obj, home=cls)
        for f in cls.fields:
            name = f.child_by_field_name("name")
            v = f.child_by_field_name("value")
            if name is not None:
                obj[text(name)] = self._try(lambda v=v: self._eval(v, env)) if v is not None else None

    # -- operators ----------------------------------------------------------------------------------------------------
    def _binary(self, node: ts.Node, env: Env) -> Any:
        op = text(node.child_by_field_name("operator"))
        left_raw = self._eval(node.child_by_field_name("left"), env)
        left = self._value(left_raw)
        if op in ("&&", "||", "??"):
            if left is UNKNOWN or _decides(op, left):
                return left
            return self._value(self._eval(node.child_by_field_name("right"), env))
        right_raw = self._eval(node.child_by_field_name("right"), env)
        if op == "+" and (self._text(left_raw) is UNKNOWN or self._text(right_raw) is UNKNOWN):
            return UNKNOWN  # (text made of a configured value)
        right = self._value(right_raw)
        if op == "===":
            return J.strict_equal(left, right)
        if op == "!==":
            r = J.strict_equal(left, right)
            return r if r is UNKNOWN else not r
        if op == "==":
            return J.loose_equal(left, right)
        if op == "!=":
            r = J.loose_equal(left, right)
            return r if r is UNKNOWN else not r
        if op in ("<", "<=", ">", ">="):
            return J.compare(op, left, right)
        if op == "in":
            if isinstance(right, dict) and isinstance(left, str):
                return left in right or isinstance(right, J.JsObject) and right.cls is not None \
                    and self._class_member(right.cls, left) is not None
            return UNKNOWN
        if op == "instanceof":
            if isinstance(left, J.JsObject) and isinstance(right, JsClass):
                cls = left.cls
                while isinstance(cls, JsClass):
                    if cls is right:
                        return True
                    cls = cls.parent
                return False if left.cls is not None and cls is None else UNKNOWN
            return UNKNOWN
        return J.arithmetic(op, left, right)

    def _unary(self, node: ts.Node, env: Env) -> Any:
        op = text(node.child_by_field_name("operator"))
        arg = node.child_by_field_name("argument")
        if op == "typeof" and arg is not None and arg.type == "identifier":
            v = self._value(self._name(text(arg), env))
            return J.typeof(v)
        if op == "delete":
            if arg is not None and arg.type == "member_expression":
                holder = self._value(self._eval(arg.child_by_field_name("object"), env))
                if isinstance(holder, dict) and not self._maybe:
                    holder.pop(text(arg.child_by_field_name("property")), None)
            return True
        v = self._value(self._eval(arg, env))
        if op == "!":
            t = J.truth(v)
            return t if t is UNKNOWN else not t
        if op == "typeof":
            return J.typeof(v)
        if op == "void":
            return None
        if op == "-":
            n = J.to_number(v)
            return n if n is UNKNOWN else -n
        if op == "+":
            return J.to_number(v)
        if op == "~":
            n = J.to_number(v)
            return n if n is UNKNOWN else J.arithmetic("^", n, -1)
        return UNKNOWN

    def _assign_to(self, left: ts.Node, value: Any, env: Env) -> None:
        t = left.type
        if t == "identifier":
            self._set(text(left), value, env, declare=False)
        elif t in ("member_expression", "subscript_expression"):
            holder = self._value(self._eval(left.child_by_field_name("object"), env))
            k = text(left.child_by_field_name("property")) if t == "member_expression" else \
                self._value(self._eval(left.child_by_field_name("index"), env))
            self._put(holder, k, value)
        elif t in ("parenthesized_expression", "non_null_expression", "as_expression") and left.named_children:
            self._assign_to(left.named_children[0], value, env)

    def _put(self, holder: Any, k: Any, value: Any) -> None:
        if k is UNKNOWN or holder is UNKNOWN:
            return
        if isinstance(holder, list):
            n = J.integral(k if not isinstance(k, str) else J.to_number(k))
            if n is not None and 0 <= n <= len(holder) + 1000:
                while len(holder) <= n:
                    holder.append(None)
                holder[n] = _join(holder[n], value) if self._maybe else value
            elif k == "length" and J.integral(value) is not None and not self._maybe:
                del holder[J.integral(value):]
            return
        if isinstance(holder, JsClass):
            self._static(holder, "")
            holder.statics[J.to_str(k)] = value
            return
        if isinstance(holder, dict) and not isinstance(holder, (B.EnvVars, B.BuiltinModule)):
            key = k if isinstance(k, str) else J.to_str(k)
            if key is UNKNOWN:
                return
            holder[key] = _join(holder[key], value) if self._maybe and key in holder else value

    def _augmented(self, node: ts.Node, env: Env) -> Any:
        op = text(node.child_by_field_name("operator"))[:-1]
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        old = self._value(self._eval(left, env))
        if op in ("&&", "||", "??"):
            if old is UNKNOWN or _decides(op, old):
                return old
            new = self._eval(right, env)
        else:
            new = J.arithmetic(op, old, self._value(self._eval(right, env)))
        self._assign_to(left, new, env)
        return new

    # -- calls --------------------------------------------------------------------------------------------------------
    def _at_target(self, node: ts.Node, env: Env) -> bool:
        """Whether NODE is the call the run is to reach: its arguments are then read (the call itself is not run)."""
        run = self._runs[-1]
        if node.id != run.target.id:
            return False
        run.records.append(self._arguments(node.child_by_field_name("arguments"), env))
        return True

    def _call(self, node: ts.Node, env: Env) -> Any:
        if self._at_target(node, env):
            return UNKNOWN
        args_node = node.child_by_field_name("arguments")
        callee = call_function(node)  # (`(0, m.f)(x)` calls m.f)
        if callee is None or args_node is None or args_node.type != "arguments":
            return UNKNOWN  # (a tagged template)
        optional = any(c.type == "?." for c in node.children)
        if callee.type == "super":
            home = _home(env)
            parent = home.parent if isinstance(home, JsClass) else None
            this = self._this(env)
            args = self._arguments(args_node, env)
            if isinstance(parent, JsClass) and isinstance(this, J.JsObject):
                self._initialise(parent, this, args)
            if isinstance(home, JsClass) and isinstance(this, J.JsObject):
                self._fields(home, this)
            return None
        if callee.type == "member_expression":
            obj = callee.child_by_field_name("object")
            key = text(callee.child_by_field_name("property"))
            if obj.type == "super":
                fn, this = self._member_expression(callee, env), self._this(env)
            else:
                this = self._value(self._eval(obj, env))
                if (this is None or this is NULL) and callee.child_by_field_name("optional_chain") is not None:
                    return None
                if key in ("then", "catch", "finally") and not (isinstance(this, dict) and key in this):
                    return self._promise(this, key, self._arguments(args_node, env))
                fn = self._member(this, key)
        elif callee.type == "import":
            return UNKNOWN
        else:
            fn, this = self._value(self._eval(callee, env)), None
        if optional and (fn is None or fn is NULL):
            return None
        return self._call_value(fn, this, self._arguments(args_node, env))

    def _this(self, env: Env) -> Any:
        cur = env
        while cur is not None and cur.this is _ABSENT:
            cur = cur.parent
        return self._value(cur.this) if cur is not None else UNKNOWN

    def _arguments(self, args_node: ts.Node | None, env: Env) -> list:
        out: list = []
        for a in args_node.named_children if args_node is not None else ():
            if a.type == "comment":
                continue
            if a.type == "spread_element":
                items = self._items(self._value(self._eval(a.named_children[0] if a.named_children else None, env)))
                if items is None:
                    out.append(UNKNOWN)
                    continue
                out += items
            else:
                out.append(self._eval(a, env))
        return out

    def _promise(self, value: Any, key: str, args: list) -> Any:
        """`.then(f)`, `.catch(f)`, `.finally(f)` of what an async function returned (its value: they run at once)."""
        fn = args[0] if args else None
        if key == "then" and fn is not None:
            return self._call_value(fn, None, [value]) if value is not UNKNOWN or self._holds_target(fn) \
                else UNKNOWN
        if key == "finally" and fn is not None:
            self._call_value(fn, None, [])
        return value

    def _holds_target(self, fn: Any) -> bool:
        return isinstance(fn, Closure) and fn.node.id in self._runs[-1].inside

    def _handed_on(self, args: list) -> None:
        """A function outside the boundary may call a function handed to it: the one that holds what the run is to
        reach (a registration in `program.action(async (opts) => ...)`) is called, with its arguments not known."""
        for a in args:
            if self._holds_target(self._value(a)):
                self._invoke(self._value(a), None, [UNKNOWN] * 4)

    def _call_value(self, fn: Any, this: Any, args: list) -> Any:
        fn = self._value(fn)
        if isinstance(fn, Closure):
            return self._invoke(fn, this, args)
        if isinstance(fn, J.Builtin):
            return fn.fn(this, args)
        if isinstance(fn, Method):
            return self._method(fn.receiver, fn.name, args)
        if fn is None or fn is NULL:
            raise J.Throw(B.error("not a function"))
        self._handed_on(args)  # (a function outside the boundary)
        return UNKNOWN

    def _invoke(self, fn: Closure, this: Any, args: list, constructing: bool = False) -> Any:
        node = fn.node
        if node.type in ("generator_function_declaration", "generator_function") \
                or any(c.type == "*" for c in node.children):
            return UNKNOWN
        self._calls += 1
        if self._calls > MAX_CALLS:
            self._calls -= 1
            raise _Unknown()  # (this run does not go on)
        try:
            arrow = node.type == "arrow_function"
            env = Env(fn.env, fn.module, _ABSENT if arrow else this, fn.home)
            self._parameters(node, args, env, this if constructing else None)
            body = node.child_by_field_name("body")
            if body is None:
                return UNKNOWN
            if body.type != "statement_block":
                return self._eval(body, env)
            self._returns.append([])
            try:
                self._block(body.named_children, env)
                value = None
            except _Return as r:
                value = r.value
            finally:
                possible = self._returns.pop()
            for other in possible:  # (a return a branch run as a possibility makes)
                value = _either(self._value(value), self._value(other))
            return value
        finally:
            self._calls -= 1

    def _parameters(self, node: ts.Node, args: list, env: Env, this: Any) -> None:
        for i, p in enumerate(_parameters(node)):
            value = args[i] if i < len(args) else None
            if p.type in ("required_parameter", "optional_parameter"):
                pattern, default = p.child_by_field_name("pattern"), p.child_by_field_name("value")
                if pattern is not None and pattern.type == "rest_pattern":
                    self._bind(pattern.named_children[0] if pattern.named_children else None, list(args[i:]), env,
                               declare=True)
                    continue
                if default is not None:
                    if isinstance(value, Lazy):
                        value = Lazy(lambda v=value, d=default: _or_default(self._force(v), lambda: self._eval(d, env)))
                    elif value is None or value is UNSET:
                        value = self._eval(default, env)
                self._bind(pattern, value, env, declare=True)
                if isinstance(this, J.JsObject) and any(c.type in ("accessibility_modifier", "readonly")
                                                        for c in p.children) and pattern is not None:
                    this[text(pattern)] = value  # (`constructor(private client: Client)`)
            elif p.type == "rest_pattern":
                self._bind(p.named_children[0] if p.named_children else None, list(args[i:]), env, declare=True)
            else:
                self._bind(p, value, env, declare=True)

    def _new(self, node: ts.Node, env: Env) -> Any:
        if self._at_target(node, env):
            return UNKNOWN
        args_node = node.child_by_field_name("arguments")
        cls = self._value(self._eval(direct(node.child_by_field_name("constructor")), env))
        args = self._arguments(args_node, env) if args_node is not None else []
        if isinstance(cls, JsClass):
            return self._construct(cls, args)
        if isinstance(cls, J.Builtin):
            return cls.fn(B.NEW, args)
        self._handed_on(args)
        return UNKNOWN

    # -- the language's own functions ---------------------------------------------------------------------------------
    def _items(self, v: Any) -> list | None:
        v = self._value(v)
        if isinstance(v, list):
            return v
        if isinstance(v, str):
            return list(v)
        if isinstance(v, J.JsMap):
            return [[k, x] for k, x in v.entries.values()]
        if isinstance(v, J.JsSet):
            return list(v.entries.values())
        return None

    def _keys(self, v: Any) -> list | None:
        v = self._value(v)
        if isinstance(v, B.EnvVars):
            return []
        if isinstance(v, dict):
            ints = sorted((k for k in v if k.isdigit() and (k == "0" or not k.startswith("0"))), key=int)
            return ints + [k for k in v if k not in ints]
        if isinstance(v, list):
            return [str(i) for i in range(len(v))]
        if isinstance(v, str):
            return [str(i) for i in range(len(v))]
        return None

    def _method(self, recv: Any, name: str, args: list) -> Any:
        args = [self._value(a) for a in args]
        if isinstance(recv, (Closure, J.Builtin, Method)):
            if name == "call":
                return self._call_value(recv, args[0] if args else None, args[1:])
            if name == "apply":
                more = self._items(args[1]) if len(args) > 1 else []
                return self._call_value(recv, args[0] if args else None, more or []) if more is not None else UNKNOWN
            if name == "bind":
                bound_this, bound = (args[0] if args else None), args[1:]
                return J.Builtin("bound", lambda this, a: self._call_value(recv, bound_this, bound + a))
        if isinstance(recv, str):
            return B.string_method(self, recv, name, args)
        if isinstance(recv, list):
            return B.list_method(self, recv, name, args)
        if isinstance(recv, dict):
            if name == "hasOwnProperty":
                return J.to_str(args[0]) in recv if args else False
            if name == "toString":
                return J.to_str(recv)
            return UNKNOWN
        if isinstance(recv, J.JsMap):
            return B.map_method(self, recv, name, args)
        if isinstance(recv, J.JsSet):
            return B.set_method(self, recv, name, args)
        if isinstance(recv, J.JsRegex):
            if recv.compiled is None or not args or not isinstance(args[0], str):
                return UNKNOWN
            m = recv.compiled.search(args[0])
            if name == "test":
                return m is not None
            return J.match_result(m, args[0]) if m is not None else NULL
        if isinstance(recv, (int, float)) and not isinstance(recv, bool):
            if name == "toString" and not args:
                return J.number_text(recv)
            if name == "toFixed":
                d = J.integral(args[0]) if args else 0
                return f"{recv:.{d}f}" if d is not None and 0 <= d <= 20 else UNKNOWN
            return UNKNOWN
        return UNKNOWN

    def call(self, fn: Any, args: list) -> Any:
        """Call FN (a value of this interpreter) with ARGS (the builtins' callbacks)."""
        return self._call_value(fn, None, args)

    def plain(self, v: Any) -> Any:
        """V as a probe's reader takes it: a parameter read from its callers, an unset variable undefined."""
        v = self._force(v) if isinstance(v, Lazy) else v
        return None if v is UNSET else v


# -- values the interpreter makes -------------------------------------------------------------------------------------
class _Namespace:
    """The exports of a module of the boundary (`import * as m`, `require("./m")`)."""

    __slots__ = ("path",)

    def __init__(self, path: str):
        self.path = path


def _or_default(value: Any, default: Callable[[], Any]) -> Any:
    return default() if value is None or value is UNSET else value


def _decides(op: str, left: Any) -> bool:
    """Whether LEFT is the value of `left OP right` (`&&`, `||`, `??`), the right side not read."""
    t = J.truth(left)
    return op == "&&" and not t or op == "||" and t or op == "??" and left is not None and left is not NULL


def _either(a: Any, b: Any) -> Any:
    """What a function returns when it may return A or B."""
    if a is b or a is UNKNOWN or b is UNKNOWN:
        return UNKNOWN if a is not b else a
    if isinstance(a, (str, int, float, bool)) and type(a) is type(b) and a == b:
        return a
    return UNKNOWN


def _join(a: Any, b: Any) -> Any:
    """What a value is after a write a run may or may not make: the value it was, or the one written."""
    if a is b or a is UNKNOWN or isinstance(a, Lazy):
        return b
    if b is UNKNOWN:
        return a
    if isinstance(a, (str, int, float, bool)) and type(a) is type(b) and a == b:
        return a
    if isinstance(a, list) and isinstance(b, list):
        ids_a, ids_b = {id(x) for x in a}, {id(x) for x in b}
        if ids_b <= ids_a:
            return a  # (a list filtered from the other: the runs that keep every element)
        if ids_a <= ids_b:
            return b
    return UNKNOWN


def _label(loop: ts.Node) -> str | None:
    p = loop.parent
    return text(p.child_by_field_name("label")) if p is not None and p.type == "labeled_statement" else None


def _parameters(fn: ts.Node) -> list[ts.Node]:
    single = fn.child_by_field_name("parameter")
    if single is not None:
        return [single]
    formal = fn.child_by_field_name("parameters")
    return [c for c in formal.named_children if c.type != "comment"] if formal is not None else []


def _home(env: Env) -> Any:
    cur = env
    while cur is not None:
        if cur.home is not None:
            return cur.home
        cur = cur.parent
    return None


def _base_class(cls: ts.Node, module: Module, link) -> tuple[ts.Node, Module] | None:
    base = class_base(cls)
    if base is None or base.type != "identifier":
        return None
    where = link.binding(module, text(base))
    info = where[0].classes.get(where[1]) if where is not None else None
    return (info.node, where[0]) if info is not None else None


def _class_of(fn: ts.Node) -> ts.Node | None:
    """The class FN is a method of (not a static one)."""
    if fn.type != "method_definition" or any(c.type == "static" for c in fn.children):
        return None
    body = fn.parent
    cls = body.parent if body is not None and body.type == "class_body" else None
    return cls if cls is not None and cls.type in CLASS_TYPES else None


def _runnable(node: ts.Node) -> ts.Node | None:
    """The function to run to reach NODE: the innermost that holds it and is a top-level function, a method, or a
    function a top-level name holds (a function written inside another runs when that one runs); None: the module's
    own code (a callback handed at top level runs when what it is handed to calls it)."""
    for a in ancestors(node):
        if a.type in FUNCTION_TYPES:
            if a.type == "method_definition" and a.parent is not None and a.parent.type == "class_body":
                return a
            holder = a.parent
            while holder is not None and holder.type in ("parenthesized_expression", "as_expression"):
                holder = holder.parent
            if holder is not None and holder.type in ("program", "export_statement"):
                return a
            if holder is not None and holder.type == "assignment_expression" and holder.parent is not None \
                    and holder.parent.parent is not None and holder.parent.parent.type == "program":
                return a  # (`module.exports = function ...`)
            if holder is not None and holder.type == "variable_declarator" and holder.parent is not None \
                    and holder.parent.parent is not None \
                    and holder.parent.parent.type in ("program", "export_statement"):
                return a
    return None
