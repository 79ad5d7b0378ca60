/// Which conformers leave a `URLRequest` requirement to its pass-through default, learnt on
/// their first call, so that a new-style conformer (an interceptor that watches only responses,
/// say) does not pay two conversions of the request on every call for the old method it never
/// wrote (``WebServiceRequest/urlRequest``, some microseconds on Linux), and its request is not
/// converted at all: the forwarding default hands on the very value it got.
///
/// The forwarding default runs the old method inside ``probe(_:_:_:)``; the old method's default
/// says ``reached()``; the type is then remembered and the old method not called again.
enum LegacyPassThrough {
    /// A requirement with a pass-through default.
    enum Requirement: Int {
        case interceptRequest, interceptResponse, handleResponse, handleFailure
    }

    private struct Key: Hashable {
        let type: ObjectIdentifier
        let requirement: Requirement
    }

    private static let learnt = Locked(Set<Key>())

    /// Set for the duration of a probe: whether the old method's default ran.
    @TaskLocal private static var probing: Probe?

    private final class Probe: @unchecked Sendable {
        // Written and read by the one task that runs the probe.
        var reached = false
    }

    /// Whether `type` is known to leave `requirement` to its default.
    static func skips(_ type: Any.Type, _ requirement: Requirement) -> Bool {
        let key = Key(type: ObjectIdentifier(type), requirement: requirement)
        return learnt.withLock { $0.contains(key) }
    }

    /// Runs `old` (the old method); returns `nil` when it was the pass-through default, and
    /// remembers that for `type`.
    static func probe<T>(
        _ type: Any.Type, _ requirement: Requirement, _ old: () async throws -> T
    ) async rethrows -> T? {
        let probe = Probe()
        let result = try await $probing.withValue(probe) { try await old() }
        guard probe.reached else { return result }
        _ = learnt.withLock { $0.insert(Key(type: ObjectIdentifier(type), requirement: requirement)) }
        return nil
    }

    /// Said by an old method's pass-through default.
    static func reached() { probing?.reached = true }
}
