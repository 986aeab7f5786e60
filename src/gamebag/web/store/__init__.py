"""Where tables last: the SQLAlchemy schema, storage faults, and a PostgreSQL cluster's ownership and bus."""
