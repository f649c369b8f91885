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

    /// The order of the browser client's `applyMessage`: the type, then a batch's
    /// versions, then its steps.
    @Test func decodedMessagesFollowTheClientsOrderOfChecks() {
        var empty = WebListReplica()
        let undecodableSteps = #"{"type":"batch","from":1,"to":2,"steps":[{"op":"bogus"}]}"#
        #expect(empty.apply(json: undecodableSteps) == .gap)
        var replica = WebListReplica()
        replica.apply(.snapshot(version: 5, items: [a]))
        let before = replica
        #expect(replica.apply(json: #"{"type":"hello","version":6}"#) == .ignored)
        #expect(replica.apply(json: #"{"version":6}"#) == .ignored)
        #expect(replica.apply(json: undecodableSteps) == .ignored)
        #expect(replica.apply(json: #"{"type":"batch","from":7,"to":8,"steps":[{"op":"bogus"}]}"#) == .gap)
        #expect(replica.apply(json: #"{"type":"batch","from":5,"to":6,"steps":[{"op":"bogus"}]}"#) == .inconsistent)
        #expect(replica.apply(json: #"{"type":"batch","from":5,"to":6}"#) == .inconsistent)
        #expect(replica.apply(json: #"{"type":"batch","from":"5","to":6,"steps":[]}"#) == .inconsistent)
        #expect(replica.apply(json: #"{"type":"snapshot","version":4,"items":[{"id":1}]}"#) == .ignored)
        #expect(replica.apply(json: #"{"type":"snapshot","version":6,"items":[{"id":1}]}"#) == .inconsistent)
        #expect(replica.apply(json: #"{"type":"snapshot","items":[]}"#) == .inconsistent)
        #expect(replica.apply(json: "[1]") == .inconsistent)
        // Versions beyond JavaScript's safe integers are malformed, as for the client.
        #expect(replica.apply(json: #"{"type":"snapshot","version":9007199254740993,"items":[]}"#) == .inconsistent)
        #expect(replica.apply(json: #"{"type":"batch","from":5,"to":9007199254740993,"steps":[]}"#) == .inconsistent)
        #expect(replica == before)
        #expect(replica.apply(json: #"{"type":"batch","from":5,"to":6,"steps":[{"op":"remove","at":0}]}"#) == .applied)
        #expect(replica.version == 6 && replica.rows.isEmpty)
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

    // The browser client's rules for the text itself (each outcome is list-client.js's).

    @Test func idsAreComparedByCharacterCodesAsTheClientDoes() {
        var replica = WebListReplica()
        let nfc = WebListRow(id: "\u{E9}", html: "NFC"), nfd = WebListRow(id: "e\u{301}", html: "NFD")
        #expect(nfc.id == nfd.id)  // one string to Swift, two ids to the client
        #expect(replica.apply(.snapshot(version: 1, items: [nfc, nfd])) == .applied)
        #expect(replica.apply(.batch(from: 1, to: 2, steps: [.reload(WebListRow(id: "e\u{301}", html: "NFD2"), at: 0)])) == .inconsistent)
        #expect(replica.apply(.batch(from: 1, to: 2, steps: [.reload(WebListRow(id: "e\u{301}", html: "NFD2"), at: 1)])) == .applied)
        #expect(replica.apply(.batch(from: 2, to: 3, steps: [.insert(WebListRow(id: "\u{E9}", html: "again"), at: 0)])) == .inconsistent)
    }

    @Test func versionsAreReadAsJavaScriptReadsNumbers() {
        for version in ["-9223372036854775808", "9223372036854775807", "9007199254740992", "9007199254740991.5", "1.5", "1e400"] {
            var replica = WebListReplica()
            #expect(replica.apply(json: #"{"type":"snapshot","version":\#(version),"items":[]}"#) == .inconsistent, "version \(version)")
        }
        var replica = WebListReplica()
        #expect(replica.apply(json: #"{"type":"snapshot","version":-9007199254740991,"items":[]}"#) == .applied)
        #expect(replica.apply(json: #"{"type":"batch","from":-9223372036854775808,"to":1,"steps":[]}"#) == .inconsistent)
    }

    @Test func aByteOrderMarkBeforeTheTextIsNotJSON() {
        var replica = WebListReplica()
        #expect(replica.apply(json: "\u{FEFF}{\"type\":\"snapshot\",\"version\":1,\"items\":[]}") == .inconsistent)
        #expect(replica.version == nil)
    }
}
