"""What the agent is told: both prompts chain results, name the reserved calls, and
state the simulated world's current date and time (never the machine's)."""

from __future__ import annotations

import json

import pytest
from toolmaze_gym.envs import ToolMazeEnv

from toolmaze_gym.prompts import PROMPTS, system_prompt
from toolmaze_gym.world import get_world


@pytest.mark.parametrize("variant", sorted(PROMPTS))
@pytest.mark.parametrize("world_seed", [0, 3])
def test_system_prompt_states_the_worlds_now(variant, world_seed):
    env = ToolMazeEnv("C1", "P0", prompt=variant, world_seed=world_seed)
    system = json.loads(env.reset(seed=0)[0])[0]["content"]
    world = get_world(world_seed)
    assert world.now_iso in system and f"{world.now:%A}" in system
    assert system.startswith(PROMPTS[variant])


def test_different_worlds_have_different_clocks():
    assert get_world(0).now_iso != get_world(3).now_iso
    assert system_prompt("standard", get_world(0).now) != \
        system_prompt("standard", get_world(3).now)


@pytest.mark.parametrize("variant", sorted(PROMPTS))
def test_both_prompts_chain_results_and_name_the_endings(variant):
    text = PROMPTS[variant]
    assert "use the results of earlier calls as inputs to later ones" in text.lower()
    assert '"name": "finish"' in text and '"name": "abort"' in text


def test_unknown_prompt_is_refused():
    with pytest.raises(ValueError, match="unknown prompt 'x'"):
        system_prompt("x")


def test_reserved_schemas_are_offered_beside_the_tools():
    env = ToolMazeEnv("C2", "P1")
    _, info = env.reset(seed=0)
    finish, abort = info["tools"][-2:]
    assert finish["function"]["name"] == "finish"
    assert finish["function"]["parameters"]["required"] == ["answer"]
    assert finish["function"]["parameters"]["properties"]["answer"]["type"] == "string"
    assert abort["function"]["name"] == "abort"
    assert abort["function"]["parameters"]["properties"]["reason"]["type"] == "string"
