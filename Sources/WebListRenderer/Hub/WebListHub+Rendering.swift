extension WebListHub {
    /// Publishes a batch to every client.
    ///
    /// A batch that continues from the last rendered version is encoded once and queued
    /// for every client (a client whose queue is full is reset to a snapshot instead).
    /// The first batch (the attach batch), or one that does not continue, restarts every
    /// client from a snapshot of `batch.new`, with versions shifted when needed so that
    /// the hub's versions keep increasing (see ``WebListRenderer``).
    ///
    /// - Parameter batch: the batch the data source delivers, from `batch.old` (what the
    ///   hub rendered last) to `batch.new`.
    /// - Complexity: O(*c* log *n*) plus formatting the changed rows to encode, then O(1)
    ///   per client, for *c* changes and *n* rows; never waits for a client.
    public func render(_ batch: ChangeBatch<Item>) {
        _core.render(batch)
    }
}
