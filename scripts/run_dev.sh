#!/usr/bin/env bash
# `make run`: the development server and the background jobs' worker (manage.py db_worker, see
# scorekeeper/jobs) in one command, both reloading on code changes. Ctrl-C stops both.
set -u
PY="${PY:-.venv/bin/python}"
ADDRESS="${ADDRESS:-127.0.0.1:8000}"

"$PY" manage.py db_worker --reload &
worker=$!
stop() {
    trap - INT TERM EXIT
    kill -TERM "$worker" 2>/dev/null
    wait "$worker" 2>/dev/null
}
trap stop INT TERM EXIT
"$PY" manage.py runserver "$ADDRESS"
