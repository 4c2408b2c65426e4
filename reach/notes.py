"""Private notes (issue 29; lila 420 and 5155): one notepad per player per game, kept with the
seat (games outlive accounts), read and written only by the seat's player; shown to others only
in the replay of a finished game, and only if the player chose to reveal them."""

from __future__ import annotations

from django.utils.translation import gettext as _

from reach.models import NOTE_MAX, Note


class NoteRefused(ValueError):
    pass


def note_of(*, game_id: int, seat: int) -> Note | None:
    return Note.objects.filter(game_id=game_id, seat=seat).first()


def note_save(*, game_id: int, seat: int, text: str) -> Note:
    """Write the player's notepad as typed. Too long: refused, the saved text unchanged."""
    text = text.replace("\r\n", "\n")
    if len(text) > NOTE_MAX:
        raise NoteRefused(_("Your notes are too long: %(n)s characters, at most %(max)s. Nothing was saved.")
                          % {"n": len(text), "max": NOTE_MAX})
    if "\x00" in text:
        raise NoteRefused(_("Your notes hold a character that cannot be saved. Nothing was saved."))
    note, _created = Note.objects.update_or_create(game_id=game_id, seat=seat, defaults={"text": text})
    return note


def note_reveal(*, game_id: int, seat: int, reveal: bool) -> Note:
    note, _created = Note.objects.update_or_create(game_id=game_id, seat=seat, defaults={"reveal": reveal})
    return note


def revealed(*, game) -> list[tuple[int, Note]]:
    """The notes shown with a finished game's replay: those their players chose to reveal."""
    if game is None or game.status == game.Status.ACTIVE:
        return []
    return [(n.seat, n) for n in Note.objects.filter(game_id=game.pk, reveal=True).exclude(text="").order_by("seat")]
