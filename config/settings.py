"""The one settings module. Every deployment knob is an environment variable (see README.md).

With nothing set, the site runs for local development with no services: SQLite under var/,
Celery on kombu's filesystem transport under var/celery/, e-mail printed to the console.
"""

from __future__ import annotations

from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from kombu import Queue

from config.email import provider_settings
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
# A form from an out-of-date page gets the site's 403 page, saying what to do.
CSRF_FAILURE_VIEW = "games.views.errors.csrf_failure"

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
    # Issue 31: second factors (TOTP, recovery codes, WebAuthn), Discord and Google sign-in,
    # the list of a person's sessions. allauth's own modules, not code of ours.
    "allauth.mfa",
    "allauth.socialaccount",
    "allauth.socialaccount.providers.discord",
    "allauth.socialaccount.providers.google",
    "allauth.usersessions",
    "csp",
    "django_ratelimit",
    "accounts",
    "games",
    # Object-level permissions without database rows (the `rules` package), for moderation.
    "rules",
    "moderation",
    "ratings",
    "notifications",
    # Group chats (issue 29): a table's Discord, Slack, Telegram or webhook channel.
    "chats",

    # Issue 29: calendars, warnings, nudges, quiet hours, the next game waiting, private notes.
    "reach",
    # Issue 30: whole-game analysis (win chances, turning points, luck) and play on from here.
    "analysis",
    # E-mail service providers' backends and bounce/complaint webhooks (config/email.py).
    "anymail",
]

# Under ASGI the chain runs as one synchronous block in the request's thread (config/asgi.py), as
# under WSGI: the order costs no hops between the event loop and the thread, and a middleware
# that cannot run async costs nothing more than one that can.
MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # HTML answers compressed (issue 12); the game's event stream is left alone (config/middleware.py).
    "config.middleware.GZipMiddleware",
    # The Content-Security-Policy header on every answer, static files and error pages too.
    "csp.middleware.CSPMiddleware",
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
    # Where a person is signed in: each session's last use, written at most every few minutes
    # (accounts/sessions.py), and the page that asks moderators and staff for a second factor.
    "accounts.middleware.SessionActivityMiddleware",
    "accounts.middleware.SecondFactorRequiredMiddleware",
    # Last, so that its 400 page knows the user and language; it runs before every view and
    # before CsrfViewMiddleware.process_view, which is what reads the form first.
    "config.middleware.UnreadableFormMiddleware",
    # A rate-limited view (django-ratelimit's Ratelimited) answers 429 (config.views).
    "django_ratelimit.middleware.RatelimitMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
# The site runs under ASGI (uvicorn; bin/run, README "Production"): the game's event stream is a
# long-lived connection that would tie up a WSGI worker. config/wsgi.py still works, with polling.
ASGI_APPLICATION = "config.asgi.application"
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
                "moderation.context_processors.moderation",
            ],
        },
    },
    {
        # The game page's hot partials (games/views/page_html.py): the board's 40 squares, the
        # players and the log, redrawn on every move and poll. Jinja2 compiles them to Python,
        # several times faster than Django's templates here (python -m bench.web --render); their
        # words are gettext calls that makemessages reads like any template's.
        "NAME": "jinja2",
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "DIRS": [BASE_DIR / "templates" / "jinja2"],
        "APP_DIRS": False,
        "OPTIONS": {"environment": "config.jinja2.environment"},
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
    # Under ASGI (uvicorn) each request runs its synchronous code in a thread of its own, so a
    # connection kept per thread (CONN_MAX_AGE) is opened anew for every request: there, a pool
    # per process (psycopg_pool, Django's "pool" option) lends one to each request instead.
    if env_bool("DATABASE_POOL", False):
        if not DATABASES["default"]["ENGINE"].endswith("postgresql"):
            raise ImproperlyConfigured("DATABASE_POOL=true needs a PostgreSQL DATABASE_URL.")
        DATABASES["default"]["CONN_MAX_AGE"] = 0
        DATABASES["default"]["CONN_HEALTH_CHECKS"] = False
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": env_int("DATABASE_POOL_MIN", 2, minimum=1),
            "max_size": env_int("DATABASE_POOL_MAX", 10, minimum=1),
        }
elif env_bool("DATABASE_POOL", False):
    raise ImproperlyConfigured("DATABASE_POOL=true needs a PostgreSQL DATABASE_URL.")
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": VAR_DIR / "db.sqlite3",
            "OPTIONS": {
                # A transaction that starts with a read (every move does) cannot become a writer
                # while another connection (a Celery task) holds the write lock: SQLite answers
                # "database is locked" at once, whatever the timeout. BEGIN IMMEDIATE takes the
                # write lock first, so a transaction waits its turn (up to "timeout" seconds).
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                # WAL: readers never wait for the writer, nor the writer for readers.
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
            },
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
# Security notices by e-mail (issue 31): a password or e-mail change (the old address is told),
# a factor added or removed, a recovery code used (accounts/signals.py).
ACCOUNT_EMAIL_NOTIFICATIONS = True
# The same answer for known and unknown addresses at sign-in, sign-up and password reset.
ACCOUNT_PREVENT_ENUMERATION = True
ACCOUNT_EMAIL_UNKNOWN_ACCOUNTS = True
# A password change keeps this session and ends every other one (Django's session hash).
ACCOUNT_LOGOUT_ON_PASSWORD_CHANGE = False

# Second factors (allauth.mfa): an authenticator app, security keys and passkeys, recovery codes.
MFA_SUPPORTED_TYPES = ["totp", "recovery_codes", "webauthn"]
MFA_PASSKEY_LOGIN_ENABLED = True
# Recovery codes are shown once, when made (a new set can be made at any time).
MFA_RECOVERY_CODES_SHOW_ONCE = True
MFA_TOTP_ISSUER = SITE_NAME
# A code of the previous or next 30 s window is accepted too: a phone's clock a little off, or a
# code typed as it rolled over, still signs in (RFC 6238 section 5.2). Each code works once.
MFA_TOTP_TOLERANCE = 1
# WebAuthn needs a secure origin; http://127.0.0.1 and localhost are allowed in development.
MFA_WEBAUTHN_ALLOW_INSECURE_ORIGIN = DEBUG

# Sessions (allauth.usersessions): the list and "sign out everywhere else"; the last use is
# written by accounts.middleware.SessionActivityMiddleware at most every SESSION_SEEN_EVERY s.
USERSESSIONS_TRACK_ACTIVITY = False
SESSION_SEEN_EVERY = 300

# Sign in with Discord or Google (allauth.socialaccount): a provider is offered only when its
# client id and secret are set. An account is joined only through an address both sides verified.
SOCIALACCOUNT_ADAPTER = "accounts.adapters.SocialAccountAdapter"
SOCIALACCOUNT_EMAIL_AUTHENTICATION = True
SOCIALACCOUNT_EMAIL_AUTHENTICATION_AUTO_CONNECT = True
SOCIALACCOUNT_EMAIL_VERIFICATION = "mandatory"
SOCIALACCOUNT_STORE_TOKENS = False
SOCIALACCOUNT_QUERY_EMAIL = True
SOCIALACCOUNT_PROVIDERS: dict[str, dict] = {}
_DISCORD_ID, _DISCORD_SECRET = env_str("DISCORD_CLIENT_ID", ""), env_str("DISCORD_CLIENT_SECRET", "")
if _DISCORD_ID and _DISCORD_SECRET:
    SOCIALACCOUNT_PROVIDERS["discord"] = {
        "APPS": [{"client_id": _DISCORD_ID, "secret": _DISCORD_SECRET}],
        "SCOPE": ["identify", "email"],
    }
_GOOGLE_ID, _GOOGLE_SECRET = env_str("GOOGLE_CLIENT_ID", ""), env_str("GOOGLE_CLIENT_SECRET", "")
if _GOOGLE_ID and _GOOGLE_SECRET:
    SOCIALACCOUNT_PROVIDERS["google"] = {
        "APPS": [{"client_id": _GOOGLE_ID, "secret": _GOOGLE_SECRET}],
        "SCOPE": ["openid", "profile", "email"],
        # The user-info endpoint, not the ID token's signature check against Google's keys.
        "FETCH_USERINFO": True,
    }

# The data export's download link (accounts/export.py) lasts a day.
DATA_EXPORT_MAX_AGE = 24 * 60 * 60
# One request for an export per this many seconds per person: each builds a ZIP of every game.
DATA_EXPORT_EVERY = 10 * 60

# Internationalisation: the site speaks English, Spanish and Catalan.
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", "English"),
    ("es", "Español"),
    ("ca", "Català"),
]
# locale_allauth/: allauth's own messages on the account pages of issue 31, reworded to address
# the player as "tú"/"tu" like the site (allauth's catalogues say "usted"/"vós"); after locale/.
LOCALE_PATHS = [BASE_DIR / "locale", BASE_DIR / "locale_allauth"]
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

# E-mail: through a provider's API (django-anymail, config/email.py), else SMTP when an SMTP
# host is configured, else printed to the console.
_email = provider_settings(debug=DEBUG)
EMAIL_PROVIDER = _email["EMAIL_PROVIDER"]
ANYMAIL = _email["ANYMAIL"]
EMAIL_HOST = env_str("EMAIL_HOST", "")
EMAIL_BACKEND = env_str(
    "EMAIL_BACKEND",
    _email["backend"]
    or ("django.core.mail.backends.smtp.EmailBackend"
        if EMAIL_HOST
        # (Django's console backend, printing the text part and the links: config/email.py.)
        else "config.email.ConsoleEmailBackend"),
)
EMAIL_PORT = env_int("EMAIL_PORT", 587, minimum=1)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 10, minimum=1)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", f"{SITE_NAME} <noreply@localhost>")
SERVER_EMAIL = env_str("SERVER_EMAIL", DEFAULT_FROM_EMAIL)

# Optional Web Push (notifications/push.py): on when a VAPID private key is set (base64url, raw
# or DER, as `vapid --gen` or py_vapid make it); the subject is the contact push services see.
VAPID_PRIVATE_KEY = env_str("VAPID_PRIVATE_KEY", "")
VAPID_SUBJECT = env_str("VAPID_SUBJECT", f"mailto:{DEFAULT_FROM_EMAIL.rsplit('<', 1)[-1].rstrip('>')}")
if VAPID_PRIVATE_KEY:
    try:
        from py_vapid import Vapid as _Vapid

        _Vapid.from_string(private_key=VAPID_PRIVATE_KEY)
    except Exception as _e:
        raise ImproperlyConfigured(f"VAPID_PRIVATE_KEY is not a VAPID private key ({_e}).") from _e
if not VAPID_SUBJECT.startswith(("mailto:", "https://")):
    raise ImproperlyConfigured("VAPID_SUBJECT must be a mailto: or https:// address.")
# The push services the browsers' subscriptions may name (the site posts only to these).
WEB_PUSH_HOSTS = env_list("WEB_PUSH_HOSTS", [
    "fcm.googleapis.com", "push.services.mozilla.com", "notify.windows.com", "push.apple.com",
])
WEB_PUSH_SCHEMES = ["https"]
WEB_PUSH_PORTS = [443]

# Security switches that only make sense behind HTTPS: on by default outside DEBUG, so that
# `manage.py check --deploy` is clean with production settings; each can be turned off.
SECURE_COOKIES = env_bool("SECURE_COOKIES", not DEBUG)
SESSION_COOKIE_SECURE = SECURE_COOKIES
CSRF_COOKIE_SECURE = SECURE_COOKIES
BEHIND_HTTPS_PROXY = env_bool("BEHIND_HTTPS_PROXY", False)
if BEHIND_HTTPS_PROXY:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    # The client's address is the last hop of X-Forwarded-For, the one our proxy added (for
    # allauth's login limits and ours, config/ratelimit.py).
    ALLAUTH_TRUSTED_PROXY_COUNT = 1
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
# HSTS: browsers refuse plain HTTP for this long once they have seen the header (a year).
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 31_536_000, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
SILENCED_SYSTEM_CHECKS = [
    # django-ratelimit lists the cache backends it knows; config.cache.RedisCache (Django's own,
    # INCR) and config.cache.DatabaseCache (a locked read and write) both increment atomically.
    "django_ratelimit.W001",
]
if not SECURE_HSTS_PRELOAD:
    # Asking to be preloaded into browsers is the domain owner's choice, and hard to undo:
    # off unless SECURE_HSTS_PRELOAD says so, and then check --deploy need not remind us.
    SILENCED_SYSTEM_CHECKS.append("security.W021")

# Content-Security-Policy (django-csp 4): scripts, styles, images and requests from this site
# only; no inline <script>, no on*= handlers and no eval (htmx is configured for that in
# base.html's htmx-config). Inline style attributes stay allowed (style-src-attr): the board and
# the swatches set their colours and grid positions as CSS variables in style="", which can
# run no script, while <style> elements and style sheets still must come from the site.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "style-src-elem": ["'self'"],
        "style-src-attr": ["'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
        "base-uri": ["'none'"],
        "object-src": ["'none'"],
    },
}

# The cache: shared by every process (gunicorn workers, the Celery worker), so that rate limits
# (allauth's login limits, ours on moves, invitations and uploads) count across them and survive
# a restart. Redis when CACHE_URL names one; else a table in the site's database, which needs no
# server. Its increments are a locked read and write (config/cache.py), as atomic as Redis's
# INCR; Django's file cache cannot lock, and the in-memory cache is per process.
CACHE_URL = env_str("CACHE_URL", "")
if CACHE_URL:
    if not CACHE_URL.startswith(("redis://", "rediss://", "unix://")):
        raise ImproperlyConfigured(
            f"The environment variable CACHE_URL must be a Redis URL (redis://...), not {CACHE_URL!r}."
        )
    CACHES = {
        "default": {
            # Django's, with one connection pool per process (config/cache.py).
            "BACKEND": "config.cache.RedisCache",
            "LOCATION": CACHE_URL,
            "KEY_PREFIX": "monopoly",
            # A Redis that is down or unreachable costs a request at most this long (then the
            # cache fails soft: config/cache.py); its answers take a millisecond.
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 1.0},
        }
    }
else:
    # The table is made by `manage.py createcachetable` (bin/run does it; the test database
    # gets it from Django's test runner).
    CACHES = {
        "default": {
            "BACKEND": "config.cache.DatabaseCache",
            "LOCATION": "django_cache",
            "KEY_PREFIX": "monopoly",
        }
    }

# Sessions: read from the cache, written through to the database (a cache miss or a restart loses
# no one's sign-in), so that a page read costs no session query (issue 12).
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"

# Push (issue 12, games/live.py): every committed move publishes "game N is at version V" on a
# Redis pub/sub channel, and each open game page hears it through the server-sent events of
# games/views/live.py. LIVE_REDIS_URL names that Redis; by default the cache's or the broker's
# when either is Redis. Without one (the embedded defaults) the pages poll.
LIVE_REDIS_URL = env_str("LIVE_REDIS_URL", "")
if not LIVE_REDIS_URL:
    _REDIS_URLS = [u for u in (CACHE_URL, env_str("CELERY_BROKER_URL", "")) if u.startswith(("redis://", "rediss://"))]
    LIVE_REDIS_URL = _REDIS_URLS[0] if _REDIS_URLS else ""
elif not LIVE_REDIS_URL.startswith(("redis://", "rediss://", "unix://")):
    raise ImproperlyConfigured(
        f"The environment variable LIVE_REDIS_URL must be a Redis URL (redis://...), not {LIVE_REDIS_URL!r}."
    )
# Pub/sub channels are shared by every database number of a Redis: the channel's name carries this
# prefix and the database's name, so that two sites (or test runs) on one Redis never hear each other.
LIVE_CHANNEL_PREFIX = env_str("LIVE_CHANNEL_PREFIX", "monopoly")
# An open event stream sends a comment this often, so that proxies and browsers keep it open and
# a dead connection is noticed; the only timer an idle page costs the server.
LIVE_HEARTBEAT_SECONDS = env_int("LIVE_HEARTBEAT_SECONDS", 30, minimum=1)

# Rate limits of our own endpoints (django-ratelimit; allauth's ACCOUNT_RATE_LIMITS keep their
# defaults for the account pages). A request over the limit gets config.views.rate_limited: 429.
RATELIMIT_ENABLE = env_bool("RATELIMIT_ENABLE", True)
RATELIMIT_VIEW = "config.views.rate_limited"
RATELIMIT_IP_META_KEY = "config.ratelimit.client_ip"
# While the cache cannot count (its Redis is down: config/cache.py logs it), requests go through.
RATELIMIT_FAIL_OPEN = True
# Per signed-in user (per address for visitors): a person plays a few moves a minute, a program
# more; these only stop floods.
RATE_LIMIT_MOVES = "120/m"
RATE_LIMIT_INVITATIONS = "10/m"
RATE_LIMIT_UPLOADS = "10/m"

# Celery: Redis (or any kombu URL) from CELERY_BROKER_URL, else kombu's filesystem transport,
# which needs no service (both with config/broker.py's changes, which keep a worker alive through
# a Redis outage and a malformed message file). Producer and consumer share one folder so a local worker sees what
# the site queues.
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL", "filesystem://")
if CELERY_BROKER_URL.startswith("filesystem:"):
    _CELERY_DIR = VAR_DIR / "celery"
    _CELERY_FOLDERS = {
        "data_folder_in": _CELERY_DIR / "queue",
        "data_folder_out": _CELERY_DIR / "queue",
        "processed_folder": _CELERY_DIR / "processed",
        "control_folder": _CELERY_DIR / "control",
        "malformed_folder": _CELERY_DIR / "malformed",
    }
    for _folder in _CELERY_FOLDERS.values():
        _folder.mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {key: str(path) for key, path in _CELERY_FOLDERS.items()}
    CELERY_BROKER_TRANSPORT_OPTIONS["store_processed"] = False
elif CELERY_BROKER_URL.startswith(("redis:", "rediss:")):
    # A task taken by a worker that then died goes back to the queue after this many seconds
    # (Redis's default is an hour). Every task here takes well under a second and none is
    # queued with a distant ETA, so a short timeout cannot redeliver a task still running.
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 120, minimum=1)}
    # Every key of the broker (queues, bindings, unacked tasks) under this prefix: two sites, or a
    # site and a test run (tests/settings.py), on one Redis database never take each other's tasks.
    if env_str("CELERY_BROKER_KEY_PREFIX", ""):
        CELERY_BROKER_TRANSPORT_OPTIONS["global_keyprefix"] = env_str("CELERY_BROKER_KEY_PREFIX")
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
# Bots play one action at a time, each in a Celery task run this long after the action before it
# (issue 10), so a person's move returns at once and people can follow the bots. 0: they play
# within the move that made them due, as they do whenever Celery runs eagerly (tests, no worker).
BOT_DELAY_SECONDS = env_int("BOT_DELAY_MS", 1000, minimum=0) / 1000
# Issue 30, the whole-game analysis (analysis/estimate.py, analysis/services.py): at most this many
# playouts a round (stopping sooner once within ±5 points), and how long a run's claim on a game
# lasts unless renewed (it is, every round): a run that died is taken over after it.
ANALYSIS_MAX_PLAYOUTS = env_int("ANALYSIS_MAX_PLAYOUTS", 1000, minimum=1)
ANALYSIS_LEASE_SECONDS = env_int("ANALYSIS_LEASE_SECONDS", 90, minimum=1)
# A turning point's candidate actions: playouts a side of each one's measured swing (estimate.swing).
ANALYSIS_SWING_PLAYOUTS = env_int("ANALYSIS_SWING_PLAYOUTS", 300, minimum=1)
# Every task is idempotent (process_deadlines claims each game by its row lock and deadline;
# notifications by a unique row per event and a conditional UPDATE), so a task is acknowledged
# after it ran, and one whose worker process died is queued again, not lost. Each worker
# process takes one task at a time, so a crash strands no prefetched pile behind it.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# The deadline sweep has a queue of its own, which every worker also consumes (kombu takes the
# queues in turn): its runs, due every second and expiring after one, never wait behind a pile
# of e-mail tasks (that a sweep of thousands of timeouts queues itself) until they expire.
CELERY_TASK_DEFAULT_QUEUE = "celery"
CELERY_TASK_QUEUES = [Queue("celery"), Queue("deadlines")]
# Issue 30: the whole-game analyses (minutes of CPU each) go to a queue of their own, left out of
# CELERY_TASK_QUEUES so that a worker consumes it only when told (`-Q analysis`: bin/run's
# second worker), never beside the deadline sweep.
CELERY_TASK_ROUTES = {"games.tasks.process_deadlines": {"queue": "deadlines"},
                      "analysis.tasks.analyse_game": {"queue": "analysis"}}
CELERY_TASK_IGNORE_RESULT = True
CELERY_TIMEZONE = TIME_ZONE
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
# Periodic tasks (turn deadlines and the like) are added here by the apps that own them.
CELERY_BEAT_SCHEDULE: dict[str, dict] = {
    # Live tables give a bidder 20 s (RULES.md 11), so deadlines are looked at every second: a
    # timeout fires at most about a second late (bench/deadlines.py: p99 lateness under 2 s with
    # 10,000 games), and a run with nothing due is one indexed query. Runs that overlap (a sweep
    # of many due games takes longer than a second) share the games: SKIP LOCKED (games/tasks.py).
    "games-process-deadlines": {
        "task": "games.tasks.process_deadlines",
        "schedule": 1.0,
        # A run that could not start within its own period is pointless: the next one is due.
        "options": {"expires": 1.0},
    },
    # RULES.md 16: a live game's pause ends by itself after its table's pause_max_minutes (the
    # countdown starts at that moment, however late the sweep; a run with nothing due is one
    # query on the few pauses there are).
    "games-expire-pauses": {
        "task": "games.tasks.expire_pauses",
        "schedule": 15.0,
        "options": {"expires": 15.0},
    },
    # Group chats (issue 29): status posts whose backoff or rate limit is over, lost tasks.
    "chats-sweep": {
        "task": "chats.tasks.sweep",
        "schedule": 15.0,
        "options": {"expires": 15.0},
    },
    # Lopsided trades ("draining") are flagged for moderators from the game log (issue 11).
    "moderation-scan-trades": {
        "task": "moderation.tasks.scan_trades",
        "schedule": 60.0,
        "options": {"expires": 50.0},
    },
    # Results whose task was lost (a broker restart) are recorded on the next pass.
    "ratings-results-catch-up": {
        "task": "ratings.tasks.results_catch_up",
        "schedule": 300.0,
        "options": {"expires": 300.0},
    },
    # Finished games without an analysis, or whose analysis run died, are queued again (issue 30).
    "analysis-catch-up": {
        "task": "analysis.tasks.analyses_catch_up",
        "schedule": 300.0,
        "options": {"expires": 300.0},
    },
    # "Download my data" ZIPs past their day are dropped (issue 31, accounts/export.py).
    "accounts-purge-data-exports": {
        "task": "accounts.tasks.purge_data_exports",
        "schedule": 3600.0,
        "options": {"expires": 3000.0},
    },
    # Reminders when a quarter of a correspondence decision's time is left (issue 14).
    "notifications-send-reminders": {
        "task": "notifications.tasks.send_reminders",
        "schedule": 60.0,
        "options": {"expires": 50.0},
    },
    # Issue 29: the warnings players chose before a deadline (reach/warnings.py looks back 30
    # minutes), and what quiet hours held, sent when they are over (reach/quiet.py).
    "reach-send-warnings": {
        "task": "reach.tasks.send_warnings",
        "schedule": 60.0,
        "options": {"expires": 50.0},
    },
    "reach-release-quiet": {
        "task": "reach.tasks.release_quiet",
        "schedule": 300.0,
        "options": {"expires": 250.0},
    },
    # Each user's daily digest at their local morning (issue 14); once a day each, however often.
    "notifications-send-digests": {
        "task": "notifications.tasks.send_digests",
        "schedule": 900.0,
        "options": {"expires": 900.0},
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
