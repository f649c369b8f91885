extension HTML {
    /// Escapes the characters that have a meaning in HTML text and attribute values.
    ///
    /// `&` → `&amp;`, `<` → `&lt;`, `>` → `&gt;`, `"` → `&quot;`, `'` → `&#39;`.
    /// Everything else, including all non-ASCII text, is copied unchanged. The result is
    /// safe as element content and inside a single- or double-quoted attribute value.
    ///
    /// ```swift
    /// HTML.escape(#"<a href="x">Zoë & 'Ann'</a>"#)
    /// // "&lt;a href=&quot;x&quot;&gt;Zoë &amp; &#39;Ann&#39;&lt;/a&gt;"
    /// ```
    /// - Parameter text: the text to escape.
    /// - Returns: the escaped text; the same string when nothing needed escaping.
    /// - Complexity: O(*n*) in the UTF-8 length of `text`. Multi-byte UTF-8 sequences
    ///   never contain ASCII bytes, so the work is a byte scan.
    public static func escape(_ text: some StringProtocol) -> String {
        let utf8 = text.utf8
        guard let first = utf8.firstIndex(where: _needsEscaping) else { return String(text) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count + 24)
        bytes.append(contentsOf: utf8[..<first])
        for byte in utf8[first...] {
            switch byte {
            case UInt8(ascii: "&"): bytes.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): bytes.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): bytes.append(contentsOf: "&gt;".utf8)
            case UInt8(ascii: "\""): bytes.append(contentsOf: "&quot;".utf8)
            case UInt8(ascii: "'"): bytes.append(contentsOf: "&#39;".utf8)
            default: bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

@inline(__always)
private func _needsEscaping(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "'"): true
    default: false
    }
}
