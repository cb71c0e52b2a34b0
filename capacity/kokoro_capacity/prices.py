"""A dated table of instance prices: the package's own (prices.json) or one given with --price-table."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date
from pathlib import Path

PACKAGED = Path(__file__).with_name("prices.json")


@dataclass(frozen=True)
class PriceTable:
    date: date
    source: str
    usd_per_instance_hour: dict[str, float]

    def hourly(self, instance_type: str) -> float:
        if instance_type not in self.usd_per_instance_hour:
            raise ValueError(
                f"the price table {self.source} has no price for {instance_type}; it has "
                f"{', '.join(sorted(self.usd_per_instance_hour))} (pass --price-table with yours)"
            )
        return self.usd_per_instance_hour[instance_type]


def load_prices(path: Path = PACKAGED) -> PriceTable:
    """{"date": "YYYY-MM-DD", "usd_per_instance_hour": {"ml.x.y": price}}; anything else is refused, saying so."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        prices = {str(name): float(price) for name, price in raw["usd_per_instance_hour"].items()}
        dated = date.fromisoformat(raw["date"])
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
        raise ValueError(
            f"price table {path}: expected {{'date': 'YYYY-MM-DD', 'usd_per_instance_hour': {{'ml.g5.xlarge': 1.41}}}}"
            f" ({type(error).__name__}: {error})"
        ) from None
    if any(price < 0 for price in prices.values()):
        raise ValueError(f"price table {path}: prices must be 0 or more")
    return PriceTable(dated, str(path), prices)
