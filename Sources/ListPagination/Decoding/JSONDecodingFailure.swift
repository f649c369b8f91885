import Foundation

/// Where and why a JSON document could not be decoded.
///
/// `JSONDecoder` reports a coding path for type errors but no position, and for syntax
/// errors (truncated input, invalid UTF-8) neither. This type fills both in: it scans
/// the document to find the first syntax error, or the value the coding path names,
/// and reports the path (`data[3].score`), the byte offset and the line and column.
///
/// ```swift
/// do {
///     let page = try JSONDecodingFailure.decode(Envelope.self, from: data)
/// } catch {
///     print(error)  // data[3].score, line 6, column 11 (byte 64): expected Int: Expected to decode Int but found a string instead.
/// }
/// ```
public struct JSONDecodingFailure: Error, Sendable, Hashable {
    /// The place in the document: keys joined with `.`, array indices in brackets
    /// (`data[3].score`); empty for the top level.
    public var path: String
    /// The byte offset of the problem (0-based), when known.
    public var byteOffset: Int?
    /// The line of the problem (1-based), when known.
    public var line: Int?
    /// The column of the problem, in bytes (1-based), when known.
    public var column: Int?
    /// What is wrong.
    public var reason: String

    /// Creates a failure from its parts.
    public init(path: String, byteOffset: Int?, line: Int?, column: Int?, reason: String) {
        self.path = path
        self.byteOffset = byteOffset
        self.line = line
        self.column = column
        self.reason = reason
    }

    /// Explains `error`, thrown while decoding `data`.
    ///
    /// A syntax error found in `data` takes precedence over what the decoder said; for a
    /// `DecodingError` the path comes from its coding path (for a missing key: the
    /// container's path plus the key) and the position from where that path leads in
    /// `data`. Pass `nil` for `data` when it is not at hand: the position is then unknown.
    /// - Complexity: O(*n*) for *n* bytes.
    public init(_ error: any Error, in data: Data?) {
        let bytes = data.map { [UInt8]($0) }
        if let bytes, let syntax = _JSONScanner.firstSyntaxError(in: bytes) {
            self.init(path: syntax.path.rendered, at: syntax.offset, in: bytes, reason: syntax.reason)
            return
        }
        guard let error = error as? DecodingError else {
            self.init(path: "", byteOffset: nil, line: nil, column: nil, reason: String(describing: error))
            return
        }
        let path: [_JSONPathComponent], located: [_JSONPathComponent], reason: String
        switch error {
        case .typeMismatch(let type, let context):
            path = context.codingPath.map(_JSONPathComponent.init)
            located = path
            reason = "expected \(type): \(context.debugDescription)"
        case .valueNotFound(let type, let context):
            path = context.codingPath.map(_JSONPathComponent.init)
            located = path
            reason = "expected \(type), found null: \(context.debugDescription)"
        case .keyNotFound(let key, let context):
            located = context.codingPath.map(_JSONPathComponent.init)
            path = located + [_JSONPathComponent(key)]
            reason = "missing key \"\(key.stringValue)\""
        case .dataCorrupted(let context):
            path = context.codingPath.map(_JSONPathComponent.init)
            located = path
            reason = context.debugDescription
        @unknown default:
            path = []
            located = []
            reason = String(describing: error)
        }
        let offset = bytes.flatMap { _JSONScanner.offset(ofValueAt: located, in: $0) }
        self.init(path: path.rendered, at: offset, in: bytes, reason: reason)
    }

    private init(path: String, at offset: Int?, in bytes: [UInt8]?, reason: String) {
        var line: Int?, column: Int?
        if let offset, let bytes {
            let before = bytes[..<min(offset, bytes.count)]
            line = before.reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
            let lineStart = before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
            column = offset - lineStart + 1
        }
        self.init(path: path, byteOffset: offset, line: line, column: column, reason: reason)
    }

    /// Decodes `type` from `data`, explaining any failure.
    ///
    /// - Parameters:
    ///   - type: the type to decode.
    ///   - data: the JSON document.
    ///   - decoder: the decoder to use.
    /// - Throws: a ``JSONDecodingFailure`` with path and position.
    /// - Complexity: O(*n*) for *n* bytes; the document is scanned again only on failure.
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data, using decoder: JSONDecoder = JSONDecoder()) throws(JSONDecodingFailure) -> T {
        do {
            return try decoder.decode(type, from: data)
        } catch {
            throw JSONDecodingFailure(error, in: data)
        }
    }

    /// "line 5, column 42 (byte 371)", or "unknown position".
    public var position: String {
        guard let byteOffset else { return "unknown position" }
        if let line, let column { return "line \(line), column \(column) (byte \(byteOffset))" }
        return "byte \(byteOffset)"
    }

    /// The position and the reason: "line 5, column 42 (byte 371): expected Int …".
    public var positionAndReason: String { "\(position): \(reason)" }
}

extension JSONDecodingFailure: CustomStringConvertible {
    public var description: String { "\(path.isEmpty ? "top level" : path), \(positionAndReason)" }
}
