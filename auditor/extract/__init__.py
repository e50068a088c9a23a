"""Extraction: tree-sitter facts out of the source files of the boundary."""
