"""Tests for the fixture generator and the fixture HTTP server.

Run from the repository root:
    python3 -m unittest discover -s Fixtures -p 'test_*.py'
"""

import base64
import filecmp
import http.client
import json
import importlib.util
import os
import random
import re
import select
import signal
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SERVER = os.path.join(HERE, "server.py")
GENERATE = os.path.join(HERE, "generate.py")
PLAYERS = os.path.join(HERE, "leaderboard", "players.json")


def server_key(p):
    return (-p["score"], p["id"])


def encode_cursor(score, pid):
    """The server's cursor for the (score, id) key, written out independently."""
    raw = ("%d:%s" % (score, pid)).encode("utf-8")
    return "c_" + base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def load_players():
    with open(PLAYERS, encoding="utf-8") as f:
        return json.load(f)


def start_server(*args):
    """Start server.py on an ephemeral port; return (process, host, port)."""
    proc = subprocess.Popen(
        [sys.executable, SERVER, "--port", "0", *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    ready, _, _ = select.select([proc.stdout], [], [], 10)
    if not ready:
        proc.kill()
        proc.wait()
        raise RuntimeError("server did not print its LISTENING line")
    line = proc.stdout.readline().decode("utf-8").strip()
    prefix = "LISTENING http://127.0.0.1:"
    if not line.startswith(prefix):
        proc.kill()
        proc.wait()
        raise RuntimeError("unexpected first line: %r" % line)
    return proc, "127.0.0.1", int(line[len(prefix):])


def stop_server(proc, sig=signal.SIGTERM):
    proc.send_signal(sig)
    try:
        code = proc.wait(timeout=5)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdout.close()
        proc.stderr.close()
    return code


class Client:
    def __init__(self, host, port):
        self.host, self.port = host, port

    def request(self, method, path, body=None, headers=None, with_headers=False):
        conn = http.client.HTTPConnection(self.host, self.port, timeout=10)
        try:
            headers = dict(headers or {})
            if body is not None:
                headers["Content-Type"] = "application/json"
            data = json.dumps(body).encode() if body is not None else None
            conn.request(method, path, body=data, headers=headers)
            resp = conn.getresponse()
            result = (resp.status, resp.getheader("Content-Type"), resp.read())
            return result + (resp,) if with_headers else result
        finally:
            conn.close()

    def get_json(self, path):
        status, ctype, body = self.request("GET", path)
        if status != 200:
            raise AssertionError("GET %s -> %d %r" % (path, status, body[:200]))
        return json.loads(body.decode("utf-8"))

    def control(self, **values):
        status, _, body = self.request("POST", "/control", values)
        if status != 200:
            raise AssertionError("control %r -> %d %r" % (values, status, body))
        return json.loads(body)

    # Full walks ------------------------------------------------------------

    def walk_pages(self, limit=50, page_param="page", limit_param="limit"):
        ids, page, total_pages = [], 1, None
        while True:
            doc = self.get_json("/pages?%s=%d&%s=%d" % (page_param, page, limit_param, limit))
            total_pages = doc["pagination"]["totalPages"]
            ids += [r["id"] for r in doc["data"]]
            if page >= total_pages:
                return ids, page
            page += 1

    def walk_offset(self, limit=50, offset_param="offset", limit_param="limit"):
        ids, offset, requests = [], 0, 0
        while True:
            doc = self.get_json("/offset?%s=%d&%s=%d" % (offset_param, offset, limit_param, limit))
            requests += 1
            ids += [r["id"] for r in doc["data"]]
            offset += limit
            if offset >= doc["pagination"]["totalItems"]:
                return ids, requests

    def walk_before(self, limit, cursor, before_param="before", limit_param="limit"):
        """Follow previousCursor from `cursor` to the start; return the rows in order."""
        pages, requests = [], 0
        while cursor is not None:
            doc = self.get_json("/cursor?%s=%d&%s=%s" % (limit_param, limit, before_param, cursor))
            requests += 1
            pages.append([r["id"] for r in doc["data"]])
            cursor = doc["pagination"]["previousCursor"]
        return [pid for page in reversed(pages) for pid in page], requests

    def walk_cursor(self, limit=50, cursor=None, cursor_param="cursor", limit_param="limit"):
        ids, requests = [], 0
        while True:
            path = "/cursor?%s=%d" % (limit_param, limit)
            if cursor:
                path += "&%s=%s" % (cursor_param, cursor)
            doc = self.get_json(path)
            requests += 1
            ids += [r["id"] for r in doc["data"]]
            cursor = doc["pagination"]["nextCursor"]
            if cursor is None:
                return ids, requests


class ServerTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.proc, host, port = start_server()
        cls.client = Client(host, port)
        cls.players = load_players()
        cls.order = [p["id"] for p in sorted(cls.players, key=server_key)]

    @classmethod
    def tearDownClass(cls):
        code = stop_server(cls.proc)
        assert code == 0, "server exit status %r" % code

    def setUp(self):
        self.client.control(reset=True)

    def stats(self):
        return self.client.get_json("/stats")["requests"]

    # Walks -------------------------------------------------------------------

    def test_health(self):
        self.assertEqual(self.client.request("GET", "/health")[2], b"ok")

    def test_page_walk(self):
        ids, pages = self.client.walk_pages()
        self.assertEqual(ids, self.order)
        self.assertEqual(pages, 60)
        self.assertEqual(self.stats(), {"pages": 60, "offset": 0, "cursor": 0})
        doc = self.client.get_json("/pages?page=61")
        self.assertEqual(doc["data"], [])
        self.assertEqual(doc["pagination"],
                         {"page": 61, "limit": 50, "totalPages": 60, "totalItems": 3000})

    def test_page_walk_uneven_limit(self):
        ids, pages = self.client.walk_pages(limit=7)
        self.assertEqual(ids, self.order)
        self.assertEqual(pages, 429)

    def test_offset_walk(self):
        ids, requests = self.client.walk_offset()
        self.assertEqual(ids, self.order)
        self.assertEqual(self.stats(), {"pages": 0, "offset": requests, "cursor": 0})
        doc = self.client.get_json("/offset?offset=2990&limit=50")
        self.assertEqual([r["id"] for r in doc["data"]], self.order[2990:])
        self.assertEqual(doc["pagination"], {"offset": 2990, "limit": 50, "totalItems": 3000})

    def test_cursor_walk(self):
        ids, requests = self.client.walk_cursor()
        self.assertEqual(ids, self.order)
        self.assertEqual(requests, 60)
        self.assertEqual(self.stats(), {"pages": 0, "offset": 0, "cursor": 60})
        ids, _ = self.client.walk_cursor(limit=7)
        self.assertEqual(ids, self.order)

    def test_content_type_and_shape(self):
        status, ctype, body = self.client.request("GET", "/pages?page=1")
        self.assertEqual(status, 200)
        self.assertEqual(ctype, "application/json; charset=utf-8")
        doc = json.loads(body.decode("utf-8"))
        self.assertEqual(len(doc["data"]), 50)
        self.assertEqual(set(doc["data"][0]), {"id", "name", "score", "country"})

    def test_pages_match_fixture_files(self):
        for page in (1, 2, 60):
            with open(os.path.join(HERE, "leaderboard", "pages", "page-%03d.json" % page),
                      encoding="utf-8") as f:
                fixture = json.load(f)
            self.assertEqual(self.client.get_json("/pages?page=%d" % page), fixture)

    def test_cursors_match_fixture_files(self):
        # The files hold no previousCursor; the server adds it: null on the first page,
        # the first row's cursor on the others.
        with open(os.path.join(HERE, "leaderboard", "cursor", "first.json"), encoding="utf-8") as f:
            fixture = json.load(f)
        doc = self.client.get_json("/cursor?limit=50")
        self.assertIsNone(doc["pagination"].pop("previousCursor"))
        self.assertEqual(doc, fixture)
        cursor = doc["pagination"]["nextCursor"]
        with open(os.path.join(HERE, "leaderboard", "cursor", cursor + ".json"), encoding="utf-8") as f:
            fixture = json.load(f)
        doc = self.client.get_json("/cursor?limit=50&cursor=" + cursor)
        first = doc["data"][0]
        self.assertEqual(doc["pagination"].pop("previousCursor"), encode_cursor(first["score"], first["id"]))
        self.assertEqual(doc, fixture)

    def test_before_walk_goes_backwards_through_every_row(self):
        last_page = self.client.get_json("/cursor?limit=50&cursor=" + self.cursor_of(self.order[2949]))
        self.assertEqual([r["id"] for r in last_page["data"]], self.order[2950:])
        self.assertIsNone(last_page["pagination"]["nextCursor"])
        ids, requests = self.client.walk_before(50, last_page["pagination"]["previousCursor"])
        self.assertEqual(ids + [r["id"] for r in last_page["data"]], self.order)
        self.assertEqual(requests, 59)
        # An uneven limit: the first page backwards is short, and starts the list.
        ids, _ = self.client.walk_before(7, last_page["pagination"]["previousCursor"])
        self.assertEqual(ids, self.order[:2950])

    def test_before_page_names_both_neighbours(self):
        doc = self.client.get_json("/cursor?limit=10&before=" + self.cursor_of(self.order[100]))
        self.assertEqual([r["id"] for r in doc["data"]], self.order[90:100])
        self.assertEqual(doc["pagination"], {"nextCursor": self.cursor_of(self.order[99]),
                                             "previousCursor": self.cursor_of(self.order[90])})
        # Following the next cursor of a page before row 100 gives row 100 on.
        after = self.client.get_json("/cursor?limit=10&cursor=" + doc["pagination"]["nextCursor"])
        self.assertEqual([r["id"] for r in after["data"]], self.order[100:110])
        # Before the second row: the first row alone, which starts the list.
        doc = self.client.get_json("/cursor?limit=10&before=" + self.cursor_of(self.order[1]))
        self.assertEqual([r["id"] for r in doc["data"]], self.order[:1])
        self.assertIsNone(doc["pagination"]["previousCursor"])
        # Before the first row: nothing.
        doc = self.client.get_json("/cursor?limit=10&before=" + self.cursor_of(self.order[0]))
        self.assertEqual(doc["data"], [])
        self.assertEqual(doc["pagination"], {"nextCursor": None, "previousCursor": None})

    def test_before_pages_neither_skip_nor_repeat_rows_changed_ahead(self):
        cursor = self.cursor_of(self.order[200])
        before = self.client.get_json("/cursor?limit=50&before=" + cursor)["data"]
        self.client.control(insertAhead=5, delete=3)
        again = self.client.get_json("/cursor?limit=50&before=" + cursor)["data"]
        self.assertEqual([r["id"] for r in again], [r["id"] for r in before])
        self.assertEqual([r["id"] for r in before], self.order[150:200])

    def test_cursor_and_before_together_are_rejected(self):
        cursor = self.cursor_of(self.order[10])
        status, _, body = self.client.request("GET", "/cursor?cursor=%s&before=%s" % (cursor, cursor))
        self.assertEqual(status, 400)
        self.assertIn("not both", json.loads(body)["error"])
        self.assertEqual(self.client.request("GET", "/cursor?before=garbage")[0], 400)

    def cursor_of(self, pid):
        player = next(p for p in self.players if p["id"] == pid)
        return encode_cursor(player["score"], player["id"])

    def test_bad_parameters(self):
        for path in ("/pages?page=0", "/pages?limit=0", "/pages?page=x",
                     "/offset?offset=-1", "/cursor?cursor=garbage", "/cursor?cursor=c_%25%25"):
            self.assertEqual(self.client.request("GET", path)[0], 400, path)
        self.assertEqual(self.client.request("GET", "/nope")[0], 404)

    # Fault injection ---------------------------------------------------------------

    def test_fail(self):
        state = self.client.control(fail=2, status=503)
        self.assertEqual((state["fail"], state["status"]), (2, 503))
        for path in ("/pages?page=1", "/cursor"):
            status, ctype, body = self.client.request("GET", path)
            self.assertEqual(status, 503)
            self.assertEqual(ctype, "application/json; charset=utf-8")
            self.assertEqual(json.loads(body)["status"], 503)
        self.assertEqual(self.client.request("GET", "/offset")[0], 200)
        self.assertEqual(self.stats(), {"pages": 1, "offset": 1, "cursor": 1})
        # GET /control with query parameters; status defaults to 500.
        status, _, body = self.client.request("GET", "/control?fail=1")
        self.assertEqual(json.loads(body)["status"], 500)
        self.assertEqual(self.client.request("GET", "/pages")[0], 500)
        self.assertEqual(self.client.request("GET", "/pages")[0], 200)

    def test_delay(self):
        self.client.control(delayMs=300, delayCount=2)
        for _ in range(2):
            start = time.monotonic()
            self.client.get_json("/pages?page=1")
            self.assertGreaterEqual(time.monotonic() - start, 0.29)
        start = time.monotonic()
        self.client.get_json("/pages?page=1")
        self.assertLess(time.monotonic() - start, 0.25)

    def test_malformed(self):
        self.client.control(malformed=1)
        status, ctype, body = self.client.request("GET", "/pages?page=1")
        self.assertEqual(status, 200)
        self.assertTrue(body.startswith(b'{"data":['))
        body.decode("utf-8")  # cut on a character boundary: only the JSON is broken
        with self.assertRaises(json.JSONDecodeError):
            json.loads(body)
        self.client.get_json("/pages?page=1")

    def test_insert_ahead_repeats_offset_rows_but_not_cursor_rows(self):
        first = self.client.get_json("/offset?offset=0&limit=50")["data"]
        state = self.client.control(insertAhead=1)
        self.assertEqual(state["totalItems"], 3001)
        second = self.client.get_json("/offset?offset=50&limit=50")["data"]
        self.assertEqual(second[0]["id"], first[-1]["id"])  # the same row, served twice

        self.client.control(reset=True)
        doc = self.client.get_json("/cursor?limit=50")
        ids = [r["id"] for r in doc["data"]]
        state = self.client.control(insertAhead=5)
        self.assertEqual(state["inserted"], 5)
        more, _ = self.client.walk_cursor(cursor=doc["pagination"]["nextCursor"])
        self.assertEqual(ids + more, self.order)  # nothing skipped or repeated

        top = self.client.get_json("/pages?page=1&limit=6")["data"]
        self.assertEqual([r["id"] for r in top], ["n00005", "n00004", "n00003", "n00002", "n00001",
                                                  self.order[0]])
        self.assertGreater(top[4]["score"], top[5]["score"])

    def test_delete_skips_offset_rows_but_not_cursor_rows(self):
        self.client.get_json("/offset?offset=0&limit=50")
        state = self.client.control(delete=1)
        self.assertEqual((state["totalItems"], state["deleted"]), (2999, 1))
        second = self.client.get_json("/offset?offset=50&limit=50")["data"]
        self.assertEqual(second[0]["id"], self.order[51])  # order[50] is never served

        self.client.control(reset=True)
        doc = self.client.get_json("/cursor?limit=50")
        self.client.control(delete=10)
        more, _ = self.client.walk_cursor(cursor=doc["pagination"]["nextCursor"])
        self.assertEqual([r["id"] for r in doc["data"]] + more, self.order)

    def test_reset_and_stats(self):
        self.client.get_json("/pages")
        self.client.get_json("/offset")
        self.client.request("GET", "/cursor?cursor=garbage")
        self.client.control(fail=1)
        self.client.request("GET", "/cursor")
        self.assertEqual(self.stats(), {"pages": 1, "offset": 1, "cursor": 2})
        self.client.control(insertAhead=3, delete=1, malformed=4, delayMs=10, delayCount=5)
        state = self.client.control(reset=True)
        self.assertEqual(state, {"fail": 0, "status": 500, "delayMs": 0, "delayCount": 0,
                                 "malformed": 0, "inserted": 0, "deleted": 0, "totalItems": 3000,
                                 "shape": "standard", "errorBody": "json", "nextOrigin": "",
                                 "badScore": -1})
        self.assertEqual(self.stats(), {"pages": 0, "offset": 0, "cursor": 0})
        self.assertEqual(self.client.walk_cursor()[0], self.order)
        # ids of inserted rows restart after a reset
        self.client.control(insertAhead=1)
        self.assertEqual(self.client.get_json("/pages?limit=1")["data"][0]["id"], "n00001")

    def test_control_rejects_bad_input(self):
        self.assertEqual(self.client.request("GET", "/control?fial=1")[0], 400)
        self.assertEqual(self.client.request("POST", "/control", {"fail": "x"})[0], 400)
        self.assertEqual(self.client.request("POST", "/control", [1])[0], 400)
        self.assertEqual(self.client.request("POST", "/control", {"fail": 1, "status": 200})[0], 400)
        self.assertEqual(self.client.request("POST", "/control", {"fail": 1, "shape": "round"})[0], 400)
        self.assertEqual(self.client.request("POST", "/control", {"errorBody": "loud"})[0], 400)
        for origin in ("javascript:alert(1)", "http://a/b", "http://a b", 7):
            self.assertEqual(self.client.request("POST", "/control", {"nextOrigin": origin})[0], 400, origin)
        state = self.client.control()
        self.assertEqual((state["fail"], state["shape"]), (0, "standard"))  # nothing was applied

    # Response shapes -----------------------------------------------------------------

    def test_nested_shape(self):
        self.assertEqual(self.client.control(shape="nested")["shape"], "nested")
        doc = self.client.get_json("/pages?page=2&limit=50")
        self.assertEqual([r["id"] for r in doc["result"]["items"]], self.order[50:100])
        self.assertEqual(doc["meta"], {"paging": {"total": 3000, "pages": 60}})
        doc = self.client.get_json("/offset?offset=10&limit=5")
        self.assertEqual(doc["meta"], {"paging": {"total": 3000}})
        ids, cursor = [], None
        while True:
            doc = self.client.get_json("/cursor?limit=500" + ("&cursor=" + cursor if cursor else ""))
            ids += [r["id"] for r in doc["result"]["items"]]
            self.assertEqual(doc["meta"]["paging"]["total"], 3000)
            cursor = doc["meta"]["paging"]["next"]
            if cursor is None:
                break
        self.assertEqual(ids, self.order)

    def test_next_url_shape_walks_every_mode(self):
        self.client.control(shape="next-url")
        prefix = "http://127.0.0.1:%d" % self.client.port
        for start in ("/pages?limit=700", "/offset?limit=700", "/cursor?limit=700"):
            ids, path, requests = [], start, 0
            while path:
                doc = self.client.get_json(path)
                requests += 1
                ids += [r["id"] for r in doc["results"]]
                self.assertEqual(doc["count"], 3000)
                if doc["next"] is None:
                    break
                self.assertTrue(doc["next"].startswith(prefix + "/"), doc["next"])
                path = doc["next"][len(prefix):]
            self.assertEqual(ids, self.order, start)
            self.assertEqual(requests, 5, start)

    def test_link_shape_walks_every_mode(self):
        self.client.control(shape="link")
        for start in ("/pages?limit=700", "/offset?limit=700", "/cursor?limit=700"):
            ids, path = [], start
            while path:
                status, _, body, resp = self.client.request("GET", path, with_headers=True)
                self.assertEqual(status, 200)
                ids += [r["id"] for r in json.loads(body)]
                link = resp.getheader("Link")
                self.assertIn('rel="first"; title="first page; not rel=next, really"', link)
                found = re.search(r'<([^>]*)>; rel="next"', link)
                path = found.group(1) if found else None
            self.assertEqual(ids, self.order, start)

    def test_next_origin(self):
        self.client.control(shape="next-url", nextOrigin="http://localhost:1")
        self.assertEqual(self.client.get_json("/pages?limit=5")["next"], "http://localhost:1/pages?page=2&limit=5")
        self.client.control(shape="link")
        link = self.client.request("GET", "/pages?limit=5", with_headers=True)[3].getheader("Link")
        self.assertIn('<http://localhost:1/pages?page=2&limit=5>; rel="next"', link)
        self.client.control(shape="next-url", nextOrigin="file://")
        self.assertEqual(self.client.get_json("/cursor?limit=5")["next"][:len("file:///cursor?")], "file:///cursor?")

    def test_authorized_requests_are_counted(self):
        self.client.request("GET", "/pages", headers={"Authorization": "Bearer t"})
        self.client.request("GET", "/pages")
        self.client.request("GET", "/cursor", headers={"Authorization": "Bearer t"})
        stats = self.client.get_json("/stats")
        self.assertEqual(stats["requests"], {"pages": 2, "offset": 0, "cursor": 1})
        self.assertEqual(stats["authorized"], {"pages": 1, "offset": 0, "cursor": 1})

    def test_bad_score(self):
        self.assertEqual(self.client.control(badScore=3)["badScore"], 3)
        for path in ("/pages?limit=5", "/offset?limit=5", "/cursor?limit=5"):
            rows = self.client.get_json(path)["data"]
            self.assertEqual([r["score"] == "abc" for r in rows], [False, False, False, True, False], path)
        self.client.control(shape="nested")
        self.assertEqual(self.client.get_json("/pages?limit=5")["result"]["items"][3]["score"], "abc")
        self.client.control(badScore=-1)
        self.assertIsInstance(self.client.get_json("/pages?limit=5")["result"]["items"][3]["score"], int)
        self.assertEqual(self.client.request("POST", "/control", {"badScore": -2})[0], 400)

    def test_noisy_error_body(self):
        self.client.control(fail=1, status=502, errorBody="noisy")
        status, ctype, body = self.client.request("GET", "/pages")
        self.assertEqual((status, ctype), (502, "text/html"))
        self.assertTrue(body.startswith(b"<html>\r\n"))
        self.assertIn(b"\x1b[31m\x00\x07", body)
        self.assertGreater(len(body), 3000)
        self.assertTrue(body.endswith(b"TAIL"))
        with self.assertRaises(UnicodeDecodeError):
            body.decode("utf-8")
        self.assertEqual(self.client.request("GET", "/pages")[0], 200)

    # Static files ------------------------------------------------------------------

    def test_static(self):
        for rel in ("malformed/wrong-type.json", "malformed/bad-utf8.json", "malformed/empty.json",
                    "leaderboard/pages/page-001.json"):
            status, ctype, body = self.client.request("GET", "/static/" + rel)
            self.assertEqual(status, 200, rel)
            with open(os.path.join(HERE, rel), "rb") as f:
                self.assertEqual(body, f.read(), rel)
        self.assertEqual(self.client.request("GET", "/static/malformed/wrong-type.json")[1],
                         "application/json; charset=utf-8")
        self.assertEqual(self.stats(), {"pages": 0, "offset": 0, "cursor": 0})

    def test_static_refuses_traversal(self):
        for path in ("/static/../Package.swift", "/static/leaderboard/../../Package.swift",
                     "/static/%2e%2e/Package.swift", "/static/..%2fPackage.swift",
                     "/static/leaderboard/..%5c..%5cPackage.swift", "/static//etc/passwd",
                     "/static/%2fetc%2fpasswd", "/static/leaderboard", "/static/missing.json",
                     "/static/"):
            self.assertEqual(self.client.request("GET", path)[0], 404, path)


class ConfiguredServerTests(unittest.TestCase):
    def test_param_names_data_file_and_sigint(self):
        players = [{"id": "a%02d" % i, "name": "Player %d" % i, "score": (i * 37) % 10 * 100,
                    "country": "SE"} for i in range(23)]
        order = [p["id"] for p in sorted(players, key=server_key)]
        with tempfile.TemporaryDirectory() as tmp:
            data = os.path.join(tmp, "small.json")
            with open(data, "w", encoding="utf-8") as f:
                json.dump(players, f)
            proc, host, port = start_server(
                "--data", data, "--page-param", "p", "--limit-param", "per_page",
                "--offset-param", "skip", "--cursor-param", "after", "--before-param", "upto")
            try:
                client = Client(host, port)
                self.assertEqual(client.walk_pages(5, "p", "per_page")[0], order)
                self.assertEqual(client.walk_offset(5, "skip", "per_page")[0], order)
                self.assertEqual(client.walk_cursor(5, None, "after", "per_page")[0], order)
                last = client.get_json("/cursor?per_page=5&after=" + encode_cursor(
                    next(p["score"] for p in players if p["id"] == order[17]), order[17]))
                self.assertEqual([r["id"] for r in last["data"]], order[18:])
                ids, _ = client.walk_before(5, last["pagination"]["previousCursor"], "upto", "per_page")
                self.assertEqual(ids, order[:18])
                # The default names are not recognised any more.
                doc = client.get_json("/pages?page=2&limit=5")
                self.assertEqual(doc["pagination"]["page"], 1)
                self.assertEqual(doc["pagination"]["limit"], 50)
            finally:
                start = time.monotonic()
                code = stop_server(proc, signal.SIGINT)
            self.assertEqual(code, 0)
            self.assertLess(time.monotonic() - start, 3)


class FixtureTests(unittest.TestCase):
    def test_generator_is_deterministic_and_fixtures_are_current(self):
        with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
            for out in (a, b):
                subprocess.run([sys.executable, GENERATE, "--out", out], check=True)
            for sub in ("leaderboard", "malformed"):
                self.assert_same_tree(os.path.join(a, sub), os.path.join(b, sub))
                self.assert_same_tree(os.path.join(a, sub), os.path.join(HERE, sub))

    def assert_same_tree(self, left, right):
        cmp = filecmp.dircmp(left, right, ignore=["__pycache__"])
        self.assertEqual((cmp.left_only, cmp.right_only), ([], []), (left, right))
        _, mismatch, errors = filecmp.cmpfiles(left, right, cmp.common_files, shallow=False)
        self.assertEqual((mismatch, errors), ([], []), (left, right))
        for sub in cmp.common_dirs:
            self.assert_same_tree(os.path.join(left, sub), os.path.join(right, sub))

    def test_players(self):
        players = load_players()
        self.assertEqual([p["id"] for p in players], ["p%05d" % i for i in range(1, 3001)])
        self.assertTrue(all(0 <= p["score"] <= 99_999 for p in players))
        scores = [p["score"] for p in players]
        self.assertGreater(len(scores) - len(set(scores)), 100)  # many ties
        names = [p["name"] for p in players]
        for needle in ("Zoë", "Jürgen", "Søren", "王小明", "佐藤健", "🦊", "<b>", "&", '"'):
            self.assertTrue(any(needle in n for n in names), needle)
        self.assertLessEqual(len({p["country"] for p in players}), 25)

    def test_page_and_cursor_files(self):
        ranked = [p["id"] for p in sorted(load_players(), key=server_key)]
        ids = []
        for page in range(1, 61):
            with open(os.path.join(HERE, "leaderboard", "pages", "page-%03d.json" % page),
                      encoding="utf-8") as f:
                doc = json.load(f)
            self.assertEqual(doc["pagination"],
                             {"page": page, "limit": 50, "totalPages": 60, "totalItems": 3000})
            ids += [r["id"] for r in doc["data"]]
        self.assertEqual(ids, ranked)

        cursor_dir = os.path.join(HERE, "leaderboard", "cursor")
        ids, name, seen = [], "first", set()
        while name is not None:
            with open(os.path.join(cursor_dir, name + ".json"), encoding="utf-8") as f:
                doc = json.load(f)
            seen.add(name + ".json")
            ids += [r["id"] for r in doc["data"]]
            name = doc["pagination"]["nextCursor"]
        self.assertEqual(ids, ranked)
        self.assertEqual(seen, set(os.listdir(cursor_dir)))

    def test_feed_is_consistent(self):
        state = {p["id"]: dict(p) for p in load_players()}
        ever = set(state)
        with open(os.path.join(HERE, "leaderboard", "feed.json"), encoding="utf-8") as f:
            events = json.load(f)
        self.assertGreaterEqual(len(events), 1500)
        ops = {"score": 0, "join": 0, "leave": 0}
        for e in events:
            ops[e["op"]] += 1
            if e["op"] == "score":
                self.assertIn(e["id"], state)
                self.assertTrue(0 <= e["score"] <= 99_999)
                state[e["id"]]["score"] = e["score"]
            elif e["op"] == "join":
                pid = e["player"]["id"]
                self.assertNotIn(pid, ever)
                self.assertEqual(set(e["player"]), {"id", "name", "score", "country"})
                ever.add(pid)
                state[pid] = dict(e["player"])
            else:
                self.assertEqual(e["op"], "leave")
                self.assertIn(e["id"], state)
                del state[e["id"]]
        self.assertGreater(ops["score"], ops["join"] + ops["leave"])
        self.assertTrue(ops["join"] and ops["leave"])
        with open(os.path.join(HERE, "leaderboard", "feed-final.json"), encoding="utf-8") as f:
            self.assertEqual(json.load(f), sorted(state.values(), key=server_key))

    def test_a_long_feed_keeps_scores_spread(self):
        # Ten times the fixture feed, from the same seed: score changes neither drift
        # towards a bound nor pile up there, so every tier keeps players and the top
        # rows do not all sit at 99,999.
        spec = importlib.util.spec_from_file_location("generate", GENERATE)
        generate = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(generate)
        rng = random.Random(generate.SEED)
        players = generate.make_players(rng)
        events, _ = generate.make_feed(rng, players, length=20_000)
        state = {p["id"]: p["score"] for p in players}
        floors = (90_000, 75_000, 50_000, 25_000, 0)
        for index, e in enumerate(events):
            if e["op"] == "score":
                state[e["id"]] = e["score"]
            elif e["op"] == "join":
                state[e["player"]["id"]] = e["player"]["score"]
            else:
                del state[e["id"]]
            if index % 1_000 == 999:
                scores = list(state.values())
                tiers = [sum(1 for s in scores if s >= floor) for floor in floors]
                tiers = [n - above for n, above in zip(tiers, [0] + tiers[:-1])]
                self.assertTrue(all(tiers), (index, tiers))
                self.assertLessEqual(scores.count(99_999), len(scores) // 1_000, index)

    def test_malformed_files(self):
        def read(name):
            with open(os.path.join(HERE, "malformed", name), "rb") as f:
                return f.read()

        with self.assertRaises(json.JSONDecodeError):
            json.loads(read("truncated.json").decode("utf-8"))
        doc = json.loads(read("wrong-type.json"))
        self.assertIsInstance(doc["data"][3]["score"], str)
        self.assertTrue(all(isinstance(r["score"], int) for i, r in enumerate(doc["data"]) if i != 3))
        doc = json.loads(read("fractional-score.json"))
        self.assertIsInstance(doc["data"][2]["score"], float)
        self.assertTrue(all(isinstance(r["score"], int) for i, r in enumerate(doc["data"]) if i != 2))
        doc = json.loads(read("missing-pagination.json"))
        self.assertNotIn("pagination", doc)
        self.assertIsInstance(json.loads(read("not-an-object.json")), list)
        self.assertEqual(read("empty.json"), b"")
        bad = read("bad-utf8.json")
        with self.assertRaises(UnicodeDecodeError):
            bad.decode("utf-8")
        doc = json.loads(bad.decode("utf-8", errors="replace"))
        self.assertIn("\ufffd", doc["data"][1]["name"])
        with open(os.path.join(HERE, "malformed", "README.md"), encoding="utf-8") as f:
            readme = f.read()
        for name in os.listdir(os.path.join(HERE, "malformed")):
            if name.endswith(".json"):
                self.assertIn("`%s`" % name, readme)


if __name__ == "__main__":
    unittest.main()
