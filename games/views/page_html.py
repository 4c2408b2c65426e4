"""The game page's long loops as HTML, drawn in Python: the board's 40 squares, the players'
panels and the log.

They are the biggest part of the game fragment that every move, poll and page view redraws;
as loops of Django template tags they cost several milliseconds a render, most of a move's
response. This draws the same markup the template loops drew, from ``present.board_view``,
``present.players_view`` and ``present.log_entries``, escaping every value as the templates
did and with the same translated strings (``templates/games/partials/board.html``,
``players.html`` and ``log_entries.html`` call it through the ``board_squares``,
``player_items`` and ``log_items`` tags). Change that markup here.
"""

from __future__ import annotations

from html import escape
from typing import Any

from django.template.defaultfilters import date as date_filter
from django.template.defaultfilters import timeuntil_filter
from django.urls import reverse
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.timezone import template_localtime
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games.formats import cost as _money
from games.views.short_labels import short_label

ICONS = {
    "chance": '<span class="sq-icon icon-chance" aria-hidden="true">?</span>',
    "luck": '<span class="sq-icon icon-chance" aria-hidden="true">?</span>',
    "chest": '<span class="sq-icon icon-chest" aria-hidden="true"></span>',
    "railroad": '<span class="sq-icon icon-rail" aria-hidden="true"></span>',
    "utility": '<span class="sq-icon icon-utility" aria-hidden="true"></span>',
    "tax": '<span class="sq-icon icon-tax" aria-hidden="true">%</span>',
}


def _e(value: Any) -> str:
    return escape(str(value))


def _token(p: dict[str, Any], title: str) -> str:
    current = " is-current" if p["current"] else ""
    return (
        f'<span class="token{current}" style="--c: {_e(p["colour"])}" title="{title}">'
        f"{_e(p['initial'])}</span>"
    )


def _square(
    sq: dict[str, Any], economy: dict[str, Any] | None, act_url: str | None, tr: dict[str, str]
) -> str:
    corner = sq["corner"]
    owner = sq["owner"]
    colour = sq["colour"]
    mortgaged = sq["mortgaged"]
    name = _e(sq["name"])
    tokens = sq["tokens"]

    classes = f"sq sq-{_e(sq['side'])} sq-{_e(sq['kind'])}"
    if corner:
        classes += f" corner corner-{_e(corner)}"
    if owner:
        classes += " is-owned"
    if mortgaged:
        classes += " is-mortgaged"
    if sq["here"]:
        classes += " is-here"
    if sq["target"]:
        classes += " is-target"
    style = f"grid-area: {_e(sq['row'])} / {_e(sq['col'])};"
    if owner:
        style += f" --owner: {_e(owner['colour'])};"
    if colour:
        style += f" --band: {_e(colour)};"
    title = name
    if sq["price"]:
        title += f" · {_e(_money(sq['price']))}"
    if owner:
        title += " · " + _("owned by %(name)s") % {"name": _e(owner["name"])}
    if mortgaged:
        title += " · " + tr["mortgaged"]
    if sq["hotel"]:
        title += " · " + tr["hotel"]
    elif sq["level"]:
        title += f" · {_e(sq['level'])} {tr['houses']}"
    if sq.get("rent") is not None:
        title += f" · {tr['rent']} {_e(_money(sq['rent']))}"
    elif sq.get("rent_dice"):
        title += " · " + tr["rent_dice"] % {"n": _e(sq["rent_dice"])}

    # tabindex="-1": a tap focuses the square, and a small board shows its title (game.css).
    out = [f'<div class="{classes}"\n style="{style}"\n title="{title}" tabindex="-1">\n']
    if colour:
        if sq["hotel"]:
            inside = f'<span class="hotel" aria-label="{tr["hotel"]}"></span>'
        else:
            inside = '<span class="house"></span>' * len(sq["houses"])
        out.append(f'<span class="band">\n{inside}\n</span>\n')
    out.append('<span class="sq-body">\n')
    if corner == "go":
        out.append(
            f'<span class="go-text">{name}</span><span class="go-sub">{tr["go_sub"]}</span>'
            '<span class="go-arrow" aria-hidden="true">&larr;</span>\n'
        )
    elif corner == "jail":
        out.append(
            f'<span class="jail-cell"><span>{tr["in_jail"]}</span></span>'
            f'<span class="jail-visit">{tr["visiting"]}</span>\n'
        )
    elif corner == "parking":
        out.append(f'<span class="corner-text">{name}</span>\n')
        if economy is not None and economy.get("free_parking") is not None:
            out.append(f'<span class="corner-sub">{_e(_money(economy["free_parking"]))}</span>\n')
        if economy is not None and economy.get("jackpot") is not None:
            pool = _e(_money(economy["jackpot"]))
            out.append(f'<span class="corner-sub">{tr["pool"]} {pool}</span>\n')
    elif corner == "gotojail":
        out.append(f'<span class="corner-text">{name}</span>\n')
    else:
        icon = ICONS.get(sq["kind"])
        if icon:
            out.append(icon + "\n")
        # The full name, and the short label that replaces it on a small board (game.css).
        out.append(
            f'<span class="sq-name">{name}</span>'
            f'<span class="sq-short" aria-hidden="true">{_e(short_label(sq["name"]))}</span>\n'
        )
        if tokens:  # (an empty one would not show: left out, the board is 1 kB lighter)
            out.append('<span class="tokens">')
            out.extend(_token(p, _e(p["name"])) for p in tokens)
            out.append("</span>\n")
        if sq["price"]:
            out.append(f'<span class="sq-price">{_e(_money(sq["price"]))}</span>\n')
        elif sq["tax"]:
            out.append(f'<span class="sq-price">{tr["pay"]} {_e(_money(sq["tax"]))}</span>\n')
    out.append("</span>\n")
    if mortgaged:
        out.append(f'<span class="mortgage-mark">{tr["mortgaged"]}</span>\n')
    if corner and tokens:
        out.append('<span class="tokens tokens-corner">\n')
        out.extend(_token(p, _e(p["name"])) for p in tokens if not p["in_jail"])
        out.append("\n</span>\n")
        if corner == "jail":
            out.append('<span class="tokens tokens-jailed">\n')
            out.extend(
                _token(p, _("%(name)s (in jail)") % {"name": _e(p["name"])})
                for p in tokens
                if p["in_jail"]
            )
            out.append("\n</span>\n")
    if sq["target"]:
        pick = _("Pick %(name)s") % {"name": name}
        index = _e(sq["index"])
        out.append(
            f'<button type="submit" form="pick-board" name="square" value="{index}"'
            f' class="sq-pick"\n hx-post="{_e(act_url)}" hx-include="#pick-board">\n'
            f'<span class="visually-hidden">{pick}</span>\n</button>\n'
        )
    out.append("</div>\n")
    return "".join(out)


def squares_html(
    squares: list[dict[str, Any]],
    *,
    economy: dict[str, Any] | None = None,
    game_id: int | None = None,
) -> SafeString:
    """The squares of ``present.board_view``, in board order. ``game_id`` is needed only when a
    square is a target (it posts the pick to the game's act endpoint)."""
    tr = {
        "mortgaged": _("mortgaged"),
        "hotel": _("hotel"),
        "houses": _("houses"),
        "pay": _("pay"),
        "pool": _("pool"),
        "go_sub": _("collect salary as you pass"),
        "in_jail": _("In jail"),
        "visiting": _("Just visiting"),
        "rent": _("rent"),
        "rent_dice": _("rent %(n)s times the dice"),
    }
    act_url = None
    if game_id is not None and any(sq["target"] for sq in squares):
        act_url = reverse("games:game_act", args=[game_id])
    return mark_safe("".join(_square(sq, economy, act_url, tr) for sq in squares))


def log_html(entries: list[dict[str, Any]]) -> SafeString:
    """The log's entries (``present.log_entries``), newest first, as list items."""
    ce = conditional_escape
    out = []
    for entry in entries:
        colour = f"--c: {ce(entry['colour'])}" if entry["colour"] else ""
        seq = ce(entry["seq"])
        out.append(
            f'<li class="log-entry" style="{colour}">\n<span class="log-seq">{seq}</span>\n'
            '<div class="log-text">\n'
        )
        if entry["dice"]:
            faces = "".join(f"<span>{ce(d['text'])}</span>" for d in entry["dice"])
            out.append(f'<span class="mini-dice">{faces}</span>\n')
        if entry["lines"]:
            out.append("".join(f"<p>{ce(line)}</p>" for line in entry["lines"]))
        else:
            empty = _("time ran out") if entry["source"] == "timeout" else "—"
            out.append(f'<p class="muted">{empty}</p>')
        out.append("\n</div>\n</li>\n")
    return mark_safe("".join(out))


def players_html(players: list[dict[str, Any]], deadline: Any = None) -> SafeString:
    """The players' panels (``present.players_view``); ``deadline`` is the pending decision's,
    shown on the badge of whoever it waits on."""
    ce = conditional_escape
    to_play = _("to play")
    wait = f'<span class="badge badge-wait">{to_play}</span>'
    if deadline:
        stamp = ce(date_filter(template_localtime(deadline), "c"))
        left = ce(timeuntil_filter(deadline))
        wait = (
            f'<span class="badge badge-wait">{to_play} · <time datetime="{stamp}" data-deadline>'
            f"{left}</time></span>"
        )
    on = pgettext("the square a player stands on", "On")
    out = []
    for p in players:
        classes = "player"
        for flag, name in (
            ("current", "is-current"),
            ("waiting", "is-waiting"),
            ("bankrupt", "is-bankrupt"),
            ("me", "is-me"),
            ("winner", "is-winner"),
        ):
            if p[flag]:
                classes += " " + name
        you = f' <span class="muted">({_("you")})</span>' if p["me"] else ""
        out.append(
            f'<article class="{classes}" style="--c: {ce(p["colour"])}">\n'
            '<header class="player-head">\n'
            f'<span class="token" aria-hidden="true">{ce(p["initial"])}</span>\n'
            f'<span class="player-name">{ce(p["name"])}{you}</span>\n'
        )
        if p["team"] is not None:
            team = _("team %(n)s") % {"n": ce(p["team"] + 1)}
            out.append(f'<span class="badge">{team}</span>\n')
        if p["winner"]:
            out.append(f'<span class="badge badge-win">{_("winner")}</span>\n')
        if p["bankrupt"]:
            out.append(f'<span class="badge badge-out">{_("bankrupt")}</span>\n')
        if p["current"]:
            out.append(f'<span class="badge badge-turn">{_("turn")}</span>\n')
        if p["waiting"]:
            out.append(wait + "\n")
        out.append("</header>\n")
        if not p["bankrupt"]:
            where = f"<strong>{_('in jail')}</strong>" if p["in_jail"] else ce(p["square"])
            out.append(
                f'<dl class="player-figures">\n'
                f'<div><dt>{_("Cash")}</dt><dd class="cash">{ce(_money(p["cash"]))}</dd></div>\n'
                f"<div><dt>{_('Net worth')}</dt><dd>{ce(_money(p['net_worth']))}</dd></div>\n"
                f"<div><dt>{on}</dt><dd>{where}</dd></div>\n"
            )
            if p["jail_cards"]:
                out.append(f"<div><dt>{_('Jail cards')}</dt><dd>{ce(p['jail_cards'])}</dd></div>\n")
            if p["missed"]:
                out.append(f"<div><dt>{_('Missed')}</dt><dd>{ce(p['missed'])}</dd></div>\n")
            out.append("</dl>\n")
            if p["groups"]:
                out.append('<ul class="deeds">\n')
                for g in p["groups"]:
                    whole = f" · {_('whole group')}" if g["complete"] else ""
                    done = " is-complete" if g["complete"] else ""
                    out.append(
                        f'<li class="deed-group{done}"'
                        f' style="--g: {ce(g["colour"])}; --ink: {ce(g["ink"])}"'
                        f' title="{ce(g["name"])}{whole}">\n'
                    )
                    for d in g["deeds"]:
                        m = " is-mortgaged" if d["mortgaged"] else ""
                        mt = f" ({_('mortgaged')})" if d["mortgaged"] else ""
                        if d["hotel"]:
                            lv = ' <b class="lv">H</b>'
                        elif d["level"]:
                            lv = f' <b class="lv">{ce(d["level"])}</b>'
                        else:
                            lv = ""
                        name = ce(d["name"])
                        out.append(f'<span class="deed{m}" title="{name}{mt}">{name}{lv}</span>')
                    out.append("\n</li>\n")
                out.append("</ul>\n")
        out.append("</article>\n")
    return mark_safe("".join(out))
