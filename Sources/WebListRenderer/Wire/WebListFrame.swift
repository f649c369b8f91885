/// One encoded wire message, ready to send: its JSON text and what it is.
///
/// The hub encodes each batch once and hands the same frame to every client.
///
/// ```swift
/// for await frame in hub.subscribe() {
///     try await writer.write(frame.serverSentEvent)
/// }
/// ```
public struct WebListFrame: Hashable, Sendable {
    /// What a frame carries.
    public enum Kind: Hashable, Sendable {
        /// A `snapshot` message: the whole list, flat or sectioned.
        case snapshot
        /// A `batch` message, flat or sectioned: the change from ``WebListFrame/fromVersion`` to ``WebListFrame/version``.
        case batch
    }

    /// Whether the frame is a snapshot or a batch.
    public let kind: Kind
    /// For a batch, the version it applies to; `nil` for a snapshot.
    public let fromVersion: Int?
    /// The version a client is at after applying the frame.
    public let version: Int
    /// The message as JSON text, on one line.
    public let json: String

    /// Encodes `message`.
    ///
    /// - Parameter message: the message to encode.
    /// - Complexity: O(total length of the rows' ids and markup).
    public init(_ message: WebListMessage) {
        kind = message._isSnapshot ? .snapshot : .batch
        fromVersion = message._fromVersion
        version = message.version
        json = message.json
    }

    /// The size of the JSON text in bytes (UTF-8).
    ///
    /// - Complexity: O(1): the text is a native Swift string, which stores its UTF-8 length.
    public var byteCount: Int { json.utf8.count }

    /// The frame as one Server-Sent Events `message` event: `data: <json>\n\n`.
    ///
    /// The JSON text never holds a line break (they are escaped inside strings), so it
    /// fits on a single `data:` line.
    ///
    /// - Complexity: O(length of ``json``).
    public var serverSentEvent: String { "data: " + json + "\n\n" }
}
