import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// The core keeps its own `Locked` internal (a lock is no part of an HTTP library's API), so this
// product has a copy. Scripts/fuzz compiles the core and the products as one module, where the
// core's copy serves both.
#if canImport(WebServiceKit)
    /// A value guarded by a `pthread_mutex_t` of its own, for the little state values share across
    /// threads.
    final class Locked<Value>: @unchecked Sendable {
        private var value: Value
        private let mutex: UnsafeMutablePointer<pthread_mutex_t>

        init(_ value: Value) {
            self.value = value
            mutex = .allocate(capacity: 1)
            mutex.initialize(to: pthread_mutex_t())
            pthread_mutex_init(mutex, nil)
        }

        deinit {
            pthread_mutex_destroy(mutex)
            mutex.deinitialize(count: 1)
            mutex.deallocate()
        }

        /// Runs `body` with exclusive access to the value.
        @discardableResult
        func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body(&value)
        }
    }
#endif
