"""Semantic value types (see ``types`` for the model, ``catalog`` for the values)."""

from toolmaze_gym.values.types import (
    CORRUPTION_KINDS,
    CheckContext,
    ClockView,
    Corruption,
    HiddenFact,
    SemanticType,
    Witness,
    all_types,
    get,
    register,
)

__all__ = ["CORRUPTION_KINDS", "CheckContext", "ClockView", "Corruption", "HiddenFact",
           "SemanticType", "Witness", "all_types", "get", "register"]
