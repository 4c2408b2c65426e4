"""The site's settings (from the environment, as configure_environment sets it) with the
bench's urls: the minimal endpoint exists only here."""

from config.settings import *  # noqa: F403

ROOT_URLCONF = "bench.web.urls"
