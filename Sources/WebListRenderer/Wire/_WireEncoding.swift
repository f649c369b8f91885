/// What a renderer or hub needs of a format: the snapshots and batches of its kind of
/// list, and the messages they become.
///
/// ``WebListFormat`` (flat lists: `ListSnapshot`, `ChangeBatch`) and
/// ``SectionedWebListFormat`` (sectioned lists: `SectionedSnapshot`,
/// `SectionedChangeBatch`) conform, so one implementation of versions, restarts, client
/// queues and resets (`_WireSnapshot`, `_RenderCore`, `_HubCore`) serves both.
protocol _WireEncoding: Sendable {
    /// A version of the list.
    associatedtype Snapshot: Sendable
    /// The change between two versions.
    associatedtype Batch

    /// The list before `batch`.
    static func old(of batch: Batch) -> Snapshot
    /// The list after `batch`.
    static func new(of batch: Batch) -> Snapshot
    /// The list's version.
    static func version(of snapshot: Snapshot) -> Int
    /// Whether two snapshots (of the same version) show the same list, so that a batch
    /// from one applies to the other. O(1) for snapshots that share their storage.
    static func isSameList(_ first: Snapshot, _ second: Snapshot) -> Bool

    /// The `batch` message for `batch`.
    func message(for batch: Batch) -> WebListMessage
    /// The `snapshot` message for `snapshot`.
    func snapshotMessage(for snapshot: Snapshot) -> WebListMessage
}

extension WebListFormat: _WireEncoding {
    static func old(of batch: ChangeBatch<Item>) -> ListSnapshot<Item> { batch.old }
    static func new(of batch: ChangeBatch<Item>) -> ListSnapshot<Item> { batch.new }
    static func version(of snapshot: ListSnapshot<Item>) -> Int { snapshot.version }
    static func isSameList(_ first: ListSnapshot<Item>, _ second: ListSnapshot<Item>) -> Bool {
        first.isIdentical(to: second) || first.elementsEqual(second)
    }
}

extension SectionedWebListFormat: _WireEncoding {
    static func old(of batch: SectionedChangeBatch<Section, Item>) -> SectionedSnapshot<Section, Item> { batch.old }
    static func new(of batch: SectionedChangeBatch<Section, Item>) -> SectionedSnapshot<Section, Item> { batch.new }
    static func version(of snapshot: SectionedSnapshot<Section, Item>) -> Int { snapshot.version }
    /// The same rows, grouped into the same sections: a renderer moved between two
    /// sectioned lists with equal rows but another sectioning does not continue. Rows that
    /// share their storage belong to one list, whose sectioning is the same.
    static func isSameList(_ first: SectionedSnapshot<Section, Item>, _ second: SectionedSnapshot<Section, Item>) -> Bool {
        first.rows.isIdentical(to: second.rows)
            || (first.rows.elementsEqual(second.rows) && first.sections.elementsEqual(second.sections))
    }
}
