"""``toolmaze sft-data`` output opens with the call people use, ``datasets.load_dataset``
(it used to be a ``save_to_disk`` folder, which load_dataset refuses), one JSON object
per line with the same columns on every line, and ``sft_data.load`` gives back the very
rows, typed as the trainer expects; progress goes to stderr unless ``--quiet``."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("datasets")


@pytest.fixture(scope="module")
def written(train_tasks, tmp_path_factory):
    from toolmaze_gym.training import sft_data

    out = tmp_path_factory.mktemp("sft") / "data"
    dataset = sft_data.build_dataset(tasks=train_tasks, modes=["P0", "P2", "P4"])
    sft_data.save(dataset, out, {"n": len(train_tasks)})
    return out, [dataset[i] for i in range(len(dataset))]


def test_load_dataset_reads_the_folder_row_for_row(written, tmp_path, monkeypatch):
    import datasets

    monkeypatch.setenv("HF_DATASETS_CACHE", str(tmp_path / "cache"))
    out, rows = written
    loaded = datasets.load_dataset(str(out))
    assert list(loaded) == ["train"]
    assert [loaded["train"][i] for i in range(len(rows))] == rows


def test_one_json_object_per_line_with_one_set_of_columns(written):
    out, rows = written
    lines = [json.loads(x) for x in (out / "train.jsonl").read_text().splitlines()]
    assert len(lines) == len(rows) and {tuple(x) for x in lines} == {tuple(rows[0])}


def test_the_library_loads_it_back_typed(written):
    from toolmaze_gym.training import sft_data

    out, rows = written
    back = sft_data.load(out)
    assert [back[i] for i in range(len(back))] == rows
    assert back.features == sft_data.to_dataset(rows).features


def test_cli_shows_progress_on_stderr_unless_quiet(tmp_path, capsys):
    from toolmaze_gym.cli import main

    assert main(["sft-data", "--n", "1", "--levels", "C1", "--modes", "P0",
                 "--out", str(tmp_path / "a")]) == 0
    err = capsys.readouterr().err
    assert "sft-data train" in err and "1/1" in err
    assert main(["sft-data", "--n", "1", "--levels", "C1", "--modes", "P0", "--quiet",
                 "--out", str(tmp_path / "b")]) == 0
    err = capsys.readouterr().err
    assert "1/1" not in err and err.startswith("kept ")
