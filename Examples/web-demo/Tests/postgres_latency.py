#!/usr/bin/env python3
"""Commit-to-stream latency across instances: the figures in the web demo's README.

Starts PostgreSQL (``Scripts/postgres.sh start``), a fresh ``players`` table of
``--players`` rows, and ``--instances`` web-demo instances with ``--postgres``; opens
``--windows`` event streams on each (windows at the top, which share each instance's
view of the top page) in one asyncio process; then a writer feeds ``psql`` through a pipe
with ``--rate`` single-statement transactions a second for ``--seconds``, each an
``UPDATE`` of a player in the top 40 that writes PostgreSQL's clock (``clock_timestamp()``,
the machine's clock), in nanoseconds, into the player's name, with ``synchronous_commit``
off for the writer's session (with it on, this machine's disk caps one session near 600
commits a second). A stream that receives a row with such a name records now minus that
time: the commit-to-stream latency, from the writer through PostgreSQL, NOTIFY, the
instance's feed, its view and the HTTP stream. Every stream is read; the first 10 of each
instance are parsed. Prints p50/p90/p99/max over every (sampled stream, change) pair
received, the changes each sampled stream got, each instance's CPU
(utime + stime from /proc) per second and per 1,000 changes, and its resident memory.

    python3 Tests/postgres_latency.py --server .build-web/release/web-demo --instances 3 --windows 300 --rate 1000
"""
import argparse
import asyncio
import multiprocessing
import os
import random
import resource
import re
import subprocess
import time

from http_check import start_server, stop_server

SCRIPTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Scripts")
STAMP = re.compile(rb'<span class=\\"name\\">T(\d+)</span>')
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0


async def stream(port, latencies, counts, ready, stop, sampled):
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
    await writer.drain()
    got = 0
    while not stop.is_set():
        try:
            chunk = await asyncio.wait_for(reader.read(65536), 0.5)
        except asyncio.TimeoutError:
            continue
        if not chunk:
            break
        if not got and b'"type":"snapshot"' in chunk:
            ready.append(1)
            got = 1
        if not sampled:
            continue
        now = time.time_ns()
        for found in STAMP.finditer(chunk):
            latencies.append((now - int(found.group(1))) / 1e6)
            got += 1
    if sampled:
        counts.append(got - 1)
    writer.close()


def read_streams(ports, per_instance, results, ready, stop):
    """The streams, in a process of their own (the writer's pacing and the readers do
    not share an interpreter lock)."""
    latencies, counts, opened = [], [], []

    async def watch():
        while not stop.is_set():
            ready.value = len(opened)
            await asyncio.sleep(0.1)
    async def everything():
        watcher = asyncio.create_task(watch())
        await clients(ports, per_instance, latencies, counts, opened, stop)
        watcher.cancel()
    started = time.monotonic()
    asyncio.run(everything())
    usage = resource.getrusage(resource.RUSAGE_SELF)
    results.put((latencies, counts, (usage.ru_utime + usage.ru_stime) / (time.monotonic() - started)))


async def clients(ports, per_instance, latencies, counts, ready, stop):
    # Every stream is read; the first 10 of each instance are parsed for stamps (parsing
    # them all would make this process, not the server, the bottleneck).
    tasks = [asyncio.create_task(stream(port, latencies, counts, ready, stop, index < 10))
             for port in ports for index in range(per_instance)]
    await asyncio.gather(*tasks)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--server", required=True)
    parser.add_argument("--instances", type=int, default=3)
    parser.add_argument("--windows", type=int, default=300, help="streams per instance")
    parser.add_argument("--rate", type=int, default=1000, help="UPDATEs per second")
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--players", type=int, default=20000)
    options = parser.parse_args()

    url = subprocess.run(["bash", os.path.join(SCRIPTS, "postgres.sh"), "start"], capture_output=True, text=True,
                         check=True).stdout.strip().splitlines()[-1]
    subprocess.run(["psql", url, "-X", "-q", "-c", "DROP TABLE IF EXISTS players"], check=True)
    common = ["--postgres", url, "--seed-players", str(options.players), "--feed-interval", "0", "--page-latency", "0",
              "--max-windows-per-client", "100000", "--resume-grace", "1000"]
    servers = [start_server(options.server, *common) for _ in range(options.instances)]
    try:
        top = subprocess.run(["psql", url, "-X", "-q", "-t", "-A", "-c", "SELECT id FROM players ORDER BY score DESC, id LIMIT 40"],
                             capture_output=True, text=True, check=True).stdout.split()
        ready = multiprocessing.Value("i", 0)
        stop = multiprocessing.Event()
        results = multiprocessing.Queue()
        ports = [base.port for _, base in servers]
        readers = multiprocessing.Process(target=read_streams, args=(ports, options.windows, results, ready, stop))
        readers.start()
        deadline = time.monotonic() + 60
        while ready.value < len(ports) * options.windows and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(1)
        pids = [server.pid for server, _ in servers]
        cpu_before = [cpu_seconds(pid) for pid in pids]
        started = time.monotonic()
        writer = subprocess.Popen(["psql", url, "-X", "-q", "-f", "-"], stdin=subprocess.PIPE, text=True)
        # A commit waits for its WAL flush unless this is off: on this machine's disk that
        # caps one session near 600 commits a second. Notifications are sent the same way.
        writer.stdin.write("SET synchronous_commit = off;\n")
        sent = 0
        rng = random.Random(1)
        while time.monotonic() - started < options.seconds:
            due = int((time.monotonic() - started) * options.rate)
            lines = []
            while sent < due:
                lines.append("UPDATE players SET name = 'T' || (extract(epoch FROM clock_timestamp()) * 1e9)::bigint, "
                             f"score = score + {rng.choice((-1, 1))} WHERE id = '{rng.choice(top)}';\n")
                sent += 1
            if lines:
                writer.stdin.write("".join(lines))
                writer.stdin.flush()
            time.sleep(0.002)
        writer.stdin.close()
        writer.wait()
        elapsed = time.monotonic() - started
        time.sleep(2)
        cpu = [cpu_seconds(pid) - before for pid, before in zip(pids, cpu_before)]
        memory = [rss_mib(pid) for pid in pids]
        stop.set()
        latencies, counts, reader_cpu = results.get(timeout=60)
        readers.join()
        latencies.sort()

        def pct(p):
            return latencies[min(len(latencies) - 1, int(p * len(latencies)))] if latencies else float("nan")
        counts.sort()
        print(f"{options.instances} instances × {options.windows} windows, {sent} UPDATEs in {elapsed:.1f} s "
              f"({sent / elapsed:.0f}/s), players {options.players}")
        print(f"commit-to-stream latency ms: p50 {pct(0.5):.1f}, p90 {pct(0.9):.1f}, p99 {pct(0.99):.1f}, max {latencies[-1] if latencies else float('nan'):.1f} "
              f"({len(latencies)} deliveries)")
        print(f"the stream reader process: {100 * reader_cpu:.0f} % of a core over its run")
        print(f"changes received per sampled stream ({len(counts)} streams): min {counts[0]}, median {counts[len(counts) // 2]}, max {counts[-1]}")
        for number, (seconds, mib) in enumerate(zip(cpu, memory)):
            print(f"instance {number}: CPU {100 * seconds / elapsed:.0f} % of a core, {1000 * seconds / sent * 1000:.0f} ms of CPU "
                  f"per 1,000 changes; RSS {mib:.0f} MiB")
    finally:
        for server, _ in servers:
            stop_server(server)


if __name__ == "__main__":
    main()
