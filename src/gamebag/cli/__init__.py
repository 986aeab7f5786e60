"""The gamebag command line."""
