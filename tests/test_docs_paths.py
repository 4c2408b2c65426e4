"""The documentation names only what exists (issue 27): README.md, bench/README.md and
docs/deploy.md had drifted from the code (a games/refusals.py long gone, a services._bots that
never was), and nothing said so.

What counts as a name, in code spans and fenced blocks:
- a path in the repository (``games/views/play.py``, ``static/js/``), from the project's root;
  ``<...>`` stands for any one name (``decisions/<kind>.html``); paths the site makes as it runs
  (``var/``, ``.venv/``, ``test-artifacts/``), URLs (``/accounts/2fa/``) and paths outside the
  checkout (``../shared/RULES.md``) are not checked;
- a file name alone (``manage.py``), at the project's root;
- a dotted Python name from one of the project's packages (``games.services.game_submit_actions``,
  ``config.asgi:application``): the module imports and has the attribute.
In the README's layout block (lines that start with a folder, ``games/``), the names on a line
and on the indented lines under it are paths inside that folder (``views/play.py`` there is
``games/views/play.py``)."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ["README.md", "bench/README.md", "docs/deploy.md"]
PACKAGES = ("config", "accounts", "games", "moderation", "ratings", "notifications", "tests", "bench")
MADE_AT_RUN_TIME = ("var/", ".venv/", "test-artifacts/")
EXTENSIONS = r"(?:py|md|html|js|css|json|toml|txt|po|mo|sh|cfg)"

FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.S | re.M)
CODE_SPAN = re.compile(r"`([^`\n]+)`")
# A path: segments joined by slashes (a placeholder <...> or a glob * may stand for one), or one
# file name with an extension of ours.
PATH = re.compile(rf"(?<![\w./<>*:@|-])(?:\.{{0,2}}[\w<>*|-][\w.<>*|-]*/)+(?:[\w<>*-][\w.<>*-]*)?|"
                  rf"(?<![\w./<>*:@|-])[\w-]+\.{EXTENSIONS}(?![\w/])")
DOTTED = re.compile(rf"(?<![\w./-])(?:{'|'.join(PACKAGES)})(?:\.\w+)+(?::\w+)?(?![\w/])")
LAYOUT_HEAD = re.compile(r"^([\w.-]+/)\s")


def _text(name: str) -> str:
    return (ROOT / name).read_text(encoding="utf-8")


def _exists(path: str, base: Path = ROOT) -> bool:
    path = path.rstrip(".,;:)")
    if "<" in path or "*" in path:
        pattern = re.sub(r"<[^>]*>", "*", path).rstrip("/")
        return any(base.glob(pattern))
    return (base / path).exists()


def _checked(token: str) -> bool:
    return not (token.startswith(("/", "../", "<")) or token.startswith(MADE_AT_RUN_TIME) or "://" in token)


def _dotted_exists(name: str) -> bool:
    name, _, attribute = name.partition(":")
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for part in [*parts[cut:], *([attribute] if attribute else [])]:
            if not hasattr(found, part):
                try:
                    found = importlib.import_module(f"{found.__name__}.{part}")
                    continue
                except (ModuleNotFoundError, AttributeError):
                    return False
            found = getattr(found, part)
        return True
    return False


def _layout_missing(block: str) -> list[str]:
    missing, folder = [], None
    for line in block.splitlines():
        head = LAYOUT_HEAD.match(line + " ")
        if head:
            folder = head.group(1)
            if not _exists(folder):
                missing.append(folder)
            line = line[len(folder):]
        if folder is None:
            continue
        for token in PATH.findall(line):
            if _checked(token) and not _exists(token, ROOT / folder):
                missing.append(folder + token)
    return missing


def _spans_and_blocks(text: str) -> tuple[list[str], list[str]]:
    blocks = FENCE.findall(text)
    outside = FENCE.sub("", text)
    return CODE_SPAN.findall(outside), blocks


def _is_layout(block: str) -> bool:
    lines = [line for line in block.splitlines() if line.strip()]
    return bool(lines) and sum(bool(LAYOUT_HEAD.match(line + " ")) for line in lines) >= 3


def missing_names(text: str) -> list[str]:
    spans, blocks = _spans_and_blocks(text)
    missing = []
    for block in blocks:
        if _is_layout(block):
            missing += _layout_missing(block)
            continue
        # (A shell line's comment is words, not names.)
        spans.append(re.sub(r"(^|\s)#.*", "", block, flags=re.M))
    for span in spans:
        for token in PATH.findall(span):
            if _checked(token) and not _exists(token):
                missing.append(token)
        missing += [name for name in DOTTED.findall(span) if not _dotted_exists(name)]
    return missing


@pytest.mark.parametrize("doc", DOCS)
def test_every_path_and_name_the_docs_give_exists(doc):
    assert missing_names(_text(doc)) == []


@pytest.mark.parametrize("doc", DOCS)
def test_the_docs_name_paths_to_check(doc):
    # (A pattern that stopped matching would pass every doc.)
    spans, blocks = _spans_and_blocks(_text(doc))
    assert sum(len(PATH.findall(s)) for s in spans + blocks) >= 10


def test_the_check_finds_what_is_gone():
    text = """See `games/refusals.py` and `games.services._bots`; `config.asgi:nothing`.
```
games/        models.py, views/gone.py,
              views/play.py
nothere/      x.py
bench/        README.md
```
"""
    assert missing_names(text) == ["games/views/gone.py", "nothere/", "nothere/x.py", "games/refusals.py",
                                   "games.services._bots", "config.asgi:nothing"]


def test_the_check_passes_what_is_there():
    text = """`games/views/play.py`, `games.services.game_submit_actions`, `config.asgi:application`,
`templates/jinja2/games/partials/decisions/<kind>.html`, `manage.py`, `/accounts/2fa/`, `var/db.sqlite3`,
`../shared/RULES.md`, `redis://127.0.0.1:6379/0`, `games.engine.apply`."""
    assert missing_names(text) == []
