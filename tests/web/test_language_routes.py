"""The browser's translation bundle and the language switcher's route (issue 39): a page in the
reader's language, its versioned bundle, a choice remembered on the device, never a redirect away."""

from __future__ import annotations

import re
from pathlib import Path

from .helpers import web_client


def test_the_browser_bundle_and_the_language_switcher(tmp_path: Path) -> None:
    with web_client(tmp_path) as client:
        page = client.get("/rules/pig", headers={"Accept-Language": "nl-BE,en;q=0.5"})
        assert page.headers["content-language"] == "nl" and '<html lang="nl"' in page.text
        assert "Accept-Language" in page.headers["vary"]
        version = re.search(r'src="/i18n/nl\.js\?v=(\w+)"', page.text)
        assert version is not None
        script = client.get(f"/i18n/nl.js?v={version.group(1)}")
        assert script.status_code == 200 and "immutable" in script.headers["cache-control"]
        assert "window.GB_I18N" in script.text and '"language":"nl"' in script.text
        assert "return +((n != 1))" in script.text
        assert client.get("/i18n/nl.js?v=old").headers["cache-control"] == "no-cache"
        assert client.get("/i18n/xx.js").status_code == 404
        assert "return +(0)" in client.get("/i18n/ja.js").text
        # The switcher remembers the choice on the device and goes back to the page (never elsewhere).
        chosen = client.get("/language?lang=ja&next=/rules/pig%3Flang%3Dfr%26players%3D2", follow_redirects=False)
        assert chosen.status_code == 303 and chosen.headers["location"] == "/rules/pig?players=2"
        assert "gb_lang=ja" in chosen.headers["set-cookie"]
        assert '<html lang="ja"' in client.get("/rules/pig", headers={"Accept-Language": "nl"}).text
        assert '<html lang="fr"' in client.get("/rules/pig?lang=fr").text  # a link's own choice first
        for away in ("https://evil.example/", "//evil.example/x", "/\\evil.example", "javascript:alert(1)"):
            gone = client.get("/language", params={"lang": "de", "next": away}, follow_redirects=False)
            assert gone.headers["location"] == "/", away
        kept = client.get("/language?lang=klingon", follow_redirects=False)
        assert kept.status_code == 303 and "set-cookie" not in kept.headers
