"""The OpenAPI import's fixture documents, each judged by openapi-spec-validator (PyPI, pinned in
Tests/Servers/requirements-differential.txt): an implementation of the OpenAPI 3.0 and 3.1 schemas
we did not write, so the tests read real OpenAPI, not our own reading of it.

Usage: openapi_fixtures.py OUTPUT. Every .yaml or .json file under
Tests/WebServiceGenKitTests/Fixtures/OpenAPI whose top level has an `openapi` member is a document
(the other files are parts its `$ref`s reach, validated through it). OUTPUT gets one line per
document, its path relative to that folder, a tab and `valid`, or `invalid`, a tab and the
validator's first line. OpenAPIFixtureValidationTests reads it (WEBSERVICEKIT_OPENAPI_FIXTURE_VERDICTS).
"""

import pathlib
import sys

import yaml
from openapi_spec_validator import validate
from openapi_spec_validator.readers import read_from_filename

FIXTURES = pathlib.Path(__file__).resolve().parent.parent / "WebServiceGenKitTests" / "Fixtures" / "OpenAPI"


def documents():
    for path in sorted(FIXTURES.rglob("*")):
        if path.suffix not in (".yaml", ".json"):
            continue
        with open(path, encoding="utf-8") as file:
            top = yaml.safe_load(file)
        if isinstance(top, dict) and "openapi" in top:
            yield path


def main(output):
    with open(output, "w", encoding="utf-8") as out:
        for path in documents():
            name = path.relative_to(FIXTURES).as_posix()
            try:
                spec, base_uri = read_from_filename(str(path))
                validate(spec, base_uri=base_uri)
                out.write(f"{name}\tvalid\n")
            except Exception as error:  # the validator's verdict, whatever its exception type
                first = (str(error).splitlines() or [type(error).__name__])[0]
                out.write(f"{name}\tinvalid\t{first[:300]}\n")


if __name__ == "__main__":
    main(sys.argv[1])
