#!/usr/bin/env bash
# The Python module's tests (docs/python.md), as CI runs them after the Rust
# tests: the module built once as an abi3 manylinux wheel (`maturin build
# --release`, from a build venv with maturin), that wheel installed into a
# fresh virtual environment by a pip that sees no Rust toolchain (no cargo,
# rustc or rustup on its PATH: checked), with pytest, numpy, open_spiel and
# mypy; Nine Men's Morris tables up to 8 stones, a lint of the module crate,
# the type checks (mypy.stubtest of the compiled module against its stub,
# mypy of the package), then pytest against the installed wheel.
#
#   scripts/python-tests.sh            # build venv target/py-venv, test venv target/py-wheel-venv,
#                                      # wheel in target/wheels/ci, tables in target/py-tables
#   PY_VENV=DIR PY_TABLES=DIR scripts/python-tests.sh
#
# Needs python3 with venv (installed with apt-get when missing and root).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
venv=${PY_VENV:-target/py-venv}
tables=${PY_TABLES:-target/py-tables}
wheels=target/wheels/ci
testenv=target/py-wheel-venv
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
"$py" -m pip install -q "maturin>=1.5,<2"

# The command-line binary (already built by `cargo test --release`) and the
# small tables.
cargo build --release -p solver
if [ ! -f "$tables/.complete-8" ]; then
    started=$(date +%s)
    target/release/solver nine generate --max-stones 8 --dir "$tables" --quiet
    touch "$tables/.complete-8"
    echo "python-tests: tables up to 8 stones generated in $(($(date +%s) - started)) s"
fi

# The lint, then the one build of the module: an abi3 wheel (pyo3's
# abi3-py39 feature) that maturin audits and tags manylinux.
started=$(date +%s)
export PYO3_PYTHON="$py"
cargo clippy -p mill-solver-python -- -D warnings
rm -rf "$wheels"
"$venv/bin/maturin" build --release --strip --quiet -m solver/python/Cargo.toml --out "$wheels"
wheel=$(ls "$wheels"/mill_solver-*.whl)
case "$(basename "$wheel")" in
    *-abi3-manylinux*) ;;
    *) echo "python-tests: $wheel is not an abi3 manylinux wheel" >&2; exit 1 ;;
esac
echo "python-tests: lint and wheel build took $(($(date +%s) - started)) s: $(basename "$wheel") ($(du -k "$wheel" | cut -f1) KiB)"

# A fresh venv, the wheel installed by a pip that cannot see a Rust
# toolchain: every PATH entry holding cargo, rustc or rustup is dropped, and
# the install fails if any of them is still found.
started=$(date +%s)
rm -rf "$testenv"
"$py" -m venv "$testenv"
testenv=$(cd "$testenv" && pwd)
norust=$testenv/bin
IFS=: read -r -a dirs <<< "$PATH"
for d in "${dirs[@]}"; do
    if [ -n "$d" ] && [ ! -e "$d/cargo" ] && [ ! -e "$d/rustc" ] && [ ! -e "$d/rustup" ]; then
        norust=$norust:$d
    fi
done
env -u PYO3_PYTHON -u CARGO -u RUSTC -u CARGO_HOME -u RUSTUP_HOME PATH="$norust" bash -c '
    set -euo pipefail
    for tool in cargo rustc rustup; do
        if command -v "$tool" >/dev/null; then
            echo "python-tests: $tool is on the install PATH" >&2
            exit 1
        fi
    done
    echo "python-tests: installing $(basename "$1") with no cargo, rustc or rustup on PATH"
    "$2/bin/python" -m pip install -q --upgrade pip
    "$2/bin/python" -m pip install -q --only-binary mill-solver "$1" pytest open_spiel mypy
' install "$wheel" "$testenv"
tpy="$testenv/bin/python"
echo "python-tests: fresh venv with the wheel in $(($(date +%s) - started)) s"

# Run from outside the source tree, so that the installed module is imported
# (and type-checked).
cd "$root/target"
started=$(date +%s)
"$tpy" -c 'import mill_solver, sys; f = mill_solver._native.__file__; print("python-tests: testing", f); sys.exit(0 if "site-packages" in f and f.endswith(".abi3.so") else 1)'
"$tpy" -m mypy.stubtest mill_solver._native
"$tpy" -m mypy --config-file "$root/solver/python/pyproject.toml" -p mill_solver
echo "python-tests: stubtest and mypy took $(($(date +%s) - started)) s"
set +e
SOLVER_BIN="$root/target/release/solver" MILL_SOLVER_TABLES="$tables" \
    "$tpy" -m pytest -q -rs "$root/solver/python/tests"
status=$?
set -e
if [ "$status" = 5 ]; then
    echo "python-tests: pytest collected no tests" >&2
    exit 1
fi
exit "$status"
