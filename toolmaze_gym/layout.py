"""Where ``toolmaze_gym.envs`` and ``toolmaze_gym.reward`` come from in a source tree.

The agreed layout (DESIGN.md section 2) keeps ``envs/`` and ``reward/`` at the top of
the repository although they are sub-packages of ``toolmaze_gym``; pyproject maps them
with setuptools ``package-dir``, so an installed wheel holds ``toolmaze_gym/envs/``.
A source tree holds no such folder. When Python imports the package *from the tree*
(from the repository root the current directory comes first on ``sys.path``, so the
source folder ``toolmaze_gym/`` shadows any installed copy), the two sub-packages are
looked up inside ``toolmaze_gym/`` and are not found after a regular ``pip install
.``; after an editable install of another checkout, that checkout's finder hands over
*its* ``envs``/``reward``, mixing two trees. :func:`install` fixes both: in a source
tree it puts a finder first on ``sys.meta_path`` that maps exactly those two names to
the top-level folders of the tree the package itself came from. An installed package
(``toolmaze_gym/envs/`` beside ``__init__.py``) is left alone.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Sequence
from importlib.abc import MetaPathFinder
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

# sub-packages kept at the top of the source tree: name -> folder. ``openenv`` lives in
# ``toolmaze_env/`` (OpenEnv's naming), since a top-level folder named ``openenv`` would
# shadow the OpenEnv package itself from the repository root; it is optional in a tree.
TOP_LEVEL = {"envs": "envs", "reward": "reward", "openenv": "toolmaze_env"}
REQUIRED = ("envs", "reward")


class SourceTreeFinder(MetaPathFinder):
    """Finds ``PACKAGE.envs``, ``PACKAGE.reward`` and ``PACKAGE.openenv`` in their
    top-level folders of ``root`` (:data:`TOP_LEVEL`); every other name is left to the
    usual finders (their submodules, e.g. ``toolmaze_gym.envs.env``, are found through
    the sub-package's ``__path__``)."""

    def __init__(self, package: str, root: Path) -> None:
        self.prefix = f"{package}."
        self.root = root

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        name = fullname.removeprefix(self.prefix)
        if name == fullname or name not in TOP_LEVEL:
            return None
        init = self.root / TOP_LEVEL[name] / "__init__.py"
        if not init.is_file():
            return None
        return importlib.util.spec_from_file_location(
            fullname, init, submodule_search_locations=[str(init.parent)])


def is_source_tree(package_dir: Path) -> bool:
    """``package_dir`` is the ``toolmaze_gym/`` folder of a source tree: the
    sub-packages sit beside it, not inside it (as they do once installed)."""
    if any((package_dir / name).is_dir() for name in TOP_LEVEL):
        return False
    return all((package_dir.parent / name / "__init__.py").is_file() for name in REQUIRED)


def install(package: str, package_dir: Path) -> None:
    """Put a :class:`SourceTreeFinder` for this tree first on ``sys.meta_path`` when
    ``package_dir`` is in a source tree (once; nothing in an installed package)."""
    if not is_source_tree(package_dir):
        return
    root = package_dir.parent
    if any(isinstance(f, SourceTreeFinder) and f.root == root for f in sys.meta_path):
        return
    sys.meta_path.insert(0, SourceTreeFinder(package, root))
