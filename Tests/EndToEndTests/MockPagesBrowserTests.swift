import ChildProcess
import Foundation
import LocalServers
import Testing

/// mockauth's pages for people (the sign-in page, the device page and `/_admin/ui`) looked at
/// in a real headless Chromium (`browser/pages.py`, python3-selenium): screenshots, the text a
/// person reads, the wrong-password error on the page, Cancel's `access_denied`, a device-code
/// sign-in confirmed, and no secret on the admin page.
/// Serialized like the other browser suites: one Chromium at a time.
@Suite(.serialized) struct MockPagesBrowserTests {
    static let script = URL(fileURLWithPath: InteractiveSignInTests.browserScript).deletingLastPathComponent().appendingPathComponent("pages.py").path

    /// Where the screenshots go (kept after the run, to be looked at): `.build/mock-pages/`.
    static let screenshots = InProcessMockAuth.packageRoot.appendingPathComponent(".build/mock-pages").path

    /// The text the script printed between `=== name ===` and `=== end name ===`.
    static func section(_ output: String, _ name: String) -> String? {
        guard let start = output.range(of: "=== \(name) ===\n"), let end = output.range(of: "\n=== end \(name) ===", range: start.upperBound..<output.endIndex) else {
            return nil
        }
        return String(output[start.upperBound..<end.lowerBound])
    }

    /// Width and height of a PNG file, nil when it is not one.
    static func pngSize(_ path: String) -> (width: Int, height: Int, bytes: Int)? {
        guard let data = FileManager.default.contents(atPath: path), data.count > 24,
            Array(data.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], Array(data[12..<16]) == Array("IHDR".utf8)
        else { return nil }
        func number(_ offset: Int) -> Int { data[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (number(16), number(20), data.count)
    }

    @Test func theSignInPageAndTheAdminPageInHeadlessChromium() async throws {
        try? FileManager.default.removeItem(atPath: Self.screenshots)
        try await InProcessMockAuth.run { mock in
            let started = ContinuousClock.now
            let run = try await ChildProcess.run("/usr/bin/python3", [Self.script, mock.url, Self.screenshots], timeout: .seconds(180))
            let output = run.standardOutput
            #expect(run.status == 0, "pages.py: \(run.standardError)\n\(output)")
            print("pages.py took \(ContinuousClock.now - started); screenshots in \(Self.screenshots)")

            for (name, minimumHeight) in [("signin", 600), ("signin-error", 600), ("device", 600), ("device-done", 600), ("admin", 1500)] {
                let size = Self.pngSize(Self.screenshots + "/\(name).png")
                #expect(size != nil, "\(name).png is a PNG")
                if let size {
                    #expect(size.width == 1280 && size.height >= minimumHeight, "\(name).png is \(size.width)×\(size.height)")
                    #expect(size.bytes > 20_000, "\(name).png shows more than a blank page: \(size.bytes) bytes")
                }
            }

            let signIn = try #require(Self.section(output, "sign-in"), "\(output)")
            for text in ["Contoso", "Sign in", "to continue to Chatr (managed chat app)", "Email address", "Password", "Cancel", "Organization: Contoso (contoso.com)"] {
                #expect(signIn.contains(text), "the sign-in page says '\(text)': \(signIn)")
            }
            #expect(!signIn.contains("incorrect"), "no error before an attempt")
            let error = try #require(Self.section(output, "sign-in error"))
            #expect(error.contains("Your account or password is incorrect. (AADSTS50126)"), "\(error)")
            let cancel = try #require(Self.section(output, "cancel redirect"))
            #expect(cancel.hasPrefix("/?error=access_denied&") && cancel.contains("state=pages-state-42") && !cancel.contains("?code=") && !cancel.contains("&code="), "\(cancel)")

            let device = try #require(Self.section(output, "device done"))
            #expect(device.contains("You have signed in") && device.contains("Contoso") && device.contains("Enter code"), "\(device)")

            let admin = try #require(Self.section(output, "admin"))
            for text in [
                "mockauth admin", "Applications", "Users", "Conditional access", "MAM policy", "Enrollments", "Pending wipes",
                "Armed faults", "Request log", "alice@contoso.com", "Alice Anders", "pol-chatr", "mam.checkin", "/contoso.com/[redacted]/x",
            ] {
                #expect(admin.contains(text), "the admin page says '\(text)'")
            }
            for secret in ["Passw0rd!", "s3cret", "eyJ", "mock-"] {
                #expect(!admin.contains(secret), "the admin page shows no '\(secret)'")
            }
            #expect(!output.contains("Passw0rd!"), "the script printed no password")

            // What the browser did, as mockauth logged it: the page, the failed attempt, the cancel.
            let authorize = mock.state.requestLogEntries().filter { $0.route == "authorize" }.map { "\($0.method) \($0.status ?? 0)" }
            #expect(authorize == ["GET 200", "POST 200", "POST 302"], "\(authorize)")
            #expect(!mock.state.requestLogEntries().contains { $0.path.hasPrefix("/_admin") || $0.path == "/favicon.ico" })
        }
    }
}
