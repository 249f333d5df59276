#!/usr/bin/env bash
# The front-end's tools (docs/testing.md): ESLint, TypeScript, the JS tests' helpers, pinned in
# package.json and package-lock.json and fetched from the npm registry into node_modules/
# (git-ignored, never served), as scripts/fetch_pyodide.py fetches Pyodide. Run by make:
#
#   scripts/js_tools.sh install      npm ci (make runs it when package*.json change)
#   scripts/js_tools.sh run CMD...   CMD with the tools on its PATH (eslint, tsc, node --test)
#
# Without Node.js, or without the packages (no network at set-up): in CI (CI set) an error, and
# the run fails; elsewhere a warning, and that JavaScript step is skipped (a laptop without
# signal still runs the Python side). `make node-tools` tries the fetch again.
set -euo pipefail
cd "$(dirname "$0")/.."

STAMP=node_modules/.installed
NEEDED=20.19  # package.json's engines: ESLint 10's own floor

# $1: what is missing, $2: what it stops, $3: what to do.
missing() {
  if [ -n "${CI:-}" ]; then
    echo "error: $1: $2 cannot run. $3" >&2
    exit 1
  fi
  echo "warning: $1: $2 is skipped. $3" >&2
  exit 0
}

node_ok() {
  command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 \
    && node -e "const [a, b] = process.versions.node.split('.').map(Number); const [x, y] = '$NEEDED'.split('.').map(Number); process.exit(a > x || (a === x && b >= y) ? 0 : 1)"
}

case "${1:-}" in
  install)
    node_ok || missing "Node.js $NEEDED or newer and npm are not on PATH (found: $(node --version 2>/dev/null || echo none))" \
      "the JavaScript lint, type check and tests" "Install Node.js (and npm), then: make node-tools"
    # --ignore-scripts: no package runs code at install (none needs to); --prefer-offline: the
    # npm cache first (the lock file pins each version and its hash).
    if ! npm ci --ignore-scripts --prefer-offline --no-audit --no-fund --loglevel=error; then
      missing "the front-end's tools were not fetched from the npm registry (npm ci failed: no network?)" \
        "the JavaScript lint, type check and tests" "Retry: make node-tools"
    fi
    touch "$STAMP"
    ;;
  run)
    shift
    node_ok || missing "Node.js $NEEDED or newer is not on PATH" "'$*'" "Install Node.js, then: make node-tools"
    [ -f "$STAMP" ] || missing "the front-end's tools are not installed (node_modules/)" "'$*'" "Fetch them: make node-tools"
    echo "$*"
    PATH="$PWD/node_modules/.bin:$PATH" exec "$@"
    ;;
  *)
    echo "usage: scripts/js_tools.sh install | run CMD [ARGS...]" >&2
    exit 2
    ;;
esac
