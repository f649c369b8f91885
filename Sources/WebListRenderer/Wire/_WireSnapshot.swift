/// The last snapshot a renderer or hub sent (flat or sectioned, as its `Encoding` says),
/// with what it adds to that list's versions on the wire; and the rule that decides how
/// the next batch goes out.
///
/// A renderer moved to another list restarts from that list's versions, which may be
/// lower than the ones it sent. A client would take the restart snapshot for a stale one
/// and skip it, and then apply the new list's batches to the old list's rows once their
/// versions pass its own. So the versions a renderer sends are the list's versions
/// shifted by ``versionOffset``, which changes only at a restart: the restart snapshot is
/// numbered one past the last version sent when the list's own version is not above it,
/// and keeps the list's version otherwise. Without a move the offset stays 0.
struct _WireSnapshot<Encoding: _WireEncoding>: Sendable {
    /// The list last sent.
    let snapshot: Encoding.Snapshot
    /// Added to the list's versions on the wire.
    let versionOffset: Int
    /// The `snapshot` frame of this list once formatted, shared by every copy (every
    /// client queue holding this version), so that it is formatted once.
    let _frame = _FrameMemo()

    init(snapshot: Encoding.Snapshot, versionOffset: Int) {
        self.snapshot = snapshot
        self.versionOffset = versionOffset
    }

    /// The version of the last message sent.
    var wireVersion: Int { Encoding.version(of: snapshot) + versionOffset }

    /// How a batch goes out.
    enum Next {
        /// Nothing to send: an attach batch of an empty list at version 0, after an empty
        /// list at version 0.
        case nothing
        /// As a `batch` message, since it starts from the list last sent.
        case batch
        /// As a `snapshot` message that restarts the stream.
        case snapshot
    }

    /// What to record after `batch`, and how to send it, given the last snapshot sent
    /// (`nil` before the first).
    ///
    /// A batch continues only from the very list last sent. Equal version numbers are not
    /// enough, since a renderer moved between lists can see the same number from two lists.
    ///
    /// - Complexity: O(1) when the last snapshot sent is the batch's `old` (always, within
    ///   one list), or the versions differ; O(*n*) to compare the lists otherwise (after a
    ///   move to another list with the same version).
    static func following(_ last: Self?, with batch: Encoding.Batch) -> (latest: Self, next: Next) {
        let old = Encoding.old(of: batch), new = Encoding.new(of: batch)
        let oldVersion = Encoding.version(of: old), newVersion = Encoding.version(of: new)
        if let last, Encoding.version(of: last.snapshot) == oldVersion, Encoding.isSameList(last.snapshot, old) {
            let latest = Self(snapshot: new, versionOffset: last.versionOffset)
            return (latest, newVersion == oldVersion ? .nothing : .batch)
        }
        var versionOffset = 0
        if let last, newVersion <= last.wireVersion {
            versionOffset = last.wireVersion + 1 - newVersion
        }
        return (Self(snapshot: new, versionOffset: versionOffset), .snapshot)
    }

    /// The `batch` message that leads to this snapshot.
    ///
    /// - Complexity: that of the format's `message(for:)`.
    func message(for batch: Encoding.Batch, format: Encoding) -> WebListMessage {
        format.message(for: batch).shiftingVersions(by: versionOffset)
    }

    /// The `snapshot` message of this snapshot.
    ///
    /// - Complexity: O(*n*) rows formatted.
    func snapshotMessage(format: Encoding) -> WebListMessage {
        format.snapshotMessage(for: snapshot).shiftingVersions(by: versionOffset)
    }

    /// The `snapshot` frame of this snapshot, formatted by the first caller only: every
    /// client queue that holds this version holds a copy of this value, so a hub formats
    /// each version once, however many clients read it.
    ///
    /// - Complexity: O(*n*) rows formatted the first time, O(1) afterwards.
    func snapshotFrame(format: Encoding) -> WebListFrame {
        _frame.value { WebListFrame(snapshotMessage(format: format)) }
    }
}

/// A frame computed once, by whichever thread asks first; the others wait for it.
final class _FrameMemo: Sendable {
    private let frame = LockedState<WebListFrame?>(nil)

    func value(_ make: () -> WebListFrame) -> WebListFrame {
        frame.withLock { frame in
            if let frame { return frame }
            let made = make()
            frame = made
            return made
        }
    }
}

extension WebListMessage {
    /// The message with `offset` added to its versions; its rows and steps are unchanged.
    ///
    /// - Complexity: O(1) (the rows and steps are shared, not copied).
    func shiftingVersions(by offset: Int) -> WebListMessage {
        guard offset != 0 else { return self }
        switch self {
        case .snapshot(let version, let items): return .snapshot(version: version + offset, items: items)
        case .batch(let from, let to, let steps): return .batch(from: from + offset, to: to + offset, steps: steps)
        case .sectionedSnapshot(let version, let sections): return .sectionedSnapshot(version: version + offset, sections: sections)
        case .sectionedBatch(let from, let to, let steps): return .sectionedBatch(from: from + offset, to: to + offset, steps: steps)
        }
    }
}
