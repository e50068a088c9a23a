; The captures of node types only the TypeScript grammar has (compiled with index.scm; see parse.py).
(abstract_class_declaration) @class
(interface_declaration) @interface
(type_alias_declaration value: (object_type)) @interface
(enum_declaration) @enum
