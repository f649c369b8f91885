import LeaderboardFixtures
import ListPagination

/// The generated leaderboard (`--players`): jumps to either end, and a live feed of score
/// changes that reaches the window through `Paginator.upsert(_:)`.
extension LeaderboardDemo {
    /// Shows the first players (`g`) or the last ones (`G`): the window is replaced by
    /// that page in one batch, then the first or last row is selected.
    func jump(toEnd: Bool) {
        guard let window else { return }
        paginator.jump(to: toEnd ? window.lastPage : nil)
        Task {
            await pageSettled()
            await board.flush()
            if toEnd { renderer.selectLast() } else { renderer.selectFirst() }
        }
    }

    /// Plays score changes forever, one every `interval`, once the first page is in.
    func playGeneratedFeed(every interval: Duration) async throws {
        await pageSettled()
        let clock = ContinuousClock()
        var deadline = clock.now
        while true {
            deadline = deadline.advanced(by: interval)
            try await clock.sleep(until: deadline)
            playGeneratedFeedEvents(1)
        }
    }

    /// Plays `count` score changes at once, mostly to loaded players (see
    /// `GeneratedLeaderboard.playChanges(_:favoring:)`), through the window.
    func playGeneratedFeedEvents(_ count: Int) {
        guard let window else { return }
        let changed = window.source.playChanges(count, favoring: board.snapshot)
        paginator.upsert(changed)
        feedEventsPlayed.add(changed.count, ordering: .relaxed)
    }
}
