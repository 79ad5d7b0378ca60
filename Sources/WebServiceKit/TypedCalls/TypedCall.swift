import Foundation

/// A declared endpoint whose argument types are part of its type, so that the compiler checks
/// every call: the count and the types of its arguments, and its body.
///
/// `Arguments` is an ``ArgumentList`` of the types that fill the `%%0%%`, `%%1%%`… wildcards, in
/// order; `Body` is the type of the request body, or ``NoBody``; `Response` is what the call
/// returns, as for ``WebServiceCall``.
///
/// ```swift
/// extension TypedCall where Arguments == ArgumentList<String, String>, Body == NoBody, Response == [Repo] {
///     static let userRepos = TypedCall(.init(relativePath: "users/%%0%%/repos?sort=%%1%%"))
/// }
/// extension TypedCall where Arguments == ArgumentList<String>, Body == Note, Response == Note {
///     static let createNote = TypedCall(.init(method: .post, relativePath: "users/%%0%%/notes"))
/// }
///
/// let repos = try await client.perform(.userRepos, "octocat", "updated")
/// let note = try await client.perform(.createNote, "octocat", body: Note(title: "Hi"))
/// ```
///
/// `client.perform(.userRepos, "octocat")`, `client.perform(.userRepos, 42, "updated")`,
/// `client.perform(.createNote, "octocat")` (no body) and a `body:` on `.userRepos` do not compile.
///
/// The declaration is checked against the template when the value is first made (a
/// `static let` is made at its first use) and ``validate()`` throws what it found, as every call
/// of it would: each wildcard's index must be one of the declared arguments, each argument must
/// be used (by a wildcard, or be a ``DownloadDestination``, or go to the call's ``URLBuilder``),
/// and each argument a wildcard uses must be of a type that can fill one.
///
/// The body is the argument after the declared ones (the descriptor's `bodyParameter`); progress
/// goes to the `progress:` parameter of the `perform` methods, so the wrapped call declares
/// neither `bodyParameter` nor `progressParameter`.
///
/// A typed call wraps a ``WebServiceCall`` (``call``), which test stubs, interceptors and the
/// untyped `perform` methods take as they take any other.
@dynamicMemberLookup
public struct TypedCall<Arguments: ArgumentListProtocol, Body: Sendable, Response: Sendable>: Sendable {
    /// The untyped call: the same descriptor, for stubs, interceptors and `validate()`.
    public let call: WebServiceCall<Response>

    /// The descriptor's field `field`: `typedCall.method`, `typedCall.name`…
    @inlinable
    public subscript<Field>(dynamicMember field: KeyPath<CallDescriptor, Field>) -> Field {
        call.descriptor[keyPath: field]
    }

    /// The call's descriptor.
    public var descriptor: CallDescriptor { call.descriptor }

    /// Throws the problem that makes every call of this descriptor fail, if there is one: a
    /// malformed field, or a declaration whose argument types do not match its template.
    public func validate() throws(WebServiceError) { try call.validate() }

    /// Throws what ``validate()`` throws, and what ``CallDescriptor/validate(serviceRoot:)``
    /// finds under `serviceRoot`.
    public func validate(serviceRoot: URL) throws(WebServiceError) { try call.validate(serviceRoot: serviceRoot) }

    /// Declares `call` as taking the arguments `Arguments` and the body `Body`.
    ///
    /// - Parameter call: The endpoint, declared as any ``WebServiceCall`` (without
    ///   `bodyParameter` or `progressParameter`: the body comes after the declared arguments, and
    ///   progress goes to `perform`'s `progress:` parameter).
    public init(_ call: WebServiceCall<Response>) {
        let signature = ArgumentSignature(arguments: Arguments.types, body: Body.self == NoBody.self ? nil : Body.self)
        var fields = call.fields
        if fields.bodyParameter == nil, signature.body != nil { fields.bodyParameter = signature.arguments.count }
        self.call = WebServiceCall(fields, serializer: call.responseSerializer, signature: signature)
    }
}

/// The types of a ``TypedCall``'s arguments, in order: `ArgumentList<String, Int>` for a call
/// whose `%%0%%` takes a `String` and `%%1%%` an `Int`; `ArgumentList<>` for one without arguments.
///
/// It only names types: no value of it is ever made.
public struct ArgumentList<each Value: Sendable>: ArgumentListProtocol {
    private init() {}

    public static var types: [any Any.Type] {
        var types: [any Any.Type] = []
        for type in repeat (each Value).self { types.append(type) }
        return types
    }
}

/// What ``ArgumentList`` is: the list of types it names.
public protocol ArgumentListProtocol: Sendable {
    /// The argument types, in order.
    static var types: [any Any.Type] { get }
}

/// The `Body` of a ``TypedCall`` that sends none: no value of it exists, so no `body:` can be
/// passed to such a call.
public enum NoBody: Sendable {}
