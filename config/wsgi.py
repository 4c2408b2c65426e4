import os

from django.core.wsgi import get_wsgi_application

from config import heap

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_wsgi_application()
heap.install()  # (the heap frozen once warm: config/heap.py)
