import Foundation
import WebServiceKitChaos

/// What the test process holds of the system: open descriptors and threads, read from `/proc`
/// (Linux only; `nil` elsewhere).
enum ProcessResources {
    /// Open file descriptors: the entries of `/proc/self/fd` (the listing's own one excluded).
    static var openDescriptors: Int? { ProcessFootprint.descriptors }

    /// Open sockets: the entries of `/proc/self/fd` that link to `socket:[…]`.
    static var openSockets: Int? {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return nil }
        return entries.count { entry in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(entry)"))?.hasPrefix("socket:")
                ?? false
        }
    }

    /// What each open descriptor is (`socket:[…]`, `pipe:[…]`, a path…), for a measure to print
    /// what it did not expect.
    static var descriptorTargets: [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return entries.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)") }
            .sorted()
    }

    /// Threads of the process: the entries of `/proc/self/task`.
    static var threads: Int? { ProcessFootprint.threads }

    /// Polls `condition` every 50 ms until it holds or `limit` seconds pass; whether it held. A
    /// generous limit only bounds a failing test: a passing one returns as soon as it holds.
    static func eventually(within limit: TimeInterval = 10, _ condition: () -> Bool) async -> Bool {
        let end = Date().addingTimeInterval(limit)
        while !condition() {
            if Date() > end { return false }
            try? await Task.sleep(nanoseconds: 50_000_000)
        }
        return true
    }
}

/// The most descriptors, sockets and threads seen while some work runs, sampled every
/// millisecond on a thread of its own.
final class ResourcePeak: @unchecked Sendable {  // guarded by `lock`
    private let lock = NSLock()
    private var running = true
    private var peak = (descriptors: 0, sockets: 0, threads: 0)
    private let done = DispatchSemaphore(value: 0)

    init() {
        let thread = Thread { [self] in
            while lock.withLock({ running }) {
                let descriptors = ProcessResources.openDescriptors ?? 0
                let sockets = ProcessResources.openSockets ?? 0
                let threads = ProcessResources.threads ?? 0
                lock.withLock {
                    peak = (max(peak.descriptors, descriptors), max(peak.sockets, sockets), max(peak.threads, threads))
                }
                usleep(1000)
            }
            done.signal()
        }
        thread.start()
    }

    /// Stops sampling; the peaks seen.
    func stop() -> (descriptors: Int, sockets: Int, threads: Int) {
        lock.withLock { running = false }
        done.wait()
        return lock.withLock { peak }
    }
}
