// The names of the tables the database holds.
CALL SHOW_TABLES() RETURN name
