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
    ///
    /// - Parameters:
    ///   - path: the place in the document, such as `data[3].score`; empty for the top level.
    ///   - byteOffset: the 0-based byte offset of the problem, or `nil` when unknown.
    ///   - line: the 1-based line of the problem, or `nil` when unknown.
    ///   - column: the 1-based column of the problem, in bytes, or `nil` when unknown.
    ///   - reason: what is wrong.
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
    /// `DecodingError` the position comes from where its coding path leads in `data`,
    /// and the path names that place with the document's own keys (for a missing key:
    /// the container's path plus the key). Pass `nil` for `data` when it is not at hand:
    /// the position is then unknown. A UTF-16 or UTF-32 document, which `JSONDecoder`
    /// also reads, is examined in its UTF-8 form: byte offsets count its UTF-8 bytes.
    ///
    /// - Parameters:
    ///   - error: what the decoder threw.
    ///   - data: the document, or `nil`.
    ///   - keyDecodingStrategy: the decoder's strategy, which turned the document's keys
    ///     into the keys of the error's coding path.
    /// - Complexity: O(*n*) for *n* bytes.
    public init(_ error: any Error, in data: Data?, keyDecodingStrategy: JSONDecoder.KeyDecodingStrategy = .useDefaultKeys) {
        let bytes = data.map { Self._utf8Form(of: [UInt8]($0)) }
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
        case .dataCorrupted where bytes != nil && Self._blamesTheWholeDocument(error):
            // The document is valid JSON (the scan above found no error), yet the decoder
            // says it is not: `JSONDecoder` says so of a number that does not fit its
            // type (1.5 or 1e20 for an `Int`), without a path. The top level is not where
            // the problem is, so no position is claimed.
            self.init(
                path: "", byteOffset: nil, line: nil, column: nil,
                reason: "a value does not fit the type it is decoded as (the document is valid JSON; the decoder named no path)"
            )
            return
        case .dataCorrupted(let context):
            path = context.codingPath.map(_JSONPathComponent.init)
            located = path
            reason = context.debugDescription
        @unknown default:
            path = []
            located = []
            reason = String(describing: error)
        }
        guard let bytes, let location = _JSONScanner.location(ofValueAt: located, in: bytes, convertKey: Self._keyConversion(keyDecodingStrategy)) else {
            self.init(path: path.rendered, at: nil, in: bytes, reason: reason)
            return
        }
        // Name the place as the document does; a missing key keeps the decoder's name.
        let documentPath = location.documentPath + path.dropFirst(located.count)
        self.init(path: documentPath.rendered, at: location.offset, in: bytes, reason: reason)
    }

    /// How `strategy` turns a document's key into a coding path's key.
    static func _keyConversion(_ strategy: JSONDecoder.KeyDecodingStrategy) -> _JSONScanner.KeyConversion? {
        switch strategy {
        case .useDefaultKeys:
            return nil
        case .convertFromSnakeCase:
            return { key, _ in _convertFromSnakeCase(key) }
        case .custom(let convert):
            return { key, objectPath in
                convert(objectPath.map(_PathKey.init) + [_PathKey(.key(key))]).stringValue
            }
        @unknown default:
            return nil
        }
    }

    /// `JSONDecoder`'s documented snake case conversion: `player_score` → `playerScore`;
    /// leading and trailing underscores are kept, and a key without inner underscores
    /// is left as it is.
    static func _convertFromSnakeCase(_ key: String) -> String {
        guard let first = key.firstIndex(where: { $0 != "_" }) else { return key }
        var last = key.index(before: key.endIndex)
        while last > first && key[last] == "_" { key.formIndex(before: &last) }
        let words = key[first ... last].split(separator: "_")
        guard words.count > 1 else { return key }
        let joined = ([words[0].lowercased()] + words.dropFirst().map { $0.capitalized }).joined()
        return String(key[..<first]) + joined + String(key[key.index(after: last)...])
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
    /// - Returns: the decoded value.
    /// - Throws: a ``JSONDecodingFailure`` with path and position.
    /// - Complexity: O(*n*) for *n* bytes; the document is scanned again only on failure.
    ///   When the decoder rejects a number without naming a path, O(log *m*) more decodes
    ///   of the document, *m* = numbers in it, find that number.
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data, using decoder: JSONDecoder = JSONDecoder()) throws(JSONDecodingFailure) -> T {
        try _decode(from: data, keyDecodingStrategy: decoder.keyDecodingStrategy) { data in
            try decoder.decode(type, from: data)
        }
    }

    /// Runs `decode` on `data`, explaining any failure as ``decode(_:from:using:)`` does.
    ///
    /// - Parameters:
    ///   - keyDecodingStrategy: the strategy of the decoder `decode` uses.
    ///   - decode: decodes a document; called again on altered copies of `data` to find
    ///     a number that does not fit its type.
    static func _decode<T>(
        from data: Data,
        keyDecodingStrategy: JSONDecoder.KeyDecodingStrategy,
        _ decode: (Data) throws -> T
    ) throws(JSONDecodingFailure) -> T {
        do {
            return try decode(data)
        } catch {
            let failure = JSONDecodingFailure(error, in: data, keyDecodingStrategy: keyDecodingStrategy)
            guard Self._blamesTheWholeDocument(error) else { throw failure }
            // A number that does not fit its type, reported without a path: find it.
            let bytes = _utf8Form(of: [UInt8](data))
            let number = Self._numberThatDoesNotFit(in: bytes, keyDecodingStrategy: keyDecodingStrategy) { candidate in
                do {
                    _ = try decode(Data(candidate))
                    return nil
                } catch {
                    return error
                }
            }
            guard let number else { throw failure }
            throw JSONDecodingFailure(
                path: number.path.rendered, at: number.bytes.lowerBound, in: bytes,
                reason: "the number \(String(decoding: bytes[number.bytes], as: UTF8.self)) does not fit the type it is decoded as"
            )
        }
    }

    /// Whether `error` is the decoder calling the whole document invalid, without a
    /// path, which is how `JSONDecoder` reports a number that does not fit its type.
    private static func _blamesTheWholeDocument(_ error: any Error) -> Bool {
        guard case .dataCorrupted(let context) = error as? DecodingError else { return false }
        // Only the decoder's own words: a type's `init(from:)` may throw `dataCorrupted`
        // at the top level for reasons of its own, which are reported as they are.
        return context.codingPath.isEmpty && context.debugDescription == _notValidJSON
    }

    /// `bytes` in UTF-8. A UTF-16 or UTF-32 document is transcoded; one is recognized, as
    /// `JSONDecoder` recognizes it, by a byte-order mark or else by where the zero bytes
    /// among the first four fall (RFC 4627, section 3: JSON text starts with two ASCII
    /// characters). Anything else is returned as it is.
    ///
    /// - Complexity: O(*n*) for *n* bytes.
    static func _utf8Form(of bytes: [UInt8]) -> [UInt8] {
        enum Width { case sixteen, thirtyTwo }
        let width: Width, isBigEndian: Bool, start: Int
        func startsWith(_ prefix: [UInt8]) -> Bool { bytes.starts(with: prefix) }
        func isZero(_ offset: Int) -> Bool { bytes[offset] == 0 }
        if startsWith([0x00, 0x00, 0xFE, 0xFF]) {
            (width, isBigEndian, start) = (.thirtyTwo, true, 4)
        } else if startsWith([0xFF, 0xFE, 0x00, 0x00]) {
            (width, isBigEndian, start) = (.thirtyTwo, false, 4)
        } else if startsWith([0xFE, 0xFF]) {
            (width, isBigEndian, start) = (.sixteen, true, 2)
        } else if startsWith([0xFF, 0xFE]) {
            (width, isBigEndian, start) = (.sixteen, false, 2)
        } else if bytes.count >= 4, isZero(0), isZero(1), isZero(2), !isZero(3) {
            (width, isBigEndian, start) = (.thirtyTwo, true, 0)
        } else if bytes.count >= 4, !isZero(0), isZero(1), isZero(2), isZero(3) {
            (width, isBigEndian, start) = (.thirtyTwo, false, 0)
        } else if bytes.count >= 2, isZero(0), !isZero(1) {
            (width, isBigEndian, start) = (.sixteen, true, 0)
        } else if bytes.count >= 2, !isZero(0), isZero(1) {
            (width, isBigEndian, start) = (.sixteen, false, 0)
        } else {
            return bytes
        }
        let unitSize = width == .sixteen ? 2 : 4
        var units: [UInt32] = []
        units.reserveCapacity((bytes.count - start) / unitSize)
        var offset = start
        while offset + unitSize <= bytes.count {
            var unit: UInt32 = 0
            for byte in 0 ..< unitSize {
                let shift = UInt32(8 * (isBigEndian ? unitSize - 1 - byte : byte))
                unit |= UInt32(bytes[offset + byte]) << shift
            }
            units.append(unit)
            offset += unitSize
        }
        let text = width == .sixteen
            ? String(decoding: units.map { UInt16(truncatingIfNeeded: $0) }, as: UTF16.self)
            : String(decoding: units, as: UTF32.self)
        return Array(text.utf8)
    }

    /// What `JSONDecoder` says of a document it cannot read, with an empty coding path.
    private static let _notValidJSON = "The given data was not valid JSON."

    /// The first number in `bytes` that the decoder rejects without a path, found by
    /// turning numbers into zeros (which fit every numeric type); `nil` when that does
    /// not single one out.
    ///
    /// With the numbers from some point on zeroed, the decoder complains exactly when a
    /// number that does not fit is left before that point: a binary search finds the
    /// first one. A zero can itself be rejected (an enum with no case 0); when such an
    /// error decides the search, no number is named rather than a wrong one.
    ///
    /// - Parameters:
    ///   - keyDecodingStrategy: the decoder's, to locate its other errors.
    ///   - decodeError: decodes a document; returns the error, or `nil` on success.
    /// - Complexity: O(log *m*) decodes for *m* numbers in the document.
    static func _numberThatDoesNotFit(
        in bytes: [UInt8], keyDecodingStrategy: JSONDecoder.KeyDecodingStrategy, decodeError: ([UInt8]) -> (any Error)?
    ) -> _JSONScanner.Number? {
        let numbers = _JSONScanner.numbers(in: bytes)
        // The document with every number from `kept` on zeroed. Zeros padded with spaces
        // keep every offset, and the document valid.
        func keeping(_ kept: Int) -> [UInt8] {
            var copy = bytes
            for number in numbers[kept...] {
                copy[number.bytes.lowerBound] = UInt8(ascii: "0")
                for offset in number.bytes.dropFirst() { copy[offset] = UInt8(ascii: " ") }
            }
            return copy
        }
        func isBlamed(_ kept: Int) -> Bool {
            decodeError(keeping(kept)).map(_blamesTheWholeDocument) ?? false
        }
        guard !numbers.isEmpty, !isBlamed(0) else { return nil }
        // isBlamed(numbers.count) holds: that is the document itself.
        var low = 1, high = numbers.count
        while low < high {
            let middle = (low + high) / 2
            if isBlamed(middle) { high = middle } else { low = middle + 1 }
        }
        // Keeping `low` numbers is blamed and keeping one fewer is not. Unless a zeroed
        // number caused the other outcome, the last kept one is the culprit.
        let previous = keeping(low - 1)
        if let error = decodeError(previous),
           let offset = JSONDecodingFailure(error, in: Data(previous), keyDecodingStrategy: keyDecodingStrategy).byteOffset,
           numbers[(low - 1)...].contains(where: { $0.bytes.lowerBound == offset }) {
            return nil
        }
        return numbers[low - 1]
    }

    /// "line 5, column 42 (byte 371)", or "unknown position".
    ///
    /// - Complexity: O(1).
    public var position: String {
        guard let byteOffset else { return "unknown position" }
        if let line, let column { return "line \(line), column \(column) (byte \(byteOffset))" }
        return "byte \(byteOffset)"
    }

    /// The position and the reason: "line 5, column 42 (byte 371): expected Int …".
    ///
    /// - Complexity: O(*r*) for a reason of *r* characters.
    public var positionAndReason: String { "\(position): \(reason)" }
}

extension JSONDecodingFailure: CustomStringConvertible {
    /// The path (or "top level"), the position and the reason:
    /// "data[3].score, line 6, column 11 (byte 64): expected Int …".
    ///
    /// - Complexity: O(length of the text).
    public var description: String { "\(path.isEmpty ? "top level" : path), \(positionAndReason)" }
}

/// A step of a path as a coding key, the way `JSONDecoder` names it (array elements as
/// "Index *n*"), for a ``JSONDecoder/KeyDecodingStrategy/custom(_:)`` conversion.
private struct _PathKey: CodingKey {
    var stringValue: String
    var intValue: Int?

    init(_ component: _JSONPathComponent) {
        switch component {
        case .key(let key): (stringValue, intValue) = (key, nil)
        case .index(let index): (stringValue, intValue) = ("Index \(index)", index)
        }
    }

    init?(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }

    init?(intValue: Int) {
        stringValue = "Index \(intValue)"
        self.intValue = intValue
    }
}
