#!/usr/bin/env python3
"""Windows under the live feed: each event stream has its own window, fed by the shared feed.

Starts the server given with ``--server`` on a free port with a fast feed and opens two
flat ``/events`` streams, read all along on a thread and replayed with the wire
format's rules: window ``top`` stays on its first page; window ``deep`` is driven down
the list with ``/appear`` until it starts past rank 1,500. Then, with no more
``/appear``, for ``--duration`` seconds, checks that

- both windows start on the shared view of the top page (``/status``: 2 shared windows,
  2 views, the shared flat and grouped ones); ``deep``'s first ``/appear`` that loads a
  page gives it a view of its own, and its stream goes on with a newer snapshot (a
  stream's versions never go back), while ``top`` stays shared;
- the two streams are different windows: different tokens, versions and rows, ``top`` at
  rank 1 with a page or two loaded (the shared view loads the next page itself when
  players dropping out leave it short), although ``deep`` loaded dozens;
- feed changes that fall inside a window reach it as small batches, one per change
  (``top``, where most of the feed lands, gets many, of a few steps each), and changes outside it do not grow it: ``deep`` gets far
  fewer batches than feed events (a row can join at either end of ``deep``: an end from
  which pages were dropped reaches to the last dropped row, so a player moving into
  that gap joins as the first or last row);
- every batch keeps the rows in leaderboard order, and a window never holds more than
  ``maxLoadedRows`` rows once its trim is done;
- each replayed list equals the server's ``/snapshot?window=TOKEN&version=N`` of the
  version it reached;
- closing the streams releases and frees both windows once their resume grace is over.

Python 3 standard library only, and the helpers of ``http_check.py`` beside it. Exit
status 0 when every check passes.
"""
import argparse
import json
import re
import socket
import threading
import time
import urllib.parse

from http_check import CheckFailed, appear, request, run, settled, start_server, status, stop_server, wait_for

SCORE = re.compile(r'<span class="score">(-?[\d,]+)</span>')


def score(html):
    return int(SCORE.search(html).group(1).replace(",", ""))


class Replay:
    """One window's /events stream, read on a thread and applied to a list of rows."""

    def __init__(self, base, label, after_version=None):
        self.label = label
        self.window = None         # the token of its window event
        self.rows = []             # [(id, html)]
        self.version = None
        self.batches = 0
        self.snapshots = 0
        self.inserted = []         # (index, length before, first-row score, last-row score, new score), feed phase only
        self.watching = False
        self.steps = []            # steps per batch, feed phase only
        self.problems = []
        self.ended = False         # the stream ended (or the socket was closed here)
        self.lock = threading.Lock()
        self.sock = socket.create_connection((base.hostname, base.port), timeout=30)
        self.sock.sendall(f"GET /events HTTP/1.1\r\nHost: {base.hostname}\r\n\r\n".encode())
        threading.Thread(target=self.read, daemon=True).start()

    def read(self):
        raw, events, head = b"", b"", None
        while True:
            try:
                chunk = self.sock.recv(65536)
            except OSError:
                chunk = b""
            if not chunk:
                with self.lock:
                    self.ended = True
                return
            raw += chunk
            if head is None:
                end = raw.find(b"\r\n\r\n")
                if end < 0:
                    continue
                head, raw = raw[:end], raw[end + 4:]
            while True:  # chunked body
                line_end = raw.find(b"\r\n")
                if line_end < 0:
                    break
                size = int(raw[:line_end].split(b";")[0], 16)
                if len(raw) < line_end + 2 + size + 2:
                    break
                events += raw[line_end + 2:line_end + 2 + size]
                raw = raw[line_end + 2 + size + 2:]
            *complete, events = events.split(b"\n\n")
            for event in complete:
                lines = event.split(b"\n")
                if b"event: window" in lines:
                    named = [line for line in lines if line.startswith(b"data: ")]
                    with self.lock:
                        self.window = json.loads(named[0][6:])["id"]
                    continue
                for line in lines:
                    if line.startswith(b"data: "):
                        with self.lock:
                            self.apply(json.loads(line[6:]))

    def apply(self, message):
        if message["type"] == "snapshot":
            if self.version is not None and message["version"] <= self.version:
                self.problems.append(f"snapshot v{message['version']} after v{self.version}: versions went back")
            self.snapshots += 1
            self.rows = [(item["id"], item["html"]) for item in message["items"]]
            self.version = message["version"]
            return
        if message["type"] != "batch":
            return
        if message["from"] != self.version:
            self.problems.append(f"batch {message['from']}→{message['to']} after v{self.version}")
            return
        for step in message["steps"]:
            op = step["op"]
            if op == "remove":
                del self.rows[step["at"]]
            elif op == "insert":
                if self.watching and self.rows:
                    self.inserted.append((step["at"], len(self.rows), score(self.rows[0][1]), score(self.rows[-1][1]), score(step["html"])))
                self.rows.insert(step["at"], (step["id"], step["html"]))
            elif op == "move":
                row = self.rows.pop(step["from"])
                self.rows.insert(step["to"], row)
            elif op == "reload":
                if self.rows[step["at"]][0] != step["id"]:
                    self.problems.append(f"reload of {step['id']} at {step['at']} holding {self.rows[step['at']][0]}")
                self.rows[step["at"]] = (step["id"], step["html"])
        self.version = message["to"]
        self.batches += 1
        if self.watching:
            self.steps.append(len(message["steps"]))
        keys = [(-score(html), id_) for id_, html in self.rows]
        if keys != sorted(keys):
            self.problems.append(f"v{self.version}: rows out of leaderboard order")

    def state(self):
        with self.lock:
            return self.version, list(self.rows), self.batches

    def close(self):
        self.sock.close()


def drive_down(base, window, rank, label, max_steps):
    """Reports the last rows of `window` on screen until its first row is past `rank`;
    returns its settled status and the steps taken."""
    now = settled(base, window, feed=True)
    steps = 0
    while now["firstRank"] < rank:
        if steps > max_steps:
            raise CheckFailed(f"driving window {label} down stalled at {now}")
        appear(base, window, f"{max(0, now['rows'] - 30)},{now['rows'] - 1}")
        now = settled(base, window, feed=True)
        steps += 1
    return now, steps


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--server", required=True, help="the web-demo executable")
    parser.add_argument("--duration", type=float, default=6, help="seconds of feed watched (default 6)")
    options = parser.parse_args()

    server, base = start_server(options.server, "--feed-interval", "20", "--page-latency", "30", "--heartbeat", "300", "--resume-grace", "500")
    streams = []
    try:
        top, deep = Replay(base, "top"), Replay(base, "deep")
        streams = [top, deep]
        wait_for("both windows have their first page", lambda: all(s.state()[1] for s in streams), 10)
        if top.window is None or deep.window is None or top.window == deep.window:
            raise CheckFailed(f"the two streams were not given two window tokens: {top.window!r}, {deep.window!r}")
        before = status(base)
        if (before["sharedWindows"], before["views"]) != (2, 2) or not all(status(base, s.window)["shared"] for s in streams):
            raise CheckFailed(f"two windows at the top should both show the shared view: {before}")
        print(f"ok: two windows at the top show the shared view at v{status(base, top.window)['version']} "
              f"({before['sharedWindows']} shared windows, {before['views']} views)")

        # deep goes down the list; top is left alone.
        _, steps = drive_down(base, deep.window, 1500, "deep", 300)
        top_status, deep_status = status(base, top.window), status(base, deep.window)
        after = status(base)
        if not top_status["shared"] or deep_status["shared"] or (after["sharedWindows"], after["views"]) != (1, 3):
            raise CheckFailed(f"window deep should have a view of its own and top the shared one: {top_status}, {deep_status}, {after}")
        if deep.snapshots < 2 or deep.problems:
            raise CheckFailed(f"window deep's stream did not go on from its own view with a newer snapshot: "
                              f"{deep.snapshots} snapshots, {deep.problems[:2]}")
        print(f"ok: window deep left the shared view: its stream went on with a newer snapshot ({deep.snapshots} snapshots, "
              f"versions only increased); top stayed shared; {after['views']} views")
        if top_status["firstRank"] != 1 or top_status["loadedPages"] > 3:
            raise CheckFailed(f"window top left the top, or loaded pages with window deep: {top_status}")
        if deep_status["prepend"] == "exhausted" or deep_status["pagination"] == "exhausted":
            raise CheckFailed(f"window deep should have neither end reached: {deep_status}")
        bound = deep_status["maxLoadedRows"]
        print(f"ok: two streams, two windows: top at rank 1 with {top_status['loadedPages']} page(s) loaded and {top_status['rows']} rows, "
              f"deep at rank {deep_status['firstRank']} with {deep_status['loadedPages']} pages loaded in {steps} steps")

        # The feed, with no more /appear.
        events_before = status(base)["feedEvents"]
        counts_before = {s.label: s.state()[2] for s in streams}
        for stream in streams:
            with stream.lock:
                stream.watching = True
                stream.inserted = []
                stream.steps = []
        time.sleep(options.duration)
        events = status(base)["feedEvents"] - events_before
        for stream in streams:
            with stream.lock:
                stream.watching = False
        batches = {s.label: s.state()[2] - counts_before[s.label] for s in streams}
        problems = [f"{s.label}: {p}" for s in streams for p in s.problems]
        if problems:
            raise CheckFailed("; ".join(problems[:3]))
        if batches["top"] < 5:
            raise CheckFailed(f"window top got {batches['top']} batches for {events} feed events: the feed does not reach it")
        largest = max(top.steps, default=0)
        if largest > 8:
            raise CheckFailed(f"a feed change reached window top as a batch of {largest} steps, not a small batch per change")
        if batches["deep"] * 4 > events:
            raise CheckFailed(f"window deep got {batches['deep']} batches for {events} feed events, most of which fall above it")
        print(f"ok: {events} feed events: window top got {batches['top']} batches of at most {largest} steps, window deep "
              f"{batches['deep']} ({len(deep.inserted)} rows inserted, {sum(1 for i in deep.inserted if 0 < i[0] < i[1])} of them between its first and last rows); rows stayed in order")

        # Quiet: each replay equals the server's snapshot of its version, within the bound.
        for stream in streams:
            def caught_up(stream=stream):
                window = status(base, stream.window)
                return stream.state()[0] == window["version"] and window["pagination"] != "loading" and window["prepend"] != "loading"
            # The feed keeps playing: compare the replay with the snapshot of the version it holds.
            wait_for(f"window {stream.label}'s stream is at its window's version", caught_up, 10)
            version, rows, _ = stream.state()
            code_body = json.loads(request(base, "GET", f"/snapshot?window={stream.window}&version={version}")[2])
            if [item["id"] for item in code_body.get("items", [])] != [id_ for id_, _ in rows]:
                raise CheckFailed(f"window {stream.label}'s replayed v{version} differs from /snapshot?version={version}")
        sizes = {s.label: settled(base, s.window, feed=True)["rows"] for s in streams}
        if max(sizes.values()) > bound:
            raise CheckFailed(f"a window holds more than {bound} rows after its trim: {sizes}")
        if top.state()[1][0][0] == deep.state()[1][0][0] or set(i for i, _ in top.state()[1]) & set(i for i, _ in deep.state()[1]):
            raise CheckFailed("windows top and deep share rows")
        print(f"ok: each stream's replayed rows equal its window's /snapshot of that version; rows {sizes} (bound {bound})")

        for stream in streams:
            stream.close()
        wait_for("both windows are released and freed", lambda: (lambda s: s["windows"] == 0 and s["windowsAlive"] == 0)(status(base)), 10)
        print("ok: closing the streams released and freed both windows")
    finally:
        for stream in streams:
            stream.close()
        stop_server(server)


if __name__ == "__main__":
    run(main)
