// What OData.md's prose stands for: a filter property and a place to show a page.
let price = ODataExpression.property("Price")
func show(_ values: [Product]) {}
