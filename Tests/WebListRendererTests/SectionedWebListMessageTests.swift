import Foundation
import ListTestSupport
import Testing
import WebListRenderer

@Suite("SectionedWebListMessage")
struct SectionedWebListMessageTests {
    let gold = WebListSection(key: "gold", title: "Gold <&>", items: [WebListRow(id: "a", html: "<b>A</b>"), WebListRow(id: "b", html: "B")])
    let silver = WebListSection(key: "silver", title: "Silver", items: [])

    @Test func sectionedSnapshotEncodesWithFixedKeyOrder() {
        let message = WebListMessage.sectionedSnapshot(version: 7, sections: [gold, silver])
        #expect(message.json == #"{"type":"snapshot","version":7,"sections":[{"key":"gold","title":"Gold <&>","items":[{"id":"a","html":"<b>A</b>"},{"id":"b","html":"B"}]},{"key":"silver","title":"Silver","items":[]}]}"#)
        #expect(WebListMessage.sectionedSnapshot(version: 0, sections: []).json == #"{"type":"snapshot","version":0,"sections":[]}"#)
        #expect(message.version == 7)
    }

    @Test func sectionedBatchEncodesEveryStepKind() throws {
        let message = WebListMessage.sectionedBatch(from: 7, to: 8, steps: [
            .remove(at: ListIndexPath(section: 0, item: 3)),
            .insertSection(key: "gold", title: "Gold", at: 1),
            .move(from: ListIndexPath(section: 0, item: 1), to: ListIndexPath(section: 1, item: 0)),
            .removeSection(at: 2),
            .insert(WebListRow(id: "x", html: "<i>x</i>"), at: ListIndexPath(section: 1, item: 1)),
            .reload(WebListRow(id: "y", html: "Y"), at: ListIndexPath(section: 0, item: 0)),
        ])
        #expect(message.json == #"{"type":"batch","from":7,"to":8,"sectioned":true,"steps":[{"op":"remove","at":[0,3]},{"op":"insertSection","at":1,"key":"gold","title":"Gold"},{"op":"move","from":[0,1],"to":[1,0]},{"op":"removeSection","at":2},{"op":"insert","at":[1,1],"id":"x","html":"<i>x</i>"},{"op":"reload","at":[0,0],"id":"y","html":"Y"}]}"#)
        #expect(message.version == 8)
        // An empty sectioned batch keeps its marker, so it decodes as what it is.
        let empty = WebListMessage.sectionedBatch(from: 1, to: 2, steps: [])
        #expect(empty.json == #"{"type":"batch","from":1,"to":2,"sectioned":true,"steps":[]}"#)
        #expect(try WebListMessage(json: empty.json) == empty)
    }

    /// Random messages of both kinds survive encoding and decoding (seeded, 300 seeds).
    @Test func decodingIsTheInverseOfEncoding() throws {
        for seed in UInt64(1) ... 300 {
            var random = SplitMix64(seed: seed)
            func row() -> WebListRow {
                let id = random.int(in: 0 ..< 50)
                return WebListRow(id: "r\(id) \(trickyLabels[id % trickyLabels.count])", html: "<em>\(trickyLabels[random.int(in: 0 ..< trickyLabels.count)])</em>")
            }
            func path() -> ListIndexPath { ListIndexPath(section: random.int(in: 0 ..< 6), item: random.int(in: 0 ..< 40)) }
            let message: WebListMessage
            if random.chance(0.4) {
                let sections = (0 ..< random.int(in: 0 ..< 5)).map { index in
                    WebListSection(key: "k\(index) \(trickyLabels[index])", title: trickyLabels[random.int(in: 0 ..< trickyLabels.count)], items: (0 ..< random.int(in: 0 ..< 4)).map { _ in row() })
                }
                message = .sectionedSnapshot(version: random.int(in: -5 ..< 1_000_000), sections: sections)
            } else {
                let steps: [WebListSectionedStep] = (0 ..< random.int(in: 0 ..< 9)).map { _ in
                    switch random.int(in: 0 ..< 6) {
                    case 0: .insertSection(key: trickyLabels[random.int(in: 0 ..< trickyLabels.count)], title: "T \(random.int(in: 0 ..< 9))", at: random.int(in: 0 ..< 5))
                    case 1: .removeSection(at: random.int(in: 0 ..< 5))
                    case 2: .remove(at: path())
                    case 3: .insert(row(), at: path())
                    case 4: .move(from: path(), to: path())
                    default: .reload(row(), at: path())
                    }
                }
                let from = random.int(in: 0 ..< 1_000)
                message = .sectionedBatch(from: from, to: from + 1 + random.int(in: 0 ..< 3), steps: steps)
            }
            let json = message.json
            #expect(!json.contains("\n"), "seed \(seed): a message is one line")
            #expect(try WebListMessage(json: json) == message, "seed \(seed): \(json)")
            // Foundation's parser agrees with the encoding.
            #expect((try? JSONSerialization.jsonObject(with: Data(json.utf8))) != nil, "seed \(seed)")
            let frame = WebListFrame(message)
            #expect(frame.version == message.version && frame.json == json, "seed \(seed)")
            if case .sectionedSnapshot = message {
                #expect(frame.kind == .snapshot && frame.fromVersion == nil, "seed \(seed)")
            } else {
                #expect(frame.kind == .batch && frame.fromVersion != nil, "seed \(seed)")
            }
        }
    }

    @Test func decodingAcceptsAnyKeyOrderAndWhitespace() throws {
        let batch = #"{ "steps": [ {"to": [1, 0], "op": "move", "from": [0, 2]}, {"title": "G", "at": 0, "key": "g", "op": "insertSection"} ], "sectioned": true, "to": 3, "type": "batch", "from": 2 }"#
        #expect(try WebListMessage(json: batch) == .sectionedBatch(from: 2, to: 3, steps: [
            .move(from: ListIndexPath(section: 0, item: 2), to: ListIndexPath(section: 1, item: 0)),
            .insertSection(key: "g", title: "G", at: 0),
        ]))
        let snapshot = #"{"sections":[{"items":[{"html":"A","id":"a"}],"title":"G","key":"g"}],"version":4,"type":"snapshot"}"#
        #expect(try WebListMessage(json: snapshot) == .sectionedSnapshot(version: 4, sections: [
            WebListSection(key: "g", title: "G", items: [WebListRow(id: "a", html: "A")]),
        ]))
    }

    /// Without `"sectioned":true` a batch is flat, and a snapshot without a `sections`
    /// array is flat: flat messages read as they always did.
    @Test func flatMessagesStayFlat() throws {
        #expect(try WebListMessage(json: #"{"type":"batch","from":1,"to":2,"steps":[{"op":"remove","at":0}]}"#) == .batch(from: 1, to: 2, steps: [.remove(at: 0)]))
        #expect(try WebListMessage(json: #"{"type":"batch","from":1,"to":2,"sectioned":false,"steps":[]}"#) == .batch(from: 1, to: 2, steps: []))
        #expect(try WebListMessage(json: #"{"type":"snapshot","version":1,"items":[],"sections":null}"#) == .snapshot(version: 1, items: []))
    }

    @Test func malformedSectionedMessagesThrowAndSayWhere() {
        func error(_ json: String) -> WebListMessageError? {
            do {
                _ = try WebListMessage(json: json)
                return nil
            } catch {
                return error
            }
        }
        #expect(error(#"{"type":"batch","from":1,"to":2,"sectioned":true,"steps":[{"op":"remove","at":3}]}"#)?.path == "steps[0].at")
        #expect(error(#"{"type":"batch","from":1,"to":2,"sectioned":true,"steps":[{"op":"remove","at":[1,2,3]}]}"#)?.path.hasPrefix("steps[0].at") == true)
        #expect(error(#"{"type":"batch","from":1,"to":2,"sectioned":true,"steps":[{"op":"insertSection","at":0,"key":"k"}]}"#)?.description.contains("title") == true)
        #expect(error(#"{"type":"batch","from":1,"to":2,"sectioned":true,"steps":[{"op":"jump","at":[0,0]}]}"#)?.path == "steps[0].op")
        #expect(error(#"{"type":"snapshot","version":1,"sections":[{"key":"k","items":[]}]}"#)?.description.contains("sections[0]") == true)
        #expect(error(#"{"type":"snapshot","version":1,"sections":[{"key":"k","title":"K","items":[{"id":"a"}]}]}"#)?.description.contains("sections[0].items[0]") == true)
        #expect(error(#"{"type":"snapshot","version":1,"sections":[{"key":"k","title":"K","items":[]}]}"#) == nil)
    }

    @Test func describableSectionKeysNeedNoClosures() async {
        let format = SectionedWebListFormat<Int, TestRow>(rows: testRowFormat)
        #expect(format.sectionKey(42) == "42" && format.sectionTitle(42) == "42")
        let list = sectionedTestList()
        list.add([TestRow(id: 1, key: 7)])
        let snapshot = await list.flush()
        #expect(format.snapshotMessage(for: snapshot) == .sectionedSnapshot(version: 1, sections: [
            WebListSection(key: "2", title: "2", items: [testRowFormat.row(TestRow(id: 1, key: 7))]),
        ]))
    }

    @Test func theFormatMakesSectionedMessagesFromTheEngine() async throws {
        let list = sectionedTestList()
        let recorder = SectionedBatchRecorder<Int, TestRow>()
        list.add([TestRow(id: 1, key: 0), TestRow(id: 2, key: 4), TestRow(id: 3, key: 5)])
        list.attach(recorder)
        _ = await list.flush()
        list.add(TestRow(id: 1, key: 7))  // section 0 → 2: its section goes, another comes
        let snapshot = await list.flush()
        let batches = recorder.batches
        try #require(batches.count == 2)
        #expect(testSectionedFormat.snapshotMessage(for: batches[0].new) == .sectionedSnapshot(version: 1, sections: [
            WebListSection(key: "s0", title: testSectionedFormat.sectionTitle(0), items: [testRowFormat.row(TestRow(id: 1, key: 0))]),
            WebListSection(key: "s1", title: testSectionedFormat.sectionTitle(1), items: [testRowFormat.row(TestRow(id: 2, key: 4)), testRowFormat.row(TestRow(id: 3, key: 5))]),
        ]))
        #expect(testSectionedFormat.snapshotMessage(for: snapshot) == .sectionedSnapshot(version: 2, sections: wireSections(snapshot)))
        let message = testSectionedFormat.message(for: batches[1])
        guard case .sectionedBatch(1, 2, let steps) = message else {
            Issue.record("not a sectioned batch from 1 to 2: \(message)")
            return
        }
        #expect(steps.contains(.insertSection(key: "s2", title: testSectionedFormat.sectionTitle(2), at: 2)))
        #expect(steps.contains { if case .removeSection = $0 { true } else { false } })
        #expect(steps.contains { if case .move = $0 { true } else { false } })
        var replica = WebListReplica()
        #expect(replica.apply(testSectionedFormat.snapshotMessage(for: batches[0].new)) == .applied)
        #expect(replica.apply(message) == .applied)
        #expect(replica.sections == wireSections(snapshot))
    }
}

/// A flat list's messages are byte for byte what they were before sections existed:
/// no `sections` member, no `sectioned` marker, index offsets as plain numbers.
@Suite("Flat WebListMessage bytes")
struct FlatWebListMessageBytesTests {
    @Test func aFlatRendererWritesTheFlatFormat() async throws {
        let format = WebListFormat<TestRow>(id: { "r\($0)" }) { row in "<b>\(row.key)</b>" }
        let source = ListDataSource([TestRow(id: 1, key: 5), TestRow(id: 2, key: 1)])
        let log = FrameLog()
        source.attach(WebListRenderer(format: format, send: log.append))
        _ = await source.flush()
        source.replaceAll(with: [TestRow(id: 3, key: 3), TestRow(id: 1, key: 0)])  // one batch
        _ = await source.flush()
        #expect(log.all.map(\.json) == [
            #"{"type":"snapshot","version":1,"items":[{"id":"r2","html":"<b>1</b>"},{"id":"r1","html":"<b>5</b>"}]}"#,
            #"{"type":"batch","from":1,"to":2,"steps":[{"op":"remove","at":0},{"op":"insert","at":1,"id":"r3","html":"<b>3</b>"},{"op":"reload","at":0,"id":"r1","html":"<b>0</b>"}]}"#,
        ])
    }
}
