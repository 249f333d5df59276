#!/usr/bin/env bash
# `make run`: the development server and the background jobs' worker (manage.py db_worker, see
# scorekeeper/jobs) in one command, both reloading on code changes. The worker waits out a
# database restart by itself; should it exit all the same, it is started again after
# WORKER_RESTART_DELAY seconds (2). Ctrl-C stops both.
set -u
PY="${PY:-.venv/bin/python}"
ADDRESS="${ADDRESS:-127.0.0.1:8000}"
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
stop() {
    trap - INT TERM EXIT
    kill -TERM "$worker" 2>/dev/null
    wait "$worker" 2>/dev/null
}
trap stop INT TERM EXIT
"$PY" manage.py runserver "$ADDRESS"
