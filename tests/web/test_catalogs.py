"""The page's translations and rules pages are complete (no browser needed)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tricktable.catalog import ENTRIES

WEB = Path(__file__).resolve().parents[2] / "tricktable" / "web"
LANGUAGES = ("en", "de", "hi", "th")


def catalog(lang: str) -> dict[str, str]:
    return json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_every_language_has_every_key(lang):
    english, other = catalog("en"), catalog(lang)
    assert set(other) == set(english)
    for key, text in english.items():
        # The same placeholders, so no string loses a number or a name.
        assert set(re.findall(r"\{\w+\}", other[key])) == set(re.findall(r"\{\w+\}", text)), (lang, key)


def test_every_literal_key_in_the_scripts_exists():
    english = catalog("en")
    used = set()
    for script in (WEB / "js").rglob("*.js"):
        used |= set(re.findall(r'\bt\("([\w.\- ]+)"', script.read_text(encoding="utf-8")))
    assert used and not used - set(english), sorted(used - set(english))


def test_every_counted_text_has_its_plural_forms():
    """``tn(key, n)`` picks ``key.one`` / ``key.other`` by the language's plural
    rules ("1 card", "2 cards"); both must exist, with the count in them."""
    english = catalog("en")
    counted = set()
    for script in (WEB / "js").rglob("*.js"):
        counted |= set(re.findall(r'\btn\("([\w.\- ]+)"', script.read_text(encoding="utf-8")))
    assert counted
    for key in counted:
        for form in ("one", "other"):
            assert "{n}" in english.get(f"{key}.{form}", ""), (key, form)
    assert english["table.cards_left.one"] == "{n} card" and english["table.cards_left.other"] == "{n} cards"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_game_has_rules_and_words_in_every_language(lang):
    words = catalog(lang)
    for entry in ENTRIES:
        text = (WEB / "rules" / lang / f"{entry.rules_page}.md").read_text(encoding="utf-8")
        assert text.startswith("# ") and text.count("\n## ") >= 3, (lang, entry.name)
        assert f"game.{entry.name}" in words and f"game.{entry.name}.blurb" in words


def test_every_game_has_its_page_renderer():
    for entry in ENTRIES:
        assert (WEB / "js" / "games" / f"{entry.renderer}.js").is_file(), entry.name


def test_every_offered_option_its_words_and_presets_have_a_label():
    """Each option the Rules dialog offers (exactly the game's own, from
    the catalog; a legacy one never), its worded values and its presets read in
    the person's language (the dialog falls back to the English description)."""
    from tricktable.server.http.game_routes import game_catalog

    words = catalog("en")  # the other languages have the same keys (test above)
    for game in game_catalog():
        for option in game["options"]:
            assert f"option.{option['name']}" in words, (game["name"], option["name"])
            for value in option["choices"]:
                if isinstance(value, str):
                    assert f"option.value.{value.replace(' ', '_')}" in words, (game["name"], value)
        for preset in game["presets"]:
            assert f"rules.preset.{preset}" in words, (game["name"], preset)
