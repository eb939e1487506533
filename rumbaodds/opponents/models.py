"""Opponent models: how the other players speak, join, exchange and knock.

All the reasoning lives in ``docs/SIMULATION.md`` (section "Opponent
models"); this module holds the thresholds as data. An opponent looks only at
his own cards and the turned card, scored as *hand points* (the sum of each
card's *keep value*), so a model is a handful of numbers a user can tune from
a TOML file.
"""

from __future__ import annotations

import dataclasses
import tomllib
from dataclasses import dataclass
from pathlib import Path

from ..engine.keep import keep_value_py
from .policies import Policy, named_policy

NEVER = 10**6  # a points threshold nobody reaches
ALWAYS = -(10**6)


class ModelError(ValueError):
    """An opponent model that cannot be read; the message names the field."""


@dataclass(frozen=True)
class OpponentModel:
    name: str
    rumba_points: int = 17  # calls Rumba when hand points >= this
    play_points: int = 5  # plays (no Rumba called yet) when hand points >= this
    join_points: int = 8  # joins a called Rumba when hand points >= this
    join_knock_points: int = 6  # joins a blind knock when hand points >= this (docs/SIMULATION.md)
    discard_below: int = 1  # exchanges cards whose keep value is below this (0: never)
    throw_in: bool = True  # throws in when the rule set allows it
    swap_two: bool = True  # swaps the two of trump for the turned card [D-9]

    def policy(self, rules, players: int) -> Policy:
        """This model as a kernel policy (``engine/policy.py``): deterministic thresholds on hand points."""
        return named_policy(self, rules, players)

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)


MODELS: dict[str, OpponentModel] = {
    "default": OpponentModel("default"),
    "cautious": OpponentModel("cautious", rumba_points=20, play_points=7, join_points=10, join_knock_points=8),
    "bold": OpponentModel("bold", rumba_points=15, play_points=3, join_points=6, join_knock_points=4, discard_below=2,
                          throw_in=False),
    "all": OpponentModel("all", rumba_points=NEVER, play_points=ALWAYS, join_points=ALWAYS, join_knock_points=ALWAYS,
                         discard_below=0, throw_in=False, swap_two=False),
}


def get_model(name_or_path: str | OpponentModel) -> OpponentModel:
    """A model by name, or a TOML file with ``base = "default"`` and overrides."""
    if isinstance(name_or_path, OpponentModel):
        return name_or_path
    key = str(name_or_path).strip().lower()
    if key in MODELS:
        return MODELS[key]
    path = Path(str(name_or_path))
    if not (path.suffix == ".toml" or path.exists()):
        raise ModelError(f"unknown opponent model {name_or_path!r} (use {', '.join(MODELS)} or a .toml file)")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ModelError(f"opponent model file {str(path)!r} not found") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ModelError(f"opponent model file {str(path)!r}: not valid TOML ({exc})") from None
    base_name = str(data.pop("base", "default")).lower()
    if base_name not in MODELS:
        raise ModelError(f"{path}: field base: unknown model {base_name!r}")
    base = MODELS[base_name]
    changes = {"name": data.pop("name", path.stem)}
    for key, value in data.items():
        if key not in {f.name for f in dataclasses.fields(OpponentModel)}:
            raise ModelError(f"{path}: unknown field {key!r}")
        expected = type(getattr(base, key))
        if expected is int and isinstance(value, str) and value.lower() in ("never", "always"):
            value = NEVER if value.lower() == "never" else ALWAYS
        if expected is bool and not isinstance(value, bool) or expected is int and (
            isinstance(value, bool) or not isinstance(value, int)
        ):
            raise ModelError(f"{path}: field {key}: expected {expected.__name__}, got {value!r}")
        changes[key] = value
    return dataclasses.replace(base, **changes)


# -- keep value and hand points (docs/SIMULATION.md) ------------------------------
def keep_value(card: int, trump: int, top_rank: int) -> int:
    """How much a card is worth keeping: trumps by height, side aces and kings (the kernel's one definition)."""
    return keep_value_py(card, trump, top_rank)


def hand_points(cards, trump: int, top_rank: int) -> int:
    return sum(keep_value(c, trump, top_rank) for c in cards)


def points_text(model: OpponentModel) -> str:
    def show(v: int) -> str:
        return "never" if v >= NEVER else "always" if v <= ALWAYS else str(v)

    return (
        f"{model.name}: Rumba at {show(model.rumba_points)}+ points, plays at {show(model.play_points)}+, "
        f"joins a Rumba at {show(model.join_points)}+, a knock at {show(model.join_knock_points)}+"
    )


__all__ = ["OpponentModel", "MODELS", "get_model", "keep_value", "hand_points", "ModelError", "NEVER", "ALWAYS"]
