"""Tests of the web server: lobby API, table sockets, leaks, durability, browsers."""
