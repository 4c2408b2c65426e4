"""The game page's panel for ending early by agreement (RULES.md 16; games/agreement.py,
games/views/agreement.py): the open proposal (who agreed, who is still asked, the time left)
with the viewer's answer, or the offer to propose one. Each player's net worth, which the end
would rank them by (section 12), is on their card."""

from __future__ import annotations

from django import template
from django.utils import timezone

from games import agreement
from games.models import Seat

register = template.Library()


@register.inclusion_tag("games/partials/end_early.html", takes_context=True)
def end_early_panel(context) -> dict:
    game, me, state, active = context["game"], context.get("me"), context["state"], context.get("active")
    ctx = {"game": game, "csrf_token": context.get("csrf_token"), "show": False}
    if not active:
        return ctx
    now = timezone.now()
    seats = context.get("seats") or list(Seat.objects.filter(table_id=game.table_id))
    who = agreement.voters(seats, game.state)
    mine = me.position if me is not None and me.position in who else None
    proposal = agreement.open_proposal(game, now)
    names = [p.name for p in state.players]
    ctx.update(show=proposal is not None or mine is not None, me=mine, live=game.table.pace == "live")
    if proposal is None:
        return ctx
    ctx["proposal"] = {
        "n": proposal.n, "by": names[proposal.by], "ends": proposal.ends,
        "rows": [{"name": names[p], "agreed": p in proposal.agreed, "proposer": p == proposal.by}
                 for p in sorted(who | set(proposal.agreed)) if p < len(names)],
        "can_answer": mine is not None and mine not in proposal.agreed,
        "can_withdraw": mine is not None and mine == proposal.by,
        # The page redraws itself when the window runs out (live: 30 s).
        "refresh": max(1, int((proposal.ends - now).total_seconds()) + 1),
    }
    return ctx
