"""The devices a table session uses; any of them may be missing (None) and the session still runs."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tableassist.ports import CardReader, Controls, StockYardCamera, Voice


@dataclass
class Devices:
    voice: Voice | None = None
    reader: CardReader | None = None
    controls: Controls | None = None
    camera: StockYardCamera | None = None
    cards: Any = None  # tableassist.cards registry: .lookup(tag) -> card or None

    def close(self) -> None:
        for device in (self.voice, self.controls, self.camera):
            if device is not None:
                try:
                    device.close()
                except Exception:  # noqa: BLE001 - closing must never stop the others closing
                    pass
        if self.reader is not None:
            try:
                self.reader.stop()
            except Exception:  # noqa: BLE001
                pass
