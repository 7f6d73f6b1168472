"""Every line the session says or shows exists in English, German and Spanish, and the .mo files are current."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po

from tableassist import i18n

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted((ROOT / "tableassist" / "session").glob("*.py")) + [
    ROOT / "tableassist" / "cli" / "demo.py", ROOT / "tableassist" / "cli" / "replay.py"]
KEYWORDS = {"gettext": None, "ngettext": (1, 2), "_": None, "N_": None}


def source_messages() -> list[str | tuple[str, ...]]:
    found: list[str | tuple[str, ...]] = []
    for path in SOURCES:
        for _line, message, _comments, _context in extract_from_file("python", str(path), keywords=KEYWORDS):
            if message not in found:
                found.append(message)
    return found


def fields(text: str) -> set[str]:
    return {name for _lit, name, _spec, _conv in string.Formatter().parse(text) if name is not None}


def test_the_sources_have_messages() -> None:
    messages = source_messages()
    assert len(messages) > 100
    assert "{cubes} missing from the stock yard." in messages


@pytest.mark.parametrize("language", i18n.TRANSLATED)
def test_every_message_is_translated_with_the_same_placeholders(language: str) -> None:
    with i18n.po_path(language).open("rb") as po:
        catalog = read_po(po, locale=language)
    untranslated = []
    for message in source_messages():
        key = message[0] if isinstance(message, tuple) else message
        entry = catalog.get(key)
        if entry is None or not entry.string or entry.fuzzy:
            untranslated.append(key)
            continue
        translations = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        originals = message if isinstance(message, tuple) else (message,)
        for text in translations:
            assert text, f"{language}: empty plural form for {key!r}"
            assert fields(str(text)) == fields(originals[0]), f"{language}: placeholders differ in {key!r}: {text!r}"
    assert untranslated == []


@pytest.mark.parametrize("language", i18n.TRANSLATED)
def test_compiled_catalogs_are_up_to_date(language: str) -> None:
    assert language not in i18n.stale_catalogs(), "run: python -m tableassist.i18n compile"


def test_game_terms_follow_each_edition() -> None:
    de, es = i18n.translator("de"), i18n.translator("es")
    assert de.gettext("Stock Yard") == "Lagerplatz"
    assert de.gettext("Excavation") == "Räumarbeit"
    assert de.gettext("Site Office") == "Baubüro"
    assert es.gettext("Excavation") == "Excavación"
    assert es.gettext("Site Office") == "Oficina del sitio"
    assert re.search("escombros", es.gettext("Event: contractors clear rubble, but none is left."))
    assert re.search("Geröll", de.gettext("Event: contractors clear rubble, but none is left."))


def test_english_is_the_source_and_unknown_languages_fall_back_to_it() -> None:
    assert i18n.translator("en").gettext("Stock Yard") == "Stock Yard"
    assert i18n.translator("fr").gettext("Stock Yard") == "Stock Yard"


def test_the_check_command_says_up_to_date(capsys: pytest.CaptureFixture[str]) -> None:
    assert i18n.main(["check"]) == 0
    assert "up to date" in capsys.readouterr().out
    assert i18n.main(["nonsense"]) == 2


def test_update_adds_new_messages_and_keeps_translations(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil

    shutil.copytree(i18n.LOCALE_DIR, tmp_path / "locale")
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path / "locale")
    with i18n.po_path("de").open("rb") as po:
        catalog = read_po(po, locale="de")
    catalog.delete("Stock Yard")  # as if the message had just been added to the code
    from babel.messages.pofile import write_po

    with i18n.po_path("de").open("wb") as po:
        write_po(po, catalog)
    i18n.update_catalogs()
    with i18n.po_path("de").open("rb") as po:
        updated = read_po(po, locale="de")
    added, kept = updated.get("Stock Yard"), updated.get("Excavation")
    assert added is not None and added.string == ""  # there to translate
    assert kept is not None and kept.string == "Räumarbeit"  # the rest kept
    keys = {m[0] if isinstance(m, tuple) else m for m in source_messages()}
    assert {m.id if isinstance(m.id, str) else m.id[0] for m in updated if m.id} == keys
