#!/usr/bin/env bash
# A private PostgreSQL cluster for the web demo and its checks, from Debian's
# `postgresql` package (installed when missing).
#
#   Scripts/postgres.sh start   # initdb (first time), start; the URL is the last line
#   Scripts/postgres.sh stop    # stop it (the data folder is kept)
#   Scripts/postgres.sh url     # print the URL again
#
# The server runs as the `postgres` user (PostgreSQL refuses root), listens on
# 127.0.0.1:$PGPORT only (default 55432; checks on a busy machine pick one below
# 32768, outside the ports Linux gives outgoing connections) with trust authentication, and keeps its data
# in $PGDATA_DIR (default a folder made under the temp folder, remembered between
# start and stop in $TMPDIR/listengine-postgres-$PGPORT). It makes the database
# `listengine`.
set -euo pipefail

port=${PGPORT:-55432}
state=${TMPDIR:-/tmp}/listengine-postgres-$port
database=listengine
url="postgres://postgres@127.0.0.1:$port/$database"

die() { echo "postgres.sh: $*" >&2; exit 1; }

# as_postgres CMD...: runs CMD as the postgres user (or as is, when not root).
as_postgres() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

bin_dir() {
    local dir
    dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
    if [ -z "$dir" ] || [ ! -x "$dir/pg_ctl" ]; then
        [ "$(id -u)" = 0 ] || die "PostgreSQL is not installed: apt-get install postgresql"
        echo "postgres.sh: installing postgresql" >&2
        if ! DEBIAN_FRONTEND=noninteractive apt-get install -y postgresql >/dev/null 2>&1; then
            apt-get update >/dev/null
            DEBIAN_FRONTEND=noninteractive apt-get install -y postgresql >/dev/null
        fi
        dir=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
    fi
    echo "$dir"
}

data_dir() {
    if [ -n "${PGDATA_DIR:-}" ]; then echo "$PGDATA_DIR"; return; fi
    if [ -f "$state" ]; then cat "$state"; return; fi
    local dir
    dir=$(mktemp -d "${TMPDIR:-/tmp}/listengine-pgdata-XXXXXX")
    echo "$dir" >"$state"
    echo "$dir"
}

start() {
    local bin data
    bin=$(bin_dir)
    data=$(data_dir)
    mkdir -p "$data"
    if [ "$(id -u)" = 0 ]; then
        id postgres >/dev/null 2>&1 || die "no postgres user: is the postgresql package installed?"
        chown postgres "$data"
        chmod 700 "$data"
    fi
    if [ ! -f "$data/PG_VERSION" ]; then
        as_postgres "$bin/initdb" -D "$data" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 >"$data.initdb.log" 2>&1 \
            || { cat "$data.initdb.log" >&2; die "initdb failed"; }
    fi
    if ! as_postgres "$bin/pg_ctl" -D "$data" status >/dev/null 2>&1; then
        # The default port lies in Linux's range of ports for outgoing connections, so a
        # busy machine's client socket can hold it for a moment: try a few times.
        local try
        for try in 1 2 3 4 5 6; do
            if as_postgres "$bin/pg_ctl" -D "$data" -l "$data/server.log" -w -t 60 \
                -o "-c listen_addresses=127.0.0.1 -p $port -c unix_socket_directories=$data -c max_connections=200" start >/dev/null; then
                break
            fi
            if [ "$try" = 6 ] || ! grep -q "Address already in use" "$data/server.log"; then
                tail -n 20 "$data/server.log" >&2
                die "the server did not start"
            fi
            echo "postgres.sh: port $port is busy; trying again in 5 s" >&2
            sleep 5
        done
    fi
    local psql="$bin/psql"
    if ! as_postgres "$psql" -h 127.0.0.1 -p "$port" -U postgres -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = '$database'" | grep -q 1; then
        as_postgres "$psql" -h 127.0.0.1 -p "$port" -U postgres -d postgres -qc "CREATE DATABASE $database" >/dev/null
    fi
    echo "$url"
}

stop() {
    local bin data
    bin=$(bin_dir)
    if [ -n "${PGDATA_DIR:-}" ]; then data=$PGDATA_DIR; elif [ -f "$state" ]; then data=$(cat "$state"); else
        echo "postgres.sh: no cluster started on port $port"; return 0
    fi
    if as_postgres "$bin/pg_ctl" -D "$data" status >/dev/null 2>&1; then
        as_postgres "$bin/pg_ctl" -D "$data" -m fast -w stop >/dev/null
    fi
    echo "postgres.sh: stopped (data in $data)"
}

case "${1:-}" in
    start) start ;;
    stop) stop ;;
    url) echo "$url" ;;
    *) die "usage: postgres.sh start|stop|url" ;;
esac
