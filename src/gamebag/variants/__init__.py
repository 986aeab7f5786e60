"""Example game variants, written as plugins (not registered until asked for).

``gamebag --plugin gamebag.variants.consolation COMMAND ...`` loads one by module name; a copy of
its file, edited, is the way to write your own (docs/designers.md, "Writing a variant").
"""
