"""One status post per game, edited in place, on each provider's fake server (issue 29)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from chats import delivery, services, tasks
from chats.models import Channel, StatusPost
from games import services as game_services
from games.engine import GameState, waiting_on
from games.models import Game
from tests.chats import fakes
from tests.games.play_helpers import choose, users_by_seat

CREDENTIALS = {
    "discord": {"id": fakes.DISCORD_ID, "token": fakes.DISCORD_TOKEN},
    "slack": {"token": fakes.SLACK_TOKEN, "channel": fakes.SLACK_CHANNEL},
    "telegram": {"token": fakes.TELEGRAM_TOKEN, "chat": fakes.TELEGRAM_CHAT},
}


def _credentials(provider: str, fake) -> dict:
    if provider == "webhook":
        return {"url": fake.webhook_url, "secret": fakes.WEBHOOK_SECRET}
    return CREDENTIALS[provider]


def _table_with_channel(provider, fake, alice, bob, make_table):
    table = make_table(alice, seat_count=4)
    game_services.table_join(table=table, user=bob)
    for position in (2, 3):
        game_services.table_set_seat(table=table, by=alice, position=position, bot="strategy")
    services.channel_connect(table=table, by=alice, provider=provider, credentials=_credentials(provider, fake),
                             label=provider)
    return table


def _move(game: Game, capture) -> None:
    game.refresh_from_db()
    state = GameState.from_json(game.state)
    seat = next(p for p in waiting_on(state) if choose(state, p) is not None)
    with capture(execute=True):
        game_services.game_submit_action(game=game, user=users_by_seat(game)[seat], action=choose(state, seat),
                                         expected_version=game.version)
    game.refresh_from_db()


@pytest.mark.django_db
@pytest.mark.parametrize("provider", ["discord", "slack", "telegram", "webhook"])
def test_one_post_per_game_edited_in_place_and_edits_coalesced(
        provider, fake, alice, bob, make_table, celery_eager, clock, django_capture_on_commit_callbacks):
    table = _table_with_channel(provider, fake, alice, bob, make_table)
    with django_capture_on_commit_callbacks(execute=True):
        game = game_services.table_start(table=table, by=alice)
    made = fake.of(provider)
    assert [r.kind for r in made] == ["create"]
    assert "Round 1" in made[0].text and f"/games/{game.pk}/" in made[0].text
    post = StatusPost.objects.get(game=game)
    waits_at_send = list(game.waiting_seats)
    # Moves in the same instant: an edit only when whom the game waits on changes.
    changes = 0
    for _ in range(12):
        before = list(game.waiting_seats)
        _move(game, django_capture_on_commit_callbacks)
        changes += list(game.waiting_seats) != before
    edits = [r for r in fake.of(provider) if r.kind == "edit"]
    assert 1 <= len(edits) <= changes
    assert {r.message for r in fake.of(provider)} == {made[0].message}  # the same message throughout
    post.refresh_from_db()
    if post.dirty_seq > post.sent_seq:
        # The coalesced edit, at the end of the interval: the one task it queued.
        clock.now += timedelta(seconds=max(delivery.edit_interval(), delivery.settle()) + 1)
        assert tasks.deliver_post(post.pk) == "edited"
    post.refresh_from_db()
    assert post.sent_seq == post.dirty_seq and post.posts == 1
    assert waits_at_send is not None
    for request in fake.requests:
        assert "@example" not in request.text and alice.email not in str(request.body)


@pytest.mark.django_db
def test_a_new_post_only_when_the_game_waits_on_someone_new_after_a_long_quiet(
        fake, alice, bob, make_table, celery_eager, clock, django_capture_on_commit_callbacks):
    table = _table_with_channel("discord", fake, alice, bob, make_table)
    with django_capture_on_commit_callbacks(execute=True):
        game = game_services.table_start(table=table, by=alice)
    first = fake.of("discord")[0].message
    waiting = list(game.waiting_seats)
    while list(game.waiting_seats) == waiting:
        clock.now += delivery.quiet() + timedelta(minutes=1)
        _move(game, django_capture_on_commit_callbacks)
    creates = [r for r in fake.of("discord") if r.kind == "create"]
    assert len(creates) == 2 and creates[1].message != first
    assert StatusPost.objects.get(game=game).posts == 2


@pytest.mark.django_db
def test_the_post_mentions_only_the_linked_player_the_game_waits_on(
        fake, alice, bob, make_table, celery_eager, clock, django_capture_on_commit_callbacks):
    services.identity_set(user=alice, discord_id="100000000000000001", slack_id="", telegram_username="")
    services.identity_set(user=bob, discord_id="100000000000000002", slack_id="", telegram_username="")
    ids = {alice.pk: "100000000000000001", bob.pk: "100000000000000002"}
    table = _table_with_channel("discord", fake, alice, bob, make_table)
    with django_capture_on_commit_callbacks(execute=True):
        game = game_services.table_start(table=table, by=alice)
    for _ in range(40):
        clock.now += timedelta(seconds=20)
        _move(game, django_capture_on_commit_callbacks)
        if game.status != Game.Status.ACTIVE:
            break
    seen = set()
    users = users_by_seat(game)
    for request in fake.of("discord"):
        seen |= set(request.mentions)
        assert len(request.mentions) <= 2
    assert seen <= set(ids.values()) and seen  # (fake: allowed_mentions.users matches the text)
    # The last post names exactly the humans waited on now.
    last = fake.of("discord")[-1]
    game.refresh_from_db()
    expected = {ids[users[p].pk] for p in game.waiting_seats if users[p] is not None and users[p].pk in ids}
    post = StatusPost.objects.get(game=game)
    if post.sent_seq == post.dirty_seq:
        assert set(last.mentions) == expected


@pytest.mark.django_db
@pytest.mark.parametrize("provider", ["discord", "slack", "telegram"])
def test_a_rate_limit_is_waited_out(provider, fake, alice, bob, make_table, celery_eager, clock,
                                    django_capture_on_commit_callbacks):
    table = _table_with_channel(provider, fake, alice, bob, make_table)
    fake.rate_limit(provider, 7)
    with django_capture_on_commit_callbacks(execute=True):
        game = game_services.table_start(table=table, by=alice)
    post = StatusPost.objects.get(game=game)
    assert [r.status for r in fake.requests] == [429]
    assert post.retry_at is not None and post.retry_at >= clock.now + timedelta(seconds=7)
    clock.now += timedelta(seconds=3)
    assert delivery.deliver_post(post.pk) == "nothing"  # not before the time asked for
    assert len(fake.requests) == 1
    clock.now += timedelta(seconds=5)
    assert delivery.deliver_post(post.pk) == "posted"
    assert [r.status for r in fake.requests] == [429, 200]  # (and the fake saw no early retry)


@pytest.mark.django_db
def test_a_dead_channel_backs_off_then_gives_up_and_the_host_sees_it(
        fake, alice, bob, make_table, celery_eager, clock, client, django_capture_on_commit_callbacks):
    table = _table_with_channel("telegram", fake, alice, bob, make_table)
    fake.down("telegram")
    with django_capture_on_commit_callbacks(execute=True):
        game = game_services.table_start(table=table, by=alice)
    post = StatusPost.objects.get(game=game)
    waits = []
    while not Channel.objects.get(pk=post.channel_id).gave_up_at:
        post.refresh_from_db()
        assert post.retry_at is not None
        waits.append((post.retry_at - clock.now).total_seconds())
        clock.now = post.retry_at
        assert delivery.deliver_post(post.pk) == "failed"
        assert len(waits) < 30
    assert waits[0] < waits[1] < waits[2]  # backoff grows
    channel = Channel.objects.get(pk=post.channel_id)
    assert channel.gave_up_at - channel.failing_since >= delivery.give_up_after()
    count = len(fake.requests)
    assert delivery.deliver_post(post.pk) == "nothing" and delivery.sweep() == 0
    assert len(fake.requests) == count
    client.force_login(alice)
    page = client.get(f"/chats/tables/{table.pk}/").content.decode()
    assert "Delivery to this channel stopped" in page
    assert "Delivery to the group chat stopped." in client.get(f"/games/{game.pk}/").content.decode()
    # The service is back: the host's test message goes through and the post catches up.
    fake.up("telegram")
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(f"/chats/tables/{table.pk}/test/", follow=True)
    assert "The test message was sent." in answer.content.decode()
    channel.refresh_from_db()
    post.refresh_from_db()
    assert channel.gave_up_at is None and post.sent_seq == post.dirty_seq and post.message_ref


@pytest.mark.django_db
def test_a_move_sends_nothing_itself(fake, alice, bob, make_table, django_capture_on_commit_callbacks):
    table = _table_with_channel("discord", fake, alice, bob, make_table)
    fake.down("discord")
    with django_capture_on_commit_callbacks(execute=False) as queued:
        game = game_services.table_start(table=table, by=alice)
    assert fake.requests == [] and queued  # the delivery is a task after the commit
    game.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=False):
        state = GameState.from_json(game.state)
        seat = next(p for p in waiting_on(state) if choose(state, p) is not None)
        game_services.game_submit_action(game=game, user=users_by_seat(game)[seat], action=choose(state, seat),
                                         expected_version=game.version)
    assert fake.requests == []
    assert StatusPost.objects.get(game=game).dirty_seq == 2


@pytest.mark.django_db
def test_a_deleted_message_is_posted_again(fake, alice, bob, make_table, celery_eager, clock,
                                           django_capture_on_commit_callbacks):
    table = _table_with_channel("discord", fake, alice, bob, make_table)
    with django_capture_on_commit_callbacks(execute=True):
        game = game_services.table_start(table=table, by=alice)
    fake.messages["discord"].clear()  # someone deleted it in Discord
    waiting = list(game.waiting_seats)
    while list(game.waiting_seats) == waiting:
        _move(game, django_capture_on_commit_callbacks)
    assert [r.kind or r.status for r in fake.of("discord", None)] == ["create", 404, "create"]


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "line"), [("en", "{b} nudged {a}."), ("es", "{b} ha dado un toque a {a}.")])
def test_a_nudge_is_among_the_posts_last_log_lines(language, line, fake, alice, bob, make_table, celery_eager,
                                                   clock, client, django_capture_on_commit_callbacks):
    """Issue 29: who nudged whom is a line of the game's own log, so the status post's last lines
    (in the host's language) carry it once the post is edited."""
    from django.urls import reverse

    from reach.models import Wait

    alice.language = language
    alice.save(update_fields=["language"])
    table = _table_with_channel("discord", fake, alice, bob, make_table)
    with django_capture_on_commit_callbacks(execute=True):
        game = game_services.table_start(table=table, by=alice)
    seats = {u.pk: p for p, u in users_by_seat(game).items() if u is not None}
    while list(game.waiting_seats) != [seats[alice.pk]]:
        _move(game, django_capture_on_commit_callbacks)
    clock.now += timedelta(hours=13)  # Alice has been waited on for 13 hours
    assert Wait.objects.filter(game=game, seat=seats[alice.pk]).exists()
    post = StatusPost.objects.get(game=game)
    if post.dirty_seq > post.sent_seq:  # (the last move's coalesced edit)
        assert tasks.deliver_post(post.pk) == "edited"
    post.refresh_from_db()
    sent, marked = len(fake.of("discord")), post.dirty_seq
    expected = line.format(a=alice.public_name, b=bob.public_name)
    assert expected not in fake.of("discord")[-1].text
    client.force_login(bob)
    with django_capture_on_commit_callbacks(execute=True):
        r = client.post(reverse("reach:nudge", args=[game.pk]), {"seat": str(seats[alice.pk])})
    assert r.status_code == 302
    post.refresh_from_db()
    assert post.dirty_seq == marked + 1  # the nudge marked the post (the game was still: sent at once)
    (edit,) = fake.of("discord")[sent:]
    assert edit.kind == "edit" and edit.message == fake.of("discord")[0].message
    assert expected in edit.text
