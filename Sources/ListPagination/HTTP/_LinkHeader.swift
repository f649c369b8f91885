import Foundation

/// Reads an HTTP `Link` header (RFC 8288): `<https://…?page=2>; rel="next", <…>; rel="last"`.
enum _LinkHeader {
    /// The target of the first link whose relation types include `next`, as written
    /// (it may be relative); `nil` when there is none.
    ///
    /// - Complexity: O(length of the header).
    static func nextTarget(in header: String) -> String? {
        var rest = Substring(header)
        while let open = rest.firstIndex(of: "<"), let close = rest[open...].firstIndex(of: ">") {
            let target = rest[rest.index(after: open)..<close]
            rest = rest[rest.index(after: close)...]
            // The parameters run to the next comma outside a quoted string.
            let end = endOfParameters(in: rest)
            let relations = parameters(in: rest[..<end])
                .filter { $0.name == "rel" }
                .flatMap { $0.value.lowercased().split(whereSeparator: \.isWhitespace) }
            if relations.contains("next") { return String(target).trimmingCharacters(in: .whitespaces) }
            rest = end < rest.endIndex ? rest[rest.index(after: end)...] : rest[end...]
        }
        return nil
    }

    /// The index of the first comma outside a quoted string, or the end.
    private static func endOfParameters(in text: Substring) -> Substring.Index {
        var inQuotes = false, escaped = false
        for index in text.indices {
            let character = text[index]
            if inQuotes {
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inQuotes = false }
            } else if character == "\"" {
                inQuotes = true
            } else if character == "," {
                return index
            }
        }
        return text.endIndex
    }

    /// The `; name=value` parameters of one link, names lowercased, quoted values unquoted.
    private static func parameters(in text: Substring) -> [(name: String, value: String)] {
        var result: [(name: String, value: String)] = []
        var name = "", value = ""
        var inName = true, inQuotes = false, escaped = false
        func finish() {
            let trimmed = name.trimmingCharacters(in: .whitespaces).lowercased()
            if !trimmed.isEmpty { result.append((trimmed, value.trimmingCharacters(in: .whitespaces))) }
            (name, value, inName) = ("", "", true)
        }
        for character in text {
            if inQuotes {
                if escaped {
                    value.append(character)
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    inQuotes = false
                } else {
                    value.append(character)
                }
            } else if character == ";" {
                finish()
            } else if inName {
                if character == "=" { inName = false } else { name.append(character) }
            } else if character == "\"" {
                inQuotes = true
            } else {
                value.append(character)
            }
        }
        finish()
        return result
    }
}
