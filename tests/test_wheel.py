"""The built wheel works on its own: every rules page and data file is inside it.

An editable install reads files straight from ``src/``, so it cannot show a file
missing from the wheel. This test builds the wheel from a copy of the project,
installs it (and nothing else of the project) into a fresh virtual environment,
and runs the installed ``gamebag`` command from a folder with no ``src/`` in it.
The third-party dependencies are lent read-only from the test environment's
site-packages through a ``.pth`` line, so the test needs no network.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

import gamebag
from gamebag.web.store import migrate

ROOT = Path(__file__).resolve().parents[1]
COMMAND_TIMEOUT = 600  # seconds: building and installing are slow on a loaded machine

pytestmark = pytest.mark.slow


def run(args: list[str], cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=COMMAND_TIMEOUT)
    assert result.returncode == 0, f"{' '.join(args)} failed:\n{result.stdout}\n{result.stderr}"
    return result


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """(the clean environment's bin folder, the environment variables to run it with)."""
    work = tmp_path_factory.mktemp("wheel")
    project = work / "project"
    project.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, project / name)
    shutil.copytree(ROOT / "src", project / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    dist = work / "dist"
    build = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(dist), "."]
    run(build, project)
    wheels = list(dist.glob("gamebag-*.whl"))
    assert len(wheels) == 1, wheels
    venv = work / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", str(venv)], work)
    python = venv / "bin" / "python"
    run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "-q", str(wheels[0])], work)
    site = Path(run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"], work).stdout.strip())
    # The project itself is installed in the test environment in editable mode; that install's
    # finder is wired up by a .pth file, which a directory added by a .pth line does not run.
    (site / "borrowed_dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n", encoding="utf-8")
    env = {key: value for key, value in os.environ.items() if not key.startswith("PYTHON")}
    return venv / "bin", env


def test_the_installed_package_is_the_wheel(installed: tuple[Path, dict[str, str]], tmp_path: Path) -> None:
    bin_dir, env = installed
    where = run([str(bin_dir / "python"), "-c", "import gamebag; print(gamebag.__file__)"], tmp_path, env).stdout
    assert Path(where.strip()).is_relative_to(bin_dir.parent), where


@pytest.mark.parametrize("game_id", gamebag.game_ids())
def test_rules_of_every_game_from_the_wheel(
    installed: tuple[Path, dict[str, str]], tmp_path: Path, game_id: str
) -> None:
    bin_dir, env = installed
    env = {**env, "COLUMNS": "200"}
    shown = run([str(bin_dir / "gamebag"), "rules", game_id], tmp_path, env).stdout
    title = gamebag.entry(game_id).game_class.title
    assert title.lower() in shown.lower()
    assert len(shown) > 1000, "the whole rules page is printed"


def test_simulate_and_the_data_files_from_the_wheel(installed: tuple[Path, dict[str, str]], tmp_path: Path) -> None:
    bin_dir, env = installed
    result = run(
        [str(bin_dir / "gamebag"), "simulate", "pig", "--games", "20", "--engine", "rules", "--json"], tmp_path, env
    )
    assert '"games": 20' in result.stdout
    # The shipped learned weights are package data: the agent plays from the wheel alone.
    learned = run(
        [str(bin_dir / "gamebag"), "simulate", "pig", "--agents", "learned,random", "--games", "4"],
        tmp_path,
        env,
    )
    assert "learned" in learned.stdout
    check = (
        "from importlib import resources; import gamebag.agents.equilibrium.tables as t; "
        "web = resources.files('gamebag.web'); static = web / 'static'; "
        "print(len(t.TABLES), sum(1 for _ in (static / 'js').iterdir()), (web / 'templates' / 'index.html').is_file(), "
        "sum(1 for p in (web / 'locale').iterdir() if p.is_dir()), (web / 'locale' / 'web.pot').is_file())"
    )
    found = run([str(bin_dir / "python"), "-c", check], tmp_path, env).stdout.split()
    tables, scripts, index, languages, template = found
    assert int(tables) >= 5 and int(scripts) > 0 and index == "True"
    assert int(languages) >= 5 and template == "True"  # the pages' catalogues, one folder per language


def test_the_database_migrations_from_the_wheel(installed: tuple[Path, dict[str, str]], tmp_path: Path) -> None:
    """The revisions, their environment and the baseline are in the wheel: a new database reaches head."""
    bin_dir, env = installed
    create = "from gamebag.web.store.db import Store; print(Store('sqlite:///web.db').migration.describe())"
    created = run([str(bin_dir / "python"), "-c", create], tmp_path, env).stdout
    head = migrate.head_revision()  # the newest revision of these sources, which the wheel was built from
    assert created.strip() == f"database created at schema revision {head}"
    said = run([str(bin_dir / "gamebag"), "db", "current", "--db", "sqlite:///web.db"], tmp_path, env).stdout
    assert f"revision {head}, the newest" in said
