"""Training on ToolMaze: expert recovery data for SFT and the TRL environment for GRPO.

``careful`` is the expert (recovery from visible evidence only), ``sft_data`` turns
its episodes into a Hugging Face dataset, ``tool_methods`` and ``environment`` make
ToolMaze a TRL ``environment_factory``, and ``vllm_rollout`` is the ``rollout_func``
path over ``ToolMazePool`` for GPU training with vLLM. Heavy libraries (datasets,
trl, torch) are imported inside the functions that need them.
"""
