"""Languages: English (the source strings), German and Spanish, through stdlib gettext.

Catalogs live in tableassist/locale/<lang>/LC_MESSAGES/tableassist.po; the compiled .mo files are
committed so the Pi needs nothing but the standard library. After editing a .po file run
`python -m tableassist.i18n compile` (Babel, a dev dependency); `check` says whether the .mo files are
up to date. Game terms follow each edition's rules (Lagerplatz, Räumarbeit…; almacén, escombros…).
"""

from __future__ import annotations

import gettext
import io
import sys
from functools import cache
from pathlib import Path

DOMAIN = "tableassist"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
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


def main(argv: list[str]) -> int:
    if argv == ["compile"]:
        for path in compile_catalogs():
            print(f"wrote {path}")
        return 0
    if argv == ["check"]:
        stale = stale_catalogs()
        if stale:
            print(f"out of date: {', '.join(stale)} (run: python -m tableassist.i18n compile)", file=sys.stderr)
            return 1
        print("catalogs up to date")
        return 0
    print("usage: python -m tableassist.i18n compile|check", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
