// Every relationship in the store, all groups (a benchmark's store size).
MATCH ()-[r]->()
RETURN count(r) AS n
