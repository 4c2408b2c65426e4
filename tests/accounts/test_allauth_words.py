"""locale_allauth/ (issue 31): allauth's messages reworded to address the player as tu. Its
compiled catalogues match their sources, and each message still exists in the pinned allauth
(an upgrade that renames one shows here rather than as a page silently back in usted)."""

from __future__ import annotations

import gettext
import shutil
import subprocess
from pathlib import Path

import allauth
import pytest

ROOT = Path(__file__).resolve().parents[2]
ALLAUTH_LOCALE = Path(allauth.__file__).parent / "locale"


def _catalogue(mo: Path) -> dict:
    with mo.open("rb") as f:
        return {k: v for k, v in gettext.GNUTranslations(f)._catalog.items() if k != ""}


@pytest.mark.parametrize("language", ["es", "ca"])
def test_the_compiled_catalogue_matches_its_source_and_allauth_still_has_each_message(language, tmp_path):
    if shutil.which("msgfmt") is None:
        pytest.skip("GNU gettext (msgfmt) is not installed; .ci/run installs it")
    folder = ROOT / "locale_allauth" / language / "LC_MESSAGES"
    fresh = tmp_path / "django.mo"
    subprocess.run(["msgfmt", "-o", str(fresh), str(folder / "django.po")], check=True, capture_output=True)

    ours = _catalogue(folder / "django.mo")
    assert ours == _catalogue(fresh), "run manage.py compilemessages"
    theirs = _catalogue(ALLAUTH_LOCALE / language / "LC_MESSAGES" / "django.mo")
    # allauth's compiled catalogue leaves out what it does not translate; its source has it all.
    source = (ALLAUTH_LOCALE / language / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    for key in ours:
        msgid = key[0] if isinstance(key, tuple) else key
        msgid = msgid.split("\x04")[-1]
        assert key in theirs or gettext_escaped(msgid) in source, msgid


def gettext_escaped(text: str) -> str:
    first_line = text.split("\n")[0]
    return first_line.replace("\\", "\\\\").replace('"', '\\"')[:40]
