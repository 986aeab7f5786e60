"""Words for each reader: the reader's language per request and socket, translated pages, and the
browser's translation bundle (one source, the Babel catalogues, for server- and client-made text)."""
