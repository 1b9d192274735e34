"""Settings for Scorekeeper.

One module, configured from the environment (see .env.example for every variable).
The defaults are safe for development: DEBUG on, SQLite in the project root, a
throwaway SECRET_KEY. With DEBUG off the module refuses to load without a real
SECRET_KEY, and turns on HTTPS-only cookies, SSL redirect and HSTS.
"""

import os
import sys
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

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
    "matches",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Directly after SecurityMiddleware, as WhiteNoise's docs require.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Pages compressed (static files are, by WhiteNoise): a scorepad tap's answer is
    # about a tenth of its size on a slow phone link. Django pads compressed responses
    # with random bytes against BREACH (GZipMiddleware.max_random_bytes).
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

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

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Django's own auth views, mounted at accounts/ (matches/urls_accounts.py). Logging out
# is a POST (Django 5+) and goes home, so no "logged out" page is needed.
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

# E-mail (password reset links): printed to the console unless EMAIL_HOST names an
# SMTP server. https://docs.djangoproject.com/en/stable/topics/email/
# Django 6.1 deprecates these EMAIL_* settings for MAILERS (a pending deprecation, until
# 2028). Not MAILERS yet: its deploy check (mail.E001) fails any site whose default mailer
# is the console, which is our default, so `check --deploy` would fail without SMTP.
if os.environ.get("EMAIL_HOST", "").strip():
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_HOST = os.environ["EMAIL_HOST"].strip()
    EMAIL_PORT = env_int("EMAIL_PORT", 587)
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "") or "webmaster@localhost"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
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

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Errors go to stderr, where gunicorn and the platform collect them.
# Every record passes the one handler, which redacts scorers' secrets from request paths;
# Django's own loggers (requests, the development server) are routed through it too.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"redact_secrets": {"()": "scorekeeper.logs.RedactSecrets"}},
    "handlers": {"console": {"class": "logging.StreamHandler",
                             "filters": ["redact_secrets"]}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        "django": {"handlers": ["console"], "level": "INFO", "propagate": False},
        "django.server": {"handlers": ["console"], "level": "INFO", "propagate": False},
    },
}

if not DEBUG:
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    # Only behind a proxy that terminates TLS and always sets this header; otherwise
    # a client could claim HTTPS. Without it, SSL redirect behind such a proxy loops.
    # https://docs.djangoproject.com/en/stable/ref/settings/#secure-proxy-ssl-header
    if env_bool("TRUST_X_FORWARDED_PROTO", False):
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    # Start with an hour; raise to a year (31536000) once HTTPS is known to work.
    # https://docs.djangoproject.com/en/stable/ref/middleware/#http-strict-transport-security
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 3600)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    # Only allows submission to the browsers' preload list; nothing is submitted.
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
