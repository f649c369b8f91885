import ListTestSupport
import Synchronization
import Testing
import WebListRenderer

@Suite("WebListHub", .serialized, .timeLimit(.minutes(5)))
struct WebListHubTests {
    /// A list at version 1 with `count` rows, the hub attached and its attach batch delivered.
    static func attachedHub(rows count: Int = 50, limits: WebListHub<TestRow>.Limits = .init()) async -> (ListDataSource<TestRow>, WebListHub<TestRow>) {
        let source = ListDataSource((1 ... count).map { TestRow(id: $0, key: $0 % 7, payload: $0) })
        let hub = WebListHub(format: testRowFormat, limits: limits)
        source.attach(hub)
        await source.flush()
        return (source, hub)
    }

    /// One mutation that always changes the list, so each produces exactly one batch.
    static func changeSomething(_ source: ListDataSource<TestRow>, _ random: inout SplitMix64, round: Int) {
        switch round % 3 {
        case 0: source.add(TestRow(id: 10_000 + round, key: random.int(in: 0 ..< 7), payload: round))
        case 1: source.add(TestRow(id: random.int(in: 1 ..< 51), key: 100 + round, payload: round))
        default:
            if let victim = source.snapshot.first { source.remove(ids: [victim.id]) }
        }
    }

    @Test func oneHundredClientsEachGetASnapshotThenEveryBatch() async throws {
        let clientCount = 100, rounds = 60
        let (source, hub) = await Self.attachedHub(limits: .init(messages: 10_000))
        let subscriptions = (0 ..< clientCount).map { _ in hub.subscribe() }
        #expect(hub.statistics.clients == clientCount)
        let target = 1 + rounds
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
        var random = SplitMix64(seed: 7)
        for round in 0 ..< rounds {
            Self.changeSomething(source, &random, round: round)
            await source.flush()
        }
        let final = source.snapshot
        #expect(final.version == target)
        let clients = await results.value
        #expect(clients.count == clientCount)
        for client in clients {
            #expect(client.kinds == [.snapshot] + Array(repeating: .batch, count: rounds))
            #expect(client.replica.version == target)
            #expect(client.replica.rows == wireRows(final))
        }
        #expect(hub.statistics.resets == 0)
        #expect(hub.statistics.batches == rounds)
    }

    @Test func aSlowClientIsResetToASnapshotWithoutHoldingUpTheOthers() async throws {
        let rounds = 40, limit = 8
        let (source, hub) = await Self.attachedHub(limits: .init(messages: limit))
        let slow = hub.subscribe()
        let fast = (0 ..< 99).map { _ in hub.subscribe() }
        var fastIterators = fast.map { $0.makeAsyncIterator() }
        var fastReplicas = [WebListReplica](repeating: WebListReplica(), count: fast.count)
        var random = SplitMix64(seed: 11)
        for round in 0 ..< rounds {
            Self.changeSomething(source, &random, round: round)
            await source.flush()
            // The slow client reads nothing; its queue never exceeds the limit.
            #expect(hub.statistics.longestQueue <= limit)
            // Every fast client reads what was published: exactly one message each round
            // (after the initial snapshot).
            for index in fastIterators.indices {
                if round == 0 {
                    let first = await fastIterators[index].next()
                    #expect(first?.kind == .snapshot)
                    fastReplicas[index].apply(json: first?.json ?? "")
                }
                let frame = await fastIterators[index].next()
                #expect(frame?.kind == .batch && frame?.version == 2 + round)
                #expect(fastReplicas[index].apply(json: frame?.json ?? "") == .applied)
            }
        }
        let final = source.snapshot
        let statistics = hub.statistics
        // The slow client holds its snapshot and 7 batches; every 8th batch resets it
        // (batches 8, 16, 24, 32, 40). The fast clients are never reset.
        #expect(statistics.resets == rounds / limit, "\(statistics)")
        for replica in fastReplicas { #expect(replica.rows == wireRows(final)) }

        // The slow client catches up from a recent snapshot, not from its join version.
        var replica = WebListReplica()
        var kinds: [WebListFrame.Kind] = []
        for await frame in slow {
            kinds.append(frame.kind)
            #expect(replica.apply(json: frame.json) == .applied)
            if replica.version == final.version { break }
        }
        // The last batch reset it, so one snapshot of the final version is all it reads.
        #expect(kinds == [.snapshot])
        #expect(replica.rows == wireRows(final))
    }

    @Test func aHugeBatchResetsClientsOverTheByteLimit() async throws {
        let (source, hub) = await Self.attachedHub(limits: .init(messages: 100, bytes: 2_000))
        let subscription = hub.subscribe()
        source.add((1 ... 200).map { TestRow(id: 5_000 + $0, key: 3, payload: $0) })
        await source.flush()
        #expect(hub.statistics.resets == 1)
        var iterator = subscription.makeAsyncIterator()
        let frame = await iterator.next()
        #expect(frame?.kind == .snapshot && frame?.version == 2)
    }

    @Test func aClientThatJoinsBeforeTheHubIsAttachedWaitsForTheSnapshot() async throws {
        let hub = WebListHub(format: testRowFormat)
        #expect(hub.snapshotFrame() == nil && hub.version == nil)
        let subscription = hub.subscribe()
        let first = Task { () -> WebListFrame? in
            var iterator = subscription.makeAsyncIterator()
            return await iterator.next()
        }
        let source = ListDataSource([TestRow(id: 1, key: 1), TestRow(id: 2, key: 0)])
        source.attach(hub)
        let frame = await first.value
        #expect(frame?.kind == .snapshot)
        #expect(try frame.map { try WebListMessage(json: $0.json) } == .snapshot(version: 1, items: wireRows(source.snapshot)))
        #expect(hub.version == 1)
    }

    @Test func snapshotFramesAreSharedAndCurrent() async throws {
        let (source, hub) = await Self.attachedHub()
        let first = try #require(hub.snapshotFrame())
        #expect(hub.snapshotFrame() == first)
        source.remove(ids: [1])
        await source.flush()
        let second = try #require(hub.snapshotFrame())
        #expect(second.version == 2)
        #expect(try WebListMessage(json: second.json) == testRowFormat.snapshotMessage(for: source.snapshot))
    }

    @Test func cancellingEndsTheSubscriptionAndRemovesTheClient() async throws {
        let (_, hub) = await Self.attachedHub()
        let subscription = hub.subscribe()
        var iterator = subscription.makeAsyncIterator()
        #expect(await iterator.next()?.kind == .snapshot)
        let reader = Task { await iterator.next() }
        subscription.cancel()
        #expect(await reader.value == nil)
        #expect(hub.statistics.clients == 0)
    }

    @Test func cancellingTheReadingTaskRemovesTheClient() async throws {
        let (_, hub) = await Self.attachedHub()
        let subscription = hub.subscribe()
        let reader = Task { () -> Int in
            var count = 0
            for await _ in subscription { count += 1 }
            return count
        }
        // The reader takes the snapshot, then waits; cancel it there or earlier.
        reader.cancel()
        #expect(await reader.value <= 1)
        #expect(hub.statistics.clients == 0)
    }

    @Test func droppingTheSubscriptionRemovesTheClient() async throws {
        let (_, hub) = await Self.attachedHub()
        do {
            let subscription = hub.subscribe()
            #expect(hub.statistics.clients == 1)
            _ = subscription
        }
        #expect(hub.statistics.clients == 0)
    }

    @Test func finishEndsEverySubscription() async throws {
        let (_, hub) = await Self.attachedHub()
        let subscriptions = (0 ..< 5).map { _ in hub.subscribe() }
        let readers = subscriptions.map { subscription in
            Task { () -> Int in
                var count = 0
                for await _ in subscription { count += 1 }
                return count
            }
        }
        hub.finish()
        for reader in readers { #expect(await reader.value <= 1) }
        var late = hub.subscribe().makeAsyncIterator()
        #expect(await late.next() == nil)
    }

    @Test func batchesThatDoNotContinueRestartClientsFromASnapshot() async throws {
        let hub = WebListHub(format: testRowFormat)
        let first = ListDataSource([TestRow(id: 1, key: 1)])
        let token = first.attach(hub)
        await first.flush()
        let subscription = hub.subscribe()
        var iterator = subscription.makeAsyncIterator()
        #expect(await iterator.next()?.version == 1)
        first.detach(token)
        let second = ListDataSource([TestRow(id: 2, key: 2)])
        second.add(TestRow(id: 3, key: 3))
        second.attach(hub)
        await second.flush()
        let frame = await iterator.next()
        #expect(frame?.kind == .snapshot && frame?.version == 2)
    }

    @Test func movedToAListWithLowerVersionsClientsEndWithThatList() async throws {
        let first = await listBuiltOneRowAtATime(ids: 1 ... 4)  // version 4
        let second = ListDataSource([TestRow(id: 101, key: 101)])   // version 1
        let hub = WebListHub(format: testRowFormat)
        let token = first.attach(hub)
        await first.flush()
        var iterator = hub.subscribe().makeAsyncIterator()
        var replica = WebListReplica()
        var versions: [Int] = []
        func readOne() async throws {
            let frame = try #require(await iterator.next())
            versions.append(frame.version)
            #expect(replica.apply(json: frame.json) == .applied, "frame \(frame.json)")
        }
        try await readOne()
        first.detach(token)
        second.attach(hub)
        await second.flush()
        try await readOne()
        for id in 102 ... 106 {
            second.add(TestRow(id: id, key: id))
            await second.flush()
            try await readOne()
        }
        #expect(versions == [4, 5, 6, 7, 8, 9, 10])
        #expect(replica.rows == wireRows(second.snapshot))
        #expect(hub.version == 10)
        let snapshot = try #require(hub.snapshotFrame())
        #expect(snapshot.version == 10)
        var fresh = WebListReplica()
        #expect(fresh.apply(json: snapshot.json) == .applied && fresh.rows == wireRows(second.snapshot))
    }

    @Test func movedFromAnEmptyListToAnotherEmptyListEveryFrameApplies() async throws {
        let first = ListDataSource<TestRow>(), second = ListDataSource<TestRow>()
        let hub = WebListHub(format: testRowFormat)
        let token = first.attach(hub)
        await first.flush()
        var iterator = hub.subscribe().makeAsyncIterator()
        var replica = WebListReplica()
        let snapshot = try #require(await iterator.next())
        #expect(replica.apply(json: snapshot.json) == .applied)
        first.detach(token)
        second.attach(hub)
        await second.flush()
        second.add(TestRow(id: 1, key: 1))
        await second.flush()
        let batch = try #require(await iterator.next())
        #expect(batch.kind == .batch && replica.apply(json: batch.json) == .applied, "\(batch.json)")
        #expect(replica.rows == wireRows(second.snapshot))
        #expect(hub.statistics.batches == 1)
    }

    @Test func movedWhileTheOldListsBatchIsStillRenderingItEndsWithTheNewList() async throws {
        let hold = FormatHold()
        let format = format(holdingRow: 2, at: hold)
        let first = ListDataSource([TestRow(id: 1, key: 1)])  // version 1
        let hub = WebListHub(format: format)
        let token = first.attach(hub)
        await first.flush()
        var iterator = hub.subscribe().makeAsyncIterator()
        var replica = WebListReplica()
        #expect(replica.apply(json: try #require(await iterator.next()).json) == .applied)
        first.add(TestRow(id: 2, key: 2))  // the hub's render of version 2 is held while formatting
        await Task.detached { hold.entered.wait() }.value
        first.detach(token)  // a render already running goes on
        let second = ListDataSource([TestRow(id: 101, key: 101)])  // version 1
        second.attach(hub)
        hold.release.signal()
        await second.flush()
        // The first list's batch (version 2) was published before the second list's
        // snapshot (version 3), which replaced it in the client's queue if still unread.
        #expect(hub.version == 3)
        while replica.version != 3 {
            let frame = try #require(await iterator.next())
            #expect(replica.apply(json: frame.json) == .applied, "\(frame.json)")
        }
        #expect(replica.rows == wireRows(second.snapshot))
        var fresh = WebListReplica()
        #expect(fresh.apply(json: try #require(hub.snapshotFrame()).json) == .applied)
        #expect(fresh.rows == wireRows(second.snapshot))
    }

    @Test func aSnapshotQueuedForManyClientsIsFormattedOnce() async {
        let formatted = Atomic<Int>(0)
        let format = WebListFormat<TestRow>(id: { "r\($0)" }) { row in
            formatted.add(1, ordering: .relaxed)
            return "\(row.key)"
        }
        let rowCount = 100, clientCount = 20
        let source = ListDataSource((1 ... rowCount).map { TestRow(id: $0, key: $0) })
        let hub = WebListHub(format: format)
        source.attach(hub)
        await source.flush()
        // Every client joins at version 1; then the list moves on and version 2 is formatted.
        let subscriptions = (0 ..< clientCount).map { _ in hub.subscribe() }
        source.add(TestRow(id: 1_000, key: 0))
        await source.flush()
        _ = hub.snapshotFrame()
        formatted.store(0, ordering: .relaxed)
        for subscription in subscriptions {
            var frames = subscription.makeAsyncIterator()
            let frame = await frames.next()
            #expect(frame?.kind == .snapshot && frame?.version == 1)
        }
        #expect(formatted.load(ordering: .relaxed) == rowCount, "version 1 formatted \(formatted.load(ordering: .relaxed) / rowCount) times")
        _ = hub.snapshotFrame()
        #expect(formatted.load(ordering: .relaxed) == rowCount)
    }

    /// A batch's rows are formatted and its JSON encoded once, when it is published: the
    /// count does not grow with the number of clients, and every client's frame holds the
    /// very same bytes.
    @Test(arguments: [1, 10, 100])
    func eachBatchIsEncodedOnceWhateverTheNumberOfClients(clientCount: Int) async throws {
        let formatted = Atomic<Int>(0)
        let format = WebListFormat<TestRow>(id: { "r\($0)" }) { row in
            formatted.add(1, ordering: .relaxed)
            return "<b>\(row.key)</b> \(row.payload)"
        }
        let rounds = 20
        let source = ListDataSource((1 ... 50).map { TestRow(id: $0, key: $0 * 10) })
        let hub = WebListHub(format: format, limits: .init(messages: 1_000))
        source.attach(hub)
        await source.flush()
        var clients = (0 ..< clientCount).map { _ in hub.subscribe().makeAsyncIterator() }
        for index in clients.indices {
            let snapshot = await clients[index].next()
            #expect(snapshot?.kind == .snapshot)
        }
        formatted.store(0, ordering: .relaxed)
        // Each round adds one row: one insert step, one row to format.
        for round in 1 ... rounds {
            source.add(TestRow(id: 1_000 + round, key: round * 7, payload: round))
            await source.flush()
        }
        #expect(formatted.load(ordering: .relaxed) == rounds, "\(formatted.load(ordering: .relaxed)) rows formatted for \(rounds) one-row batches")
        var published: [Int: (frame: WebListFrame, bytes: UInt)] = [:]
        for index in clients.indices {
            for _ in 1 ... rounds {
                let frame = try #require(await clients[index].next())
                #expect(frame.kind == .batch)
                let bytes = try #require(frame.json.utf8.withContiguousStorageIfAvailable { UInt(bitPattern: $0.baseAddress) })
                if let first = published[frame.version] {
                    #expect(frame == first.frame)
                    #expect(bytes == first.bytes, "client \(index) got its own copy of the batch to v\(frame.version)")
                } else {
                    published[frame.version] = (frame, bytes)
                }
            }
        }
        #expect(published.count == rounds)
        #expect(formatted.load(ordering: .relaxed) == rounds, "reading the batches formatted rows again")
        #expect(hub.statistics.batches == rounds)
        #expect(hub.statistics.resets == 0)
    }

    @Test func aClientStaysConsistentWhenAnIDChangesSpellingWithoutABatchStep() async {
        typealias Row = DataSourceItem<String>
        let list = ListDataSource<Row>()
        let hub = WebListHub<Row>(format: WebListFormat<Row> { item in "\(item.value)" })
        list.attach(hub)
        list.add([Row(uid: "\u{E9}", value: "v1", index: 1), Row(uid: "z", value: "Z", index: 2)])
        await list.flush()
        let subscription = hub.subscribe()
        var frames = subscription.makeAsyncIterator()
        var replica = WebListReplica()
        #expect(replica.apply(json: await frames.next()!.json) == .applied)
        // A remove and an equal re-add under the other spelling, taken together: no step
        // for the row, which the list now holds under the new spelling.
        let hold = DiffQueueHold()
        list.sort(by: { hold.holdOnce(); return $0 < $1 })
        hold.entered.wait()
        list.remove(ids: ["\u{E9}"])
        list.add(Row(uid: "e\u{301}", value: "v1", index: 1))
        list.add(Row(uid: "y", value: "Y", index: 3))
        hold.release.signal()
        await list.flush()
        list.add(Row(uid: "e\u{301}", value: "v2", index: 1))
        await list.flush()
        while replica.version != hub.version, let frame = await frames.next() {
            let outcome = replica.apply(json: frame.json)
            #expect(outcome == .applied, "\(frame.json)")
            if outcome != .applied { break }
        }
        #expect(replica.rows.map(\.html) == ["v2", "Z", "Y"])
        subscription.cancel()
    }
}
