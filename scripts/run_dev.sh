#!/usr/bin/env bash
# `make run`: the development server and the background jobs' worker (manage.py db_worker, see
# scorekeeper/jobs) in one command, both reloading on code changes. The worker waits out a
# database restart by itself; should it exit all the same, it is started again after
# WORKER_RESTART_DELAY seconds (2). Beside them, the live pages' streams (uvicorn through
# scorekeeper/web/live/serve.py) on LIVE_PORT (8001): runserver is WSGI, so the pages open their
# streams there (a cross-origin stream that settings.py's CSP allows); without it they poll.
# Ctrl-C stops all three.
set -u
PY="${PY:-.venv/bin/python}"
ADDRESS="${ADDRESS:-127.0.0.1:8000}"
export LIVE_PORT="${LIVE_PORT:-8001}"
DELAY="${WORKER_RESTART_DELAY:-2}"

# The worker, started again whenever it exits, until this script stops it (SIGTERM).
keep_worker() {
    local child=""
    trap '[ -n "$child" ] && kill -TERM "$child" 2>/dev/null; wait "$child" 2>/dev/null; exit 0' TERM
    while true; do
        "$PY" manage.py db_worker --reload &
        child=$!
        wait "$child"
        echo "The jobs' worker stopped (exit $?): starting it again in $DELAY s." >&2
        sleep "$DELAY" &
        child=$!
        wait "$child"
    done
}
keep_worker &
worker=$!
"$PY" -m scorekeeper.web.live.serve --bind "${ADDRESS%:*}:$LIVE_PORT" &
streams=$!
stop() {
    trap - INT TERM EXIT
    kill -TERM "$worker" "$streams" 2>/dev/null
    wait "$worker" "$streams" 2>/dev/null
}
trap stop INT TERM EXIT
"$PY" manage.py runserver "$ADDRESS"
