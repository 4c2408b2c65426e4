"""The web benchmark (``python -m bench.web``, its ``__main__``): many concurrent games of bots
played through the site's real HTTP endpoints, with the site's production settings and the
bench's own urls (``urls``: the site's plus the minimal endpoint)."""
