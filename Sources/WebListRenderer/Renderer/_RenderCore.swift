/// The state and rule of a renderer that sends one client's messages, for either kind of
/// list: ``WebListRenderer`` and ``SectionedWebListRenderer`` wrap one.
///
/// It keeps the last rendered snapshot with its version shift (`_WireSnapshot`) and
/// turns each batch into a `batch` message when it continues from that snapshot, into a
/// `snapshot` message otherwise.
final class _RenderCore<Encoding: _WireEncoding>: Sendable {
    let format: Encoding
    private let send: @Sendable (WebListFrame) -> Void
    /// The last rendered snapshot, and what is added to its list's versions on the wire.
    private let rendered = LockedState<_WireSnapshot<Encoding>?>(nil)
    /// Held for the whole of each render.
    private let renderLock = LockedState(())

    init(format: Encoding, send: @escaping @Sendable (WebListFrame) -> Void) {
        self.format = format
        self.send = send
    }

    func render(_ batch: Encoding.Batch) {
        // Renders of a renderer moved between lists can overlap (a render of the list it
        // left may still be running): one at a time, so that messages go out in order.
        renderLock.withLock { _ in _render(batch) }
    }

    private func _render(_ batch: Encoding.Batch) {
        let (latest, next) = rendered.withLock { rendered in
            let following = _WireSnapshot.following(rendered, with: batch)
            rendered = following.latest
            return following
        }
        switch next {
        case .nothing: return
        case .batch: send(WebListFrame(latest.message(for: batch, format: format)))
        case .snapshot: send(WebListFrame(latest.snapshotMessage(format: format)))
        }
    }

    var version: Int? { rendered.withLock { $0?.wireVersion } }

    func snapshotFrame() -> WebListFrame? {
        rendered.withLock { $0 }.map { WebListFrame($0.snapshotMessage(format: format)) }
    }
}
