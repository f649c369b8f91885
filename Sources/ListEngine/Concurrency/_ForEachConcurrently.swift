#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch

/// Runs `body(0)`, …, `body(parts - 1)`, on separate threads when `parts > 1`, and
/// returns when all are done.
///
/// Parts run on the process's ``_BulkThreads`` when they are free (another list's bulk
/// edit or build may hold them, or this call may come from a part running there),
/// otherwise on the calling thread and dispatch's pool. With `callerRunsFirstPart`, the
/// calling thread runs part 0 itself, and the bulk threads the others: one thread fewer
/// to wake, for parts that allocate nothing that outlives the edit (a leaf a part
/// allocates belongs to that thread's arena, see ``_BulkThreads``).
@inlinable func _forEachConcurrently(_ parts: Int, callerRunsFirstPart: Bool = false, _ body: @Sendable (Int) -> Void) {
    if parts == 1 {
        body(0)
    } else if !_BulkThreads.shared.run(parts, callerRunsFirstPart: callerRunsFirstPart, body) {
        DispatchQueue.concurrentPerform(iterations: parts, execute: body)
    }
}

/// `first()` followed by `second()`: on two threads (see
/// ``_forEachConcurrently(_:callerRunsFirstPart:_:)``, where `first` is part 0) when
/// `concurrently`, one after the other otherwise.
///
/// - Complexity: that of the two bodies, plus copying the second's result once.
@inlinable func _joinedConcurrently<Element: Sendable>(
    _ first: @Sendable () -> [Element], _ second: @Sendable () -> [Element], concurrently: Bool = true, callerRunsFirstPart: Bool = false
) -> [Element] {
    guard concurrently else {
        var joined = first()
        joined.append(contentsOf: second())
        return joined
    }
    let halves = LockedState<[[Element]]>([[], []])
    _forEachConcurrently(2, callerRunsFirstPart: callerRunsFirstPart) { part in
        let half = part == 0 ? first() : second()
        halves.withLock { $0[part] = half }
    }
    // The first half is moved out, not copied, and the second appended to it.
    return halves.withLock { halves in
        var joined: [Element] = []
        swap(&joined, &halves[0])
        joined.append(contentsOf: halves[1])
        return joined
    }
}

/// A few long-lived threads that run every part of a bulk edit.
///
/// A bulk edit copies every leaf it touches, on several threads. With an allocator that
/// gives each thread its own arena (glibc), the storage of a leaf goes back, when the
/// leaf is freed, to the arena of the thread that allocated it, and serves only that
/// thread's next allocations. Run on dispatch's pool, the parts of successive bulk edits
/// land on whichever threads are free, each with its own arena, and each arena comes to
/// hold a copy of the list: the resident memory of a list of a million rows edited in
/// bulk grew by about 70 MB per thread that had ever run a part. On the same few threads,
/// every bulk edit reuses the storage the last one's replaced leaves gave back. A large
/// list's trees are built on the same threads, each half where edits will copy it (see
/// ``_CountedBTree/init(count:fanout:concurrently:element:)``).
///
/// The threads start at the first bulk edit or large build that needs them, and wait for
/// work between calls.
@usableFromInline final class _BulkThreads: Sendable {
    @usableFromInline static let shared = _BulkThreads()

    /// The most parts a call runs here.
    @usableFromInline static let capacity = 3

    /// The current call of one thread: its part and the body to run.
    struct _Job: Sendable {
        var part = 0
        var body: (@Sendable (Int) -> Void)? = nil
    }

    /// Whether a call holds the threads, and the threads started so far.
    struct _State: Sendable {
        var busy = false
        var workers: [Worker] = []
    }

    /// One thread's work: its part and the body to run, and a signal for each way.
    final class Worker: Sendable {
        let start = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        /// The part and body of the current call, set before `start` is signalled and
        /// read by the worker after it.
        let job = LockedState<_Job>(_Job())

        /// Runs the current job and drops every reference to its body.
        @inline(never) func runJob() {
            let job = job.withLock { job in
                defer { job.body = nil }
                return job
            }
            job.body?(job.part)
        }

        func loop() -> Never {
            while true {
                start.wait()
                runJob()
                done.signal()
            }
        }
    }

    /// Whether a call holds the threads, and the threads started so far. (A
    /// `LockedState`, a pthread mutex, which ThreadSanitizer sees, as it does not see
    /// `Synchronization.Mutex` on Linux.)
    let state = LockedState<_State>(_State())

    @usableFromInline init() {}

    /// Runs `body` for each of `parts` parts on a thread of its own and returns `true`,
    /// or returns `false` at once when another call holds the threads or `parts` exceeds
    /// ``capacity``. With `callerRunsFirstPart`, part 0 runs on the calling thread.
    @usableFromInline func run(_ parts: Int, callerRunsFirstPart: Bool = false, _ body: @Sendable (Int) -> Void) -> Bool {
        let firstWorkerPart = callerRunsFirstPart ? 1 : 0
        guard parts <= Self.capacity, let workers = acquire(parts - firstWorkerPart) else { return false }
        let used = workers.prefix(parts - firstWorkerPart)
        withoutActuallyEscaping(body) { body in
            // The workers drop `body` before signalling `done`, so it does not outlive this call.
            for (offset, worker) in used.enumerated() {
                worker.job.withLock { $0 = _Job(part: firstWorkerPart + offset, body: body) }
                worker.start.signal()
            }
            if callerRunsFirstPart { body(0) }
            for worker in used { worker.done.wait() }
        }
        state.withLock { $0.busy = false }
        return true
    }

    private func acquire(_ parts: Int) -> [Worker]? {
        let taken = state.withLock { state -> (workers: [Worker], new: [Worker])? in
            guard !state.busy else { return nil }
            state.busy = true
            var new: [Worker] = []
            while state.workers.count < parts {
                let worker = Worker()
                state.workers.append(worker)
                new.append(worker)
            }
            return (state.workers, new)
        }
        guard let taken else { return nil }
        for worker in taken.new { Self.startThread(worker) }
        return taken.workers
    }

    private static func startThread(_ worker: Worker) {
        let context = Unmanaged.passRetained(worker).toOpaque()
        #if canImport(Darwin)
        var thread: pthread_t? = nil
        #else
        var thread = pthread_t()
        #endif
        let result = pthread_create(&thread, nil, { context in
            guard let context else { return nil }
            Unmanaged<Worker>.fromOpaque(context).takeRetainedValue().loop()
        }, context)
        precondition(result == 0, "could not start a thread for bulk edits (\(result))")
        #if canImport(Darwin)
        if let thread { pthread_detach(thread) }
        #else
        pthread_detach(thread)
        #endif
    }
}
