"""The installed package carries its content: every data file sits in a package that setuptools ships."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_content_file_is_package_data():
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "*.toml" in pyproject["tool"]["setuptools"]["package-data"]["*"]
    included = pyproject["tool"]["setuptools"]["packages"]["find"]["include"]
    content = list((ROOT / "domain").rglob("*.toml"))
    assert content, "no content files found"
    for path in content:
        assert (path.parent / "__init__.py").is_file(), f"{path} is not inside a package"
        top = path.relative_to(ROOT).parts[0]
        assert f"{top}*" in included


def test_the_console_script_points_at_the_cli():
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert pyproject["project"]["scripts"]["nightkeep"] == "cli.main:main"
    from cli.main import main

    assert callable(main)


def test_the_package_has_an_spdx_license_and_its_license_file():
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert pyproject["project"]["license"] == "MIT"
    assert pyproject["project"]["license-files"] == ["LICENSE"]
    assert "MIT License" in (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert any(c.startswith("Topic :: Games") for c in pyproject["project"]["classifiers"])


def test_python_dash_m_nightkeep_is_the_command_line():
    import subprocess
    import sys

    result = subprocess.run(
        [sys.executable, "-m", "nightkeep", "--version"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert result.returncode == 0 and "nightkeep, version" in result.stdout


def test_the_sdist_carries_what_its_tests_need(tmp_path):
    import tarfile

    from build import ProjectBuilder

    sdist = Path(ProjectBuilder(ROOT).build("sdist", tmp_path))
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    needed = {
        "LICENSE",
        "docs/replay-format.md",
        "docs/events.md",
        "docs/play-by-email.md",
        "tests/conftest.py",
    }
    assert needed <= names
    assert {f"replays/{p.name}" for p in (ROOT / "replays").glob("*.nkr")} <= names
    assert not [n for n in names if n.endswith((".sqlite", ".pyc"))]
