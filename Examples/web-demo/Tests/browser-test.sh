#!/usr/bin/env bash
# Real-browser test of the web demo: builds and starts the server on 127.0.0.1 (free
# port, fast live feed), loads the page in headless Chromium and checks the DOM of the
# page's own window against the server's /snapshot of that window while it scrolls down
# (pages dropped above), while a second tab gets a window of its own, and back up
# (previous pages loaded); then the page grouped by tier, with players moving between
# sections live (see browser_check.py); then starts it again with the feed off and
# checks the endpoints over plain HTTP: HEAD, 405, heartbeats, two windows driven apart
# and back, and closed streams releasing their windows (see http_check.py); windows
# under a fast feed: changes inside a window reach it as batches, changes outside do
# not grow it, never more than maxLoadedRows after a trim (see window_check.py); that
# SIGTERM stops it while streams that stopped reading are stuck (see
# shutdown_check.py); that windows are private: server-made tokens, never listed, not
# taken over, capped, resumed within their grace (see privacy_check.py); last, 200 live windows with fresh /status requests and
# connections that send nothing, with the connection timeouts set short, and every
# window released and freed once the streams close (see load_check.py). Installs
# Chromium with apt-get when it is missing. Exits non-zero on any failure.
#
#   Examples/web-demo/Tests/browser-test.sh [--screenshot FILE.png] [--grouped-screenshot FILE.png]
#
# WEB_DEMO_SCRATCH overrides the build folder (default Examples/web-demo/.build-web).
set -euo pipefail
tests=$(cd "$(dirname "$0")" && pwd)
demo=$(dirname "$tests")
scratch=${WEB_DEMO_SCRATCH:-$demo/.build-web}

chromium=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chromium" ]; then
    echo "browser-test: installing chromium"
    if ! apt-get install -y chromium >/dev/null 2>&1; then
        apt-get update >/dev/null
        apt-get install -y chromium >/dev/null
    fi
    chromium=$(command -v chromium)
fi

swift build --package-path "$demo" --scratch-path "$scratch" --product web-demo
server=$(swift build --package-path "$demo" --scratch-path "$scratch" --show-bin-path)/web-demo

work=$(mktemp -d)
server_pid=
cleanup() {
    if [ -n "$server_pid" ]; then
        kill -TERM "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

# start_server ARGS... : starts the demo on a free port; sets $server_pid and $url.
start_server() {
    "$server" --port 0 "$@" >"$work/server.out" 2>"$work/server.err" &
    server_pid=$!
    url=
    for _ in $(seq 1 300); do
        url=$(grep -o 'http://127\.0\.0\.1:[0-9]*/' "$work/server.out" || true)
        [ -n "$url" ] && return 0
        if ! kill -0 "$server_pid" 2>/dev/null; then
            echo "browser-test: the server exited:" >&2
            cat "$work/server.err" >&2
            exit 1
        fi
        sleep 0.1
    done
    echo "browser-test: the server did not print its URL within 30 s" >&2
    exit 1
}

stop_server() {
    kill -TERM "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
    server_pid=
}

start_server --feed-interval 40 --page-latency 100 --resume-grace 5000
echo "browser-test: server at $url, browser $("$chromium" --version 2>/dev/null | head -n 1)"

if ! timeout 300 python3 "$tests/browser_check.py" --url "$url" --chromium "$chromium" "$@"; then
    echo "browser-test: server log:" >&2
    tail -n 20 "$work/server.err" >&2
    exit 1
fi
stop_server

# The endpoints without a browser, on a quiet list with a short heartbeat.
start_server --feed-interval 0 --heartbeat 200 --page-latency 50 --resume-grace 1000
echo "browser-test: HTTP checks at $url"
if ! timeout 120 python3 "$tests/http_check.py" --url "$url"; then
    echo "browser-test: server log:" >&2
    tail -n 20 "$work/server.err" >&2
    exit 1
fi
stop_server

# Windows are private: tokens, the takeover sequence, caps, resume (see privacy_check.py).
echo "browser-test: privacy check"
timeout 300 python3 "$tests/privacy_check.py" --server "$server"

# Windows under a fast feed: what reaches a window, and what does not.
echo "browser-test: window check"
timeout 300 python3 "$tests/window_check.py" --server "$server"

# Stopping while browsers that stopped reading hold their streams open.
echo "browser-test: shutdown check"
timeout 600 python3 "$tests/shutdown_check.py" --server "$server"

# Load: 200 streams, each with its own window, on the demo's 250 ms feed for 10 s,
# while /status is asked 20 times a second and connections that send nothing or half
# a request are closed by 1.5 s timeouts; then every window must be released and freed.
# (Every window is its own list: an event at the top of the board is 200 list updates
# and 200 encoded batches, not one as with a shared list.)
echo "browser-test: load check"
timeout 150 python3 "$tests/load_check.py" --server "$server" --streams 200 --duration 10 \
    --feed-interval 250 --header-timeout 1500 --idle-timeout 1500
