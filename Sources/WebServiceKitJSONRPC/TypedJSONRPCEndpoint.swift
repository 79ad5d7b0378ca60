import Foundation

#if canImport(WebServiceKit)
    import WebServiceKit
#endif

/// A ``JSONRPCEndpoint`` whose wildcard arguments have types the compiler checks, as a
/// ``TypedCall``'s do: `Arguments` is an ``ArgumentList`` of the types that fill its `%%0%%`,
/// `%%1%%`… in order.
///
/// ```swift
/// enum Billing {
///     static let rpc = TypedJSONRPCEndpoint<ArgumentList<String>>(JSONRPCEndpoint(relativePath: "tenants/%%0%%/rpc"))
///     static let total = JSONRPCMethod<[Int], Int>("total")
/// }
/// let total = try await client.perform(Billing.rpc, Billing.total, [1, 2], arguments: "acme")
/// ```
///
/// `client.perform(Billing.rpc, Billing.total, [1, 2])` (no tenant) or `arguments: 7` do not
/// compile. The declaration is checked against the endpoint's templates as a typed call's is, and
/// ``validate()`` throws what every call of it would.
public struct TypedJSONRPCEndpoint<Arguments: ArgumentListProtocol>: Sendable {
    /// The endpoint, for stubs (`stubs.stub(endpoint.call, with: …)`) and the untyped forms.
    public let endpoint: JSONRPCEndpoint
    /// The endpoint's call declared with `Arguments` and its body: the check of the declaration.
    private let declaration: TypedCall<Arguments, Data, JSONRPCPayload>
    /// A declaration whose count of arguments is not the endpoint's.
    private let mismatch: String?

    /// Declares `endpoint` as taking the arguments `Arguments`.
    public init(_ endpoint: JSONRPCEndpoint) {
        self.endpoint = endpoint
        declaration = TypedCall(endpoint.call)
        let declared = Arguments.types.count
        mismatch =
            declared == endpoint.argumentCount
            ? nil
            : "the endpoint's templates use \(endpoint.argumentCount) wildcard argument(s) but its declaration "
                + "names \(declared) type(s); declare one type per wildcard, %%0%% first"
    }

    /// Throws the problem that makes every call of the endpoint fail, if there is one: a malformed
    /// field, or declared argument types that do not match its templates.
    public func validate() throws(WebServiceError) {
        if let mismatch { throw .invalidCall(mismatch) }
        try declaration.validate()
    }
}

extension WebServiceClient {
    /// Calls a JSON-RPC method at a typed endpoint and returns its typed result: the untyped
    /// ``perform(_:_:_:arguments:progress:)-(JSONRPCEndpoint,_,_,_,_)`` with the endpoint's
    /// arguments checked when compiling.
    public func perform<each Argument: Sendable, Params, Output>(
        _ endpoint: TypedJSONRPCEndpoint<ArgumentList<repeat each Argument>>,
        _ method: JSONRPCMethod<Params, Output>, _ params: Params, arguments: repeat each Argument,
        progress: TransferProgressHandler? = nil
    ) async throws(WebServiceError) -> Output {
        try await perform(
            endpoint.endpoint, method, params, arguments: try endpoint.checked(repeat each arguments, client: self),
            progress: progress)
    }

    /// Calls a JSON-RPC method that takes no params at a typed endpoint.
    public func perform<each Argument: Sendable, Output>(
        _ endpoint: TypedJSONRPCEndpoint<ArgumentList<repeat each Argument>>,
        _ method: JSONRPCMethod<JSONRPCNoParams, Output>, arguments: repeat each Argument,
        progress: TransferProgressHandler? = nil
    ) async throws(WebServiceError) -> Output {
        try await perform(
            endpoint.endpoint, method, arguments: try endpoint.checked(repeat each arguments, client: self),
            progress: progress)
    }

    /// Sends a JSON-RPC notification to a typed endpoint.
    public func notify<each Argument: Sendable, Params, Output>(
        _ endpoint: TypedJSONRPCEndpoint<ArgumentList<repeat each Argument>>,
        _ method: JSONRPCMethod<Params, Output>, _ params: Params, arguments: repeat each Argument,
        progress: TransferProgressHandler? = nil
    ) async throws(WebServiceError) {
        try await notify(
            endpoint.endpoint, method, params, arguments: try endpoint.checked(repeat each arguments, client: self),
            progress: progress)
    }

    /// Sends a batch to a typed endpoint.
    public func perform<each Argument: Sendable>(
        _ endpoint: TypedJSONRPCEndpoint<ArgumentList<repeat each Argument>>, _ batch: JSONRPCBatch,
        arguments: repeat each Argument, progress: TransferProgressHandler? = nil
    ) async throws(WebServiceError) -> JSONRPCBatchResponse {
        try await perform(
            endpoint.endpoint, batch, arguments: try endpoint.checked(repeat each arguments, client: self),
            progress: progress)
    }
}

extension TypedJSONRPCEndpoint {
    /// The arguments in order, once the declaration is known to fit the endpoint (its failure,
    /// named by the call, otherwise).
    func checked<each Argument: Sendable>(_ arguments: repeat each Argument, client: WebServiceClient)
        throws(WebServiceError) -> [any Sendable]
    {
        do throws(WebServiceError) {
            try validate()
        } catch {
            throw client.failure(error, of: endpoint.call.descriptor)
        }
        var values: [any Sendable] = []
        for argument in repeat each arguments { values.append(argument) }
        return values
    }
}
