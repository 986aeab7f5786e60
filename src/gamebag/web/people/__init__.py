"""People who come back: accounts, sessions, the seats they own, ratings, their home page.

This room knows tables only through their public facts and the seats a person owns.
"""
