"""scripts/check_architecture.py finds what it is for, on tiny packages made in tmp: a module
cycle (a lazy import inside a function counts), a package cycle, a rules core importing its
presentation, a file over 500 lines, and a game named outside its package and the registry."""

from __future__ import annotations

import importlib
import importlib.util
import itertools
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]
_names = itertools.count()


def _checker() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "check_architecture", ROOT / "scripts" / "check_architecture.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


checker = _checker()


def make_package(tmp_path: Path, files: dict[str, str]) -> str:
    """Write `files` (paths relative to the package, `__init__.py` added to every folder) under
    a package with a name of its own, and return that name."""
    name = f"fakepkg_{next(_names)}_{tmp_path.name}".replace("-", "_").lower()
    for relative, text in files.items():
        path = tmp_path / name / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text.replace("PKG", name), encoding="utf-8")
    for folder in [tmp_path / name, *(p for p in (tmp_path / name).rglob("*") if p.is_dir())]:
        (folder / "__init__.py").touch()
    importlib.invalidate_caches()
    return name


def findings(tmp_path: Path, files: dict[str, str]) -> list[str]:
    name = make_package(tmp_path, files)
    try:
        return list(checker.check(name, tmp_path))
    finally:
        for module in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
            del sys.modules[module]


CLEAN = {
    "shell/a.py": "from PKG.shell import b\n",
    "shell/b.py": "from PKG.rules import registry\n",
    "rules/registry.py": "def get(name):\n    from PKG.rules.chess import RULES\n    return RULES\n",
    "rules/chess/__init__.py": "RULES = 1\n",
    "rules/chess/present/__init__.py": "from PKG.rules.chess import RULES\n",
}


def test_a_clean_package_has_no_finding(tmp_path: Path) -> None:
    assert findings(tmp_path, CLEAN) == []


def test_a_module_cycle_through_a_lazy_import_is_found(tmp_path: Path) -> None:
    found = findings(
        tmp_path,
        {
            **CLEAN,
            "shell/a.py": "from PKG.shell import b\n",
            "shell/b.py": "def later():\n    from PKG.shell import a\n    return a\n",
        },
    )
    assert any(f.startswith("module import cycle") and ".shell.a" in f for f in found), found


def test_a_package_cycle_is_found_though_no_module_cycle_is(tmp_path: Path) -> None:
    found = findings(
        tmp_path,
        {
            **CLEAN,
            "left/one.py": "from PKG.right import two\n",
            "right/two.py": "X = 2\n",
            "right/three.py": "from PKG.left import four\n",
            "left/four.py": "Y = 4\n",
        },
    )
    assert not any(f.startswith("module import cycle") for f in found), found
    [cycle] = [f for f in found if f.startswith("package import cycle")]
    assert ".left" in cycle and ".right" in cycle
    assert "left.one -> " in cycle and "right.three -> " in cycle


def test_a_core_importing_its_presentation_is_found(tmp_path: Path) -> None:
    found = findings(
        tmp_path,
        {**CLEAN, "rules/chess/engine.py": "from PKG.rules.chess.present import RULES\n"},
    )
    assert any("a rules core imports its presentation" in f and "chess.engine" in f for f in found)


def test_a_file_over_500_lines_is_named(tmp_path: Path) -> None:
    found = findings(
        tmp_path,
        {**CLEAN, "shell/long.py": "X = 1\n" * 501, "shell/fine.html": "<p>\n" * 500},
    )
    assert len(found) == 1, found
    assert found[0].endswith("/shell/long.py: 501 lines (the limit is 500)"), found


@pytest.mark.parametrize("where", ["shell/a.py", "shell/page.html", "shell/post.j2"])
def test_a_game_named_outside_its_package_is_found(tmp_path: Path, where: str) -> None:
    found = findings(tmp_path, {**CLEAN, where: "# the chess clock\n"})
    assert len(found) == 1 and where in found[0] and "names a game" in found[0], found


def test_the_registry_and_the_game_itself_may_name_it(tmp_path: Path) -> None:
    found = findings(
        tmp_path,
        {
            **CLEAN,
            "rules/registry.py": CLEAN["rules/registry.py"] + "# chess\n",
            "rules/chess/present/pages.html": "chess\n",
        },
    )
    assert found == []


def test_the_command_exits_1_on_a_finding(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    name = make_package(tmp_path, {**CLEAN, "shell/b.py": "from PKG.shell import a\n"})
    assert checker.main(["--package", name, "--root", str(tmp_path)]) == 1
    assert "module import cycle" in capsys.readouterr().out


def test_a_shell_module_missing_from_the_shell_contract_is_found(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        "[[tool.importlinter.contracts]]\n"
        'name = "shell"\ntype = "forbidden"\nallow_indirect_imports = true\n'
        'source_modules = ["PKGNAME.shell"]\nforbidden_modules = ["PKGNAME.rules.chess"]\n',
        encoding="utf-8",
    )
    name = make_package(tmp_path, {**CLEAN, "extra.py": "X = 1\n"})
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text(pyproject.read_text().replace("PKGNAME", name), encoding="utf-8")
    found = checker.check(name, tmp_path)
    assert found == [
        f"{name}.extra is not a source of the shell's import contract in pyproject.toml "
        "([tool.importlinter], allow_indirect_imports): add it there"
    ]
