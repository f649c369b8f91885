import LeaderboardFixtures
import ListEngineTesting
import ListPagination
import Testing

@Suite(.timeLimit(.minutes(5))) struct LiveFeedTests {
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

    /// The demos play the fixture feed round after round, each round from the live state.
    /// Over 100,000 events (50 rounds) the scores must stay spread: every tier keeps
    /// players after every event, and the top rows do not pile up at the maximum score
    /// (at most 0.1% of the players there; the fixture roster starts with two).
    @Test func replayingTheFeedForAHundredThousandEventsKeepsScoresSpread() throws {
        let feed = try LiveFeed(directory: FixtureDirectory.locate())
        let maximum = 99_999
        var players = Dictionary(feed.roster.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
        var perTier = Dictionary(grouping: players.values, by: \.tier).mapValues(\.count)
        var atMaximum = players.values.count { $0.score == maximum }
        var fewestPerTier = perTier
        var mostAtMaximum = (count: atMaximum, players: players.count, event: -1)
        for index in 0 ..< 100_000 {
            let event = feed.events[index % feed.events.count]
            let before: Player? = switch event {
            case .score(let id, _), .leave(let id): players[id]
            case .join: nil
            }
            guard let change = event.apply(to: &players) else { continue }
            if let before {
                perTier[before.tier, default: 0] -= 1
                if before.score == maximum { atMaximum -= 1 }
            }
            if case .add(let player) = change {
                perTier[player.tier, default: 0] += 1
                if player.score == maximum { atMaximum += 1 }
            }
            for (tier, count) in perTier where count < fewestPerTier[tier, default: .max] { fewestPerTier[tier] = count }
            if atMaximum * mostAtMaximum.players > mostAtMaximum.count * players.count {
                mostAtMaximum = (atMaximum, players.count, index)
            }
        }
        #expect(perTier == Dictionary(grouping: players.values, by: \.tier).mapValues(\.count), "the running counts are right")
        for tier in LeaderboardTier.allCases {
            #expect(fewestPerTier[tier, default: 0] > 0, "\(tier.name) emptied")
        }
        #expect(mostAtMaximum.count * 1_000 <= mostAtMaximum.players, "\(mostAtMaximum.count) of \(mostAtMaximum.players) players at \(maximum) after event \(mostAtMaximum.event)")
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
