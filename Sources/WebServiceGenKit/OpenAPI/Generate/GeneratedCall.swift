/// An operation as the generated file declares it: a `TypedCall` and what its doc comment says.
struct GeneratedCall: Sendable {
    /// The static property's name, unique among the calls.
    var name: String
    /// The method, upper case.
    var method: String
    /// The `relativePath` with `%%N%%` wildcards, relative to the service root (the server URL).
    var relativePath: String
    /// Header fields with their value templates, in order.
    var headers: [(name: String, value: String)]
    /// The arguments, in order: path, query, header and cookie parameters.
    var arguments: [GeneratedArgument]
    /// The body, after the arguments; `nil` for none.
    var body: GeneratedBody?
    /// What a success returns.
    var response: GeneratedResponse
    /// `parameterStyles`: the argument index and the `ParameterStyle` expression.
    var styles: [(index: Int, expression: String)]
    /// The documented answers that are not successes, for the call's typed error; empty for
    /// none with a body.
    var failures: [GeneratedFailure] = []
    /// The name of the call's error enum (`ListPetsFailure`), when it has failures.
    var failureType: String?
    /// The security requirements in force: each a list of scheme names that apply together;
    /// an empty list (or none at all) means the call may go without credentials.
    var security: [[String]] = []
    /// The operation's own server URL (its first, variables at their defaults), when it has one.
    var server: String?
    /// `METHOD /path`, the summary, and what else the doc comment says.
    var documentation: [String]
}

/// A documented answer that is not a success: a case of the call's error enum.
struct GeneratedFailure: Sendable {
    /// The status key.
    var status: OpenAPIResponseStatus
    /// The case name (`status404`, `status4XX`, `other`).
    var name: String
    /// The JSON body's type; `nil` when the answer has no JSON body.
    var type: GeneratedType?
    /// The response's description, one line.
    var summary: String?
}

/// An argument of a generated call: a parameter of the operation.
struct GeneratedArgument: Sendable {
    /// The parameter's name in the document.
    var key: String
    /// Where it goes.
    var location: OpenAPIParameterLocation
    var type: GeneratedType
    /// Not required: a Swift `Optional` (`nil` leaves it out).
    var isOptional: Bool
    /// The description's first line.
    var summary: String?
}

/// The request body of a generated call.
enum GeneratedBody: Sendable {
    /// `application/json` (or `…+json`): a `Codable` value, written by the generated coder.
    case json(GeneratedType, mediaType: String)
    /// `application/x-www-form-urlencoded`: an `Encodable` value, its members as form fields,
    /// each written by its `encoding`'s style (a property name and a `ParameterStyle` expression;
    /// the others `form`, exploding).
    case form(GeneratedType, styles: [(property: String, expression: String)])
    /// `multipart/form-data`: the parts, as `[FormData]`; the schema's type (a struct gets a
    /// `formData` property that makes them) and each property's `encoding` content type.
    case multipart(GeneratedType?, contentTypes: [String: String])
    /// Any other media type: a `RequestBody` (`.data(bytes)`, or `.file(url)` streamed from
    /// disk), sent as it is with that `Content-Type`.
    case data(mediaType: String)
    /// `text/*`: a string.
    case text(mediaType: String)
}

/// What a generated call returns on success.
enum GeneratedResponse: Sendable {
    /// A JSON body, read by the generated coder.
    case json(GeneratedType)
    /// A `text/*` body: `String`.
    case text
    /// Any other body: `Data`.
    case data
    /// The same body, written to a file (`DownloadedFile`, a `DownloadDestination` argument
    /// last): the `…ToFile` twin of a call that answers with `data`.
    case file
    /// No body: `EmptyResponse`.
    case empty
    /// `text/event-stream`: a `ResponseStream<ServerSentEvent>`.
    case eventStream
    /// JSON Lines (`application/jsonl`, `application/x-ndjson`): a `ResponseStream` of the
    /// schema's type.
    case jsonLines(GeneratedType)
}
