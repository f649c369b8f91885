@testable import ListEngine
import ListTestSupport
import Testing

/// The hand-off state machine, driven one event at a time.
@Suite struct MutationPipelineTests {
    @Test("first submit schedules a drain; later ones join it; the drain empties it")
    func pipelineEvents() {
        var pipeline = _MutationPipeline<TestRow>()
        let first = pipeline.submit(.removeAll)
        #expect(first == .scheduleDrain)
        let second = pipeline.submit(.add([TestRow(id: 1, key: 1)]))
        #expect(second == .none)
        let taken = pipeline.takePending()
        #expect(taken?.count == 2)
        let duringDrain = pipeline.submit(.removeAll)
        #expect(duringDrain == .none)  // still draining: this drain picks it up
        let takenAgain = pipeline.takePending()
        #expect(takenAgain?.count == 1)
        let empty = pipeline.takePending()
        #expect(empty == nil)  // now idle
        let afterIdle = pipeline.submit(.removeAll)
        #expect(afterIdle == .scheduleDrain)
    }

    @Test("commands come out in submission order")
    func order() {
        var pipeline = _MutationPipeline<TestRow>()
        for id in 0..<10 { _ = pipeline.submit(.remove([id])) }
        let ids = pipeline.takePending()?.compactMap { command -> Int? in
            if case .remove(let ids) = command { return ids.first }
            return nil
        }
        #expect(ids == Array(0..<10))
    }
}

/// The delivery ledger: what reads see as renderers progress.
@Suite struct DeliveryLedgerTests {
    func snapshot(_ version: Int) -> ListSnapshot<TestRow> {
        var storage = _ListStorage<TestRow>(comparator: .natural)
        storage.add(contentsOf: (0..<version).map { TestRow(id: $0, key: $0) })
        return ListSnapshot(_storage: storage, version: version)
    }

    @Test("reads follow the slowest renderer, and the newest version without renderers")
    func slowestRendererWins() {
        var ledger = _DeliveryLedger<TestRow>(initial: snapshot(0))
        let receivers = ledger.computed(snapshot(1))
        #expect(receivers.isEmpty)
        #expect(ledger.delivered.version == 1)
        let owner = BatchRecorder<TestRow>()
        let fast = ledger.register(renderer: ObjectIdentifier(owner), queue: .global(), deliver: { _ in }).box
        let again = ledger.register(renderer: ObjectIdentifier(owner), queue: .global(), deliver: { _ in })
        #expect(again.box === fast && !again.isNew)  // one renderer object, one attachment
        let slow = ledger.register(renderer: nil, queue: .global(), deliver: { _ in }).box
        let started = ledger.startReceiving(fast.token, attached: snapshot(1)) && ledger.startReceiving(slow.token, attached: snapshot(1))
        #expect(started)
        #expect(ledger.delivered.version == 1)
        let both = ledger.computed(snapshot(2))
        #expect(both.count == 2)
        ledger.rendered(fast.token, snapshot(2))
        ledger.rendered(slow.token, snapshot(1))
        #expect(ledger.delivered.version == 1)
        ledger.rendered(slow.token, snapshot(2))
        #expect(ledger.delivered.version == 2)
        _ = ledger.computed(snapshot(3))
        ledger.rendered(fast.token, snapshot(3))
        #expect(ledger.delivered.version == 2)
        let removed = ledger.unregister(slow.token)
        #expect(removed != nil)  // the laggard leaves
        #expect(ledger.delivered.version == 3)
        let removedAgain = ledger.unregister(slow.token)
        #expect(removedAgain == nil)
        let restarted = ledger.startReceiving(slow.token, attached: snapshot(3))
        #expect(!restarted)
    }
}
