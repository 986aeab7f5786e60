"""Example game variants, written as plugins (not registered until asked for).

``gamebag --plugin gamebag.variants.consolation COMMAND ...`` loads one by module name; a copy of
its file, edited, is the way to write your own (docs/designers.md, "Writing a variant"). Catch A
Dragon's author's three ideas: ``consolation`` (a bust scores half the set), ``seasons`` (a rule
per round), ``riders`` (a power per seat); ``dragon_variants`` puts them behind one option
(``variant``) for ``gamebag tune``.
"""
