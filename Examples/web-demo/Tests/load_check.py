#!/usr/bin/env python3
"""Load check of the web demo: many live windows, fresh requests, silent connections.

Starts the demo given with ``--server`` on a free port (or uses the one at ``--url``,
whose process id ``--pid`` gives for its memory and CPU figures), then:

1. opens ``--streams`` ``/events`` connections at once (a burst, as after a restart),
   each with its own window (named by the token in its ``window`` event), from loopback
   addresses ``127.0.0.2`` and up, ``--per-address`` streams each (under the server's
   ``--max-windows-per-client``), and waits until each has its first snapshot message;
2. for ``--duration`` seconds keeps every stream reading while a separate process asks
   for ``/status`` on a fresh connection ``--status-rate`` times a second, and opens
   connections that send nothing, half a request head, a head one byte at a time, or one
   whole request and then nothing;
3. checks that
   - every stream's messages follow on from each other: a snapshot first, then batches
     whose ``from`` is the version of the message before, or a newer snapshot (the
     hub's reset of a client that fell behind), by the rules of the wire format;
   - no stream was closed by the server, and each catches up with its window's version
     (``/status?window=TOKEN``) at the end;
   - ``/status`` names no window: none of the streams' tokens is in it;
   - ``/status`` answered every request, with a 95th percentile under ``--p95-ms`` in
     every slice of the run;
   - the server closed the silent connections after its header timeout, and the one
     that stopped after a request after its idle timeout, neither early nor much later;
   - the server turned each frame into event bytes once (``/status``'s
     ``eventFrames`` against the messages the streams received);
   - once every stream is closed, every window is released after its resume grace and
     freed (``/status``'s ``windows`` and ``windowsAlive`` back to 0: no window leaks);
   - the peak resident memory grew by at most ``--max-kib-per-window`` per window, and
     once every window is freed the server's resident memory is at most 1.2 × what it
     was before the streams, plus 20 MiB;
4. prints one table row: streams, messages a second per stream, ``/status``
   p50/p95/max, the server's resident memory (VmRSS now, VmHWM its peak) and CPU time
   (utime + stime during the run, in total and per stream), from ``/proc``.

It stops by itself: every wait is bounded. When it started the server it stops it with
SIGTERM at the end and expects status 0.

    load_check.py --server .build-web/release/web-demo --streams 1000 --duration 30

Python 3 standard library only (and ``http_check.py`` beside it); Linux, loopback.
Exit status 0 when every check passes.
"""

import argparse
import http.client
import json
import math
import os
import re
import resource
import selectors
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

from http_check import CheckFailed, run

# The versions at the front of a message, where the server writes them (see the wire
# format's "Member order"); any other message is decoded whole.
BATCH = re.compile(rb'\{"type":"batch","from":(-?\d+),"to":(-?\d+),')
SNAPSHOT = re.compile(rb'\{"type":"snapshot","version":(-?\d+),')
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def percentile(values, fraction):
    """The value below which `fraction` of `values` lie (nearest rank); None when empty."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


class Stream:
    """One /events connection: its HTTP response, chunked body and Server-Sent Events."""

    __slots__ = ("sock", "index", "opened", "sent", "first_snapshot", "head", "chunked", "raw", "events", "token",
                 "version", "messages", "window_messages", "resets", "violations", "closed", "error")

    def __init__(self, sock, index, opened):
        self.sock = sock
        self.index = index
        self.opened = opened
        self.sent = False
        self.first_snapshot = None   # when the first snapshot arrived
        self.head = None             # the response head, once complete
        self.chunked = False
        self.raw = b""               # bytes not yet decoded (head or chunks)
        self.events = b""            # event-stream text not yet split into events
        self.token = None            # the window's token, from the window event
        self.version = None          # the version the client holds
        self.messages = 0
        self.window_messages = 0
        self.resets = 0
        self.violations = []
        self.closed = None           # when the server closed the connection
        self.error = None

    def received(self, data, now, full_json):
        """Takes bytes from the socket."""
        self.raw += data
        if self.head is None:
            end = self.raw.find(b"\r\n\r\n")
            if end < 0:
                return
            self.head, self.raw = self.raw[:end].decode("latin-1"), self.raw[end + 4:]
            status_line, *fields = self.head.split("\r\n")
            if not status_line.startswith("HTTP/1.1 200"):
                self.violations.append(f"answered {status_line!r}")
                return
            headers = {name.strip().lower(): value.strip() for name, _, value in (f.partition(":") for f in fields)}
            if not headers.get("content-type", "").startswith("text/event-stream"):
                self.violations.append(f"content type {headers.get('content-type')!r}")
            self.chunked = "chunked" in headers.get("transfer-encoding", "").lower()
        if self.chunked:
            raw, position, pieces = self.raw, 0, []
            while True:
                line_end = raw.find(b"\r\n", position)
                if line_end < 0:
                    break
                size = int(raw[position:line_end].split(b";", 1)[0], 16)
                if size == 0:  # the last chunk: the server ended the stream
                    position = len(raw)
                    break
                if len(raw) < line_end + 2 + size + 2:
                    break
                pieces.append(raw[line_end + 2:line_end + 2 + size])
                position = line_end + 2 + size + 2
            self.raw = raw[position:]
            self.events += b"".join(pieces)
        else:
            self.events += self.raw
            self.raw = b""
        if b"\n\n" not in self.events:
            return
        *complete, self.events = self.events.split(b"\n\n")
        for event in complete:
            lines = event.split(b"\n")
            if b"event: window" in lines:
                self.named(lines)
                continue
            for line in lines:
                if line.startswith(b"data: "):
                    self.message(line[6:], now, full_json)

    def named(self, lines):
        """Takes the window event's token."""
        data = [line[6:] for line in lines if line.startswith(b"data: ")]
        try:
            self.token = json.loads(data[0])["id"]
        except (IndexError, ValueError, KeyError, TypeError):
            self.violations.append(f"a window event without a token: {lines!r}")

    def message(self, data, now, full_json):
        """Checks one message's versions against the version held."""
        kind = first = last = None
        found = None if full_json else BATCH.match(data)
        if found:
            kind, first, last = "batch", int(found.group(1)), int(found.group(2))
        else:
            found = None if full_json else SNAPSHOT.match(data)
            if found:
                kind, last = "snapshot", int(found.group(1))
            else:
                try:
                    message = json.loads(data)
                except ValueError:
                    self.violations.append(f"not JSON: {data[:80]!r}")
                    return
                kind = message.get("type") if isinstance(message, dict) else None
                if kind == "batch":
                    first, last = message.get("from"), message.get("to")
                elif kind == "snapshot":
                    last = message.get("version")
                else:
                    return  # another type: ignored, by the wire format
                if not isinstance(last, int) or (kind == "batch" and not isinstance(first, int)):
                    self.violations.append(f"no integer versions: {data[:80]!r}")
                    return
        self.messages += 1
        self.window_messages += 1
        if kind == "snapshot":
            if self.version is None:
                self.first_snapshot = now
            elif last > self.version:
                self.resets += 1  # the hub reset a client that fell behind
            else:
                self.violations.append(f"snapshot v{last} after v{self.version}")
            self.version = last
        elif self.version is None:
            self.violations.append(f"batch {first}→{last} before any snapshot")
        elif first != self.version or last <= first:
            self.violations.append(f"batch {first}→{last} after v{self.version}")
            self.version = max(self.version, last)
        else:
            self.version = last


class Idler:
    """A connection that stops before completing a request, or after one."""

    __slots__ = ("sock", "kind", "opened", "last_data", "trickle", "response", "closed")

    def __init__(self, sock, kind, opened):
        self.sock = sock
        self.kind = kind          # "silent", "half", "trickle" or "keepalive"
        self.opened = opened
        self.last_data = None     # for "keepalive": when its response ended
        self.trickle = 0          # header bytes sent one at a time
        self.response = b""
        self.closed = None


class Server:
    """The web demo under test: started here, or given by URL and process id."""

    def __init__(self, options):
        self.process = None
        self.pid = options.pid
        if options.server:
            self.errors = tempfile.TemporaryFile()
            arguments = [options.server, "--port", "0", "--feed-interval", str(options.feed_interval), "--heartbeat", str(options.heartbeat),
                         "--header-timeout", str(options.header_timeout), "--idle-timeout", str(options.idle_timeout),
                         "--resume-grace", str(options.resume_grace)]
            self.process = subprocess.Popen(arguments + options.server_arg, stdout=subprocess.PIPE,
                                            stderr=self.errors, text=True)
            self.pid = self.process.pid
            reader = threading.Thread(target=lambda: setattr(self, "first_line", self.process.stdout.readline()), daemon=True)
            self.first_line = None
            reader.start()
            reader.join(60)
            found = re.search(r"http://127\.0\.0\.1:\d+/", self.first_line or "")
            if not found:
                raise CheckFailed(f"the server printed no URL within 60 s: {self.first_line!r} {self.log()}")
            options.url = found.group(0)
        self.base = urllib.parse.urlsplit(options.url)
        self.address = (self.base.hostname, self.base.port)

    def log(self):
        if self.process is None:
            return ""
        self.errors.seek(0)
        return self.errors.read()[-2000:].decode(errors="replace")

    def status(self, timeout=10, window=None, text=False):
        """/status (or /status?window=TOKEN), decoded, or its text."""
        connection = http.client.HTTPConnection(*self.address, timeout=timeout)
        try:
            connection.request("GET", "/status" + (f"?window={window}" if window else ""))
            body = connection.getresponse().read()
            return body.decode() if text else json.loads(body)
        finally:
            connection.close()

    def versions(self, streams):
        """Each stream's window version, by stream index (0 for a window that is gone)."""
        versions = {}
        for stream in streams:
            try:
                versions[stream.index] = self.status(window=stream.token)["version"] if stream.token else 0
            except (KeyError, ValueError):
                versions[stream.index] = 0
        return versions

    def proc(self):
        """(VmRSS, VmHWM) in KiB, CPU seconds, open file descriptors; Nones without a pid."""
        if self.pid is None:
            return None, None, None, None
        try:
            fields = {}
            with open(f"/proc/{self.pid}/status") as status:
                for line in status:
                    name, _, value = line.partition(":")
                    fields[name] = value.split()[0] if value.split() else ""
            with open(f"/proc/{self.pid}/stat") as stat:
                after_name = stat.read().rsplit(")", 1)[1].split()
            cpu = (int(after_name[11]) + int(after_name[12])) / CLOCK_TICKS  # utime, stime
            return int(fields["VmRSS"]), int(fields["VmHWM"]), cpu, len(os.listdir(f"/proc/{self.pid}/fd"))
        except (OSError, KeyError, IndexError, ValueError):
            return None, None, None, None

    def stop(self):
        """SIGTERM; the exit status (None when not started here)."""
        if self.process is None:
            return None
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            raise CheckFailed("the server was still running 15 s after SIGTERM")

    def kill(self):
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()


def probe(options):
    """`--probe`: GET /status on a fresh connection `rate` times a second, each at its
    scheduled time on its own thread, for `duration` seconds; prints the results as JSON:
    [start offset in s, latency in s or null, error or null] per request."""
    base = urllib.parse.urlsplit(options.url)
    results, lock = [], threading.Lock()

    def one(offset):
        started = time.monotonic()
        latency, error = None, None
        connection = http.client.HTTPConnection(base.hostname, base.port, timeout=options.status_timeout)
        try:
            connection.request("GET", "/status")
            response = connection.getresponse()
            body = response.read()
            if response.status != 200 or b'"windows"' not in body:
                error = f"status {response.status}"
            else:
                latency = time.monotonic() - started
        except (OSError, http.client.HTTPException) as failure:
            error = f"{type(failure).__name__}: {failure}"
        finally:
            connection.close()
        with lock:
            results.append([offset, latency, error])

    threads = []
    start = time.monotonic()
    count = int(options.duration * options.status_rate)
    for k in range(count):
        offset = k / options.status_rate
        delay = start + offset - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        thread = threading.Thread(target=one, args=(offset,), daemon=True)
        thread.start()
        threads.append(thread)
    for thread in threads:
        thread.join(max(0.0, start + options.duration + options.status_timeout + 1 - time.monotonic()))
    with lock:
        unfinished = count - len(results)
        json.dump({"results": results, "unfinished": unfinished}, sys.stdout)


def raise_file_limit(needed):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = min(hard, max(soft, needed)) if hard != resource.RLIM_INFINITY else max(soft, needed)
    if wanted > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    if wanted < needed:
        raise CheckFailed(f"{needed} file descriptors are needed, the limit is {wanted}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    target = parser.add_mutually_exclusive_group(required=True)
    target.add_argument("--server", help="the web-demo executable to start (on a free port)")
    target.add_argument("--url", help="a running demo's base URL, e.g. http://127.0.0.1:8080/")
    parser.add_argument("--pid", type=int, help="with --url: the server's process id, for memory and CPU")
    parser.add_argument("--streams", type=int, default=200, help="event streams (default 200)")
    parser.add_argument("--duration", type=float, default=20, help="seconds of load after every stream has its snapshot (default 20)")
    parser.add_argument("--status-rate", type=float, default=20, help="fresh /status requests a second (default 20)")
    parser.add_argument("--status-timeout", type=float, default=5, help="seconds before a /status request counts as failed (default 5)")
    parser.add_argument("--p95-ms", type=float, default=250, help="the most /status's 95th percentile may be, in every slice (default 250)")
    parser.add_argument("--slice", type=float, default=5, help="seconds per slice of the /status percentile check (default 5)")
    parser.add_argument("--feed-interval", type=int, default=20, help="with --server: milliseconds between feed events (default 20)")
    parser.add_argument("--header-timeout", type=int, default=2000,
                        help="the server's header timeout in ms: passed with --server, expected with --url (default 2000)")
    parser.add_argument("--idle-timeout", type=int, default=2000,
                        help="the server's idle timeout in ms: passed with --server, expected with --url (default 2000)")
    parser.add_argument("--heartbeat", type=int, default=1000,
                        help="with --server: the server's heartbeat in ms, which bounds how long a closed stream's window is kept (default 1000)")
    parser.add_argument("--max-kib-per-window", type=int, default=256,
                        help="the most the peak resident memory may grow per stream's window, in KiB (default 256)")
    parser.add_argument("--resume-grace", type=int, default=1000,
                        help="with --server: how long a window is kept after its stream ends, in ms (default 1000)")
    parser.add_argument("--per-address", type=int, default=50,
                        help="streams from each loopback address, 127.0.0.2 and up (default 50; under the server's --max-windows-per-client)")
    parser.add_argument("--server-arg", action="append", default=[], help="another argument for the server (repeatable)")
    parser.add_argument("--silent", type=int, default=100, help="connections that send nothing (default 100)")
    parser.add_argument("--half", type=int, default=50, help="connections that send half a request head (default 50)")
    parser.add_argument("--trickle", type=int, default=5, help="connections that send a head one byte every 200 ms (default 5)")
    parser.add_argument("--keepalive", type=int, default=10, help="connections that send one request, then nothing (default 10)")
    parser.add_argument("--grace", type=float, default=3, help="seconds a timeout may be late (default 3)")
    parser.add_argument("--connect-timeout", type=float, default=30, help="seconds for every stream to get its snapshot (default 30)")
    parser.add_argument("--full-json", action="store_true", help="decode every message as JSON, not only its versions")
    parser.add_argument("--probe", action="store_true", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.probe:
        probe(options)
        return
    if options.url and options.pid is None:
        print("load_check: no --pid: memory and CPU are not measured", file=sys.stderr)

    idler_count = options.silent + options.half + options.trickle + options.keepalive
    raise_file_limit(options.streams + idler_count + 2 * int(options.status_rate * options.status_timeout) + 64)
    server = Server(options)
    streams, idlers = [], []
    try:
        measure(options, server, streams, idlers)
    finally:
        for connection in streams + idlers:
            connection.sock.close()
        server.kill()


def measure(options, server, streams, idlers):
    # Each stream opens its own window, which loads its first page from the roster.
    deadline = time.monotonic() + 30
    while True:
        status = server.status()
        if status["players"] > 0 and status["windows"] == 0:
            break
        if time.monotonic() > deadline:
            raise CheckFailed(f"the server was not ready within 30 s: {status}")
        time.sleep(0.1)
    rss_before, _, _, fds_before = server.proc()

    selector = selectors.DefaultSelector()

    # 1. A burst of connections.
    burst = time.monotonic()
    for index in range(options.streams):
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        # Another loopback address is another client to the server's per-client cap.
        sock.bind((f"127.0.{(2 + index // options.per_address) // 256}.{(2 + index // options.per_address) % 256}", 0))
        sock.setblocking(False)
        stream = Stream(sock, index, time.monotonic())
        sock.connect_ex(server.address)
        streams.append(stream)
        selector.register(sock, selectors.EVENT_WRITE, stream)
    pending = options.streams
    deadline = burst + options.connect_timeout
    full_json = options.full_json
    while pending:
        timeout = deadline - time.monotonic()
        if timeout <= 0:
            waiting = [s for s in streams if s.first_snapshot is None]
            unsent = sum(1 for s in waiting if not s.sent)
            headless = sum(1 for s in waiting if s.sent and s.head is None)
            raise CheckFailed(f"{len(waiting)} of {options.streams} streams had no snapshot after {options.connect_timeout:.0f} s: "
                              f"{unsent} not connected, {headless} without a response head, {len(waiting) - unsent - headless} "
                              f"with a head but no snapshot")
        for key, events in selector.select(min(timeout, 1)):
            stream = key.data
            if events & selectors.EVENT_WRITE:
                error = stream.sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
                if error:
                    raise CheckFailed(f"stream {stream.index}: connect failed: {os.strerror(error)}")
                stream.sock.send(f"GET /events HTTP/1.1\r\nHost: {server.base.netloc}\r\n"
                                 "Accept: text/event-stream\r\n\r\n".encode())
                stream.sent = True
                selector.modify(stream.sock, selectors.EVENT_READ, stream)
                continue
            before = stream.first_snapshot
            read(stream, selector, full_json)
            if stream.violations:
                raise CheckFailed(f"stream {stream.index}: {stream.violations[0]}")
            if stream.closed is not None:
                raise CheckFailed(f"stream {stream.index} was closed {stream.closed - stream.opened:.2f} s after it opened, before its "
                                  f"snapshot ({stream.error or 'end of stream'}; {'a' if stream.head else 'no'} response head)")
            if before is None and stream.first_snapshot is not None:
                pending -= 1
    connected = time.monotonic() - burst
    first = [s.first_snapshot - s.opened for s in streams]
    print(f"ok: {options.streams} streams opened at once, all with a snapshot in {connected:.2f} s "
          f"(first snapshot p50 {percentile(first, 0.5) * 1000:.0f} ms, max {max(first) * 1000:.0f} ms)")

    # Each window's first snapshot is empty: its first page follows after the page
    # latency. The run starts once every window has it, and the streams have read it.
    deadline = time.monotonic() + options.connect_timeout
    while True:
        status = server.status()
        if status["windows"] == options.streams and status["emptyWindows"] == 0:
            break
        if time.monotonic() > deadline:
            raise CheckFailed(f"{status['emptyWindows']} of {status['windows']} windows had no rows {options.connect_timeout:.0f} s after they opened")
        for key, _ in selector.select(0.1):
            read(key.data, selector, full_json)
    settle = time.monotonic() + 1
    while time.monotonic() < settle:
        for key, _ in selector.select(0.1):
            read(key.data, selector, full_json)
    print(f"ok: every window had its first page {time.monotonic() - 1 - burst:.2f} s after the burst "
          f"({status['rowsLoaded']} rows in {status['windows']} windows)")

    # 2. The run: fresh /status requests from another process, idle connections here.
    status_before = server.status()
    versions_before = server.versions(streams)
    _, _, cpu_before, _ = server.proc()
    prober = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--probe", "--url", f"http://{server.base.netloc}/",
                               "--duration", str(options.duration), "--status-rate", str(options.status_rate),
                               "--status-timeout", str(options.status_timeout)],
                              stdout=subprocess.PIPE, text=True)
    for stream in streams:
        stream.window_messages = 0
    start = time.monotonic()
    half_head = f"GET /status HTTP/1.1\r\nHost: {server.base.netloc}\r\n".encode()
    trickle_head = f"GET /status HTTP/1.1\r\nHost: {server.base.netloc}\r\nX-Slow: ".encode() + b"z" * 10_000
    whole = f"GET /status HTTP/1.1\r\nHost: {server.base.netloc}\r\n\r\n".encode()
    for kind, count in [("silent", options.silent), ("half", options.half), ("trickle", options.trickle), ("keepalive", options.keepalive)]:
        for _ in range(count):
            sock = socket.create_connection(server.address, timeout=10)
            idler = Idler(sock, kind, time.monotonic())
            if kind == "half":
                sock.sendall(half_head)
            elif kind == "keepalive":
                sock.sendall(whole)
            sock.setblocking(False)
            idlers.append(idler)
            selector.register(sock, selectors.EVENT_READ, idler)

    header_s, idle_s = options.header_timeout / 1000, options.idle_timeout / 1000
    window_end = start + options.duration
    # The idle connections get until their timeout and the grace, even past the run.
    idle_end = max(window_end, start + max(header_s, idle_s) + options.grace + 1)
    fds_peak, next_sample, next_trickle = 0, start, start
    while True:
        now = time.monotonic()
        if now >= window_end and (now >= idle_end or all(i.closed for i in idlers)):
            break
        if now >= next_sample:
            _, _, _, fds = server.proc()
            fds_peak = max(fds_peak, fds or 0)
            next_sample = now + 0.5
        if now >= next_trickle:
            for idler in idlers:
                if idler.kind == "trickle" and idler.closed is None and idler.trickle < len(trickle_head):
                    try:
                        idler.sock.send(trickle_head[idler.trickle:idler.trickle + 1])
                        idler.trickle += 1
                    except OSError:
                        pass  # closed: the read below sees it
            next_trickle = now + 0.2
        for key, _ in selector.select(0.05):
            connection = key.data
            if isinstance(connection, Stream):
                read(connection, selector, full_json)
            else:
                read_idler(connection, selector)
    rss_end, hwm, cpu_end, fds_end = server.proc()
    status_after = server.status()
    status_text = server.status(text=True)
    elapsed = time.monotonic() - start
    output, _ = prober.communicate(timeout=options.status_timeout + 30)
    probes = json.loads(output)

    # 3. The streams catch up with their window's version at the end of the run.
    target = server.versions(streams)
    catch_up = time.monotonic() + 10
    while any(s.closed is None and (s.version or 0) < target[s.index] for s in streams) and time.monotonic() < catch_up:
        for key, _ in selector.select(0.2):
            if isinstance(key.data, Stream):
                read(key.data, selector, full_json)

    failures = []
    broken = [s for s in streams if s.violations]
    if broken:
        failures.append(f"{len(broken)} streams broke the order of versions, e.g. stream {broken[0].index}: "
                        + "; ".join(broken[0].violations[:3]))
    cut = [s for s in streams if s.closed is not None]
    if cut:
        failures.append(f"the server closed {len(cut)} streams, e.g. stream {cut[0].index} after "
                        f"{cut[0].closed - cut[0].opened:.1f} s ({cut[0].error or 'end of stream'})")
    missing = [s.index for s in streams if not s.token or target[s.index] == 0]
    if missing:
        failures.append(f"{len(missing)} streams have no window token or no window at /status?window=TOKEN, e.g. stream {missing[0]}")
    listed = [s.index for s in streams if s.token and s.token in status_text]
    if listed:
        failures.append(f"/status lists {len(listed)} window tokens, e.g. stream {listed[0]}'s")
    if len({s.token for s in streams}) != len(streams):
        failures.append("two streams were given the same window token")
    behind = [s for s in streams if s.closed is None and (s.version or 0) < target[s.index]]
    if behind:
        failures.append(f"{len(behind)} streams had not reached their window's version 10 s after the run, e.g. stream {behind[0].index} "
                        f"at v{behind[0].version} of v{target[behind[0].index]}")
    resets = sum(s.resets for s in streams)
    print(f"ok: every stream's versions follow on from each other ({sum(s.messages for s in streams)} messages, "
          f"{resets} resets to a newer snapshot), none was closed, each reached its window's version "
          f"({status_after['windows']} windows, {status_after['rowsLoaded']} rows loaded, at most {status_after['maxRowsInWindow']} "
          f"in one)" if not (broken or cut or behind)
          else "FAIL: streams, see below")

    # /status, overall and slice by slice.
    latencies = [latency for _, latency, _ in probes["results"] if latency is not None]
    errors = [(offset, error) for offset, _, error in probes["results"] if error is not None]
    if errors or probes["unfinished"]:
        failures.append(f"/status failed {len(errors)} times and did not finish {probes['unfinished']} times "
                        f"of {len(probes['results']) + probes['unfinished']}" + (f", first at {errors[0][0]:.1f} s: {errors[0][1]}" if errors else ""))
    slices = {}
    for offset, latency, _ in probes["results"]:
        if latency is not None:
            slices.setdefault(int(offset // options.slice), []).append(latency)
    worst = max(((percentile(values, 0.95), index) for index, values in slices.items()), default=(None, None))
    if not latencies:
        failures.append("no /status request succeeded")
    elif worst[0] * 1000 >= options.p95_ms:
        failures.append(f"/status p95 was {worst[0] * 1000:.0f} ms in {worst[1] * options.slice:.0f}–{(worst[1] + 1) * options.slice:.0f} s "
                        f"(limit {options.p95_ms:.0f} ms)")
    else:
        print(f"ok: /status answered {len(latencies)} fresh requests, p95 under {options.p95_ms:.0f} ms in every "
              f"{options.slice:.0f} s slice (worst {worst[0] * 1000:.0f} ms)")

    # The idle connections.
    idle_failures = []
    for kind, timeout in [("silent", header_s), ("half", header_s), ("trickle", header_s), ("keepalive", idle_s)]:
        group = [i for i in idlers if i.kind == kind]
        if not group:
            continue
        starts = [(i.last_data if kind == "keepalive" else i.opened) for i in group]
        if kind == "keepalive" and None in starts:
            idle_failures.append(f"{starts.count(None)} keep-alive connections got no whole response")
            continue
        lifetimes = [(i.closed - s) if i.closed is not None else None for i, s in zip(group, starts)]
        open_ones = lifetimes.count(None)
        done = [t for t in lifetimes if t is not None]
        early = [t for t in done if t < timeout - max(0.25, 0.1 * timeout)]
        late = [t for t in done if t > timeout + options.grace]
        if open_ones or early or late:
            idle_failures.append(f"{kind}: {open_ones} of {len(group)} still open, {len(early)} closed early, {len(late)} late "
                                 f"(expected {timeout:.1f} s; closed after {min(done, default=0):.2f}–{max(done, default=0):.2f} s)")
        else:
            print(f"ok: {len(group)} {kind} connections closed after {min(done):.2f}–{max(done):.2f} s "
                  f"({'idle' if kind == 'keepalive' else 'header'} timeout {timeout:.1f} s)")
    failures += idle_failures
    if fds_before is not None:
        print(f"    server file descriptors: {fds_before} before the streams, at most {fds_peak} during the run, {fds_end} at its end")

    # Frames turned into bytes once: each window has one stream, so at most once per
    # message its stream received, plus the frames still on their way at the end.
    published = sum(target.values()) - sum(versions_before.values())
    received = sum(s.window_messages for s in streams)
    made = status_after.get("eventFrames", 0) - status_before.get("eventFrames", 0)
    if "eventFrames" not in status_after:
        failures.append("/status has no eventFrames")
    elif made > received + resets + 2 * len(streams):
        failures.append(f"{made} frames turned into event bytes for {received} messages received and {resets} resets: not once per frame")
    else:
        print(f"ok: {made} frames turned into event bytes for {received} messages received by {options.streams} streams "
              f"({published} batches published in all windows)")

    # 4. The table row.
    per_client = sum(s.window_messages for s in streams) / len(streams) / elapsed
    cpu = None if cpu_end is None else cpu_end - cpu_before

    def ms(value):
        return "-" if value is None else f"{value * 1000:.0f}"

    def mib(kib):
        return "-" if kib is None else f"{kib / 1024:.0f}"
    print()
    print("| streams | msgs/s per client (published in all windows) | /status p50 / p95 / max ms | first snapshot max ms | RSS / peak MiB | CPU s in run | CPU ms/s per stream |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    print(f"| {options.streams:,} | {per_client:.1f} ({published / elapsed:.1f}) | {ms(percentile(latencies, 0.5))} / "
          f"{ms(percentile(latencies, 0.95))} / {ms(max(latencies, default=None))} | {max(first) * 1000:.0f} | "
          f"{mib(rss_end)} / {mib(hwm)} | {'-' if cpu is None else f'{cpu:.1f} of {elapsed:.0f}'} | "
          f"{'-' if cpu is None else f'{cpu / elapsed / len(streams) * 1000:.2f}'} |")
    print()

    if failures:
        raise CheckFailed("\n  ".join(failures))

    # No leak: closed streams release their windows, and released windows are freed.
    for connection in streams + idlers:
        connection.sock.close()
    grace_s = status_after["resumeGraceMs"] / 1000
    deadline = time.monotonic() + grace_s + 10
    while True:
        status = server.status()
        if status["windows"] == 0 and status["windowsAlive"] == 0:
            break
        if time.monotonic() > deadline:
            raise CheckFailed(f"{status['windows']} windows still open and {status['windowsAlive']} alive "
                              f"{grace_s + 10:.0f} s after every stream closed")
        time.sleep(0.1)
    print(f"ok: every stream closed: all {status['windowsOpened']} windows released ({status['windowsReleased']}) after the "
          f"{grace_s:g} s resume grace and freed (0 alive)")

    # Memory: what a window costs at the peak, and what comes back once they are freed.
    if rss_before is not None and hwm is not None:
        time.sleep(1)
        rss_released, _, _, _ = server.proc()
        per_window = (hwm - rss_before) / options.streams
        bound_after = 1.2 * rss_before + 20 * 1024
        print(f"    memory: {rss_before / 1024:.0f} MiB before the streams, peak {hwm / 1024:.0f} MiB "
              f"({per_window:.0f} KiB per window), {rss_released / 1024:.0f} MiB once every window was freed")
        problems = []
        if per_window > options.max_kib_per_window:
            problems.append(f"{per_window:.0f} KiB per window at the peak (bound {options.max_kib_per_window} KiB)")
        if rss_released > bound_after:
            problems.append(f"{rss_released / 1024:.0f} MiB resident once every window was freed "
                            f"(bound 1.2 × {rss_before / 1024:.0f} MiB + 20 MiB = {bound_after / 1024:.0f} MiB)")
        if problems:
            raise CheckFailed("; ".join(problems))
        print(f"ok: memory per window under {options.max_kib_per_window} KiB, and back under 1.2 × the start + 20 MiB once freed")

    if server.process is not None:
        stopped = time.monotonic()
        code = server.stop()
        if code != 0:
            raise CheckFailed(f"the server exited with status {code}: {server.log()}")
        print(f"ok: SIGTERM stopped the server in {time.monotonic() - stopped:.1f} s, status 0")


def read(stream, selector, full_json):
    try:
        data = stream.sock.recv(262144)
    except (BlockingIOError, InterruptedError):
        return
    except OSError as failure:
        data, stream.error = b"", f"{type(failure).__name__}: {failure}"
    if not data:
        stream.closed = time.monotonic()
        selector.unregister(stream.sock)
        return
    stream.received(data, time.monotonic(), full_json)


def read_idler(idler, selector):
    try:
        data = idler.sock.recv(65536)
    except (BlockingIOError, InterruptedError):
        return
    except OSError:
        data = b""
    now = time.monotonic()
    if not data:
        idler.closed = now
        selector.unregister(idler.sock)
        return
    idler.response += data
    head_end = idler.response.find(b"\r\n\r\n")
    found = re.search(rb"(?i)\r\ncontent-length: *(\d+)", idler.response[:head_end]) if head_end >= 0 else None
    if found and len(idler.response) >= head_end + 4 + int(found.group(1)):
        idler.last_data = now


if __name__ == "__main__":
    run(main)
