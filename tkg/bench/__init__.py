"""`tkg bench …`: benchmarks of retrieval quality, temporal accuracy and speed.

Modules: `metrics` (Hit@k, MRR, answer matching), `fresh` (benchmark stores), `locomo`,
`baselines`, `peers` (graphiti-core side by side), `temporal_gen` / `temporal_text` /
`temporal_questions` (the generated benchmark and its answer key), `temporal` (runs and
scaling), `report` (tables and the JSON line).
"""
