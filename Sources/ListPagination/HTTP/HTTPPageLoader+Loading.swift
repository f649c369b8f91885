import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension HTTPPageLoader {
    /// Loads the page at `cursor` (the first page when `nil`).
    ///
    /// - Parameter cursor: the page to load, as ``requestURL(for:)`` turns it into a URL;
    ///   `nil` for the first page.
    /// - Returns: the items at ``ResponseKeys/items``, the cursor of the next page, or
    ///   `nil` after the last page (see the table in ``HTTPPageLoader``), the cursor of
    ///   the page before, or `nil` at the start (or in ``Mode/nextURL`` mode), and the
    ///   totals the response carries.
    /// - Throws: a ``PaginationError`` naming the request URL.
    /// - Precondition: `cursor` matches ``mode`` (``HTTPPageCursor/page(_:)`` for page
    ///   numbers, and so on).
    /// - Complexity: one request, then O(*b*) to decode a body of *b* bytes.
    public func loadPage(at cursor: HTTPPageCursor?) async throws -> Page<Item, HTTPPageCursor> {
        let requestURL = self.requestURL(for: cursor)
        let (data, response) = try await fetch(requestURL)
        let shape = _ResponseShape(keys: responseKeys, mode: mode, keyDecodingStrategy: decoder.keyDecodingStrategy, requestURL: requestURL)
        let body: _ResponseBody<Item>
        do {
            body = try JSONDecodingFailure._decode(from: data, keyDecodingStrategy: decoder.keyDecodingStrategy) { [decoder] data in
                try decoder.decode(_ResponseBody<Item>.self, from: data, configuration: shape)
            }
        } catch {
            throw PaginationError.decoding(url: requestURL, path: error.path, description: error.positionAndReason)
        }
        let next = try nextCursor(after: cursor, body, response: response, requestURL: requestURL)
        return Page(
            items: body.items,
            nextCursor: next,
            previousCursor: previousCursor(before: cursor, body),
            totalItems: body.totalItems,
            totalPages: body.totalPages
        )
    }

    /// The URL requested for `cursor`: ``url`` with the mode's query parameters added, or
    /// the URL a ``HTTPPageCursor/url(_:)`` cursor names.
    ///
    /// The endpoint's own query comes first, unchanged; then the page, offset or cursor
    /// parameter (page 1 or offset 0 for `nil`, none in cursor and next-URL mode), then
    /// the limit. A next page's URL is requested as the response gave it.
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
        case (.cursor, nil), (.nextURL, nil): query = []
        case (.cursor, .token(let token)): query = [URLQueryItem(name: parameterNames.cursor, value: token)]
        case (.cursor, .before(let token)): query = [URLQueryItem(name: parameterNames.before, value: token)]
        case (.nextURL, .url(let next)): return next
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

    /// The cursor of the page before the one at `cursor`, by mode; `nil` at the start.
    func previousCursor(before cursor: HTTPPageCursor?, _ body: _ResponseBody<Item>) -> HTTPPageCursor? {
        switch (mode, cursor) {
        case (.pageNumber, .page(let page)) where page > 1: .page(page - 1)
        case (.offset, .offset(let offset)): OffsetLoader<Item>.offsetBefore(offset, limit: pageSize).map { .offset($0) }
        case (.cursor, _): body.previousCursor.map { .before($0) }
        default: nil
        }
    }

    /// The cursor of the page after the one at `cursor`, by mode.
    func nextCursor(after cursor: HTTPPageCursor?, _ body: _ResponseBody<Item>, response: HTTPURLResponse, requestURL: URL) throws(PaginationError) -> HTTPPageCursor? {
        let count = body.items.count
        switch (mode, cursor) {
        case (.pageNumber, .page(let page)):
            return PageNumberLoader<Item>.pageAfter(page, firstPage: 1, count: count, limit: pageSize, totalPages: body.totalPages).map { .page($0) }
        case (.pageNumber, _):
            return PageNumberLoader<Item>.pageAfter(1, firstPage: 1, count: count, limit: pageSize, totalPages: body.totalPages).map { .page($0) }
        case (.offset, .offset(let offset)):
            return OffsetLoader<Item>.offsetAfter(offset, count: count, limit: pageSize, totalItems: body.totalItems).map { .offset($0) }
        case (.offset, _):
            return OffsetLoader<Item>.offsetAfter(0, count: count, limit: pageSize, totalItems: body.totalItems).map { .offset($0) }
        case (.cursor, _):
            return body.nextCursor.map { .token($0) }
        case (.nextURL, _):
            if let next = body.nextURL { return .url(next) }
            guard let header = response.value(forHTTPHeaderField: "Link"), let target = _LinkHeader.nextTarget(in: header) else {
                return nil
            }
            guard let next = _ResponseShape.followableURL(target, relativeTo: requestURL) else {
                throw .decoding(url: requestURL, path: "", description: "the Link header names <\(target)> as the next page, which is not an http or https URL")
            }
            return .url(next)
        }
    }

    /// Requests `requestURL` and returns the body and the response, if its status is 2xx,
    /// within ``timeout``.
    private func fetch(_ requestURL: URL) async throws(PaginationError) -> (Data, HTTPURLResponse) {
        var request = URLRequest(url: requestURL)
        // The session's own timeout (whole seconds on some platforms) is only a backstop.
        request.timeoutInterval = (timeout.seconds + 1).rounded(.up)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        // A token for the endpoint is not handed to another server a next-page URL names.
        if Self._origin(of: requestURL) == Self._origin(of: url) {
            for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        }
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
            throw .httpStatus(code: http.statusCode, url: requestURL, body: PaginationError.bodyExcerpt(data))
        }
        return (data, http)
    }

    /// The scheme, host and port of `url`, the port filled in for http and https; `nil`
    /// without a scheme or host.
    static func _origin(of url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return nil }
        let port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : -1)
        return "\(scheme)://\(host):\(port)"
    }
}
