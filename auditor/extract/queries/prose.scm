; Text of a script that names nothing to call (extract/dead.py words): comments, and the text parts of strings and
; templates (those with a space in them are prose, a message or a sentence; the others may be names).
(comment) @prose.comment
(string_fragment) @prose.text
