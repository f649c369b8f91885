#!/usr/bin/env python3
"""HTTP checks of the web demo's endpoints and windows, without a browser.

Run against a server started with the feed off and a short heartbeat, e.g.
``web-demo --port 0 --feed-interval 0 --heartbeat 200 --page-latency 50``:

- every GET endpoint answers HEAD with the same status, content type and length, and no body;
- a grouped window (``/events?group=tier``) groups the same rows by tier as a flat one,
  an unknown ``group`` is answered 400, a malformed token 400, an unknown one 404, and
  ``/snapshot``, ``/appear`` and ``/retry`` without a window 400;
- another method on a known path is answered 405 with an ``Allow`` header;
- an idle ``/events`` stream gets ``: heartbeat`` comment lines;
- two windows are independent: one driven down the list with ``/appear`` loads pages
  and drops the ones above (never more than ``maxLoadedRows`` rows once its trim is
  done), while the other stays on its first page; driven back up, it loads the previous
  pages until it starts at rank 1 with the same rows as the other;
- browsers that close their ``/events`` connection have their windows released and
  freed (``/status``'s ``windows`` and ``windowsAlive``) once the resume grace is over
  (start the server with a short ``--resume-grace``, e.g. 1000).

Windows are named by the tokens the server sends in each stream's ``window`` event
(``open_events``); ``privacy_check.py`` checks what a token protects.

Python 3 standard library only. Exit status 0 when every check passes.
"""

import argparse
import http.client
import json
import re
import socket
import subprocess
import sys
import time
import urllib.parse


class CheckFailed(Exception):
    pass


def request(base, method, path):
    """(status, headers, body) of one request on a fresh connection."""
    connection = http.client.HTTPConnection(base.hostname, base.port, timeout=10)
    try:
        connection.request(method, path)
        response = connection.getresponse()
        # A HEAD response has no body; /events never ends, so read none of it.
        body = b"" if method == "HEAD" or (path.split("?")[0] == "/events" and response.status == 200) else response.read()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, body
    finally:
        connection.close()


def status(base, window=None):
    """/status, or /status?window=ID."""
    return json.loads(request(base, "GET", "/status" + (f"?window={window}" if window else ""))[2])


def snapshot(base, window):
    code, _, body = request(base, "GET", f"/snapshot?window={window}")
    if code != 200:
        raise CheckFailed(f"/snapshot?window={window}: HTTP {code} {body[:200]!r}")
    return json.loads(body)


def appear(base, window, offsets):
    code, _, body = request(base, "POST", f"/appear?window={window}&offset={offsets}")
    if code != 200:
        raise CheckFailed(f"/appear?window={window}&offset={offsets}: HTTP {code} {body[:200]!r}")
    return json.loads(body)


WINDOW_EVENT = re.compile(rb'event: window\ndata: \{"type":"window","id":"([A-Za-z0-9_-]+)"\}\n\n')


def open_events(base, group=None, resume=None, source=None):
    """A new window's stream (or, with `resume`, that window's new stream) read on a raw
    socket up to its snapshot message (the first ``data:`` line after the ``window``
    event): (socket, the window's token from its ``window`` event, the bytes read).
    `source` binds the socket to that local address first (another loopback address is
    another client)."""
    query = "&".join(part for part in [f"resume={resume}" if resume else "", f"group={group}" if group else ""] if part)
    sock = socket.create_connection((base.hostname, base.port), timeout=10, source_address=(source, 0) if source else None)
    sock.sendall(f"GET /events{'?' + query if query else ''} HTTP/1.1\r\nHost: {base.hostname}\r\nAccept: text/event-stream\r\n\r\n".encode())
    received = b""
    deadline = time.monotonic() + 10
    # The body is chunked: the snapshot ends at the first blank line after its "data: ".
    while b'data: {"type":"snapshot"' not in received or received.find(b"\n\n", received.find(b'data: {"type":"snapshot"')) < 0:
        if time.monotonic() > deadline:
            raise CheckFailed(f"/events sent no snapshot message: {received[:200]!r}")
        chunk = sock.recv(65536)
        if not chunk:
            raise CheckFailed("/events closed before its snapshot message")
        received += chunk
    named = WINDOW_EVENT.search(received)
    if not named or named.start() > received.find(b'data: {"type":"snapshot"'):
        raise CheckFailed(f"/events did not name its window first: {received[:200]!r}")
    return sock, named.group(1).decode(), received


def start_server(executable, *arguments):
    """Starts the web demo on a free port with `arguments`; returns the process and its
    base URL, split. Stops the process if it prints no URL."""
    server = subprocess.Popen([executable, "--port", "0", *arguments],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = server.stdout.readline()
    found = re.search(r"http://127\.0\.0\.1:\d+/", line)
    if not found:
        server.kill()
        server.wait()
        raise CheckFailed(f"the server printed no URL: {line!r}")
    return server, urllib.parse.urlsplit(found.group(0))


def stop_server(server):
    """Stops a server `start_server` started: SIGTERM, then SIGKILL after 15 s."""
    server.terminate()
    try:
        server.wait(timeout=15)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


def wait_for(description, condition, timeout):
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise CheckFailed(f"timed out waiting until {description}")
        time.sleep(0.05)


def settled(base, window, timeout=10, feed=False):
    """The window's status once nothing loads and its rows stay put for 0.3 s (its trim
    done); with the feed on (`feed`), once nothing loads and no page arrives for 0.3 s."""
    deadline = time.monotonic() + timeout
    last, since = None, time.monotonic()
    while True:
        now = status(base, window)
        quiet = now["pagination"] != "loading" and now["prepend"] != "loading"
        key = now["loadedPages"] if feed else (now["rows"], now["firstId"], now["version"], now["loadedPages"])
        if not quiet or key != last:
            last, since = key, time.monotonic()
        elif time.monotonic() - since >= 0.3:
            return now
        if time.monotonic() > deadline:
            raise CheckFailed(f"window {window} did not settle within {timeout} s: {now}")
        time.sleep(0.05)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", required=True, help="the demo's base URL, e.g. http://127.0.0.1:8080/")
    options = parser.parse_args()
    base = urllib.parse.urlsplit(options.url)

    # 1. HEAD answers as GET does, without a body: same status, type and length. The
    #    server status first, before any stream opens a window that would change it.
    flat_window, flat_token, _ = open_events(base)
    grouped_window, grouped_token, _ = open_events(base, "tier")
    settled(base, flat_token)
    settled(base, grouped_token)
    paths = ["/status", "/", "/list-client.js", "/?group=tier", f"/snapshot?window={flat_token}", f"/snapshot?window={grouped_token}",
             f"/status?window={flat_token}", "/snapshot?window=nope", "/snapshot", "/events", "/events?group=tier"]
    for path in paths:
        get_status, get_headers, _ = request(base, "GET", path)
        head_status, head_headers, head_body = request(base, "HEAD", path)
        got = (head_status, head_headers.get("content-type"), head_headers.get("content-length"))
        expected = (get_status, get_headers.get("content-type"), get_headers.get("content-length"))
        if got != expected or head_body:
            raise CheckFailed(f"HEAD {path}: {got}, GET: {expected}")
    print(f"ok: HEAD answers like GET on every GET endpoint, Content-Length included ({len(paths)} paths)")

    # 1b. A grouped window holds the same rows as a flat one at the same place, in
    #     sections in tier order; bad parameters are 400, an unknown window 404.
    flat = snapshot(base, flat_token)
    grouped = snapshot(base, grouped_token)
    tiers = ["diamond", "platinum", "gold", "silver", "bronze"]
    keys = [section["key"] for section in grouped.get("sections", [])]
    grouped_ids = [item["id"] for section in grouped.get("sections", []) for item in section["items"]]
    flat_ids = [item["id"] for item in flat["items"]]
    if grouped_ids != flat_ids or [key for key in tiers if key in keys] != keys or not keys:
        raise CheckFailed(f"the grouped window's sections {keys} ({len(grouped_ids)} rows) do not group the flat window's {len(flat_ids)} rows")
    for path, expected in [("/?group=nope", 400), ("/events?group=nope", 400), ("/events?resume=bad%20id", 400),
                           ("/events?resume=" + "x" * 65, 400), ("/snapshot", 400), ("/snapshot?window=nope", 404),
                           ("/status?window=nope", 404), (f"/snapshot?window={flat_token}&version=x", 400)]:
        code, _, _ = request(base, "GET", path)
        if code != expected:
            raise CheckFailed(f"GET {path}: {code} (expected {expected})")
    for path, expected in [("/appear?offset=1", 400), ("/appear?window=nope&offset=1", 404), (f"/appear?window={flat_token}&offset=x", 400),
                           (f"/appear?window={flat_token}", 400), ("/retry", 400), ("/retry?window=nope", 404)]:
        code, _, _ = request(base, "POST", path)
        if code != expected:
            raise CheckFailed(f"POST {path}: {code} (expected {expected})")
    print(f"ok: a grouped window groups the flat window's {len(flat_ids)} rows into {keys}; "
          "bad group or token 400, unknown token 404, no window 400")

    # 2. A known path with another method: 405 and Allow, with or without a trailing slash.
    for method, path, allowed in [("GET", "/appear?offset=1", "POST"), ("GET", "/retry", "POST"), ("DELETE", "/snapshot", "GET, HEAD"),
                                  ("POST", "/", "GET, HEAD"), ("POST", "/status/", "GET, HEAD"), ("DELETE", "/snapshot/", "GET, HEAD")]:
        code, headers, _ = request(base, method, path)
        if code != 405 or headers.get("allow") != allowed:
            raise CheckFailed(f"{method} {path}: {code}, Allow {headers.get('allow')!r} (expected 405, {allowed!r})")
    if request(base, "GET", "/nowhere")[0] != 404:
        raise CheckFailed("an unknown path is not 404")
    print("ok: another method on a known path is 405 with Allow; an unknown path is 404")

    # 3. POST /retry answers the window's status; with no failed load it changes nothing.
    code, _, body = request(base, "POST", f"/retry?window={flat_token}")
    if code != 200 or json.loads(body)["pagination"] != status(base, flat_token)["pagination"] or json.loads(body)["window"] != flat_token:
        raise CheckFailed(f"POST /retry: {code} {body[:200]!r}")
    print("ok: POST /retry?window=TOKEN answers the window's status")

    # 4. An idle stream gets heartbeats.
    received = b""
    deadline = time.monotonic() + 5
    while b": heartbeat\n\n" not in received:
        if time.monotonic() > deadline:
            raise CheckFailed(f"no heartbeat on an idle /events stream: {received[:200]!r}")
        received += flat_window.recv(4096)
    print("ok: an idle /events stream gets heartbeat comment lines")

    # 5. Windows are independent. The grouped window is driven down with /appear (the last
    #    row, as a browser scrolling down reports it) while the flat one is left alone.
    top = status(base, flat_token)
    if top["firstRank"] != 1 or top["loadedPages"] != 1 or top["prepend"] != "exhausted":
        raise CheckFailed(f"a new window does not start with one page at rank 1: {top}")
    bound = top["maxLoadedRows"]
    deep = settled(base, grouped_token)
    most = deep["rows"]
    steps = 0
    while deep["firstRank"] < 1000:
        if steps > 200:
            raise CheckFailed(f"driving the grouped window down stalled at {deep}")
        appear(base, grouped_token, f"{max(0, deep['rows'] - 30)},{deep['rows'] - 1}")
        deep = settled(base, grouped_token)
        most = max(most, deep["rows"])
        if deep["rows"] > bound:
            raise CheckFailed(f"the grouped window holds {deep['rows']} rows after its trim (bound {bound})")
        steps += 1
    now = status(base, flat_token)
    if (now["loadedPages"], now["rows"], now["firstId"], now["version"]) != (top["loadedPages"], top["rows"], top["firstId"], top["version"]):
        raise CheckFailed(f"the flat window changed while another window scrolled: {top} → {now}")
    deep_ids = {item["id"] for section in snapshot(base, grouped_token)["sections"] for item in section["items"]}
    if deep_ids & set(flat_ids):
        raise CheckFailed("the window scrolled down still holds rows of the first page")
    print(f"ok: a window driven down to rank {deep['firstRank']} in {steps} steps ({deep['loadedPages']} pages loaded, "
          f"at most {most} rows once trimmed, bound {bound}); the other stayed on its {now['rows']} rows at rank 1")

    # 5b. Scrolling up: the first row reported (as a browser scrolling up reports it)
    #     loads the previous pages, until the window starts at rank 1 again.
    steps = 0
    while deep["prepend"] != "exhausted":
        if steps > 200:
            raise CheckFailed(f"driving the grouped window up stalled at {deep}")
        appear(base, grouped_token, f"{min(deep['rows'] - 1, 30)},0")
        deep = settled(base, grouped_token)
        if deep["rows"] > bound:
            raise CheckFailed(f"the grouped window holds {deep['rows']} rows after its trim (bound {bound})")
        steps += 1
    back = [item["id"] for section in snapshot(base, grouped_token)["sections"] for item in section["items"]]
    if deep["firstRank"] != 1 or back[:len(flat_ids)] != flat_ids:
        raise CheckFailed(f"scrolled back up, the window starts at rank {deep['firstRank']} with {back[:3]}, not {flat_ids[:3]}")
    print(f"ok: scrolling up loaded the previous pages in {steps} steps, back to rank 1 with the first window's "
          f"{len(flat_ids)} rows on top ({deep['rows']} rows)")

    # 6. Browsers that leave have their windows released and freed, although nothing
    #    changes in the lists. The streams step 1 opened and closed are released once a
    #    heartbeat finds them closed: wait until the two windows above are the only ones.
    grouped_window.close()
    grace = status(base)["resumeGraceMs"] / 1000
    wait_for("the flat window of step 1 is the only one left", lambda: status(base)["windows"] == 1, 10 + grace)
    before = status(base)
    leaving = [open_events(base) for _ in range(5)]
    wait_for("6 windows are open", lambda: status(base)["windows"] == 6, 5)
    named = [token for _, token, _ in leaving]
    if len(set(named + [flat_token, grouped_token])) != 7:
        raise CheckFailed(f"two streams were given the same window token: {named}")
    for sock, _, _ in leaving:
        sock.close()
    wait_for("the 5 closed connections' windows are released and freed",
             lambda: (lambda s: s["windows"] == 1 and s["windowsAlive"] == 1)(status(base)), 10 + grace)
    flat_window.close()
    wait_for("the last window is released and freed", lambda: (lambda s: s["windows"] == 0 and s["windowsAlive"] == 0)(status(base)), 10 + grace)
    after = status(base)
    if after["feedEvents"] != before["feedEvents"]:
        raise CheckFailed(f"the feed played during the check: {before['feedEvents']} → {after['feedEvents']} events")
    print(f"ok: closed /events connections release their windows after the {grace:g} s resume grace ({len(named)} "
          f"opened, tokens {sorted(named)[:2]}…), all freed: {after['windowsOpened']} opened, {after['windowsReleased']} released, "
          f"{after['windowsAlive']} alive")


def run(check):
    """Runs a check's `main`; a failed check prints FAIL and exits with status 1."""
    try:
        check()
    except CheckFailed as failure:
        print(f"FAIL: {failure}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    run(main)
