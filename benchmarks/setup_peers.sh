#!/usr/bin/env bash
# Creates the virtual environment the benchmarks run CodeBLEU in. CodeBLEU 0.7.0 pins
# tree-sitter < 0.23 and old grammar wheels, which cannot live beside ruby-metric's
# tree-sitter >= 0.25, so it gets a venv of its own (default: benchmarks/.peers).
set -euo pipefail
target="${1:-$(dirname "$0")/.peers}"
python3 -m venv "$target"
"$target/bin/pip" install --quiet "tree-sitter>=0.22,<0.23" "tree-sitter-java~=0.21.0" \
    "tree-sitter-c-sharp~=0.21.0" "tree-sitter-python~=0.21.0" setuptools
# --no-deps: its "all" extra pulls grammar sdists that download from the network at build time.
"$target/bin/pip" install --quiet --no-deps codebleu==0.7.0
echo "CodeBLEU peer ready: $target/bin/python"
