"""The installed package carries its content: every data file sits in a package that setuptools ships."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


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
