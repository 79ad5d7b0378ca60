"""The example API the guides' code blocks call (DocBlocksRunTests runs every block against it).

Python 3 standard library only. Usage: docs_api_server.py PORT. It listens on 127.0.0.1:PORT and
answers HTTP/1.1 (kept alive) as the small repository service of README.md and the guides would:
a user's repositories, creating and deleting one, and what the other guides' examples call. The
guides' `https://api.example.com/` stands for this server's root when their blocks run.

  GET    /users/{user}/repos[?sort=S]   200 JSON [{"id":1,"name":"kit"},{"id":2,"name":"road"}],
                                        ETag "v1", Cache-Control max-age=60; 304 to
                                        If-None-Match "v1"
  POST   /user/repos, /users/{u}/repos  201 JSON {"id":3,"name":N} (N from the JSON body's name)
  GET    /repos/{owner}/{name}          200 JSON {"id":1,"name":name}
  DELETE /repos/{owner}/{name}          204; 404 JSON {"message":"Not Found"} for name `missing`
  GET    /ping                          200 text `pong`
  GET    /ok                            200 text `ok` (the readiness check)
  GET    /delay/N                       200 JSON {} after N seconds (at most 60)
  GET    /users/{user}/starred          200 JSON [{"id":2,"name":"road"}]
  GET    /reports/{id}                  200 JSON {"id":id}
  GET    /reports/{id}.pdf              200 application/pdf, 102,400 bytes
  GET    /archives/{year}               200 application/octet-stream, 262,144 bytes
  POST   /post, /upload.php             a multipart/form-data body read back (the standard
                                        library's MIME parser), as httpbin does: 200 JSON
                                        {"files":{name:text},"form":{name:text}}
  GET    /ticker/{SYMBOL}               200 text/event-stream: two `quote` events (data 1.0842 and
                                        1.0843), then a `status` event, data `closed`
  POST   /v1/complete                   200 application/x-ndjson: {"text":T} (T the JSON body's
                                        text), {"text":", world"}, {"text":"!"}
  POST   /greetings/{en|fr}             200 JSON {"message":"Hello, NAME"} (NAME from the JSON
                                        body's name); 404 JSON {"message":…} for another language
  GET    /me                            Authentication.md: Digest (RFC 7616) for user `user`, password
                                        `passwd`, realm `api`: 401 with a SHA-256 and an MD5
                                        challenge (qop auth, opaque; stale=true for a nonce it
                                        did not issue), 200 JSON {"name":"user"} to a right answer
  GET    /cache/N                       Caching.md: 200 JSON {"url":path}, Cache-Control public, max-age=N
  GET    /doc                           Caching.md: 200 text `Hello`, or `Hallo` for Accept-Language de,
                                        Vary Accept-Language, Cache-Control max-age=60
  GET    /users/{n}/profile             Caching.md: 200 JSON {"id":n,"name":"user n"} (n digits),
                                        Cache-Control private, no-cache
  GET    /weather                       DescriptorReference.md: 200 JSON {"coord":{"lon":-0.13,
                                        "lat":51.51},"list":[{"id":1},{"id":2}]}
  GET    /repos/{owner}/nope            DescriptorReference.md: 404 JSON {"code":404,"message":"Not Found"}
  POST   /legacy/greet                  Serialization.md: windows-1251 text in (415 without
                                        charset=windows-1251), 200 text/plain; charset=windows-1251
                                        `TEXT, Иван` back
  POST   /legacy/person                 Serialization.md: JSON in windows-1251 in (415 without
                                        charset=windows-1251), the same JSON back, labelled so
  GET    /catalogue.xml                 Serialization.md: 200 application/xml, a <catalogue> of two
                                        <product>s (Lamp, Chair)
  PUT    /products/{id}                 Serialization.md: 204 for an application/xml <Product> with
                                        id=`id`; 400 or 415 otherwise
  POST   /signup                        Serialization.md: 204 for an application/x-www-form-urlencoded
                                        body; 415 otherwise
  GET    /report.csv                    Serialization.md: 200 text/csv `name,count\nkit,3\n`
  GET    /account                       MigratingFromROAD.md: Basic (RFC 7617) for user `user`,
                                        password `passwd`, realm `staff`: 401 with the challenge,
                                        200 JSON {"login":"user"} with the credentials
  POST   /payments                      Retries.md: 201 JSON {"id":"pay_N"}, 200 and the same payment to
                                        an Idempotency-Key seen before; 400 without the key
  GET    /archive/search[?q=Q]          Retries.md: 503 JSON {"message":…}, Retry-After 3600
  GET    /feed/full                     Reliability.md: 200 JSON, a feed of about 5 MiB
  anything else                         404 JSON {"message":"Not Found"}

Every request is written to standard error (the server's log), one line each.
"""

import base64
import hashlib
import hmac
import email.parser
import email.policy
import json
import re
import secrets
import sys
import threading
import time
import xml.etree.ElementTree
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

REPOS = [{"id": 1, "name": "kit"}, {"id": 2, "name": "road"}]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def answer(self, status, body=b"", content_type="application/json", headers=None):
        """Sends a whole response; True, for the routes' `return self.answer(...)`."""
        self.send_response(status)
        if status not in (204, 304):
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        if status not in (204, 304) and self.command != "HEAD":
            self.wfile.write(body)
        return True

    def json(self, status, value, headers=None):
        return self.answer(status, json.dumps(value).encode(), headers=headers)

    def request_body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def route(self):
        """Each guide's routes in turn: the first that answers (returns True) ends the request."""
        path = self.path.split("?", 1)[0]
        body = self.request_body()
        for routes in (
            self.descriptor_reference_routes,
            self.serialization_routes,
            self.migrating_from_road_routes,
            self.repository_routes,
            self.getting_started_routes,
            self.multipart_routes,
            self.streaming_routes,
            self.authentication_routes,
            self.caching_routes,
            self.retries_routes,
            self.reliability_routes,
        ):
            if routes(self.command, path, body):
                return
        self.json(404, {"message": "Not Found"})

    # --- the repository service of README.md and Getting Started ---
    def repository_routes(self, method, path, body):
        if path == "/ok":
            return self.answer(200, b"ok", "text/plain")
        if path == "/ping":
            return self.answer(200, b"pong", "text/plain")
        match = re.fullmatch(r"/delay/(\d+(?:\.\d+)?)", path)
        if match:
            time.sleep(min(float(match.group(1)), 60))
            return self.json(200, {})
        if re.fullmatch(r"/users/[^/]+/repos", path) and method in ("GET", "HEAD"):
            if self.headers.get("If-None-Match") == '"v1"':
                return self.answer(304, headers={"ETag": '"v1"', "Cache-Control": "max-age=60"})
            return self.json(200, REPOS, {"ETag": '"v1"', "Cache-Control": "max-age=60"})
        if re.fullmatch(r"/users?(/[^/]+)?/repos", path) and method == "POST":
            try:
                name = json.loads(body or b"{}").get("name", "new")
            except ValueError:
                return self.json(400, {"message": "the body is not JSON"})
            return self.json(201, {"id": 3, "name": name})
        match = re.fullmatch(r"/repos/([^/]+)/([^/]+)", path)
        if match:
            if match.group(2) == "missing":
                return self.json(404, {"message": "Not Found"})
            if method == "DELETE":
                return self.answer(204)
            return self.json(200, {"id": 1, "name": match.group(2)})
        return False

    # --- routes for GettingStarted.md, TypedCalls.md, README.md ---
    # --- routes for Streaming.md ---
    def streaming_routes(self, method, path, body):
        if re.fullmatch(r"/ticker/[A-Z]+", path):
            events = b"event: quote\ndata: 1.0842\n\nevent: quote\ndata: 1.0843\n\nevent: status\ndata: closed\n\n"
            return self.answer(200, events, "text/event-stream", {"Cache-Control": "no-store"})
        if path == "/v1/complete" and method == "POST":
            prompt = json.loads(body or b"{}").get("text", "")
            lines = [{"text": prompt}, {"text": ", world"}, {"text": "!"}]
            text = "".join(json.dumps(line) + "\n" for line in lines).encode()
            return self.answer(200, text, "application/x-ndjson")
        return False

    # --- routes for Multipart.md ---
    def multipart_routes(self, method, path, body):
        if method != "POST" or path not in ("/post", "/upload.php"):
            return False
        # The standard library's MIME parser reads the form (RFC 7578 is MIME multipart).
        message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
            b"Content-Type: " + self.headers.get("Content-Type", "").encode() + b"\r\n\r\n" + body)
        if not message.is_multipart():
            return self.json(400, {"message": "not a multipart body"})
        files, form = {}, {}
        for part in message.iter_parts():
            name = part.get_param("name", header="content-disposition")
            payload = part.get_payload(decode=True) or b""
            if part.get_filename() is not None:
                files[name] = payload.decode("utf-8", "replace")
            else:
                form[name] = payload.decode("utf-8", "replace")
        return self.json(200, {"files": files, "form": form})

    def getting_started_routes(self, method, path, body):
        match = re.fullmatch(r"/reports/([\w-]+)\.pdf", path)
        if match:
            return self.answer(200, b"%PDF-1.4\n" + b"x" * 102_391, "application/pdf")
        match = re.fullmatch(r"/reports/([\w-]+)", path)
        if match:
            return self.json(200, {"id": match.group(1)})
        match = re.fullmatch(r"/archives/(\d+)", path)
        if match:
            return self.answer(200, bytes(range(256)) * 1024, "application/octet-stream")
        if re.fullmatch(r"/users/[^/]+/starred", path):
            return self.json(200, REPOS[1:])
        match = re.fullmatch(r"/greetings/([a-z]+)", path)
        if match and method == "POST":
            name = json.loads(body or b"{}").get("name", "you")
            greeting = {"en": "Hello", "fr": "Bonjour"}.get(match.group(1))
            if greeting is None:
                return self.json(404, {"message": "no greeting in " + match.group(1)})
            return self.json(200, {"message": "%s, %s" % (greeting, name)})
        return False

    # --- routes for Authentication.md ---
    def authentication_routes(self, method, path, body):
        """True when it answered: /me, a profile behind Digest (RFC 7616)."""
        if path != "/me":
            return False
        if digest_verified(method, self.path, self.headers.get("Authorization", "")):
            self.json(200, {"name": DIGEST_USER})
            return True
        # Both challenges, the stronger first; a nonce this server did not issue is stale.
        given = self.headers.get("Authorization", "")
        stale = given.startswith("Digest ") and auth_params(given[7:]).get("nonce") not in DIGEST_NONCES
        nonce = secrets.token_hex(16)
        DIGEST_NONCES.add(nonce)
        self.send_response(401)
        for algorithm in ("SHA-256", "MD5"):
            self.send_header("WWW-Authenticate", 'Digest realm="%s", qop="auth", algorithm=%s, nonce="%s", '
                             'opaque="%s"%s' % (DIGEST_REALM, algorithm, nonce, DIGEST_OPAQUE,
                                                 ", stale=true" if stale else ""))
        text = json.dumps({"message": "Requires authentication"}).encode()
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(text)))
        self.end_headers()
        if method != "HEAD":
            self.wfile.write(text)
        return True

    # --- routes for Caching.md ---
    def caching_routes(self, method, path, body):
        """True when it answered: a cacheable resource, a page per language, a user's profile."""
        if method not in ("GET", "HEAD"):
            return False
        match = re.fullmatch(r"/cache/(\d+)", path)
        if match:
            self.json(200, {"url": self.path}, {"Cache-Control": "public, max-age=" + match.group(1)})
            return True
        if path == "/doc":
            language = "de" if self.headers.get("Accept-Language", "").lower().startswith("de") else "en"
            text = {"en": "Hello", "de": "Hallo"}[language].encode()
            self.answer(200, text, "text/plain; charset=utf-8", {
                "Vary": "Accept-Language", "Content-Language": language, "Cache-Control": "max-age=60"})
            return True
        match = re.fullmatch(r"/users/(\d+)/profile", path)
        if match:
            # Always revalidate, says the service: the client's `.maxAge` policy overrides that.
            self.json(200, {"id": int(match.group(1)), "name": "user " + match.group(1)},
                      {"Cache-Control": "private, no-cache"})
            return True
        return False

    # --- routes for Retries.md ---
    def retries_routes(self, method, path, body):
        """True when it answered: payments deduplicated by Idempotency-Key, a search down for an hour."""
        if path == "/payments" and method == "POST":
            key = self.headers.get("Idempotency-Key")
            if not key:
                self.json(400, {"message": "an Idempotency-Key is required"})
                return True
            with PAYMENTS_LOCK:
                created = key not in PAYMENTS
                if created:
                    PAYMENTS[key] = "pay_%d" % (len(PAYMENTS) + 1)
                payment = PAYMENTS[key]
            # The same key again is the same payment: sending it twice does no harm.
            self.json(201 if created else 200, {"id": payment})
            return True
        if path == "/archive/search":
            self.json(503, {"message": "down for maintenance"}, {"Retry-After": "3600"})
            return True
        return False

    # --- routes for Reliability.md ---
    def reliability_routes(self, method, path, body):
        """True when it answered: /feed/full, a 5 MiB JSON feed (more than the guide's 4 MiB cap)."""
        if path != "/feed/full" or method not in ("GET", "HEAD"):
            return False
        try:
            self.answer(200, FULL_FEED)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True  # the client stopped reading at its limit
        return True

    # --- routes for DescriptorReference.md ---
    def descriptor_reference_routes(self, method, path, body):
        """True when it answered: a weather document, and a repository error with a code."""
        if path == "/weather" and method in ("GET", "HEAD"):
            self.json(200, {"coord": {"lon": -0.13, "lat": 51.51}, "list": [{"id": 1}, {"id": 2}]})
            return True
        if re.fullmatch(r"/repos/[^/]+/nope", path):
            self.json(404, {"code": 404, "message": "Not Found"})
            return True
        return False

    # --- routes for Serialization.md ---
    def serialization_routes(self, method, path, body):
        """True when it answered: a legacy windows-1251 service, an XML catalogue, a form, a CSV."""
        content_type = self.headers.get("Content-Type", "")
        media_type = content_type.split(";", 1)[0].strip().lower()
        charset = re.search(r';\s*charset="?([^";\s]+)', content_type, re.I)
        charset = charset.group(1).lower() if charset else None
        if path in ("/legacy/greet", "/legacy/person") and method == "POST":
            if charset != "windows-1251":
                self.json(415, {"message": "this service reads windows-1251 only"})
                return True
            try:
                text = body.decode("cp1251")
                if path == "/legacy/greet":
                    answer, answer_type = text + ", Иван", "text/plain; charset=windows-1251"
                else:
                    answer = json.dumps(json.loads(text), ensure_ascii=False, separators=(",", ":"))
                    answer_type = "application/json; charset=windows-1251"
            except ValueError:
                self.json(400, {"message": "the body is not windows-1251 " + media_type})
                return True
            self.answer(200, answer.encode("cp1251"), answer_type)
            return True
        if path == "/catalogue.xml" and method in ("GET", "HEAD"):
            self.answer(200, CATALOGUE.encode(), "application/xml")
            return True
        match = re.fullmatch(r"/products/(\d+)", path)
        if match and method == "PUT":
            if media_type != "application/xml":
                self.json(415, {"message": "send application/xml"})
                return True
            try:
                product = xml.etree.ElementTree.fromstring(body)
            except xml.etree.ElementTree.ParseError as error:
                self.json(400, {"message": "malformed XML: %s" % error})
                return True
            if product.tag != "Product" or product.get("id") != match.group(1):
                self.json(400, {"message": "expected <Product id=\"%s\">" % match.group(1)})
                return True
            self.answer(204)
            return True
        if path == "/signup" and method == "POST":
            if media_type != "application/x-www-form-urlencoded":
                self.json(415, {"message": "send application/x-www-form-urlencoded"})
                return True
            self.answer(204)
            return True
        if path == "/report.csv" and method in ("GET", "HEAD"):
            self.answer(200, b"name,count\nkit,3\n", "text/csv; charset=utf-8")
            return True
        return False

    # --- routes for MigratingFromROAD.md ---
    def migrating_from_road_routes(self, method, path, body):
        """True when it answered: /account, behind Basic (RFC 7617)."""
        if path != "/account":
            return False
        expected = "Basic " + base64.b64encode(b"user:passwd").decode()
        if self.headers.get("Authorization") == expected:
            self.json(200, {"login": "user"})
        else:
            self.json(401, {"message": "Requires authentication"}, {"WWW-Authenticate": 'Basic realm="staff"'})
        return True

    def do_GET(self):
        self.route()

    do_HEAD = do_POST = do_PUT = do_PATCH = do_DELETE = do_GET

    def handle(self):
        # A client that closes an idle kept-alive connection is not an error of the server's.
        try:
            super().handle()
        except (ConnectionResetError, BrokenPipeError):
            pass

    def log_message(self, format, *args):
        sys.stderr.write("%s %s\n" % (self.command, self.path))


# --- routes for Authentication.md ---
DIGEST_USER, DIGEST_PASSWORD, DIGEST_REALM = "user", "passwd", "api"
DIGEST_OPAQUE = "5ccc069c403ebaf9f0171e9517f40e41"
DIGEST_NONCES = set()  # the nonces this server issued


def auth_params(text):
    """The name=value pairs of a challenge or credentials (values quoted or not)."""
    pairs = re.findall(r'([A-Za-z0-9_*-]+)=(?:"((?:[^"\\]|\\.)*)"|([^,\s]*))', text)
    return {name.lower(): re.sub(r"\\(.)", r"\1", quoted) if quoted else bare for name, quoted, bare in pairs}


def digest_verified(method, uri, authorization):
    """Whether `authorization` is a right Digest answer (qop auth, MD5 or SHA-256) to a nonce of ours."""
    if not authorization.startswith("Digest "):
        return False
    given = auth_params(authorization[7:])
    hash_name = {"MD5": "md5", "SHA-256": "sha256"}.get(given.get("algorithm", "MD5"))
    if (hash_name is None or given.get("username") != DIGEST_USER or given.get("realm") != DIGEST_REALM
            or given.get("nonce") not in DIGEST_NONCES or given.get("uri") != uri or given.get("qop") != "auth"):
        return False

    def digest(text):
        return hashlib.new(hash_name, text.encode()).hexdigest()

    ha1 = digest("%s:%s:%s" % (DIGEST_USER, DIGEST_REALM, DIGEST_PASSWORD))
    ha2 = digest("%s:%s" % (method, uri))
    expected = digest(":".join([ha1, given["nonce"], given.get("nc", ""), given.get("cnonce", ""), "auth", ha2]))
    return hmac.compare_digest(expected, given.get("response", ""))


# --- routes for DescriptorReference.md, Serialization.md, MigratingFromROAD.md ---

CATALOGUE = """<?xml version="1.0" encoding="UTF-8"?>
<catalogue>
  <products>
    <product id="1"><title>Lamp</title><price currency="EUR">12.5</price></product>
    <product id="2"><title>Chair</title><price currency="EUR">40</price></product>
  </products>
</catalogue>
"""


# --- routes for Retries.md ---
PAYMENTS = {}  # Idempotency-Key: payment id
PAYMENTS_LOCK = threading.Lock()


# --- routes for Reliability.md ---
# About 5 MiB of JSON: [{"id":0,"title":"item 0","body":"xxx…"}, …]
FULL_FEED = json.dumps([{"id": n, "title": "item %d" % n, "body": "x" * 1000} for n in range(5000)]).encode()


if __name__ == "__main__":
    server = ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler)
    server.daemon_threads = True
    server.serve_forever()
