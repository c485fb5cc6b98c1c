import Foundation
import HTTPClient
import JSON
import Testing
import LocalServers
import ChildProcess

/// `POST /v1/protect`, `/v1/unprotect`, `/v1/protection-info` and a file's
/// `…/protection-info`, against a real `complianced` child.
@Suite struct ProtectionRoutesTests {
    static func signIn(_ daemon: DaemonProcess, _ upn: String) async throws {
        let answer = try await daemon.call(.post, "/v1/sign-in", ["account": .string(upn), "user": ["action": "signIn", "password": "Passw0rd!"]])
        #expect(answer.json["signedIn"] == true, "\(upn): \(answer.json)")
    }

    static func base64(_ text: String) -> JSONValue { .string(Data(text.utf8).base64EncodedString()) }

    @Test func buffersRoundTripAndErrorsNameWhatWasWrong() async throws {
        try await DaemonProcess.with { daemon, _ in
            try await Self.signIn(daemon, "alice@contoso.com")
            try await Self.signIn(daemon, "bob@contoso.com")

            let sealed = try await daemon.call(.post, "/v1/protect", ["identity": "Alice@Contoso.com", "data": Self.base64("plan")])
            #expect(sealed.status == 200 && sealed.json["owner"] == "alice@contoso.com" && sealed.json["encrypted"] == true && sealed.json["mode"] == "encrypted")
            let plain = try await daemon.call(.post, "/v1/protect", ["identity": "bob@contoso.com", "data": Self.base64("list")])
            #expect(plain.json["owner"] == "bob@contoso.com" && plain.json["encrypted"] == false && plain.json["mode"] == "identityHeader")
            let nobody = try await daemon.call(.post, "/v1/protect", ["data": Self.base64("x")])
            #expect(nobody.json["owner"] == .null && nobody.json["encrypted"] == false)

            let info = try await daemon.call(.post, "/v1/protection-info", ["data": sealed.json["data"]!])
            #expect(info.json["protected"] == true && info.json["owner"] == "alice@contoso.com" && info.json["encrypted"] == true)
            let opened = try await daemon.call(.post, "/v1/unprotect", ["data": sealed.json["data"]!])
            #expect(opened.json["data"] == Self.base64("plan") && opened.json["protected"] == true)
            let foreign = try await daemon.call(.post, "/v1/unprotect", ["data": Self.base64("hello")])
            #expect(foreign.json["data"] == Self.base64("hello") && foreign.json["protected"] == false)

            var bytes = [UInt8](Data(base64Encoded: sealed.json["data"]!.stringValue!)!)
            bytes[bytes.count - 1] ^= 1
            let tampered = try await daemon.call(.post, "/v1/unprotect", ["data": .string(Data(bytes).base64EncodedString())])
            #expect(tampered.status == 422 && tampered.json["error"]?["code"] == "tampered")
            let broken = try await daemon.call(.post, "/v1/unprotect", ["data": Self.base64("CPRT\u{2}")])
            #expect(broken.status == 400 && broken.json["error"]?["code"] == "invalid_protected_data")
            let notBase64 = try await daemon.call(.post, "/v1/protection-info", ["data": "***"])
            #expect(notBase64.status == 400 && notBase64.json["error"]?["message"]?.stringValue?.contains("base64") == true)
            let missing = try await daemon.call(.post, "/v1/protect", ["identity": "bob@contoso.com"])
            #expect(missing.status == 400 && missing.json["error"]?["message"]?.stringValue?.contains("'data'") == true)
            let badIdentity = try await daemon.call(.post, "/v1/protect", ["identity": "bob at contoso", "data": Self.base64("x")])
            #expect(badIdentity.status == 400 && badIdentity.json["error"]?["code"] == "invalid_account")

            // Wiped: the key is gone; 410 naming alice, and the daemon stays up.
            let wipe = try await daemon.call(.post, "/v1/deregister", ["account": "alice@contoso.com", "wipe": true])
            #expect(wipe.json["wiped"] == true)
            let gone = try await daemon.call(.post, "/v1/unprotect", ["data": sealed.json["data"]!])
            #expect(gone.status == 410 && gone.json["error"]?["code"] == "key_gone")
            #expect(gone.json["error"]?["message"]?.stringValue?.contains("alice@contoso.com") == true)
            #expect(try await daemon.call(.get, "/v1/health").status == 200)
        }
    }

    @Test func aFilesOwnerIsReadFromItsHeader() async throws {
        try await DaemonProcess.with { daemon, _ in
            try await Self.signIn(daemon, "alice@contoso.com")
            try await Self.signIn(daemon, "bob@contoso.com")
            for (upn, name) in [("alice@contoso.com", "a.txt"), ("bob@contoso.com", "b.txt")] {
                let response = try await daemon.client.execute(HTTPClientRequest(
                    method: .put, url: "http://localhost/v1/accounts/\(upn)/data/\(name)", body: Array("x".utf8)))
                #expect(response.status == 201)
            }
            let alices = try await daemon.call(.get, "/v1/accounts/ALICE@contoso.com/data/a.txt/protection-info")
            #expect(alices.status == 200 && alices.json["owner"] == "alice@contoso.com" && alices.json["encrypted"] == true)
            #expect(alices.json["ownerInHeader"] == true && alices.json["name"] == "a.txt")
            let bobs = try await daemon.call(.get, "/v1/accounts/bob@contoso.com/data/b.txt/protection-info")
            #expect(bobs.json["owner"] == "bob@contoso.com" && bobs.json["encrypted"] == false)
            let list = try await daemon.call(.get, "/v1/accounts/bob@contoso.com/data")
            #expect(list.json["files"]?[0]?["owner"] == "bob@contoso.com")
            let none = try await daemon.call(.get, "/v1/accounts/bob@contoso.com/data/a.txt/protection-info")
            #expect(none.status == 404 && none.json["error"]?["code"] == "not_found")
            let badName = try await daemon.call(.get, "/v1/accounts/bob@contoso.com/data/..x/protection-info")
            #expect(badName.status == 400)
        }
    }
}
