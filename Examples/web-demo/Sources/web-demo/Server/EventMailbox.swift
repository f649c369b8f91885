import NIOCore
import Synchronization

/// What passes between the two tasks of an ``EventStream``: the one that takes frames
/// from the hub and posts their bytes (and the heartbeat's), and the one that takes
/// everything posted and writes it.
///
/// The poster waits for room before taking each frame from the hub: at most `window`
/// frames are posted and not yet written. Heartbeats do not count. Both sides suspend
/// only when they must: the writer while nothing is posted, the poster while the window
/// is full.
final class EventMailbox: Sendable {
    private let state: Mutex<EventMailboxState>

    /// - Parameter window: the most frames posted and not yet written, at least 1.
    init(window: Int) {
        state = Mutex(EventMailboxState(window: window))
    }

    /// Returns once fewer than `window` frames are posted and not yet written: `true`,
    /// or `false` when the mailbox is finished.
    func waitForRoom() async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            switch state.withLock({ $0.waitForRoom(continuation) }) {
            case .resume(let answer): continuation.resume(returning: answer)
            case .suspend: break
            }
        }
    }

    /// Posts `bytes`, a frame's or a heartbeat's. Dropped once the mailbox is finished.
    func post(_ bytes: ByteBuffer, isFrame: Bool) {
        if let (writer, taken) = state.withLock({ $0.post(bytes, isFrame: isFrame) }) {
            writer.resume(returning: taken)
        }
    }

    /// Everything posted since the last call, and how many of it are frames; suspends
    /// while nothing is posted. `nil` once the mailbox is finished and empty, or when the
    /// calling task is cancelled.
    func take() async -> (buffers: [ByteBuffer], frames: Int)? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<(buffers: [ByteBuffer], frames: Int)?, Never>) in
                switch state.withLock({ $0.take(continuation) }) {
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
    /// - Returns: whether the window was full: the poster was waiting for room.
    @discardableResult
    func written(frames: Int) -> Bool {
        guard let poster = state.withLock({ $0.written(frames: frames) }) else { return false }
        poster.resume(returning: true)
        return true
    }

    /// Whether the mailbox is finished: nothing more is posted.
    var isFinished: Bool { state.withLock { $0.isFinished } }

    /// Ends the mailbox: posts are dropped, a waiting poster gets `false`, and the writer
    /// gets what is left, then `nil`.
    func finish() {
        let (poster, writer) = state.withLock { $0.finish() }
        poster?.resume(returning: false)
        writer?.resume(returning: nil)
    }
}

/// The state of an ``EventMailbox``, as a value: each event returns the continuation to
/// resume, which the mailbox resumes after releasing its lock.
///
/// Invariants: the writer waits only while nothing is posted; the poster waits only
/// while the window is full; neither waits once finished.
struct EventMailboxState {
    typealias Taken = (buffers: [ByteBuffer], frames: Int)
    typealias Writer = CheckedContinuation<Taken?, Never>
    typealias Poster = CheckedContinuation<Bool, Never>

    enum Answer<Value> {
        case resume(Value)
        case suspend
    }

    private var posted: [ByteBuffer] = []
    private var postedFrames = 0
    /// Frames posted and not yet written, taken or not.
    private var unwritten = 0
    private var writer: Writer?
    private var poster: Poster?
    private(set) var isFinished = false
    let window: Int

    init(window: Int) {
        precondition(window >= 1, "an event mailbox needs room for one frame")
        self.window = window
    }

    mutating func waitForRoom(_ continuation: Poster) -> Answer<Bool> {
        if isFinished { return .resume(false) }
        if unwritten < window { return .resume(true) }
        precondition(poster == nil, "two tasks post to one event mailbox")
        poster = continuation
        return .suspend
    }

    /// The writer to resume with what it takes, if it was waiting.
    mutating func post(_ bytes: ByteBuffer, isFrame: Bool) -> (Writer, Taken)? {
        guard !isFinished else { return nil }
        if isFrame { unwritten += 1 }
        if let writer {
            self.writer = nil
            return (writer, ([bytes], isFrame ? 1 : 0))
        }
        posted.append(bytes)
        if isFrame { postedFrames += 1 }
        return nil
    }

    mutating func take(_ continuation: Writer) -> Answer<Taken?> {
        if !posted.isEmpty {
            defer {
                posted = []
                postedFrames = 0
            }
            return .resume((posted, postedFrames))
        }
        if isFinished { return .resume(nil) }
        precondition(writer == nil, "two tasks write from one event mailbox")
        writer = continuation
        return .suspend
    }

    /// The poster to resume, if it was waiting for the room these frames leave.
    mutating func written(frames: Int) -> Poster? {
        unwritten -= frames
        guard unwritten < window, let poster else { return nil }
        self.poster = nil
        return poster
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
