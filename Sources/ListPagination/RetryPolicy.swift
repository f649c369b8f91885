/// When and how often a ``Paginator`` retries a failed page on its own.
///
/// After a failure whose error ``shouldRetry`` accepts, the paginator waits
/// `initialDelay × multiplier^(n−1)` (at most `maxDelay`) before retry *n*, until
/// `maxAttempts` attempts in all have failed; then it reports
/// ``PaginationState/failed(_:)``. With `jitter` *j* > 0 each delay is scaled by a
/// random factor in (1 − *j*, 1], so clients that failed together do not retry together.
///
/// By default only ``PaginationError/isTransient`` errors are retried: transport
/// failures, timeouts, HTTP 408, 425, 429 and 5xx. An error of a loader's own
/// (``PaginationError/loader(_:)``) is retried only when it conforms to
/// ``TransientError`` and says it is transient, so an app's `unauthorized` fails after
/// one attempt; ``Paginator/retry()`` tries again whatever the policy says.
///
/// ```swift
/// let policy = RetryPolicy(maxAttempts: 4, initialDelay: .milliseconds(250))
/// policy.delay(beforeRetry: 1)  // 0.25 s
/// policy.delay(beforeRetry: 3)  // 1 s
/// ```
public struct RetryPolicy: Sendable {
    /// Attempts in all, the first included; 1 means no automatic retry.
    public var maxAttempts: Int
    /// The delay before the first retry.
    public var initialDelay: Duration
    /// The factor by which each delay grows.
    public var multiplier: Double
    /// The longest delay.
    public var maxDelay: Duration
    /// The fraction of each delay that is randomized, in 0…1; 0 turns jitter off.
    public var jitter: Double
    /// Which errors are retried automatically; by default the ``PaginationError/isTransient`` ones.
    public var shouldRetry: @Sendable (PaginationError) -> Bool

    /// Creates a policy.
    ///
    /// - Parameters:
    ///   - maxAttempts: attempts in all, at least 1.
    ///   - initialDelay: the delay before the first retry; not negative.
    ///   - multiplier: the growth factor, at least 1.
    ///   - maxDelay: the cap on every delay.
    ///   - jitter: the randomized fraction of each delay, in 0…1.
    ///   - shouldRetry: which errors to retry; by default ``PaginationError/isTransient``,
    ///     which is `false` for a loader's own error unless it is a ``TransientError``
    ///     that says otherwise.
    public init(
        maxAttempts: Int = 3,
        initialDelay: Duration = .milliseconds(500),
        multiplier: Double = 2,
        maxDelay: Duration = .seconds(30),
        jitter: Double = 0.2,
        shouldRetry: @escaping @Sendable (PaginationError) -> Bool = { $0.isTransient }
    ) {
        precondition(maxAttempts >= 1, "RetryPolicy.maxAttempts must be at least 1, got \(maxAttempts)")
        precondition(initialDelay >= .zero, "RetryPolicy.initialDelay must not be negative")
        precondition(multiplier >= 1, "RetryPolicy.multiplier must be at least 1, got \(multiplier)")
        precondition((0...1).contains(jitter), "RetryPolicy.jitter must be in 0...1, got \(jitter)")
        self.maxAttempts = maxAttempts
        self.initialDelay = initialDelay
        self.multiplier = multiplier
        self.maxDelay = maxDelay
        self.jitter = jitter
        self.shouldRetry = shouldRetry
    }

    /// No automatic retries: the first failure is reported.
    ///
    /// - Complexity: O(1).
    public static var none: RetryPolicy { RetryPolicy(maxAttempts: 1) }

    /// Three attempts, 0.5 s then 1 s apart, with 20 % jitter.
    ///
    /// - Complexity: O(1).
    public static var `default`: RetryPolicy { RetryPolicy() }

    /// The delay before retry number `retry` (1 for the first retry).
    ///
    /// - Parameters:
    ///   - retry: which retry, from 1.
    ///   - randomUnit: a number in 0..<1 that picks the jitter; 0 gives the full delay.
    /// - Returns: `min(initialDelay × multiplier^(retry−1), maxDelay) × (1 − jitter × randomUnit)`.
    /// - Complexity: O(1).
    public func delay(beforeRetry retry: Int, randomUnit: Double = 0) -> Duration {
        precondition(retry >= 1, "retries are numbered from 1, got \(retry)")
        // In nanoseconds, which a Double holds exactly up to 104 days: 300 ms stays
        // exactly 300 ms (in seconds it would come out a few attoseconds long, and a
        // clock advanced by the delay would not yet reach it). Double arithmetic
        // saturates at +inf instead of overflowing; the cap bounds it.
        let initial = initialDelay.nanoseconds, cap = maxDelay.nanoseconds
        let grown = initial * _pow(multiplier, retry - 1)
        let capped = Swift.max(0, Swift.min(grown, cap))
        let unit = Swift.min(Swift.max(randomUnit, 0), 1)
        return .wholeNanoseconds(capped * (1 - jitter * unit))
    }

    private func _pow(_ base: Double, _ exponent: Int) -> Double {
        var result = 1.0
        for _ in 0..<Swift.min(exponent, 2048) {
            result *= base
            if result.isInfinite { break }
        }
        return result
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
    }

    /// The duration in whole nanoseconds (rounded toward zero), as a `Double`.
    var nanoseconds: Double {
        let parts = components
        return Double(parts.seconds) * 1e9 + Double(parts.attoseconds / 1_000_000_000)
    }

    /// `nanoseconds` rounded to a whole number of nanoseconds.
    static func wholeNanoseconds(_ nanoseconds: Double) -> Duration {
        let whole = nanoseconds.rounded()
        // Beyond 2^63 ns (292 years) in seconds, whose precision no longer matters.
        guard whole < 9.2e18 else { return .seconds(whole / 1e9) }
        return .nanoseconds(Int64(whole))
    }
}
