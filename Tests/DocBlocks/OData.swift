// What OData.md's prose stands for: a filter property and a place to show a page. Its calls go to
// the local OData service (Tests/Servers/odata_fixture.py) when they run.
// replace: https://example.com/odata/ => $WEBSERVICEKIT_ODATA_URL
let price = ODataExpression.property("Price")
func show(_ values: [Product]) {}
// replace: https://api.example.com/ => $WEBSERVICEKIT_ODATA_URL
