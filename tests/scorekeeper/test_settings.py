"""The settings module: middleware order, environment handling, deploy checks.

Tests that change the environment run a fresh interpreter, because settings are
read once per process and the test process's settings must stay untouched.
"""

import os
import re
import socket
import subprocess
import sys

import pytest
from django.conf import settings

from scorekeeper.settings import BASE_DIR, DEV_SECRET_KEY

PRODUCTION_SECRET_KEY = "x7Qe-2vN9rTb_Lm4KpZ8sWc1YhGd6FjA3uE0oRiVnXqMlBtySg5aPk"


def run_python(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    """Run `code` in the venv's Python with only PATH, HOME and `env` set."""
    clean_env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": os.environ.get("HOME", "/tmp"),
        "DJANGO_SETTINGS_MODULE": "scorekeeper.settings",
        **env,
    }
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=BASE_DIR,
        env=clean_env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_whitenoise_directly_follows_security_middleware():
    security = settings.MIDDLEWARE.index("django.middleware.security.SecurityMiddleware")

    assert settings.MIDDLEWARE[security + 1] == "whitenoise.middleware.WhiteNoiseMiddleware"


def test_tests_use_plain_static_storage_so_they_need_no_collectstatic():
    assert settings.TESTING is True
    assert (
        settings.STORAGES["staticfiles"]["BACKEND"]
        == "django.contrib.staticfiles.storage.StaticFilesStorage"
    )


def test_production_uses_whitenoise_manifest_storage():
    result = run_python(
        "from django.conf import settings; print(settings.STORAGES['staticfiles']['BACKEND'])",
        DEBUG="0",
        SECRET_KEY=PRODUCTION_SECRET_KEY,
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "whitenoise.storage.CompressedManifestStaticFilesStorage"


@pytest.mark.parametrize(
    "secret_key",
    [None, "", DEV_SECRET_KEY, "too-short-0123456789"],
    ids=["unset", "empty", "dev-default", "short"],
)
def test_debug_off_refuses_to_start_without_a_real_secret_key(secret_key):
    env = {"DEBUG": "0"} if secret_key is None else {"DEBUG": "0", "SECRET_KEY": secret_key}

    result = run_python("from django.conf import settings; settings.SECRET_KEY", **env)

    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "SECRET_KEY must be set" in result.stderr


def test_debug_off_starts_with_a_real_secret_key():
    result = run_python(
        "from django.conf import settings; print(settings.DEBUG, settings.SESSION_COOKIE_SECURE)",
        DEBUG="0",
        SECRET_KEY=PRODUCTION_SECRET_KEY,
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["False", "True"]


def test_database_url_is_honoured():
    result = run_python(
        "from django.conf import settings; db = settings.DATABASES['default']; "
        "print(db['ENGINE'], db['HOST'], db['PORT'], db['NAME'], "
        "db['CONN_MAX_AGE'], db['CONN_HEALTH_CHECKS'])",
        DATABASE_URL="postgres://scorer@db.example.com:5433/scores",
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "django.db.backends.postgresql",
        "db.example.com",
        "5433",
        "scores",
        "600",
        "True",
    ]


def test_the_cache_is_on_redis_when_redis_url_is_set():
    result = run_python(
        "from django.conf import settings; from django.core.cache import caches; "
        "cache = settings.CACHES['default']; "
        "print(cache['BACKEND'], cache['LOCATION'], type(caches['default']).__name__)",
        REDIS_URL="redis://cache.example.com:6380/2",
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "django.core.cache.backends.redis.RedisCache",
        "redis://cache.example.com:6380/2",
        "RedisCache",
    ]


@pytest.mark.parametrize("redis_url", [None, "", "  "], ids=["unset", "empty", "blank"])
def test_the_cache_is_each_processs_memory_without_redis_url(redis_url):
    env = {} if redis_url is None else {"REDIS_URL": redis_url}
    result = run_python(
        "from django.conf import settings; print(settings.CACHES['default']['BACKEND'])",
        **env,
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "django.core.cache.backends.locmem.LocMemCache"


def test_the_redis_cache_keeps_and_shares_what_is_drawn():
    """Through the real server (127.0.0.1:6379), from two processes: what one draws the
    other reads."""
    try:
        socket.create_connection(("127.0.0.1", 6379), timeout=1).close()
    except OSError:
        pytest.skip("Redis is not running on 127.0.0.1:6379")
    key = f"settings-test-{os.getpid()}"
    url = "redis://127.0.0.1:6379/0"
    drawn = run_python(f"import django; django.setup(); from django.core.cache import cache; "
                       f"cache.set({key!r}, 'rounds table', 30)", REDIS_URL=url)
    read = run_python(f"import django; django.setup(); from django.core.cache import cache; "
                      f"print(cache.get({key!r})); cache.delete({key!r})", REDIS_URL=url)

    assert drawn.returncode == 0, drawn.stderr
    assert read.returncode == 0, read.stderr
    assert read.stdout.strip() == "rounds table"


def test_database_defaults_to_sqlite_in_the_project_root():
    result = run_python(
        "from django.conf import settings; db = settings.DATABASES['default']; "
        "print(db['ENGINE'], db['NAME'])"
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["django.db.backends.sqlite3", str(BASE_DIR / "db.sqlite3")]


def test_comma_separated_hosts_and_origins_are_split():
    result = run_python(
        "from django.conf import settings; "
        "print(settings.ALLOWED_HOSTS, settings.CSRF_TRUSTED_ORIGINS)",
        ALLOWED_HOSTS="a.example, b.example,",
        CSRF_TRUSTED_ORIGINS="https://a.example",
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "['a.example', 'b.example'] ['https://a.example']"


def test_deploy_check_passes_without_warnings(tmp_path):
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=BASE_DIR,
        env={
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": os.environ.get("HOME", "/tmp"),
            "DEBUG": "0",
            "SECRET_KEY": PRODUCTION_SECRET_KEY,
            "ALLOWED_HOSTS": "scores.example.com",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
            "EMAIL_HOST": "smtp.example.com",
        },
        capture_output=True,
        text=True,
        timeout=60,
    )

    assert result.returncode == 0, result.stdout + result.stderr
    # nothing but the verdict: no check message of any level, none silenced, and no
    # Python warning (startup log lines, such as django-axes's banner, may remain)
    assert result.stdout == "System check identified no issues (0 silenced).\n"
    assert re.search(r"Warning|WARNING|ERROR|\(\w+\.[WE]\d+\)", result.stderr) is None, \
        result.stderr


def deploy_check(tmp_path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy"],
        cwd=BASE_DIR,
        env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"),
             "HOME": os.environ.get("HOME", "/tmp"), "DEBUG": "0",
             "SECRET_KEY": PRODUCTION_SECRET_KEY, "ALLOWED_HOSTS": "scores.example.com",
             "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}", **env},
        capture_output=True, text=True, timeout=60)


def test_deploy_check_fails_in_production_without_a_mail_server(tmp_path):
    result = deploy_check(tmp_path)

    assert result.returncode == 1
    assert ("(scorekeeper.E001) DEBUG is off and EMAIL_HOST is not set: no mail can be "
            "sent") in result.stderr
    assert "or EMAIL_DISABLED=1 if this site sends no mail on purpose" in result.stderr


def test_deploy_check_passes_when_the_site_sends_no_mail_on_purpose(tmp_path):
    result = deploy_check(tmp_path, EMAIL_DISABLED="1")

    assert result.returncode == 0, result.stderr
    assert "scorekeeper.E00" not in result.stdout + result.stderr


@pytest.mark.parametrize("env", [{}, {"EMAIL_DISABLED": "1"}], ids=["unset", "disabled"])
def test_production_refuses_mail_without_a_server_and_never_prints_it(env):
    result = run_python("from django.conf import settings; print(settings.EMAIL_BACKEND)",
                        DEBUG="0", SECRET_KEY=PRODUCTION_SECRET_KEY, **env)

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "scorekeeper.mail.RefusingBackend"


def test_development_mail_can_be_switched_off_too():
    result = run_python("from django.conf import settings; print(settings.EMAIL_BACKEND)",
                        EMAIL_DISABLED="1")

    assert result.stdout.strip() == "scorekeeper.mail.RefusingBackend"
