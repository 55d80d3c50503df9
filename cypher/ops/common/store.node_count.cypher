// Every node in the store, all groups (a benchmark's store size).
MATCH (n)
RETURN count(n) AS n
