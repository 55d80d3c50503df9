// Is the store there? The cheapest statement both stores answer (`tkg doctor`).
RETURN 1 AS ok
