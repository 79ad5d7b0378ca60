import Dispatch
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One call from its start to its one delivery: the async core every form of `perform` runs.
///
/// It owns what must happen exactly once whatever the form: the call's progress reporter is
/// closed with the outcome (a final `1.0` on success; on failure the call's temporary download
/// file is deleted with it), a cancellation delivered first wins over a late result (the callback
/// form's ``WebServiceTask``), and the result is handed over only after every progress event.
/// The forms are thin adapters: `async` awaits ``run(_:arguments:prepare:decode:)`` and then the
/// progress queue; callbacks deliver through ``deliver(_:)`` on the callback queue; the blocking
/// form and `WebInitializable` wait for the `async` form; JSON-RPC uses the public forms.
struct CallLifecycle: Sendable {
    let client: WebServiceClient
    let reporter: ProgressReporter
    /// The callback form's task: its cancellation is delivered at once, and a result that comes
    /// after it is dropped. `nil` for the `async` forms, where the caller's task is cancelled.
    let task: WebServiceTask?

    /// The lifecycle of an `async` (or blocking) call.
    init(asyncOf client: WebServiceClient, progress: TransferProgressHandler?) {
        self.client = client
        reporter = ProgressReporter(queue: client.callbackQueue, handler: progress)
        task = nil
    }

    /// The lifecycle of a callback call: cancelling its task closes its progress and calls
    /// `cancelled` with the reason at once, after every progress event, and nothing after.
    init(
        callbacksOf client: WebServiceClient, progress: TransferProgressHandler?,
        cancelled: @escaping @Sendable (String?) -> Void
    ) {
        self.client = client
        let reporter = ProgressReporter(queue: client.callbackQueue, handler: progress)
        self.reporter = reporter
        task = WebServiceTask { reason in reporter.close(succeeded: false) { cancelled(reason) } }
    }

    /// Starts a callback call's `operation` (``WebServiceClient/startImmediately(_:)``) and
    /// returns the task that cancels it. Only a callback call's lifecycle
    /// (``init(callbacksOf:progress:cancelled:)``) starts this way, and it always has a task.
    func start(_ operation: sending @escaping @isolated(any) () async -> Void) -> WebServiceTask {
        guard let task else { preconditionFailure("start(_:) is for a callback call's lifecycle, which has a task") }
        task.attach(client.startImmediately(operation))
        return task
    }

    /// Runs the call (its stages, validation) and makes its result with `decode`; then closes the
    /// call's progress with the outcome. `nil` when the call's task delivered a cancellation
    /// first: nothing more may be delivered.
    ///
    /// A streamed call (`streaming`) leaves its progress open on success: its stream closes it
    /// when the body ends.
    func run<Value>(
        _ descriptor: CallDescriptor, arguments: [any Sendable], prepare: (any WebServiceInterceptor)?,
        streaming: Bool = false, decode: (ValidatedResponse) throws(WebServiceError) -> Value
    ) async -> Result<Value, WebServiceError>? {
        let result: Result<Value, WebServiceError>
        do throws(WebServiceError) {
            let validated = try await client.execute(
                descriptor, arguments: arguments, prepare: prepare, progress: reporter, streaming: streaming)
            do throws(WebServiceError) {
                result = .success(try decode(validated))
            } catch {
                result = .failure(
                    WebServiceClient.naming(error, descriptor, request: validated.request, settings: validated.settings)
                )
            }
        } catch {
            // Named by execute.
            result = .failure(error)
        }
        if let task, !task.claimDelivery() { return nil }
        switch result {
        case .success: if !streaming { reporter.close(succeeded: true) }
        case .failure: reporter.close(succeeded: false)
        }
        return result
    }

    /// Runs `delivery` (a completion callback) on the callback queue, after every progress event.
    func deliver(_ delivery: @escaping @Sendable () -> Void) { reporter.afterEvents(delivery) }

    /// Waits until every progress event has run: an `async` call returns after its progress.
    func settle() async { await reporter.settle() }
}
