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


# ---------------------------------------------------------------- calling conventions

# sha256 of the text-tools prompts as play-testers use them (issue 30: byte-identical)
TEXT_DIGESTS = {"standard": "a81916d0cd35dcf58b79bc79e62ed542fd5884d08243c292cbdb4d1c67f6c24f",
                "failure_aware": "f3cf8a17071e741911d86ae3666e42a7204b26e98fe818546b73e012fc987f97"}


@pytest.mark.parametrize("variant", sorted(PROMPTS))
def test_the_text_tools_prompts_are_unchanged(variant):
    import hashlib

    for text in (PROMPTS[variant], system_prompt(variant), system_prompt(variant, None, "text")):
        assert hashlib.sha256(text.encode()).hexdigest() == TEXT_DIGESTS[variant]


@pytest.mark.parametrize("variant", sorted(PROMPTS))
def test_the_native_tools_prompt_speaks_of_calling_tools_not_of_json(variant):
    from toolmaze_gym.prompts import prompt_text

    native = prompt_text(variant, "native")
    for said in ("JSON", "<tool_call>", '"name"', '"arguments"', "reply with"):
        assert said not in native
    assert "finish tool" in native and "abort tool" in native
    assert "use the results of earlier calls as inputs to later ones" in native.lower()
    assert "any values they asked to be told" in native
    if variant == "failure_aware":  # the failure-aware advice is the text prompt's
        advice = PROMPTS[variant].split("Tools can fail.")[1].split("To call a tool")[0]
        assert advice in native


def test_the_env_opens_with_the_prompt_of_its_calling_convention():
    world = get_world(0)
    native = ToolMazeEnv("C1", "P0", calling="native")
    system = json.loads(native.reset(seed=0)[0])[0]["content"]
    assert system.startswith(system_prompt("standard", None, "native"))
    assert world.now_iso in system and "<tool_call>" not in system
    text = json.loads(ToolMazeEnv("C1", "P0").reset(seed=0)[0])[0]["content"]
    assert text.startswith(PROMPTS["standard"])


def test_an_unknown_calling_convention_is_refused():
    with pytest.raises(ValueError, match="unknown calling convention 'fc'"):
        system_prompt("standard", None, "fc")
    with pytest.raises(ValueError, match="unknown calling convention 'fc'"):
        ToolMazeEnv("C1", "P0", calling="fc")
