"""The ledger tests' hypothesis profile: bot deals are slow to play, so few of them.

`MAHJONG_LEDGER_DEALS` raises the number of deals per property (the CI default keeps the
ledger's property tests to a few seconds each; docs/ledger.md, "Tests").
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ledger_bot_deals",
    max_examples=int(os.environ.get("MAHJONG_LEDGER_DEALS", "12")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
