#!/usr/bin/env bash
# Long mode of the random differential tester (tests/differential.rs):
#   tools/differential.sh [CASES] [SEED]     (defaults: 100000 cases, seed 7)
# Runs in the release profile; counts by class go to stdout at the end;
# minimised reproducers of failures go to tests/regressions/pending/
# (override with POLYC_DIFF_OUT). The log is kept in target/differential.log.
set -euo pipefail
cd "$(dirname "$0")/.."
cases="${1:-100000}"
seed="${2:-7}"
export POLYC_DIFF_CASES="$cases" POLYC_DIFF_SEED="$seed"
export POLYC_DIFF_OUT="${POLYC_DIFF_OUT:-tests/regressions/pending}"
cargo test --release --test integration differential::random -- --nocapture 2>&1 \
  | tee target/differential.log
