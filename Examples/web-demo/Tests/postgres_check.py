#!/usr/bin/env python3
"""Live windows over PostgreSQL, across three instances of the web demo.

Starts PostgreSQL with ``Scripts/postgres.sh start`` (a private cluster, installed from
Debian's ``postgresql`` package when missing), drops the ``players`` table, and starts
three instances with ``--postgres URL --feed-interval 0`` (the first seeds 5,000
players; the others start at once and find the table being seeded or full). On each
instance it opens ``--top`` event streams at the top and ``--deep`` streams driven down
past rank 500 with ``/appear``, and replays every stream with the wire format's rules.
Then, from ``psql`` only (never through the demo):

1. ``--statements`` SQL statements, one transaction each: score updates, inserts,
   deletes, and now and then an update of many rows at once;
2. the third instance is killed with SIGKILL, and every database connection of the
   others is terminated (``pg_terminate_backend``);
3. as many statements again, while the instances reconnect.

It checks that every live window of the two remaining instances comes to hold exactly the
table's rows between its first and last row, with their current scores, that the top
windows start at rank 1, that every stream's versions followed on from each other,
and that the instances' change feeds reconnected. Python 3 standard library only, the
helpers of ``http_check.py`` and ``window_check.py`` beside it, and ``psql``. Exit
status 0 when every check passes.
"""
import argparse
import os
import random
import signal
import subprocess
import tempfile
import time

from http_check import CheckFailed, run, start_server, status, stop_server, wait_for
from window_check import Replay, drive_down, score

SCRIPTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Scripts")


def psql(url, sql, *, rows=False):
    """Runs `sql` with psql (autocommit, one transaction per statement); with `rows`,
    returns the lines it prints."""
    with tempfile.NamedTemporaryFile("w", suffix=".sql", delete=False) as script:
        script.write(sql)
        path = script.name
    try:
        done = subprocess.run(["psql", url, "-X", "-q", "-t", "-A", "-F", "\t", "-v", "ON_ERROR_STOP=1", "-f", path],
                              capture_output=True, text=True, timeout=600)
    finally:
        os.unlink(path)
    if done.returncode != 0:
        raise CheckFailed(f"psql failed: {done.stderr.strip()[:500]}")
    return [line for line in done.stdout.splitlines() if line] if rows else None


def table(url):
    """Every player as (id, score), in the leaderboard's order."""
    return [(line.split("\t")[0], int(line.split("\t")[1]))
            for line in psql(url, "SELECT id, score FROM players ORDER BY score DESC, id;", rows=True)]


def statements(count, rng, ids, fresh):
    """`count` statements: mostly score updates, some inserts and deletes, and every
    100th an update of many rows."""
    lines = []
    for index in range(count):
        kind = rng.random()
        if index % 100 == 99:
            lines.append(f"UPDATE players SET score = score + {rng.randint(-50, 50)} WHERE id LIKE 'p0000{rng.randint(0, 9)}%';")
        elif kind < 0.7:
            lines.append(f"UPDATE players SET score = {rng.randint(90_000, 100_500)} WHERE id = '{rng.choice(ids)}';")
        elif kind < 0.85:
            fresh[0] += 1
            lines.append(f"INSERT INTO players VALUES ('x{fresh[0]:06d}', 'New {fresh[0]}', {rng.randint(95_000, 100_500)}, 'NO');")
        else:
            lines.append(f"DELETE FROM players WHERE id = '{rng.choice(ids)}';")
    return "\n".join(lines) + "\n"


def matches(stream, rows, index):
    """Whether the stream's replayed rows are the table's rows between its first and last."""
    _, replayed, _ = stream.state()
    if not replayed:
        return not rows
    got = [(id_, score(html)) for id_, html in replayed]
    start = index.get(got[0][0])
    return start is not None and rows[start:start + len(got)] == got


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--server", required=True, help="the web-demo executable")
    parser.add_argument("--top", type=int, default=6, help="streams at the top per instance (default 6)")
    parser.add_argument("--deep", type=int, default=4, help="streams scrolled deep per instance (default 4)")
    parser.add_argument("--statements", type=int, default=1500, help="SQL statements before and after the failures (default 1500 each)")
    parser.add_argument("--seed", type=int, default=7)
    options = parser.parse_args()

    url = subprocess.run(["bash", os.path.join(SCRIPTS, "postgres.sh"), "start"], capture_output=True, text=True,
                         check=True).stdout.strip().splitlines()[-1]
    psql(url, "DROP TABLE IF EXISTS players;")
    common = ["--postgres", url, "--feed-interval", "0", "--page-latency", "0", "--heartbeat", "500",
              "--resume-grace", "1000", "--max-windows-per-client", "1000"]
    servers, streams = [], []
    rng = random.Random(options.seed)
    try:
        servers.append(start_server(options.server, *common, "--seed-players", "5000"))
        servers += [start_server(options.server, *common, "--seed-players", "5000") for _ in range(2)]
        players = table(url)
        if len(players) != 5000:
            raise CheckFailed(f"the table holds {len(players)} players after three instances started, not 5000")
        print(f"ok: three instances on {url}, one table of {len(players)} players (seeded once)")

        for number, (_, base) in enumerate(servers):
            group = [Replay(base, f"i{number}-top{k}") for k in range(options.top)]
            group += [Replay(base, f"i{number}-deep{k}") for k in range(options.deep)]
            wait_for(f"instance {number}'s streams have their first page", lambda: all(s.state()[1] for s in group), 20)
            for stream in group[options.top:]:
                drive_down(base, stream.window, 500, stream.label, 100)
            for stream in group:
                stream.instance = number
                stream.top = stream in group[:options.top]
            streams += group
        print(f"ok: {len(streams)} streams: {options.top} at the top and {options.deep} past rank 500 on each instance")

        ids = [id_ for id_, _ in players]
        fresh = [0]
        started = time.monotonic()
        psql(url, statements(options.statements, rng, ids, fresh))
        print(f"ok: {options.statements} statements from psql in {time.monotonic() - started:.1f} s")

        # Failures: one instance killed, every connection of the others terminated.
        killed = servers[2][0]
        killed.send_signal(signal.SIGKILL)
        killed.wait()
        terminated = psql(url, "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                               "WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend';", rows=True)
        print(f"ok: instance 2 killed (SIGKILL); {terminated[0]} connections of the others terminated")
        started = time.monotonic()
        psql(url, statements(options.statements, rng, ids, fresh))
        print(f"ok: {options.statements} more statements while the instances reconnected, in {time.monotonic() - started:.1f} s")

        live = [s for s in streams if s.instance != 2]
        rows = []
        index = {}

        def converged():
            nonlocal rows, index
            rows = table(url)
            index = {id_: i for i, (id_, _) in enumerate(rows)}
            return all(matches(s, rows, index) for s in live)
        started = time.monotonic()
        try:
            wait_for("every live window equals the table between its first and last row", converged, 30)
        except CheckFailed:
            bad = [s.label for s in live if not matches(s, rows, index)]
            raise CheckFailed(f"{len(bad)} of {len(live)} windows differ from the table: {bad[:6]}")
        tops = [s for s in live if s.top]
        not_first = [s.label for s in tops if s.state()[1][0][0] != rows[0][0]]
        if not_first:
            raise CheckFailed(f"top windows not starting at rank 1: {not_first}")
        problems = [f"{s.label}: {p}" for s in live for p in s.problems]
        if problems:
            raise CheckFailed("; ".join(problems[:4]))
        batches = sum(s.state()[2] for s in live)
        print(f"ok: all {len(live)} live windows equal the table between their first and last rows "
              f"{time.monotonic() - started:.1f} s after the last statement; the {len(tops)} top windows start at rank 1; "
              f"{batches} batches, versions contiguous on every stream")
        for number, (_, base) in enumerate(servers[:2]):
            s = status(base)
            print(f"    instance {number}: {s['windows']} windows, {s['views']} views, {s['players']} players")
    finally:
        for stream in streams:
            stream.close()
        for server, _ in servers:
            if server.poll() is None:
                stop_server(server)


if __name__ == "__main__":
    run(main)
