"""A loopback OData v4.01 service for the integration tests, built on the PyPI package
`odatapy` (its in-memory reference processor) and served by the standard library's
wsgiref with one thread per request.

The data comes from odata_fixture_data.json beside this file, which the Swift tests read
too. Entity model (namespace Demo): Products, Orders, Customers (String keys with
quotes, slashes, spaces, +, &, #, % and non-ASCII) and OrderLines (composite key).
Orders are served in pages of serverPageSize["Orders"] with @odata.nextLink; every set
honours `Prefer: odata.maxpagesize=N`.

Usage: python odata_fixture.py [PORT]   (PORT defaults to $ODATA_FIXTURE_PORT, then 8080;
listens on 127.0.0.1 only; the service root is http://127.0.0.1:PORT/odata/)
"""

import datetime
import decimal
import json
import os
import socketserver
import sys
import uuid
from pathlib import Path
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer

from odatapy.data import Entity, ValueType
from odatapy.edm.csdl import (
    CsdlAbstractEdmProvider,
    CsdlEntityContainer,
    CsdlEntitySet,
    CsdlEntityType,
    CsdlEnumMember,
    CsdlEnumType,
    CsdlNavigationProperty,
    CsdlNavigationPropertyBinding,
    CsdlProperty,
    CsdlPropertyRef,
    CsdlReferentialConstraint,
    CsdlSchema,
)
from odatapy.server import OData
from odatapy.server.adapters import ODataWSGIApp
from odatapy.server.inmemory import InMemoryDataStore, InMemoryProcessor

NS = "Demo"
MOUNT = "/odata"
DATA = json.loads((Path(__file__).with_name("odata_fixture_data.json")).read_text("utf-8"))


def prop(name, type_, nullable=True, **facets):
    if type_.startswith("Collection("):
        return CsdlProperty(name=name, type=type_[11:-1], collection=True, nullable=nullable)
    return CsdlProperty(name=name, type=type_, nullable=nullable, **facets)


# Property name -> EDM type per entity type; also drives the JSON -> Python conversion.
TYPES = {
    "Product": {
        "ID": "Edm.Int32", "Name": "Edm.String", "Price": "Edm.Decimal", "Rating": "Edm.Double",
        "InStock": "Edm.Boolean", "Released": "Edm.Date", "LastModified": "Edm.DateTimeOffset",
        "Code": "Edm.Guid", "Color": f"{NS}.Color", "Description": "Edm.String",
        "Tags": "Collection(Edm.String)",
    },
    "Order": {"ID": "Edm.Int32", "Quantity": "Edm.Int32", "OrderDate": "Edm.Date", "ProductID": "Edm.Int32"},
    "Customer": {"Code": "Edm.String", "Name": "Edm.String", "City": "Edm.String"},
    "OrderLine": {"OrderID": "Edm.Int32", "LineNo": "Edm.Int32", "Item": "Edm.String"},
}
KEYS = {"Product": ["ID"], "Order": ["ID"], "Customer": ["Code"], "OrderLine": ["OrderID", "LineNo"]}
SETS = {"Products": "Product", "Orders": "Order", "Customers": "Customer", "OrderLines": "OrderLine"}
NULLABLE = {("Product", "Description")}


class Provider(CsdlAbstractEdmProvider):
    def get_schemas(self):
        entity_types = []
        for type_name, properties in TYPES.items():
            props = []
            for name, type_ in properties.items():
                facets = {"precision": 10, "scale": 2} if type_ == "Edm.Decimal" else {}
                nullable = (type_name, name) in NULLABLE
                props.append(prop(name, type_, nullable, **facets))
            navs = []
            if type_name == "Product":
                navs.append(CsdlNavigationProperty(
                    name="Orders", type=f"{NS}.Order", collection=True, partner="Product"))
            if type_name == "Order":
                navs.append(CsdlNavigationProperty(
                    name="Product", type=f"{NS}.Product", nullable=False, partner="Orders",
                    referential_constraints=[CsdlReferentialConstraint("ProductID", "ID")]))
            entity_types.append(CsdlEntityType(
                name=type_name, key=[CsdlPropertyRef(name=k) for k in KEYS[type_name]],
                properties=props, navigation_properties=navs))
        color = CsdlEnumType(name="Color", members=[
            CsdlEnumMember("Red", 0), CsdlEnumMember("Green", 1), CsdlEnumMember("Blue", 2)])
        bindings = {
            "Products": [CsdlNavigationPropertyBinding("Orders", "Orders")],
            "Orders": [CsdlNavigationPropertyBinding("Product", "Products")],
        }
        container = CsdlEntityContainer(name="Container", entity_sets=[
            CsdlEntitySet(name=set_name, type=f"{NS}.{type_name}",
                          navigation_property_bindings=bindings.get(set_name, []))
            for set_name, type_name in SETS.items()])
        return [CsdlSchema(namespace=NS, entity_types=entity_types, enum_types=[color],
                           entity_container=container)]


def python_value(type_, value):
    if value is None:
        return None
    if type_ == "Edm.Decimal":
        return decimal.Decimal(value)
    if type_ == "Edm.Double":
        return float(value)
    if type_ == "Edm.Date":
        return datetime.date.fromisoformat(value)
    if type_ == "Edm.DateTimeOffset":
        return datetime.datetime.fromisoformat(value.replace("Z", "+00:00"))
    if type_ == "Edm.Guid":
        return uuid.UUID(value)
    return value


def entity(type_name, row):
    result = Entity()
    for name, type_ in TYPES[type_name].items():
        value = row.get(name)
        if type_.startswith("Collection("):
            result.set_property(name, list(value or []), ValueType.COLLECTION_PRIMITIVE, type_[11:-1])
        elif type_.startswith(NS + "."):
            result.set_property(name, value, ValueType.ENUM, type_)
        else:
            result.set_property(name, python_value(type_, value), ValueType.PRIMITIVE, type_)
    return result


def build_store():
    store = InMemoryDataStore()
    by_set = {set_name: [entity(type_name, row) for row in DATA[set_name]]
              for set_name, type_name in SETS.items()}
    for set_name, entities in by_set.items():
        store.set_entities(set_name, entities)
    # The in-memory processor keys its relation table by repr() of the key value.
    products = {p.get_value("ID"): p for p in by_set["Products"]}
    for product_id in products:
        store.set_relation("Products", repr(product_id), "Orders", [])
    for order in by_set["Orders"]:
        product = products[order.get_value("ProductID")]
        store.set_relation("Orders", repr(order.get_value("ID")), "Product", [product])
        store.add_relation("Products", repr(product.get_value("ID")), "Orders", order)
    return store


class FixtureProcessor(InMemoryProcessor):
    """Server-driven paging for the sets named in serverPageSize only.

    InMemoryProcessor has one page size for all sets; every collection read runs
    under the store's lock, so switching it per request here is race-free.
    """

    def _page(self, request, uri_info, entities, prefs, entity_set=None):
        self.page_size = DATA.get("serverPageSize", {}).get(getattr(entity_set, "name", None))
        return super()._page(request, uri_info, entities, prefs, entity_set)


def make_app():
    odata = OData.new_instance()
    handler = odata.create_handler(odata.create_service_metadata(Provider()))
    store = build_store()
    handler.register(FixtureProcessor(store))
    odata_app = ODataWSGIApp(handler, mount_path=MOUNT)

    def app(environ, start_response):
        # ODataWSGIApp serves paths outside its mount too; keep them a plain 404.
        path = environ.get("PATH_INFO") or "/"
        if path != MOUNT and not path.startswith(MOUNT + "/"):
            body = json.dumps({"error": {"code": "404", "message": f"No OData service at {path}; "
                                         f"the service root is {MOUNT}/."}}).encode()
            start_response("404 Not Found", [("Content-Type", "application/json"),
                                             ("Content-Length", str(len(body)))])
            return [body]
        forget_expansions(store)
        return odata_app(environ, start_response)

    return app


def forget_expansions(store):
    """odatapy 5.3.0 writes an $expand result (after its nested $filter/$top) into the stored
    entity's navigation link, and a later `Orders/$count` or lambda in $filter reads that
    trimmed copy. Dropping those inline results before each request keeps every answer a
    function of the data file alone. The tests send one request at a time."""
    with store.lock:
        for entities in store.data.values():
            for entity in entities:
                for link in entity.navigation_links:
                    link.inline_entity_set = None
                    link.inline_entity = None


class ThreadingWSGIServer(socketserver.ThreadingMixIn, WSGIServer):
    daemon_threads = True


class QuietHandler(WSGIRequestHandler):
    def get_environ(self):
        environ = super().get_environ()
        # PATH_INFO is percent-decoded; the raw path keeps %2F inside a key distinct from "/".
        environ["REQUEST_URI"] = self.path
        return environ

    def log_message(self, format, *args):
        pass


def main():
    port = int(sys.argv[1] if len(sys.argv) > 1 else os.environ.get("ODATA_FIXTURE_PORT", "8080"))
    server = ThreadingWSGIServer(("127.0.0.1", port), QuietHandler)
    server.set_app(make_app())
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
