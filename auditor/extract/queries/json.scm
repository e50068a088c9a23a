; JSON documents: every key/value pair, inspected in extract/manifest.py.
(pair key: (string) @pair.key) @pair
