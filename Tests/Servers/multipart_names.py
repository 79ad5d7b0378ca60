"""A loopback HTTP server that reads each POSTed multipart/form-data body with one of three
widely used Python parsers, chosen by the path, and answers with the field names and file names
that parser decoded, as JSON: {"fields": [[name, value], ...], "files": [[name, filename], ...]}.

    /werkzeug          Werkzeug's form parser (Flask)
    /django            Django's MultiPartParser
    /python-multipart  python-multipart (Starlette, FastAPI)

It shows how each server reads `%22` and `\\"` in a name (Docs/Multipart.md, "Names and file
names"). Versions are pinned in requirements-multipart-names.txt.

Usage: python multipart_names.py PORT   (listens on 127.0.0.1 only)
"""

import io
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import django
from django.conf import settings

settings.configure(
    DEFAULT_CHARSET="utf-8",
    FILE_UPLOAD_HANDLERS=["django.core.files.uploadhandler.MemoryFileUploadHandler"],
)
django.setup()

import python_multipart  # noqa: E402
from django.core.files.uploadhandler import MemoryFileUploadHandler  # noqa: E402
from django.http.multipartparser import MultiPartParser  # noqa: E402
from werkzeug.formparser import parse_form_data  # noqa: E402


def text(value):
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else value


def with_werkzeug(content_type, body):
    environ = {
        "REQUEST_METHOD": "POST",
        "CONTENT_TYPE": content_type,
        "CONTENT_LENGTH": str(len(body)),
        "wsgi.input": io.BytesIO(body),
    }
    _, form, files = parse_form_data(environ, silent=False)
    return (
        [[name, value] for name, value in form.items(multi=True)],
        [[name, file.filename] for name, file in files.items(multi=True)],
    )


def with_django(content_type, body):
    meta = {"CONTENT_TYPE": content_type, "CONTENT_LENGTH": str(len(body))}
    post, files = MultiPartParser(meta, io.BytesIO(body), [MemoryFileUploadHandler()], "utf-8").parse()
    return (
        [[name, value] for name, values in post.lists() for value in values],
        [[name, file.name] for name, items in files.lists() for file in items],
    )


def with_python_multipart(content_type, body):
    fields, files = [], []
    python_multipart.parse_form(
        {"Content-Type": content_type, "Content-Length": str(len(body))},
        io.BytesIO(body),
        lambda field: fields.append([text(field.field_name), text(field.value)]),
        lambda file: files.append([text(file.field_name), text(file.file_name)]),
    )
    return fields, files


PARSERS = {"/werkzeug": with_werkzeug, "/django": with_django, "/python-multipart": with_python_multipart}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self):
        parse = PARSERS.get(self.path)
        if parse is None:
            return self.reply(404, {"error": f"no parser at {self.path}"})
        length = self.headers.get("Content-Length")
        if length is None:
            return self.reply(411, {"error": "send Content-Length"})
        body = self.rfile.read(int(length))
        try:
            fields, files = parse(self.headers.get("Content-Type", ""), body)
        except Exception as error:  # each parser has its own error types
            return self.reply(400, {"error": f"{type(error).__name__}: {error}"})
        self.reply(200, {"fields": fields, "files": files})

    def do_GET(self):
        self.reply(200, {"parsers": sorted(PARSERS)})

    def reply(self, status, value):
        body = json.dumps(value).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


if __name__ == "__main__":
    ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
