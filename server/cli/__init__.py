"""The `mahjong-hall` command line."""
