import Foundation

/// What an ``HTTPPageLoader`` reads in one response body, and where: its
/// ``HTTPPageLoader/ResponseKeys`` for its mode, split into keys and converted as the
/// decoder converts the document's keys.
struct _ResponseShape: Sendable {
    /// A member of the body besides the items.
    enum Member: Sendable {
        case nextCursor, totalItems, totalPages
    }

    /// The keys down to the items; empty for the body itself.
    var items: [String]
    /// The keys down to each member; `nil` when it is not read.
    var nextCursor: [String]?
    var previousCursor: [String]?
    var nextURL: [String]?
    var totalItems: [String]?
    var totalPages: [String]?
    /// The member the mode pages by: the objects on its way must be present.
    var pagingMember: Member?
    /// The URL of the request, against which a relative next-page URL is resolved.
    var requestURL: URL

    init<Item>(
        keys: HTTPPageLoader<Item>.ResponseKeys,
        mode: HTTPPageLoader<Item>.Mode,
        keyDecodingStrategy: JSONDecoder.KeyDecodingStrategy,
        requestURL: URL
    ) {
        let convert = JSONDecodingFailure._keyConversion(keyDecodingStrategy)
        func path(_ keyPath: String?) -> [String]? {
            keyPath.map { Self.keys(of: $0, convertedWith: convert) }
        }
        items = Self.keys(of: keys.items, convertedWith: convert)
        nextCursor = mode == .cursor ? path(keys.nextCursor) : nil
        previousCursor = mode == .cursor ? path(keys.previousCursor) : nil
        nextURL = mode == .nextURL ? path(keys.nextURL) : nil
        totalItems = path(keys.totalItems)
        totalPages = path(keys.totalPages)
        switch mode {
        case .pageNumber: pagingMember = .totalPages
        case .offset: pagingMember = .totalItems
        case .cursor: pagingMember = .nextCursor
        case .nextURL: pagingMember = nil
        }
        self.requestURL = requestURL
    }

    /// The keys of `keyPath` (`"data.items"` → `["data", "items"]`, `""` → `[]`), each as
    /// the decoder's key strategy turns a document's key into a coding key.
    static func keys(of keyPath: String, convertedWith convert: _JSONScanner.KeyConversion?) -> [String] {
        guard !keyPath.isEmpty else { return [] }
        let keys = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard let convert else { return keys }
        var converted: [String] = []
        for key in keys {
            converted.append(convert(key, converted.map { .key($0) }))
        }
        return converted
    }

    /// `text` as an absolute `http` or `https` URL, resolved against `base`; `nil` when it
    /// is not one.
    static func followableURL(_ text: String, relativeTo base: URL) -> URL? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty,
              let url = URL(string: trimmed, relativeTo: base)?.absoluteURL,
              let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              url.host?.isEmpty == false
        else { return nil }
        return url
    }
}
