"""Answer procedures: retrieval + fusion, direct lookup, and the procedures built on them.

Kept import-free on purpose: `import procedures` must stay cheap (the CLI imports it for
`--help`); import the submodule you need, e.g. ``from procedures.retrieval import retrieve``.
"""
