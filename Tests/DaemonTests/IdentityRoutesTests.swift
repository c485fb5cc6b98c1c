import Foundation
import HTTPClient
import JSON
import Testing

/// `/v1/identity` on a real `complianced` child: bad input named, the switch results, a
/// managed file read only under its owner's process identity, and `loginAndEnrollAccount(nil)`.
@Suite struct IdentityRoutesTests {
    @Test func badIdentityInputIsA400NamingTheField() async throws {
        try await DaemonProcess.with { daemon, _ in
            let notString = try await daemon.call(.post, "/v1/identity/ui", ["identity": 5])
            #expect(notString.status == 400 && notString.json["error"]?["message"]?.stringValue?.contains("'identity'") == true)
            let missing = try await daemon.call(.put, "/v1/identity/process", [:])
            #expect(missing.status == 400 && missing.json["error"]?["message"]?.stringValue?.contains("'identity' is required") == true)
            let launch = try await daemon.call(.post, "/v1/identity/ui", ["identity": "alice@contoso.com", "conditionalLaunch": "maybe"])
            #expect(launch.status == 400 && launch.json["error"]?["message"]?.stringValue?.contains("conditionalLaunch") == true)
            let invalid = try await daemon.call(.post, "/v1/identity/ui", ["identity": "alice at contoso"])
            #expect(invalid.status == 400 && invalid.json["error"]?["code"] == "invalid_account")
            let unknownField = try await daemon.call(.put, "/v1/identity/process", ["identity": "", "ui": ""])
            #expect(unknownField.status == 400 && unknownField.json["error"]?["message"]?.stringValue?.contains("'ui'") == true)
            let view = try await daemon.call(.get, "/v1/identity")
            #expect(view.status == 200 && view.json["processIdentity"] == .null && view.json["uiIdentity"] == .null)
            #expect(view.json["effectiveUIIdentity"] == "" && view.json["multiIdentity"] == true, "chatr is MultiIdentity")
        }
    }

    @Test func aManagedFileReadsOnlyUnderItsOwnersIdentity() async throws {
        try await DaemonProcess.with { daemon, _ in
            let nobody = try await daemon.call(.post, "/v1/sign-in", ["silent": true])
            #expect(nobody.status == 422 && nobody.json["error"]?["code"] == "account_required")
            let user: JSONValue = ["action": "signIn", "password": "Passw0rd!"]
            let signIn = try await daemon.call(.post, "/v1/sign-in", ["account": "alice@contoso.com", "scopes": ["api://contoso-chat/Chat.Read"], "user": user])
            #expect(signIn.status == 200 && signIn.json["signedIn"] == true)
            let put = try await daemon.client.execute(HTTPClientRequest(method: .put, url: "http://localhost/v1/accounts/alice@contoso.com/data/plan.txt", body: Array("plan".utf8)))
            #expect(put.status == 201)

            let toNobody = try await daemon.call(.post, "/v1/identity/ui", ["identity": ""])
            #expect(toNobody.status == 200 && toNobody.json["result"] == "Success" && toNobody.json["effectiveUIIdentity"] == "")
            let underNoUI = try await daemon.client.execute(HTTPClientRequest(method: .get, url: "http://localhost/v1/accounts/alice@contoso.com/data/plan.txt"))
            #expect(underNoUI.status == 200, "the UI identity doesn't affect file tasks")
            let toNoProcess = try await daemon.call(.put, "/v1/identity/process", ["identity": ""])
            #expect(toNoProcess.status == 200)
            let refused = try await daemon.call(.get, "/v1/accounts/alice@contoso.com/data/plan.txt")
            #expect(refused.status == 403 && refused.json["error"]?["code"] == "identity_mismatch")

            let dave = try await daemon.call(.put, "/v1/identity/process", ["identity": "dave@contoso.com"])
            #expect(dave.status == 403 && dave.json["error"]?["code"] == "identity_not_allowed")
            let daveUI = try await daemon.call(.post, "/v1/identity/ui", ["identity": "dave@contoso.com"])
            #expect(daveUI.status == 200 && daveUI.json["result"] == "NotAllowed" && daveUI.json["detail"]?.stringValue?.contains("dave") == true)

            let toAlice = try await daemon.call(.post, "/v1/identity/ui", ["identity": "Alice@Contoso.com"])
            #expect(toAlice.json["result"] == "Success" && toAlice.json["effectiveUIIdentity"] == "alice@contoso.com")
            let stillRefused = try await daemon.call(.get, "/v1/accounts/alice@contoso.com/data/plan.txt")
            #expect(stillRefused.status == 403, "the UI identity alice does not open her files; the process identity does")
            let processAlice = try await daemon.call(.put, "/v1/identity/process", ["identity": "Alice@Contoso.com"])
            #expect(processAlice.status == 200)
            let read = try await daemon.client.execute(HTTPClientRequest(method: .get, url: "http://localhost/v1/accounts/alice@contoso.com/data/plan.txt"))
            #expect(read.status == 200 && read.body == Array("plan".utf8))

            let again = try await daemon.call(.post, "/v1/sign-in", ["account": .null, "silent": true, "scopes": ["api://contoso-chat/Chat.Read"]])
            #expect(again.status == 200 && again.json["account"] == "alice@contoso.com" && again.json["signedIn"] == true)
        }
    }
}
