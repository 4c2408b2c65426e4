"""An uploaded record is untrusted: whatever a file holds, reading and replaying it either gives
a record or refuses it with a RecordError (a clear 400), never another exception (a 500)."""

from __future__ import annotations

import contextlib
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.records import RECORD_FORMAT, RecordError, checkpoints, parse_record

VALID = {"format": RECORD_FORMAT, "rules": {"preset": "classic", "options": {}}, "seed": 3,
         "names": ["Ana", "Bob"], "teams": None,
         "actions": [{"type": "roll", "player": 0}, {"type": "buy", "player": 0}, {"type": "end_turn", "player": 0}]}
KEYS = ["format", "rules", "seed", "names", "teams", "actions", "preset", "options", "type", "player", "square",
        "amount", "to", "give", "take", "trade", "choice", "numbers", "clock", "cash", "squares", "cards"]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-2**70, max_value=2**70)
    | st.floats(allow_nan=False) | st.text(max_size=8) | st.sampled_from([*KEYS, "roll", "propose", "classic"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=4), inner,
                                                                max_size=4),
    max_leaves=12)


def _paths(node, path=()):
    yield path
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, (*path, i))


PATHS = [p for p in _paths(VALID) if p]


def _replaced(path, value) -> dict:
    record = json.loads(json.dumps(VALID))
    node = record
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return record


def _read(raw: bytes) -> None:
    with contextlib.suppress(RecordError):
        checkpoints(parse_record(raw))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(PATHS), json_values)
def test_any_value_anywhere_in_a_record_is_read_or_refused(path, value):
    _read(json.dumps(_replaced(path, value)).encode())


@settings(max_examples=100, deadline=None)
@given(st.lists(st.dictionaries(st.sampled_from(KEYS), json_values, max_size=5), max_size=5))
def test_any_list_of_actions_is_replayed_or_refused(actions):
    _read(json.dumps(dict(VALID, actions=actions)).encode())


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=64))
def test_any_bytes_are_read_or_refused(raw):
    _read(raw)
