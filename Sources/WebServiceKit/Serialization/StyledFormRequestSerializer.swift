import Foundation

/// Writes `application/x-www-form-urlencoded` bodies by OpenAPI's rules for a form's properties
/// (the Encoding Object's `style`, `explode` and `allowReserved`; OpenAPI 3.1 §4.8.15): each member
/// of an `Encodable` value (or a `[String: V]` dictionary, its names in order) is written as a
/// query parameter of its ``ParameterStyle`` would be, by the same writer: `form` exploding unless
/// `styles` says otherwise (a list repeats its field, `tags=a&tags=b`; an object's members become
/// fields of their own), `spaceDelimited`, `pipeDelimited`, or `deepObject`
/// (`filter%5Bcolor%5D=red`). A `nil` member is left out, as is an empty list.
///
/// ```swift
/// struct Search: Encodable { let q: String; let tags: [String]; let filter: [String: String] }
/// let search = WebServiceCall<Data>(
///     method: .post, relativePath: "search",
///     requestSerializer: StyledFormRequestSerializer(styles: ["tags": .form("tags", explode: false)]))
/// // q=a%20b&tags=x,y&color=red
/// ```
///
/// Names and values are UTF-8 and percent-encoded as a query's are (a space is `%20`, which form
/// readers take as they take `+`), whatever the call's charset; the content type says so. This is
/// the serializer the OpenAPI import writes for form bodies; ``FormURLEncodedRequestSerializer``
/// writes the PHP and Rails convention (`tags[]=a`, `filter[color]=red`) instead.
public struct StyledFormRequestSerializer: RequestSerializer {
    /// The style of each member that is not written with `form`, exploding, by its name.
    public let styles: [String: ParameterStyle]

    /// Creates a serializer; members without a style are written with `form`, exploding.
    public init(styles: [String: ParameterStyle] = [:]) { self.styles = styles }

    public func serialize(_ value: Any, charset: Charset) throws -> SerializedBody {
        let fields = try StyledParameterWriter.formFields(of: value, styles: styles)
        return SerializedBody(
            data: Data(fields.joined(separator: "&").utf8), contentType: "application/x-www-form-urlencoded")
    }
}
