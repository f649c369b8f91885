#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import ListTestSupport
import Testing
@testable import ListEngine

/// The threads that run the parts of bulk edits (run under ThreadSanitizer in CI).
@Suite struct BulkThreadsTests {
    /// A number for the calling thread, equal for equal threads.
    static func currentThread() -> UInt {
        #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
        #else
        UInt(pthread_self())
        #endif
    }

    @Test("each part runs once, on a thread of its own, and the same few threads serve call after call")
    func partsRunOnTheSameThreads() {
        let threads = _BulkThreads()
        // Locks held in objects, not in variables the parts would capture by reference.
        let seen = LockedState<[[UInt]]>([])
        for call in 0 ..< 50 {
            let parts = call % 2 == 0 ? 2 : 3
            let ran = LockedState<[UInt?]>(Array(repeating: nil, count: parts))
            let accepted = threads.run(parts) { part in
                ran.withLock { $0[part] = Self.currentThread() }
            }
            #expect(accepted)
            let callThreads = ran.withLock { $0 }
            #expect(callThreads.allSatisfy { $0 != nil }, "a part did not run before the call returned")
            #expect(Set(callThreads.compactMap { $0 }).count == parts, "two parts shared a thread")
            seen.withLock { $0.append(callThreads.compactMap { $0 }) }
        }
        let all = seen.withLock { Set($0.joined()) }
        #expect(all.count == _BulkThreads.capacity)
        #expect(!all.contains(Self.currentThread()))
    }

    @Test("with the caller running the first part, the others run on the bulk threads, each once")
    func callerRunsTheFirstPart() {
        let threads = _BulkThreads()
        let caller = Self.currentThread()
        for call in 0 ..< 30 {
            let parts = call % 2 == 0 ? 2 : 3
            let ran = LockedState<[[UInt]]>(Array(repeating: [], count: parts))
            let accepted = threads.run(parts, callerRunsFirstPart: true) { part in
                ran.withLock { $0[part].append(Self.currentThread()) }
            }
            #expect(accepted)
            let callThreads = ran.withLock { $0 }
            #expect(callThreads.allSatisfy { $0.count == 1 }, "a part did not run exactly once: \(callThreads)")
            #expect(callThreads[0] == [caller], "the first part ran elsewhere than on the caller")
            #expect(callThreads.dropFirst().allSatisfy { $0.first != caller }, "a later part ran on the caller")
            #expect(Set(callThreads.joined()).count == parts, "two parts shared a thread")
        }
    }

    @Test("a call made while another holds the threads does not wait for them, and more parts than threads run elsewhere")
    func busyThreadsAreNotWaitedFor() {
        let threads = _BulkThreads()
        let holding = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let second = LockedState<Bool?>(nil)
        DispatchQueue.global().async {
            _ = threads.run(2) { part in
                if part == 0 {
                    holding.signal()
                    release.wait()
                }
            }
        }
        holding.wait()
        let acceptedWhileBusy = threads.run(2) { _ in }
        second.withLock { $0 = acceptedWhileBusy }
        release.signal()
        #expect(second.withLock { $0 } == false)
        let acceptedTooMany = threads.run(_BulkThreads.capacity + 1) { _ in }
        #expect(!acceptedTooMany)

        // `_forEachConcurrently` still runs every part when the shared threads are taken.
        let done = LockedState(0)
        _forEachConcurrently(_BulkThreads.capacity + 1) { _ in done.withLock { $0 += 1 } }
        #expect(done.withLock { $0 } == _BulkThreads.capacity + 1)
    }

    @Test("four lists edited in bulk at once, taking turns at the shared threads, each ends with its own rows")
    func listsEditedInBulkAtOnce() async {
        await withTaskGroup(of: Bool.self) { group in
            for list in 0 ..< 4 {
                group.addTask {
                    await Self.endsWithItsRows(count: 20_000, seed: UInt64(300 + list), rounds: 4, adding: 1_500, removing: 400, idsBelow: 25_000)
                }
            }
            for await matches in group { #expect(matches) }
        }
    }

    @Test("a large list's bulk edits, their ids hashed on two threads and written into the id overlay beside a sort, leave its rows")
    func largeListEditedThroughItsIDOverlay() async {
        // 80,000 rows take an id overlay (from 65,536) of up to 5,000 ids; an `add` of
        // 4,200 items is hashed on two threads (from 4,096), and the first round writes
        // into the empty overlay beside the sort of the items to place.
        #expect(await Self.endsWithItsRows(count: 80_000, seed: 310, rounds: 3, adding: 4_200, removing: 300, idsBelow: 99_000))
    }

    /// Whether a list of `count` rows, after `rounds` rounds of bulk edits, holds the rows
    /// they should leave, and a renderer replaying its batches shows them.
    static func endsWithItsRows(count: Int, seed: UInt64, rounds: Int, adding: Int, removing: Int, idsBelow idLimit: Int) async -> Bool {
        var edits = BulkEditRounds(count: count, seed: seed)
        let source = ListDataSource(Array(edits.expected.values))
        let recorder = BatchRecorder<TestRow>()
        source.attach(recorder)
        for _ in 0 ..< rounds {
            await edits.round(on: source, adding: adding, removing: removing, idsBelow: idLimit)
        }
        let final = await source.flush()
        return Array(final) == edits.rows && recorder.replayedRows() == Array(final)
    }
}

