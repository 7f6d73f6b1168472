"""The table session: between the real table and the engine (issue 6; API.md in this folder).

Turns inputs (touches, RFID taps, buttons, camera readings) into engine actions and engine events into
what the table needs (spoken lines, LEDs, a view the UI draws), writing every action to the journal
before it is acknowledged.
"""

from tableassist.session.devices import Devices
from tableassist.session.journal import Journal
from tableassist.session.table import BagMode, Outcome, TableSession

__all__ = ["BagMode", "Devices", "Journal", "Outcome", "TableSession"]
