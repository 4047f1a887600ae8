"""The README's test command is one script that CI runs too (tests/run.sh): it installs every system
package the tests need where missing, and the README names each of them."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "tests" / "run.sh"


def readme_blocks() -> list[str]:
    return re.findall(r"```sh\n(.*?)```", (REPO / "README.md").read_text(), flags=re.S)


def test_the_readme_test_command_is_the_script_and_ci_runs_exactly_it():
    # One block of the README runs tests, and CI runs that very line.
    (command,) = [b for b in readme_blocks() if "pytest" in b or "tests/run.sh" in b]
    assert command == "bash tests/run.sh\n"
    ci = (REPO / ".ci" / "run").read_text().splitlines()
    assert command.strip() in ci
    # The checks CI adds after the tests run in the environment the script made.
    assert ci.index("bash tests/run.sh") < ci.index(". .venv/bin/activate") < ci.index("mypy")


def test_every_package_the_script_installs_is_named_in_the_readme():
    script = SCRIPT.read_text()
    installed = set(re.findall(r"missing\+=\(([^)]*)\)", script))
    packages = {p for group in installed for p in group.split()}
    assert {"dovecot-core", "dovecot-imapd", "postgresql", "chromium", "libcairo2", "sqlite3"} <= packages
    readme = (REPO / "README.md").read_text()
    for package in packages:
        assert f"`{package}`" in readme, package
    assert "Citus" in readme and "NIGHTKEEP_CITUS_SOURCE" in readme and "root" in readme


def test_the_script_is_valid_bash_and_hands_its_arguments_to_pytest():
    assert subprocess.run(["bash", "-n", str(SCRIPT)], capture_output=True).returncode == 0
    assert SCRIPT.read_text().rstrip().endswith('exec python -m pytest "$@"')
