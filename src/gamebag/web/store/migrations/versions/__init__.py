"""The revisions of the web schema, oldest first by their ``down_revision`` chain."""
