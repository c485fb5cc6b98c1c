import JSON
import Testing

/// `DataRoutes` at the router: an account's vault files.
@Suite struct DataRouterTests {
    @Test func putGetListAndRemoveAFile() async throws {
        try await RouterSupport.withRouter { client, harness in
            try await harness.signIn("bob@contoso.com")
            let put = try await client.control(.put, "/v1/accounts/bob@contoso.com/data/notes.txt", raw: Array("hello".utf8))
            #expect(put.status == .created && put.json["name"] == "notes.txt" && put.json["size"] == 5 && put.json["account"] == "bob@contoso.com")
            let get = try await client.control(.get, "/v1/accounts/bob@contoso.com/data/notes.txt")
            #expect(get.status == .ok && get.bytes == Array("hello".utf8) && get.headers[.contentType] == "application/octet-stream")
            let list = try await client.control(.get, "/v1/accounts/bob@contoso.com/data")
            #expect(list.status == .ok && list.json["files"]?.arrayValue?.map { $0["name"] } == ["notes.txt"])
            let owner = try await client.control(.get, "/v1/accounts/bob@contoso.com/data/notes.txt/protection-info")
            #expect(owner.status == .ok && owner.json["owner"] == "bob@contoso.com" && owner.json["name"] == "notes.txt")
            let removed = try await client.control(.delete, "/v1/accounts/bob@contoso.com/data/notes.txt")
            #expect(removed.status == .ok && removed.json["removed"] == true)
            let again = try await client.control(.delete, "/v1/accounts/bob@contoso.com/data/notes.txt")
            #expect(again.status == .ok && again.json["removed"] == false)
        }
    }

    @Test func aBadNameIsA400BeforeAnythingElse() async throws {
        try await RouterSupport.withRouter { client, _ in
            for (name, problem) in [("..secret", "must not start with '.'"), ("a%2Fb", "may hold only"), ("a..b", "must not contain '..'")] {
                let answer = try await client.control(.put, "/v1/accounts/nobody@contoso.com/data/\(name)", raw: [1])
                #expect(answer.isError(.badRequest, "bad_request") && answer.message.contains(problem), "\(name)")
            }
            let long = try await client.control(.get, "/v1/accounts/nobody@contoso.com/data/" + String(repeating: "a", count: 129))
            #expect(long.isError(.badRequest, "bad_request") && long.message.contains("1 to 128"))
        }
    }

    @Test func theEnginesRefusalsCarryTheirCodeAndStatus() async throws {
        try await RouterSupport.withRouter { client, _ in
            let unknown = try await client.control(.put, "/v1/accounts/nobody@contoso.com/data/a.txt", raw: [1])
            #expect(unknown.isError(.notFound, "unknown_account"))
            let list = try await client.control(.get, "/v1/accounts/nobody@contoso.com/data")
            #expect(list.isError(.notFound, "unknown_account"))
        }
    }
}
