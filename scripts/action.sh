#!/usr/bin/env bash
# The step of action.yml: installs blocktrace (a release executable, or this action's own checkout
# run with Node) and runs `blocktrace check` on the inputs in the workspace. The report goes to the
# log (with --reporter github its ::error lines become annotations), its last line to the step's
# outputs and summary; the exit status is check's (1 when a golden differs).
set -uo pipefail
: "${GITHUB_ACTION_PATH:?}" "${GITHUB_WORKSPACE:?}" "${INPUT_FIXTURE:?}" "${INPUT_GOLDENS:?}"
if [ -n "${INPUT_BINARY_URL:-}" ]; then
  bin="${RUNNER_TEMP:-/tmp}/blocktrace"
  curl -fsSL "$INPUT_BINARY_URL" -o "$bin" || { echo "::error title=blocktrace::cannot download $INPUT_BINARY_URL"; exit 2; }
  chmod +x "$bin"
  blocktrace=("$bin")
else
  if [ ! -e "$GITHUB_ACTION_PATH/node_modules/.bin/bun" ]; then
    (cd "$GITHUB_ACTION_PATH" && npm ci --no-audit --no-fund >/dev/null) || { echo "::error title=blocktrace::npm ci in the action's checkout failed"; exit 2; }
  fi
  blocktrace=(node "$GITHUB_ACTION_PATH/bin/blocktrace.mjs")
fi
cd "$GITHUB_WORKSPACE" || exit 2
read -r -a goldens <<< "$INPUT_GOLDENS"
read -r -a extra <<< "${INPUT_ARGS:-}"
report=$(mktemp)
"${blocktrace[@]}" check "$INPUT_FIXTURE" "${goldens[@]}" --reporter "${INPUT_REPORTER:-github}" "${extra[@]}" | tee "$report"
status=${PIPESTATUS[0]}
summary=$(tail -n 1 "$report")
rm -f "$report"
[ -n "${GITHUB_OUTPUT:-}" ] && echo "summary=$summary" >> "$GITHUB_OUTPUT"
[ -n "${GITHUB_STEP_SUMMARY:-}" ] && echo "**blocktrace check**: $summary" >> "$GITHUB_STEP_SUMMARY"
exit "$status"
