"""The one settings module. Every deployment knob is an environment variable (see README.md).

With nothing set, the site runs for local development with no services: SQLite under var/,
Celery on kombu's filesystem transport under var/celery/, e-mail printed to the console.
"""

from __future__ import annotations

from pathlib import Path

import dj_database_url

from config.env import env_bool, env_choice, env_int, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent

# Runtime files (SQLite database, Celery's filesystem broker, collected static files) live in
# var/, which git ignores; create it here so that a fresh checkout runs without a setup step.
VAR_DIR = Path(env_str("VAR_DIR", str(BASE_DIR / "var")))
VAR_DIR.mkdir(parents=True, exist_ok=True)

# Local development is the default; a deployment sets DEBUG=false and a real SECRET_KEY.
DEBUG = env_bool("DEBUG", True)
if DEBUG:
    SECRET_KEY = env_str("SECRET_KEY", "dev-only-insecure-secret-key-do-not-use-in-production")
else:
    SECRET_KEY = env_str("SECRET_KEY")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

SITE_NAME = env_str("SITE_NAME", "Monopoly")
# The site's own address, for absolute links in e-mails (turn reminders, invitations); bin/run
# sets it to the port it serves on.
SITE_URL = env_str("SITE_URL", "http://127.0.0.1:8000").rstrip("/")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    # Lets runserver serve static files through WhiteNoise as in production.
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "allauth",
    "allauth.account",
    "accounts",
    "games",
    "ratings",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # After authentication and locale detection: a signed-in user's own language and time
    # zone win over the browser's.
    "accounts.middleware.UserPreferencesMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "allauth.account.middleware.AccountMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.template.context_processors.tz",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "config.context_processors.site",
            ],
        },
    },
]

# Database: SQLite in var/ unless DATABASE_URL names another (CI and production: PostgreSQL,
# which Django drives through psycopg 3).
DATABASE_URL = env_str("DATABASE_URL", "")
if DATABASE_URL:
    DATABASES = {
        "default": dj_database_url.parse(
            DATABASE_URL,
            conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 60, minimum=0),
            conn_health_checks=True,
        )
    }
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": VAR_DIR / "db.sqlite3",
        }
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "games:lobby"

# django-allauth: sign-up needs a verified e-mail address; sign in by e-mail or username.
ACCOUNT_ADAPTER = "accounts.adapters.AccountAdapter"
ACCOUNT_LOGIN_METHODS = {"email", "username"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "username*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_CHANGE_EMAIL = True
ACCOUNT_USERNAME_MIN_LENGTH = 3
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_EMAIL_SUBJECT_PREFIX = f"[{SITE_NAME}] "
ACCOUNT_USER_DISPLAY = "accounts.models.user_display"
ACCOUNT_DEFAULT_HTTP_PROTOCOL = env_choice(
    "SITE_PROTOCOL", "http" if DEBUG else "https", ["http", "https"]
)

# Internationalisation: the site speaks English, Spanish and Catalan.
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", "English"),
    ("es", "Español"),
    ("ca", "Català"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = env_str("TIME_ZONE", "UTC")
USE_TZ = True

# Static files, served by WhiteNoise (compressed and content-hashed outside DEBUG).
STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
# WhiteNoise warns when this folder is missing, as it is before the first collectstatic.
STATIC_ROOT.mkdir(exist_ok=True)
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# E-mail: printed to the console unless an SMTP host is configured.
EMAIL_HOST = env_str("EMAIL_HOST", "")
EMAIL_BACKEND = env_str(
    "EMAIL_BACKEND",
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend",
)
EMAIL_PORT = env_int("EMAIL_PORT", 587, minimum=1)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 10, minimum=1)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", f"{SITE_NAME} <noreply@localhost>")
SERVER_EMAIL = env_str("SERVER_EMAIL", DEFAULT_FROM_EMAIL)

# Security switches that only make sense behind HTTPS.
SECURE_COOKIES = env_bool("SECURE_COOKIES", not DEBUG)
SESSION_COOKIE_SECURE = SECURE_COOKIES
CSRF_COOKIE_SECURE = SECURE_COOKIES
if env_bool("BEHIND_HTTPS_PROXY", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# bench/web.py's minimal endpoint (games/views/api.py: lock and update one row), off in
# production: with it off, the URL answers 404.
BENCH_ENDPOINTS = env_bool("BENCH_ENDPOINTS", False)

# Celery: Redis (or any kombu URL) from CELERY_BROKER_URL, else kombu's filesystem transport,
# which needs no service. Producer and consumer share one folder so a local worker sees what
# the site queues.
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL", "filesystem://")
if CELERY_BROKER_URL.startswith("filesystem:"):
    _CELERY_DIR = VAR_DIR / "celery"
    _CELERY_FOLDERS = {
        "data_folder_in": _CELERY_DIR / "queue",
        "data_folder_out": _CELERY_DIR / "queue",
        "processed_folder": _CELERY_DIR / "processed",
        "control_folder": _CELERY_DIR / "control",
    }
    for _folder in _CELERY_FOLDERS.values():
        _folder.mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {key: str(path) for key, path in _CELERY_FOLDERS.items()}
    CELERY_BROKER_TRANSPORT_OPTIONS["store_processed"] = False
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
CELERY_TASK_IGNORE_RESULT = True
CELERY_TIMEZONE = TIME_ZONE
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
# Periodic tasks (turn deadlines and the like) are added here by the apps that own them.
CELERY_BEAT_SCHEDULE: dict[str, dict] = {
    # Live tables give a bidder 20 s, so deadlines are looked at every few seconds (RULES.md 11).
    "games-process-deadlines": {
        "task": "games.tasks.process_deadlines",
        "schedule": 5.0,
        # A run that could not start within its own period is pointless: the next one is due.
        "options": {"expires": 5.0},
    },
    # Results whose task was lost (a broker restart) are recorded on the next pass.
    "ratings-results-catch-up": {
        "task": "ratings.tasks.results_catch_up",
        "schedule": 300.0,
        "options": {"expires": 300.0},
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {
        "handlers": ["console"],
        "level": env_choice("LOG_LEVEL", "INFO", ["DEBUG", "INFO", "WARNING", "ERROR"]),
    },
}
