"""Apply an answer of out-of-band swaps (games/views/page/parts.py) to a page's HTML, as htmx 2
does, and compare the result with a fresh render: a small DOM of the standard library's
HTMLParser, and the few CSS selectors an answer writes (``#id``, ``.class``, a tag, the
descendant and child combinators). A selector outside that set fails the test, saying which."""

from __future__ import annotations

import re
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Node:
    def __init__(self, tag: str | None, attrs: dict[str, str] | None = None, text: str = "") -> None:
        self.tag, self.attrs, self.text = tag, attrs or {}, text
        self.children: list[Node] = []
        self.parent: Node | None = None

    @property
    def elements(self) -> list[Node]:
        return [c for c in self.children if c.tag is not None]

    def classes(self) -> set[str]:
        return set(self.attrs.get("class", "").split())

    def walk(self):
        for c in self.elements:
            yield c
            yield from c.walk()

    def adopt(self, nodes: list[Node], at: int) -> None:
        for n in nodes:
            n.parent = self
        self.children[at:at] = nodes


class _Parser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = self.top = Node("#root")

    def handle_starttag(self, tag, attrs):
        node = Node(tag, {k: v or "" for k, v in attrs})
        self.top.adopt([node], len(self.top.children))
        if tag not in VOID:
            self.top = node

    def handle_startendtag(self, tag, attrs):
        self.top.adopt([Node(tag, {k: v or "" for k, v in attrs})], len(self.top.children))

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        node = self.top
        while node is not None and node.tag != tag:
            node = node.parent
        assert node is not None and node.parent is not None, f"</{tag}> closes nothing"
        self.top = node.parent

    def handle_data(self, data):
        self.top.adopt([Node(None, text=data)], len(self.top.children))


def parse(html: str) -> Node:
    p = _Parser()
    p.feed(html)
    p.close()
    assert p.top is p.root, f"<{p.top.tag}> is never closed"
    return p.root


# -- selectors ---------------------------------------------------------------------------------

_SIMPLE = re.compile(r"(?P<tag>[a-z][\w-]*)?(?P<rest>(?:[#.][\w-]+)*)$")
_PART = re.compile(r"[#.][\w-]+")


def _matches_simple(node: Node, simple: str) -> bool:
    m = _SIMPLE.match(simple)
    assert m, f"selector part {simple!r} is not one these tests understand"
    if m["tag"] and node.tag != m["tag"]:
        return False
    for part in _PART.findall(m["rest"]):
        if part[0] == "#" and node.attrs.get("id") != part[1:]:
            return False
        if part[0] == "." and part[1:] not in node.classes():
            return False
    return True


def _steps(selector: str) -> list[tuple[str, str]]:
    """[(combinator, simple)] left to right; the first combinator is " "."""
    tokens = selector.replace(">", " > ").split()
    steps, comb = [], " "
    for t in tokens:
        if t == ">":
            comb = ">"
            continue
        steps.append((comb, t))
        comb = " "
    return steps


def _matches(node: Node, steps: list[tuple[str, str]]) -> bool:
    comb, simple = steps[-1]
    if not _matches_simple(node, simple):
        return False
    if len(steps) == 1:
        return True
    rest = steps[:-1]
    if comb == ">":
        return node.parent is not None and node.parent.tag != "#root" and _matches(node.parent, rest)
    up = node.parent
    while up is not None and up.tag != "#root":
        if _matches(up, rest):
            return True
        up = up.parent
    return False


def select(root: Node, selector: str) -> list[Node]:
    steps = _steps(selector)
    return [n for n in root.walk() if _matches(n, steps)]


# -- swaps --------------------------------------------------------------------------------------

def apply_parts(page: str, answer: str) -> Node:
    """The page's DOM after htmx has swapped each out-of-band element of ``answer``, in order, as
    htmx 2 reads ``hx-swap-oob``: "true" swaps the element in place of the one with its id; a
    swap style alone ("afterbegin", "delete", ...) applies to the element with its id; a style
    and a selector ("delete:#a .b, #c"), to what the selector matches. Every swap must find its
    target, as htmx would otherwise drop it (an error in the browser's console)."""
    root = parse(page)
    for oob in [c for c in parse(answer).elements]:
        value = oob.attrs.pop("hx-swap-oob", None)
        assert value is not None, f"<{oob.tag}> of the answer is no out-of-band swap"
        if value == "true":
            style, selector = "outerHTML", f"#{oob.attrs['id']}"
        elif ":" in value:
            style, _, selector = value.partition(":")
        else:
            style, selector = value, f"#{oob.attrs['id']}"
        targets = [t for one in selector.split(",") for t in select(root, one.strip())]
        assert targets, f"nothing on the page matches {selector!r}"
        for target in targets:
            parent = target.parent
            at = parent.children.index(target)
            content = [_clone(c) for c in oob.children]
            if style == "innerHTML":
                target.children = []
                target.adopt(content, 0)
            elif style == "outerHTML":
                parent.children.pop(at)
                parent.adopt([_clone(oob)], at)
            elif style == "afterbegin":
                target.adopt(content, 0)
            elif style == "beforeend":
                target.adopt(content, len(target.children))
            elif style == "delete":
                parent.children.pop(at)
            else:
                raise AssertionError(f"swap style {style!r} is not one these tests know")
    return root


def _clone(node: Node) -> Node:
    copy = Node(node.tag, dict(node.attrs), node.text)
    copy.adopt([_clone(c) for c in node.children], 0)
    return copy


# -- comparison ---------------------------------------------------------------------------------

# What differs between two renders of one position: the CSRF token (masked anew each time), the
# countdowns' words (the clock moved on), and the hidden version of forms a swap left as they were
# (game.js posts the page's version, kept on #game).
_UNSTABLE = {("input", "name", "csrfmiddlewaretoken"), ("input", "name", "version")}


def canonical(node: Node) -> list:
    """The node's children as nested lists: text collapsed, whitespace-only text left out."""
    out = []
    for c in node.children:
        if c.tag is None:
            text = " ".join(c.text.split())
            if text:
                out.append(text)
            continue
        attrs = dict(c.attrs)
        if any(c.tag == tag and attrs.get(k) == v for tag, k, v in _UNSTABLE):
            attrs.pop("value", None)
        if c.tag == "details" and attrs.get("id") == "trade":
            # The trade builder: a move's answer leaves it as it was drawn when only its contents
            # changed, and game.js fetches it afresh as its player opens it (data-version, kept
            # by the builder's own tests: test_move_parts.py). Its summary must be right.
            attrs.pop("data-version", None)
            summary = [x for x in c.children if x.tag == "summary"]
            out.append([c.tag, sorted(attrs.items()), canonical(summary[0]) if summary else []])
            continue
        if c.tag == "time" and "data-deadline" in attrs:
            out.append([c.tag, sorted(attrs.items())])
            continue
        out.append([c.tag, sorted(attrs.items()), canonical(c)])
    return out


def game_of(root: Node) -> Node:
    found = select(root, "#game")
    assert len(found) == 1, "no #game on the page"
    return found[0]


def differences(a: list, b: list, path: str = "#game") -> str | None:
    """Where two canonical trees first differ, for the assertion's message."""
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x == y:
            continue
        if isinstance(x, list) and isinstance(y, list) and x[:2] == y[:2] and len(x) == len(y) == 3:
            return differences(x[2], y[2], f"{path} > {x[0]}[{i}]{dict(x[1]).get('class', '')}")
        return f"at {path} child {i}:\n  parts: {str(x)[:600]}\n  fresh: {str(y)[:600]}"
    if len(a) != len(b):
        return f"at {path}: {len(a)} children after the parts, {len(b)} in a fresh render"
    return None


_MARKS = re.compile(r'<div id="game"[^>]*? data-marks="([^"]*)"')


def marks_of(page: str) -> str:
    """The marks of what a page shows (``#game[data-marks]``), as the page's script sends them."""
    found = _MARKS.search(page)
    assert found, page[:300]
    return found.group(1)


def parts_headers(page: str) -> dict[str, str]:
    """The headers of the page's script asking for only the parts that differ from ``page``."""
    return {"HTTP_HX_REQUEST": "true", "HTTP_X_GAME_PARTS": marks_of(page)}


# -- drawing one part alone ---------------------------------------------------------------------

def card_html(p: dict, deadline: dict | None = None, *, deed_base: str | None = None) -> str:
    """One player's card as the game page draws it (games/views/page/parts.py), with no page."""
    from django.utils.translation import pgettext

    from games.views.page import parts

    return str(parts._render(parts.PLAYER, {
        "p": p, "deadline": deadline, "deed_base": deed_base, "oob": False,
        "on": pgettext("the square a player stands on", "On")}))


def square_html(sq: dict, *, economy: dict | None = None, act_url: str | None = None) -> str:
    """One square as the game page draws it (games/views/page/parts.py), with no page."""
    from games.views.page import parts

    return str(parts._render(parts.SQUARE, {"sq": sq, "economy": economy, "act_url": act_url, "oob": False}))
