"""The ``hf`` policy: a local causal LM playing ToolMaze episodes through the env."""

from __future__ import annotations

import gymnasium as gym
import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")

import toolmaze_gym  # noqa: F401  (registers the ids)
from tests.conftest import build_tiny
from toolmaze_gym.agents import ContextOverflow, make_policy
from toolmaze_gym.agents.scripted import OracleAgent


def _start(policy, key: str, env_id: str, seed: int, **env_options):
    env = gym.make(env_id, **env_options)
    _, info = env.reset(seed=seed)
    base = env.unwrapped
    policy.start(key, base.episode.task, info["tools"], info["mode"])
    return base


def _play(policy, envs: dict) -> tuple[dict, dict]:
    """Step every episode with the policy's replies until all end."""
    live, usages, infos = dict(envs), {}, {}
    while live:
        turns = [(key, env.messages) for key, env in live.items()]
        for (key, _), text in zip(turns, policy.act_many(turns), strict=True):
            _, _, term, trunc, infos[key] = live[key].step(text)
            if term or trunc:
                usages[key] = policy.finish(key)
                del live[key]
    return usages, infos


@pytest.mark.parametrize("batch_size", [1, 3])
def test_tiny_model_plays_episodes_end_to_end(tiny_model, batch_size):
    policy = make_policy("hf", model=str(tiny_model), max_new_tokens=16, batch_size=batch_size)
    envs = {f"e{k}": _start(policy, f"e{k}", f"ToolMaze-C{k + 1}P{k + 1}-v0", k)
            for k in range(3)}
    usages, infos = _play(policy, envs)
    for key, env in envs.items():
        steps = env.episode.steps
        assert "grade" in infos[key] and steps
        usage = usages[key]
        assert usage["turns"] == len(steps)
        assert usage["raw"] == [s.raw for s in steps]
        assert usage["first_prompt_tokens"] > 1000  # system prompt, tool schemas, query
        assert 0 < usage["completion_tokens"] <= 16 * len(steps)
    with pytest.raises(KeyError, match="no running episode"):
        policy.finish("e0")


def test_batched_and_one_at_a_time_give_the_same_greedy_replies(tiny_model):
    replies = []
    for batch_size in (1, 3):
        policy = make_policy("hf", model=str(tiny_model), max_new_tokens=12,
                             batch_size=batch_size)
        envs = {f"e{k}": _start(policy, f"e{k}", "ToolMaze-C2P0-v0", k) for k in range(3)}
        replies.append(policy.act_many([(key, env.messages) for key, env in envs.items()]))
    assert replies[0] == replies[1]
    assert len(set(replies[0])) > 1  # the replies depend on the episode


def test_kv_cache_reuse_gives_the_same_greedy_tokens_as_reencoding(tiny_model, sim):
    """A multi-turn episode (the oracle's actions, with a fault and a retry): every
    turn, the policy that reuses its cache replies exactly like one that encodes the
    whole conversation again, while encoding far fewer tokens."""
    reuse = make_policy("hf", model=str(tiny_model), max_new_tokens=10, kv_reuse=True)
    fresh = make_policy("hf", model=str(tiny_model), max_new_tokens=10, kv_reuse=False)
    env = gym.make("ToolMaze-C2P1-v0").unwrapped
    _, info = env.reset(seed=4)
    oracle = OracleAgent(sim)
    oracle.reset(env.episode.task, info["tools"], "P1")
    for p in (reuse, fresh):
        p.start("k", env.episode.task, info["tools"], "P1")
    done, turns = False, 0
    while not done:
        [a] = reuse.act_many([("k", env.messages)])
        [b] = fresh.act_many([("k", env.messages)])
        assert a == b, f"turn {turns}"
        _, _, term, trunc, _ = env.step(oracle.act(env.messages))
        done, turns = term or trunc, turns + 1
    assert turns >= 5
    u, v = reuse.finish("k"), fresh.finish("k")
    assert u["raw"] == v["raw"] and u["prompt_tokens"] == v["prompt_tokens"]
    assert v["encoded_tokens"] == v["prompt_tokens"]
    assert u["encoded_tokens"] < v["prompt_tokens"] / 2


def test_caches_beyond_the_limit_are_dropped_least_recently_used_first(tiny_model, sim):
    """Two episodes interleaved with room for one cache: each turn evicts the other's
    cache, so everything is encoded again, and the replies do not change."""
    usages = {}
    for limit in (1, 2):
        policy = make_policy("hf", model=str(tiny_model), max_new_tokens=6,
                             cached_episodes=limit)
        envs, oracles = {}, {}
        for k in range(2):
            envs[k] = _start(policy, f"e{k}", "ToolMaze-C1P0-v0", k)
            oracles[k] = OracleAgent(sim)
            oracles[k].reset(envs[k].episode.task, envs[k].tools, "P0")
        for _ in range(3):
            policy.act_many([(f"e{k}", envs[k].messages) for k in envs])
            for k, env in envs.items():
                env.step(oracles[k].act(env.messages))
        usages[limit] = [policy.finish(f"e{k}") for k in envs]
    for tight, roomy in zip(usages[1], usages[2], strict=True):
        assert tight["raw"] == roomy["raw"]
        assert tight["encoded_tokens"] == tight["prompt_tokens"]
        assert roomy["encoded_tokens"] < roomy["prompt_tokens"] / 2


def test_compact_tools_shorten_the_first_turn(tiny_model):
    firsts = {}
    for compact in (False, True):
        policy = make_policy("hf", model=str(tiny_model), max_new_tokens=4,
                             compact_tools=compact)
        env = _start(policy, "k", "ToolMaze-C1P0-v0", 0)
        text = policy.prompt_text("k", env.messages)
        assert all(t["function"]["name"] in text for t in env.tools)
        assert ("<tools>" in text) is not compact
        policy.act_many([("k", env.messages)])
        firsts[compact] = policy.finish("k")["first_prompt_tokens"]
    assert firsts[True] < 0.85 * firsts[False]


def test_a_prompt_beyond_the_window_raises_context_overflow(tmp_path, smollm2_tokenizer_dir):
    small = build_tiny(tmp_path / "small", smollm2_tokenizer_dir, max_positions=1024)
    policy = make_policy("hf", model=str(small), max_new_tokens=8)
    env = _start(policy, "long", "ToolMaze-C4P0-v0", 0)
    with pytest.raises(ContextOverflow, match=r"exceed the model's context window") as err:
        policy.act_many([("long", env.messages)])
    assert err.value.keys == ["long"] and err.value.limit == 1024
    assert err.value.tokens["long"] > 1024
    assert policy.finish("long")["turns"] == 0  # nothing was generated


def test_sampling_is_seeded_per_episode(tiny_model):
    """Same seed and key: the same reply; another seed, or another repeat of the same
    task (the key's last part), samples anew, so pass^k over repeats is not degenerate."""
    def reply(seed: int, key: str = "C1-000/P0/standard/0") -> str:
        policy = make_policy("hf", model=str(tiny_model), max_new_tokens=12, temperature=1.0,
                             seed=seed)
        env = _start(policy, key, "ToolMaze-C1P0-v0", 0)
        return policy.act_many([(key, env.messages)])[0]

    assert reply(1) == reply(1)
    assert reply(1) != reply(2)
    assert reply(1) != reply(1, "C1-000/P0/standard/1")


def test_bad_hf_options_are_refused(tmp_path, tiny_model):
    with pytest.raises(ValueError, match="not a local transformers checkpoint"):
        make_policy("hf", model=str(tmp_path / "nowhere"))
    with pytest.raises(ValueError, match="max_new_tokens must be a positive integer"):
        make_policy("hf", model=str(tiny_model), max_new_tokens=0)
    with pytest.raises(ValueError, match=r"temperature must be a number in \[0, 5\]"):
        make_policy("hf", model=str(tiny_model), temperature=-1)
    with pytest.raises(ValueError, match="device 'gpu0' is not a torch device"):
        make_policy("hf", model=str(tiny_model), device="gpu0")
    with pytest.raises(ValueError, match=r"takes no option.*api_key_env"):
        make_policy("hf", api_key_env="X")


@pytest.mark.slow  # ~25 s of CPU on two cores; minutes when the cores are shared
def test_real_smollm2_plays_one_episode(smollm2_tokenizer_dir):
    """The embedded SmolLM2-135M-Instruct (the default model) plays a C1 episode to
    its end (at most two steps, to stay short on a shared CPU)."""
    policy = make_policy("hf", compact_tools=True, max_new_tokens=40)
    assert policy.path == smollm2_tokenizer_dir
    envs = {"real": _start(policy, "real", "ToolMaze-C1P0-v0", 0, max_steps=2)}
    usages, infos = _play(policy, envs)
    assert "grade" in infos["real"]
    usage = usages["real"]
    assert usage["turns"] == len(envs["real"].episode.steps) >= 1
    assert usage["raw"][0].strip()  # a trained model says something, not padding
