import HTTPClient
import JSON

/// Plays the browser for an interactive sign-in: opens the authorize URL and returns the URL the
/// issuer finally redirects to (the app's redirect URI with a code or an error).
public protocol InteractiveUserAgent: Sendable {
    func authorize(url: String, redirectURI: String) async throws(IssuerError) -> String
}

/// A scripted person at the sign-in page: fills in the one form's `login` / `passwd` (or the
/// fields named otherwise) and presses sign-in, or presses cancel. Used by flows and tests.
public struct ScriptedUser: InteractiveUserAgent, CustomStringConvertible {
    public enum Choice: Sendable, Hashable {
        case signIn(username: String, password: String)
        case cancel
    }

    public let choice: Choice
    private let http: HTTPClient

    /// `http` must not follow redirects: the redirect to the app is the answer.
    public init(_ choice: Choice, http: HTTPClient) {
        self.choice = choice
        self.http = http
    }

    public var description: String {
        switch choice {
        case .signIn(let username, _): "ScriptedUser(signIn: \(username))"
        case .cancel: "ScriptedUser(cancel)"
        }
    }

    public func authorize(url: String, redirectURI: String) async throws(IssuerError) -> String {
        let page = try await fetch(HTTPClientRequest(url: url), endpoint: url)
        if let location = redirect(page, to: redirectURI) { return location }  // single sign-on: no page
        if page.status >= 500 || page.status == 429 {
            throw IssuerError(
                .serviceFailure, "the authorize endpoint answered HTTP \(page.status)", endpoint: url, httpStatus: page.status,
                retryAfterSeconds: page.retryAfter().map { Int($0.components.seconds) })
        }
        guard page.status == 200 else {
            throw IssuerError(.misconfigured, "its authorize endpoint answered HTTP \(page.status)\(Self.quote(page))", endpoint: url)
        }
        guard let form = HTMLForm.first(in: page.bodyText) else {
            throw IssuerError(.misconfigured, "its authorize endpoint answered with a page that is not a sign-in form\(Self.quote(page))", endpoint: url)
        }
        let submitNames = form.fields.filter { $0.type == "submit" }.map(\.name)
        let cancelName = submitNames.first { $0.lowercased().contains("cancel") }
        let fields: [(String, String)]
        switch choice {
        case .cancel:
            guard let cancelName else { throw IssuerError(.signInFailed, "the sign-in form has no cancel button", endpoint: url) }
            fields = form.submission(pressing: cancelName, overrides: [:])
        case .signIn(let username, let password):
            let names = Set(form.fields.map(\.name))
            let userField = ["login", "username", "email", "loginfmt"].first(where: names.contains) ?? "login"
            let passwordField = ["passwd", "password"].first(where: names.contains) ?? "passwd"
            let signInName = submitNames.first { $0 != cancelName } ?? ""
            fields = form.submission(pressing: signInName, overrides: [userField: username, passwordField: password])
        }
        let action = Self.resolve(form.action, against: url)
        let answer = try await fetch(.form(url: action, fields: fields), endpoint: action)
        if let location = redirect(answer, to: redirectURI) { return location }
        throw IssuerError(.signInFailed, "sign-in was not accepted (HTTP \(answer.status))\(Self.pageError(answer))", endpoint: action)
    }

    private func fetch(_ request: HTTPClientRequest, endpoint: String) async throws(IssuerError) -> HTTPClientResponse {
        do {
            return try await http.execute(request)
        } catch {
            throw IssuerError(.network, "cannot reach the sign-in page: \(error.message)", endpoint: endpoint, transport: error)
        }
    }

    private func redirect(_ response: HTTPClientResponse, to redirectURI: String) -> String? {
        guard (300..<400).contains(response.status), let location = response.headers["Location"], location.hasPrefix(redirectURI) else {
            return nil
        }
        return location
    }

    /// What an answer says, quoted for a message: an OAuth error's `error` and the first line
    /// of its `error_description` (Entra's `AADSTS…` text, without the trace lines), else the
    /// page's `id="error"` element, else the text of its body (tags dropped, white space
    /// folded), up to 200 characters.
    static func quote(_ response: HTTPClientResponse) -> String {
        if let json = try? JSONValue.parse(response.body), let error = json["error"]?.stringValue {
            let description = json["error_description"]?.stringValue?.split(whereSeparator: \.isNewline).first
            return ": \"\(error)\(description.map { ": \($0)" } ?? "")\""
        }
        let marked = pageError(response)
        if !marked.isEmpty { return ": \"\(marked.dropFirst(2))\"" }
        let html = response.bodyText
        let body = html.range(of: "<body", options: .caseInsensitive).map { html[$0.lowerBound...] } ?? html[...]
        var text = ""
        var inTag = false
        for character in body {
            if character == "<" { inTag = true; text.append(" "); continue }
            if character == ">" { inTag = false; continue }
            if !inTag { text.append(character) }
        }
        let words = HTMLForm.decodeEntities(text[...]).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        guard !words.isEmpty else { return " (empty body)" }
        return ": \"\(words.count > 200 ? words.prefix(200) + "…" : words[...])\""
    }

    /// The text of the page's `id="error"` element, if any, as `: message`.
    static func pageError(_ response: HTTPClientResponse) -> String {
        let html = response.bodyText
        guard let marker = html.range(of: "id=\"error\"") else { return "" }
        let after = html[marker.upperBound...].drop { $0 != ">" }.dropFirst()
        let text = after.prefix { $0 != "<" }
        return text.isEmpty ? "" : ": " + HTMLForm.decodeEntities(text)
    }

    /// Resolves a form action against the page URL (absolute, absolute-path or empty).
    static func resolve(_ action: String, against page: String) -> String {
        if action.isEmpty { return page }
        if action.hasPrefix("http://") || action.hasPrefix("https://") { return action }
        guard let schemeEnd = page.range(of: "://") else { return action }
        let authorityEnd = page[schemeEnd.upperBound...].firstIndex(of: "/") ?? page.endIndex
        let origin = page[..<authorityEnd]
        if action.hasPrefix("/") { return origin + action }
        let pathEnd = page[..<(page.firstIndex(of: "?") ?? page.endIndex)].lastIndex(of: "/") ?? authorityEnd
        return page[..<pathEnd] + "/" + action
    }
}
