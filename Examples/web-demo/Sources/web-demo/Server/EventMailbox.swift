import NIOCore
import Synchronization

/// What passes between the two tasks of an ``EventStream``: the one that takes frames
/// from the hub and posts their bytes (and the heartbeat's), and the one that takes
/// everything posted and writes it.
///
/// The poster waits for room before taking frames from the hub: at most `window` frames
/// are posted and not yet written (heartbeats do not count), and none are taken while
/// the writer is busy with the frames it took (writing them, then waiting for more to
/// gather). Frames that arrive meanwhile wait in the hub's queue, and the poster takes
/// them all at once when the writer comes back: so a stream wakes a few times per write,
/// not once per frame. Both sides suspend only when they must: the writer while nothing
/// is posted, the poster while the writer is busy or the window is full.
final class EventMailbox: Sendable {
    private let state: Mutex<EventMailboxState>

    /// - Parameter window: the most frames posted and not yet written, at least 1.
    init(window: Int) {
        state = Mutex(EventMailboxState(window: window))
    }

    /// Returns once the writer is ready for frames and fewer than `window` frames are
    /// posted and not yet written: how many more may be posted (at least 1), or `nil`
    /// when the mailbox is finished.
    func waitForRoom() async -> Int? {
        await withCheckedContinuation { (continuation: CheckedContinuation<Int?, Never>) in
            switch state.withLock({ $0.waitForRoom(continuation) }) {
            case .resume(let answer): continuation.resume(returning: answer)
            case .suspend: break
            }
        }
    }

    /// Posts `buffers`, holding `frames` frames (the heartbeat's buffer holds none).
    /// Dropped once the mailbox is finished.
    func post(_ buffers: [ByteBuffer], frames: Int) {
        if let (writer, taken) = state.withLock({ $0.post(buffers, frames: frames) }) {
            writer.resume(returning: taken)
        }
    }

    /// Whether the mailbox is finished: nothing more is posted.
    var isFinished: Bool { state.withLock { $0.isFinished } }

    /// Everything posted since the last call, and how many of it are frames; suspends
    /// while nothing is posted. Calling it ends the writer's busy time: a poster waiting
    /// for it goes on. `nil` once the mailbox is finished and empty, or when the calling
    /// task is cancelled.
    func take() async -> (buffers: [ByteBuffer], frames: Int)? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<(buffers: [ByteBuffer], frames: Int)?, Never>) in
                let (answer, poster) = state.withLock { $0.take(continuation) }
                if let (poster, room) = poster { poster.resume(returning: room) }
                switch answer {
                case .resume(let taken): continuation.resume(returning: taken)
                case .suspend: break
                }
            }
        } onCancel: {
            finish()
        }
    }

    /// `frames` taken frames are written: they leave the window.
    ///
    /// - Returns: whether the window was full: the writer should come back at once.
    @discardableResult
    func written(frames: Int) -> Bool {
        state.withLock { $0.written(frames: frames) }
    }

    /// Ends the mailbox: posts are dropped, a waiting poster gets `nil`, and the writer
    /// gets what is left, then `nil`.
    func finish() {
        let (poster, writer) = state.withLock { $0.finish() }
        poster?.resume(returning: nil)
        writer?.resume(returning: nil)
    }
}

/// The state of an ``EventMailbox``, as a value: each event returns the continuation to
/// resume, which the mailbox resumes after releasing its lock.
///
/// Invariants: the writer waits only while nothing is posted; the poster waits only
/// while the writer is busy or the window is full; neither waits once finished.
struct EventMailboxState {
    typealias Taken = (buffers: [ByteBuffer], frames: Int)
    typealias Writer = CheckedContinuation<Taken?, Never>
    typealias Poster = CheckedContinuation<Int?, Never>

    enum Answer<Value> {
        case resume(Value)
        case suspend
    }

    private var posted: [ByteBuffer] = []
    private var postedFrames = 0
    /// Frames posted and not yet written, taken or not.
    private var unwritten = 0
    /// Whether the writer took frames and has not asked for more since.
    private var writerIsBusy = false
    private var writer: Writer?
    private var poster: Poster?
    private(set) var isFinished = false
    let window: Int

    init(window: Int) {
        precondition(window >= 1, "an event mailbox needs room for one frame")
        self.window = window
    }

    /// The frames that may be posted now, or `nil` while the poster must wait.
    private var room: Int? {
        !writerIsBusy && unwritten < window ? window - unwritten : nil
    }

    mutating func waitForRoom(_ continuation: Poster) -> Answer<Int?> {
        if isFinished { return .resume(nil) }
        if let room { return .resume(room) }
        precondition(poster == nil, "two tasks post to one event mailbox")
        poster = continuation
        return .suspend
    }

    /// The writer to resume with what it takes, if it was waiting.
    mutating func post(_ buffers: [ByteBuffer], frames: Int) -> (Writer, Taken)? {
        guard !isFinished, !buffers.isEmpty else { return nil }
        unwritten += frames
        if let writer {
            self.writer = nil
            if frames > 0 { writerIsBusy = true }
            return (writer, (buffers, frames))
        }
        posted += buffers
        postedFrames += frames
        return nil
    }

    /// What the writer takes, and the poster to resume with its room now that the
    /// writer is no longer busy.
    mutating func take(_ continuation: Writer) -> (Answer<Taken?>, (Poster, Int)?) {
        writerIsBusy = false
        var ready: (Poster, Int)?
        if let poster, let room {
            self.poster = nil
            ready = (poster, room)
        }
        if !posted.isEmpty {
            defer {
                posted = []
                postedFrames = 0
            }
            if postedFrames > 0 {
                writerIsBusy = true
                // Taking frames makes the writer busy again: the poster waits after all.
                if let (poster, _) = ready {
                    self.poster = poster
                    ready = nil
                }
            }
            return (.resume((posted, postedFrames)), ready)
        }
        if isFinished { return (.resume(nil), ready) }
        precondition(writer == nil, "two tasks write from one event mailbox")
        writer = continuation
        return (.suspend, ready)
    }

    /// Whether the window was full before these frames were written.
    mutating func written(frames: Int) -> Bool {
        defer { unwritten -= frames }
        return unwritten >= window
    }

    mutating func finish() -> (Poster?, Writer?) {
        isFinished = true
        defer {
            poster = nil
            writer = nil
        }
        return (poster, writer)
    }
}
