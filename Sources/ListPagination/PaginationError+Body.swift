import Foundation

extension PaginationError {
    /// The most bytes of UTF-8 that ``bodyExcerpt(_:)`` keeps of a response body: 1,024.
    public static let bodyLimit = 1_024

    /// The start of a response body as one line of text that is safe to log or show.
    ///
    /// The body is read as UTF-8, invalid bytes replaced by U+FFFD. Each run of
    /// whitespace (line breaks and tabs included) becomes one space, and the text is
    /// trimmed; every other control character, and the characters that reorder text
    /// (U+202A…U+202E, U+2066…U+2069), is escaped as `\u{1B}`. The result holds at most
    /// ``bodyLimit`` bytes of UTF-8, then `…` when the body was cut.
    /// ``HTTPPageLoader`` puts it in ``httpStatus(code:url:body:)``; a loader of your own
    /// can do the same.
    ///
    /// ```swift
    /// PaginationError.bodyExcerpt(Data("{\n  \"error\": \"busy\"\n}\u{1B}[0m".utf8))
    /// // { "error": "busy" }\u{1B}[0m
    /// ```
    /// - Parameter body: the response body.
    /// - Returns: the excerpt, or `nil` when the body holds nothing but whitespace.
    /// - Complexity: O(``bodyLimit``): at most that many bytes of the body are read.
    public static func bodyExcerpt(_ body: Data) -> String? {
        var bytes = [UInt8](body.prefix(bodyLimit))
        var isCut = body.count > bytes.count
        if isCut { bytes.removeLast(_incompleteSequenceLength(atTheEndOf: bytes)) }
        var text = ""
        var pendingSpace = false
        for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
            if scalar.properties.isWhitespace {
                pendingSpace = !text.isEmpty
                continue
            }
            let piece = (pendingSpace ? " " : "") + _escaped(scalar)
            pendingSpace = false
            guard text.utf8.count + piece.utf8.count <= bodyLimit else {
                isCut = true
                break
            }
            text += piece
        }
        guard !text.isEmpty else { return nil }
        return isCut ? text + "…" : text
    }

    /// How many bytes at the end of `bytes` are the start of a UTF-8 sequence that the
    /// cut left incomplete (0 when the last sequence is whole or invalid anyway).
    private static func _incompleteSequenceLength(atTheEndOf bytes: [UInt8]) -> Int {
        // The last lead byte among the final three, and the length it announces.
        guard !bytes.isEmpty else { return 0 }
        for back in 1...min(3, bytes.count) {
            let byte = bytes[bytes.count - back]
            if byte & 0xC0 == 0x80 { continue }  // a continuation byte
            let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
            return length > back ? back : 0
        }
        return 0
    }

    /// `scalar` itself, or `\u{…}` for a control character or one that reorders text.
    private static func _escaped(_ scalar: Unicode.Scalar) -> String {
        let value = scalar.value
        let isReordering = (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
        guard scalar.properties.generalCategory == .control || isReordering else {
            return String(scalar)
        }
        return "\\u{" + String(value, radix: 16, uppercase: true) + "}"
    }
}
