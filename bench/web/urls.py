"""The site's urls and the bench's minimal endpoint (``endpoints.bench_lock``)."""

from django.urls import path

from config.urls import handler400  # noqa: F401  (the site's page for a malformed request)
from config.urls import urlpatterns as site_urlpatterns

from .endpoints import bench_lock

urlpatterns = [
    path("games/<int:game_id>/bench-lock/", bench_lock, name="bench_lock"),
    *site_urlpatterns,
]
