; The shapes a test file is read for (auditor/extract/tests.py, names from kb/tests.yaml); run on test files only.
; Calls of a plain name: it(...), describe(...), beforeEach(...), expect(...), assert(...), require(...).
(call_expression function: (identifier)) @test.call
; Calls of a member: it.only(...), assert.equal(...), client.callTool(...), server.method(...).
(call_expression function: (member_expression)) @test.member_call
(new_expression constructor: (identifier)) @test.new
(import_statement source: (string)) @test.import
(object) @test.object
; A call of a call: it.each(table)("title %s", fn), describe.each(table)(...).
(call_expression function: (call_expression)) @test.member_call
