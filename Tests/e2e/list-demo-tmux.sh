#!/usr/bin/env bash
# End-to-end test of list-demo in a real terminal: tmux runs it at a fixed size,
# send-keys types, capture-pane reads the screen.
#
#   Tests/e2e/list-demo-tmux.sh [PATH-TO-list-demo]
#
# Without an argument it builds list-demo (swift build) and uses that binary.
# Checks: plain frames carry no escape codes; --walkthrough prints the same lines in the
# same order every run; --url reads the fixture HTTP server
# (Fixtures/server.py) in its three modes; the first screen shows rows sorted by
# score, with a "Loading…" row while the first (slow) page loads and at the end while a
# slow next page loads; scrolling to the end
# (G) loads more pages; `f` makes the next load fail, the error shows, Enter retries;
# `s` re-sorts by name and back; a resize redraws to fit; --group tier shows tier
# headers with their counts (in plain frames too), the current tier's header pinned on
# the first list line while its rows scroll by, and `t` hides and shows them with the
# first visible row kept; `q`, Ctrl-C, SIGTERM, SIGUSR1
# and a crash each leave the alternate screen and restore the terminal modes (icanon,
# echo, isig); Ctrl-Z and SIGTSTP give the terminal back while stopped and take it again
# with a full redraw once continued; from an interactive shell with job control, the demo
# continued (kill -CONT, no fg) or started (&) in the background leaves the terminal to
# the shell (stty -g unchanged, nothing drawn) and takes it back on fg, and after q the
# shell's stty -g is what it was; NO_COLOR=1 removes the colours; --players 1000000
# shows true ranks through a window of at most 1,000 rows, G jumps to the last players,
# PgUp pages back up through previous pages (dropping the far end), g jumps to the first.
# Exits non-zero with a message on the first failure; skips (exit 0) only when tmux
# is not installed.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
demo=${1:-}
if [[ -z $demo ]]; then
    (cd "$root" && swift build --product list-demo >&2)
    demo="$(cd "$root" && swift build --show-bin-path)/list-demo"
fi
[[ -x $demo ]] || { echo "FAIL: no list-demo binary at $demo" >&2; exit 1; }

passed=0
fail() { echo "FAIL: $*" >&2; if [[ -n ${session:-} ]]; then echo "--- screen ---" >&2; screen >&2 || true; fi; exit 1; }
ok() { passed=$((passed + 1)); echo "ok - $*"; }

# --- plain frames (no terminal needed) ---------------------------------------------
plain=$(cd "$root" && "$demo" --frames 2 --rows 12 --columns 70 --latency 0)
[[ $plain != *$'\e'* ]] || fail "plain frames contain escape codes"
[[ $(grep -c '^v[0-9]* · ' <<<"$plain") == 2 ]] || fail "expected 2 plain frames, got: $plain"
ok "--frames prints plain frames without escape codes"

# --- no feed: plain frames stay the same, and no feed file is read ---------------------
for off in --no-feed "--feed-interval 0"; do
    # shellcheck disable=SC2086
    still=$(cd "$root" && "$demo" $off --frames 3 --rows 8 --columns 70 --latency 0) || fail "$off: list-demo failed"
    rows=$(grep '^ *[0-9][0-9]*  ' <<<"$still")
    [[ $(sort <<<"$rows" | uniq -c | awk '{ print $1 }' | sort -u) == 3 ]] || fail "$off: the rows changed between frames: $still"
done
no_feed_dir=$(mktemp -d)
mkdir "$no_feed_dir/leaderboard"
cp "$root/Fixtures/leaderboard/players.json" "$no_feed_dir/leaderboard/"
"$demo" --fixture "$no_feed_dir" --no-feed --frames 1 --rows 8 --columns 70 --latency 0 >/dev/null \
    || { rm -rf "$no_feed_dir"; fail "--no-feed still reads the feed file"; }
rm -rf "$no_feed_dir"
ok "--no-feed and --feed-interval 0 keep plain frames still, without a feed file"

# --- --group tier in plain frames: the tier header is a line of the frame -------------------
grouped=$(cd "$root" && "$demo" --group tier --frames 2 --rows 8 --columns 70 --latency 0) || fail "--group tier: list-demo failed"
[[ $(grep -c '^v[0-9]* · ' <<<"$grouped") == 2 ]] || fail "--group tier: expected 2 plain frames, got: $grouped"
[[ $(grep -c '^Diamond · [0-9]' <<<"$grouped") == 2 ]] || fail "--group tier: no Diamond header in each frame: $grouped"
ok "--group tier: plain frames show the tier header"

# --- an option that takes no value refuses one -------------------------------------------
for flag in --no-tty=false --help=no --walkthrough=no --no-feed=1 --crash-key=0; do
    status=0
    message=$("$demo" "$flag" 2>&1 >/dev/null) || status=$?
    [[ $status == 2 && $message == *"${flag%%=*} takes no value"* ]] || fail "$flag: exit $status, $message"
done
ok "flags given a value with = exit 2 naming the flag"

# --- the walkthrough prints the same lines in the same order every time ----------------
walk=$(cd "$root" && timeout 60 "$demo" --walkthrough) || fail "--walkthrough failed"
[[ $(head -1 <<<"$walk") == "  batch v0 → v0" ]] || fail "--walkthrough does not start with the attach batch: $(head -4 <<<"$walk")"
for _ in 1 2 3; do
    [[ $(cd "$root" && timeout 60 "$demo" --walkthrough) == "$walk" ]] || fail "--walkthrough printed something else on another run"
done
ok "--walkthrough prints its steps and batches in order, the same every run"

# --- --url against the fixture HTTP server (plain frames) ------------------------------
server_out=$(mktemp)
python3 "$root/Fixtures/server.py" --port 0 >"$server_out" &
server_pid=$!
stop_server() { kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; rm -f "$server_out"; }
for _ in $(seq 100); do grep -q LISTENING "$server_out" && break; sleep 0.1; done
server_url=$(sed -n 's/^LISTENING //p' "$server_out")
[[ -n $server_url ]] || { stop_server; fail "the fixture server did not start"; }
for mode in pages offset cursor; do
    frame=$("$demo" --url "$server_url/$mode" --frames 1 --rows 8 --columns 70 --latency 0) || { stop_server; fail "--url $mode: list-demo failed"; }
    grep -q '^    1  HiddenNinja210 ' <<<"$frame" && grep -q '^v1 · 1/50 · ' <<<"$frame" \
        || { stop_server; fail "--url $server_url/$mode: unexpected frame: $frame"; }
done
stop_server
ok "--url loads pages from the fixture server in page, offset and cursor mode"

if ! command -v tmux >/dev/null 2>&1; then
    echo "SKIP: tmux is not installed; the interactive checks of list-demo did not run (apt-get install tmux)"
    echo "$passed passed, 0 failed, 1 skipped"
    exit 0
fi

tmp=$(mktemp -d)
socket="list-demo-e2e-$$"
session=""
cleanup() { tmux -L "$socket" kill-server >/dev/null 2>&1 || true; rm -rf "$tmp"; }
trap cleanup EXIT

# The pane runs this: the demo (its pid in $tmp/pid), then its exit status and the
# terminal modes as the shell sees them afterwards.
cat >"$tmp/run.sh" <<'EOF'
#!/usr/bin/env bash
pidfile=$1; shift
sh -c 'echo $$ > "$1"; shift; exec "$@"' sh "$pidfile" "$@"
echo "DEMO-EXIT rc=$?"
echo "MODES $(stty -a | tr ' ;' '\n\n' | grep -Ex -- '-?(icanon|echo|isig)' | tr '\n' ' ')"
sleep 600
EOF
chmod +x "$tmp/run.sh"

screen() { tmux -L "$socket" capture-pane -p -t "$session"; }
keys() { tmux -L "$socket" send-keys -t "$session" "$@"; }
alternate_on() { tmux -L "$socket" display -p -t "$session" '#{alternate_on}'; }

# wait_for SECONDS COMMAND... : polls until COMMAND succeeds.
wait_for() {
    local deadline=$((SECONDS + $1)); shift
    until "$@"; do
        ((SECONDS < deadline)) || return 1
        sleep 0.1
    done
}

# start NAME ARGS... : runs the demo in a fresh 100×24 pane (with $extra_env, if set).
start() {
    session=$1; shift
    rm -f "$tmp/pid"
    tmux -L "$socket" new-session -d -s "$session" -x 100 -y 24 \
        "cd '$root' && env ${extra_env:-} SWIFT_BACKTRACE=interactive=no,color=no '$tmp/run.sh' '$tmp/pid' '$demo' $*"
    wait_for 10 test -s "$tmp/pid" || fail "$session: the demo did not start"
}

# The rows on screen, checked by a small parser: "rank  name  score  country".
rows_check() {  # rows_check score|name
    screen | python3 -c '
import re, sys
order = sys.argv[1]
rows = []
for line in sys.stdin.read().splitlines():
    m = re.match(r"^\s*(\d+)  (.*?)\s+(\d[\d,]*)  ([A-Z]{2})\s*$", line)
    if m:
        rows.append((int(m.group(1)), m.group(2).strip(), int(m.group(3).replace(",", ""))))
if len(rows) < 15:
    sys.exit(1)
ranks = [r[0] for r in rows]
if ranks != list(range(ranks[0], ranks[0] + len(rows))):
    sys.exit(1)
if order == "score":
    ok = all(a[2] >= b[2] for a, b in zip(rows, rows[1:]))
else:
    names = [r[1].rstrip("…") for r in rows]
    ok = all(a <= b or a.startswith(b) or b.startswith(a) for a, b in zip(names, names[1:]))
sys.exit(0 if ok else 1)
' "$1"
}

row_count() { screen | grep -Eo ' v[0-9]+ · [0-9,]+/[0-9,]+' | tail -1 | sed -E 's/.*\///; s/,//g'; }
count_at_least() { local count; count=$(row_count); [[ -n $count && $count -ge $1 ]]; }
screen_has() { screen | grep -qF -- "$1"; }
screen_lacks() { ! screen | grep -qF -- "$1"; }
is_alternate() { [[ $(alternate_on) == "$1" ]]; }
# sgr_used colors|reverse : whether the screen (with attributes, capture-pane -e) uses
# any foreground or background colour, or reverse video.
sgr_used() {
    tmux -L "$socket" capture-pane -e -p -t "$session" | python3 -c '
import re, sys
codes = set()
for params in re.findall(r"\x1b\[([0-9;]*)m", sys.stdin.read()):
    codes.update(int(p) for p in params.split(";") if p)
wanted = {7} if sys.argv[1] == "reverse" else set(range(30, 38)) | set(range(40, 48)) | set(range(90, 98)) | set(range(100, 108)) | {38, 48}
sys.exit(0 if codes & wanted else 1)
' "$1"
}
has_colors() { sgr_used colors; }
# resized_to ROWS COLUMNS : header on the first row, status on the last, nothing wider.
resized_to() {
    local text
    text=$(screen)
    [[ $(wc -l <<<"$text") -eq $1 ]] || return 1
    sed -n 1p <<<"$text" | grep -q '#  Player' || return 1
    sed -n "$1p" <<<"$text" | grep -Eq '^ v[0-9]+ · ' || return 1
    python3 -c '
import sys, unicodedata
def width(line):
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)
sys.exit(0 if all(width(line) <= int(sys.argv[1]) for line in sys.stdin.read().splitlines()) else 1)
' "$2" <<<"$text"
}

# check_restored RC-PATTERN : the demo exited with a matching status, the alternate
# screen is left and canonical mode, echo and signals are back on.
check_restored() {
    wait_for 15 screen_has "DEMO-EXIT" || fail "$session: the demo did not exit"
    local rc modes
    rc=$(screen | grep -o 'DEMO-EXIT rc=[0-9]*' | sed 's/.*=//')
    [[ $rc =~ ^($1)$ ]] || fail "$session: exit status $rc, expected $1"
    wait_for 5 screen_has "MODES" || fail "$session: no terminal modes printed"
    modes=$(screen | grep '^MODES')
    [[ " $modes " == *" icanon "* && " $modes " == *" echo "* && " $modes " == *" isig "* ]] \
        || fail "$session: terminal modes not restored: $modes"
    is_alternate 0 || fail "$session: still on the alternate screen"
    ok "$session: exit status $rc, alternate screen left, $modes"
}

# --- the "Loading…" row at the end: a slow page and no feed, so the row stays up for
# seconds (it shows once a load has run 300 ms) and the selection stays on the last row
start slow-end --latency 4000 --no-feed
wait_for 10 is_alternate 1 || fail "the demo did not switch to the alternate screen"
wait_for 15 count_at_least 50 || fail "the first page did not arrive"
wait_for 5 screen_lacks "Loading…" || fail "the Loading… row stayed after the first page arrived"
keys G
wait_for 3 screen_has "Loading…" || fail "no Loading… row at the end while the next page loads"
[[ $(screen | grep -v '^ *$' | tail -n 2 | head -n 1) == *"Loading…"* ]] \
    || fail "the Loading… row is not the last row above the status line"
wait_for 10 count_at_least 90 || fail "G did not load another page (rows: $(row_count))"
wait_for 5 screen_lacks "Loading…" || fail "the Loading… row stayed after the page arrived"
ok "Loading… row at the end while the next page loads, gone once it arrives"
keys q
check_restored 0
tmux -L "$socket" kill-session -t "$session"

# --- the main walk: first screen, paging, failure and retry, sorting, q -----------------
start main --latency 800 --feed-interval 100
wait_for 10 is_alternate 1 || fail "the demo did not switch to the alternate screen"
wait_for 5 screen_has "Loading…" || fail "no Loading… row while the slow first page loads"
ok "Loading… row while the first page loads"
wait_for 15 rows_check score || fail "the first screen does not show rows sorted by score"
wait_for 5 count_at_least 50 || fail "the first page did not arrive"
ok "first screen: rows sorted by score, $(row_count) rows loaded"
has_colors || fail "the screen shows no colours"
first_count=$(row_count)

keys G
wait_for 15 count_at_least $((first_count + 40)) || fail "G did not load another page (rows: $(row_count))"
keys G
wait_for 15 count_at_least $((first_count + 90)) || fail "a second G did not load another page (rows: $(row_count))"
ok "scrolling to the end loads more pages: $first_count → $(row_count) rows"

before_failure=$(row_count)
keys f G
wait_for 25 screen_has "Could not load more rows" || fail "f then G: no failure shown after the retries"
screen_has "load failed" || fail "the status line does not show the error"
ok "f: the load fails after its automatic retries, and the error is shown"
keys Enter
wait_for 15 count_at_least $((before_failure + 40)) || fail "Enter did not retry the failed load (rows: $(row_count))"
wait_for 5 screen_lacks "Could not load more rows" || fail "the failure row stayed after a successful retry"
ok "Enter retries: $before_failure → $(row_count) rows"

keys s
wait_for 5 screen_has "by name" || fail "s did not switch to name order"
keys g
wait_for 10 rows_check name || fail "after s, the rows are not sorted by name"
ok "s re-sorts by name"
keys s g
wait_for 5 screen_has "by score" || fail "s did not switch back to score order"
wait_for 10 rows_check score || fail "after s again, the rows are not sorted by score"
ok "s again re-sorts by score"

tmux -L "$socket" resize-window -t "$session" -x 70 -y 12
wait_for 10 resized_to 12 70 || fail "after resizing to 70×12 the screen was not redrawn to fit"
ok "resize: redrawn for 70×12"

keys q
check_restored 0
tmux -L "$socket" kill-session -t "$session"

# --- --group tier: headers with counts, the current one pinned, t hides and shows them -----
# No feed, so the counts hold still; pages of 250 reach from Diamond (214 players) into Platinum.
list_line() { screen | sed -n "$1p"; }
list_line_matches() { list_line "$1" | grep -Eq -- "$2"; }
rank_on_line() { list_line "$1" | awk '{ print $1 }'; }
start grouped --group tier --latency 50 --page-size 250 --no-feed
wait_for 10 list_line_matches 2 '^Diamond · 214 *$' || fail "--group tier: no 'Diamond · 214' header under the column titles"
list_line_matches 3 '^ +1  ' || fail "--group tier: the first row does not follow the Diamond header"
screen_has "by score · tiers · " || fail "--group tier: the status line does not say the list is grouped"
ok "--group tier: the Diamond header with its count, then the rows"
for _ in $(seq 11); do keys PgDn; done
wait_for 5 list_line_matches 2 '^Platinum · [0-9]+ *$' || fail "--group tier: after paging into Platinum its header is not pinned on the first line"
top_rank=$(rank_on_line 3)
[[ $top_rank =~ ^[0-9]+$ && $top_rank -gt 214 ]] || fail "--group tier: the first row under the pinned Platinum header is rank $top_rank"
ok "--group tier: paging down pins the Platinum header above rank $top_rank"
keys t
wait_for 5 screen_lacks "Platinum · " || fail "t: the tier headers did not go"
screen_lacks "Diamond · " || fail "t: a tier header is still shown"
[[ $(rank_on_line 2) == "$top_rank" ]] || fail "t: the first visible row changed from rank $top_rank to $(rank_on_line 2)"
screen_has "tiers hidden" || fail "t: the status line does not say the tiers are hidden"
ok "t: the tier headers disappear, rank $top_rank stays first"
keys t
wait_for 5 list_line_matches 2 '^Platinum · [0-9]+ *$' || fail "t again: the Platinum header did not come back pinned"
[[ $(rank_on_line 3) == "$top_rank" ]] || fail "t again: the first visible row changed from rank $top_rank to $(rank_on_line 3)"
ok "t again: the tier headers reappear, rank $top_rank still first"
keys q
check_restored 0
tmux -L "$socket" kill-session -t "$session"

# --- --players 1000000: a window over a generated leaderboard of a million players -------
# window_check [FIRST-RANK] : the rows on screen have consecutive true ranks in score
# order (FIRST-RANK first, if given), inside the loaded rows the status line names
# ("rows A–B of 1,000,000 loaded"), which are at most 1,000; prints "first last A B".
window_check() {
    screen | python3 -c '
import re, sys
text = sys.stdin.read()
rows = [(int(m.group(1)), int(m.group(2).replace(",", ""))) for m in
        re.finditer(r"^\s*(\d+)  .*?\s(\d[\d,]*)  [A-Z]{2}\s*$", text, re.M)]
loaded = re.findall(r"rows ([\d,]+)–([\d,]+) of 1,000,000 loaded", text)
if len(rows) < 15 or not loaded:
    sys.exit(1)
a, b = (int(x.replace(",", "")) for x in loaded[-1])
ranks = [r[0] for r in rows]
if ranks != list(range(ranks[0], ranks[0] + len(ranks))) or any(x[1] < y[1] for x, y in zip(rows, rows[1:])):
    sys.exit(1)
if not (a <= ranks[0] and ranks[-1] <= b and b - a + 1 <= 1000):
    sys.exit(1)
if len(sys.argv) > 1 and ranks[0] != int(sys.argv[1]):
    sys.exit(1)
print(ranks[0], ranks[-1], a, b)
' "$@"
}
start players --players 1000000 --latency 50 --feed-interval 100
wait_for 15 window_check 1 >/dev/null || fail "--players: the first screen does not show ranks 1… of a million"
ok "--players 1000000: ranks 1–$(window_check | awk '{ print $2 }') on screen, $(screen | grep -Eo 'rows [0-9,]+–[0-9,]+ of 1,000,000 loaded')"
keys G
wait_for 15 screen_has "1,000,000/1,000,000 · rows " || fail "G: the last player is not selected"
wait_for 10 window_check >/dev/null || fail "G: the rows at the end are not consecutive ranks"
[[ $(window_check | awk '{ print $2 }') == 1000000 ]] || fail "G: the last row on screen is not rank 1,000,000"
ok "G jumps to the last players: ranks $(window_check | awk '{ print $1 "–" $2 }'), $(screen | grep -Eo 'rows [0-9,]+–[0-9,]+ of 1,000,000 loaded')"
for _ in $(seq 80); do keys PgUp; sleep 0.1; done
wait_for 15 window_check >/dev/null || fail "PgUp: the rows are not consecutive ranks inside a window of at most 1,000"
read -r first _ low high < <(window_check)
(( first < 1000000 - 1500 )) || fail "PgUp: 80 pages up reached only rank $first"
(( high < 1000000 - 200 )) || fail "PgUp: the window still holds the last players (rows $low–$high): nothing was dropped"
ok "PgUp ×80 scrolls up through previous pages: rank $first on top, rows $low–$high loaded"
keys g
wait_for 15 window_check 1 >/dev/null || fail "g: the first screen does not show rank 1 again"
ok "g jumps to the first players: $(screen | grep -Eo 'rows [0-9,]+–[0-9,]+ of 1,000,000 loaded')"
keys q
check_restored 0
tmux -L "$socket" kill-session -t "$session"

# --- Ctrl-C (with NO_COLOR), SIGTERM and a crash restore the terminal too ---------------
extra_env="NO_COLOR=1" start ctrl-c --latency 50
wait_for 10 count_at_least 1 || fail "ctrl-c: no rows"
! has_colors || fail "NO_COLOR=1: the screen still shows colours"
sgr_used reverse || fail "NO_COLOR=1: no reversed selection bar"
ok "NO_COLOR=1: no colours, the selection bar still shows"
keys C-c
check_restored 0
tmux -L "$socket" kill-session -t "$session"

start sigterm --latency 50
wait_for 10 count_at_least 1 || fail "sigterm: no rows"
kill -TERM "$(cat "$tmp/pid")"
check_restored 143
tmux -L "$socket" kill-session -t "$session"

start sigusr1 --latency 50
wait_for 10 count_at_least 1 || fail "sigusr1: no rows"
kill -USR1 "$(cat "$tmp/pid")"
check_restored 138
tmux -L "$socket" kill-session -t "$session"

# --- Ctrl-Z and SIGTSTP give the terminal back and stop; continuing redraws -------------
pane_modes() { stty -a -F "$(tmux -L "$socket" display -p -t "$session" '#{pane_tty}')" | tr ' ;' '\n\n' | grep -Ex -- '-?(icanon|echo|isig)' | tr '\n' ' '; }
is_stopped() { [[ $(awk '{ print $3 }' "/proc/$(cat "$tmp/pid")/stat") == T ]]; }
is_running() { ! is_stopped; }
start suspend --latency 50 --no-feed
wait_for 10 count_at_least 1 || fail "suspend: no rows"
for stop in key signal; do
    if [[ $stop == key ]]; then keys C-z; else kill -TSTP "$(cat "$tmp/pid")"; fi
    wait_for 5 is_stopped || fail "suspend ($stop): the demo did not stop"
    wait_for 5 is_alternate 0 || fail "suspend ($stop): still on the alternate screen while stopped"
    [[ $(pane_modes) == "isig icanon echo " ]] || fail "suspend ($stop): terminal modes while stopped: $(pane_modes)"
    kill -CONT "$(cat "$tmp/pid")"
    wait_for 5 is_running || fail "suspend ($stop): the demo did not continue"
    wait_for 5 is_alternate 1 || fail "suspend ($stop): the alternate screen was not taken again"
    # Taking the terminal again erases the screen: rows on it were drawn after.
    wait_for 5 count_at_least 1 || fail "suspend ($stop): the screen was not redrawn after continuing"
    keys j
    wait_for 5 screen_has " 2/" || fail "suspend ($stop): keys are not read in raw mode after continuing"
    keys k
    ok "suspend ($stop): terminal given back while stopped, taken again and redrawn after"
done
keys q
check_restored 0
tmux -L "$socket" kill-session -t "$session"

# --- job control from an interactive shell: the demo holds the terminal only in the foreground
# An interactive bash (job control on) in a fresh pane; the shell itself runs `stty -g`.
cat >"$tmp/launch.sh" <<LAUNCH
#!/usr/bin/env bash
echo \$\$ > '$tmp/pid'
exec '$demo' "\$@"
LAUNCH
chmod +x "$tmp/launch.sh"
type_line() { tmux -L "$socket" send-keys -t "$session" -l -- "$1"; tmux -L "$socket" send-keys -t "$session" Enter; }
# shell_stty NAME : the shell's own `stty -g`, run from its prompt (the shell must be in the foreground).
shell_stty() {
    rm -f "$tmp/$1"
    type_line "stty -g > '$tmp/$1.part' && mv '$tmp/$1.part' '$tmp/$1'"
    wait_for 10 test -s "$tmp/$1" || fail "$session: the shell did not run stty -g ($1)"
    cat "$tmp/$1"
}
demo_gone() { ! kill -0 "$(cat "$tmp/pid")" 2>/dev/null; }
shows_shell() { screen_has 'e2e$' && screen_lacks '#  Player' && is_alternate 0; }
# fg_then_quit LABEL : fg brings the demo back (the list drawn again, keys read), q exits 0.
fg_then_quit() {
    type_line fg
    wait_for 10 is_alternate 1 || fail "$1: fg did not give the demo the alternate screen"
    wait_for 10 count_at_least 1 || fail "$1: after fg the list was not drawn again"
    keys j
    wait_for 5 screen_has " 2/" || fail "$1: after fg keys are not read in raw mode"
    keys q
    wait_for 10 demo_gone || fail "$1: q did not end the demo"
    type_line 'echo "FG-EXIT rc=$?"'
    wait_for 5 screen_has "FG-EXIT rc=0" || fail "$1: fg did not report exit status 0"
}

session=jobs
rm -f "$tmp/pid"
tmux -L "$socket" new-session -d -s "$session" -x 100 -y 24 \
    "cd '$root' && env PS1='e2e\$ ' HISTFILE=/dev/null bash --norc --noprofile -i"
wait_for 10 screen_has 'e2e$' || fail "jobs: no shell prompt"
stty_before=$(shell_stty stty-before)
echo "  stty -g in the shell before the demo:               $stty_before"

# Started in the foreground, stopped with SIGTSTP, continued with SIGCONT but no fg.
type_line "'$tmp/launch.sh' --latency 50 --no-feed"
wait_for 10 test -s "$tmp/pid" || fail "jobs: the demo did not start"
wait_for 10 is_alternate 1 || fail "jobs: the demo did not take the alternate screen"
wait_for 10 count_at_least 1 || fail "jobs: no rows"
kill -TSTP "$(cat "$tmp/pid")"
wait_for 5 is_stopped || fail "jobs: SIGTSTP did not stop the demo"
wait_for 5 screen_has "Stopped" || fail "jobs: the shell did not report the stopped job"
kill -CONT "$(cat "$tmp/pid")"
wait_for 5 is_running || fail "jobs: SIGCONT did not continue the demo"
sleep 1  # ten foreground checks: time enough for a demo that takes the terminal back to do it
is_running || fail "jobs: continued in the background, the demo stopped again"
shows_shell || fail "jobs: continued in the background, the demo took the screen"
stty_continued=$(shell_stty stty-continued)
echo "  stty -g in the shell, demo continued in background: $stty_continued"
[[ $stty_continued == "$stty_before" ]] || fail "jobs: continued in the background, the demo changed the terminal: $stty_continued, was $stty_before"
shows_shell || fail "jobs: the demo drew over the shell"
is_running || fail "jobs: the demo stopped while in the background"
ok "jobs: SIGTSTP then SIGCONT without fg: the shell keeps the terminal, stty -g unchanged, nothing drawn"
fg_then_quit "jobs (continued)"
stty_after=$(shell_stty stty-after)
echo "  stty -g in the shell after fg and q:                $stty_after"
[[ $stty_after == "$stty_before" ]] || fail "jobs: after fg and q the shell's stty -g is $stty_after, was $stty_before"
ok "jobs: fg redraws the list and reads keys, q exits 0, the shell's stty -g is what it was"

# Started in the background.
rm -f "$tmp/pid"
type_line "'$tmp/launch.sh' --latency 50 --no-feed &"
wait_for 10 test -s "$tmp/pid" || fail "jobs (&): the demo did not start"
sleep 1
is_running || fail "jobs (&): started in the background, the demo stopped"
shows_shell || fail "jobs (&): started in the background, the demo took the screen"
stty_background=$(shell_stty stty-background)
echo "  stty -g in the shell, demo started with &:          $stty_background"
[[ $stty_background == "$stty_before" ]] || fail "jobs (&): started in the background, the demo changed the terminal: $stty_background"
shows_shell || fail "jobs (&): the demo drew over the shell"
ok "jobs (&): started in the background, the demo leaves the terminal and the screen alone"
fg_then_quit "jobs (&)"
stty_after=$(shell_stty stty-after-background)
echo "  stty -g in the shell after fg and q:                $stty_after"
[[ $stty_after == "$stty_before" ]] || fail "jobs (&): after fg and q the shell's stty -g is $stty_after, was $stty_before"
ok "jobs (&): fg draws the list, q exits 0, the shell's stty -g is what it was"
tmux -L "$socket" kill-session -t "$session"

start crash --latency 50 --crash-key
wait_for 10 count_at_least 1 || fail "crash: no rows"
keys '!'
check_restored '1[3-9][0-9]'
tmux -L "$socket" kill-session -t "$session"

echo "$passed passed, 0 failed"
