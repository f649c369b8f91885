import Testing
import WebListRenderer

@Suite("WebListReplica")
struct WebListReplicaTests {
    let a = WebListRow(id: "a", html: "A"), b = WebListRow(id: "b", html: "B"), c = WebListRow(id: "c", html: "C")

    @Test func appliesSnapshotsAndStepsInOrder() {
        var replica = WebListReplica()
        #expect(replica.apply(.snapshot(version: 1, items: [a, b, c])) == .applied)
        #expect(replica.apply(.batch(from: 1, to: 2, steps: [
            .remove(at: 0), .move(from: 1, to: 0), .insert(a, at: 1), .reload(WebListRow(id: "b", html: "B2"), at: 2),
        ])) == .applied)
        #expect(replica.ids == ["c", "a", "b"] && replica.rows[2].html == "B2" && replica.version == 2)
    }

    @Test func batchesNeedASnapshotAndTheRightBase() {
        var replica = WebListReplica()
        #expect(replica.apply(.batch(from: 0, to: 1, steps: [])) == .gap)
        replica.apply(.snapshot(version: 5, items: [a]))
        #expect(replica.apply(.batch(from: 6, to: 7, steps: [])) == .gap)
        #expect(replica.apply(.batch(from: 4, to: 5, steps: [.remove(at: 0)])) == .ignored)
        #expect(replica.apply(.snapshot(version: 4, items: [])) == .ignored)
        #expect(replica.apply(.snapshot(version: 4, items: []), acceptingOlderSnapshot: true) == .applied)
        #expect(replica.version == 4 && replica.rows.isEmpty)
    }

    @Test func inconsistentBatchesChangeNothing() {
        var replica = WebListReplica()
        replica.apply(.snapshot(version: 1, items: [a, b]))
        let before = replica
        for steps: [WebListStep] in [
            [.remove(at: 2)], [.insert(c, at: 3)], [.insert(a, at: 0)], [.move(from: 0, to: 2)],
            [.reload(c, at: 0)], [.remove(at: 0), .remove(at: 0), .remove(at: 0)],
        ] {
            #expect(replica.apply(.batch(from: 1, to: 2, steps: steps)) == .inconsistent, "\(steps)")
            #expect(replica == before)
        }
        #expect(replica.apply(.batch(from: 1, to: 1, steps: [])) == .inconsistent)
        #expect(replica.apply(.snapshot(version: 3, items: [a, a])) == .inconsistent)
        #expect(replica.apply(json: "{") == .inconsistent)
        #expect(replica == before)
    }
}
