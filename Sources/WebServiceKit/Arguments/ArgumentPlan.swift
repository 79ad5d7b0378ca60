/// What handles each argument position of a descriptor, decided once when the descriptor is
/// compiled (Retrofit's parameter handlers), so that a call walks the plan instead of testing
/// the type of every argument against every role.
///
/// The declaration fixes most positions:
/// - the `progressParameter` is the progress handler;
/// - a position a `%%N%%` wildcard names (path, query, header value, cache identifier) is that
///   wildcard's, whatever its value: a `nil` that drops a query item or a header field still
///   uses it;
/// - the `bodyParameter`, when no wildcard names it, is the body.
///
/// Only the other positions (``Role/open``) have a role that depends on the argument's run-time
/// type: a ``DownloadDestination``, an argument the ``URLBuilder`` accepts, a ``FormData`` part,
/// or else the implicit body of a POST, PUT or PATCH, or else an error (an argument nothing
/// uses). ``ArgumentBinder/searchOpenPositions(urlBuilder:)`` decides each of them once per call,
/// in one pass; a call whose arguments all have declared roles makes no such test.
struct ArgumentPlan: Sendable {
    /// The declared role of one position.
    enum Role: UInt8, Sendable {
        /// The progress handler or a wildcard: consumed by the declaration.
        case declared
        /// The `bodyParameter`: the body, unless it is a ``DownloadDestination`` or a multipart
        /// part (the URL builder is not offered it).
        case body
        /// Decided by the argument's run-time type.
        case open
    }

    /// The role of each position up to the largest declared one; every later position is open.
    private let roles: [Role]
    /// The progress handler's position.
    let progressParameter: Int?
    /// The body's position, if the declaration names one.
    let bodyParameter: Int?
    /// The first position that is not ``Role/declared``: a call with no more arguments than this
    /// has no run-time decision to make.
    let firstSearched: Int

    /// Plans the positions of a call whose templates and parameters were checked already (every
    /// index is in `0...Template.maximumIndex`); `wildcardIndices` are those its templates use.
    init(wildcardIndices: [Int], progressParameter: Int?, bodyParameter: Int?) {
        var declared = wildcardIndices
        if let progressParameter { declared.append(progressParameter) }
        var roles = [Role](repeating: .open, count: (declared.max() ?? -1) + 1)
        for index in declared { roles[index] = .declared }
        if let bodyParameter {
            if bodyParameter >= roles.count { roles += repeatElement(.open, count: bodyParameter + 1 - roles.count) }
            if roles[bodyParameter] == .open { roles[bodyParameter] = .body }
        }
        self.roles = roles
        self.progressParameter = progressParameter
        self.bodyParameter = bodyParameter
        firstSearched = roles.firstIndex { $0 != .declared } ?? roles.count
    }

    /// The role of the argument at `index`.
    func role(_ index: Int) -> Role { index < roles.count ? roles[index] : .open }
}
