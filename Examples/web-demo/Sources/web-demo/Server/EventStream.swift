import NIOCore
import WebListRenderer

/// One client's event stream: its frames' event bytes, and a comment line every
/// `heartbeat`.
enum EventStream {
    /// How many frames may have left the client's hub queue without being written yet.
    static let window = 128

    /// Writes the frames of `source`, then of each source `next` gives after the one
    /// before ended, as Server-Sent Events (the bytes each source's `EventBytes` keeps
    /// for every stream of its view), and a `: heartbeat` line every `heartbeat`, until
    /// `next` gives none or a write fails (the client went away); the subscription being
    /// read is cancelled either way.
    ///
    /// One task takes frames from the subscription and posts their bytes to an
    /// ``EventMailbox``; this one writes whatever the mailbox holds in one write. After
    /// writing frames it waits `coalescing` before taking more, so that frames that
    /// arrive meanwhile go out together: with many streams on a fast feed this halves
    /// the tasks woken per batch and spreads the writes out, so that the streams do not
    /// all wake at once and a fresh request does not queue behind them. A stream whose
    /// window was full does not wait. At most ``window`` frames are taken from the
    /// subscription and not yet written: the frames of a slow client wait in its hub
    /// queue, which bounds them and resets the client when it falls too far behind.
    ///
    /// - Parameters:
    ///   - source: the first subscription and its view's event bytes.
    ///   - next: where to read once a subscription has ended (a window that left the
    ///     shared view reads its own); `nil` ends the stream.
    ///   - coalescing: how long to wait after writing frames; zero writes each frame as
    ///     soon as it comes.
    ///   - write: writes buffers to the response, in order.
    static func write(
        from source: LeaderboardWindow.Source, then next: @escaping @Sendable (LeaderboardWindow.Source) async -> LeaderboardWindow.Source?,
        heartbeat: Duration, coalescing: Duration,
        _ write: ([ByteBuffer]) async throws -> Void
    ) async throws {
        let mailbox = EventMailbox(window: window)
        let forwarding = Task {
            var source = source
            while true {
                var frames = source.subscription.makeAsyncIterator()
                while await mailbox.waitForRoom(), let frame = await frames.next() {
                    mailbox.post(source.bytes.bytes(for: frame), isFrame: true)
                }
                source.subscription.cancel()
                guard !Task.isCancelled, !mailbox.isFinished, let following = await next(source) else { break }
                guard !Task.isCancelled else {
                    following.subscription.cancel()
                    break
                }
                source = following
            }
            mailbox.finish()
        }
        let beating = Task {
            while (try? await Task.sleep(for: heartbeat)) != nil {
                mailbox.post(EventBytes.heartbeat, isFrame: false)
            }
        }
        defer {
            forwarding.cancel()
            beating.cancel()
            mailbox.finish()
        }
        while let taken = await mailbox.take() {
            try await write(taken.buffers)
            let wasFull = mailbox.written(frames: taken.frames)
            if taken.frames > 0, !wasFull, coalescing > .zero {
                try? await Task.sleep(for: coalescing)
            }
        }
    }
}
