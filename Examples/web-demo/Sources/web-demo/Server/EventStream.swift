import NIOCore
import WebListRenderer

/// One client's event stream: its frames' event bytes, and a comment line every
/// `heartbeat`.
enum EventStream {
    /// How many frames may have left the client's hub queue without being written yet.
    static let window = 128

    /// Writes `subscription`'s frames as Server-Sent Events (the bytes `bytes` keeps for
    /// every stream), and a `: heartbeat` line every `heartbeat`, until the subscription
    /// ends or a write fails (the client went away); the subscription is cancelled
    /// either way.
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
    ///   - coalescing: how long to wait after writing frames; zero writes each frame as
    ///     soon as it comes.
    ///   - write: writes buffers to the response, in order.
    static func write(
        _ subscription: WebListSubscription, heartbeat: Duration, coalescing: Duration, bytes: EventBytes,
        _ write: ([ByteBuffer]) async throws -> Void
    ) async throws {
        let mailbox = EventMailbox(window: window)
        let forwarding = Task {
            var frames = subscription.makeAsyncIterator()
            while await mailbox.waitForRoom(), let frame = await frames.next() {
                mailbox.post(bytes.bytes(for: frame), isFrame: true)
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
            subscription.cancel()
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
