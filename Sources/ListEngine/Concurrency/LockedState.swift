#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value guarded by a `pthread_mutex_t`, for state shared between threads.
///
/// The package uses this rather than `Synchronization.Mutex` because on Linux `Mutex`
/// parks on raw futexes that ThreadSanitizer cannot see, so every correctly locked
/// access is reported as a race; pthread mutexes are intercepted by the sanitizer,
/// which keeps `swift test --sanitize=thread` meaningful.
///
/// ```swift
/// let hits = LockedState(0)
/// hits.withLock { $0 += 1 }
/// ```
///
/// Safety of `@unchecked Sendable`: `state` is read and written only inside
/// `withLock`, which holds `mutex` for the whole closure, so accesses from different
/// threads are serialized; `State` itself is `Sendable`, so values moved in or out
/// of the lock may cross threads.
@usableFromInline package final class LockedState<State: Sendable>: @unchecked Sendable {
    /// Not checked for exclusive access at run time: the mutex already serializes every
    /// access, and `withLock`'s body cannot reach `state` again but through its argument.
    @exclusivity(unchecked) @usableFromInline var state: State
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// Creates the lock holding `initial`.
    @inlinable package init(_ initial: State) {
        state = initial
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "pthread_mutex_init failed: \(status)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the state.
    ///
    /// - Complexity: O(1) plus `body`; never call back into the same lock from `body`.
    @inlinable package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }
}
