import Foundation
import LeaderboardFixtures
import ListPagination
import Testing

@Suite struct FeedEventTests {
    static let ann = Player(id: "p1", name: "Ann", score: 10, country: "SE")

    @Test func decodesTheThreeOperations() throws {
        let json = #"""
        [{"op":"score","id":"p1","score":7},
         {"op":"join","player":{"id":"p2","name":"Bo","score":3,"country":"US"}},
         {"op":"leave","id":"p1"}]
        """#
        let events = try JSONDecoder().decode([FeedEvent].self, from: Data(json.utf8))
        #expect(events == [.score(id: "p1", score: 7), .join(Player(id: "p2", name: "Bo", score: 3, country: "US")), .leave(id: "p1")])
    }

    @Test func anUnknownOperationNamesItsPath() throws {
        let json = #"[{"op":"score","id":"p1","score":7},{"op":"teleport","id":"p1"}]"#
        #expect {
            try JSONDecodingFailure.decode([FeedEvent].self, from: Data(json.utf8))
        } throws: { error in
            guard let failure = error as? JSONDecodingFailure else { return false }
            return failure.path == "[1].op" && failure.reason.contains("teleport") && failure.byteOffset == 42
        }
    }

    @Test func applyUpdatesTheRosterAndReturnsTheChange() {
        var roster = [Self.ann.id: Self.ann]
        var updated = Self.ann
        updated.score = 99
        #expect(FeedEvent.score(id: "p1", score: 99).apply(to: &roster) == .add(updated))
        #expect(roster["p1"] == updated)
        #expect(FeedEvent.score(id: "nobody", score: 1).apply(to: &roster) == nil)
        let bo = Player(id: "p2", name: "Bo", score: 3, country: "US")
        #expect(FeedEvent.join(bo).apply(to: &roster) == .add(bo))
        #expect(FeedEvent.join(bo).apply(to: &roster) == nil)
        #expect(FeedEvent.leave(id: "p1").apply(to: &roster) == .remove(id: "p1"))
        #expect(FeedEvent.leave(id: "p1").apply(to: &roster) == nil)
        #expect(roster.keys.sorted() == ["p2"])
    }
}
