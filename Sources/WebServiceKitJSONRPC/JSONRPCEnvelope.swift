import Foundation

#if canImport(WebServiceKit)
    import WebServiceKit
#endif

/// One request of a call or a batch, its params not encoded yet.
struct JSONRPCRequestEntry: Sendable {
    let method: String
    /// `nil` when the method takes no params.
    let params: (any Encodable & Sendable)?
    /// `false` for a notification: no id, no response.
    let expectsResponse: Bool
    /// The `Result` type the request was declared with, to check batch keys.
    let resultType: ObjectIdentifier

    init<Params, Result>(_ method: JSONRPCMethod<Params, Result>, params: Params, expectsResponse: Bool) {
        self.method = method.name
        self.params = params is JSONRPCNoParams ? nil : params
        self.expectsResponse = expectsResponse
        resultType = ObjectIdentifier(Result.self)
    }
}

/// Writes request objects (JSON-RPC 2.0 §4) as JSON text, members in the specification's order:
/// `{"jsonrpc":"2.0","method":"subtract","params":[42,23],"id":1}`.
enum JSONRPCEnvelope {
    /// One request object; `id` is `nil` for a notification.
    static func encode(_ entry: JSONRPCRequestEntry, id: JSONRPCID?, encoder: JSONEncoder) throws(WebServiceError)
        -> Data
    {
        var data = Data(#"{"jsonrpc":"2.0","method":"#.utf8)
        data.append(contentsOf: JSONText.quoted(entry.method).utf8)
        if let params = entry.params {
            let encoded: Data
            do {
                encoded = try encoder.encode(params)
            } catch {
                throw .requestSerialization("the params of \"\(entry.method)\": \(error)")
            }
            let first = JSONText.firstSignificantByte(of: encoded)
            guard first == UInt8(ascii: "[") || first == UInt8(ascii: "{") else {
                throw .requestSerialization(
                    "the params of \"\(entry.method)\" (\(type(of: params))) encode to "
                        + "\(JSONText.excerpt(of: encoded)); JSON-RPC 2.0 params are an array or an object")
            }
            data.append(contentsOf: #","params":"#.utf8)
            data.append(encoded)
        }
        if let id {
            data.append(contentsOf: #","id":"#.utf8)
            data.append(contentsOf: id.description.utf8)
        }
        data.append(UInt8(ascii: "}"))
        return data
    }

    /// A batch: the request objects in an array.
    static func encodeBatch(_ entries: [(JSONRPCRequestEntry, JSONRPCID?)], encoder: JSONEncoder)
        throws(WebServiceError) -> Data
    {
        var data = Data("[".utf8)
        for (index, (entry, id)) in entries.enumerated() {
            if index > 0 { data.append(UInt8(ascii: ",")) }
            data.append(try encode(entry, id: id, encoder: encoder))
        }
        data.append(UInt8(ascii: "]"))
        return data
    }
}
