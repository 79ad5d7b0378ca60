"""A loopback server that validates every request against an OpenAPI document with openapi-core
(PyPI, pinned in requirements-openapi.txt), an implementation this project did not write, and
answers from the document. The OpenAPI import's tests call every operation of every fixture
document (Tests/WebServiceGenKitTests/Fixtures/OpenAPI/generate) through the generated clients
against it.

Documents. Every `*.yaml`, `*.yml` or `*.json` file in DOCUMENTS_DIR whose top level has an
`openapi` key is served; NAME is its file name without the extension. A document openapi-core
refuses to load is still routed: each request for it answers 500 (server-bug, below) with the
reason, and the other documents are served as usual.

Routing. A request for `/NAME/REST` is for document NAME, and REST (with its leading `/`) is the
operation path: a client is given `http://127.0.0.1:PORT/NAME/` as its service root. For the
validation the document's `servers` are replaced by the single server `http://127.0.0.1:PORT/NAME`
at every level (the top level, each path item and each operation): a server's base path
(`https://api.example/v2`) and its variables (`https://{region}.api.example/{base}`) are dropped,
never added to the prefix, whatever they say. Path parameters are matched on the raw (percent-
encoded) path and then percent-decoded, so `%2F` inside a parameter stays inside it.

Validation. openapi-core's request validator (OpenAPI.request_validator.iter_errors) checks the
security requirements (an API key in a header, query or cookie; the scheme word of HTTP basic or
bearer: presence only), the path, query, header and cookie parameters (style, explode, schema)
and the body (JSON, application/x-www-form-urlencoded, multipart/form-data, octet-stream, text).
openapi-core stops at the first failing security requirement set: then only that is reported.
It reads the query percent-decoded (`+` is a space), the headers with repeated fields joined by
`,` (case-insensitive names), the cookies with werkzeug's parse_cookie.
Where openapi-core 0.23.1 would misread a request that is right (LIMITS, below), this server
reshapes its input or patches that one reading; the verdicts stay openapi-core's.

Answers.
  - No document, path, method or server for the request: 404, the JSON body
    {"operation": null, "errors": [TEXT, ...]}, header `X-OpenAPI-Validated: refused`.
  - A request openapi-core refuses: 422, {"operation": OPERATION_ID_OR_NULL, "errors": [TEXT, ...]}
    where each TEXT names what failed (`query parameter 'limit'`, `request body at /items/0`, ...)
    and why, every error's __cause__ chain and every JSON Schema error flattened; header
    `X-OpenAPI-Validated: refused`. An exception openapi-core raises by itself (its own bug) is
    reported the same way, its text starting with `openapi-core failed`.
  - A valid request: headers `X-OpenAPI-Validated: ok` and `X-OpenAPI-Operation: OPERATION_ID`
    (or `METHOD /path/template` when the operation has none), and a response from the document:
    the first documented 2xx response (`2XX` answers 200; with no 2xx, `default` answers 200, else
    the first documented status), or the one a request header `X-OpenAPI-Respond: CODE` asks for
    (any documented code; `4XX` answers 400 and `404` may use a documented `4XX`; `default` answers
    500 with the default response). A status that is not documented answers 422 (the test's
    mistake, reported as refused). The body uses the response's first media type and is, in
    order: the media type's `example`, its first `examples` entry's `value`, the schema's
    `example`, its first `examples` item (3.1), each after following `$ref`, else a minimal
    instance made from the schema (required properties only, writeOnly ones left out; string "x"
    or a valid value of its format (date-time, date, time, uuid, uri, email, byte, ...); integer 1;
    number 1.5 (moved into minimum/maximum); boolean true; enum: its first value; const: the
    const; array: [] (or minItems items); oneOf/anyOf: the first alternative, with its
    discriminator value; allOf: the parts merged). JSON media types get JSON, text/* text,
    urlencoded forms a form, anything else the value's bytes. Response headers the document marks
    required are sent with a valid value (same rule, an array with one item, `simple` style).
    The answer is then checked with openapi-core's response validator; if it fails the answer is
    500 with `X-OpenAPI-Validated: server-bug` and {"operation": ..., "errors": [...]}, so that a
    bad fixture shows.
  Every answer has a Content-Length and keeps the connection open (HTTP/1.1).

Log. Every request but the two below is recorded; `GET /_log` answers the JSON list of the
records since the last `GET /_log` (and clears it):
  {"document": NAME_OR_NULL, "operation": OPERATION_ID_OR_NULL, "method": "GET",
   "path": RAW_PATH (with the /NAME prefix, percent-encoding as sent), "query": RAW_QUERY ("" when
   none), "headers": {LOWERCASED_NAME: VALUE, ...} (repeated fields joined with ", "),
   "body": TEXT (UTF-8) or BASE64, "body_encoding": "utf-8" | "base64",
   "verdict": "ok" | "refused" | "server-bug", "errors": [TEXT, ...], "status": ANSWERED_STATUS}
`GET /_health` answers `ok` (the readiness check of Scripts/lib/servers.sh).

LIMITS of openapi-core 0.23.1 met here. Where it would refuse or crash on a request that is right
by the OpenAPI specification, this server reshapes its input or patches the one reading at fault,
and says so here; everything else it reports as it is.
  Patched (the verdicts stay openapi-core's):
  - spaceDelimited: openapi-core splits the value on the three characters `%20`, but the query is
    percent-decoded first (in its own werkzeug integration too), so `a%20b` never split. Here it
    splits on a space (what `%20` and `+` decode to).
  - form style, explode true, object (`?R=100&G=200` for a parameter `color`): openapi-core looks
    for a query key `color` and never finds one (an optional parameter is silently skipped, a
    required one is reported missing). Here the query keys no other query parameter of the
    operation claims (only its properties when it has additionalProperties: false) are handed to
    it as that object.
  - matrix and label path parameters: openapi-core reads them under the keys `;name`, `;name*`,
    `.name`, `.name*`, which its own path matching never fills; here they are filled.
  - OpenAPI 3.1 type lists (`type: [integer, "null"]`) on a parameter, header or form property:
    openapi-core reads `type` as one string and raises TypeError. Here a list with one type besides
    "null" reads as that type, any other list as no type (no casting).
  - multipart/form-data: a part of an integer, number or boolean property is read as text and never
    cast (so `3` fails `type: integer`); here it is cast as in an x-www-form-urlencoded body.
  - media types: only application/json and application/vnd.api+json are parsed as JSON and only
    text/plain and text/html as text; here every `+json`/`json` and `text/*` type the document
    names is handed to those readers (Config.extra_media_type_deserializers).
  - HTTP security schemes: the Authorization scheme, lowercased, is compared with `scheme` as
    written (`Bearer` would never match); the validation copy has the schemes lowercased.
  Not patched:
  - a Content-Type parameter whose value holds `=` (a quoted multipart boundary `"a=b"`) makes
    openapi-core raise ValueError (answered 422, `openapi-core failed ...`);
  - an object's additionalProperties values are never cast (a deepObject map of integers stays
    strings and fails its schema); deepObject reads one level and the first of repeated keys;
  - oauth2 and openIdConnect requirements always pass (openapi-core does not check them); a
    3.1 mutualTLS scheme makes it raise KeyError; apiKey and http check presence only;
  - a query parameter sent empty (`f=`) is refused unless allowEmptyValue; an empty form array
    cannot be sent (`ids=` reads as [""]): leave the parameter out;
  - cookie values are not percent-decoded (werkzeug's reading, as in openapi-core's werkzeug
    integration): `flat=1%2C2` is one value; quoted values (`s="a b"`) are unquoted;
  - a HEAD request is for a `head` operation only (no fallback to `get`).

Usage: python openapi_server.py DOCUMENTS_DIR PORT   (listens on 127.0.0.1 only; prints nothing
unless a document cannot be loaded or the server itself fails). By hand:
  python -m venv /tmp/venv-openapi && /tmp/venv-openapi/bin/pip install -r Tests/Servers/requirements-openapi.txt
  /tmp/venv-openapi/bin/python Tests/Servers/openapi_server.py Tests/WebServiceGenKitTests/Fixtures/OpenAPI/generate 8765
  curl -i http://127.0.0.1:8765/models30/catalog ; curl http://127.0.0.1:8765/_log
"""

import base64
import json
import math
import os
import re
import sys
import threading
import traceback
import warnings
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, unquote, urldefrag, urljoin, urlsplit

from jsonschema_path import SchemaPath
from jsonschema_path.handlers import all_urls_handler
from jsonschema_path.readers import FilePathReader
from openapi_core import Config, OpenAPI
from openapi_core.datatypes import RequestParameters
from openapi_core.deserializing.media_types.deserializers import MediaTypeDeserializer
from openapi_core.deserializing.media_types.util import json_loads, plain_loads
from openapi_core.deserializing.styles import style_deserializers
from openapi_core.deserializing.styles.util import delimited_loads, form_loads
from openapi_core.templating.paths.exceptions import PathError
from openapi_core.templating.paths.finders import APICallPathFinder
from openapi_core.validation.request.exceptions import (
    ParameterValidationError,
    RequestBodyValidationError,
    SecurityValidationError,
)
from openapi_core.validation.response.exceptions import DataValidationError, HeaderValidationError
from openapi_core.validation.schemas.exceptions import InvalidSchemaValue
from werkzeug.datastructures import Headers, ImmutableMultiDict
from werkzeug.http import parse_cookie

METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")


# --- Adaptations to openapi-core 0.23.1 (see LIMITS in the docstring) ------------------------------


def space_delimited_loads(explode, name, schema_type, location):
    # The query reaches the deserializer percent-decoded: `%20` (and `+`) are spaces by then.
    return delimited_loads(explode, name, schema_type, location, delimiter=" ")


class QueryParameters(ImmutableMultiDict):
    """The query as openapi-core reads it, plus the objects of form-exploded object parameters."""

    exploded_objects = {}


def exploded_form_loads(explode, name, schema_type, location):
    # Only the exploded keys: openapi-core's own reading (`color=R=100&G=200`, one key) is not the
    # specification's and is not accepted from a query.
    if (explode, schema_type) == (True, "object"):
        objects = getattr(location, "exploded_objects", None)
        if objects is not None:
            if name not in objects:
                raise KeyError(name)
            return dict(objects[name])
    return form_loads(explode, name, schema_type, location)


style_deserializers["spaceDelimited"] = space_delimited_loads
style_deserializers["form"] = exploded_form_loads

_read_str = SchemaPath.read_str


def read_str_tolerating_type_lists(self, *args, **kwargs):
    # openapi-core reads a schema's `type` with read_str in its style deserializers, casters and
    # multipart decoding, which raises TypeError on an OpenAPI 3.1 type list (`[integer, "null"]`).
    # There a list with one type besides "null" reads as that type; any other list as absent.
    parts = getattr(self, "parts", ())
    if parts and parts[-1] == "type":
        try:
            value = self.read_value()
        except KeyError:
            value = None
        if isinstance(value, list):
            kinds = [kind for kind in value if kind != "null"]
            if len(kinds) == 1 and isinstance(kinds[0], str):
                return kinds[0]
            return args[0] if args else kwargs.get("default")
    return _read_str(self, *args, **kwargs)


SchemaPath.read_str = read_str_tolerating_type_lists

_decode_property_content_type = MediaTypeDeserializer.decode_property_content_type


def decode_property_content_type_casting(self, prop_name, prop_schema, location, prop_encoding=None):
    # openapi-core reads a multipart part of an integer, number or boolean property as text/plain
    # (the OpenAPI default) and never casts it, so `3` fails `type: integer`; it casts the same
    # fields of an x-www-form-urlencoded body. Here such a text is cast as in a urlencoded body
    # (a CastError is the body's error).
    value = _decode_property_content_type(self, prop_name, prop_schema, location, prop_encoding)
    if self.mimetype.startswith("multipart") and self.schema_caster is not None:
        kind = read_type(prop_schema)
        item_kind = read_type(prop_schema / "items") if kind == "array" and "items" in prop_schema else None
        primitive = ("integer", "number", "boolean")
        if (kind in primitive and isinstance(value, str)) or (
            item_kind in primitive and isinstance(value, list) and all(isinstance(v, str) for v in value)
        ):
            value = self.schema_caster.evolve(prop_schema).cast(value)
    return value


MediaTypeDeserializer.decode_property_content_type = decode_property_content_type_casting


# --- Requests and responses as openapi-core reads them --------------------------------------------


class OpenAPIRequest:
    """openapi_core.protocols.Request over what arrived on the wire."""

    def __init__(self, host_url, path, method, query, headers, cookies, body, content_type):
        self.host_url = host_url
        self.path = path
        self.method = method
        self.parameters = RequestParameters(query=query, header=headers, cookie=cookies)
        self.body = body or None
        self.content_type = content_type


class OpenAPIResponse:
    """openapi_core.protocols.Response over the answer this server is about to send."""

    def __init__(self, status_code, content_type, headers, data):
        self.status_code = status_code
        self.content_type = content_type
        self.headers = Headers(list(headers.items()))
        self.data = data


# --- Documents ------------------------------------------------------------------------------------


class Document:
    def __init__(self, name, file_path, port):
        self.name = name
        self.file_path = file_path
        self.server_url = f"http://127.0.0.1:{port}/{name}"
        self.lock = threading.Lock()
        self.error = None
        self.app = None
        data, self.base_uri = FilePathReader(file_path).read()
        self.data = data
        self.external = {}
        servers = [{"url": self.server_url}]
        data["servers"] = servers
        for item in (data.get("paths") or {}).values():
            if isinstance(item, dict):
                item.pop("servers", None)
                for method in METHODS:
                    if isinstance(item.get(method), dict):
                        item[method].pop("servers", None)
        # openapi-core compares the Authorization scheme, lowercased, with the document's `scheme`
        # as written: `scheme: Bearer` would refuse every request. Scheme names are case-insensitive
        # (RFC 9110 §11.1), so the validation copy of the document has them lowercased.
        schemes = ((data.get("components") or {}).get("securitySchemes") or {}).values()
        for scheme in schemes:
            if isinstance(scheme, dict) and scheme.get("type") == "http" and isinstance(scheme.get("scheme"), str):
                scheme["scheme"] = scheme["scheme"].lower()
        try:
            config = Config(extra_media_type_deserializers=extra_media_type_deserializers(data))
            self.app = OpenAPI.from_dict(data, config=config, base_uri=self.base_uri)
            # Built now, once: the threads share them.
            self.request_validator = self.app.request_validator
            self.response_validator = self.app.response_validator
            self.path_finder = APICallPathFinder(self.app.spec)
        except Exception as error:  # noqa: BLE001 - reported on each request for the document
            self.error = f"openapi-core could not load {os.path.basename(file_path)}: " + " ".join(
                describe_exception(error)
            )
            print(self.error, file=sys.stderr, flush=True)

    # $ref resolution over the raw document (for the answers: discriminators need the $ref text).
    def resolve(self, node, base=None):
        base = base or self.base_uri
        for _ in range(64):
            if not (isinstance(node, dict) and isinstance(node.get("$ref"), str)):
                return node, base
            target, fragment = urldefrag(urljoin(base, node["$ref"]))
            document = self.load(target)
            node = json_pointer(document, fragment)
            base = target
        return node, base

    def load(self, uri):
        if uri == self.base_uri or uri == "":
            return self.data
        if uri not in self.external:
            self.external[uri] = all_urls_handler(uri)
        return self.external[uri]


def media_type_names(node):
    """Every media type a document names: content keys and encoding contentTypes."""
    if isinstance(node, dict):
        if isinstance(node.get("content"), dict):
            yield from (str(key) for key in node["content"])
        if isinstance(node.get("contentType"), str):
            yield from node["contentType"].split(",")
        for value in node.values():
            yield from media_type_names(value)
    elif isinstance(node, list):
        for value in node:
            yield from media_type_names(value)


def extra_media_type_deserializers(data):
    """openapi-core reads only application/json and application/vnd.api+json as JSON, and only
    text/plain and text/html as text (any other type as bytes, which fail a schema): the document's
    other JSON (`+json`, `application/problem+json`...) and text types are handed to its JSON and
    text readers through Config.extra_media_type_deserializers."""
    extras = {}
    for name in media_type_names(data):
        main = name.split(";", 1)[0].strip().lower()
        if is_json(main):
            extras[main] = json_loads
        elif main.startswith("text/"):
            extras[main] = plain_loads
    return extras


def json_pointer(document, fragment):
    node = document
    if not fragment:
        return node
    for token in fragment.lstrip("/").split("/"):
        token = unquote(token).replace("~1", "/").replace("~0", "~")
        if isinstance(node, list):
            node = node[int(token)]
        else:
            node = node[token]
    return node


def load_documents(directory, port):
    documents = {}
    for entry in sorted(os.listdir(directory)):
        stem, extension = os.path.splitext(entry)
        if extension not in (".yaml", ".yml", ".json"):
            continue
        path = os.path.join(directory, entry)
        try:
            data, _ = FilePathReader(path).read()
        except Exception:  # noqa: BLE001 - not a document
            continue
        if not (isinstance(data, dict) and "openapi" in data):
            continue
        documents[stem] = Document(stem, path, port)
    return documents


# --- Error texts ----------------------------------------------------------------------------------


def short_json(value, limit=200):
    try:
        text = json.dumps(value, ensure_ascii=False, default=repr)
    except Exception:  # noqa: BLE001
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def schema_error_path(error):
    path = list(getattr(error, "absolute_path", None) or getattr(error, "path", None) or [])
    return "/" + "/".join(str(part) for part in path) if path else ""


def schema_error_text(error):
    text = getattr(error, "message", str(error))
    alternatives = list(getattr(error, "context", None) or [])
    if alternatives:
        details = "; ".join(
            f"{'#' + '/'.join(str(p) for p in getattr(e, 'relative_schema_path', []))} "
            f"at {schema_error_path(e) or '/'}: {e.message}"
            for e in alternatives[:8]
        )
        text += f" (alternatives: {details})"
    return text


def error_label(error):
    if isinstance(error, ParameterValidationError):
        return f"{error.location} parameter {error.name!r}"
    if isinstance(error, RequestBodyValidationError):
        return "request body"
    if isinstance(error, SecurityValidationError):
        return "security"
    if isinstance(error, HeaderValidationError):
        return f"response header {error.name!r}"
    if isinstance(error, DataValidationError):
        return "response body"
    return None


def own_text(error):
    if isinstance(error, InvalidSchemaValue):
        return f"value {short_json(error.value)} is not valid for its schema (type {error.type})"
    if isinstance(getattr(error, "message", None), str) and hasattr(error, "json_path"):
        # A JSON Schema error (openapi-spec-validator's on a document): its message, not its dump.
        return f"{type(error).__name__}: {error.message} (at {error.json_path})"
    if type(error).__str__ is Exception.__str__ and error.args:
        text = ", ".join(str(arg) for arg in error.args)
    else:
        try:
            text = str(error)
        except Exception:  # noqa: BLE001 - some openapi-core texts decode bytes
            text = repr(error)
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def causes(error):
    seen = set()
    current = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        yield current
        # Only the explicit causes: the implicit contexts are openapi-core's KeyErrors.
        current = current.__cause__


def describe_exception(error):
    """An error and its causes as texts: one for the chain, one more per JSON Schema error."""
    label = error_label(error)
    pieces = []
    schema_texts = []
    for link in causes(error):
        text = own_text(link)
        # A labelled error's own text repeats its cause's or the label: keep the cause's alone.
        if link is error and label is not None and link.__cause__ is not None:
            continue
        if not any(text in piece for piece in pieces):
            pieces.append(text)
        for schema_error in getattr(link, "schema_errors", None) or []:
            where = schema_error_path(schema_error)
            schema_texts.append(
                f"{label or 'value'}{' at ' + where if where else ''}: {schema_error_text(schema_error)}"
            )
    head = (label + ": " if label else "") + " <- ".join(pieces)
    return [head] + schema_texts


def describe_errors(errors):
    texts = []
    for error in errors:
        texts.extend(describe_exception(error))
    return texts


# --- Answers from the document --------------------------------------------------------------------

FORMAT_VALUES = {
    "date-time": "2024-01-02T03:04:05Z",
    "date": "2024-01-02",
    "time": "03:04:05Z",
    "duration": "P1D",
    "uuid": "00000000-0000-4000-8000-000000000000",
    "uri": "https://example.com/x",
    "url": "https://example.com/x",
    "uri-reference": "x",
    "iri": "https://example.com/x",
    "iri-reference": "x",
    "uri-template": "https://example.com/{x}",
    "email": "x@example.com",
    "idn-email": "x@example.com",
    "hostname": "example.com",
    "idn-hostname": "example.com",
    "ipv4": "127.0.0.1",
    "ipv6": "::1",
    "byte": "eA==",
    "base64": "eA==",
    "binary": "x",
    "password": "x",
    "json-pointer": "/x",
    "relative-json-pointer": "0",
    "regex": "x",
}
PATTERN_CANDIDATES = ["x", "a", "A", "1", "0", "x1", "abc", "ABC", "a1", "2024-01-02", "x@example.com"]


def schema_types(schema):
    kind = schema.get("type")
    if isinstance(kind, list):
        return [k for k in kind if k != "null"] or ["null"]
    if isinstance(kind, str):
        return [kind]
    return []


class Synthesizer:
    """A minimal instance of a schema, for the answers (see the docstring's response rule)."""

    def __init__(self, document, reading=True, min_items=0):
        self.document = document
        self.reading = reading
        # A header's array gets one item: an empty header value would read as [""].
        self.min_items = min_items

    def value(self, schema, base=None, depth=0):
        if schema is True or schema is None:
            return "x"
        if schema is False or depth > 24:
            return None
        schema, base = self.document.resolve(schema, base)
        if not isinstance(schema, dict):
            return "x"
        if "const" in schema:
            return schema["const"]
        if isinstance(schema.get("enum"), list) and schema["enum"]:
            return schema["enum"][0]
        if isinstance(schema.get("allOf"), list):
            merged = None
            for part in schema["allOf"]:
                value = self.value(part, base, depth + 1)
                merged = merge(merged, value)
            own = dict(schema)
            own.pop("allOf")
            if any(k in own for k in ("type", "properties", "required", "items", "oneOf", "anyOf")):
                merged = merge(merged, self.value(own, base, depth + 1))
            return merged
        for key in ("oneOf", "anyOf"):
            alternatives = schema.get(key)
            if isinstance(alternatives, list) and alternatives:
                chosen = alternatives[0]
                resolved, _ = self.document.resolve(chosen, base)
                if isinstance(resolved, dict) and schema_types(resolved) == ["null"] and len(alternatives) > 1:
                    chosen = alternatives[1]
                value = self.value(chosen, base, depth + 1)
                own = dict(schema)
                own.pop(key)
                if isinstance(value, dict) and any(k in own for k in ("properties", "required")):
                    value = merge(self.value(own, base, depth + 1), value)
                discriminator = schema.get("discriminator")
                if isinstance(value, dict) and isinstance(discriminator, dict):
                    value[discriminator.get("propertyName", "type")] = discriminator_value(
                        discriminator, chosen
                    )
                return value
        types = schema_types(schema)
        kind = types[0] if types else None
        if kind is None:
            if any(k in schema for k in ("properties", "required", "additionalProperties")):
                kind = "object"
            elif "items" in schema or "prefixItems" in schema:
                kind = "array"
            else:
                return "x"
        if kind == "null":
            return None
        if kind == "object":
            result = {}
            properties = schema.get("properties") or {}
            for name in schema.get("required") or []:
                property_schema = properties.get(name, True)
                resolved, _ = self.document.resolve(property_schema, base)
                if isinstance(resolved, dict) and resolved.get("writeOnly" if self.reading else "readOnly"):
                    continue
                result[name] = self.value(property_schema, base, depth + 1)
            return result
        if kind == "array":
            count = max(int(schema.get("minItems") or 0), self.min_items)
            prefix = schema.get("prefixItems") or []
            items = [self.value(s, base, depth + 1) for s in prefix[:count]]
            while len(items) < count:
                items.append(self.value(schema.get("items", True), base, depth + 1))
            return items
        if kind == "string":
            return string_value(schema)
        if kind == "integer":
            return number_value(schema, 1, True)
        if kind == "number":
            return number_value(schema, 1.5, False)
        if kind == "boolean":
            return True
        return "x"


def merge(left, right):
    if isinstance(left, dict) and isinstance(right, dict):
        merged = dict(left)
        for key, value in right.items():
            merged[key] = merge(merged.get(key), value) if key in merged else value
        return merged
    return right if right is not None else left


def discriminator_value(discriminator, chosen):
    reference = chosen.get("$ref") if isinstance(chosen, dict) else None
    if not isinstance(reference, str):
        return "x"
    for key, target in (discriminator.get("mapping") or {}).items():
        if target == reference or target == reference.rsplit("/", 1)[-1]:
            return key
    return reference.rsplit("/", 1)[-1]


def string_value(schema):
    fmt = schema.get("format")
    if fmt in FORMAT_VALUES:
        return FORMAT_VALUES[fmt]
    low = int(schema.get("minLength") or 0)
    high = schema.get("maxLength")
    pattern = schema.get("pattern")
    candidates = ["x" * max(1, low)] + PATTERN_CANDIDATES if pattern else ["x" * max(1, low)]
    for candidate in candidates:
        if isinstance(high, int) and len(candidate) > high:
            candidate = candidate[:high]
        if len(candidate) < low:
            continue
        if pattern:
            try:
                if not re.search(pattern, candidate):
                    continue
            except re.error:
                pass
        return candidate
    return candidates[0]


def number_value(schema, preferred, integer):
    low = schema.get("minimum")
    high = schema.get("maximum")
    step = 1 if integer else 0.5
    exclusive_low = schema.get("exclusiveMinimum")
    exclusive_high = schema.get("exclusiveMaximum")
    if exclusive_low is True and low is not None:
        low = low + step
    elif isinstance(exclusive_low, (int, float)) and not isinstance(exclusive_low, bool):
        low = exclusive_low + step if low is None else max(low, exclusive_low + step)
    if exclusive_high is True and high is not None:
        high = high - step
    elif isinstance(exclusive_high, (int, float)) and not isinstance(exclusive_high, bool):
        high = exclusive_high - step if high is None else min(high, exclusive_high - step)
    value = preferred
    if low is not None and value < low:
        value = low
    if high is not None and value > high:
        value = high
    multiple = schema.get("multipleOf")
    if isinstance(multiple, (int, float)) and multiple > 0:
        value = math.ceil(value / multiple) * multiple
        if high is not None and value > high:
            value = math.floor(high / multiple) * multiple
    if integer:
        value = int(math.ceil(value))
    return value


def example_of(document, holder, base=None, schema_key="schema"):
    """The example of a media type, parameter or header object: its own, then its schema's."""
    holder, base = document.resolve(holder, base)
    if not isinstance(holder, dict):
        return False, None
    if "example" in holder:
        return True, holder["example"]
    examples = holder.get("examples")
    if isinstance(examples, dict):
        for entry in examples.values():
            entry, _ = document.resolve(entry, base)
            if isinstance(entry, dict) and "value" in entry:
                return True, entry["value"]
    schema = holder.get(schema_key)
    for _ in range(64):
        if not isinstance(schema, dict):
            break
        if "example" in schema:
            return True, schema["example"]
        if isinstance(schema.get("examples"), list) and schema["examples"]:
            return True, schema["examples"][0]
        if "$ref" not in schema:
            break
        schema, base = document.resolve({"$ref": schema["$ref"]}, base)
    return False, None


def scalar_text(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return ""
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def simple_style(value, explode):
    if isinstance(value, list):
        return ",".join(scalar_text(v) for v in value)
    if isinstance(value, dict):
        if explode:
            return ",".join(f"{k}={scalar_text(v)}" for k, v in value.items())
        return ",".join(f"{k},{scalar_text(v)}" for k, v in value.items())
    return scalar_text(value)


def concrete_media_type(key):
    main = key.split(";", 1)[0].strip().lower()
    if main in ("*/*", "*"):
        return "application/octet-stream"
    if main.endswith("/*"):
        family = main[:-2]
        return {"text": "text/plain", "application": "application/octet-stream"}.get(
            family, f"{family}/octet-stream"
        )
    return key


def is_json(media_type):
    main = media_type.split(";", 1)[0].strip().lower()
    return main == "application/json" or main.endswith("+json") or (main.startswith("application/") and "json" in main)


def encode_body(media_type, value):
    main = media_type.split(";", 1)[0].strip().lower()
    if is_json(media_type):
        return json.dumps(value, ensure_ascii=False).encode("utf-8")
    if main.startswith("text/"):
        return (value if isinstance(value, str) else scalar_text(value)).encode("utf-8")
    if main == "application/x-www-form-urlencoded" and isinstance(value, dict):
        from urllib.parse import urlencode

        return urlencode(
            {k: (scalar_text(v) if not isinstance(v, list) else [scalar_text(i) for i in v]) for k, v in value.items()},
            doseq=True,
        ).encode("utf-8")
    if isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return value.encode("utf-8")
    return json.dumps(value, ensure_ascii=False).encode("utf-8")


def documented_responses(document, operation):
    responses, base = document.resolve(operation.get("responses") or {})
    return [(str(code), response) for code, response in responses.items()], base


def choose_response(document, operation, asked):
    """(status, code key, response object) for the request, or an error text."""
    responses, _ = documented_responses(document, operation)
    keys = [code for code, _ in responses]
    by_code = dict(responses)
    if asked:
        asked = asked.strip()
        if asked in by_code:
            if asked == "default":
                return 500, asked, by_code[asked], None
            if re.fullmatch(r"[1-5]XX", asked):
                return int(asked[0]) * 100, asked, by_code[asked], None
            return int(asked), asked, by_code[asked], None
        if re.fullmatch(r"[1-5]\d\d", asked) and f"{asked[0]}XX" in by_code:
            return int(asked), f"{asked[0]}XX", by_code[f"{asked[0]}XX"], None
        return None, None, None, f"X-OpenAPI-Respond: {asked} is not a documented response (documented: {', '.join(keys)})"
    for code in keys:
        if re.fullmatch(r"2\d\d", code):
            return int(code), code, by_code[code], None
        if code == "2XX":
            return 200, code, by_code[code], None
    if "default" in by_code:
        return 200, "default", by_code["default"], None
    for code in keys:
        if re.fullmatch(r"\d\d\d", code):
            return int(code), code, by_code[code], None
        if re.fullmatch(r"[1-5]XX", code):
            return int(code[0]) * 100, code, by_code[code], None
    return None, None, None, "the operation documents no response"


def build_answer(document, response, status):
    """(content type or None, body, headers) of a documented response object."""
    response, base = document.resolve(response)
    synthesizer = Synthesizer(document, reading=True)
    headers = {}
    for name, header in (response.get("headers") or {}).items():
        header, header_base = document.resolve(header, base)
        if name.lower() == "content-type" or not isinstance(header, dict) or not header.get("required"):
            continue
        found, value = example_of(document, header, header_base)
        if "content" in header and isinstance(header["content"], dict) and header["content"]:
            media_key, media = next(iter(header["content"].items()))
            if not found:
                found, value = example_of(document, media, header_base)
            if not found:
                value = synthesizer.value((document.resolve(media, header_base)[0] or {}).get("schema", True), header_base)
            headers[name] = encode_body(media_key, value).decode("utf-8", "replace")
            continue
        if not found:
            value = Synthesizer(document, min_items=1).value(header.get("schema", True), header_base)
        headers[name] = simple_style(value, bool(header.get("explode", False)))
    content = response.get("content")
    if status in (204, 304) or not isinstance(content, dict) or not content:
        return None, b"", headers
    media_key, media = next(iter(content.items()))
    media, media_base = document.resolve(media, base)
    media = media if isinstance(media, dict) else {}
    found, value = example_of(document, media, media_base)
    if not found:
        value = synthesizer.value(media.get("schema", True), media_base)
    content_type = concrete_media_type(media_key)
    if content_type.split(";", 1)[0].strip().lower().startswith("text/") and "charset" not in content_type:
        content_type += "; charset=utf-8"
    return content_type, encode_body(content_type, value), headers


# --- The HTTP side --------------------------------------------------------------------------------

LOG = []
LOG_LOCK = threading.Lock()


def record(entry):
    with LOG_LOCK:
        LOG.append(entry)


class BadRequest(Exception):
    pass


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "WebServiceKitOpenAPIServer/1"
    documents = {}
    port = 0

    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass

    def handle_any(self):
        try:
            self.serve()
        except BadRequest as error:
            self.close_connection = True
            self.answer(400, {"operation": None, "errors": [str(error)]}, {"X-OpenAPI-Validated": "refused"})
        except Exception:  # noqa: BLE001 - the server's own bug: visible, never a hang
            text = traceback.format_exc()
            print(text, file=sys.stderr, flush=True)
            self.close_connection = True
            self.answer(
                500, {"operation": None, "errors": ["openapi_server.py failed: " + text]},
                {"X-OpenAPI-Validated": "server-bug"},
            )

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = do_OPTIONS = do_TRACE = handle_any

    def read_body(self):
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            chunks = []
            while True:
                line = self.rfile.readline(65537)
                try:
                    size = int(line.split(b";", 1)[0].strip(), 16)
                except ValueError:
                    raise BadRequest(f"bad chunk size line {line!r}")
                if size == 0:
                    while self.rfile.readline(65537) not in (b"\r\n", b"\n", b""):
                        pass
                    return b"".join(chunks)
                chunks.append(self.rfile.read(size))
                self.rfile.readline(65537)
        length = self.headers.get("Content-Length")
        if length is None:
            return b""
        try:
            return self.rfile.read(int(length))
        except ValueError:
            raise BadRequest(f"bad Content-Length {length!r}")

    def header_pairs(self):
        pairs = {}
        for name, value in self.headers.items():
            pairs.setdefault(name.lower(), []).append(value)
        return pairs

    def serve(self):
        body = self.read_body()
        target = urlsplit(self.path)
        raw_path, raw_query = target.path, target.query
        if raw_path == "/_health" and self.command in ("GET", "HEAD"):
            return self.answer(200, b"ok", {}, "text/plain; charset=utf-8")
        if raw_path == "/_log" and self.command == "GET":
            with LOG_LOCK:
                entries = list(LOG)
                LOG.clear()
            return self.answer(200, entries, {})
        pairs = self.header_pairs()
        entry = {
            "document": None,
            "operation": None,
            "method": self.command,
            "path": raw_path,
            "query": raw_query,
            "headers": {name: ", ".join(values) for name, values in pairs.items()},
        }
        try:
            entry["body"] = body.decode("utf-8")
            entry["body_encoding"] = "utf-8"
        except UnicodeDecodeError:
            entry["body"] = base64.b64encode(body).decode("ascii")
            entry["body_encoding"] = "base64"
        status, payload, headers, content_type = self.respond(entry, raw_path, raw_query, pairs, body)
        entry["status"] = status
        record(entry)
        self.answer(status, payload, headers, content_type)

    def refuse(self, entry, status, errors):
        entry["verdict"] = "refused"
        entry["errors"] = errors
        return status, {"operation": entry["operation"], "errors": errors}, {"X-OpenAPI-Validated": "refused"}, None

    def server_bug(self, entry, errors):
        entry["verdict"] = "server-bug"
        entry["errors"] = errors
        return 500, {"operation": entry["operation"], "errors": errors}, {"X-OpenAPI-Validated": "server-bug"}, None

    def respond(self, entry, raw_path, raw_query, pairs, body):
        name = raw_path.lstrip("/").split("/", 1)[0]
        document = self.documents.get(unquote(name))
        if document is None:
            return self.refuse(entry, 404, [f"no document named {unquote(name)!r} (served: {', '.join(sorted(self.documents))})"])
        entry["document"] = document.name
        if document.app is None:
            return self.server_bug(entry, [document.error])
        method = self.command.lower()
        host_url = f"http://127.0.0.1:{self.port}"
        try:
            path_item, operation, _, path_result, _ = document.path_finder.find(method, host_url + raw_path)
        except PathError as error:
            return self.refuse(entry, 404, describe_errors([error]))
        raw_operation = operation.read_value()
        template = path_result.resolved
        operation_id = raw_operation.get("operationId") or f"{self.command} {template}"
        entry["operation"] = operation_id

        query = QueryParameters(parse_qsl(raw_query, keep_blank_values=True))
        header_list = []
        for header_name, values in pairs.items():
            joiner = "; " if header_name == "cookie" else ","
            header_list.append((header_name, joiner.join(values)))
        headers = Headers(header_list)
        cookies = parse_cookie(headers.get("Cookie", ""))
        query.exploded_objects = exploded_objects(path_item, operation, query)
        content_type = headers.get("Content-Type") or "application/octet-stream"
        request = OpenAPIRequest(host_url, raw_path, method, query, headers, cookies, body, content_type)
        request.parameters.path = path_parameters(path_result.variables)

        with document.lock:
            try:
                errors = list(document.request_validator.iter_errors(request))
            except Exception as error:  # noqa: BLE001 - openapi-core's own failure
                texts = ["openapi-core failed on this request: " + t for t in describe_exception(error)]
                return self.refuse(entry, 422, texts)
        if errors:
            return self.refuse(entry, 422, describe_errors(errors))

        status, code_key, response, problem = choose_response(document, raw_operation, headers.get("X-OpenAPI-Respond"))
        if problem is not None:
            return self.refuse(entry, 422, [problem])
        answer_type, answer_body, answer_headers = build_answer(document, response, status)
        openapi_response = OpenAPIResponse(status, answer_type or "", answer_headers, answer_body)
        with document.lock:
            try:
                response_errors = list(document.response_validator.iter_errors(request, openapi_response))
            except Exception as error:  # noqa: BLE001
                response_errors = [error]
        if response_errors:
            return self.server_bug(
                entry,
                [f"the {code_key} answer this server made from the document fails openapi-core's response validation"]
                + describe_errors(response_errors),
            )
        entry["verdict"] = "ok"
        entry["errors"] = []
        answer_headers = dict(answer_headers)
        answer_headers["X-OpenAPI-Validated"] = "ok"
        answer_headers["X-OpenAPI-Operation"] = operation_id
        return status, answer_body, answer_headers, answer_type

    def answer(self, status, payload, headers, content_type=None):
        if isinstance(payload, (bytes, bytearray)):
            body = bytes(payload)
        else:
            body = json.dumps(payload, ensure_ascii=False).encode("utf-8")
            content_type = content_type or "application/json"
        self.send_response(status)
        if content_type:
            self.send_header("Content-Type", content_type)
        for name, value in headers.items():
            self.send_header(name, value)
        no_body = status in (204, 304) or 100 <= status < 200
        if not no_body:
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if body and not no_body and self.command != "HEAD":
            self.wfile.write(body)


def path_parameters(variables):
    """The path variables, percent-decoded, also under the keys openapi-core's matrix and label
    deserializers read (`;name`, `;name*`, `.name`, `.name*`)."""
    location = {}
    for name, raw in variables.items():
        value = unquote(raw)
        location[name] = value
        for key in (f";{name}", f";{name}*", f".{name}", f".{name}*"):
            location[key] = value
    return location


def read_type(schema):
    try:
        kind = (schema / "type").read_value()
    except (KeyError, TypeError):
        return None
    if isinstance(kind, list):
        kinds = [k for k in kind if k != "null"]
        return kinds[0] if len(kinds) == 1 else None
    return kind


def exploded_objects(path_item, operation, query):
    """For each query parameter of style form, explode true and type object: the query keys that
    are its properties (the ones no other query parameter claims)."""
    parameters = {}
    for holder in (path_item, operation):
        if "parameters" in holder:
            for parameter in holder / "parameters":
                raw = parameter.read_value()
                parameters[(raw.get("name"), raw.get("in"))] = parameter
    query_parameters = [p for (n, location), p in parameters.items() if location == "query"]
    claimed = set()
    deep_prefixes = []
    targets = []
    for parameter in query_parameters:
        raw = parameter.read_value()
        name = raw.get("name")
        style = raw.get("style", "form")
        explode = raw.get("explode", style == "form")
        if "schema" in parameter and style == "form" and explode and read_type(parameter / "schema") == "object":
            targets.append((name, parameter / "schema"))
        else:
            claimed.add(name)
            if style == "deepObject":
                deep_prefixes.append(f"{name}[")
    objects = {}
    for name, schema in targets:
        properties = set((schema / "properties").str_keys()) if "properties" in schema else set()
        additional = True
        if "additionalProperties" in schema:
            additional = (schema / "additionalProperties").read_value() is not False
        values = {}
        for key in query.keys():
            if key in claimed or any(key.startswith(prefix) for prefix in deep_prefixes):
                continue
            if key in properties or additional:
                values[key] = query.get(key)
        if values:
            objects[name] = values
    return objects


def main():
    if len(sys.argv) != 3:
        print(__doc__.split("\n\n", 1)[0], file=sys.stderr)
        print("usage: openapi_server.py DOCUMENTS_DIR PORT", file=sys.stderr)
        return 2
    directory, port = sys.argv[1], int(sys.argv[2])
    # openapi-core warns (deprecated allowEmptyValue, unsupported oauth2 schemes) on stderr: quiet.
    warnings.simplefilter("ignore")
    Handler.documents = load_documents(directory, port)
    Handler.port = port
    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    server.daemon_threads = True
    server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())
