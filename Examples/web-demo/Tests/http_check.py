#!/usr/bin/env python3
"""HTTP checks of the web demo's endpoints, without a browser.

Run against a server started with the feed off and a short heartbeat, e.g.
``web-demo --port 0 --feed-interval 0 --heartbeat 200``:

- every GET endpoint answers HEAD with the same status, content type and length, and no body;
- the grouped snapshot (``/snapshot?group=tier``) groups the flat snapshot's rows by
  tier, at the same version, and an unknown ``group`` is answered 400;
- another method on a known path is answered 405 with an ``Allow`` header;
- an idle ``/events`` stream gets ``: heartbeat`` comment lines;
- browsers that close their ``/events`` connection are removed from the hub (``/status``
  counts them) within a few heartbeats, although the list does not change.

Python 3 standard library only. Exit status 0 when every check passes.
"""

import argparse
import http.client
import json
import socket
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


def status(base):
    return json.loads(request(base, "GET", "/status")[2])


def open_events(base):
    """A raw socket reading /events, after its headers and first (snapshot) message."""
    sock = socket.create_connection((base.hostname, base.port), timeout=10)
    sock.sendall(f"GET /events HTTP/1.1\r\nHost: {base.hostname}\r\nAccept: text/event-stream\r\n\r\n".encode())
    received = b""
    deadline = time.monotonic() + 10
    # The body is chunked: the message ends at the first blank line after "data: ".
    while b"data: " not in received or received.find(b"\n\n", received.find(b"data: ")) < 0:
        if time.monotonic() > deadline:
            raise CheckFailed(f"/events sent no snapshot message: {received[:200]!r}")
        chunk = sock.recv(65536)
        if not chunk:
            raise CheckFailed("/events closed before its first message")
        received += chunk
    return sock


def wait_for(description, condition, timeout):
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise CheckFailed(f"timed out waiting until {description}")
        time.sleep(0.05)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", required=True, help="the demo's base URL, e.g. http://127.0.0.1:8080/")
    options = parser.parse_args()
    base = urllib.parse.urlsplit(options.url)

    # The server has just started and its first page may still be loading: wait for it,
    # so that neither the list nor the status changes between the requests compared
    # below (the feed is off).
    wait_for("the first page has loaded", lambda: status(base)["pagination"] != "loading", timeout=30)

    # 1. HEAD answers as GET does, without a body: same status, type and length.
    for path in ["/", "/list-client.js", "/events", "/snapshot", "/status", "/?group=tier", "/events?group=tier", "/snapshot?group=tier"]:
        get_status, get_headers, _ = request(base, "GET", path)
        head_status, head_headers, head_body = request(base, "HEAD", path)
        got = (head_status, head_headers.get("content-type"), head_headers.get("content-length"))
        expected = (get_status, get_headers.get("content-type"), get_headers.get("content-length"))
        if got != expected or head_body:
            raise CheckFailed(f"HEAD {path}: {got}, GET: {expected}")
    print("ok: HEAD answers like GET on every GET endpoint, Content-Length included")

    # 1b. The grouped list: its snapshot holds the flat snapshot's rows, in the same
    #     order, in sections in tier order, at the same version; an unknown grouping is 400.
    flat = json.loads(request(base, "GET", "/snapshot")[2])
    grouped = json.loads(request(base, "GET", "/snapshot?group=tier")[2])
    tiers = ["diamond", "platinum", "gold", "silver", "bronze"]
    keys = [section["key"] for section in grouped.get("sections", [])]
    grouped_ids = [item["id"] for section in grouped.get("sections", []) for item in section["items"]]
    if grouped.get("version") != flat["version"] or grouped_ids != [item["id"] for item in flat["items"]] \
            or [key for key in tiers if key in keys] != keys or not keys:
        raise CheckFailed(f"/snapshot?group=tier v{grouped.get('version')} sections {keys} does not group /snapshot v{flat['version']}")
    for path in ["/?group=nope", "/events?group=nope", "/snapshot?group=nope", f"/snapshot?group=nope&version={flat['version']}"]:
        code, _, _ = request(base, "GET", path)
        if code != 400:
            raise CheckFailed(f"GET {path}: {code} (expected 400)")
    print(f"ok: /snapshot?group=tier groups /snapshot's {len(grouped_ids)} rows into {keys}; an unknown group is 400")

    # 2. A known path with another method: 405 and Allow, with or without a trailing slash.
    for method, path, allowed in [("GET", "/appear?offset=1", "POST"), ("GET", "/retry", "POST"), ("DELETE", "/snapshot", "GET, HEAD"),
                                  ("POST", "/", "GET, HEAD"), ("POST", "/status/", "GET, HEAD"), ("DELETE", "/snapshot/", "GET, HEAD")]:
        code, headers, _ = request(base, method, path)
        if code != 405 or headers.get("allow") != allowed:
            raise CheckFailed(f"{method} {path}: {code}, Allow {headers.get('allow')!r} (expected 405, {allowed!r})")
    if request(base, "GET", "/nowhere")[0] != 404:
        raise CheckFailed("an unknown path is not 404")
    print("ok: another method on a known path is 405 with Allow; an unknown path is 404")

    # 3. POST /retry answers the status; with no failed load it changes nothing.
    code, _, body = request(base, "POST", "/retry")
    if code != 200 or json.loads(body)["pagination"] != status(base)["pagination"]:
        raise CheckFailed(f"POST /retry: {code} {body[:200]!r}")
    print("ok: POST /retry answers the status")

    # 4. An idle stream gets heartbeats.
    watcher = open_events(base)
    received = b""
    deadline = time.monotonic() + 5
    while b": heartbeat\n\n" not in received:
        if time.monotonic() > deadline:
            raise CheckFailed(f"no heartbeat on an idle /events stream: {received[:200]!r}")
        received += watcher.recv(4096)
    print("ok: an idle /events stream gets heartbeat comment lines")

    # 5. Browsers that leave are removed, although nothing changes in the list. The
    # /events stream that step 1 read from and closed is itself removed only when a
    # heartbeat finds it closed: wait until the watcher is the only client.
    wait_for("the watcher is the only client", lambda: status(base)["clients"] == 1, 10)
    before = status(base)
    leaving = [open_events(base) for _ in range(5)]
    wait_for("6 clients are counted", lambda: status(base)["clients"] == 6, 5)
    for sock in leaving:
        sock.close()
    wait_for("the 5 closed connections are removed", lambda: status(base)["clients"] == 1, 10)
    watcher.close()
    wait_for("the last client is removed", lambda: status(base)["clients"] == 0, 10)
    after = status(base)
    if after["version"] != before["version"]:
        raise CheckFailed(f"the list changed during the check: v{before['version']} → v{after['version']}")
    print(f"ok: closed /events connections are removed from the hub while the list stays at v{after['version']}")


def run(check):
    """Runs a check's `main`; a failed check prints FAIL and exits with status 1."""
    try:
        check()
    except CheckFailed as failure:
        print(f"FAIL: {failure}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    run(main)
