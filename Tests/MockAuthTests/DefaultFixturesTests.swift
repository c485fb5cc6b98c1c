import Testing

@testable import MockAuth

/// `mockauth serve` without `--fixtures` finds the demo tenant from a checkout, an installed
/// package (`/usr/bin/mockauth` → `/usr/share/compliance-orchestrator/…`) or a tarball's prefix.
@Suite("The default fixtures' path")
struct DefaultFixturesTests {
    static let checkout = "/src/co/mocks/fixtures/contoso.json"

    static func resolve(_ path: String = Fixtures.defaultPath, executable: String, existing: Set<String>) -> String {
        Fixtures.resolve(path, executable: executable, checkout: checkout, exists: { existing.contains($0) })
    }

    @Test("the working directory's copy comes first")
    func workingDirectoryFirst() {
        let existing: Set = [Fixtures.defaultPath, "/usr/share/compliance-orchestrator/mocks/fixtures/contoso.json", Self.checkout]
        #expect(Self.resolve(executable: "/usr/bin/mockauth", existing: existing) == Fixtures.defaultPath)
    }

    @Test("an installed mockauth reads PREFIX/share/compliance-orchestrator, from any directory")
    func installedPrefix() {
        let packaged = "/usr/share/compliance-orchestrator/mocks/fixtures/contoso.json"
        #expect(Self.resolve(executable: "/usr/bin/mockauth", existing: [packaged, Self.checkout]) == packaged)
        let tarball = "/opt/co/share/compliance-orchestrator/mocks/fixtures/contoso.json"
        #expect(Self.resolve(executable: "/opt/co/bin/mockauth", existing: [tarball, packaged]) == tarball)
    }

    @Test("a build in the source tree falls back to the checkout's copy")
    func checkoutLast() {
        #expect(Self.resolve(executable: "/src/co/.build/debug/mockauth", existing: [Self.checkout]) == Self.checkout)
    }

    @Test("the places looked in, in order, which a missing default names")
    func candidates() {
        #expect(Fixtures.defaultCandidates(executable: "/usr/bin/mockauth", checkout: Self.checkout) == [
            Fixtures.defaultPath, "/usr/share/compliance-orchestrator/mocks/fixtures/contoso.json", Self.checkout,
        ])
    }

    @Test("nothing found: the default path itself, so the error names it; a given path is never replaced")
    func noneAndGiven() {
        #expect(Self.resolve(executable: "/usr/bin/mockauth", existing: []) == Fixtures.defaultPath)
        let existing: Set = [Fixtures.defaultPath, Self.checkout]
        #expect(Self.resolve("tenant.json", executable: "/usr/bin/mockauth", existing: existing) == "tenant.json")
    }
}
