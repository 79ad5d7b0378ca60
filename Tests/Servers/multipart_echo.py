"""A loopback HTTP server that parses each POSTed multipart/form-data body with the strict
parser of the PyPI `multipart` package and answers with the parts as JSON:
[{"name", "filename", "content_type", "headers", "size", "sha256", "text"}...].
A body the parser rejects gets 400 with the parser's message.

Usage: python multipart_echo.py PORT   (listens on 127.0.0.1 only)
"""

import hashlib
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import multipart


class ChunkedReader:
    """Decodes an HTTP/1.1 chunked request body (RFC 9112 section 7.1) for the parser."""

    def __init__(self, stream):
        self.stream = stream
        self.left = 0
        self.done = False

    def read(self, size=-1):
        out = b""
        while not self.done and (size < 0 or len(out) < size):
            if self.left == 0:
                line = self.stream.readline()
                self.left = int(line.split(b";")[0].strip() or b"0", 16)
                if self.left == 0:
                    while self.stream.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    self.done = True
                    break
            want = self.left if size < 0 else min(self.left, size - len(out))
            chunk = self.stream.read(want)
            if not chunk:
                raise multipart.MultipartError("chunked body ended early")
            out += chunk
            self.left -= len(chunk)
            if self.left == 0:
                self.stream.readline()
        return out


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self):
        content_type, options = multipart.parse_options_header(self.headers.get("Content-Type", ""))
        chunked = self.headers.get("Transfer-Encoding", "").lower() == "chunked"
        if chunked and self.headers.get("Content-Length") is not None:
            return self.reply(400, {"error": "both Content-Length and Transfer-Encoding (RFC 9112 section 6.1)"})
        length = -1 if chunked else int(self.headers.get("Content-Length", "-1"))
        body = ChunkedReader(self.rfile) if chunked else self.rfile
        if content_type != "multipart/form-data" or "boundary" not in options:
            return self.reply(400, {"error": f"not multipart/form-data: {self.headers.get('Content-Type')}"})
        try:
            parser = multipart.MultipartParser(
                body, options["boundary"], content_length=length, strict=True,
                part_limit=10_000, memory_limit=2**34, disk_limit=2**40, partsize_limit=2**40)
            parts = []
            for part in parser:
                digest = hashlib.sha256()
                size = 0
                head = b""
                stream = part.file
                stream.seek(0)
                while chunk := stream.read(1 << 20):
                    digest.update(chunk)
                    if size < 256:
                        head += chunk[: 256 - size]
                    size += len(chunk)
                parts.append({
                    "name": part.name,
                    "filename": part.filename,
                    "content_type": part.content_type,
                    "headers": [[k, v] for k, v in part.headerlist],
                    "size": size,
                    "sha256": digest.hexdigest(),
                    "text": head.decode("utf-8", "replace"),
                })
                part.close()
        except multipart.MultipartError as error:
            return self.reply(400, {"error": str(error)})
        self.reply(200, parts)

    def reply(self, status, value):
        body = json.dumps(value).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        self.reply(200, {"ok": True})

    def log_message(self, *args):
        pass


if __name__ == "__main__":
    ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
