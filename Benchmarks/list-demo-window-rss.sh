#!/usr/bin/env bash
# Resident memory of `list-demo --players N` in a real terminal (tmux), read from
# /proc/PID/status: after the first page, after G (the last players), after scrolling
# PAGES pages up from there, and after g and PAGES pages down from the first players.
# The live feed runs throughout (score changes through the window).
#
#   Benchmarks/list-demo-window-rss.sh [PLAYERS] [PAGES]     # defaults: 1000000 900
#
# Builds list-demo in release. Prints one line per point: the loaded rows the status line
# names, VmRSS and VmHWM (peak) in MiB.
set -euo pipefail
cd "$(dirname "$0")/.."
players=${1:-1000000}
pages=${2:-900}
page_size=50

swift build -c release --product list-demo >&2
demo="$(swift build -c release --show-bin-path)/list-demo"
command -v tmux >/dev/null || { echo "tmux is needed" >&2; exit 1; }

tmp=$(mktemp -d)
socket="window-rss-$$"
trap 'tmux -L "$socket" kill-server >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
tmux -L "$socket" new-session -d -s rss -x 100 -y 24 \
    "sh -c 'echo \$\$ > $tmp/pid; exec \"$demo\" --players $players --latency 0 --page-size $page_size'"
for _ in $(seq 100); do [[ -s $tmp/pid ]] && break; sleep 0.1; done
pid=$(cat "$tmp/pid")

screen() { tmux -L "$socket" capture-pane -p -t rss; }
keys() { tmux -L "$socket" send-keys -t rss "$@"; }
# The loaded rows as "A B" (1-based ranks), from "rows A–B of N loaded".
loaded() { screen | grep -Eo 'rows [0-9,]+–[0-9,]+ of' | tail -1 | sed -E 's/rows //; s/ of//; s/,//g; s/–/ /'; }
mib() { awk -v key="$1" '$1 == key":" { printf "%.1f", $2 / 1024 }' "/proc/$pid/status"; }
report() {
    sleep 1
    printf '%-34s rows %-22s VmRSS %6s MiB   VmHWM %6s MiB\n' "$1" "$(loaded | tr ' ' '-')" "$(mib VmRSS)" "$(mib VmHWM)"
}
# scroll KEY UNTIL-TEST : presses KEY in bursts until UNTIL-TEST (given "A B") succeeds.
scroll() {
    local key=$1; shift
    local rows
    for _ in $(seq 20000); do
        rows=$(loaded)
        [[ -n $rows ]] && "$@" $rows && return 0
        keys "$key" "$key" "$key" "$key" "$key"
        sleep 0.03
    done
    echo "scrolling with $key did not get there (rows $rows)" >&2
    exit 1
}

for _ in $(seq 100); do [[ -n $(loaded) ]] && break; sleep 0.1; done
report "after the first page"
keys G
grouped=$(rev <<<"$players" | sed -E 's/([0-9]{3})/\1,/g; s/,$//' | rev)
for _ in $(seq 100); do screen | grep -qF "$grouped/$grouped" && break; sleep 0.1; done
report "after G"
target_up=$((players - pages * page_size))
reached_up() { (( $1 <= target_up )); }
scroll PPage reached_up
report "after $pages pages up from the end"
keys g
sleep 1
target_down=$((pages * page_size))
reached_down() { (( $2 >= target_down )); }
scroll NPage reached_down
report "after g and $pages pages down"
keys q
