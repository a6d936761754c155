"""Finished deals replayed for the browser and exported as `mahjong-hall replay` input."""
