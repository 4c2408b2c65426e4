"""Game records: download a finished game, upload it again, step through it; bad uploads."""

from __future__ import annotations

import ast
import json
from html import unescape
from pathlib import Path

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.http.multipartparser import MultiPartParser
from django.test import Client
from django.urls import reverse

from games import records
from games.engine import GameState, RuleSet, apply, new_game
from games.engine.bots import make_bot
from games.engine.simulate import default_names, play_game
from games.models import GameAction, Replay, ReplayChunk
from games.records import RECORD_FORMAT
from tests.games.play_helpers import autoplay, end_by_surrenders, start_game
from tests.games.test_i18n import LOCALE_DIR, read_po

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(alice, bob, charlie):
    """A three-player game played for a while, ended by two surrenders."""
    return end_by_surrenders(autoplay(start_game(alice, bob, charlie), 120))


def upload(client, content: bytes, name: str = "game.json"):
    return client.post(reverse("games:record_upload"), {"record": SimpleUploadedFile(name, content)})


def test_record_download_has_the_format_rules_seed_names_and_actions(client, finished):
    response = client.get(reverse("games:game_record", args=[finished.pk]))

    assert response.status_code == 200
    assert "attachment" in response["Content-Disposition"]
    record = json.loads(response.content)
    start = GameAction.objects.get(game=finished, seq=0).action
    assert record["format"] == "monopoly-record/1"
    assert record["rules"] == start["rules"] == {"preset": "classic", "options": {}}
    assert record["seed"] == finished.seed
    assert record["names"] == ["Alice", "Bob", "Charlie"]
    assert record["teams"] is None
    assert len(record["actions"]) == GameAction.objects.filter(game=finished).count() - 1
    assert all("type" in a and "player" in a for a in record["actions"])


def test_record_of_a_game_in_play_is_not_offered(client, alice, bob):
    # The record holds the seed, which would tell the dice to come.
    game = start_game(alice, bob)
    client.force_login(alice)

    assert client.get(reverse("games:game_record", args=[game.pk])).status_code == 404
    assert client.get(reverse("games:game_replay", args=[game.pk])).status_code == 404


def test_downloaded_record_uploaded_again_replays_to_the_final_state(client, finished, alice):
    record = client.get(reverse("games:game_record", args=[finished.pk])).content
    client.force_login(alice)

    response = upload(client, record)

    assert response.status_code == 302
    replay = client.get(response["Location"])
    assert replay.status_code == 200
    assert replay.context["step"] == replay.context["steps"] == len(json.loads(record)["actions"])
    assert replay.context["state"].to_json() == finished.state
    assert replay.context["decision"].startswith("Game over")


def test_replay_viewer_steps_through_a_finished_game(client, finished):
    url = reverse("games:game_replay", args=[finished.pk])

    first = client.get(url, {"step": 0})
    third = client.get(url, {"step": 3})
    last = client.get(url)
    beyond = client.get(url, {"step": 10**6})

    assert first.status_code == third.status_code == last.status_code == 200
    assert first.context["step"] == 0 and first.context["prev"] == 0
    assert "Rolling for the first turn" in first.content.decode()
    assert third.context["prev"] == 2 and third.context["next"] == 4
    assert third.context["state"].seq == 3
    assert last.context["state"].to_json() == finished.state
    assert beyond.context["step"] == last.context["steps"]
    html = third.content.decode()
    assert 'class="board board-classic"' in html
    assert reverse("games:game_act", args=[finished.pk]) not in html  # read-only
    assert f'href="{url}?step=2"' in html and f'href="{url}?step=4"' in html


def test_replay_fragment_for_htmx_navigation(client, finished):
    response = client.get(reverse("games:game_replay", args=[finished.pk]), {"step": 5}, HTTP_HX_REQUEST="true")

    assert response.content.decode().lstrip().startswith('<div id="replay"')


def test_finished_game_page_links_to_the_replay_and_the_record(client, finished):
    html = client.get(reverse("games:game", args=[finished.pk])).content.decode()

    assert reverse("games:game_replay", args=[finished.pk]) in html
    assert reverse("games:game_record", args=[finished.pk]) in html
    assert "hx-trigger" not in html  # nothing left to poll for


@pytest.mark.parametrize("content, message", [
    (b"{not json", "not JSON"),
    (b"\xff\xfe\x00", "not JSON"),
    (b"[1, 2, 3]", "A game record is a JSON object"),
    (json.dumps({"format": "chess-pgn"}).encode(), "Unknown record format"),
    (json.dumps({"format": "monopoly-record/1", "rules": {"preset": "classic"}, "seed": 1,
                 "names": ["a", "b"], "actions": "roll"}).encode(), "actions must be a list"),
    (json.dumps({"format": "monopoly-record/1", "rules": {"preset": "snakes-and-ladders"}, "seed": 1,
                 "names": ["a", "b"], "actions": []}).encode(), "rule set is not valid"),
    (json.dumps({"format": "monopoly-record/1", "rules": {"preset": "classic"}, "seed": 1,
                 "names": ["a"], "actions": []}).encode(), "cannot start this game"),
])
def test_bad_upload_shows_an_error_and_stores_nothing(client, alice, content, message):
    client.force_login(alice)
    response = upload(client, content)

    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Replay.objects.exists()


def test_upload_with_an_action_the_engine_refuses_names_it(client, finished, alice):
    record = json.loads(client.get(reverse("games:game_record", args=[finished.pk])).content)
    client.force_login(alice)
    # Whoever moves first cannot end the turn before rolling.
    first = record["actions"][0]["player"]
    record["actions"].insert(0, {"type": "end_turn", "player": first})

    response = upload(client, json.dumps(record).encode())

    assert response.status_code == 400
    html = response.content.decode()
    assert "Action 1 of the record (end_turn) is refused by the engine" in html
    assert not Replay.objects.exists()


def test_upload_without_a_file_asks_for_one(client, alice):
    client.force_login(alice)
    response = client.post(reverse("games:record_upload"), {})

    assert response.status_code == 400
    assert "Choose a game record file" in response.content.decode()


def test_uploaded_replay_without_a_record_sends_to_the_upload_form(client, alice):
    client.force_login(alice)
    response = client.get(reverse("games:record_replay"))

    assert response.status_code == 302
    assert response["Location"] == reverse("games:record_upload")


# ---------------------------------------------------------------------------------------------
# Uploads need a login and are kept per user, prepared once; a step costs one checkpoint
# ---------------------------------------------------------------------------------------------

LONG_SEED = 1  # four random bots, classic: 2,089 actions, 23 trades accepted


@pytest.fixture(scope="module")
def long_record() -> dict:
    """A legal record of a whole game of four random bots, a couple of thousand actions long."""
    rules = RuleSet.build("classic")
    result = play_game(rules, [make_bot("random") for _ in range(4)], LONG_SEED, keep_log=True)
    record = {"format": RECORD_FORMAT, "rules": rules.to_json(), "seed": LONG_SEED,
              "names": default_names(4), "teams": None, "actions": result.log}
    assert len(record["actions"]) > 10 * records.CHECKPOINT_EVERY
    return record


def reference_states(record: dict, steps: list[int]) -> dict[int, dict]:
    """The positions at ``steps`` by the plainest replay there is: from the start, every time."""
    out = {}
    for step in steps:
        state, _events = new_game(RuleSet.from_json(record["rules"]), record["names"], record["seed"])
        for a in record["actions"][:step]:
            apply(state, a, events=False)
        out[step] = state.to_json()
    return out


@pytest.fixture
def count_applied(monkeypatch):
    """How many actions games.records applies (the replay's cost, counted, not timed)."""
    counter = {"n": 0}
    real = records.apply

    def counting(*args, **kwargs):
        counter["n"] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(records, "apply", counting)
    return counter


def test_upload_and_uploaded_replay_need_a_login(client, long_record):
    form = client.get(reverse("games:record_upload"))
    posted = upload(client, json.dumps(long_record).encode())
    viewed = client.get(reverse("games:record_replay"))

    for response in (form, posted, viewed):
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("account_login"))
    assert not Replay.objects.exists()


def test_an_upload_is_kept_for_its_uploader_only_not_in_the_session(client, alice, bob, long_record):
    client.force_login(alice)
    assert upload(client, json.dumps(long_record).encode()).status_code == 302

    replay = Replay.objects.get()
    steps = len(long_record["actions"])
    assert replay.owner == alice and replay.game is None and replay.steps == steps
    assert replay.chunks.count() == -(-steps // records.CHECKPOINT_EVERY)
    assert all(len(c.actions) <= records.CHECKPOINT_EVERY for c in replay.chunks.all())
    assert "uploaded_record" not in client.session
    assert len(json.dumps(dict(client.session.items()))) < 1000

    client.force_login(bob)
    assert client.get(reverse("games:record_replay"))["Location"] == reverse("games:record_upload")


def test_a_record_saved_with_a_byte_order_mark_is_read(client, alice, long_record):
    client.force_login(alice)

    response = upload(client, b"\xef\xbb\xbf" + json.dumps(long_record).encode())

    assert response.status_code == 302
    assert Replay.objects.get(owner=alice).steps == len(long_record["actions"])


def test_the_upload_page_drops_a_record_kept_in_the_session_the_old_way(client, alice):
    client.force_login(alice)
    session = client.session
    session["uploaded_record"] = {"actions": [{"type": "roll", "player": 0}] * 1000}
    session.save()

    client.get(reverse("games:record_upload"))

    assert "uploaded_record" not in client.session


def test_a_new_upload_replaces_the_users_previous_one(client, alice, finished, long_record):
    short = client.get(reverse("games:game_record", args=[finished.pk])).content
    client.force_login(alice)

    upload(client, json.dumps(long_record).encode())
    upload(client, short)

    replay = Replay.objects.get(owner=alice)
    assert replay.steps == len(json.loads(short)["actions"])
    assert Replay.objects.filter(owner=alice).count() == 1
    assert ReplayChunk.objects.filter(replay__owner=alice).count() == replay.chunks.count()


def test_upload_replays_the_record_once_keeping_only_checkpoints(client, alice, long_record, count_applied,
                                                                 monkeypatch):
    kept = {"n": 0}
    real = GameState.to_json

    def counting(self):
        kept["n"] += 1
        return real(self)

    monkeypatch.setattr(GameState, "to_json", counting)
    client.force_login(alice)

    response = upload(client, json.dumps(long_record).encode())

    assert response.status_code == 302
    steps = len(long_record["actions"])
    # One replay of the record (the old view kept a copy of every position and replayed the
    # whole record again at every step).
    assert count_applied["n"] == steps
    assert kept["n"] == -(-steps // records.CHECKPOINT_EVERY)


def test_every_step_replays_at_most_one_checkpoint_of_actions(client, alice, long_record,
                                                               django_assert_max_num_queries):
    client.force_login(alice)
    upload(client, json.dumps(long_record).encode())
    n, k = len(long_record["actions"]), records.CHECKPOINT_EVERY
    steps = sorted({0, 1, 2, k - 1, k, k + 1, 2 * k, 7 * k + 50, n - 1, n})
    expected = reference_states(long_record, steps)

    for step in steps:
        with django_assert_max_num_queries(6):
            response = client.get(reverse("games:record_replay"), {"step": step})
        assert response.status_code == 200
        assert response.context["step"] == step
        assert response.context["state"].to_json() == expected[step], step
        assert response.context["replayed"] <= k
        assert response.context["replayed"] == (0 if step == 0 else (step - 1) % k + 1)


def test_a_step_request_applies_no_more_than_a_checkpoint_of_actions(client, alice, long_record, count_applied):
    client.force_login(alice)
    upload(client, json.dumps(long_record).encode())
    n = len(long_record["actions"])

    for step in (n, n - 1, records.CHECKPOINT_EVERY, 1):
        count_applied["n"] = 0
        client.get(reverse("games:record_replay"), {"step": step})
        assert 1 <= count_applied["n"] <= records.CHECKPOINT_EVERY


def test_finished_games_replay_is_prepared_at_its_first_view_only(client, finished, count_applied):
    url = reverse("games:game_replay", args=[finished.pk])
    steps = GameAction.objects.filter(game=finished).count() - 1

    first = client.get(url, {"step": 1})
    assert count_applied["n"] == steps + 1  # the one replay, then the step's own action
    count_applied["n"] = 0
    last = client.get(url)
    again = client.get(url, {"step": 2})

    assert first.status_code == last.status_code == again.status_code == 200
    assert Replay.objects.filter(game=finished).count() == 1
    assert count_applied["n"] <= 2 * records.CHECKPOINT_EVERY
    assert last.context["state"].to_json() == finished.state


# ---------------------------------------------------------------------------------------------
# Bad uploads: each a clear 400, and nothing stored or changed
# ---------------------------------------------------------------------------------------------

def _record(**changes) -> bytes:
    record = {"format": RECORD_FORMAT, "rules": {"preset": "classic", "options": {}}, "seed": 1,
              "names": ["Ana", "Bob"], "teams": None, "actions": [{"type": "roll", "player": 0}]}
    record.update(changes)
    return json.dumps(record).encode()


@pytest.mark.parametrize("content, message", [
    (b"", "not JSON"),
    (b"[" * 200_000 + b"]" * 200_000, "nests too deeply"),
    (b'{"format": "monopoly-record/1", "x": ' + b"[" * 20 + b"]" * 20 + b"}", "nests too deeply"),
    (b'{"seed": ' + b"9" * 5000 + b"}", "not JSON"),
    (b'{"format": "monopoly-record/1", "seed": NaN}', "not JSON"),
    (_record(acitons=[]), "The record has an unknown field &quot;acitons&quot;"),
    (_record(actions=[{"type": "build", "player": 0, "sqaure": 1}]),
     "Action 1 of the record has an unknown field &quot;sqaure&quot;"),
    (_record(actions=[{"type": "roll", "player": "0"}]),
     "Action 1 of the record has a malformed field &quot;player&quot;"),
    (_record(actions=[{"type": "propose", "player": 0, "to": 1, "give": {"cash": {"a": 1}}}]),
     "Action 1 of the record has a malformed field &quot;give&quot;"),
    (_record(actions=[{"player": 0}]), "Action 1 of the record needs a type and a player"),
    (_record(actions=[{"type": "roll", "player": 0, "clock": -5}]), "Action 1 of the record (roll) is refused"),
    (_record(actions=[["roll", 0]]), "actions must be a list of actions"),
    (_record(seed="1"), "seed must be a whole number"),
    (_record(seed=2**70), "seed must be a whole number"),
    (_record(seed=True), "seed must be a whole number"),
    (_record(names=[1, 2]), "names must be a list of player names"),
    (_record(names=["Ana", "B" * 500]), "at most 80 characters"),
    (_record(teams="ab"), "teams must be lists of seat numbers"),
    (_record(rules={"preset": "classik"}), "unknown preset"),
    (_record(rules={"preset": "classic", "options": {"free_parking_jackpt": True}}), "unknown option"),
    (_record(rules={"preset": "classic", "option": {}}), "rule set has an unknown field &quot;option&quot;"),
    (_record(rules="classic"), "rule set is missing"),
    (json.dumps({"format": "monopoly-record/1", "name": "a scenario", "setup": {}, "steps": []}).encode(),
     "The record has an unknown field"),
    (b"name: a scenario\nsteps: []\n", "not JSON"),
])
def test_malformed_upload_is_a_clear_400_and_stores_nothing(client, alice, content, message):
    client.force_login(alice)
    response = upload(client, content)

    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Replay.objects.exists()


def test_a_record_over_the_action_cap_is_refused_before_it_is_replayed(client, alice, count_applied):
    # A legal start of a record, padded past the cap: the count alone refuses it.
    actions = [{"type": "roll", "player": 0}] * (records.MAX_RECORD_ACTIONS + 1)
    client.force_login(alice)

    response = upload(client, _record(actions=actions))

    assert response.status_code == 400
    assert f"at most {records.MAX_RECORD_ACTIONS:,}" in response.content.decode()
    assert count_applied["n"] == 0
    assert not Replay.objects.exists()


def test_a_file_over_the_size_cap_is_refused(client, alice):
    client.force_login(alice)
    content = _record()[:-1] + b" " * (records.MAX_RECORD_BYTES - len(_record()) + 1) + b"}"
    assert records.MAX_RECORD_BYTES < len(content) < records.MAX_RECORD_BYTES + 64 * 1024

    response = upload(client, content)

    assert response.status_code == 400
    assert "too large for a game record (at most 6 MB)" in response.content.decode()
    assert not Replay.objects.exists()


def test_a_body_over_the_size_cap_is_refused_before_it_is_read(client, alice, monkeypatch):
    parsed = []
    real = MultiPartParser.parse
    monkeypatch.setattr(MultiPartParser, "parse", lambda self: parsed.append(1) or real(self))
    client.force_login(alice)

    response = upload(client, b" " * (records.MAX_RECORD_BYTES + 100 * 1024))

    assert response.status_code == 400
    assert "too large for a game record" in response.content.decode()
    assert parsed == []  # neither the CSRF check nor the view read the body
    assert not Replay.objects.exists()


def test_a_refused_upload_leaves_the_previous_one_in_place(client, alice, finished):
    good = client.get(reverse("games:game_record", args=[finished.pk])).content
    client.force_login(alice)
    upload(client, good)
    before = Replay.objects.get(owner=alice)

    refused = upload(client, _record(actions=[{"type": "end_turn", "player": 0}]))

    assert refused.status_code == 400
    assert list(Replay.objects.values_list("pk", "steps")) == [(before.pk, before.steps)]


def test_an_upload_without_the_csrf_token_is_forbidden(alice, long_record):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)

    response = upload(client, json.dumps(long_record).encode())

    assert response.status_code == 403
    assert not Replay.objects.exists()


def test_the_upload_form_carries_its_csrf_token_and_the_size_cap(client, alice):
    client.force_login(alice)
    html = client.get(reverse("games:record_upload")).content.decode()

    assert 'name="csrfmiddlewaretoken"' in html
    assert "at most 6 MB" in html


# ---------------------------------------------------------------------------------------------
# In the reader's language
# ---------------------------------------------------------------------------------------------

def _gettext_literals(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "_" and node.args:
            assert isinstance(node.args[0], ast.Constant), ast.dump(node)
            found.add(node.args[0].value)
    return found


@pytest.mark.parametrize("language", ["es", "ca"])
def test_every_record_message_is_translated(language):
    messages = {m["msgid"] for m in read_po(LOCALE_DIR / language / "LC_MESSAGES" / "django.po")[1:]}
    asked = _gettext_literals(Path(settings.BASE_DIR) / "games" / "records.py")

    assert len(asked) > 15
    assert sorted(asked - messages) == []


@pytest.mark.parametrize(("language", "nested", "capped"), [
    ("es", "Ese archivo anida demasiados niveles", "puede contener como máximo 100 000"),
    ("ca", "Aquest fitxer imbrica massa nivells", "pot contenir com a màxim 100.000"),
])
def test_upload_refusals_speak_the_uploaders_language(client, alice, language, nested, capped):
    alice.language = language
    alice.save(update_fields=["language"])
    client.force_login(alice)

    deep = upload(client, b"[" * 5000 + b"]" * 5000).content.decode()
    many = upload(client, _record(actions=[{"type": "roll", "player": 0}] * (records.MAX_RECORD_ACTIONS + 1)))

    assert nested in deep
    assert capped in unescape(many.content.decode()).replace("\xa0", " ")
