"""A loopback JSON-RPC 2.0 server for the integration tests: the PyPI package `json-rpc`
(its JSONRPCResponseManager parses requests and batches, dispatches, and writes responses,
errors and notifications as the specification says) behind the standard library's
ThreadingHTTPServer.

Endpoints (POST, body = one JSON-RPC request or a batch):
  /rpc          open
  /tenants/T/rpc  open, as /rpc (the JSON-RPC guide's per-tenant endpoint)
  /secure/rpc   needs `Authorization: Bearer secret-token`, else 401 with a Bearer challenge
A response with no body (only notifications) is 204; a batch is answered in reverse order.
GET / answers "ok" (readiness).

Methods:
  subtract(minuend, subtrahend)   positional or named
  count_characters(text)          {"text": text, "count": len(text)}
  echo(...)                       its params as they arrived (list or object)
  record(channel, message)        remembers message under channel (send it as a notification)
  recorded(channel)               the messages recorded under channel, in arrival order
  fail(message)                   raises ValueError: -32000 server error with the exception as data
  reject(code, message, data)     answers the error object it is given
  sleep(seconds)                  returns seconds after waiting them
  system.listMethods()            the names of these methods, sorted

Usage: python jsonrpc_server.py PORT   (listens on 127.0.0.1 only)
"""

import json
import re
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from jsonrpc import Dispatcher, JSONRPCResponseManager
from jsonrpc.exceptions import JSONRPCDispatchException

TOKEN = "secret-token"
RECORDED = {}
RECORDED_LOCK = threading.Lock()
dispatcher = Dispatcher()


@dispatcher.add_method
def subtract(minuend, subtrahend):
    return minuend - subtrahend


@dispatcher.add_method
def count_characters(text):
    return {"text": text, "count": len(text)}


@dispatcher.add_method
def echo(*args, **kwargs):
    return kwargs if kwargs else list(args)


@dispatcher.add_method
def record(channel, message):
    with RECORDED_LOCK:
        RECORDED.setdefault(channel, []).append(message)


@dispatcher.add_method
def recorded(channel):
    with RECORDED_LOCK:
        return list(RECORDED.get(channel, []))


@dispatcher.add_method
def fail(message):
    raise ValueError(message)


@dispatcher.add_method
def reject(code, message, data=None):
    raise JSONRPCDispatchException(code=code, message=message, data=data)


@dispatcher.add_method
def sleep(seconds):
    time.sleep(seconds)
    return seconds


def list_methods():
    return sorted(dispatcher.keys())


dispatcher.add_method(list_methods, name="system.listMethods")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        self.reply(200, b"ok", "text/plain")

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if self.path == "/secure/rpc":
            if self.headers.get("Authorization") != f"Bearer {TOKEN}":
                return self.reply(401, b"", None, {"WWW-Authenticate": 'Bearer realm="rpc"'})
        elif self.path != "/rpc" and not re.fullmatch(r"/tenants/[^/]+/rpc", self.path):
            return self.reply(404, b"", None)
        response = JSONRPCResponseManager.handle(body, dispatcher)
        if response is None:
            return self.reply(204, b"", None)
        data = response.data
        if isinstance(data, list):
            # The specification lets a server answer a batch in any order: answer it backwards,
            # so that the tests prove the client matches responses by id.
            data = list(reversed(data))
        self.reply(200, json.dumps(data).encode("utf-8"), "application/json")

    def reply(self, status, body, content_type, headers=None):
        self.send_response(status)
        if content_type:
            self.send_header("Content-Type", content_type)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        if status != 204:
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if body:
            self.wfile.write(body)

    def log_message(self, format, *args):
        sys.stderr.write("%s %s\n" % (self.command, self.path))


if __name__ == "__main__":
    server = ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler)
    server.daemon_threads = True
    server.serve_forever()
