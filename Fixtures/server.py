#!/usr/bin/env python3
"""Leaderboard fixture server with scriptable fault injection.

Python 3 standard library only. Binds 127.0.0.1; prints exactly one line
`LISTENING http://127.0.0.1:PORT` on stdout once it accepts connections, and
exits with status 0 on SIGTERM or SIGINT.

    python3 Fixtures/server.py [--port N] [--data PATH] [--verbose]
                               [--page-param NAME] [--limit-param NAME]
                               [--offset-param NAME] [--cursor-param NAME]
                               [--before-param NAME]

Rows are served in server order: score descending, then id ascending.

Data endpoints (counted in /stats, subject to fault injection):
    GET /pages?page=N&limit=L
    GET /offset?offset=O&limit=L
    GET /cursor?limit=L[&cursor=C | &before=C]
Response shapes (control key `shape`): standard (above), nested, next-url, link.
Faults (control keys): fail/status, delayMs/delayCount, malformed, errorBody, badScore.

Other endpoints:
    GET /health                 -> "ok"
    GET /stats                  -> {"requests":{"pages":n,"offset":n,"cursor":n},
                                    "authorized":{"pages":n,"offset":n,"cursor":n}}
    GET|POST /control           -> change / read the fault-injection state
    GET /static/<path>          -> a file under the Fixtures folder, as-is

See Fixtures/README.md for the full contract.
"""

import argparse
import base64
import binascii
import bisect
import json
import math
import os
import re
import signal
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, unquote, urlsplit

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_DATA = os.path.join(HERE, "leaderboard", "players.json")
DEFAULT_LIMIT = 50
MAX_LIMIT = 10_000
MAX_DELAY_MS = 60_000
MAX_INSERT = 100_000

JSON_TYPE = "application/json; charset=utf-8"
CONTROL_KEYS = ("fail", "status", "delayMs", "delayCount", "malformed",
                "insertAhead", "delete", "reset", "shape", "errorBody", "nextOrigin", "badScore")
SHAPES = ("standard", "nested", "next-url", "link")
ERROR_BODIES = ("json", "noisy")
# What `errorBody: noisy` answers: an HTML error page with a terminal escape, NUL and
# BEL, a broken UTF-8 sequence, bytes that never occur in UTF-8, a right-to-left
# override, then 3,000 filler bytes and a tail that a 1 KiB excerpt must not reach.
NOISY_ERROR_BODY = (b"<html>\r\n<title>502 Bad Gateway</title>\x1b[31m\x00\x07 \xc3\x28 \xff\xfe "
                    b"\xe2\x80\xaeevil\n" + b"x" * 3000 + b"TAIL")
NEXT_ORIGIN = re.compile(r"^[a-z][a-z0-9+.-]*://[^\s/?#]*$")
INSERT_COUNTRIES = ["SE", "US", "JP", "BR", "DE", "KR", "FR", "AU"]


class BadRequest(Exception):
    pass


def server_key(player):
    return (-player["score"], player["id"])


def encode_cursor(score, pid):
    raw = "{}:{}".format(score, pid).encode("utf-8")
    return "c_" + base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def decode_cursor(cursor):
    """Return the (score, id) key a cursor names, or raise BadRequest."""
    if not cursor.startswith("c_"):
        raise BadRequest("invalid cursor")
    body = cursor[2:]
    try:
        raw = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)).decode("utf-8")
        score_text, pid = raw.split(":", 1)
        score = int(score_text)
    except (ValueError, binascii.Error, UnicodeDecodeError):
        raise BadRequest("invalid cursor")
    if not pid:
        raise BadRequest("invalid cursor")
    return score, pid


class Board:
    """The players in server order plus all mutable test state; one lock."""

    def __init__(self, players):
        self.lock = threading.Lock()
        self.original = [dict(p) for p in players]
        self.reset()

    # Callers hold self.lock for everything below except __init__.

    def reset(self):
        self.rows = sorted((dict(p) for p in self.original), key=server_key)
        self.keys = [server_key(p) for p in self.rows]
        self.fail = 0
        self.fail_status = 500
        self.delay_ms = 0
        self.delay_count = 0
        self.malformed = 0
        self.inserted = 0
        self.deleted = 0
        self.shape = "standard"
        self.error_body = "json"
        self.next_origin = ""
        self.bad_score = -1
        self.requests = {"pages": 0, "offset": 0, "cursor": 0}
        self.authorized = {"pages": 0, "offset": 0, "cursor": 0}

    def state(self):
        return {
            "fail": self.fail,
            "status": self.fail_status,
            "delayMs": self.delay_ms,
            "delayCount": self.delay_count,
            "malformed": self.malformed,
            "inserted": self.inserted,
            "deleted": self.deleted,
            "totalItems": len(self.rows),
            "shape": self.shape,
            "errorBody": self.error_body,
            "nextOrigin": self.next_origin,
            "badScore": self.bad_score,
        }

    def insert_ahead(self, n):
        top = self.rows[0]["score"] if self.rows else 0
        new_rows = []
        for _ in range(n):
            self.inserted += 1
            top += 1
            new_rows.append({
                "id": "n%05d" % self.inserted,
                "name": "Newcomer %d" % self.inserted,
                "score": top,
                "country": INSERT_COUNTRIES[self.inserted % len(INSERT_COUNTRIES)],
            })
        new_rows.reverse()                       # highest score first
        self.rows[0:0] = new_rows
        self.keys[0:0] = [server_key(p) for p in new_rows]

    def delete_top(self, n):
        n = min(n, len(self.rows))
        del self.rows[:n]
        del self.keys[:n]
        self.deleted += n

    def after_key(self, key):
        """Index of the first row strictly after `key` in server order."""
        return bisect.bisect_right(self.keys, key)

    def before_key(self, key):
        """Index just past the last row strictly before `key` in server order."""
        return bisect.bisect_left(self.keys, key)


def parse_int(params, name, default, lo, hi):
    values = params.get(name)
    if not values:
        return default
    text = values[-1].strip()
    try:
        value = int(text)
    except ValueError:
        raise BadRequest("%s must be an integer" % name)
    if value < lo or value > hi:
        raise BadRequest("%s must be between %d and %d" % (name, lo, hi))
    return value


def parse_bool(value):
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("1", "true", "yes", "on"):
        return True
    if isinstance(value, str) and value.strip().lower() in ("0", "false", "no", "off", ""):
        return False
    raise BadRequest("reset must be a boolean")


def control_int(values, name, lo, hi):
    value = values[name]
    if isinstance(value, bool):
        raise BadRequest("%s must be an integer" % name)
    if isinstance(value, str):
        try:
            value = int(value.strip())
        except ValueError:
            raise BadRequest("%s must be an integer" % name)
    if not isinstance(value, int):
        raise BadRequest("%s must be an integer" % name)
    if value < lo or value > hi:
        raise BadRequest("%s must be between %d and %d" % (name, lo, hi))
    return value


def control_choice(values, name, choices):
    value = values[name]
    if value not in choices:
        raise BadRequest("%s must be one of %s" % (name, ", ".join(choices)))
    return value


def control_origin(values):
    value = values["nextOrigin"]
    if not isinstance(value, str) or len(value) > 200 or (value and not NEXT_ORIGIN.match(value)):
        raise BadRequest("nextOrigin must be empty or scheme://host[:port]")
    return value


def truncate_body(body):
    """Cut a JSON body roughly in half, on a UTF-8 character boundary."""
    cut = max(1, len(body) // 2)
    while cut > 1 and (body[cut] & 0xC0) == 0x80:
        cut -= 1
    return body[:cut]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "LeaderboardFixture/1.0"

    # Set on the subclass built in main().
    board = None
    params = None
    verbose = False

    # ---- plumbing ---------------------------------------------------------

    def log_message(self, fmt, *args):
        if self.verbose:
            sys.stderr.write("%s %s\n" % (self.address_string(), fmt % args))

    def send_body(self, status, body, content_type, headers=None):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("Access-Control-Allow-Origin", "*")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def send_json(self, status, obj):
        body = json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        self.send_body(status, body, JSON_TYPE)

    def send_error_json(self, status, message):
        self.send_json(status, {"error": message, "status": status})

    def read_request_body(self):
        length = self.headers.get("Content-Length")
        if not length:
            return b""
        try:
            n = int(length)
        except ValueError:
            raise BadRequest("bad Content-Length")
        if n < 0 or n > 1_000_000:
            raise BadRequest("bad Content-Length")
        return self.rfile.read(n)

    # ---- routing ----------------------------------------------------------

    def do_GET(self):
        self.route("GET")

    def do_POST(self):
        self.route("POST")

    def do_OPTIONS(self):
        self.send_response(204)
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
        self.send_header("Access-Control-Allow-Headers", "Content-Type")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def route(self, method):
        parts = urlsplit(self.path)
        path = parts.path
        query = parse_qs(parts.query, keep_blank_values=True)
        try:
            body = self.read_request_body() if method == "POST" else b""
            if path in ("/pages", "/offset", "/cursor"):
                if method != "GET":
                    return self.send_error_json(405, "method not allowed")
                return self.handle_data(path[1:], query)
            if path == "/control":
                return self.handle_control(method, query, body)
            if method != "GET":
                return self.send_error_json(405, "method not allowed")
            if path == "/health":
                return self.send_body(200, b"ok", "text/plain; charset=utf-8")
            if path == "/stats":
                with self.board.lock:
                    stats = {"requests": dict(self.board.requests),
                             "authorized": dict(self.board.authorized)}
                return self.send_json(200, stats)
            if path.startswith("/static/"):
                return self.handle_static(path[len("/static/"):])
            return self.send_error_json(404, "not found")
        except BadRequest as e:
            return self.send_error_json(400, str(e))

    # ---- data endpoints -----------------------------------------------------

    def handle_data(self, mode, query):
        board = self.board
        names = self.params
        with board.lock:
            board.requests[mode] += 1
            if self.headers.get("Authorization"):
                board.authorized[mode] += 1
            shape, error_body, next_origin = board.shape, board.error_body, board.next_origin
            bad_score = board.bad_score
            total = len(board.rows)
            delay = 0
            if board.delay_count > 0:
                board.delay_count -= 1
                delay = board.delay_ms
            fail_status = None
            if board.fail > 0:
                board.fail -= 1
                fail_status = board.fail_status
            malformed = False
            if fail_status is None and board.malformed > 0:
                board.malformed -= 1
                malformed = True
            if fail_status is None:
                try:
                    payload = self.build_payload(mode, query, names)
                    next_query = self.next_query(mode, query, payload, names)
                except BadRequest as e:
                    payload = e
        if delay:
            time.sleep(delay / 1000.0)
        if fail_status is not None:
            if error_body == "noisy":
                return self.send_body(fail_status, NOISY_ERROR_BODY, "text/html")
            return self.send_error_json(fail_status, "injected failure")
        if isinstance(payload, BadRequest):
            return self.send_error_json(400, str(payload))
        if 0 <= bad_score < len(payload["data"]):
            payload["data"][bad_score]["score"] = "abc"
        headers = {}
        payload = self.reshape(shape, mode, payload, total, next_query, next_origin, headers)
        body = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        if malformed:
            body = truncate_body(body)
        return self.send_body(200, body, JSON_TYPE, headers)

    def next_query(self, mode, query, payload, names):
        """The path and query of the page after `payload`, or None after the last."""
        info, count = payload["pagination"], len(payload["data"])
        limit = parse_int(query, names["limit"], DEFAULT_LIMIT, 1, MAX_LIMIT)
        if mode == "pages":
            if info["page"] >= info["totalPages"]:
                return None
            return "/pages?%s=%d&%s=%d" % (names["page"], info["page"] + 1, names["limit"], limit)
        if mode == "offset":
            if count == 0 or info["offset"] + count >= info["totalItems"]:
                return None
            return "/offset?%s=%d&%s=%d" % (names["offset"], info["offset"] + count, names["limit"], limit)
        if info["nextCursor"] is None:
            return None
        return "/cursor?%s=%s&%s=%d" % (names["cursor"], info["nextCursor"], names["limit"], limit)

    def reshape(self, shape, mode, payload, total, next_query, next_origin, headers):
        """The body for `shape`; sets the Link header for `link`."""
        if shape == "standard":
            return payload
        info, rows = payload["pagination"], payload["data"]
        if shape == "nested":
            paging = {"total": total}
            if mode == "pages":
                paging["pages"] = info["totalPages"]
            if mode == "cursor":
                paging["next"] = info["nextCursor"]
                paging["previous"] = info["previousCursor"]
            return {"result": {"items": rows}, "meta": {"paging": paging}}
        if shape == "next-url":
            origin = next_origin or "http://127.0.0.1:%d" % self.server.server_address[1]
            return {"results": rows, "count": total,
                    "next": origin + next_query if next_query else None}
        # link: the bare array; the next page in a Link header, relative to the request
        # unless another origin is set, after a `first` link whose title holds a comma,
        # a semicolon and `rel=next` in quotes.
        links = ['</%s>; rel="first"; title="first page; not rel=next, really"' % mode]
        if next_query:
            links.append('<%s%s>; rel="next"' % (next_origin, next_query))
        headers["Link"] = ", ".join(links)
        return rows

    def build_payload(self, mode, query, names):
        board = self.board
        limit = parse_int(query, names["limit"], DEFAULT_LIMIT, 1, MAX_LIMIT)
        total = len(board.rows)
        if mode == "pages":
            page = parse_int(query, names["page"], 1, 1, 10**9)
            start = (page - 1) * limit
            rows = board.rows[start:start + limit]
            return {"data": [dict(r) for r in rows],
                    "pagination": {"page": page, "limit": limit,
                                   "totalPages": math.ceil(total / limit),
                                   "totalItems": total}}
        if mode == "offset":
            offset = parse_int(query, names["offset"], 0, 0, 10**9)
            rows = board.rows[offset:offset + limit]
            return {"data": [dict(r) for r in rows],
                    "pagination": {"offset": offset, "limit": limit, "totalItems": total}}
        # cursor: keyset paging, rows strictly after the cursor's (score, id) key, or
        # with `before`, the `limit` rows right before it
        values = query.get(names["cursor"])
        cursor = values[-1] if values else ""
        values = query.get(names["before"])
        before = values[-1] if values else ""
        if cursor and before:
            raise BadRequest("give %s or %s, not both" % (names["cursor"], names["before"]))
        if before:
            score, pid = decode_cursor(before)
            end = board.before_key((-score, pid))
            start = max(0, end - limit)
        elif cursor:
            score, pid = decode_cursor(cursor)
            start = board.after_key((-score, pid))
            end = start + limit
        else:
            start, end = 0, limit
        rows = board.rows[start:end]
        next_cursor = previous_cursor = None
        if rows and start + len(rows) < total:
            last = rows[-1]
            next_cursor = encode_cursor(last["score"], last["id"])
        if rows and start > 0:
            first = rows[0]
            previous_cursor = encode_cursor(first["score"], first["id"])
        return {"data": [dict(r) for r in rows],
                "pagination": {"nextCursor": next_cursor, "previousCursor": previous_cursor}}

    # ---- control --------------------------------------------------------------

    def handle_control(self, method, query, body):
        if method == "POST" and body.strip():
            try:
                values = json.loads(body.decode("utf-8"))
            except (ValueError, UnicodeDecodeError):
                raise BadRequest("control body must be a JSON object")
            if not isinstance(values, dict):
                raise BadRequest("control body must be a JSON object")
        else:
            values = {k: v[-1] for k, v in query.items()}
        unknown = sorted(k for k in values if k not in CONTROL_KEYS)
        if unknown:
            raise BadRequest("unknown control keys: " + ", ".join(unknown))

        # Validate everything before changing anything.
        reset = parse_bool(values["reset"]) if "reset" in values else False
        fail = control_int(values, "fail", 0, 10**6) if "fail" in values else None
        status = control_int(values, "status", 400, 599) if "status" in values else None
        delay_ms = control_int(values, "delayMs", 0, MAX_DELAY_MS) if "delayMs" in values else None
        delay_count = control_int(values, "delayCount", 0, 10**6) if "delayCount" in values else None
        malformed = control_int(values, "malformed", 0, 10**6) if "malformed" in values else None
        insert = control_int(values, "insertAhead", 0, MAX_INSERT) if "insertAhead" in values else None
        delete = control_int(values, "delete", 0, 10**9) if "delete" in values else None
        shape = control_choice(values, "shape", SHAPES) if "shape" in values else None
        error_body = control_choice(values, "errorBody", ERROR_BODIES) if "errorBody" in values else None
        next_origin = control_origin(values) if "nextOrigin" in values else None
        bad_score = control_int(values, "badScore", -1, MAX_LIMIT) if "badScore" in values else None

        board = self.board
        with board.lock:
            if reset:
                board.reset()
            if fail is not None:
                board.fail = fail
                board.fail_status = status if status is not None else 500
            elif status is not None:
                board.fail_status = status
            if delay_ms is not None:
                board.delay_ms = delay_ms
                board.delay_count = delay_count if delay_count is not None else 1
            elif delay_count is not None:
                board.delay_count = delay_count
            if malformed is not None:
                board.malformed = malformed
            if insert:
                board.insert_ahead(insert)
            if delete:
                board.delete_top(delete)
            if shape is not None:
                board.shape = shape
            if error_body is not None:
                board.error_body = error_body
            if next_origin is not None:
                board.next_origin = next_origin
            if bad_score is not None:
                board.bad_score = bad_score
            state = board.state()
        return self.send_json(200, state)

    # ---- static files -----------------------------------------------------------

    def handle_static(self, rel):
        rel = unquote(rel)
        segments = rel.replace("\\", "/").split("/")
        if (not rel or rel.startswith("/") or "\x00" in rel
                or any(s in ("..", ".", "") for s in segments)):
            return self.send_error_json(404, "not found")
        root = os.path.realpath(HERE)
        full = os.path.realpath(os.path.join(root, *segments))
        if not full.startswith(root + os.sep) or not os.path.isfile(full):
            return self.send_error_json(404, "not found")
        with open(full, "rb") as f:
            data = f.read()
        if full.endswith(".json"):
            ctype = JSON_TYPE
        elif full.endswith(".md"):
            ctype = "text/markdown; charset=utf-8"
        elif full.endswith(".py") or full.endswith(".txt"):
            ctype = "text/plain; charset=utf-8"
        else:
            ctype = "application/octet-stream"
        return self.send_body(200, data, ctype)


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    verbose = False

    def handle_error(self, request, client_address):
        if self.verbose:
            super().handle_error(request, client_address)


def load_players(path):
    with open(path, "rb") as f:
        players = json.loads(f.read().decode("utf-8"))
    if isinstance(players, dict) and "data" in players:
        players = players["data"]
    if not isinstance(players, list):
        raise SystemExit("--data must hold a JSON array of players")
    seen = set()
    for p in players:
        if (not isinstance(p, dict) or not isinstance(p.get("id"), str)
                or not isinstance(p.get("score"), int) or isinstance(p.get("score"), bool)):
            raise SystemExit("--data: every player needs a string id and an integer score")
        if p["id"] in seen:
            raise SystemExit("--data: duplicate id %r" % p["id"])
        seen.add(p["id"])
    return players


def main(argv=None):
    parser = argparse.ArgumentParser(description="Leaderboard fixture HTTP server.")
    parser.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (default 0: ephemeral)")
    parser.add_argument("--data", default=DEFAULT_DATA, help="players JSON array (default: leaderboard/players.json)")
    parser.add_argument("--page-param", default="page")
    parser.add_argument("--limit-param", default="limit")
    parser.add_argument("--offset-param", default="offset")
    parser.add_argument("--cursor-param", default="cursor")
    parser.add_argument("--before-param", default="before")
    noise = parser.add_mutually_exclusive_group()
    noise.add_argument("--quiet", dest="verbose", action="store_false", help="no request log (default)")
    noise.add_argument("--verbose", dest="verbose", action="store_true", help="log requests to stderr")
    parser.set_defaults(verbose=False)
    args = parser.parse_args(argv)

    board = Board(load_players(args.data))
    handler = type("BoundHandler", (Handler,), {
        "board": board,
        "verbose": args.verbose,
        "params": {"page": args.page_param, "limit": args.limit_param,
                   "offset": args.offset_param, "cursor": args.cursor_param,
                   "before": args.before_param},
    })
    httpd = Server(("127.0.0.1", args.port), handler)
    httpd.verbose = args.verbose

    stop = threading.Event()

    def on_signal(signum, frame):
        stop.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)

    worker = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.1},
                              name="serve", daemon=True)
    worker.start()
    port = httpd.server_address[1]
    sys.stdout.write("LISTENING http://127.0.0.1:%d\n" % port)
    sys.stdout.flush()

    while not stop.wait(0.2):
        pass
    httpd.shutdown()
    httpd.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
