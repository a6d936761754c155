"""The ledger of a night at a real table: pure, it imports only the engine and the
standard library (docs/ledger.md).

`LedgerSetup.checked(...)` opens one; `setup.read_entry(body)` reads a hand as entered;
`reckon_night(setup, entries)` scores every hand with the engine, settles it with the
engine's settlement, and moves the deal on by the engine's dealership.
"""

from server.ledger.entries import HandEntry, LedgerError
from server.ledger.night import LedgerSetup, Night, ReckonedHand, reckon_night
from server.ledger.reckoning import NotAWinError, PlayerPayment, Seating

__all__ = [
    "HandEntry",
    "LedgerError",
    "LedgerSetup",
    "Night",
    "NotAWinError",
    "PlayerPayment",
    "ReckonedHand",
    "Seating",
    "reckon_night",
]
