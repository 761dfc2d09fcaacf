#!/usr/bin/env bash
# The Python module's tests (docs/python.md), as CI runs them after the Rust
# tests: a virtual environment with maturin, pytest, numpy, open_spiel and
# mypy, Nine Men's Morris tables up to 8 stones, a lint of the module crate,
# the module installed from this clone (`pip install ./solver/python`), the
# type checks (mypy.stubtest of the compiled module against its stub, mypy
# of the package), then pytest.
#
#   scripts/python-tests.sh            # venv in target/py-venv, tables in target/py-tables
#   PY_VENV=DIR PY_TABLES=DIR scripts/python-tests.sh
#
# Needs python3 with venv (installed with apt-get when missing and root).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
venv=${PY_VENV:-target/py-venv}
tables=${PY_TABLES:-target/py-tables}
mkdir -p "$tables"
tables=$(cd "$tables" && pwd)

if ! python3 -c 'import venv, ensurepip' 2>/dev/null; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        apt-get update -qq && apt-get install -y -qq python3-venv python3-pip >/dev/null
    else
        echo "python-tests: python3 with the venv module is needed" >&2
        exit 1
    fi
fi
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
venv=$(cd "$venv" && pwd)
py="$venv/bin/python"
"$py" -m pip install -q --upgrade pip
"$py" -m pip install -q "maturin>=1.5,<2" pytest numpy open_spiel mypy

# The command-line binary (already built by `cargo test --release`) and the
# small tables, before the module's build replaces the release library.
cargo build --release -p solver
if [ ! -f "$tables/.complete-8" ]; then
    started=$(date +%s)
    target/release/solver nine generate --max-stones 8 --dir "$tables" --quiet
    touch "$tables/.complete-8"
    echo "python-tests: tables up to 8 stones generated in $(($(date +%s) - started)) s"
fi

started=$(date +%s)
export PYO3_PYTHON="$py"
cargo clippy -p mill-solver-python -- -D warnings
"$py" -m pip install -q --force-reinstall --no-deps ./solver/python
echo "python-tests: lint and build of the module took $(($(date +%s) - started)) s"

# Run from outside the source tree, so that the installed module is imported
# (and type-checked).
cd "$root/target"
started=$(date +%s)
"$py" -m mypy.stubtest mill_solver._native
"$py" -m mypy --config-file "$root/solver/python/pyproject.toml" -p mill_solver
echo "python-tests: stubtest and mypy took $(($(date +%s) - started)) s"
set +e
SOLVER_BIN="$root/target/release/solver" MILL_SOLVER_TABLES="$tables" \
    "$py" -m pytest -q -rs "$root/solver/python/tests"
status=$?
set -e
if [ "$status" = 5 ]; then
    echo "python-tests: pytest collected no tests" >&2
    exit 1
fi
exit "$status"
