#!/usr/bin/env python3
"""The web demo stops on SIGTERM even while browsers that stopped reading hold streams open.

Starts the server given with ``--server`` on a free port with a fast feed, opens three
``/events`` connections that never read, and waits until the hub has reset each of them
(``/status``'s ``resets``), which happens only once their writes are stuck on full
socket buffers. Then sends SIGTERM and expects the server to exit with status 0 within
15 seconds.

Python 3 standard library only, and the helpers of ``http_check.py`` beside it. Exit
status 0 when the check passes.
"""
import argparse
import signal
import socket
import subprocess
import time

from http_check import CheckFailed, run, start_server, status, wait_for


def send_buffer_limit():
    """The most a TCP socket's send buffer may grow to, in bytes (4 MiB when unknown)."""
    try:
        with open("/proc/sys/net/ipv4/tcp_wmem") as limits:
            return int(limits.read().split()[2])
    except (OSError, ValueError, IndexError):
        return 4 << 20


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--server", required=True, help="the web-demo executable")
    options = parser.parse_args()

    server, base = start_server(options.server, "--feed-interval", "1")
    stalled = []
    try:
        for _ in range(3):
            sock = socket.socket()
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.connect((base.hostname, base.port))
            sock.sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            stalled.append(sock)
        # A stream is reset once the server's send buffer for it is full, and the kernel
        # lets that buffer grow to `tcp_wmem`'s maximum: about 25 s to fill 4 MiB here.
        wait_for("the hub has reset the three stalled streams", lambda: status(base)["resets"] >= 3,
                 120 * max(1, send_buffer_limit() / (4 << 20)))
        print(f"ok: three streams that stopped reading are stuck ({status(base)['resets']} resets)")

        sent = time.monotonic()
        server.send_signal(signal.SIGTERM)
        try:
            code = server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            raise CheckFailed("the server was still running 15 s after SIGTERM")
        if code != 0:
            raise CheckFailed(f"the server exited with status {code}: {server.stderr.read()[-2000:]}")
        print(f"ok: SIGTERM stopped the server in {time.monotonic() - sent:.1f} s, status 0")
    finally:
        for sock in stalled:
            sock.close()
        if server.poll() is None:
            server.kill()
            server.wait()


if __name__ == "__main__":
    run(main)
