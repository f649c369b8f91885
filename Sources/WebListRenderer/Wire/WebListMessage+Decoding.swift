import Foundation

/// Why a wire message could not be read.
public struct WebListMessageError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong.
    public let reason: String
    /// Where: the path of keys and array offsets to the bad value, such as `steps[3].op`;
    /// empty when the text is not JSON at all.
    public let path: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - reason: what was wrong.
    ///   - path: the path to the bad value, such as `steps[3].op`; empty when the text is
    ///     not JSON at all.
    public init(reason: String, path: String) {
        self.reason = reason
        self.path = path
    }

    /// The error as `malformed list message at <path>: <reason>`, without the path when
    /// it is empty.
    ///
    /// - Complexity: O(length of the text).
    public var description: String {
        path.isEmpty ? "malformed list message: \(reason)" : "malformed list message at \(path): \(reason)"
    }
}

extension WebListMessage {
    /// Reads a message from its JSON text (any key order, any whitespace).
    ///
    /// ```swift
    /// let message = try WebListMessage(json: #"{"type":"batch","from":1,"to":2,"steps":[]}"#)
    /// ```
    /// - Parameter json: the JSON text of one message.
    /// - Throws: ``WebListMessageError`` naming the offending key path.
    /// - Complexity: O(length of `json`).
    public init(json: String) throws(WebListMessageError) {
        try self.init(json: Data(json.utf8))
    }

    /// Reads a message from UTF-8 JSON data.
    ///
    /// - Parameter json: the JSON text of one message, in UTF-8.
    /// - Throws: ``WebListMessageError`` naming the offending key path.
    /// - Complexity: O(length of `json`).
    public init(json: Data) throws(WebListMessageError) {
        do {
            self = try JSONDecoder().decode(_DecodedMessage.self, from: json).message
        } catch let error as DecodingError {
            throw WebListMessageError(error)
        } catch {
            throw WebListMessageError(reason: "\(error)", path: "")
        }
    }
}

extension WebListMessageError {
    init(_ error: DecodingError) {
        func path(_ codingPath: [any CodingKey]) -> String {
            var text = ""
            for key in codingPath {
                if let index = key.intValue {
                    text += "[\(index)]"
                } else {
                    text += text.isEmpty ? key.stringValue : "." + key.stringValue
                }
            }
            return text
        }
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            self.init(reason: context.debugDescription, path: path(context.codingPath))
        case .keyNotFound(let key, let context):
            self.init(reason: "missing key \"\(key.stringValue)\"", path: path(context.codingPath))
        @unknown default:
            self.init(reason: "\(error)", path: "")
        }
    }
}

/// The decodable shape of a message; keeps `Decodable` out of the public types.
private struct _DecodedMessage: Decodable {
    let message: WebListMessage

    private enum Keys: String, CodingKey { case type, version, items, sections, from, to, sectioned, steps }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        let type = try container.decode(String.self, forKey: .type)
        switch type {
        case "snapshot":
            let version = try container.decode(Int.self, forKey: .version)
            // A snapshot whose `sections` member is an array is a sectioned one.
            if (try? container.decodeIfPresent([_AnyValue].self, forKey: .sections)) != nil {
                let sections = try container.decode([_DecodedSection].self, forKey: .sections).map(\.section)
                message = .sectionedSnapshot(version: version, sections: sections)
            } else {
                let items = try container.decode([_DecodedRow].self, forKey: .items).map(\.row)
                message = .snapshot(version: version, items: items)
            }
        case "batch":
            let from = try container.decode(Int.self, forKey: .from)
            let to = try container.decode(Int.self, forKey: .to)
            // A batch whose `sectioned` member is `true` is a sectioned one.
            if (try? container.decodeIfPresent(Bool.self, forKey: .sectioned)) == true {
                let steps = try container.decode([_DecodedSectionedStep].self, forKey: .steps).map(\.step)
                message = .sectionedBatch(from: from, to: to, steps: steps)
            } else {
                let steps = try container.decode([_DecodedStep].self, forKey: .steps).map(\.step)
                message = .batch(from: from, to: to, steps: steps)
            }
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: container, debugDescription: "unknown message type \"\(type)\"")
        }
    }
}

private struct _DecodedRow: Decodable {
    let row: WebListRow

    private enum Keys: String, CodingKey { case id, html }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        row = WebListRow(id: try container.decode(String.self, forKey: .id), html: try container.decode(String.self, forKey: .html))
    }
}

private struct _DecodedStep: Decodable {
    let step: WebListStep

    private enum Keys: String, CodingKey { case op, at, from, to, id, html }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        let op = try container.decode(String.self, forKey: .op)
        func row() throws -> WebListRow {
            WebListRow(id: try container.decode(String.self, forKey: .id), html: try container.decode(String.self, forKey: .html))
        }
        switch op {
        case "remove": step = .remove(at: try container.decode(Int.self, forKey: .at))
        case "insert": step = .insert(try row(), at: try container.decode(Int.self, forKey: .at))
        case "move": step = .move(from: try container.decode(Int.self, forKey: .from), to: try container.decode(Int.self, forKey: .to))
        case "reload": step = .reload(try row(), at: try container.decode(Int.self, forKey: .at))
        default:
            throw DecodingError.dataCorruptedError(forKey: .op, in: container, debugDescription: "unknown step op \"\(op)\"")
        }
    }
}

private struct _DecodedSection: Decodable {
    let section: WebListSection

    private enum Keys: String, CodingKey { case key, title, items }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        section = WebListSection(
            key: try container.decode(String.self, forKey: .key),
            title: try container.decode(String.self, forKey: .title),
            items: try container.decode([_DecodedRow].self, forKey: .items).map(\.row)
        )
    }
}

/// An index path written `[section, item]`.
private struct _DecodedIndexPath: Decodable {
    let path: ListIndexPath

    init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        let section = try container.decode(Int.self)
        let item = try container.decode(Int.self)
        guard container.isAtEnd else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "an index path has two numbers, [section, item]")
        }
        path = ListIndexPath(section: section, item: item)
    }
}

private struct _DecodedSectionedStep: Decodable {
    let step: WebListSectionedStep

    private enum Keys: String, CodingKey { case op, at, from, to, id, html, key, title }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        let op = try container.decode(String.self, forKey: .op)
        func row() throws -> WebListRow {
            WebListRow(id: try container.decode(String.self, forKey: .id), html: try container.decode(String.self, forKey: .html))
        }
        func path(_ key: Keys) throws -> ListIndexPath { try container.decode(_DecodedIndexPath.self, forKey: key).path }
        switch op {
        case "insertSection":
            step = .insertSection(
                key: try container.decode(String.self, forKey: .key),
                title: try container.decode(String.self, forKey: .title),
                at: try container.decode(Int.self, forKey: .at)
            )
        case "removeSection": step = .removeSection(at: try container.decode(Int.self, forKey: .at))
        case "remove": step = .remove(at: try path(.at))
        case "insert": step = .insert(try row(), at: try path(.at))
        case "move": step = .move(from: try path(.from), to: try path(.to))
        case "reload": step = .reload(try row(), at: try path(.at))
        default:
            throw DecodingError.dataCorruptedError(forKey: .op, in: container, debugDescription: "unknown step op \"\(op)\"")
        }
    }
}

/// Any JSON value, unread.
struct _AnyValue: Decodable {
    init(from decoder: any Decoder) throws {}
}
