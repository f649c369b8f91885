import LeaderboardFixtures
import ListEngineTesting
import ListPagination
import Testing

@Suite(.timeLimit(.minutes(1))) struct LiveFeedTests {
    @Test func replayingTheWholeFeedGivesFeedFinal() throws {
        let fixtures = try FixtureDirectory.locate()
        let feed = try LiveFeed(directory: fixtures)
        #expect(feed.events.count == 2_000)
        #expect(feed.finalPlayers() == (try fixtures.loadFinalPlayers()))
    }

    @Test func playingIntoADataSourceEndsAtFeedFinal() async throws {
        let fixtures = try FixtureDirectory.locate()
        let feed = try LiveFeed(directory: fixtures)
        let board = ListDataSource(try fixtures.loadPlayers())
        try await feed.play(into: board, every: .zero, clock: ManualClock())
        #expect(Array(await board.flush()) == (try fixtures.loadFinalPlayers()))
    }

    @Test func aRepeatedRosterIdIsOnePlayerTheLastRowWinning() async throws {
        let first = Player(id: "p1", name: "A", score: 10, country: "US")
        let second = Player(id: "p1", name: "A2", score: 20, country: "US")
        let other = Player(id: "p2", name: "B", score: 5, country: "FR")
        let feed = LiveFeed(events: [.score(id: "p1", score: 30)], roster: [first, other, second])
        let expected = [Player(id: "p1", name: "A2", score: 30, country: "US"), other]
        #expect(feed.finalPlayers() == expected)
        let board = ListDataSource([first, other, second])
        try await feed.play(into: board, every: .zero, clock: ManualClock())
        #expect(Array(await board.flush()) == expected)
    }

    @Test func eventsArePacedOnTheClock() async throws {
        let fixtures = try FixtureDirectory.locate()
        let all = try LiveFeed(directory: fixtures)
        let feed = LiveFeed(events: Array(all.events.prefix(30)), roster: all.roster)
        let board = ListDataSource(all.roster)
        let clock = ManualClock()
        let played = LockedState(0)
        let task = Task {
            try await feed.play(into: board, every: .milliseconds(100), clock: clock) { index, _ in
                played.withLock { $0 = index + 1 }
            }
        }
        await clock.waitForSleepers()
        #expect(played.withLock { $0 } == 0)
        #expect(clock.pendingDeadlines == [ManualClock.Instant(offset: .milliseconds(100))])
        clock.advance(by: .milliseconds(1_000))
        // Ten events are due; the eleventh waits at 1.1 s.
        await clock.waitForSleepers()
        #expect(played.withLock { $0 } == 10)
        #expect(clock.pendingDeadlines == [ManualClock.Instant(offset: .milliseconds(1_100))])
        clock.advance(by: .seconds(2))
        try await task.value
        #expect(played.withLock { $0 } == 30)
        var expected = Dictionary(uniqueKeysWithValues: all.roster.map { ($0.id, $0) })
        for event in feed.events { _ = event.apply(to: &expected) }
        #expect(Array(await board.flush()) == expected.values.sorted(by: <))
    }

    @Test func cancellingStopsThePlayback() async throws {
        let all = try LiveFeed(directory: FixtureDirectory.locate())
        let clock = ManualClock()
        let task = Task { try await all.play(into: ListDataSource<Player>(), every: .seconds(1), clock: clock) }
        await clock.waitForSleepers()
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
    }
}
