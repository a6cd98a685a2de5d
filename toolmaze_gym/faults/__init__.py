"""Perturbations: modes, fixed per-task profiles, and the runtime engine."""

from toolmaze_gym.faults.engine import FaultEngine, FaultEvent
from toolmaze_gym.faults.modes import FAULT_MODES, MODE_NAMES, MODES, Mode, get_mode
from toolmaze_gym.faults.profiles import FaultProfile, ProfileError, Victim, build_profile

__all__ = ["FAULT_MODES", "MODES", "MODE_NAMES", "FaultEngine", "FaultEvent", "FaultProfile",
           "Mode", "ProfileError", "Victim", "build_profile", "get_mode"]
