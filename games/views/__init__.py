"""Views of the games app: tables.py (lobby, tables, dashboard) and play.py (the game page)."""
