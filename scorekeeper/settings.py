"""Settings for Scorekeeper.

One module, configured from the environment (see .env.example for every variable).
The defaults are safe for development: DEBUG on, SQLite in the project root, a
throwaway SECRET_KEY. With DEBUG off the module refuses to load without a real
SECRET_KEY, and turns on HTTPS-only cookies, SSL redirect and HSTS.
"""

import os
import sys
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP

BASE_DIR = Path(__file__).resolve().parent.parent

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_bool(name: str, default: bool) -> bool:
    """Read a boolean; reject anything that is not clearly yes or no."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a boolean (use 1/0, true/false)")


def env_list(name: str, default: list[str]) -> list[str]:
    """Read a comma-separated list; blank items are dropped."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or not raw.strip():
        return default
    try:
        return int(raw)
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name}={raw!r} is not an integer") from exc


# Tests need no collectstatic and no slow hashing. pytest-django loads this module
# before any conftest.py runs, so an environment variable set there would come too
# late: detect pytest itself, and let TESTING=1/0 override.
TESTING = env_bool("TESTING", "pytest" in sys.modules or sys.argv[1:2] == ["test"])

DEBUG = env_bool("DEBUG", True)

# The "django-insecure-" prefix makes Django's own deploy check (security.W009)
# flag this key too.
DEV_SECRET_KEY = "django-insecure-scorekeeper-development-only-never-use-in-production"
SECRET_KEY = os.environ.get("SECRET_KEY", "") or DEV_SECRET_KEY
SECRET_KEY_MIN_LENGTH = 32

if not DEBUG and (SECRET_KEY == DEV_SECRET_KEY or len(SECRET_KEY) < SECRET_KEY_MIN_LENGTH):
    raise ImproperlyConfigured(
        "DEBUG is off, so SECRET_KEY must be set to a random value of at least "
        f"{SECRET_KEY_MIN_LENGTH} characters (50+ recommended), e.g. "
        '`python -c "import secrets; print(secrets.token_urlsafe(50))"`.'
    )

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"] if DEBUG else [])
# Needed behind a proxy or on a non-default origin; entries include the scheme,
# e.g. "https://scores.example.com".
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    # Before staticfiles so runserver serves files the way WhiteNoise does in production.
    # https://whitenoise.readthedocs.io/en/stable/django.html#using-whitenoise-in-development
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    # Login throttling: failed sign-ins counted per username and address.
    "axes",
    # The ORM-based backend for django.tasks (record imports run as tasks);
    # `python manage.py db_worker` runs them.
    "django_tasks_db",
    "matches",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Directly after SecurityMiddleware, as WhiteNoise's docs require.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # /healthz answered here, before CommonMiddleware checks the Host against
    # ALLOWED_HOSTS: probes come by the instance's address (scorekeeper/middleware.py)
    "scorekeeper.middleware.HealthCheckMiddleware",
    # Pages compressed (static files are, by WhiteNoise): a scorepad tap's answer is
    # about a tenth of its size on a slow phone link. Django pads compressed responses
    # with random bytes against BREACH (GZipMiddleware.max_random_bytes).
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The page's language: the language cookie set by the header's switch,
    # else the browser's Accept-Language, else English. After sessions, before common,
    # as Django's docs require. https://docs.djangoproject.com/en/6.0/topics/i18n/translation/#how-django-discovers-language-preference
    "django.middleware.locale.LocaleMiddleware",
    # No redirect too long to send: a sign-in's next page dropped, else the home page
    # (scorekeeper/middleware.py)
    "scorekeeper.middleware.LongRedirectMiddleware",
    # Django's, but adding no slash to an address too long to send back (the same)
    "scorekeeper.middleware.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # The Content-Security-Policy (SECURE_CSP below) and the Permissions-Policy.
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "scorekeeper.middleware.PermissionsPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, as django-axes requires: it turns a lockout into the lockout page.
    # https://django-axes.readthedocs.io/en/latest/2_installation.html
    "axes.middleware.AxesMiddleware",
]
# Where each request's time went, as a Server-Timing header (bench/load.py reads it).
# For measuring only: it tells any client how long the server's parts took. Outermost,
# so it times everything the others do.
SERVER_TIMING = env_bool("SERVER_TIMING", False)
if SERVER_TIMING:
    MIDDLEWARE.insert(0, "scorekeeper.middleware.ServerTimingMiddleware")

ROOT_URLCONF = "scorekeeper.urls"
WSGI_APPLICATION = "scorekeeper.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                # {{ csp_nonce }}, for an inline <script nonce="..."> (none so far)
                "django.template.context_processors.csp",
            ],
        },
    },
]

DATABASES = {
    # an empty DATABASE_URL counts as unset: the SQLite file
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=600,
        # Re-check a persistent connection before reuse, so a restarted database
        # costs one failed ping rather than one failed request.
        conn_health_checks=True,
    )
}
# A database that does not answer fails the request (and /healthz) within seconds
# instead of holding a worker until the OS gives up. A connect_timeout in
# DATABASE_URL's query string wins; SQLite has no such option.
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault(
        "connect_timeout", env_int("DATABASE_CONNECT_TIMEOUT", 5))
elif DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Each request of the development server (and each gunicorn worker) has its own
    # connection to the file. A transaction takes the write lock when it begins
    # (IMMEDIATE), so two writes at once queue for it, waiting up to `timeout` seconds;
    # SQLite's default (deferred) fails one of them at once with "database is locked"
    # when both have read before writing, a double tap on "Start scoring" for one.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"transaction_mode": "IMMEDIATE", "timeout": 20})

# A form sent from a stale page: the site's own page, in the reader's language.
CSRF_FAILURE_VIEW = "scorekeeper.views.csrf_failure"
# The admin's address, e.g. "backstage/" to keep it off the usual scanners' path.
ADMIN_PATH = os.environ.get("ADMIN_PATH", "").strip().strip("/") + "/"
if ADMIN_PATH == "/":
    ADMIN_PATH = "admin/"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Django's own auth views, mounted at accounts/ (matches/accounts/urls.py). Logging out
# is a POST (Django 5+) and goes home, so no "logged out" page is needed.
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"
# The longest address a redirect sends (its Location, encoded): one carries an address
# a request brought (a sign-in's ``next``, the language switch's way back, a missing
# slash added). No page of the site has one near it, and a Location header past nginx's
# 4 KB buffer answers 502. Longer, ``next`` is dropped (the sign-in page alone, then the
# home page), another goes to the home page, and a slash is not added (not found).
MAX_REDIRECT_LENGTH = 2000

# Login throttling with django-axes, for our sign-in page and the admin's alike: after
# AXES_FAILURE_LIMIT wrong passwords for one username from one address, that pair is
# locked out for AXES_COOLOFF_MINUTES (even with the right password); other accounts
# from that address, and that account from elsewhere, still sign in. Per pair rather
# than per address, so one table's shared Wi-Fi cannot lock out the whole club.
# Behind our nginx every request comes from the proxy: with TRUST_X_FORWARDED_FOR on
# (scripts/prod sets it), the address is the one nginx appended to X-Forwarded-For
# (scorekeeper/proxy.py); without a proxy leave it off, or clients could pick theirs.
# https://django-axes.readthedocs.io/en/latest/4_configuration.html
AUTHENTICATION_BACKENDS = [
    # First: it refuses a locked-out pair before any password is checked.
    "axes.backends.AxesStandaloneBackend",
    # the username in any case, as sign-up compares it (scorekeeper/auth.py)
    "scorekeeper.auth.AnyCaseUsernameBackend",
]
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_USERNAME_CALLABLE = "scorekeeper.auth.lockout_username"
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("AXES_COOLOFF_MINUTES", 15))
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "matches.accounts.views.locked_out"
# Not verbose: no "AXES: BEGIN" banner on stderr at every start (management commands
# included), and failures are logged with username and address only, no user agent.
AXES_VERBOSE = False
TRUST_X_FORWARDED_FOR = env_bool("TRUST_X_FORWARDED_FOR", False)
AXES_CLIENT_IP_CALLABLE = "scorekeeper.proxy.client_address"

# Sign-up and password-reset links are limited too (scorekeeper/throttle.py): at most
# so many from one address (the same address as the sign-in's, above) and so many for
# one e-mail address, from anywhere, in each window of THROTTLE_WINDOW_MINUTES; past a
# limit the page is "Too many attempts" (429) until the window ends. Per address, enough
# for a club night's new members signing up on the room's one Wi-Fi.
THROTTLE_WINDOW_MINUTES = env_int("THROTTLE_WINDOW_MINUTES", 60)
SIGNUP_LIMIT_PER_ADDRESS = env_int("SIGNUP_LIMIT_PER_ADDRESS", 20)
SIGNUP_LIMIT_PER_EMAIL = env_int("SIGNUP_LIMIT_PER_EMAIL", 3)
PASSWORD_RESET_LIMIT_PER_ADDRESS = env_int("PASSWORD_RESET_LIMIT_PER_ADDRESS", 10)
PASSWORD_RESET_LIMIT_PER_EMAIL = env_int("PASSWORD_RESET_LIMIT_PER_EMAIL", 3)

# E-mail (password reset links, error reports): by SMTP when EMAIL_HOST names a server.
# Without one, development prints each message to the console; production never does (a
# reset link in a log resets the account for whoever reads it): its mail is refused,
# and `check --deploy` fails (scorekeeper/checks.py) unless EMAIL_DISABLED=1 says that
# the site sends no mail on purpose. https://docs.djangoproject.com/en/stable/topics/email/
# Django 6.1 deprecates these EMAIL_* settings for MAILERS (a pending deprecation, until
# 2028). Not MAILERS yet: its deploy check (mail.E001) fails any site whose default mailer
# is the console, which is our default, so `check --deploy` would fail without SMTP.
EMAIL_DISABLED = env_bool("EMAIL_DISABLED", False)
if os.environ.get("EMAIL_HOST", "").strip():
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_HOST = os.environ["EMAIL_HOST"].strip()
    EMAIL_PORT = env_int("EMAIL_PORT", 587)
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
elif DEBUG and not EMAIL_DISABLED:
    EMAIL_BACKEND = "scorekeeper.mail.EmailBackend"  # the console, links unbroken
else:
    EMAIL_BACKEND = "scorekeeper.mail.RefusingBackend"
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "") or "webmaster@localhost"

# English, Ukrainian and Russian. The catalogues are locale/<lang>/LC_MESSAGES/
# django.po, committed; their .mo files are compiled by scripts/setup
# (scripts/compile_messages.py, pure Python), never committed.
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", "English"),
    ("uk", "Українська"),
    ("ru", "Русский"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Our own date formats per language (scorekeeper/formats/<lang>/formats.py): English keeps
# "30 Nov 2026, 18:05"; Ukrainian and Russian write dates as their readers do.
FORMAT_MODULE_PATH = ["scorekeeper.formats"]
# No thousand separator: numbers are also written into form values and data attributes,
# where "1 234" would not read back; scores stay short enough without one.
USE_THOUSAND_SEPARATOR = False
# The site's time zone: fixture dates and a season's "nights start at" are read in it
# (the reminders and "no result yet" prompts are timed from them), and pages show times in
# it. An IANA name such as "Europe/London"; UTC unless set.
TIME_ZONE = os.environ.get("TIME_ZONE", "").strip() or "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"

STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        # The manifest storage needs `collectstatic` first; tests use the plain
        # storage so they run straight from a checkout.
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if TESTING
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        ),
    },
}

# Tests run with DEBUG off and no collectstatic; scanning STATIC_ROOT per request (as in
# development) keeps WhiteNoise from warning "No directory at: staticfiles/".
WHITENOISE_AUTOREFRESH = DEBUG or TESTING
# Files browsers ask for at the site's root, served as they are: /favicon.ico (drawn by
# scripts/make_icons.py). Everything else is a static file with a hashed name.
WHITENOISE_ROOT = BASE_DIR / "webroot"

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The default cache holds drawn fragments of pages keyed by what they show (the
# scorepad's rounds table, at most some tens of kB each), so no key can name a stale
# copy. With REDIS_URL set (scripts/prod --nodes 2, or several app servers: README, "When
# one machine is not enough") it is Django's own Redis backend, one cache shared by every
# server, drawn once for all; without it, each process's own memory.
REDIS_URL = os.environ.get("REDIS_URL", "").strip()
CACHES = {"default": ({"BACKEND": "django.core.cache.backends.redis.RedisCache",
                       "LOCATION": REDIS_URL}
                      if REDIS_URL else
                      {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                       "OPTIONS": {"MAX_ENTRIES": 300}}),
          # The sign-up and password-reset counts (scorekeeper/throttle.py): in the
          # database, so that every worker process counts together. Its table is made by
          # `manage.py createcachetable` (scripts/setup; a test database gets it too).
          "throttle": {"BACKEND": "django.core.cache.backends.db.DatabaseCache",
                       "LOCATION": "throttle_counts",
                       "OPTIONS": {"MAX_ENTRIES": 100_000}}}

# Record files uploaded before they were kept in the database waited here; migration 0022
# reads any left into the database. Nothing else is kept on a server's disk.
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT") or BASE_DIR / "media")

# Background tasks (Django's django.tasks): record imports are stored in the database and
# run by `python manage.py db_worker` (scripts/run and scripts/prod start one).
# https://github.com/RealOrangeOne/django-tasks-db
TASKS = {
    "default": {
        "BACKEND": os.environ.get("TASKS_BACKEND") or "django_tasks_db.DatabaseBackend",
        "QUEUES": ["default"],
    },
}
# League e-mails (matches/leagues/notices.py) are sent by that worker, and its schedule
# (matches/leagues/schedule.py: confirm due results, the day-before reminders, the "no
# result yet" prompts, the missing results to the league admins) runs every this many
# minutes inside it; `manage.py start_schedule` starts it (scripts/run, scripts/prod).
NOTICE_SCHEDULE_MINUTES = env_int("NOTICE_SCHEDULE_MINUTES", 15)
# The site's address as its readers open it, for the links in those e-mails (no request
# to take it from in the worker).
SITE_URL = (os.environ.get("SITE_URL", "").strip().rstrip("/")
            or "http://localhost:8000")
# At most this many records per upload; the rest are refused, not read.
RECORD_IMPORT_MAX_RECORDS = env_int("RECORD_IMPORT_MAX_RECORDS", 10_000)
# Records committed per transaction: a crash keeps every batch before it.
RECORD_IMPORT_BATCH_SIZE = env_int("RECORD_IMPORT_BATCH_SIZE", 100)
# A worker running an import holds it this long, renewed with every batch (so a batch
# must take less); once it lapses (the worker was killed), another worker resumes it.
RECORD_IMPORT_LEASE_SECONDS = env_int("RECORD_IMPORT_LEASE_SECONDS", 300)

# Content-Security-Policy, in development too so a violation shows up before
# it ships. Everything comes from this origin (htmx is served from static/); no inline
# code and no inline style attributes: scripts live in static/js/, and an inline
# <script> would need nonce="{{ csp_nonce }}" (CSP.NONCE is only sent once a page uses
# it). htmx is told not to inject its indicator <style> nor to eval (base.html).
# https://docs.djangoproject.com/en/6.0/ref/csp/
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.NONE],
    "frame-ancestors": [CSP.NONE],
    "form-action": [CSP.SELF],
}

# No script reads the CSRF cookie: htmx sends the token that base.html writes into
# hx-headers, and forms carry {% csrf_token %}. (SameSite=Lax and an HttpOnly session
# cookie are Django's defaults.)
CSRF_COOKIE_HTTPONLY = True
# The language switch's cookie: no script reads it either, and like the others it is
# sent over HTTPS only in production.
LANGUAGE_COOKIE_HTTPONLY = True
LANGUAGE_COOKIE_SAMESITE = "Lax"

# Errors go to stderr, where gunicorn and the platform collect them.
# Every record passes the one handler, which redacts scorers' secrets from request paths;
# Django's own loggers (requests, the development server) are routed through it too.
LOG_LEVEL = os.environ.get("LOG_LEVEL", "").strip().upper() or "INFO"
# Optional error reports by e-mail (through the EMAIL_* server above): a comma-separated
# list such as "Ada <ada@example.com>,ops@example.com". Empty: no e-mail is sent.
ADMINS = env_list("ADMINS", [])
SERVER_EMAIL = os.environ.get("SERVER_EMAIL", "") or DEFAULT_FROM_EMAIL
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "redact_secrets": {"()": "scorekeeper.logs.RedactSecrets"},
        "quiet_refusals": {"()": "scorekeeper.logs.QuietRefusals"},
        "require_debug_false": {"()": "django.utils.log.RequireDebugFalse"},
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "filters": ["redact_secrets"]},
        # A server error (500) mailed to ADMINS; sends nothing while ADMINS is empty.
        "mail_admins": {"class": "scorekeeper.logs.RedactingAdminEmailHandler",
                        "level": "ERROR",
                        "filters": ["require_debug_false", "redact_secrets"]},
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        "django": {"handlers": ["console"], "level": LOG_LEVEL, "propagate": False},
        "django.request": {"handlers": ["console", "mail_admins"], "level": LOG_LEVEL,
                           "filters": ["quiet_refusals"], "propagate": False},
        "django.server": {"handlers": ["console"], "level": LOG_LEVEL, "propagate": False},
    },
}

if not DEBUG:
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    # Load balancers probe over plain HTTP: answer them rather than redirect.
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
    # Only behind a proxy that terminates TLS and always sets this header; otherwise
    # a client could claim HTTPS. Without it, SSL redirect behind such a proxy loops.
    # https://docs.djangoproject.com/en/stable/ref/settings/#secure-proxy-ssl-header
    if env_bool("TRUST_X_FORWARDED_PROTO", False):
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    # One year when on (what browsers' preload lists ask); 0 turns it off, e.g. while
    # HTTPS is first being tried on a new host.
    # https://docs.djangoproject.com/en/stable/ref/middleware/#http-strict-transport-security
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31_536_000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    # Only allows submission to the browsers' preload list; nothing is submitted.
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
