import ListPagination
import ListTestSupport
import Testing

@Suite struct RetryPolicyTests {
    @Test func delaysGrowExponentiallyUpToTheCap() {
        let policy = RetryPolicy(maxAttempts: 10, initialDelay: .milliseconds(250), multiplier: 2, maxDelay: .seconds(1.5), jitter: 0)
        #expect((1...5).map { policy.delay(beforeRetry: $0) } == [.milliseconds(250), .milliseconds(500), .seconds(1), .seconds(1.5), .seconds(1.5)])
        #expect(policy.delay(beforeRetry: 10_000) == .seconds(1.5))
    }

    @Test func delaysAreExactWholeDurations() {
        // 300 ms in Double seconds is 0.30000000000000004: a clock advanced by 300 ms
        // would not reach such a deadline.
        let policy = RetryPolicy(maxAttempts: 5, initialDelay: .milliseconds(300), multiplier: 2, jitter: 0)
        #expect((1...3).map { policy.delay(beforeRetry: $0) } == [.milliseconds(300), .milliseconds(600), .milliseconds(1_200)])
        #expect(RetryPolicy(initialDelay: .milliseconds(700), jitter: 0).delay(beforeRetry: 1) == .milliseconds(700))
        #expect(RetryPolicy(initialDelay: .milliseconds(100), multiplier: 1.5, jitter: 0).delay(beforeRetry: 2) == .milliseconds(150))
        #expect(RetryPolicy(initialDelay: .seconds(1), jitter: 0.5).delay(beforeRetry: 1, randomUnit: 0.5) == .milliseconds(750))
        // A cap too large for nanoseconds in an Int64 is no trap.
        #expect(RetryPolicy(initialDelay: .seconds(1), multiplier: 1e9, maxDelay: .seconds(Int64.max), jitter: 0).delay(beforeRetry: 4) > .seconds(1e18))
    }

    @Test func jitterStaysWithinItsFraction() {
        let policy = RetryPolicy(initialDelay: .seconds(4), jitter: 0.25)
        var rng = SplitMix64(seed: 7)
        for _ in 0..<1_000 {
            let delay = policy.delay(beforeRetry: 1, randomUnit: Double.random(in: 0..<1, using: &rng))
            #expect(delay > .seconds(3) && delay <= .seconds(4))
        }
        #expect(policy.delay(beforeRetry: 1, randomUnit: 0) == .seconds(4))
    }

    @Test func defaultsRetryTransientErrorsOnly() {
        let policy = RetryPolicy.default
        #expect(policy.maxAttempts == 3)
        #expect(RetryPolicy.none.maxAttempts == 1)
        #expect(policy.shouldRetry(.timedOut(url: nil)))
        #expect(policy.shouldRetry(.transport(url: nil, description: "reset")))
        #expect(!policy.shouldRetry(.decoding(url: nil, path: "data", description: "bad")))
        #expect(!policy.shouldRetry(.cancelled))
    }
}
