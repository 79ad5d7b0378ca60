import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The revalidations a cache runs in the background for `stale-while-revalidate` (RFC 5861 §3):
/// at most one per stored response (per cache key) at a time. A call that finds one running
/// serves the stale response without starting another.
///
/// Each runs in a task of its own, not a child of the call that started it: the call ends with
/// the stale answer, and cancelling it afterwards cancels nothing here. The tasks are kept until
/// they end, so that tests can wait for them (``settle()``) instead of sleeping.
final class BackgroundRevalidations: Sendable {
    private struct Running {
        let id: UInt64
        let task: Task<Void, Never>
    }

    private struct State {
        var lastID: UInt64 = 0
        var running: [String: Running] = [:]
    }

    private let state = Locked(State())

    /// Starts `revalidation` for the stored response named `key` (its URL's key and its variant
    /// key), unless one runs for it already.
    /// Returns whether it started.
    @discardableResult
    func start(for key: String, _ revalidation: @escaping @Sendable () async -> Void) -> Bool {
        state.withLock { state in
            guard state.running[key] == nil else { return false }
            state.lastID &+= 1
            let id = state.lastID
            // The task takes the lock to remove itself only once this insertion has released it.
            let task = Task.detached { [self] in
                await revalidation()
                finish(key, id: id)
            }
            state.running[key] = Running(id: id, task: task)
            return true
        }
    }

    /// How many revalidations are running now.
    var count: Int { state.withLock { $0.running.count } }

    /// Waits until no revalidation runs, those started meanwhile included.
    func settle() async {
        while true {
            let tasks = state.withLock { $0.running.values.map(\.task) }
            if tasks.isEmpty { return }
            for task in tasks { await task.value }
        }
    }

    private func finish(_ key: String, id: UInt64) {
        state.withLock { state in
            if state.running[key]?.id == id { state.running[key] = nil }
        }
    }
}

extension HTTPCache {
    /// Waits until every background revalidation (`stale-while-revalidate`) has ended and done
    /// what it does to the store: for tests, which then read the store without sleeping.
    func backgroundRevalidationsFinished() async { await revalidations.settle() }
}

extension CacheExchange {
    /// The stale stored response, served at once while a revalidation of it runs in the
    /// background (`stale-while-revalidate`, RFC 5861 §3), or `nil` when the request must wait
    /// for the server (``CacheRules/staleWhileRevalidate(request:entry:now:)``).
    ///
    /// The background request is the one a foreground revalidation would send (`validators`
    /// added), and its answer freshens or replaces the stored response in the same way
    /// (``send(validators:)``). A request with a streamed body is never revalidated in the
    /// background: that body was opened for this attempt only.
    func staleWhileRevalidating(validators: HTTPHeaders) -> Answer? {
        guard let stored, outgoing.body == nil, outgoing.request.httpBodyStream == nil,
            let age = CacheRules.staleWhileRevalidate(request: request, entry: stored.entry, now: Date())
        else { return nil }
        let revalidation = detachedFromItsCall()
        // One per stored response: per variant of the URL (RFC 9111 §4.1).
        cache.revalidations.start(for: key + "\n" + stored.entry.variantKey) {
            // A failure was logged by the stages below and leaves the stored response as it was.
            _ = try? await revalidation.send(validators: validators)
        }
        return answer(CacheStage.response(from: stored, age: age, url: request.url, source: .staleCache))
    }

    /// This exchange, sent on its own after its call has ended: through the same stages below the
    /// cache (network interceptors, request check, log, response check, transport) with the
    /// call's log and interceptors, but with a body sink of its own that reports no progress
    /// (the call's progress is closed) and writes to no file.
    private func detachedFromItsCall() -> CacheExchange {
        let call = next.call
        let context = call.context
        let background = CallExchange(
            descriptor: call.descriptor, interceptors: call.interceptors,
            networkInterceptors: call.networkInterceptors, provider: call.provider,
            maximumRedirects: call.maximumRedirects, cache: call.cache, log: call.log, transport: call.transport,
            context: TransportContext(
                call: context.call, uploadLength: context.uploadLength, progress: nil,
                cacheIdentifier: context.cacheIdentifier,
                responseBody: ResponseBodySink(maximumSize: context.maximumBodySize, download: nil, progress: nil)))
        // The stored response is validated whole: a caller's `Range` / `If-Range` was answered
        // from it, and a 206 to the validation could not freshen or replace it (RangeServing).
        var whole = outgoing
        whole.request.setValue(nil, forHTTPHeaderField: "Range")
        whole.request.setValue(nil, forHTTPHeaderField: "If-Range")
        var wholeRequest = request
        wholeRequest.headers["Range"] = nil
        wholeRequest.headers["If-Range"] = nil
        return CacheExchange(
            cache: cache, outgoing: whole, request: wholeRequest, key: key, stored: stored,
            next: StageChain(call: background, index: next.index), inBackground: true)
    }
}
