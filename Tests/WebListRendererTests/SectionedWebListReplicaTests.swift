import ListTestSupport
import Testing
import WebListRenderer

@Suite("SectionedWebListReplica")
struct SectionedWebListReplicaTests {
    let a = WebListRow(id: "a", html: "A"), b = WebListRow(id: "b", html: "B"), c = WebListRow(id: "c", html: "C")
    func path(_ section: Int, _ item: Int) -> ListIndexPath { ListIndexPath(section: section, item: item) }

    @Test func appliesSectionedSnapshotsAndStepsInOrder() {
        var replica = WebListReplica()
        #expect(replica.apply(.sectionedSnapshot(version: 1, sections: [
            WebListSection(key: "x", title: "X", items: [a, b]), WebListSection(key: "y", title: "Y", items: [c]),
        ])) == .applied)
        #expect(replica.ids == ["a", "b", "c"] && replica.sections?.count == 2)
        #expect(replica.apply(.sectionedBatch(from: 1, to: 2, steps: [
            .insertSection(key: "w", title: "W", at: 0),                 // w[] x[a b] y[c]
            .move(from: path(1, 1), to: path(0, 0)),                     // w[b] x[a] y[c]
            .remove(at: path(1, 0)),                                     // w[b] x[] y[c]
            .removeSection(at: 1),                                       // w[b] y[c]
            .insert(a, at: path(1, 1)),                                  // w[b] y[c a]
            .reload(WebListRow(id: "c", html: "C2"), at: path(1, 0)),
        ])) == .applied)
        #expect(replica.version == 2)
        #expect(replica.sections == [
            WebListSection(key: "w", title: "W", items: [b]),
            WebListSection(key: "y", title: "Y", items: [WebListRow(id: "c", html: "C2"), a]),
        ])
        #expect(replica.ids == ["b", "c", "a"])
    }

    /// The sectioned example of the WireFormat article.
    @Test func theWireFormatArticlesSectionedExampleApplies() {
        var replica = WebListReplica()
        #expect(replica.apply(json: #"{"type":"snapshot","version":1,"sections":[{"key":"gold","title":"Gold","items":[{"id":"a","html":"Ann"},{"id":"c","html":"Cy"}]},{"key":"silver","title":"Silver","items":[{"id":"b","html":"Bo"}]}]}"#) == .applied)
        #expect(replica.apply(json: #"{"type":"batch","from":1,"to":2,"sectioned":true,"steps":[{"op":"insertSection","at":2,"key":"bronze","title":"Bronze"},{"op":"move","from":[1,0],"to":[0,1]},{"op":"move","from":[0,2],"to":[2,0]},{"op":"removeSection","at":1}]}"#) == .applied)
        #expect(replica.sections == [
            WebListSection(key: "gold", title: "Gold", items: [WebListRow(id: "a", html: "Ann"), WebListRow(id: "b", html: "Bo")]),
            WebListSection(key: "bronze", title: "Bronze", items: [WebListRow(id: "c", html: "Cy")]),
        ])
    }

    @Test func inconsistentSectionedBatchesChangeNothing() {
        var replica = WebListReplica()
        replica.apply(.sectionedSnapshot(version: 1, sections: [WebListSection(key: "x", title: "X", items: [a, b])]))
        let before = replica
        for steps: [WebListSectionedStep] in [
            [.removeSection(at: 0)],                                    // not empty
            [.removeSection(at: 1)],
            [.insertSection(key: "x", title: "again", at: 1)],          // duplicate key
            [.insertSection(key: "z", title: "Z", at: 2)],
            [.remove(at: path(0, 2))], [.remove(at: path(1, 0))],
            [.insert(c, at: path(0, 3))], [.insert(a, at: path(0, 0))], [.insert(c, at: path(1, 0))],
            [.move(from: path(0, 0), to: path(0, 2))], [.move(from: path(0, 0), to: path(1, 0))],
            [.reload(c, at: path(0, 0))], [.reload(a, at: path(0, 1))],
            [.remove(at: path(0, 0)), .remove(at: path(0, 0)), .remove(at: path(0, 0))],
        ] {
            #expect(replica.apply(.sectionedBatch(from: 1, to: 2, steps: steps)) == .inconsistent, "\(steps)")
            #expect(replica == before)
        }
        // A flat batch does not apply to a sectioned list, nor a sectioned one to a flat list.
        #expect(replica.apply(.batch(from: 1, to: 2, steps: [])) == .inconsistent)
        #expect(replica.apply(json: #"{"type":"batch","from":1,"to":2,"steps":[]}"#) == .inconsistent)
        #expect(replica.apply(.sectionedSnapshot(version: 3, sections: [WebListSection(key: "x", title: "X", items: [a]), WebListSection(key: "y", title: "Y", items: [a])])) == .inconsistent)
        #expect(replica.apply(.sectionedSnapshot(version: 3, sections: [WebListSection(key: "x", title: "X", items: []), WebListSection(key: "x", title: "Y", items: [])])) == .inconsistent)
        #expect(replica == before)
        var flat = WebListReplica()
        flat.apply(.snapshot(version: 1, items: [a]))
        #expect(flat.apply(.sectionedBatch(from: 1, to: 2, steps: [])) == .inconsistent)
        #expect(flat.apply(json: #"{"type":"batch","from":1,"to":2,"sectioned":true,"steps":[]}"#) == .inconsistent)
        // A snapshot changes the kind of list either way.
        #expect(flat.apply(.sectionedSnapshot(version: 2, sections: [])) == .applied)
        #expect(flat.sections == [] && flat.rows.isEmpty)
        #expect(flat.apply(.snapshot(version: 3, items: [a])) == .applied)
        #expect(flat.sections == nil && flat.ids == ["a"])
    }

    @Test func sectionedBatchesFollowTheVersionRules() {
        var replica = WebListReplica()
        #expect(replica.apply(.sectionedBatch(from: 0, to: 1, steps: [])) == .gap)
        #expect(replica.apply(json: #"{"type":"batch","from":0,"to":1,"sectioned":true,"steps":[{"op":"bogus"}]}"#) == .gap)
        replica.apply(.sectionedSnapshot(version: 5, sections: []))
        #expect(replica.apply(.sectionedBatch(from: 6, to: 7, steps: [])) == .gap)
        #expect(replica.apply(.sectionedBatch(from: 4, to: 5, steps: [.removeSection(at: 0)])) == .ignored)
        #expect(replica.apply(.sectionedSnapshot(version: 4, sections: [])) == .ignored)
        #expect(replica.apply(.sectionedSnapshot(version: 4, sections: []), acceptingOlderSnapshot: true) == .applied)
        #expect(replica.apply(json: #"{"type":"snapshot","version":6,"sections":[{"key":"k"}]}"#) == .inconsistent)
        #expect(replica.apply(json: #"{"type":"snapshot","version":6,"sections":[{"key":"k","title":"K","items":[]}]}"#) == .applied)
        #expect(replica.sections == [WebListSection(key: "k", title: "K", items: [])])
    }

    /// Random mutations of a sectioned list → a sectioned renderer's frames → a replica
    /// applying the JSON of every frame equals the list, section by section; with frames
    /// sometimes lost, the replica reports the gap and a snapshot brings it back
    /// (500 seeds).
    @Test func replayingRandomSectionedBatchesGivesTheList() async throws {
        for seed in UInt64(1) ... 500 {
            var mutator = RandomMutator(seed: seed)
            var random = SplitMix64(seed: seed &* 7_919)
            let list = sectionedTestList()
            let log = FrameLog()
            let renderer = SectionedWebListRenderer(format: testSectionedFormat, send: log.append)
            list.attach(renderer)
            var history: [String] = []
            var replica = WebListReplica()
            var lossy = WebListReplica()
            var taken = 0
            for round in 0 ..< 24 {
                history.append(mutator.mutate(list.rows, known: Array(list.rows.snapshot)))
                // Sometimes let mutations coalesce, sometimes force a batch boundary.
                if round % 2 == 0 || random.chance(0.3) {
                    let snapshot = await list.flush()
                    let frames = log.all[taken...]
                    taken = log.all.count
                    for frame in frames {
                        let outcome = replica.apply(json: frame.json)
                        try #require(outcome == .applied, "seed \(seed): \(frame.json) was \(outcome); mutations \(history)")
                        // The lossy replica misses a frame now and then.
                        if random.chance(0.1) { continue }
                        switch lossy.apply(json: frame.json) {
                        case .applied, .ignored: break
                        case .gap:
                            let resync = try #require(renderer.snapshotFrame())
                            #expect(lossy.apply(json: resync.json, acceptingOlderSnapshot: true) == .applied, "seed \(seed)")
                        case .inconsistent:
                            Issue.record("seed \(seed): \(frame.json) is inconsistent for the lossy replica")
                        }
                    }
                    #expect(replica.sections == wireSections(snapshot), "seed \(seed): mutations \(history)")
                    #expect(replica.rows == wireRows(snapshot.rows), "seed \(seed)")
                    #expect(replica.version == snapshot.version, "seed \(seed)")
                }
            }
            let final = await list.flush()
            for frame in log.all[taken...] { replica.apply(json: frame.json) }
            #expect(replica.sections == wireSections(final), "seed \(seed): mutations \(history)")
            if let resync = renderer.snapshotFrame(), lossy.version != final.version {
                lossy.apply(json: resync.json, acceptingOlderSnapshot: true)
            }
            #expect(lossy.sections == wireSections(final), "seed \(seed): the lossy replica after a snapshot")
        }
    }
}
