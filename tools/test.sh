#!/usr/bin/env bash
# `npm test`: the unit tier as one jest run (jest.unit.config.ts: every project's `*.spec.ts`, the
# same 97 files `nx run-many -t test` runs, for a third of the CPU: jest starts once, not once per
# project), then every project's integration and end-to-end tiers through Nx, two tasks at a time
# (decision 0017). Arguments go to Nx (CI passes --skip-nx-cache). The second part runs even when
# the first fails, so one run reports every failure.
set -uo pipefail
cd "$(dirname "$0")/.."
status=0
npx jest -c jest.unit.config.ts || status=$?
npx nx run-many -t test-int test-e2e --parallel=2 --outputStyle=stream "$@" || status=$?
exit "$status"
