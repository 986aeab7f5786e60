"""The live game at a table: its match, acting, bots and clocks, messages, the socket, invites and claims, downloads."""
