"""Fixtures of the mill_solver tests: the `solver` binary and small tables.

`SOLVER_BIN` names the command-line binary (default: target/release/solver
of this repository); `MILL_SOLVER_TABLES` a directory with the Nine Men's
Morris tables up to 8 stones (`solver nine generate --max-stones 8`); when
it is not set the tables are generated into a temporary directory (about
20 s on two cores).
"""

import json
import os
import pathlib
import subprocess

import pytest

import mill_solver as ms

REPO = pathlib.Path(__file__).resolve().parents[3]


@pytest.fixture(scope="session")
def solver_bin() -> pathlib.Path:
    path = pathlib.Path(os.environ.get("SOLVER_BIN", REPO / "target" / "release" / "solver"))
    if not path.is_file():
        pytest.fail(f"{path}: no solver binary (cargo build --release -p solver, or set SOLVER_BIN)")
    return path


@pytest.fixture(scope="session")
def tables_dir(solver_bin, tmp_path_factory) -> pathlib.Path:
    given = os.environ.get("MILL_SOLVER_TABLES")
    if given:
        return pathlib.Path(given)
    path = tmp_path_factory.mktemp("tables")
    subprocess.run(
        [solver_bin, "nine", "generate", "--max-stones", "8", "--dir", path, "--quiet"],
        check=True,
    )
    return path


@pytest.fixture(scope="session")
def tables(tables_dir) -> ms.Tablebases:
    return ms.Tablebases(tables_dir)


def run_cli(solver_bin, *args):
    """Run the CLI: (exit status, stdout, stderr)."""
    done = subprocess.run([solver_bin, *map(str, args)], capture_output=True, text=True)
    return done.returncode, done.stdout, done.stderr


def cli_error(solver_bin, *args) -> str:
    """The one-line error of a failing CLI command, without `error: `."""
    code, _, err = run_cli(solver_bin, *args)
    assert code != 0, f"solver {' '.join(map(str, args))} did not fail"
    line = err.strip().splitlines()[-1]
    assert line.startswith("error: "), line
    return line[len("error: "):]


def cli_json(solver_bin, *args):
    code, out, err = run_cli(solver_bin, *args)
    assert code == 0, err
    return json.loads(out)
