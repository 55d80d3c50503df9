// Every index with its table and type (Kuzu reports no state).
CALL SHOW_INDEXES() RETURN *
