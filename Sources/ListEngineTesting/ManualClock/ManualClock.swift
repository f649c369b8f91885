import ListEngine

/// A clock whose time moves only when you say so, for deterministic tests of code that
/// waits: retry backoff, loading-indicator delays, paced playback.
///
/// Code under test sleeps on the clock as on any `Clock`. The test calls
/// ``advance(by:)``: every sleeper whose deadline has been reached is resumed, in order
/// of deadline and then of the order they started sleeping. ``waitForSleepers(count:)``
/// lets the test wait, without polling or sleeping, until the code under test has
/// started sleeping. A sleeping task that is cancelled throws `CancellationError` at once.
///
/// ```swift
/// let clock = ManualClock()
/// let paginator = Paginator(dataSource: source, loader: loader,
///                           loadingIndicatorDelay: .milliseconds(300), clock: clock)
/// paginator.loadNextPage()
/// await clock.waitForSleepers(count: 1)        // the indicator timer is waiting
/// clock.advance(by: .milliseconds(300))        // now it fires
/// ```
public final class ManualClock: Clock, Sendable {
    /// A point in the clock's time: the duration since the clock's zero.
    public struct Instant: InstantProtocol, Sendable, CustomStringConvertible {
        /// The time since the clock's zero.
        public var offset: Duration

        /// Creates an instant `offset` after the clock's zero.
        ///
        /// - Parameter offset: the time since the clock's zero.
        public init(offset: Duration) { self.offset = offset }

        /// The instant `duration` after this one.
        ///
        /// - Parameter duration: how far to move; negative moves back.
        /// - Returns: the instant whose offset is this one's plus `duration`.
        /// - Complexity: O(1).
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        /// The time from this instant to `other`.
        ///
        /// - Parameter other: the later (or earlier) instant.
        /// - Returns: `other`'s offset minus this one's; negative when `other` is earlier.
        /// - Complexity: O(1).
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        /// Orders instants by offset.
        ///
        /// - Parameters:
        ///   - lhs: an instant.
        ///   - rhs: another instant.
        /// - Returns: whether `lhs` is earlier than `rhs`.
        /// - Complexity: O(1).
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
        /// The instant with its offset, such as `ManualClock.Instant(0.25 seconds)`.
        ///
        /// - Complexity: O(1).
        public var description: String { "ManualClock.Instant(\(offset))" }
    }

    let _state: LockedState<_State>

    /// Creates a clock that reads `now` until it is advanced.
    ///
    /// - Parameter now: the starting time; the clock's zero by default.
    public init(now: Instant = Instant(offset: .zero)) {
        _state = LockedState(_State(now: now))
    }

    /// The current time.
    ///
    /// - Complexity: O(1).
    public var now: Instant { _state.withLock { $0.now } }

    /// The clock has no granularity: any duration can be slept and advanced.
    ///
    /// - Complexity: O(1).
    public var minimumResolution: Duration { .zero }
}
