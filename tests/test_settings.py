from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.env import env_bool, env_choice, env_int, env_list, env_str

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("1", True),
        ("TRUE", True),
        ("yes", True),
        ("On", True),
        ("0", False),
        ("false", False),
        ("No", False),
        ("off", False),
    ],
)
def test_env_bool_reads_the_usual_spellings(monkeypatch, raw, expected):
    monkeypatch.setenv("MONOPOLY_FLAG", raw)

    assert env_bool("MONOPOLY_FLAG", not expected) is expected


def test_env_bool_refuses_maybe_and_names_the_variable_and_value(monkeypatch):
    monkeypatch.setenv("MONOPOLY_FLAG", "maybe")

    with pytest.raises(ImproperlyConfigured) as excinfo:
        env_bool("MONOPOLY_FLAG", False)

    assert "MONOPOLY_FLAG" in str(excinfo.value)
    assert "'maybe'" in str(excinfo.value)


def test_unset_or_empty_variables_give_the_default(monkeypatch):
    monkeypatch.delenv("MONOPOLY_UNSET", raising=False)
    monkeypatch.setenv("MONOPOLY_EMPTY", "  ")

    assert env_bool("MONOPOLY_UNSET", True) is True
    assert env_int("MONOPOLY_EMPTY", 7) == 7
    assert env_str("MONOPOLY_UNSET", "x") == "x"
    assert env_list("MONOPOLY_EMPTY", ["a"]) == ["a"]


def test_env_int_refuses_words_and_values_below_the_minimum(monkeypatch):
    monkeypatch.setenv("MONOPOLY_PORT", "eighty")
    with pytest.raises(ImproperlyConfigured, match=r"MONOPOLY_PORT.*'eighty'"):
        env_int("MONOPOLY_PORT", 80)

    monkeypatch.setenv("MONOPOLY_PORT", "0")
    with pytest.raises(ImproperlyConfigured, match="at least 1"):
        env_int("MONOPOLY_PORT", 80, minimum=1)

    monkeypatch.setenv("MONOPOLY_PORT", " 8080 ")
    assert env_int("MONOPOLY_PORT", 80, minimum=1) == 8080


def test_env_str_without_default_is_required(monkeypatch):
    monkeypatch.delenv("MONOPOLY_REQUIRED", raising=False)

    with pytest.raises(ImproperlyConfigured, match="MONOPOLY_REQUIRED must be set"):
        env_str("MONOPOLY_REQUIRED")


def test_env_list_and_env_choice(monkeypatch):
    monkeypatch.setenv("MONOPOLY_HOSTS", "a.example, b.example,,")
    monkeypatch.setenv("MONOPOLY_LEVEL", "LOUD")

    assert env_list("MONOPOLY_HOSTS") == ["a.example", "b.example"]
    with pytest.raises(ImproperlyConfigured, match=r"MONOPOLY_LEVEL.*'LOUD'"):
        env_choice("MONOPOLY_LEVEL", "INFO", ["DEBUG", "INFO"])


def _import_settings(**env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "SECRET_KEY"}}
    return subprocess.run(
        [sys.executable, "-c", "import config.settings"],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_settings_refuse_to_start_without_secret_key_when_not_debugging():
    result = _import_settings(DEBUG="false")

    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_settings_refuse_a_bad_debug_value():
    result = _import_settings(DEBUG="maybe")

    assert result.returncode != 0
    assert "DEBUG" in result.stderr and "'maybe'" in result.stderr


def test_settings_start_in_production_mode_with_a_secret_key():
    result = _import_settings(DEBUG="false", SECRET_KEY="s3cret-for-the-test")

    assert result.returncode == 0, result.stderr


def _setting(expr: str, **env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items()
             if k not in {"LIVE_REDIS_URL", "CACHE_URL", "CELERY_BROKER_URL", "DATABASE_URL", "DATABASE_POOL"}}
    return subprocess.run(
        [sys.executable, "-c", f"import config.settings as s; print({expr})"],
        cwd=ROOT, env={**clean, **env}, capture_output=True, text=True, timeout=60,
    )


def test_push_uses_the_caches_or_the_brokers_redis_and_none_by_default():
    assert _setting("repr(s.LIVE_REDIS_URL)").stdout.strip() == "''"  # embedded defaults: the pages poll
    assert _setting("s.LIVE_REDIS_URL", CELERY_BROKER_URL="redis://127.0.0.1:6379/3").stdout.strip() == \
        "redis://127.0.0.1:6379/3"
    assert _setting("s.LIVE_REDIS_URL", CACHE_URL="redis://127.0.0.1:6379/4",
                    CELERY_BROKER_URL="redis://127.0.0.1:6379/3").stdout.strip() == "redis://127.0.0.1:6379/4"
    bad = _setting("s.LIVE_REDIS_URL", LIVE_REDIS_URL="amqp://localhost")
    assert bad.returncode != 0 and "LIVE_REDIS_URL" in bad.stderr


def test_sessions_come_from_the_cache_and_a_pool_needs_postgresql():
    assert _setting("s.SESSION_ENGINE").stdout.strip() == "django.contrib.sessions.backends.cached_db"
    pooled = _setting("s.DATABASES['default']['OPTIONS']['pool'], s.DATABASES['default']['CONN_MAX_AGE']",
                      DATABASE_URL="postgres://u@127.0.0.1:5432/x", DATABASE_POOL="true")
    assert pooled.stdout.strip() == "{'min_size': 2, 'max_size': 10} 0", pooled.stderr
    refused = _setting("1", DATABASE_POOL="true")
    assert refused.returncode != 0 and "DATABASE_POOL" in refused.stderr
