import JSON
import Testing

/// `WebContentRoutes` at the router: web-view and clipboard decisions of the running app.
@Suite struct WebContentRouterTests {
    @Test func withNoAccountNothingIsManaged() async throws {
        try await RouterSupport.withRouter { client, _ in
            let view = try await client.control(.post, "/v1/webview/decide", ["policy": "currentIdentity", "url": "https://www.bing.com/", "delegate": true])
            #expect(view.status == .ok)
            #expect(view.json["uiIdentity"] == ["kind": "none"] && view.json["dataIdentity"] == ["kind": "unmanaged"])
            #expect(view.json["linkPolicy"] == "anyApp" && view.json["clipboardRestriction"] == "allApps" && view.json["navigation"] == "loadInView")
            let copy = try await client.control(.post, "/v1/clipboard/decide", ["from": "webView", "fromPolicy": "currentIdentity", "to": "unmanagedApp"])
            #expect(copy.status == .ok && copy.json["allowed"] == true && copy.json["restriction"] == .null)
            #expect(copy.json["from"] == ["kind": "unmanaged"] && copy.json["to"] == ["kind": "unmanagedApp"])
        }
    }

    @Test func badInputIsNamed() async throws {
        try await RouterSupport.withRouter { client, _ in
            let policy = try await client.control(.post, "/v1/webview/decide", ["policy": "managed"])
            #expect(policy.isError(.badRequest, "bad_request") && policy.message.contains("'policy'"))
            let url = try await client.control(.post, "/v1/webview/decide", ["url": "not a url"])
            #expect(url.isError(.badRequest, "bad_request") && url.message.contains("'url'"))
            let hosts = try await client.control(.post, "/v1/webview/decide", ["internalHosts": "contoso.com"])
            #expect(hosts.isError(.badRequest, "bad_request") && hosts.message.contains("'internalHosts'"))
            for field in ["frame", "delegate", "internalHosts"] {
                let value: JSONValue = field == "frame" ? "iframe" : field == "delegate" ? true : ["contoso.com"]
                let stray = try await client.control(.post, "/v1/webview/decide", [field: value])
                #expect(stray.isError(.badRequest, "bad_request") && stray.message.contains("field '\(field)' describes a navigation and goes with 'url'"), "\(field)")
            }
            let unknown = try await client.control(.post, "/v1/webview/decide", ["uiIdentity": "managed"])
            #expect(unknown.isError(.badRequest, "bad_request") && unknown.message.contains("unknown field 'uiIdentity'"))
            let missing = try await client.control(.post, "/v1/clipboard/decide", ["to": "app"])
            #expect(missing.isError(.badRequest, "bad_request") && missing.message.contains("'from'"))
            let side = try await client.control(.post, "/v1/clipboard/decide", ["from": "desktop", "to": "app"])
            #expect(side.isError(.badRequest, "bad_request") && side.message.contains("'from'"))
            let stray = try await client.control(.post, "/v1/clipboard/decide", ["from": "app", "fromPolicy": "unset", "to": "managedApp"])
            #expect(stray.isError(.badRequest, "bad_request") && stray.message.contains("'fromPolicy' goes with from \"webView\""))
            // A policy describes a web view's content: on another app's side it is refused too.
            for side in ["managedApp", "unmanagedApp"] {
                let other = try await client.control(.post, "/v1/clipboard/decide", ["from": "app", "to": .string(side), "toPolicy": "unset"])
                #expect(other.isError(.badRequest, "bad_request") && other.message.contains("'toPolicy' goes with to \"webView\", not \"\(side)\""), "\(side)")
            }
        }
    }
}
