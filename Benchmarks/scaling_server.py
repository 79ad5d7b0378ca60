"""The scaling measure's delaying server and its reference client (`Scripts/bench --only scaling`).

Python 3 standard library only (asyncio), one thread. Two modes:

  scaling_server.py serve [--port-file FILE] [--tls CHAIN KEY]
      Listens on a free port of 127.0.0.1 (written to FILE, and printed) and speaks keep-alive
      HTTP/1.1 with Content-Length (over TLS with --tls: the certificate chain and key, PEM):
        /delay/MS   200, a 109-byte JSON object (the small-GET measure's), MS milliseconds after
                    the request arrived; the connection stays open for the next request
        /stats      200, {"accepted", "open", "peak", "requests"}: connections accepted and open
                    now, the most open at once since the previous /stats, delayed answers sent.
                    A connection that asks for /stats is left out of every count.
      It raises its own soft descriptor limit to the hard one, so that it can hold thousands of
      connections, and listens with a backlog of 8,192 (the kernel caps it at somaxconn).

  scaling_server.py client URL C CALLS
      The reference client: C asyncio tasks, each on a connection of its own, make CALLS
      sequential GETs of URL (an http:// or https://127.0.0.1:PORT/delay/MS address; https
      verified with the system's store) and decode each JSON body. Prints one line of key=value fields as the Swift children do (calls, ok, cpu, wall,
      threads0, fds0, rss, nofile, failures). It shows what the server itself sustains: if this
      client reaches C / delay calls per second, the server is not what holds another client back.
"""

import asyncio
import json
import os
import resource
import ssl
import sys
import time
from urllib.parse import urlsplit

BODY = (
    b'{"id":42,"name":"WebServiceKit small response","tags":["alpha","beta","gamma"],"active":true}'
    b"               \n"
)
MAX_HEAD = 16 * 1024


def set_descriptor_limit(wanted=None):
    """Sets the soft RLIMIT_NOFILE to `wanted` (the client: 8,192, as the Swift children do, up or
    down), never above the hard limit; the server raises it to the hard limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if wanted is None:
        target = max(soft, 65536) if hard == resource.RLIM_INFINITY else max(soft, hard)
    else:
        target = wanted if hard == resource.RLIM_INFINITY else min(hard, wanted)
    if target != soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


class Stats:
    accepted = 0
    open = 0
    peak = 0
    requests = 0


def response(status, reason, body, close, head_only=False, content_type=b"application/json"):
    head = (
        b"HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %d\r\nCache-Control: no-store\r\n"
        % (status, reason, content_type, len(body))
    )
    if close:
        head += b"Connection: close\r\n"
    return head + b"\r\n" + (b"" if head_only else body)


class DelayingProtocol(asyncio.Protocol):
    """One connection: requests are answered one at a time, in order (a pipelined request waits
    in the buffer until the previous answer is sent)."""

    def connection_made(self, transport):
        self.transport = transport
        self.buffer = bytearray()
        self.busy = False
        self.closed = False
        self.admin = False
        Stats.accepted += 1
        Stats.open += 1
        Stats.peak = max(Stats.peak, Stats.open)

    def connection_lost(self, exc):
        self.closed = True
        if not self.admin:
            Stats.open -= 1

    def data_received(self, data):
        self.buffer += data
        self.process()

    def fail(self, status, reason):
        self.transport.write(response(status, reason, reason + b"\n", True, content_type=b"text/plain"))
        self.transport.close()
        self.closed = True

    def process(self):
        while not self.busy and not self.closed:
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                if len(self.buffer) > MAX_HEAD:
                    self.fail(431, b"Request Header Fields Too Large")
                return
            head = bytes(self.buffer[:end]).decode("latin-1")
            del self.buffer[: end + 4]
            lines = head.split("\r\n")
            parts = lines[0].split(" ")
            if len(parts) != 3 or not parts[2].startswith("HTTP/1."):
                self.fail(400, b"Bad Request")
                return
            method, target, version = parts
            fields = {}
            for line in lines[1:]:
                name, _, value = line.partition(":")
                fields[name.strip().lower()] = value.strip()
            # GETs without a body, or POSTs with a Content-Length body (read whole before the
            # delay starts); a chunked body is refused.
            length = fields.get("content-length", "0") or "0"
            if "transfer-encoding" in fields or not length.isdigit():
                self.fail(400, b"Bad Request")
                return
            if len(self.buffer) < int(length):
                # Not all of the body yet: put the head back and wait for more.
                self.buffer[0:0] = head.encode("latin-1") + b"\r\n\r\n"
                return
            del self.buffer[: int(length)]
            connection = fields.get("connection", "").lower()
            close = connection == "close" or (version == "HTTP/1.0" and connection != "keep-alive")
            head_only = method == "HEAD"
            path = target.split("?", 1)[0]
            if path.startswith("/delay/") and path[7:].isdigit():
                self.busy = True
                delay = int(path[7:]) / 1000
                asyncio.get_running_loop().call_later(delay, self.answer, close, head_only)
            elif path == "/stats":
                if not self.admin:
                    self.admin = True
                    Stats.accepted -= 1
                    Stats.open -= 1
                body = json.dumps(
                    {"accepted": Stats.accepted, "open": Stats.open, "peak": Stats.peak, "requests": Stats.requests}
                ).encode()
                Stats.peak = Stats.open
                self.transport.write(response(200, b"OK", body, close, head_only))
                if close:
                    self.transport.close()
                    self.closed = True
            else:
                self.transport.write(response(404, b"Not Found", b"not found\n", close, head_only, b"text/plain"))
                if close:
                    self.transport.close()
                    self.closed = True

    def answer(self, close, head_only):
        if self.closed:
            return
        Stats.requests += 1
        self.transport.write(response(200, b"OK", BODY, close, head_only))
        self.busy = False
        if close:
            self.transport.close()
            self.closed = True
        else:
            self.process()


async def serve(port_file, tls=None):
    limit = set_descriptor_limit()
    loop = asyncio.get_running_loop()
    context = None
    if tls:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(*tls)
    server = await loop.create_server(
        DelayingProtocol, "127.0.0.1", 0, backlog=8192, reuse_address=True, ssl=context)
    port = server.sockets[0].getsockname()[1]
    print(f"scaling server on 127.0.0.1:{port}, descriptor limit {limit}", flush=True)
    if port_file:
        with open(port_file + ".tmp", "w") as handle:
            handle.write(f"{port}\n")
        os.replace(port_file + ".tmp", port_file)
    async with server:
        await server.serve_forever()


def count_entries(path):
    try:
        return len(os.listdir(path))
    except OSError:
        return -1


def peak_rss_kib():
    with open("/proc/self/status") as handle:
        for line in handle:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


async def client_task(host, port, request, calls, failures, context=None):
    reader = writer = None
    ok = 0
    for _ in range(calls):
        try:
            if writer is None:
                reader, writer = await asyncio.open_connection(host, port, ssl=context)
            writer.write(request)
            head = await reader.readuntil(b"\r\n\r\n")
            lines = head.decode("latin-1").split("\r\n")
            status = int(lines[0].split(" ")[1])
            length = None
            for line in lines[1:]:
                name, _, value = line.partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value.strip())
            if length is None:
                raise ValueError("no Content-Length")
            body = await reader.readexactly(length)
            if status != 200:
                raise ValueError(f"status {status}")
            json.loads(body)
            ok += 1
        except Exception as error:  # counted by kind, as the Swift children count theirs
            kind = type(error).__name__
            failures[kind] = failures.get(kind, 0) + 1
            if writer is not None:
                writer.close()
            reader = writer = None
    if writer is not None:
        writer.close()
    return ok


async def client(url, concurrency, calls):
    parts = urlsplit(url)
    request = (
        f"GET {parts.path or '/'} HTTP/1.1\r\nHost: {parts.hostname}:{parts.port}\r\nAccept: */*\r\n"
        "User-Agent: scaling-reference\r\n\r\n"
    ).encode()
    failures = {}
    threads0 = count_entries("/proc/self/task")
    fds0 = count_entries("/proc/self/fd") - 1  # the listing's own descriptor
    cpu0 = time.process_time()
    start = time.monotonic()
    context = ssl.create_default_context() if parts.scheme == "https" else None
    results = await asyncio.gather(
        *(client_task(parts.hostname, parts.port, request, calls, failures, context) for _ in range(concurrency))
    )
    wall = time.monotonic() - start
    cpu = time.process_time() - cpu0
    return sum(results), failures, cpu, wall, threads0, fds0


def main():
    if len(sys.argv) >= 2 and sys.argv[1] == "serve":
        arguments = sys.argv[2:]
        port_file = tls = None
        if arguments[:1] == ["--port-file"]:
            port_file, arguments = arguments[1], arguments[2:]
        if arguments[:1] == ["--tls"]:
            tls = (arguments[1], arguments[2])
        try:
            asyncio.run(serve(port_file, tls))
        except KeyboardInterrupt:
            pass
        return 0
    if len(sys.argv) == 5 and sys.argv[1] == "client":
        concurrency, calls = int(sys.argv[3]), int(sys.argv[4])
        nofile = set_descriptor_limit(8192)
        ok, failures, cpu, wall, threads0, fds0 = asyncio.run(client(sys.argv[2], concurrency, calls))
        kinds = ",".join(f"{kind}:{count}" for kind, count in sorted(failures.items())) or "-"
        print(
            f"calls={concurrency * calls} ok={ok} cpu={cpu} wall={wall} threads0={threads0} fds0={fds0}"
            f" rss={peak_rss_kib()} nofile={nofile} failures={kinds}",
            flush=True,
        )
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
