#!/usr/bin/env python3
"""The floor for any Python tool built on tree-sitter: parse every TypeScript/JavaScript file under the given
folders and run one combined query of the six extraction rules of semgrep-rules.yaml (servers, request
handlers, tool registrations, class fields holding a collection, stderr output, environment reads); print
the number of matches. No analysis, no reports: what the auditor does before it starts its own work.

    python bench/floor.py FOLDER [FOLDER ...]
"""

from __future__ import annotations

import os
import sys

import tree_sitter as ts
import tree_sitter_typescript as tsts

RULES = r"""
(new_expression constructor: (identifier) @_c (#match? @_c "^(Server|McpServer)$")) @server
(call_expression function: (member_expression property: (property_identifier) @_m (#eq? @_m "setRequestHandler"))) @handler
(call_expression function: (member_expression property: (property_identifier) @_m (#match? @_m "^(registerTool|tool)$"))) @tool
(public_field_definition value: [(array) (object) (new_expression constructor: (identifier) @_k (#match? @_k "^(Map|Set)$"))]) @field
(call_expression function: (member_expression object: (identifier) @_o (#eq? @_o "console") property: (property_identifier) @_e (#eq? @_e "error"))) @stderr
(member_expression object: (member_expression object: (identifier) @_p (#eq? @_p "process") property: (property_identifier) @_v (#eq? @_v "env"))) @env
(subscript_expression object: (member_expression object: (identifier) @_p (#eq? @_p "process") property: (property_identifier) @_v (#eq? @_v "env"))) @env
"""


def main() -> None:
    languages = {".ts": ts.Language(tsts.language_typescript()), ".tsx": ts.Language(tsts.language_tsx())}
    languages[".js"] = languages[".mjs"] = languages[".cjs"] = languages[".ts"]
    parsers = {suffix: ts.Parser(lang) for suffix, lang in languages.items()}
    queries = {suffix: ts.Query(lang, RULES) for suffix, lang in languages.items()}
    found = 0
    for folder in sys.argv[1:]:
        for root, dirs, files in os.walk(folder):
            dirs[:] = sorted(d for d in dirs if d not in {"node_modules", ".git"})
            for name in sorted(files):
                suffix = os.path.splitext(name)[1]
                if suffix not in parsers or name.endswith(".d.ts"):
                    continue
                with open(os.path.join(root, name), "rb") as f:
                    tree = parsers[suffix].parse(f.read())
                caps = ts.QueryCursor(queries[suffix]).captures(tree.root_node)
                found += sum(len(v) for k, v in caps.items() if not k.startswith("_"))
    print(found)


if __name__ == "__main__":
    main()
