"""Renderers: pure functions from an Audit to text."""
