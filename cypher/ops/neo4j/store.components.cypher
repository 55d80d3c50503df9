// The server's product name, versions and edition (`tkg doctor`).
CALL dbms.components() YIELD name, versions, edition
RETURN name, versions, edition
