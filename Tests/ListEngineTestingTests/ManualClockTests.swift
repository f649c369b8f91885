import ListEngine
import ListEngineTesting
import Testing

@Suite(.timeLimit(.minutes(5))) struct ManualClockTests {
    @Test func sleepersWakeWhenTheirDeadlineIsReached() async throws {
        let clock = ManualClock()
        let woke = Recorder()
        var tasks: [Task<Void, any Error>] = []
        for seconds in [3, 1, 2] {
            tasks.append(Task {
                try await clock.sleep(for: .seconds(seconds))
                woke.append(seconds)
            })
        }
        await clock.waitForSleepers(count: 3)
        #expect(clock.pendingDeadlines == [1, 2, 3].map { ManualClock.Instant(offset: .seconds($0)) })
        clock.advance(by: .milliseconds(999))
        #expect(clock.sleeperCount == 3)
        clock.advance(by: .milliseconds(1))
        try await tasks[1].value
        #expect(woke.values == [1])
        #expect(clock.sleeperCount == 2)
        clock.advance(by: .seconds(5))
        try await tasks[0].value
        try await tasks[2].value
        #expect(clock.sleeperCount == 0)
        #expect(clock.now == ManualClock.Instant(offset: .seconds(6)))
    }

    @Test func aDeadlineInThePastReturnsAtOnce() async throws {
        let clock = ManualClock(now: ManualClock.Instant(offset: .seconds(10)))
        try await clock.sleep(until: ManualClock.Instant(offset: .seconds(10)))
        try await clock.sleep(for: .zero)
        #expect(clock.sleeperCount == 0)
    }

    @Test func cancellingASleeperRemovesItAndThrows() async throws {
        let clock = ManualClock()
        let task = Task { try await clock.sleep(for: .seconds(1)) }
        await clock.waitForSleepers(count: 1)
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(clock.sleeperCount == 0)
    }

    @Test func aTaskCancelledBeforeItSleepsDoesNotWait() async throws {
        let clock = ManualClock()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(for: .seconds(1))
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(clock.sleeperCount == 0)
    }

    @Test func advanceToMovesOnlyForward() {
        let clock = ManualClock()
        clock.advance(to: ManualClock.Instant(offset: .seconds(2)))
        clock.advance(to: ManualClock.Instant(offset: .seconds(1)))
        #expect(clock.now == ManualClock.Instant(offset: .seconds(2)))
        #expect(clock.now.duration(to: ManualClock.Instant(offset: .seconds(5))) == .seconds(3))
    }

    @Test func absoluteDeadlinesCatchUpAfterABigAdvance() async throws {
        let clock = ManualClock()
        let ticks = LockedState(0)
        let task = Task {
            let start = clock.now
            for tick in 1...10 {
                try await clock.sleep(until: start.advanced(by: .seconds(tick)))
                ticks.withLock { $0 += 1 }
            }
        }
        await clock.waitForSleepers()
        clock.advance(by: .seconds(10))
        try await task.value
        #expect(ticks.withLock { $0 } == 10)
    }

    @Test func waitForSleepersReturnsWhenEnoughAreSleeping() async throws {
        let clock = ManualClock()
        await clock.waitForSleepers(count: 0)
        let waiter = Task { await clock.waitForSleepers(count: 2) }
        let first = Task { try await clock.sleep(for: .seconds(1)) }
        let second = Task { try await clock.sleep(for: .seconds(1)) }
        await waiter.value
        #expect(clock.sleeperCount == 2)
        clock.advance(by: .seconds(1))
        try await first.value
        try await second.value
    }

    @Test func waitForSleepersReturnsWhenCancelled() async {
        let clock = ManualClock()
        let waiter = Task { await clock.waitForSleepers(count: 1) }
        waiter.cancel()
        await waiter.value
        #expect(clock.sleeperCount == 0)
    }
}

/// Collects values from several tasks.
final class Recorder: Sendable {
    private let storage = LockedState<[Int]>([])
    func append(_ value: Int) { storage.withLock { $0.append(value) } }
    var values: [Int] { storage.withLock { $0 } }
}
