"""Languages: English (the source strings), German and Spanish, through stdlib gettext.

Catalogs live in tableassist/locale/<lang>/LC_MESSAGES/tableassist.po; the compiled .mo files are
committed so the Pi needs nothing but the standard library. After adding messages in the code run
`python -m tableassist.i18n update` (new msgids into each .po, empty until translated), translate them,
then `python -m tableassist.i18n compile` (Babel, a dev dependency); `check` says whether the .mo files
are up to date. tests/session/test_i18n.py fails while a message is untranslated. Game terms follow each
edition's rules (Lagerplatz, Räumarbeit…; almacén, escombros…).
"""

from __future__ import annotations

import gettext
import io
import sys
from functools import cache
from pathlib import Path

DOMAIN = "tableassist"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
SOURCE_ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = ("en", "de", "es")
TRANSLATED = ("de", "es")


@cache
def translator(language: str) -> gettext.NullTranslations:
    """The catalog for a language; English (and anything unknown) gets the source strings."""
    if language not in TRANSLATED:
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, localedir=LOCALE_DIR, languages=[language], fallback=True)


def po_path(language: str) -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def compiled(language: str) -> bytes:
    """The .mo bytes Babel makes from the .po file (Babel is imported here only: a dev dependency)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po_path(language).open("rb") as po:
        catalog = read_po(po, locale=language, domain=DOMAIN)
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def compile_catalogs() -> list[Path]:
    written = []
    for language in TRANSLATED:
        mo = po_path(language).with_suffix(".mo")
        mo.write_bytes(compiled(language))
        written.append(mo)
    translator.cache_clear()
    return written


def stale_catalogs() -> list[str]:
    """Languages whose committed .mo does not match their .po."""
    stale = []
    for language in TRANSLATED:
        mo = po_path(language).with_suffix(".mo")
        if not mo.exists() or mo.read_bytes() != compiled(language):
            stale.append(language)
    return stale


# Where the session's messages are: the files tests/session/test_i18n.py checks for completeness.
SOURCES = ("tableassist/session/*.py", "tableassist/cli/demo.py", "tableassist/cli/replay.py")
KEYWORDS = {"gettext": None, "ngettext": (1, 2), "_": None, "N_": None}


def update_catalogs() -> list[Path]:
    """Add every message found in the sources to each .po (keeping the translations there)."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract_from_file
    from babel.messages.pofile import read_po, write_po

    root = SOURCE_ROOT
    template = Catalog(domain=DOMAIN)
    for pattern in SOURCES:
        for path in sorted(root.glob(pattern)):
            for line, message, _comments, _context in extract_from_file("python", str(path), keywords=KEYWORDS):
                template.add(message, locations=[(str(path.relative_to(root)), line)])
    written = []
    for language in TRANSLATED:
        with po_path(language).open("rb") as po:
            catalog = read_po(po, locale=language, domain=DOMAIN)
        catalog.update(template, no_fuzzy_matching=True)
        with po_path(language).open("wb") as po:
            write_po(po, catalog, width=120, no_location=True, omit_header=False)
        written.append(po_path(language))
    return written


def main(argv: list[str]) -> int:
    if argv == ["compile"]:
        for path in compile_catalogs():
            print(f"wrote {path}")
        return 0
    if argv == ["update"]:
        for path in update_catalogs():
            print(f"updated {path}")
        return 0
    if argv == ["check"]:
        stale = stale_catalogs()
        if stale:
            print(f"out of date: {', '.join(stale)} (run: python -m tableassist.i18n compile)", file=sys.stderr)
            return 1
        print("catalogs up to date")
        return 0
    print("usage: python -m tableassist.i18n update|compile|check", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
