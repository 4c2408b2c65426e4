"""Rebuild ratings, results, XP, achievements and quests from the games' records."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from ratings import services


class Command(BaseCommand):
    help = ("Rebuild every rating, result, XP total, achievement and quest from the finished games' records, "
            "in the order the games finished (after a change to the rules of ratings or progress).")

    def add_arguments(self, parser) -> None:
        parser.add_argument("--missing", action="store_true",
                            help="only record finished games that have no result yet")

    def handle(self, *args, **options) -> None:
        if options["missing"]:
            total = 0
            while (done := services.results_catch_up()) > 0:
                total += done
            self.stdout.write(f"recorded {total} game(s) that had no result")
            return
        count = services.ratings_recompute()
        self.stdout.write(f"rebuilt the results of {count} finished game(s)")
