"""The task commands of the ``toolmaze`` CLI, as a user runs them."""

from __future__ import annotations

import json

from toolmaze_gym.cli import main
from toolmaze_gym.tasks.model import Task
from toolmaze_gym.tasks.suite import SUITE_NAME, load_suite
from toolmaze_gym.tasks.suite_v2 import ID_PREFIX


def test_generate_dev_emits_v3_tasks_that_are_not_in_the_suite(tmp_path, capsys):
    out = tmp_path / "dev.jsonl"
    assert main(["generate", "--split", "dev", "--n", "4", "--out", str(out), "--quiet"]) == 0
    tasks = [Task.from_json(line) for line in out.read_text().splitlines()]
    suite = load_suite()
    assert len(tasks) == 4 and all(t.meta.get("scenario") and t.meta.get("goal") for t in tasks)
    assert all(t.id.startswith("tmz-v2-dev") for t in tasks)
    assert not {t.meta["signature"] for t in tasks} & {t.meta["signature"] for t in suite}


def test_generate_suite_v1_draws_the_old_generator(tmp_path, capsys):
    out = tmp_path / "v1.jsonl"
    assert main(["generate", "--suite", "toolmaze-v1", "--n", "2", "--out", str(out),
                 "--quiet"]) == 0
    tasks = [Task.from_json(line) for line in out.read_text().splitlines()]
    assert len(tasks) == 2 and not any(t.meta.get("scenario") for t in tasks)
    assert not {t.meta["signature"] for t in tasks} & \
        {t.meta["signature"] for t in load_suite("toolmaze-v1")}


def test_generate_writes_tasks_disjoint_from_the_suite(tmp_path, capsys):
    out = tmp_path / "train.jsonl"
    assert main(["generate", "--split", "train", "--n", "6", "--out", str(out), "--quiet"]) == 0
    tasks = [Task.from_json(line) for line in out.read_text().splitlines()]
    assert len(tasks) == 6 and {t.level for t in tasks} == {"C1", "C2", "C3", "C4"}
    assert "wrote 6 tasks" in capsys.readouterr().err


def test_generate_rejects_bad_input_in_one_line(tmp_path, capsys):
    assert main(["generate", "--n", "0", "--out", str(tmp_path / "x.jsonl")]) == 2
    assert main(["generate", "--n", "3", "--out", str(tmp_path / "no" / "x.jsonl")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and all(line.startswith("toolmaze generate: error:") for line in err)


def test_stats_prints_table1_with_the_paper_beside(capsys):
    assert main(["stats", "--paper"]) == 0
    out = capsys.readouterr().out
    assert "mean_jaccard" in out and "(5.3)" in out and "valid_paths" in out


def test_stats_json_is_computed_from_the_data(capsys):
    assert main(["stats", "--json"]) == 0
    table = json.loads(capsys.readouterr().out)
    assert table["C1"]["valid_paths"] == 100 and table["C4"]["tasks"] == 100


def test_stats_of_an_unknown_suite_fails_cleanly(capsys):
    assert main(["stats", "no-such-suite"]) == 2
    assert "unknown suite" in capsys.readouterr().err


def test_stats_faults_prints_the_kind_mix_of_the_shipped_profiles(capsys):
    from toolmaze_gym.faults.census import kind_shares
    from toolmaze_gym.faults.store import shipped_profiles

    assert main(["stats", "--faults"]) == 0
    out = capsys.readouterr().out
    entity = kind_shares(shipped_profiles().values())["P4"]["entity"]
    row = next(line for line in out.splitlines() if line.startswith("entity"))
    assert row.split()[-1] == f"{100 * entity:.1f}%"  # the P4 column
    assert "blatant" in out and "placeholder" in out


def test_stats_faults_needs_a_suite_with_profiles(capsys, tmp_path):
    assert main(["stats", "--faults", str(tmp_path / "tasks.jsonl")]) == 2
    assert "--faults needs a suite with fault profiles" in capsys.readouterr().err
    assert main(["stats", "--faults", str(tmp_path)]) == 2  # a directory without profiles
    assert "profiles.jsonl" in capsys.readouterr().err


def test_stats_faults_refuses_an_edited_suite_copy(capsys, tmp_path):
    """A copied suite whose tasks were edited is not the suite its profiles were built
    for: like every command that loads tasks, ``--faults`` checks the manifest."""
    import shutil
    from importlib import resources

    from toolmaze_gym.tasks.suite import SUITE_NAME

    copy = tmp_path / "copy"
    shutil.copytree(str(resources.files("toolmaze_gym") / "data" / "suites" / SUITE_NAME), copy)
    assert main(["stats", "--faults", str(copy)]) == 0  # an exact copy is fine
    capsys.readouterr()
    c1 = copy / "C1.jsonl"
    c1.write_text(c1.read_text().replace("EUR", "USD", 1))
    assert main(["stats", "--faults", str(copy)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "C1.jsonl does not match its manifest checksum" in err


def test_show_prints_goal_and_query_first_then_dag_and_paths(capsys):
    task = load_suite(levels=["C3"])[0]  # the default suite
    assert task.id.startswith(f"{ID_PREFIX}-c3-")
    assert main(["show", task.id]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[:2] == [f"goal: {task.meta['goal']}", f"query: {task.query}"]
    assert "slots:" in lines and f"solution paths: {len(task.solutions)} (s* = path " \
        f"{task.default + 1})" in lines


def test_show_prints_each_tools_own_parameter_names_and_units(capsys):
    """ecobee_set_hold takes ``hold_temp_f`` in °F; the capability's role is
    ``temperature_c``. show prints the tool's name, unit and doc with the 68 °F the
    agent sends, and the role's value after the tool's conversion (20 °C), never the
    role alone bound to 68 (which read as a unit bug to a blind reviewer)."""
    assert main(["show", "tmz-v3-c1-0047"]) == 0  # a v3 task, found by its id alone
    out = capsys.readouterr().out
    hold = next(line.strip() for line in out.splitlines() if "hold_temp_f" in line)
    assert hold.startswith("hold_temp_f (temperature_f) <- 68.0")
    assert "Hold temperature in °F" in hold and "role temperature_c = 20.0" in hold
    assert "thermostat_identifier (thermostat_id) <- s1.thermostat_id" in out
    assert "temperature_c (temperature_f) <- 68.0" not in out


def test_show_prints_every_alternative_with_its_own_argument_names(capsys):
    """gnews_search calls the news topic ``category``; search_news calls it ``topic``."""
    assert main(["show", "tmz-v3-c4-0079"]) == 0
    out = capsys.readouterr().out
    assert "alternative 2: gnews_search" in out
    assert 'category (news_topic) <- "travel"' in out and 'topic (news_topic) <- "travel"' in out
    assert "lat (latitude) <- geocode_city.lat = " in out


def test_show_finds_an_old_suites_task_by_its_id_and_a_named_suite_alone(capsys):
    old = load_suite("toolmaze-v3", ["C3"])[0]
    assert main(["show", old.id]) == 0  # no --suite: the suite the id names
    assert capsys.readouterr().out.startswith(f"goal: {old.meta['goal']}\nquery: {old.query}\n")
    assert main(["show", old.id, "--suite", SUITE_NAME]) == 2
    assert f"no task {old.id!r} in {SUITE_NAME}" in capsys.readouterr().err


def test_show_still_finds_v1_tasks_by_suite_name(capsys):
    assert main(["show", "tmz-v1-c3-0000", "--suite", "toolmaze-v1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("query:") and "solution paths: 2" in out


def test_show_unknown_task(capsys):
    assert main(["show", "tmz-v1-c9-9999"]) == 2
    assert "no task" in capsys.readouterr().err


def test_corpus_table4_and_show(capsys):
    assert main(["corpus"]) == 0
    out = capsys.readouterr().out
    assert "Action" in out and "123" in out and "126" in out
    assert main(["corpus", "--show", "send_email"]) == 0
    assert json.loads(capsys.readouterr().out)["schema"]["function"]["name"] == "send_email"
    assert main(["corpus", "--domain", "Nowhere"]) == 2


def test_generate_shows_progress_on_stderr_unless_quiet(tmp_path, capsys):
    """A long ``generate`` (100 tasks take minutes) counts its tasks on stderr, as
    ``sft-data`` does; ``--quiet`` leaves only the closing line (issue 30 item 7)."""
    args = ["generate", "--split", "dev", "--n", "1", "--level", "C1", "--out"]
    assert main([*args, str(tmp_path / "a.jsonl")]) == 0
    err = capsys.readouterr().err
    assert "generating dev" in err and "1/1" in err
    assert main([*args, str(tmp_path / "b.jsonl"), "--quiet"]) == 0
    err = capsys.readouterr().err
    assert "1/1" not in err and err.startswith("wrote 1 tasks")
