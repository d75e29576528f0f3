"""Which variant of Solstis a game plays."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import InvalidPosition


@dataclass(frozen=True, slots=True)
class Options:
    """``beginner`` leaves out the Evil Spirit; ``firefly`` adds the expansion (rules.md §10)."""

    beginner: bool = False
    firefly: bool = False

    def __post_init__(self) -> None:
        if self.firefly and self.beginner:
            raise InvalidPosition(
                "the Firefly expansion needs the Evil Spirit, so it cannot be played in "
                "beginner mode"
            )

    def __reduce__(self) -> tuple[type[Options], tuple[bool, bool]]:
        # The compiled build's frozen dataclasses do not pickle by themselves.
        return Options, (self.beginner, self.firefly)

    @property
    def variant(self) -> str:
        """'base', 'beginner' or 'firefly'."""
        return "firefly" if self.firefly else "beginner" if self.beginner else "base"

    @classmethod
    def for_variant(cls, name: str) -> Options:
        """Options from a variant name; ValueError for an unknown one."""
        table = {
            "base": cls(),
            "beginner": cls(beginner=True),
            "firefly": cls(firefly=True),
        }
        try:
            return table[name.strip().lower()]
        except KeyError:
            raise ValueError(
                f"unknown variant {name!r}: choose base, beginner or firefly"
            ) from None
