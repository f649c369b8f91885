import Foundation

/// What an ``HTTPPageLoader`` reads in a response body, found where a ``_ResponseShape``
/// says.
struct _ResponseBody<Item: Decodable>: DecodableWithConfiguration {
    /// A key of the document.
    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ key: String) { stringValue = key }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { return nil }
    }

    var items: [Item]
    var nextCursor: String?
    var previousCursor: String?
    /// Resolved, and `http` or `https`.
    var nextURL: URL?
    var totalItems: Int?
    var totalPages: Int?

    init(from decoder: any Decoder, configuration shape: _ResponseShape) throws {
        items = try Self.items(at: shape.items, in: decoder)
        func member<T: Decodable>(_ type: T.Type, _ path: [String]?, _ member: _ResponseShape.Member?) throws -> T? {
            guard let path else { return nil }
            return try Self.value(type, at: path, in: decoder, requiringObjects: member != nil && member == shape.pagingMember)
        }
        nextCursor = try member(String.self, shape.nextCursor, .nextCursor)
        previousCursor = try member(String.self, shape.previousCursor, nil)
        totalItems = try member(Int.self, shape.totalItems, .totalItems)
        totalPages = try member(Int.self, shape.totalPages, .totalPages)
        if let path = shape.nextURL, let text = try member(String.self, path, nil), !text.isEmpty {
            guard let url = _ResponseShape.followableURL(text, relativeTo: shape.requestURL) else {
                throw DecodingError.dataCorrupted(DecodingError.Context(
                    codingPath: decoder.codingPath + path.map { Key($0) as any CodingKey },
                    debugDescription: "\"\(text)\" is not an http or https URL, so the next page cannot be loaded from it"
                ))
            }
            nextURL = url
        }
    }

    /// The items array at `path`, which must be there.
    private static func items(at path: [String], in decoder: any Decoder) throws -> [Item] {
        guard let last = path.last else { return try decoder.singleValueContainer().decode([Item].self) }
        var container = try decoder.container(keyedBy: Key.self)
        for key in path.dropLast() {
            container = try container.nestedContainer(keyedBy: Key.self, forKey: Key(key))
        }
        return try container.decode([Item].self, forKey: Key(last))
    }

    /// The value at `path`; `nil` when it is missing or null, or when an object on the
    /// way is, unless `requiringObjects`. A value of another type, there or on the way,
    /// is an error.
    private static func value<T: Decodable>(_ type: T.Type, at path: [String], in decoder: any Decoder, requiringObjects: Bool) throws -> T? {
        guard let last = path.last else {
            let single = try decoder.singleValueContainer()
            return single.decodeNil() ? nil : try single.decode(type)
        }
        var container: KeyedDecodingContainer<Key>
        if requiringObjects {
            container = try decoder.container(keyedBy: Key.self)
        } else {
            // A body that is not an object (an array of items, say) holds no members.
            guard let top = try? decoder.container(keyedBy: Key.self) else { return nil }
            container = top
        }
        for key in path.dropLast().map({ Key($0) }) {
            if !requiringObjects {
                guard container.contains(key), try !container.decodeNil(forKey: key) else { return nil }
            }
            container = try container.nestedContainer(keyedBy: Key.self, forKey: key)
        }
        return try container.decodeIfPresent(type, forKey: Key(last))
    }
}
