import Foundation

extension HTTP1ConnectionMachine.Failure {
    /// The error a call of `method` with `timeout` (seconds; 0 or less: none) fails with;
    /// `reported` is the one ``HTTP1ConnectionMachine/Event/failed`` came with.
    func error(method: String, timeout: TimeInterval, reported: (any Error)?) -> any Error {
        switch self {
        case .reported: reported ?? URLError(.unknown)
        case .cancelled: URLError(.cancelled)
        case .timedOutBeforeTheRequest: URLError.timedOutBeforeTheRequest(timeout: timeout)
        case .timedOut(let phase):
            URLError(
                .timedOut,
                reason: "the call's timeout\(URLError.amount(timeout)) passed while \(phase.rawValue). Raise the "
                    + "call's timeout (the descriptor's timeout or WebServiceRequest.timeoutInterval)")
        case .connectionLost(let reason): URLError(.networkConnectionLost, reason: reason)
        case .closedBeforeAnswering(let reason): HTTP1Transport.closedBeforeAnswering(method, reason: reason)
        }
    }
}
