"""Alembic migrations for the Mahjong Hall database (a package so installs ship them)."""
