"""Benchmarks that print figures (bench/README.md). Each script runs on its own
(``.venv/bin/python bench/engine.py``); the web benchmark is a package (``python -m bench.web``)."""
