#!/usr/bin/env python3
"""Windows are private: a window's token cannot be learned, guessed, reused or taken.

Starts the server given with ``--server`` twice on a free port.

With the default caps (and a live feed), it opens as many streams from 127.0.0.1 as the
default ``--max-windows-per-client`` allows and checks that

- every stream's ``window`` event carries a token of 22 or more base64url characters,
  all different, in which each of the 128 bits takes both values across the tokens and
  about half of all bits are set (a counter, a clock or a short seed would not);
- ``/status`` holds none of the tokens, nor anything shaped like one: counts only;
- the takeover sequence fails at every step and leaves the first stream untouched (it
  keeps receiving batches that follow on from each other, and no new snapshot):
  ``/events?window=TOKEN`` and ``/events?resume=TOKEN`` of a live window are 409;
  names a client picks (``w1``, ``w2``, …, a hex id) are refused on ``/events`` (400,
  no window opened); ``/snapshot``, ``/appear``, ``/retry`` and ``/status`` with a
  guessed name, a random token or the token with one character changed are 404;
- one more stream from the same address is 429 with ``Retry-After``, and a stream from
  another loopback address is accepted; ``/status`` reports the default caps (10,000
  windows, 64 per client) and a 30 s resume grace.

With small caps and a short resume grace:

- ``--max-windows-per-client``: the next stream from that address is 429 with
  ``Retry-After``; ``--max-windows``: the next stream from any address is 503 with
  ``Retry-After``; both counted in ``/status``;
- once every stream is closed, the windows are released after the grace and freed
  (``windows`` and ``windowsAlive`` back to 0), and a new stream is accepted again;
  the server's resident memory before, at the cap and after is printed;
- a window whose stream ended is resumed within the grace with ``/events?resume=TOKEN``:
  the same token, a snapshot first, at the version and first row it had (scrolled down
  with ``/appear``); a second resume while that stream is live is 409; after the grace
  the token is 404 everywhere.

Python 3 standard library only, and the helpers of ``http_check.py`` and
``window_check.py`` beside it. Exit status 0 when every check passes.
"""

import argparse
import http.client
import json
import re
import secrets
import time

from http_check import CheckFailed, appear, open_events, run, settled, start_server, status, stop_server, wait_for
from window_check import Replay

TOKEN = re.compile(r"^[A-Za-z0-9_-]{22,}$")
TOKEN_SHAPED = re.compile(r"[A-Za-z0-9_-]{22,}")
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


def answer(base, method, path, source=None):
    """(status, headers, body) of one request from `source` (a loopback address); a 200
    `/events` is closed without reading its body."""
    connection = http.client.HTTPConnection(base.hostname, base.port, timeout=10,
                                            source_address=(source, 0) if source else None)
    try:
        connection.request(method, path)
        response = connection.getresponse()
        streaming = path.startswith("/events") and response.status == 200
        body = b"" if streaming else response.read()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, body
    finally:
        connection.close()


def expect(base, method, path, code, source=None):
    got, headers, body = answer(base, method, path, source)
    if got != code:
        raise CheckFailed(f"{method} {path}: HTTP {got} (expected {code}) {body[:200]!r}")
    return headers


def bits(token):
    """The token's first 128 bits, from its base64url characters."""
    value = 0
    for character in token[:22]:
        value = value << 6 | ALPHABET.index(character)
    return value >> (22 * 6 - 128)


def resident_kib(pid):
    with open(f"/proc/{pid}/status") as lines:
        for line in lines:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def check_tokens_and_takeover(executable):
    server, base = start_server(executable, "--feed-interval", "50", "--page-latency", "20")
    sockets, victim = [], None
    try:
        defaults = status(base)
        expected = {"maxWindows": 10_000, "maxWindowsPerClient": 64, "resumeGraceMs": 30_000}
        if {key: defaults.get(key) for key in expected} != expected:
            raise CheckFailed(f"the default caps are not {expected}: {defaults}")

        # The first stream is the one an attacker wants; the others fill the address's cap.
        victim = Replay(base, "victim")
        wait_for("the first window has its first page", lambda: victim.state()[1] and victim.window, 10)
        tokens = [victim.window]
        for _ in range(expected["maxWindowsPerClient"] - 1):
            sock, token, _ = open_events(base)
            sockets.append(sock)
            tokens.append(token)
        malformed = [token for token in tokens if not TOKEN.match(token)]
        if malformed or len(set(tokens)) != len(tokens):
            raise CheckFailed(f"tokens are not distinct 22+ character base64url strings: {malformed[:3] or tokens[:3]}")
        values = [bits(token) for token in tokens]
        constant = [bit for bit in range(128) if len({value >> bit & 1 for value in values}) == 1]
        ones = sum(bin(value).count("1") for value in values) / (128 * len(values))
        if constant or not 0.45 <= ones <= 0.55:
            raise CheckFailed(f"the tokens' bits are not random: bits {constant[:8]} never change, {ones:.3f} of all bits set")
        print(f"ok: {len(tokens)} windows, {len(tokens)} distinct tokens of {len(tokens[0])} base64url characters; each of the "
              f"128 bits takes both values, {ones:.3f} of all bits set")

        text = answer(base, "GET", "/status")[2].decode()
        listed = [token for token in tokens if token in text]
        shaped = TOKEN_SHAPED.findall(text)
        if listed or shaped or "windowList" in text:
            raise CheckFailed(f"/status lists windows: {listed[:2] or shaped[:2] or 'windowList'}")
        print(f"ok: /status holds no token and nothing shaped like one ({len(text)} bytes of counts)")

        # The takeover sequence, step by step, against the first window.
        token = victim.window
        before = status(base)
        _, _, batches_before = victim.state()
        expect(base, "GET", f"/events?window={token}", 409)
        expect(base, "GET", f"/events?resume={token}", 409)
        for name in ["w1", "w2", "w3", "w64", "p" + secrets.token_hex(12), secrets.token_urlsafe(16)]:
            expect(base, "GET", f"/events?window={name}", 400)
        changed = token[:-1] + ("A" if token[-1] != "A" else "B")
        guesses = ["w1", "w2", "load-0", changed] + [secrets.token_urlsafe(16) for _ in range(100)]
        for guess in guesses:
            expect(base, "GET", f"/status?window={guess}", 404)
            expect(base, "GET", f"/snapshot?window={guess}", 404)
            expect(base, "POST", f"/appear?window={guess}&offset=0", 404)
            expect(base, "POST", f"/retry?window={guess}", 404)
        after = status(base)
        if after["windowsOpened"] != before["windowsOpened"] or after["streams"] != before["streams"]:
            raise CheckFailed(f"the refused requests opened or closed windows: {before} → {after}")
        if after["refusedLive"] - before["refusedLive"] != 2:
            raise CheckFailed(f"/status counted {after['refusedLive'] - before['refusedLive']} refusals of a live window, not 2")
        wait_for("the first stream receives more batches", lambda: victim.state()[2] >= batches_before + 5, 10)
        with victim.lock:
            untouched = not victim.problems and not victim.ended and victim.snapshots == 1
            state = (victim.problems[:2], victim.ended, victim.snapshots)
        if not untouched:
            raise CheckFailed(f"the first stream was disturbed (problems, ended, snapshots): {state}")
        print(f"ok: takeover fails at every step: a live window's token on /events 409 (window= and resume=), 6 client-chosen "
              f"names 400 with no window opened, {len(guesses)} guessed tokens 404 on /status, /snapshot, /appear and /retry; "
              f"the first stream kept its one snapshot and {victim.state()[2] - batches_before} more batches in order")

        headers = expect(base, "GET", "/events", 429)
        if not headers.get("retry-after", "").isdigit() or int(headers["retry-after"]) < 1:
            raise CheckFailed(f"a 429 without a Retry-After in seconds: {headers}")
        other, _, _ = open_events(base, source="127.0.0.2")
        sockets.append(other)
        print(f"ok: the {expected['maxWindowsPerClient'] + 1}th stream from 127.0.0.1 is 429 (Retry-After {headers['retry-after']} s); "
              "one from 127.0.0.2 is accepted")
    finally:
        if victim is not None:
            victim.close()
        for sock in sockets:
            sock.close()
        stop_server(server)


def check_caps_and_resume(executable):
    grace = 0.7
    server, base = start_server(executable, "--feed-interval", "50", "--page-latency", "20", "--heartbeat", "300",
                                "--max-windows", "40", "--max-windows-per-client", "16", "--resume-grace", str(int(grace * 1000)))
    sockets = []
    try:
        time.sleep(1)
        rss_before = resident_kib(server.pid)
        for _ in range(16):
            sockets.append(open_events(base)[0])
        headers = expect(base, "GET", "/events", 429)
        for index in range(24):
            sockets.append(open_events(base, source=f"127.0.0.{2 + index // 12}")[0])
        full = expect(base, "GET", "/events", 503, source="127.0.0.9")
        if not full.get("retry-after", "").isdigit() or not headers.get("retry-after", "").isdigit():
            raise CheckFailed(f"a refusal without Retry-After: 429 {headers}, 503 {full}")
        wait_for("the 40 windows have their first page", lambda: status(base)["emptyWindows"] == 0, 10)
        at_cap = status(base)
        rss_cap = resident_kib(server.pid)
        if (at_cap["windows"], at_cap["refusedPerClient"], at_cap["refusedFull"]) != (40, 1, 1):
            raise CheckFailed(f"at the cap: {at_cap}")
        for sock in sockets:
            sock.close()
        sockets = []
        wait_for("every window is released after the grace and freed",
                 lambda: (lambda s: s["windows"] == 0 and s["windowsAlive"] == 0)(status(base)), 10 + grace)
        rss_after = resident_kib(server.pid)
        print(f"ok: 16 windows from 127.0.0.1, then 429; 40 in all, then 503 (Retry-After {full['retry-after']} s); all 40 released "
              f"and freed {grace:g} s after their streams closed. RSS {rss_before / 1024:.1f} MiB before, {rss_cap / 1024:.1f} MiB at the "
              f"cap ({(rss_cap - rss_before) / 40:.0f} KiB per window), {rss_after / 1024:.1f} MiB after")

        # Resume: a window scrolled down, its stream closed, reopened within the grace.
        sock, token, _ = open_events(base)
        now = settled(base, token, feed=True)
        for _ in range(8):
            appear(base, token, f"{max(0, now['rows'] - 30)},{now['rows'] - 1}")
            now = settled(base, token, feed=True)
        if now["firstRank"] <= 1:
            raise CheckFailed(f"the window did not scroll down: {now}")
        sock.close()
        wait_for("the stream's end is noticed", lambda: status(base)["streams"] == 0, 5)
        kept = status(base, token)
        sock, again, received = open_events(base, resume=token)
        if again != token:
            raise CheckFailed(f"the resumed stream names window {again}, not {token}")
        first = json.loads(received[received.find(b'data: {"type":"snapshot"') + 6:].split(b"\n", 1)[0])
        items = first.get("items", [])
        if first["version"] < kept["version"] or not items or items[0]["id"] != kept["firstId"]:
            raise CheckFailed(f"the resumed stream's snapshot (v{first['version']}, first {items[0]['id'] if items else None}) is not "
                              f"the window as it was (v{kept['version']}, first {kept['firstId']})")
        expect(base, "GET", f"/events?resume={token}", 409)
        counted = status(base)["windowsResumed"]
        sock.close()
        wait_for("the resumed window is released after the grace",
                 lambda: (lambda s: s["windows"] == 0 and s["windowsAlive"] == 0)(status(base)), 10 + grace)
        expect(base, "GET", f"/events?resume={token}", 404)
        expect(base, "GET", f"/status?window={token}", 404)
        expect(base, "GET", f"/snapshot?window={token}", 404)
        if counted != 1:
            raise CheckFailed(f"/status counted {counted} resumed windows, not 1")
        print(f"ok: resumed within {grace:g} s: the same token, a snapshot first at v{first['version']} from rank {kept['firstRank']} "
              f"({kept['firstId']}); a second resume while live is 409; after the grace the token is 404")
    finally:
        for sock in sockets:
            sock.close()
        stop_server(server)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--server", required=True, help="the web-demo executable")
    options = parser.parse_args()
    check_tokens_and_takeover(options.server)
    check_caps_and_resume(options.server)


if __name__ == "__main__":
    run(main)
