"""The rules of names and passwords (issue 38), without a server: look-alikes, NIST SP 800-63B."""

from __future__ import annotations

import pytest

from gamebag.web.people.names import BadNameError, clean_name, name_key
from gamebag.web.people.passwords import BadPasswordError, check_password, normalise_password


@pytest.mark.parametrize(
    ("one", "other"),
    [("Anna", "ANNA"), ("Anna", "An na"), ("Lola", "L0la"), ("Ida", "lda"), ("Ida", "1da"), ("Zoë", "Zoë")],
)
def test_look_alike_names_share_a_key(one: str, other: str) -> None:
    assert name_key(clean_name(one)) == name_key(clean_name(other))


def test_different_names_keep_different_keys() -> None:
    keys = {name_key(clean_name(name)) for name in ("Anna", "Anne", "Zoe", "Zoë", "Ólafur", "Olafur", "Анна")}
    assert len(keys) == 7


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("A", "2 to 32"),
        ("x" * 33, "2 to 32"),
        ("Ann<b>", "letters"),
        ("Аnna", "alphabets"),  # Cyrillic А, Latin nna
        (42, "2 to 32"),
    ],
)
def test_bad_names_are_refused_in_one_sentence(name: object, words: str) -> None:
    with pytest.raises(BadNameError, match=words):
        clean_name(name)


def test_names_are_normalised_as_shown() -> None:
    assert clean_name("  Zoe\u0308   van  Dijk ") == "Zoë van Dijk"  # NFC, spaces collapsed
    assert clean_name("Анна") == "Анна"  # one script, any script


@pytest.mark.parametrize(
    ("password", "words"),
    [
        ("fourteen chars", "at least 15"),
        ("x" * 129, "at most 128"),
        ("passwordpassword", "common"),
        ("Correct Horse Battery Staple", "common"),  # the list is compared case-insensitively
        ("aaaaaaaaaaaaaaaaaaaa", "common"),
        ("MiraMiraMira1234", "name"),
        ("gamebag-gamebag-2026", "name"),
        (None, "text"),
    ],
)
def test_passwords_the_rules_refuse(password: object, words: str) -> None:
    with pytest.raises(BadPasswordError, match=words):
        check_password(password, "Mira")


def test_passwords_any_unicode_no_composition_rules() -> None:
    for password in ("all lower case words here", "🦦🦦 otters 🦦🦦 in a row", "ｆｕｌｌｗｉｄｔｈ ｌｅｔｔｅｒｓ"):
        assert check_password(password, "Mira") == normalise_password(password)
    assert normalise_password("ｆｕｌｌｗｉｄｔｈ ｌｅｔｔｅｒｓ ok") == "fullwidth letters ok"  # NFKC before hashing
    assert len(check_password("y" * 63 + "z", "Mira")) == 64  # 64 characters are allowed


def test_a_table_is_rated_with_the_rulebook_or_a_preset_the_game_declares_rated(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import dataclasses

    import gamebag
    from gamebag.core.options import options_to_json
    from gamebag.web.people.listing import is_rated_setup

    pig = gamebag.entry("pig").game_class
    rulebook = options_to_json(gamebag.make("pig", 2).options)
    quick = {**rulebook, "goal": 50}
    assert is_rated_setup("pig", 2, rulebook)
    assert not is_rated_setup("pig", 2, quick)  # the quick preset is casual as Pig declares it
    assert not is_rated_setup("pig", 2, {**rulebook, "goal": 77})  # no preset at all
    assert not is_rated_setup("pig", 99, rulebook) and not is_rated_setup("no-such-game", 2, rulebook)
    # A game that declares its quick preset rated: that setup is rated too, through the presets alone.
    rated_quick = tuple(dataclasses.replace(p, rated=True) if p.name == "quick" else p for p in pig.preset_specs)
    monkeypatch.setattr(pig, "preset_specs", rated_quick)
    assert is_rated_setup("pig", 2, quick) and is_rated_setup("pig", 2, rulebook)
    assert not is_rated_setup("pig", 2, {**rulebook, "goal": 77})
