"""Mahjong Hall: a self-hosted, real-time mahjong server."""

__version__ = "0.1.0"
