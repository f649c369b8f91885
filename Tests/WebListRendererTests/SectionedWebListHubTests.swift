import ListTestSupport
import Testing
import WebListRenderer

@Suite("SectionedWebListHub", .serialized, .timeLimit(.minutes(5)))
struct SectionedWebListHubTests {
    /// One mutation that always changes the list, often moving a row to another section.
    static func changeSomething(_ list: SectionedListDataSource<Int, TestRow>, _ random: inout SplitMix64, round: Int) {
        switch round % 3 {
        case 0: list.add(TestRow(id: 10_000 + round, key: random.int(in: 0 ..< 12), payload: round))
        case 1:
            if let row = list.snapshot.rows.randomElement(using: &random) { list.add(TestRow(id: row.id, key: (row.key + 4) % 12, payload: round)) }
        default:
            if let victim = list.snapshot.rows.first { list.remove(ids: [victim.id]) }
        }
    }

    @Test func clientsGetASectionedSnapshotThenEveryBatch() async throws {
        let list = sectionedTestList()
        list.add((1 ... 20).map { TestRow(id: $0, key: $0 % 12) })
        let hub = SectionedWebListHub(format: testSectionedFormat, limits: .init(messages: 1_000))
        list.attach(hub)
        _ = await list.flush()
        let rounds = 30, target = 1 + rounds
        let subscriptions = (0 ..< 10).map { _ in hub.subscribe() }
        let results = Task {
            await withTaskGroup(of: (kinds: [WebListFrame.Kind], replica: WebListReplica).self) { group in
                for subscription in subscriptions {
                    group.addTask {
                        var kinds: [WebListFrame.Kind] = []
                        var replica = WebListReplica()
                        for await frame in subscription {
                            kinds.append(frame.kind)
                            guard replica.apply(json: frame.json) == .applied else { break }
                            if replica.version == target { break }
                        }
                        return (kinds, replica)
                    }
                }
                var results: [(kinds: [WebListFrame.Kind], replica: WebListReplica)] = []
                for await result in group { results.append(result) }
                return results
            }
        }
        var random = SplitMix64(seed: 3)
        for round in 0 ..< rounds {
            Self.changeSomething(list, &random, round: round)
            _ = await list.flush()
        }
        let final = list.snapshot
        #expect(final.version == target)
        for client in await results.value {
            #expect(client.kinds == [.snapshot] + Array(repeating: .batch, count: rounds))
            #expect(client.replica.sections == wireSections(final))
        }
        #expect(hub.statistics.batches == rounds && hub.statistics.resets == 0)
        #expect(hub.snapshotFrame()?.json == testSectionedFormat.snapshotMessage(for: final).json)
        #expect(hub.version == target)
        hub.finish()
    }

    @Test func aSlowClientIsResetToASectionedSnapshot() async throws {
        let list = sectionedTestList()
        list.add((1 ... 20).map { TestRow(id: $0, key: $0 % 12) })
        let hub = SectionedWebListHub(format: testSectionedFormat, limits: .init(messages: 4))
        list.attach(hub)
        _ = await list.flush()
        let slow = hub.subscribe()
        var random = SplitMix64(seed: 5)
        for round in 0 ..< 12 {
            Self.changeSomething(list, &random, round: round)
            _ = await list.flush()
        }
        #expect(hub.statistics.resets >= 1)
        var iterator = slow.makeAsyncIterator()
        let frame = try #require(await iterator.next())
        #expect(frame.kind == .snapshot && frame.version == list.snapshot.version)
        var replica = WebListReplica()
        #expect(replica.apply(json: frame.json) == .applied)
        #expect(replica.sections == wireSections(list.snapshot))
        // Then it follows batch by batch again.
        Self.changeSomething(list, &random, round: 0)
        _ = await list.flush()
        let next = try #require(await iterator.next())
        #expect(next.kind == .batch && replica.apply(json: next.json) == .applied)
        #expect(replica.sections == wireSections(list.snapshot))
        slow.cancel()
        #expect(hub.statistics.clients == 0)
    }
}
