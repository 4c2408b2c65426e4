"""The catalogues under locale/ hold exactly the messages the code uses, as makemessages finds
them: a refresh of the catalogues (``MAKEMESSAGES`` below, the command the README gives) adds
nothing untranslated, marks nothing fuzzy and drops nothing still in use.

makemessages only sees literal strings in gettext calls: a call inside an f-string is invisible
to xgettext, and a call on a variable has no message to extract. The second half of this module
finds both in the site's code, so that a word cannot slip out of the catalogues unseen.
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest
from django.conf import settings

from tests.games.test_i18n import read_po

ROOT = Path(settings.BASE_DIR)
LANGUAGES = [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]

# How the catalogues are refreshed (README.md, "Translations"): the tests' own messages and the
# benchmarks stay out of them.
MAKEMESSAGES = [
    "makemessages", *(f"-l{code}" for code in LANGUAGES),
    "--ignore=tests/*", "--ignore=bench/*", "--ignore=var/*", "--ignore=test-artifacts/*",
]

# The folders makemessages reads (everything of the site but tests, benchmarks and data).
SOURCES = ("accounts", "analysis", "chats", "config", "games", "moderation", "notifications", "ratings", "reach",
           "templates")
SOURCE_SUFFIXES = (".py", ".html", ".txt")

GETTEXT_CALLS = frozenset({
    "_", "gettext", "gettext_lazy", "gettext_noop", "ngettext", "ngettext_lazy",
    "pgettext", "pgettext_lazy", "npgettext", "npgettext_lazy",
})

# Calls on a variable, each with where its messages are written as literals (and a test that
# checks them): anything else on a variable is a message makemessages cannot see.
DYNAMIC_CALLS = {
    # TOO_MANY = gettext_noop("..."), in the same module.
    ("config/views.py", "_(TOO_MANY)"),
    # The engine's card texts: literal gettext calls in games/engine/cards.py
    # (tests/games/test_i18n.py: test_every_log_sentence_and_card_is_in_the_catalog).
    ("games/engine/events.py", "gettext(card_text(event['card']))"),
    ("games/views/page/log.py", "_(card_text(e['card']))"),
    # The board data's names: literal pgettext_lazy calls in the same module
    # (tests/games/test_board_words.py).
    ("games/board_words.py", "pgettext('board', name)"),
    # The engine's refusals: literal gettext_noop/ngettext/pgettext entries of MESSAGES and
    # DECISIONS in the same module (tests/games/test_refusal_codes.py: each code translated).
    ("games/engine/refusals.py", "gettext(entry)"),
    ("games/engine/refusals.py", "ngettext(entry.singular, entry.plural, int(refusal.params[entry.count]))"),
    ("games/engine/refusals.py", "pgettext('decision', word)"),
    # NOT_A_PLAYER = gettext_noop("..."), in the same module.
    ("games/views/play.py", "_(NOT_A_PLAYER)"),
    # The Jinja2 templates' _() and ngettext(), as markup: their words are literals in the
    # templates (templates/jinja2/), which makemessages reads like any template's.
    ("config/jinja2.py", "gettext(message)"),
    ("config/jinja2.py", "ngettext(singular, plural, n)"),
}


def _po_keys(path: Path) -> dict[tuple[str | None, str], dict]:
    # (An obsolete entry, "#~", reads as one without a msgid.)
    return {(m["msgctxt"], m["msgid"]): m for m in read_po(path)[1:] if m["msgid"]}


def _refresh_copy(copy: Path, extra: dict[str, str] | None = None) -> None:
    """Copy the site's sources and catalogues into ``copy`` (with ``extra`` files: path ->
    text), then refresh the copy's catalogues with makemessages (the committed files are never
    touched)."""
    if shutil.which("xgettext") is None or shutil.which("msgmerge") is None:
        pytest.skip("GNU gettext (xgettext, msgmerge) is not installed; .ci/run installs it")
    for folder in SOURCES:
        for path in (ROOT / folder).rglob("*"):
            if path.is_file() and path.suffix in SOURCE_SUFFIXES and "__pycache__" not in path.parts:
                target = copy / path.relative_to(ROOT)
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(path, target)
    for rel, text in (extra or {}).items():
        (copy / rel).write_text(text, encoding="utf-8")
    shutil.copytree(ROOT / "locale", copy / "locale")
    shutil.copyfile(ROOT / "manage.py", copy / "manage.py")
    done = subprocess.run([sys.executable, "manage.py", *MAKEMESSAGES], cwd=copy,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr


@pytest.fixture(scope="module")
def refreshed(tmp_path_factory) -> Path:
    """A copy of the site with its catalogues refreshed by makemessages."""
    copy = tmp_path_factory.mktemp("catalogues")
    _refresh_copy(copy)
    return copy


@cache
def fstring_words() -> dict[str, list[tuple[int, str]]]:
    """file -> (line, msgid) of every gettext call written inside an f-string."""
    found: dict[str, list[tuple[int, str]]] = {}
    for rel, tree in _site_modules():
        inside = {id(sub) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr)
                  for sub in ast.walk(node) if sub is not node}
        for call in _gettext_calls(tree):
            if id(call) in inside:
                args = [a.value for a in call.args if isinstance(a, ast.Constant)]
                found.setdefault(rel, []).append((call.lineno, args[-1] if args else ast.unparse(call)))
    return found


def _site_paths() -> list[str]:
    """The site's modules (no migrations), relative to the project root: the tests' parameters,
    listed when pytest collects them (without parsing: that costs a second, for every run)."""
    return [path.relative_to(ROOT).as_posix()
            for folder in SOURCES for path in sorted((ROOT / folder).rglob("*.py"))
            if "migrations" not in path.parts and "__pycache__" not in path.parts]


@cache
def _site_modules() -> tuple[tuple[str, ast.Module], ...]:
    return tuple((rel, ast.parse((ROOT / rel).read_text(encoding="utf-8"))) for rel in _site_paths())


def _gettext_calls(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
            if name in GETTEXT_CALLS:
                yield node


def _literal_count(name: str) -> int:
    """How many leading arguments of a gettext function are messages (context, singular, plural)."""
    return (1 if name.startswith(("pgettext", "npgettext")) else 0) + (
        2 if name.startswith(("ngettext", "npgettext")) else 1)


# ---------------------------------------------------------------------------------------------
# The catalogues against a fresh makemessages
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_makemessages_finds_nothing_missing_or_changed(refreshed, language):
    """A message in use that the catalogue lacks comes back from msgmerge untranslated, one
    whose English changed comes back fuzzy."""
    entries = _po_keys(refreshed / "locale" / language / "LC_MESSAGES" / "django.po")

    untranslated = sorted(k for k, m in entries.items() if not all(m["msgstr"]))
    fuzzy = sorted(k for k, m in entries.items() if "fuzzy" in m["flags"])

    assert untranslated == []
    assert fuzzy == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_catalogue_entry_is_still_in_use(refreshed, language):
    """An entry makemessages no longer finds would be dropped (made obsolete) by the next
    refresh, and its page would fall back to English."""
    committed = _po_keys(ROOT / "locale" / language / "LC_MESSAGES" / "django.po")
    extracted = _po_keys(refreshed / "locale" / language / "LC_MESSAGES" / "django.po")
    assert sorted(set(committed) - set(extracted)) == []
    assert sorted(set(extracted) - set(committed)) == []
    for key, entry in extracted.items():
        assert entry["msgid_plural"] == committed[key]["msgid_plural"], key


def test_the_check_sees_a_message_the_catalogue_lacks(tmp_path):
    """The refresh the checks above rely on does report a new message: a copy with one more
    template word gets it back untranslated."""
    _refresh_copy(tmp_path, {
        "templates/probe.html": '{% load i18n %}{% translate "A word nobody translated yet" %}'})

    entries = _po_keys(tmp_path / "locale" / "es" / "LC_MESSAGES" / "django.po")

    assert entries[(None, "A word nobody translated yet")]["msgstr"] == [""]


# ---------------------------------------------------------------------------------------------
# Words makemessages cannot see
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("rel", sorted(_site_paths()))
def test_no_gettext_call_inside_an_f_string(rel):
    assert fstring_words().get(rel, []) == []


def test_every_gettext_call_on_a_variable_is_accounted_for():
    dynamic = set()
    for rel, tree in _site_modules():
        for call in _gettext_calls(tree):
            name = call.func.id if isinstance(call.func, ast.Name) else call.func.attr
            n = _literal_count(name)
            literal = len(call.args) >= n and all(
                isinstance(a, ast.Constant) and isinstance(a.value, str) for a in call.args[:n])
            if not literal:
                dynamic.add((rel, ast.unparse(call)))

    assert sorted(dynamic - DYNAMIC_CALLS) == []
