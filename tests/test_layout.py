"""``envs/`` and ``reward/`` sit at the top of the source tree but are imported as
``toolmaze_gym.envs`` / ``toolmaze_gym.reward`` (DESIGN.md section 2): that must hold
from the repository root after a regular ``pip install .`` (where the source folder
``toolmaze_gym/`` shadows the installed package), and a source tree must never mix its
own package with another tree's ``envs``/``reward`` (an editable install elsewhere)."""

from __future__ import annotations

import os
import shutil
import site
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TREE = ["pyproject.toml", "README.md", "toolmaze_gym", "envs", "reward", "toolmaze_env"]
PROBE = ("import gymnasium, toolmaze_gym, toolmaze_gym.envs, toolmaze_gym.reward; "
         "print(toolmaze_gym.__file__); print(toolmaze_gym.envs.__file__); "
         "print(toolmaze_gym.reward.__file__); "
         "env = gymnasium.make('ToolMaze-C1P0-v0'); env.reset(seed=0); print('ok')")


def _source_copy(dest: Path) -> Path:
    """The parts of the repository ``pip install .`` reads, copied to ``dest``."""
    dest.mkdir()
    skip = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in TREE:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=skip)
        else:
            shutil.copy2(src, dest / name)
    return dest


def _probe(python: str | Path, cwd: Path) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONSAFEPATH")}
    proc = subprocess.run([str(python), "-c", PROBE], cwd=cwd, capture_output=True,
                          text=True, env=env)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.split()


def test_a_source_tree_imports_its_own_envs_and_reward(tmp_path):
    """From the root of a copy of the tree, the package and both sub-packages come
    from that copy (not from the tree this interpreter has installed)."""
    tree = _source_copy(tmp_path / "src")
    package, envs, reward, ok = _probe(sys.executable, tree)
    assert Path(package) == tree / "toolmaze_gym" / "__init__.py"
    assert Path(envs) == tree / "envs" / "__init__.py"
    assert Path(reward) == tree / "reward" / "__init__.py"
    assert ok == "ok"


def test_import_from_the_repository_root_after_a_regular_install(tmp_path):
    """``pip install --no-deps .`` into a fresh venv (dependencies from this
    interpreter's site-packages), then ``import toolmaze_gym`` from the source root
    and from elsewhere: both work, each from where Python finds the package first."""
    tree = _source_copy(tmp_path / "src")
    target = tmp_path / "venv"
    venv.create(target, with_pip=False)
    python = target / "bin" / "python"
    purelib = subprocess.run([str(python), "-c", "import sysconfig; "
                              "print(sysconfig.get_path('purelib'))"], capture_output=True,
                             text=True, check=True).stdout.strip()
    # this interpreter's packages (gymnasium, numpy, setuptools, ...) after the venv's own
    Path(purelib, "zz-deps.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    install = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet",
         "--no-deps", "--no-build-isolation", "--no-index", str(tree)],
        capture_output=True, text=True, cwd=tmp_path)
    if install.returncode != 0 and "no such option: --python" in install.stderr:
        pytest.skip("pip too old for --python")
    assert install.returncode == 0, install.stderr
    shutil.rmtree(tree / "build", ignore_errors=True)

    package, envs, reward, ok = _probe(python, tree)  # the source folder shadows the install
    assert Path(package).parent == tree / "toolmaze_gym" and ok == "ok"
    assert Path(envs).parent == tree / "envs" and Path(reward).parent == tree / "reward"

    package, envs, reward, ok = _probe(python, tmp_path)  # the installed wheel alone
    installed = Path(purelib) / "toolmaze_gym"
    assert Path(package).parent == installed and ok == "ok"
    assert Path(envs).parent == installed / "envs"
    assert Path(reward).parent == installed / "reward"
    shipped = {p.relative_to(installed) for p in (installed / "data").rglob("*") if p.is_file()}
    source = {p.relative_to(tree / "toolmaze_gym")
              for p in (tree / "toolmaze_gym" / "data").rglob("*") if p.is_file()}
    assert shipped == source  # every data file the library reads is in the wheel


def _tree_packages() -> set[str]:
    """Every package of the source tree, under its import name."""
    names = {".".join(p.parent.relative_to(ROOT).parts)
             for p in (ROOT / "toolmaze_gym").rglob("__init__.py")}
    from toolmaze_gym.layout import TOP_LEVEL

    for name, folder in TOP_LEVEL.items():
        names |= {".".join(("toolmaze_gym", name, *p.parent.relative_to(ROOT / folder).parts))
                  for p in (ROOT / folder).rglob("__init__.py")}
    return names


def test_pyproject_ships_every_package_of_the_tree():
    """The wheel's package list is written out (package-dir mapping rules out
    discovery); a package missing from it imports from the tree but not once installed."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert set(config["tool"]["setuptools"]["packages"]) == _tree_packages()
