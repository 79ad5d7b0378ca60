import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// Two small helpers the core keeps internal (they are no part of an HTTP library's API), copied
// for this product. Scripts/fuzz compiles the core and the products as one module: there the
// core's own ones serve, hence `#if canImport(WebServiceKit)`.
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

    /// Steps over the strings of JSON text in a one-pass byte scanner that only cares about the
    /// structure around them (RFC 8259 §7: a string ends at a `"` that no `\` escapes).
    struct JSONStringSkipper {
        /// Whether the last byte fed was inside a string (its opening quote included, its closing
        /// quote not).
        private(set) var isInString = false
        private var escaped = false

        /// The scanner met an opening quote outside any string.
        mutating func enter() { isInString = true }

        /// Feeds a byte that follows the opening quote; the string ends at an unescaped quote.
        mutating func feed(_ byte: UInt8) {
            if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                isInString = false
            }
        }
    }
#endif
