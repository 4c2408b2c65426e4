"""The game page: what it shows (a typed GamePage, context.py), how each part of it is drawn and
swapped (parts.py), and the position in the reader's words (board, players, decision, trade, log)."""
