import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ListPagination
import Testing

@Suite struct PaginationErrorTests {
    static let url = URL(string: "http://127.0.0.1:1/pages?page=2&limit=50")!

    @Test func errorsAreMappedToTypedCases() {
        #expect(PaginationError(CancellationError()) == .cancelled)
        #expect(PaginationError(URLError(.cancelled)) == .cancelled)
        #expect(PaginationError(URLError(.timedOut), url: Self.url) == .timedOut(url: Self.url))
        guard case .transport(let url, let description) = PaginationError(URLError(.cannotConnectToHost), url: Self.url) else {
            Issue.record("expected a transport error")
            return
        }
        #expect(url == Self.url)
        #expect(description.contains("-1004"))
        #expect(PaginationError(PaginationError.httpStatus(code: 502, url: Self.url)) == .httpStatus(code: 502, url: Self.url))
        #expect(PaginationError(TestFailure()) == .loader(LoaderFailure(TestFailure())))
    }

    @Test func decodingErrorsKeepTheirPath() {
        struct Row: Decodable { var score: Int }
        let data = Data(#"{"data":[{"score":1},{"score":"2"}]}"#.utf8)
        struct Envelope: Decodable { var data: [Row] }
        do {
            _ = try JSONDecoder().decode(Envelope.self, from: data)
            Issue.record("decoding should fail")
        } catch {
            guard case .decoding(let url, let path, _) = PaginationError(error, url: Self.url) else {
                Issue.record("expected a decoding error")
                return
            }
            #expect(url == Self.url)
            #expect(path == "data[1].score")
        }
    }

    @Test(arguments: [
        (408, true), (425, true), (429, true), (500, true), (503, true), (599, true),
        (400, false), (401, false), (404, false), (422, false),
    ])
    func onlyTransientStatusesAreTransient(code: Int, transient: Bool) {
        #expect(PaginationError.httpStatus(code: code, url: Self.url).isTransient == transient)
    }

    @Test func descriptionsNameTheURL() {
        #expect(PaginationError.httpStatus(code: 500, url: Self.url).description == "HTTP status 500 (\(Self.url.absoluteString))")
        #expect(PaginationError.decoding(url: Self.url, path: "data[3].score", description: "line 5").description
            == "cannot decode data[3].score (\(Self.url.absoluteString)): line 5")
        #expect(PaginationError.timedOut(url: Self.url).url == Self.url)
    }
}
