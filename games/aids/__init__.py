"""The players' aids (RULES.md 11, 15, 16), one feature in one package: standing orders
(standing.py), vacation (vacation.py), the live pause (pause.py), each seat's clock
(seat_clock.py), and their writes (services.py). The move's services (games/services/moves.py)
read the first four at every step; services.py writes through games/services (one direction
only: tests/test_import_cycles.py). Import the modules themselves: this package exports nothing,
so that importing one of them never imports the writes.
"""
