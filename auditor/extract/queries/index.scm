; One capture vocabulary for TypeScript and JavaScript (node types both grammars have; index_ts.scm adds
; TypeScript's own); every capture is an entry point
; that the extractors inspect further in Python (extract/program.py).
(import_statement source: (string) @import.source) @import
; A re-export loads its source as an import does: `export { Server } from "@modelcontextprotocol/sdk/server/index.js"`.
(export_statement source: (string) @import.source) @import
(call_expression
  function: (identifier) @_require (#eq? @_require "require")
  arguments: (arguments . (string) @import.source)) @import
; A bundler's require of a module it leaves external (webpack, ncc, esbuild): `__webpack_require__("node:process")`;
; its relative ids name the bundle's own modules, not files.
(call_expression
  function: (identifier) @_require (#match? @_require "^(__webpack_require__|__nccwpck_require__|__require)$")
  arguments: (arguments . (string) @import.source (#not-match? @import.source "^.\\."))) @import
(call_expression
  function: (import)
  arguments: (arguments . (string) @import.source)) @import
(call_expression
  function: (import)
  arguments: (arguments . (template_string) @import.source (#not-match? @import.source "\\$\\{"))) @import
(class_declaration) @class
(variable_declarator value: (class) @class)
(function_declaration) @function
(new_expression) @new
(call_expression) @call
(member_expression) @member
(subscript_expression) @member
(assignment_expression) @assign
(augmented_assignment_expression) @assign
(update_expression) @assign
(pair key: (_) @_k (#match? @_k "^[\"']?inputSchema[\"']?$")) @descriptor.schema
((shorthand_property_identifier) @descriptor.schema (#eq? @descriptor.schema "inputSchema"))
; A copy of an object under a name of its own (`{ ...tool, name: "x_" + tool.name }`): a renamed descriptor, when what it
; copies is one (extract/server.py templates)
(object (spread_element) @descriptor.spread (pair key: (property_identifier) @_n (#eq? @_n "name")))
(object (pair key: (property_identifier) @_n (#eq? @_n "name")) (spread_element) @descriptor.spread)
(object (spread_element) @descriptor.spread (shorthand_property_identifier) @_n (#eq? @_n "name"))
(object (shorthand_property_identifier) @_n (#eq? @_n "name") (spread_element) @descriptor.spread)
(program (lexical_declaration (variable_declarator) @toplevel.var))
(program (variable_declaration (variable_declarator) @toplevel.var))
(program (export_statement (lexical_declaration (variable_declarator) @toplevel.var)))
(program (export_statement (variable_declaration (variable_declarator) @toplevel.var)))
(program (expression_statement) @toplevel.stmt)
(try_statement) @try
(identifier) @ident
(shorthand_property_identifier_pattern) @destructure
