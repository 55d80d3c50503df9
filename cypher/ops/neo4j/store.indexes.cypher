// Every index with its labels or types, type and state (`tkg doctor`).
SHOW INDEXES YIELD name, type, state, labelsOrTypes
RETURN name, type, state, labelsOrTypes
