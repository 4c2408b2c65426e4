"""Game records, the one home for reading, checking and replaying them.

A record (``monopoly-record/1``) is what a finished game offers for download: its rule set, seed,
player names, teams and every action, enough for the engine to replay the game exactly (the
game's dice come from its seed). The replay viewer steps through a record without replaying it
from the start at every step: the record is replayed once, when it is prepared
(``checkpoints``), keeping the position after every ``CHECKPOINT_EVERY`` actions with the actions
that follow it (a ``ReplayChunk`` row each). A step then reads one chunk and replays at most
``CHECKPOINT_EVERY`` actions (``position``), and what a prepared record costs to keep is bounded:
``MAX_RECORD_ACTIONS / CHECKPOINT_EVERY`` positions of a few kilobytes, and the actions.

An uploaded record is untrusted: ``parse_record`` refuses, with a message in the reader's
language, anything that is not a record the engine replays to the end, before anything is
stored.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from django.utils.formats import number_format
from django.utils.translation import gettext as _

from games.engine import EngineError, GameState, RuleSet, apply, new_game, set_clock
from games.errors import translate_refusal
from games.models import GameAction, Replay

RECORD_FORMAT = "monopoly-record/1"
# The longest game bench/record_lengths.py saw, over 200 games (40 for random bots) per preset,
# seat count and bot mix, every preset: 22,053 actions (classic, eight random bots), a record of
# 1.0 MB; 400 more games each of classic and classic-short with six to eight random bots went up
# to 22,934. Strategy bots' games stay under 2,500. A record may hold over four times the longest.
MAX_RECORD_ACTIONS = 100_000
# About 45 bytes an action in the site's records (with the play clock): the cap on actions in
# bytes, with room for long names and trades.
MAX_RECORD_BYTES = 6 * 1024 * 1024
# A step replays at most this many actions; a prepared record keeps one position per this many.
CHECKPOINT_EVERY = 100
# A record nests five levels deep (record, actions, action, a trade's side, its deeds); anything
# deeper is not a record, and a deep enough nesting would exhaust the JSON parser's stack.
MAX_DEPTH = 8
MAX_NAME_LENGTH = 80
MAX_SEED = 2**64

_RECORD_KEYS = frozenset({"format", "rules", "seed", "names", "teams", "actions"})
_RULES_KEYS = frozenset({"preset", "options"})
# The fields of an action (games/engine/README.md), the play clock the site stamps on them and
# why the site played an action its player did not (GameAction.REASONS: a deleted account's
# forfeit, a moderator's removal; the engine does not read it, the replay says it).
# ("by": the nudger of a nudge's note, games/engine/rules/site.py.)
_ACTION_KEYS = frozenset({"type", "player", "square", "amount", "to", "give", "take", "trade", "choice",
                          "numbers", "clock", "reason", "by"})
_SIDE_KEYS = frozenset({"cash", "squares", "cards"})
_SCALARS = (str, int, float, bool, type(None))


class RecordError(ValueError):
    """A record that cannot be replayed; the message is for the person who uploaded it."""


# ---------------------------------------------------------------------------------------------
# Reading and checking a record
# ---------------------------------------------------------------------------------------------

def _not_json(_constant: str) -> None:
    # NaN and Infinity are Python's extensions, not JSON.
    raise ValueError("not JSON")


def _too_deep(data: Any) -> bool:
    """Whether ``data`` nests deeper than MAX_DEPTH (without recursion, whatever its depth)."""
    todo = [(data, 1)]
    while todo:
        node, depth = todo.pop()
        if isinstance(node, dict | list):
            if depth > MAX_DEPTH:
                return True
            todo.extend((v, depth + 1) for v in (node.values() if isinstance(node, dict) else node))
    return False


def _field(key: object) -> str:
    return json.dumps(str(key))[:40]


def _check_action(n: int, a: Any) -> None:
    """The shape of action ``n`` (1-based): known fields holding scalars, trade sides and
    numbers as the engine takes them. Whether it is legal is the engine's to say."""
    if not isinstance(a, dict):
        raise RecordError(_("The record's actions must be a list of actions."))
    for key, value in a.items():
        if key not in _ACTION_KEYS:
            # A misspelt field would otherwise be ignored and the action replayed without it.
            raise RecordError(_("Action %(n)d of the record has an unknown field %(field)s.") % {
                "n": n, "field": _field(key)})
        if key in ("give", "take"):
            ok = isinstance(value, dict) and all(
                k in _SIDE_KEYS and (isinstance(v, _SCALARS)
                                     or (isinstance(v, list) and all(isinstance(x, _SCALARS) for x in v)))
                for k, v in value.items())
        elif key == "numbers":
            ok = isinstance(value, list) and all(isinstance(x, _SCALARS) for x in value)
        elif key == "type":
            ok = isinstance(value, str)
        elif key in ("player", "clock", "by"):
            ok = type(value) is int
        elif key == "reason":
            ok = value in GameAction.REASONS
        else:
            ok = isinstance(value, _SCALARS)
        if not ok:
            raise RecordError(_("Action %(n)d of the record has a malformed field %(field)s.") % {
                "n": n, "field": _field(key)})
    if "type" not in a or "player" not in a:
        raise RecordError(_("Action %(n)d of the record needs a type and a player.") % {"n": n})


def check_record(record: Any) -> None:
    """Raise RecordError unless ``record`` has the shape of a game record (the engine then says
    whether its rule set, players and actions make a game)."""
    if not isinstance(record, dict):
        raise RecordError(_("A game record is a JSON object."))
    if record.get("format") != RECORD_FORMAT:
        raise RecordError(_("Unknown record format %(format)s (expected %(expected)s).") % {
            "format": json.dumps(record.get("format"))[:40], "expected": RECORD_FORMAT})
    for key in record:
        if key not in _RECORD_KEYS:
            raise RecordError(_("The record has an unknown field %(field)s.") % {"field": _field(key)})
    names, actions, seed, teams = record.get("names"), record.get("actions"), record.get("seed"), record.get("teams")
    if not isinstance(names, list) or not all(isinstance(n, str) and n for n in names):
        raise RecordError(_("The record's names must be a list of player names."))
    if any(len(n) > MAX_NAME_LENGTH for n in names):
        raise RecordError(_("The record's player names may be at most %(n)d characters long.") % {
            "n": MAX_NAME_LENGTH})
    if type(seed) is not int or not 0 <= seed < MAX_SEED:
        raise RecordError(_("The record's seed must be a whole number."))
    if teams is not None and not (isinstance(teams, list) and all(
            isinstance(t, list) and all(type(m) is int for m in t) for t in teams)):
        raise RecordError(_("The record's teams must be lists of seat numbers."))
    rules = record.get("rules")
    if not isinstance(rules, dict) or not isinstance(rules.get("preset"), str):
        raise RecordError(_("The record's rule set is missing."))
    for key in rules:
        if key not in _RULES_KEYS:
            raise RecordError(_("The record's rule set has an unknown field %(field)s.") % {"field": _field(key)})
    if not isinstance(actions, list):
        raise RecordError(_("The record's actions must be a list of actions."))
    if len(actions) > MAX_RECORD_ACTIONS:
        raise RecordError(_("The record holds %(n)s actions; a game record may hold at most %(max)s.") % {
            "n": number_format(len(actions), force_grouping=True),
            "max": number_format(MAX_RECORD_ACTIONS, force_grouping=True)})
    for n, a in enumerate(actions, start=1):
        _check_action(n, a)


def parse_record(raw: bytes) -> dict[str, Any]:
    """The record in an uploaded file's bytes, checked for its shape; RecordError otherwise."""
    if len(raw) > MAX_RECORD_BYTES:
        raise RecordError(too_large_message())
    try:
        # (A byte order mark, as some editors save a file, is not part of the JSON.)
        data = json.loads(raw.decode("utf-8-sig"), parse_constant=_not_json)
    except RecursionError:
        raise RecordError(_("That file nests too deeply to be a game record.")) from None
    except ValueError:
        # Not UTF-8, not JSON, or a number too long for the interpreter to convert.
        raise RecordError(_("That file is not JSON: a game record is the .json file a finished game "
                            "offers.")) from None
    if _too_deep(data):
        raise RecordError(_("That file nests too deeply to be a game record."))
    check_record(data)
    return data


def too_large_message() -> str:
    return _("That file is too large for a game record (at most %(size)d MB).") % {
        "size": MAX_RECORD_BYTES // (1024 * 1024)}


# ---------------------------------------------------------------------------------------------
# Replaying
# ---------------------------------------------------------------------------------------------

def start_of(record: dict[str, Any]) -> dict[str, Any]:
    """What a record says before its actions: enough to start the game again."""
    return {"rules": record["rules"], "seed": record["seed"], "names": list(record["names"]),
            "teams": record.get("teams")}


def _new_game(start: dict[str, Any], *, events: bool) -> tuple[GameState, list[dict]]:
    try:
        rules = RuleSet.from_json(start["rules"])
    except (EngineError, KeyError, TypeError, ValueError) as e:
        raise RecordError(_("The record's rule set is not valid: %(reason)s.") % {
            "reason": translate_refusal(e)}) from e
    try:
        return new_game(rules, start["names"], start["seed"], teams=start.get("teams"), events=events)
    except (EngineError, TypeError, ValueError) as e:
        raise RecordError(_("The engine cannot start this game: %(reason)s.") % {
            "reason": translate_refusal(e)}) from e


def _apply(state: GameState, n: int, action: dict[str, Any], *, events: bool) -> list[dict]:
    """Action ``n`` (1-based) of a record applied to ``state``, at the play clock it carries."""
    try:
        if action.get("clock") is not None:
            set_clock(state, action["clock"])
        _state, out = apply(state, {k: v for k, v in action.items() if k != "clock"}, events=events)
    except (EngineError, TypeError, ValueError, LookupError, AttributeError) as e:
        # A hostile record may trip the engine in ways no real game does: each is a refusal.
        raise RecordError(_("Action %(n)d of the record (%(type)s) is refused by the engine: %(reason)s.") % {
            "n": n, "type": str(action.get("type"))[:20], "reason": translate_refusal(e)[:200]}) from e
    return out


@dataclass
class Checkpoint:
    """The position after ``index * CHECKPOINT_EVERY`` actions and the actions that follow it."""

    index: int
    state: dict[str, Any]
    actions: list[dict[str, Any]]
    # Where a turn starts among this chunk's steps: [step, round, seat] of each (the replay's
    # turn and round navigation, Replay.turns).
    turns: list[list[int]] = field(default_factory=list)


def checkpoints(record: dict[str, Any]) -> list[Checkpoint]:
    """The record replayed once, from the start to its last action, as checkpoints; raises
    RecordError naming the first action the engine refuses. Only the checkpoints' positions are
    kept (as JSON), never one per action; and where each turn starts (the position after a step
    has another round or player to move than the one before it)."""
    state, _events = _new_game(start_of(record), events=False)
    actions = record["actions"]
    out = []
    turn = (state.round, state.current)
    for first in range(0, max(len(actions), 1), CHECKPOINT_EVERY):
        chunk = actions[first:first + CHECKPOINT_EVERY]
        out.append(Checkpoint(first // CHECKPOINT_EVERY, state.to_json(), chunk))
        if first == 0:
            out[-1].turns.append([0, *turn])
        for n, a in enumerate(chunk, start=first + 1):
            _apply(state, n, a, events=False)
            if (state.round, state.current) != turn:
                turn = (state.round, state.current)
                out[-1].turns.append([n, *turn])
    return out


def turn_starts(chunks: list[Checkpoint]) -> list[list[int]]:
    """Every turn's [step, round, seat], in order, from a record's checkpoints."""
    return [t for c in chunks for t in c.turns]


@dataclass
class ReplayNav:
    """Where a replay's step stands among the turns and rounds, and the steps the "previous"
    and "next" turn and round controls go to (the step a turn or round starts at)."""

    round: int
    seat: int
    turn: int  # 1-based, among ``turns``
    turns: int
    prev_turn: int
    next_turn: int
    prev_round: int
    next_round: int
    round_starts: list[int]


def replay_nav(turns: list[list[int]], step: int, steps: int) -> ReplayNav:
    """The navigation of step ``step`` (0..steps) from a replay's turn starts: "previous" goes to
    the start of the turn (round) the step is in, or of the one before when the step is that
    start; "next" to the start of the following one (the last step after the last)."""
    turns = turns or [[0, 1, 0]]
    starts = [t[0] for t in turns]
    current = max((i for i, s in enumerate(starts) if s <= step), default=0)
    round_starts: list[int] = []
    last_round = None
    for s, rnd, _seat in turns:
        if rnd != last_round:
            round_starts.append(s)
            last_round = rnd
    return ReplayNav(
        round=turns[current][1], seat=turns[current][2], turn=current + 1, turns=len(turns),
        prev_turn=max((s for s in starts if s < step), default=0),
        next_turn=min((s for s in starts if s > step), default=steps),
        prev_round=max((s for s in round_starts if s < step), default=0),
        next_round=min((s for s in round_starts if s > step), default=steps),
        round_starts=round_starts,
    )


def chunk_index(step: int) -> int:
    """The checkpoint a step starts from: the last one at or before the position before it."""
    return max(0, step - 1) // CHECKPOINT_EVERY


@dataclass
class Position:
    """A step of a replay: the position after ``step`` actions, the action that led to it and
    what it did (the game's start for step 0). ``replayed`` counts the actions applied to get
    here from the checkpoint (at most CHECKPOINT_EVERY)."""

    step: int
    steps: int
    state: GameState
    action: dict[str, Any] | None
    events: list[dict]
    replayed: int


def position(start: dict[str, Any], steps: int, checkpoint: Checkpoint, step: int) -> Position:
    """Step ``step`` (0..steps) from the checkpoint ``chunk_index(step)``: its position, then its
    actions up to the step's, the last one with its events."""
    state = GameState.from_json(checkpoint.state)
    if step == 0:
        _state, events = _new_game(start, events=True)
        return Position(0, steps, state, None, events, 0)
    first = checkpoint.index * CHECKPOINT_EVERY
    todo = checkpoint.actions[:step - first]
    for n, a in enumerate(todo[:-1], start=first + 1):
        _apply(state, n, a, events=False)
    events = _apply(state, step, todo[-1], events=True)
    return Position(step, steps, state, todo[-1], events, len(todo))


# ---------------------------------------------------------------------------------------------
# Reads
# ---------------------------------------------------------------------------------------------

def game_record(game) -> dict[str, Any]:
    """A game's record, from its action log: rule set, seed, names, teams, actions."""
    # (In the order applied: a secret maximum bid's row after the action it followed, GameAction.sub.)
    rows = list(GameAction.objects.filter(game_id=game.pk).order_by("seq", "sub").values_list("seq", "action"))
    start = next(a for seq, a in rows if seq == 0)
    return {"format": RECORD_FORMAT, "rules": start["rules"], "seed": start["seed"],
            "names": [str(n) for n in start["names"]], "teams": start.get("teams"),
            "actions": [a for seq, a in rows if seq != 0]}


def replay_position(*, replay: Replay, step: int | None) -> Position:
    """A step of a prepared record (the last one when ``step`` is None), from the one chunk it
    needs: one query, at most CHECKPOINT_EVERY actions replayed."""
    step = replay.steps if step is None else max(0, min(step, replay.steps))
    row = replay.chunks.only("index", "state", "actions").get(index=chunk_index(step))
    return position(replay.start, replay.steps, Checkpoint(row.index, row.state, row.actions), step)
