"""The app's own words exist in German and Spanish, and the app switches when the table's language does."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from tableassist.i18n import translator
from ui import i18n

UI = Path(__file__).resolve().parents[2] / "ui"
# Names that read the same in every language (or are the session's to translate).
SAME_EVERYWHERE = {"Start", "total", "Table Assistant"}


def ui_messages() -> set[str]:
    """Every literal passed to `_(...)` in the ui package."""
    found = set()
    for path in UI.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "_"
                    and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                found.add(node.args[0].value)
    return found


@pytest.mark.parametrize("language", ["de", "es"])
def test_every_message_of_the_app_is_translated(language: str) -> None:
    messages = ui_messages()
    assert len(messages) > 100
    catalog = i18n.CATALOG[language]
    session = translator(language)
    missing = sorted(m for m in messages - SAME_EVERYWHERE
                     if m not in catalog and session.gettext(m) == m)
    assert missing == []


@pytest.mark.parametrize("language", ["de", "es"])
def test_translations_keep_their_placeholders(language: str) -> None:
    import string

    for english, translated in i18n.CATALOG[language].items():
        wanted = {f for _, f, _, _ in string.Formatter().parse(english) if f}
        got = {f for _, f, _, _ in string.Formatter().parse(translated) if f}
        assert wanted == got, (english, translated)


def test_game_terms_follow_the_german_edition() -> None:
    i18n.set_language("de")
    try:
        assert i18n._("Stock Yard") == "Lagerplatz"  # from the session's catalog
        assert i18n._("Overview") == "Übersicht"
        assert i18n.cube_name("rubble", 3) == "Geröll"
    finally:
        i18n.set_language("en")


def test_the_app_follows_the_tables_language(harness: Any) -> None:
    h = harness
    assert h.app.top.overview.text == "Overview"
    h.app.session.set_language("es")
    h.pump(3)  # the session's change arrives through its subscription
    h.app.show("menu")
    assert h.app.top.overview.text == "Resumen"
    assert h.app.screens["menu"].buttons["calculator"].text == "Calculadora de puntos"
    h.app.session.set_language("en")
    h.app.show("menu")
    assert h.app.top.overview.text == "Overview"


@pytest.mark.parametrize("language", ["de", "es"])
def test_contract_effects_are_translated(language: str) -> None:
    from ui.contracts import EFFECTS

    missing = sorted(text for text in EFFECTS.values() if text not in i18n.CATALOG[language])
    assert missing == []


def test_a_contract_reads_in_spanish() -> None:
    from tableassist.engine import components
    from ui.contracts import describe

    i18n.set_language("es")
    try:
        assert describe(components.default().contracts[3]) == (
            "antes de B: tras las demás excavaciones, despejar del todo el siguiente solar · final: 3 solares = 6 PV")
    finally:
        i18n.set_language("en")
