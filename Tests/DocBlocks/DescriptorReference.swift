// What DescriptorReference.md's prose stands for: a counter a transport of your own keeps.
final class CallCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
}
