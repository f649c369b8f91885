#!/usr/bin/env python3
"""Checks the web demo in a real browser.

Starts headless Chromium, talks to it over the DevTools protocol on a pipe
(--remote-debugging-pipe: NUL-separated JSON on file descriptors 3 and 4, so
no websocket client is needed), loads the demo page and checks:

1. the page opens its own window (``data-window``) and receives a snapshot and then
   several batches over Server-Sent Events;
2. the DOM (row order, ids, content) equals the server's
   /snapshot?window=ID&version=N for the version the page shows, read in one
   synchronous step so the check cannot race the live feed;
3. names with markup are shown as text: no element from item data exists;
4. scrolling down loads the next pages and drops the ones above: the window moves down
   the leaderboard (its first rank grows), holds at most ``maxLoadedRows`` rows once
   trimmed, and the DOM still equals the snapshot;
5. a second tab opened meanwhile gets another window, at rank 1, while the first stays
   where it was scrolled; closing the tab releases its window;
6. scrolling back up loads the previous pages until the window starts at rank 1 again,
   and the DOM still equals the snapshot;
7. the check itself is not vacuous: after moving one row in the DOM behind the
   client's back, the same comparison reports a mismatch;
8. the grouped page (``/?group=tier``), scrolled to where Diamond meets Platinum, shows
   one section per tier in its window, in tier order, each with its title, its number of
   players and its rows in order, equal to the server's snapshot of its window for the
   version it shows; players move between sections as the live feed changes their
   scores; and a row moved to another section behind the client's back is detected.

Python 3 standard library only, and the helpers of ``http_check.py`` beside it. Exit
status 0 when every check passes.
"""

import argparse
import base64
import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

from http_check import CheckFailed, wait_for


class DevTools:
    """A minimal DevTools protocol client over Chromium's debugging pipe."""

    def __init__(self, chromium, user_data_dir, window_size):
        to_chrome_r, to_chrome_w = os.pipe()
        from_chrome_r, from_chrome_w = os.pipe()

        def map_fds():
            # Chromium reads commands from fd 3 and writes replies to fd 4. Move the
            # pipe ends out of the way first, so the dup2 calls cannot clobber them.
            read_end = os.dup(to_chrome_r)
            write_end = os.dup(from_chrome_w)
            os.dup2(read_end, 3)
            os.dup2(write_end, 4)

        args = [
            chromium,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--no-first-run",
            "--no-default-browser-check",
            "--remote-debugging-pipe",
            f"--user-data-dir={user_data_dir}",
            f"--window-size={window_size}",
            "about:blank",
        ]
        self.process = subprocess.Popen(
            args, preexec_fn=map_fds, close_fds=False,
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self.writer = os.fdopen(to_chrome_w, "wb", buffering=0)
        self.reader = os.fdopen(from_chrome_r, "rb", buffering=0)
        self.next_id = 0
        self.replies = {}
        self.events = queue.Queue()
        self.condition = threading.Condition()
        self.closed = False
        threading.Thread(target=self._read_loop, daemon=True).start()
        self.stderr_lines = []
        threading.Thread(target=self._drain_stderr, daemon=True).start()

    def _drain_stderr(self):
        for line in self.process.stderr:
            self.stderr_lines.append(line.decode("utf-8", "replace").rstrip())

    def _read_loop(self):
        buffer = b""
        while True:
            chunk = self.reader.read(65536)
            if not chunk:
                break
            buffer += chunk
            while b"\0" in buffer:
                raw, buffer = buffer.split(b"\0", 1)
                message = json.loads(raw)
                if "id" in message:
                    with self.condition:
                        self.replies[message["id"]] = message
                        self.condition.notify_all()
                else:
                    self.events.put(message)
        with self.condition:
            self.closed = True
            self.condition.notify_all()

    def send(self, method, params=None, session=None, timeout=30):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        self.writer.write(json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        with self.condition:
            while self.next_id not in self.replies:
                remaining = deadline - time.monotonic()
                if self.closed or remaining <= 0:
                    raise CheckFailed(f"no reply to {method} (browser {'exited' if self.closed else 'timed out'})")
                self.condition.wait(remaining)
            reply = self.replies.pop(self.next_id)
        if "error" in reply:
            raise CheckFailed(f"{method} failed: {reply['error']}")
        return reply.get("result", {})

    def close(self):
        try:
            self.send("Browser.close", timeout=5)
        except CheckFailed:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class Page:
    def __init__(self, devtools, session):
        self.devtools = devtools
        self.session = session

    def evaluate(self, expression):
        result = self.devtools.send(
            "Runtime.evaluate",
            {"expression": expression, "returnByValue": True, "awaitPromise": True},
            session=self.session,
        )
        if "exceptionDetails" in result:
            raise CheckFailed(f"page script failed: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_for(self, expression, description, timeout):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = self.evaluate(expression)
            if value:
                return value
            time.sleep(0.1)
        raise CheckFailed(f"timed out after {timeout}s waiting for {description}")


# Reads the list as the page shows it, in one synchronous step: nothing can change
# the DOM while it runs.
READ_DOM = """(() => {
  const board = document.getElementById("board");
  const rows = [...board.children];
  return {
    window: board.dataset.window,
    firstRank: Number(board.dataset.firstRank ?? 0),
    version: Number(board.dataset.version),
    batches: Number(board.dataset.batches ?? 0),
    snapshots: Number(board.dataset.snapshots ?? 0),
    ids: rows.map((row) => row.getAttribute("data-id")),
    html: rows.map((row) => row.innerHTML),
    tags: rows.map((row) => row.tagName),
    names: rows.map((row) => row.querySelector(".name")?.textContent ?? null),
    injected: board.querySelectorAll("script, b, img, iframe").length,
  };
})()"""


# Reads the grouped list as the page shows it, in one synchronous step.
READ_GROUPED_DOM = """(() => {
  const board = document.getElementById("board");
  const sections = [...board.children];
  const rows = (section) => [...(section.querySelector(":scope > ol")?.children ?? [])];
  return {
    window: board.dataset.window,
    firstRank: Number(board.dataset.firstRank ?? 0),
    version: Number(board.dataset.version),
    batches: Number(board.dataset.batches ?? 0),
    snapshots: Number(board.dataset.snapshots ?? 0),
    tags: sections.map((section) => section.tagName),
    keys: sections.map((section) => section.getAttribute("data-key")),
    titles: sections.map((section) => section.querySelector(":scope > h2 > .list-section-title")?.textContent ?? null),
    counts: sections.map((section) => section.querySelector(":scope > h2 > .list-section-count")?.textContent ?? null),
    ids: sections.map((section) => rows(section).map((row) => row.getAttribute("data-id"))),
    html: sections.map((section) => rows(section).map((row) => row.innerHTML)),
    rowTags: sections.map((section) => rows(section).map((row) => row.tagName)),
    injected: board.querySelectorAll("ol script, ol b, ol img, ol iframe").length,
  };
})()"""

# The tiers' keys, best first: the order their sections must come in.
TIER_ORDER = ["diamond", "platinum", "gold", "silver", "bronze"]


def fetch_json(url, timeout=10):
    with urllib.request.urlopen(url, timeout=timeout) as response:
        return json.loads(response.read().decode("utf-8"))


def http_status(url, timeout=10):
    """The HTTP status of a GET."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def snapshot_at(base, window, version, timeout=10):
    """The server's snapshot message of `window` at `version` (retrying while it is not rendered yet)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            return fetch_json(f"{base}snapshot?window={window}&version={version}")
        except urllib.error.HTTPError as error:
            body = error.read().decode("utf-8", "replace")
            if error.code == 404 and "does not exist yet" in body and time.monotonic() < deadline:
                time.sleep(0.05)
                continue
            raise CheckFailed(f"/snapshot?window={window}&version={version}: HTTP {error.code} {body}")


def normalized(page, html_list):
    """The markup as the browser serialises it after parsing (entities normalised)."""
    return page.evaluate(
        "(" + json.dumps(html_list) + ").map((html) => {"
        " const template = document.createElement('template'); template.innerHTML = html; return template.innerHTML; })"
    )


def compare(page, base, dom):
    """Differences between the DOM as read and the server's snapshot of that version."""
    snapshot = snapshot_at(base, dom["window"], dom["version"])
    problems = []
    if snapshot.get("type") != "snapshot" or snapshot.get("version") != dom["version"]:
        problems.append(f"server answered {snapshot.get('type')} v{snapshot.get('version')} for v{dom['version']}")
    expected_ids = [item["id"] for item in snapshot["items"]]
    if dom["ids"] != expected_ids:
        first = next((i for i, (a, b) in enumerate(zip(dom["ids"], expected_ids)) if a != b), min(len(dom["ids"]), len(expected_ids)))
        problems.append(
            f"row order differs at offset {first}: DOM {dom['ids'][first:first + 3]} vs server {expected_ids[first:first + 3]}"
            f" ({len(dom['ids'])} vs {len(expected_ids)} rows)"
        )
    else:
        expected_html = normalized(page, [item["html"] for item in snapshot["items"]])
        for offset, (shown, wanted) in enumerate(zip(dom["html"], expected_html)):
            if shown != wanted:
                problems.append(f"row {offset} ({dom['ids'][offset]}) shows {shown!r}, server has {wanted!r}")
                break
    if any(tag != "LI" for tag in dom["tags"]):
        problems.append("a child of the list is not a row element")
    return problems, snapshot


def compare_grouped(page, base, dom):
    """Differences between the grouped DOM as read and the server's grouped snapshot of that version."""
    snapshot = snapshot_at(base, dom["window"], dom["version"])
    problems = []
    if snapshot.get("type") != "snapshot" or snapshot.get("version") != dom["version"] or "sections" not in snapshot:
        problems.append(f"server answered {snapshot.get('type')} v{snapshot.get('version')} without sections for v{dom['version']}")
        return problems, snapshot
    sections = snapshot["sections"]
    expected_keys = [section["key"] for section in sections]
    if dom["keys"] != expected_keys:
        problems.append(f"sections differ: DOM {dom['keys']} vs server {expected_keys}")
    if [key for key in TIER_ORDER if key in dom["keys"]] != dom["keys"]:
        problems.append(f"sections are not in tier order: {dom['keys']}")
    if any(tag != "SECTION" for tag in dom["tags"]):
        problems.append("a child of the board is not a section element")
    if problems:
        return problems, snapshot
    for index, section in enumerate(sections):
        key = section["key"]
        expected_ids = [item["id"] for item in section["items"]]
        shown = dom["ids"][index]
        if dom["titles"][index] != section["title"]:
            problems.append(f"section {key} is titled {dom['titles'][index]!r}, server has {section['title']!r}")
        if dom["counts"][index] != str(len(expected_ids)):
            problems.append(f"section {key} counts {dom['counts'][index]!r} players, server has {len(expected_ids)}")
        if shown != expected_ids:
            first = next((i for i, (a, b) in enumerate(zip(shown, expected_ids)) if a != b), min(len(shown), len(expected_ids)))
            problems.append(
                f"section {key}: row order differs at offset {first}: DOM {shown[first:first + 3]} vs server "
                f"{expected_ids[first:first + 3]} ({len(shown)} vs {len(expected_ids)} rows)"
            )
            continue
        expected_html = normalized(page, [item["html"] for item in section["items"]])
        for offset, (html, wanted) in enumerate(zip(dom["html"][index], expected_html)):
            if html != wanted:
                problems.append(f"section {key} row {offset} ({shown[offset]}) shows {html!r}, server has {wanted!r}")
                break
        if any(tag != "LI" for tag in dom["rowTags"][index]):
            problems.append(f"a child of section {key}'s list is not a row element")
    return problems, snapshot


def settled_dom(page, base, window, bound, options):
    """The DOM once the window loads nothing and holds at most `bound` rows (its trim
    done), read when the page has applied the window's version."""
    deadline = time.monotonic() + options.timeout
    while True:
        status = fetch_json(f"{base}status?window={window}")
        dom = page.evaluate(READ_DOM)
        if status["pagination"] != "loading" and status["prepend"] != "loading" and len(dom["ids"]) <= bound:
            return dom
        if time.monotonic() > deadline:
            raise CheckFailed(f"window {window} did not settle within {bound} rows: {len(dom['ids'])} rows, {status}")
        time.sleep(0.2)


def tiers_of(dom):
    """Each shown player's section key."""
    return {id_: key for key, ids in zip(dom["keys"], dom["ids"]) for id_ in ids}


def check_grouped(page, devtools, session, base, options):
    """The grouped page: sections equal the server's, players move between them live."""
    devtools.send("Page.navigate", {"url": base + "?group=tier"}, session=session)
    page.wait_for(
        "document.getElementById('board')?.dataset.version !== undefined && document.getElementById('board').childElementCount > 0",
        "the grouped page's first snapshot", options.timeout)
    # Down to where Diamond (the first 214 players) meets Platinum, a screen at a time,
    # so that the window holds both tiers; then the page stays there.
    deadline = time.monotonic() + options.timeout
    while True:
        count = page.evaluate("(() => { const board = document.getElementById('board');"
                              " if (board.childElementCount < 2) window.scrollBy(0, 500); return board.childElementCount; })()")
        if count >= 2:
            break
        if time.monotonic() > deadline:
            raise CheckFailed(f"scrolling the grouped page did not reach a second tier: {count} section(s)")
        time.sleep(0.3)
    batches = page.evaluate("Number(document.getElementById('board').dataset.batches ?? 0)")
    page.wait_for(
        f"Number(document.getElementById('board').dataset.batches ?? 0) >= {batches + options.batches}",
        f"{options.batches} batches on the grouped page", options.timeout)

    dom = page.evaluate(READ_GROUPED_DOM)
    problems, _ = compare_grouped(page, base, dom)
    if problems:
        raise CheckFailed("grouped page after live batches: " + "; ".join(problems))
    if dom["injected"]:
        raise CheckFailed(f"{dom['injected']} element(s) from item data were created inside the grouped list")
    print(f"ok: grouped window {dom['window']} v{dom['version']}: sections {dom['keys']} with "
          f"{[len(ids) for ids in dom['ids']]} rows from rank {dom['firstRank']}, in the server's order, after {dom['batches']} batches")

    # Players move between sections live: wait until one shown at both reads is in
    # another section, and check the DOM against the server again.
    first = tiers_of(dom)
    deadline = time.monotonic() + options.timeout
    while True:
        time.sleep(0.5)
        later = page.evaluate(READ_GROUPED_DOM)
        now = tiers_of(later)
        moved = sorted(id_ for id_, key in now.items() if first.get(id_, key) != key)
        if moved:
            break
        if time.monotonic() > deadline:
            raise CheckFailed(f"no player changed tier on the grouped page within {options.timeout}s")
    problems, _ = compare_grouped(page, base, later)
    if problems:
        raise CheckFailed("grouped page after players changed tier: " + "; ".join(problems))
    examples = ", ".join(f"{id_} {first[id_]}→{now[id_]}" for id_ in moved[:3])
    print(f"ok: grouped v{later['version']}: {len(moved)} player(s) changed section live ({examples}); "
          "the DOM still equals the server's snapshot")

    if options.grouped_screenshot:
        # The boundary between the first two tiers, with both headers in view.
        page.evaluate("(() => { const second = document.getElementById('board').children[1];"
                      " window.scrollTo(0, second.getBoundingClientRect().top + window.scrollY - 420); })()")
        time.sleep(1.0)
        shot = devtools.send("Page.captureScreenshot", {"format": "png"}, session=session)
        with open(options.grouped_screenshot, "wb") as file:
            file.write(base64.b64decode(shot["data"]))
        print(f"screenshot: {options.grouped_screenshot}")

    # The comparison detects a row in the wrong section: move the first row of the
    # first section to the end of the last one behind the client's back.
    corrupted = page.evaluate(
        "(() => { const board = document.getElementById('board');"
        " board.lastElementChild.querySelector('ol').appendChild(board.firstElementChild.querySelector('ol').firstElementChild);"
        " return " + READ_GROUPED_DOM + "; })()")
    problems, _ = compare_grouped(page, base, corrupted)
    if not problems:
        raise CheckFailed("a row moved to another section behind the client's back went unnoticed: the check is vacuous")
    print(f"ok: a row in the wrong section is detected ({problems[0]})")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", required=True, help="the demo's base URL, e.g. http://127.0.0.1:8080/")
    parser.add_argument("--chromium", default=shutil.which("chromium") or shutil.which("chromium-browser") or "chromium")
    parser.add_argument("--batches", type=int, default=5, help="batches the page must apply before the first check")
    parser.add_argument("--screenshot", help="write a PNG screenshot of the page here")
    parser.add_argument("--grouped-screenshot", help="write a PNG screenshot of the grouped page (/?group=tier) here")
    parser.add_argument("--timeout", type=float, default=60)
    options = parser.parse_args()
    base = options.url if options.url.endswith("/") else options.url + "/"

    user_data = tempfile.mkdtemp(prefix="web-demo-chromium-")
    devtools = DevTools(options.chromium, user_data, "1000,900")
    try:
        # Chromium may answer before it has opened its first tab.
        def first_page():
            targets = devtools.send("Target.getTargets")["targetInfos"]
            return next((t for t in targets if t["type"] == "page"), None)
        wait_for("Chromium has opened a page", lambda: first_page() is not None, options.timeout)
        page_target = first_page()
        session = devtools.send("Target.attachToTarget", {"targetId": page_target["targetId"], "flatten": True})["sessionId"]
        page = Page(devtools, session)
        devtools.send("Runtime.enable", session=session)
        devtools.send("Page.enable", session=session)
        devtools.send("Page.navigate", {"url": base}, session=session)

        page.wait_for(
            "document.getElementById('board')?.dataset.version !== undefined && document.getElementById('board').childElementCount > 0",
            "the first snapshot", options.timeout)
        page.wait_for(
            f"Number(document.getElementById('board').dataset.batches ?? 0) >= {options.batches}",
            f"{options.batches} batches", options.timeout)

        # 1. The DOM equals the server's snapshot of the same version.
        dom = page.evaluate(READ_DOM)
        problems, snapshot = compare(page, base, dom)
        if problems:
            raise CheckFailed("after live batches: " + "; ".join(problems))
        print(f"ok: window {dom['window']} v{dom['version']}: {len(dom['ids'])} rows from rank {dom['firstRank']} in the server's order after "
              f"{dom['batches']} batches and {dom['snapshots']} snapshot(s)")

        # 2. Item text is text: no element came from a name.
        if dom["injected"]:
            raise CheckFailed(f"{dom['injected']} element(s) from item data were created inside the list")
        # The names as read with the rows above, of the same version as the snapshot.
        names = dict(zip(dom["ids"], dom["names"]))
        marked_up = [item["id"] for item in snapshot["items"] if "&lt;" in item["html"]]
        if marked_up:
            texts = [names.get(id_) for id_ in marked_up]
            for id_, text in zip(marked_up, texts):
                if text is None or "<" not in text:
                    raise CheckFailed(f"row {id_} should show its markup as text, shows {text!r}")
            print(f"ok: {len(marked_up)} name(s) with markup shown as text, e.g. {texts[0]!r}")

        # 3. Scrolling down loads the next pages and drops the ones above.
        window_id = dom["window"]
        first_status = fetch_json(f"{base}status?window={window_id}")
        bound = first_status["maxLoadedRows"]
        deadline = time.monotonic() + options.timeout
        while True:
            rank = page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight); "
                                 "Number(document.getElementById('board').dataset.firstRank ?? 0)")
            if rank >= 400:
                break
            if time.monotonic() > deadline:
                raise CheckFailed(f"scrolling down did not move the window past rank 400: first rank {rank}")
            time.sleep(0.2)
        dom = settled_dom(page, base, window_id, bound, options)
        problems, _ = compare(page, base, dom)
        if problems:
            raise CheckFailed("after scrolling down: " + "; ".join(problems))
        status = fetch_json(f"{base}status?window={window_id}")
        print(f"ok: window {window_id} v{dom['version']}: scrolled down to rank {dom['firstRank']}, {len(dom['ids'])} rows "
              f"(bound {bound}; {status['loadedPages']} pages loaded, {status['feedEvents']} feed events), in the server's order")

        # 4. Another tab gets its own window at the top; this one stays where it is.
        other_target = devtools.send("Target.createTarget", {"url": base})["targetId"]
        other_session = devtools.send("Target.attachToTarget", {"targetId": other_target, "flatten": True})["sessionId"]
        other = Page(devtools, other_session)
        devtools.send("Runtime.enable", session=other_session)
        other.wait_for("document.getElementById('board')?.dataset.firstRank === '1'", "the second tab's first page", options.timeout)
        other_dom = other.evaluate(READ_DOM)
        problems, _ = compare(other, base, other_dom)
        if problems:
            raise CheckFailed("second tab: " + "; ".join(problems))
        mine = fetch_json(f"{base}status?window={window_id}")
        # The first tab keeps its place (give or take the pages its own rows call for,
        # in the background): the second one did not take it back to the top.
        if other_dom["window"] == window_id or mine["firstRank"] <= 1 or mine["prepend"] == "exhausted":
            raise CheckFailed(f"the second tab shares or moved the first tab's window: {other_dom['window']} vs {window_id}, {mine}")
        devtools.send("Target.closeTarget", {"targetId": other_target})
        devtools.send("Target.activateTarget", {"targetId": page_target["targetId"]})
        wait_for("the closed tab's window is released (after its resume grace)",
                 lambda: http_status(f"{base}status?window={other_dom['window']}") == 404, 30)
        print(f"ok: a second tab got its own window {other_dom['window']} at rank 1 ({len(other_dom['ids'])} rows) while window "
              f"{window_id} stayed at rank {mine['firstRank']}; closing the tab released its window")

        # 4b. The connection breaks (the kernel resets the server's sockets): the page
        #     resumes its window by token, where it was scrolled, not a new one at the top.
        before = fetch_json(f"{base}status")
        port = urllib.parse.urlsplit(base).port
        killed = subprocess.run(["ss", "-K", "-t", "state", "established", f"( sport = :{port} )"], capture_output=True, text=True)
        if killed.returncode != 0 or len(killed.stdout.strip().splitlines()) < 2:
            raise CheckFailed(f"ss -K did not reset the page's connection: {killed.returncode} {killed.stdout!r} {killed.stderr!r}")
        wait_for("the page resumes its window",
                 lambda: fetch_json(f"{base}status")["windowsResumed"] > before["windowsResumed"]
                 and fetch_json(f"{base}status")["streams"] == 1, 30)
        resumed = settled_dom(page, base, window_id, bound, options)
        problems, _ = compare(page, base, resumed)
        if problems:
            raise CheckFailed("after the resume: " + "; ".join(problems))
        after = fetch_json(f"{base}status")
        if resumed["window"] != window_id or resumed["firstRank"] <= 1 or after["windowsOpened"] != before["windowsOpened"]:
            raise CheckFailed(f"the page did not resume its window {window_id} where it was: window {resumed['window']}, rank "
                              f"{resumed['firstRank']}, {after['windowsOpened'] - before['windowsOpened']} windows opened")
        print(f"ok: a broken connection: the page resumed window {window_id} (same token, no new window) at rank "
              f"{resumed['firstRank']} with {len(resumed['ids'])} rows equal to the server's v{resumed['version']}")

        # 5. Scrolling back up loads the previous pages, back to rank 1.
        deadline = time.monotonic() + options.timeout
        while True:
            state = page.evaluate("window.scrollTo(0, 0); (() => { const board = document.getElementById('board');"
                                  " return [Number(board.dataset.firstRank ?? 0), board.firstElementChild?.getAttribute('data-id')]; })()")
            if state[0] == 1:
                status = fetch_json(f"{base}status?window={window_id}")
                if status["prepend"] == "exhausted" and status["firstId"] == state[1]:
                    break
            if time.monotonic() > deadline:
                raise CheckFailed(f"scrolling up did not bring the window back to rank 1: first rank {state[0]}")
            time.sleep(0.2)
        dom = settled_dom(page, base, window_id, bound, options)
        problems, _ = compare(page, base, dom)
        if problems:
            raise CheckFailed("after scrolling up: " + "; ".join(problems))
        print(f"ok: window {window_id} v{dom['version']}: scrolled back up to rank {dom['firstRank']}, {len(dom['ids'])} rows, "
              f"in the server's order")

        if options.screenshot:
            page.evaluate("window.scrollTo(0, 0)")
            time.sleep(0.3)
            shot = devtools.send("Page.captureScreenshot", {"format": "png"}, session=session)
            with open(options.screenshot, "wb") as file:
                file.write(base64.b64decode(shot["data"]))
            print(f"screenshot: {options.screenshot}")

        # 6. The comparison detects a wrong order: move the first row to the end behind
        #    the client's back and read the DOM in the same step.
        corrupted = page.evaluate(
            "(() => { const board = document.getElementById('board');"
            " board.appendChild(board.firstElementChild); return " + READ_DOM + "; })()")
        problems, _ = compare(page, base, corrupted)
        if not problems:
            raise CheckFailed("a row moved behind the client's back went unnoticed: the check is vacuous")
        print(f"ok: a wrong order is detected ({problems[0]})")

        # 7. The grouped page.
        check_grouped(page, devtools, session, base, options)

        exceptions = []
        while not devtools.events.empty():
            event = devtools.events.get()
            if event.get("method") == "Runtime.exceptionThrown":
                exceptions.append(event["params"]["exceptionDetails"].get("text", "?"))
        if exceptions:
            raise CheckFailed(f"the page threw: {exceptions}")
        print("browser test passed")
        return 0
    except CheckFailed as failure:
        print(f"browser test FAILED: {failure}", file=sys.stderr)
        if devtools.stderr_lines:
            print("chromium said:\n  " + "\n  ".join(devtools.stderr_lines[-15:]), file=sys.stderr)
        return 1
    finally:
        devtools.close()
        shutil.rmtree(user_data, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
