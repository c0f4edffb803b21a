#!/bin/sh
# tests/python/run.sh - the Python package's tests (make check-python): a
# fresh virtual environment, the wheel built from this checkout (python -m
# build, through the Makefile) and installed in it with the [tpu] extra,
# then pytest on tests/python against the installed package.  Without the
# package index the venv cannot get pytest: one line says so and it exits
# 0; without jax/libtpu only the JAX tests skip (pytest says which).
set -u
cd "$(dirname "$0")/../.." || exit 2
VENV=build/py-venv
PY=$VENV/bin/python
LOG=build/py-venv.log
mkdir -p build
rm -rf "$VENV" build/dist
python3 -m venv "$VENV" >"$LOG" 2>&1 || { cat "$LOG"; echo "check-python: FAILED: python3 -m venv"; exit 1; }
if ! $PY -m pip install -q --disable-pip-version-check pytest build "setuptools>=68" wheel >>"$LOG" 2>&1; then
	echo "check-python: skipped: cannot install pytest from the package index ($(tail -n 1 "$LOG"))"
	exit 0
fi
# The wheel, as a user's `python -m build` makes it (no isolation: the
# venv has setuptools; the build runs make).
if ! $PY -m build --wheel --no-isolation --outdir build/dist . >>"$LOG" 2>&1; then
	tail -n 30 "$LOG"; echo "check-python: FAILED: python -m build --wheel"; exit 1
fi
whl=$(ls build/dist/hlolint-*.whl)
echo "check-python: built $whl"
if ! $PY -m pip install -q --disable-pip-version-check "$whl[tpu]" >>"$LOG" 2>&1; then
	echo "check-python: note: $whl[tpu] did not install ($(tail -n 1 "$LOG")); the JAX tests will skip"
	$PY -m pip install -q --disable-pip-version-check "$whl" >>"$LOG" 2>&1 || \
		{ tail -n 30 "$LOG"; echo "check-python: FAILED: pip install $whl"; exit 1; }
fi
# Run from tests/python so that python/ of the checkout is never imported.
cd tests/python && exec ../../$PY -m pytest -q -p no:cacheprovider -rs .
