import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension HTTPPageLoader {
    /// Loads the page at `cursor` (the first page when `nil`).
    ///
    /// - Parameter cursor: the page to load, as ``requestURL(for:)`` puts it in the query;
    ///   `nil` for the first page.
    /// - Returns: the items of the response's `data` and the cursor of the next page, or
    ///   `nil` after the last page (see the table in ``HTTPPageLoader``).
    /// - Throws: a ``PaginationError`` naming the request URL.
    /// - Precondition: `cursor` matches ``mode`` (``HTTPPageCursor/page(_:)`` for page
    ///   numbers, and so on).
    /// - Complexity: one request, then O(*b*) to decode a body of *b* bytes.
    public func loadPage(at cursor: HTTPPageCursor?) async throws -> Page<Item, HTTPPageCursor> {
        let requestURL = self.requestURL(for: cursor)
        let data = try await fetch(requestURL)
        let envelope: _Envelope<Item>
        do {
            envelope = try JSONDecodingFailure.decode(_Envelope<Item>.self, from: data, using: decoder)
        } catch {
            throw PaginationError.decoding(url: requestURL, path: error.path, description: error.positionAndReason)
        }
        return Page(items: envelope.data, nextCursor: nextCursor(after: cursor, envelope))
    }

    /// The URL requested for `cursor`: ``url`` with the mode's query parameters added.
    ///
    /// The endpoint's own query comes first, unchanged; then the page, offset or cursor
    /// parameter (page 1 or offset 0 for `nil`, none in cursor mode), then the limit.
    /// - Parameter cursor: the page to request; `nil` for the first page.
    /// - Returns: the URL, such as `https://api.example.com/players?cursor=c_42&limit=50`.
    /// - Precondition: `cursor` matches ``mode``.
    /// - Complexity: O(length of the URL).
    public func requestURL(for cursor: HTTPPageCursor?) -> URL {
        var query: [URLQueryItem]
        switch (mode, cursor) {
        case (.pageNumber, nil): query = [URLQueryItem(name: parameterNames.page, value: "1")]
        case (.pageNumber, .page(let page)): query = [URLQueryItem(name: parameterNames.page, value: String(page))]
        case (.offset, nil): query = [URLQueryItem(name: parameterNames.offset, value: "0")]
        case (.offset, .offset(let offset)): query = [URLQueryItem(name: parameterNames.offset, value: String(offset))]
        case (.cursor, nil): query = []
        case (.cursor, .token(let token)): query = [URLQueryItem(name: parameterNames.cursor, value: token)]
        case (_, let cursor?):
            preconditionFailure("HTTPPageLoader in \(mode) mode was given a \(cursor)")
        }
        query.append(URLQueryItem(name: parameterNames.limit, value: String(pageSize)))
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
            preconditionFailure("HTTPPageLoader cannot take \(url) apart into URL components")
        }
        // The endpoint's own query is kept byte for byte. In the parameters added here,
        // `+` (literal in a query, but read as a space by many servers) is encoded.
        var added = URLComponents()
        added.queryItems = query
        let addedQuery = (added.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B")
        components.percentEncodedQuery = [components.percentEncodedQuery, addedQuery]
            .compactMap { $0 }
            .filter { !$0.isEmpty }
            .joined(separator: "&")
        guard let result = components.url else {
            preconditionFailure("HTTPPageLoader cannot build a URL from \(components)")
        }
        return result
    }

    /// The cursor of the page after the one at `cursor`, by mode.
    func nextCursor(after cursor: HTTPPageCursor?, _ envelope: _Envelope<Item>) -> HTTPPageCursor? {
        let count = envelope.data.count, info = envelope.pagination
        switch (mode, cursor) {
        case (.pageNumber, .page(let page)):
            return PageNumberLoader<Item>.pageAfter(page, firstPage: 1, count: count, limit: pageSize, totalPages: info.totalPages).map { .page($0) }
        case (.pageNumber, _):
            return PageNumberLoader<Item>.pageAfter(1, firstPage: 1, count: count, limit: pageSize, totalPages: info.totalPages).map { .page($0) }
        case (.offset, .offset(let offset)):
            return OffsetLoader<Item>.offsetAfter(offset, count: count, limit: pageSize, totalItems: info.totalItems).map { .offset($0) }
        case (.offset, _):
            return OffsetLoader<Item>.offsetAfter(0, count: count, limit: pageSize, totalItems: info.totalItems).map { .offset($0) }
        case (.cursor, _):
            return info.nextCursor.map { .token($0) }
        }
    }

    /// Requests `requestURL` and returns the body of a 2xx response, within ``timeout``.
    private func fetch(_ requestURL: URL) async throws(PaginationError) -> Data {
        var request = URLRequest(url: requestURL)
        // The session's own timeout (whole seconds on some platforms) is only a backstop.
        request.timeoutInterval = (timeout.seconds + 1).rounded(.up)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let session = self.session, timeout = self.timeout, finalRequest = request
        let outcome: Result<(Data, URLResponse), PaginationError> = await withTaskGroup(of: Result<(Data, URLResponse), PaginationError>?.self) { group in
            group.addTask {
                do {
                    return .success(try await session.data(for: finalRequest))
                } catch {
                    return .failure(PaginationError(error, url: requestURL))
                }
            }
            group.addTask {
                do {
                    try await Task.sleep(for: timeout)
                    return .failure(.timedOut(url: requestURL))
                } catch {
                    return nil  // cancelled: the request finished first
                }
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? .failure(.cancelled)
        }
        let (data, response) = try outcome.get()
        if Task.isCancelled { throw .cancelled }
        guard let http = response as? HTTPURLResponse else {
            throw .transport(url: requestURL, description: "the response is not an HTTP response")
        }
        guard (200...299).contains(http.statusCode) else {
            throw .httpStatus(code: http.statusCode, url: requestURL)
        }
        return data
    }
}

/// The response body: `{"data":[…],"pagination":{…}}`.
struct _Envelope<Item: Decodable>: Decodable {
    var data: [Item]
    var pagination: _PaginationInfo
}

/// The `pagination` object; which members matter depends on the mode.
struct _PaginationInfo: Decodable {
    var page: Int?
    var limit: Int?
    var totalPages: Int?
    var totalItems: Int?
    var offset: Int?
    var nextCursor: String?
}
