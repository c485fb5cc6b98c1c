/// The HTML the authorize endpoint serves: sign-in form, error page, form_post relay; and the
/// device-code verification page.
///
/// The sign-in page has exactly one form (`id="signin"`). Its fields: `login`, `passwd`,
/// hidden fields carrying the authorization request, and two submit buttons, `signin` (first:
/// the one Enter presses) and `cancel`. Each `<input>` starts `type`, `name`, `value`, in that
/// order, which scripts and tests rely on. A failed attempt shows its message in
/// `<p id="error">` (plain text directly inside). Pages are self-contained: inline CSS, no
/// script, no external assets, so they render offline. Every text that is not a constant of
/// the page goes through ``escape(_:)``.
enum SignInPage {
    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }

    /// The sign-in page. `tenantName` / `tenantDomain` name the directory, `clientName` the app
    /// (its registration's display name); `error` is the message of the failed attempt, if any.
    static func signIn(
        action: String, tenantName: String, tenantDomain: String = "", clientName: String, hidden: [(String, String)],
        login: String, error: String?
    ) -> String {
        let hiddenFields = hidden.map { #"<input type="hidden" name="\#(escape($0.0))" value="\#(escape($0.1))">"# }
            .joined(separator: "\n    ")
        let errorBlock = error.map { #"<p id="error" class="message error" role="alert">\#(escape($0))</p>"# } ?? ""
        let invalid = error == nil ? "" : #" aria-invalid="true" aria-describedby="error""#
        // The field a person types in next: the password once the username is known.
        let focusLogin = login.isEmpty ? " autofocus" : ""
        let focusPassword = login.isEmpty ? "" : " autofocus"
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">
            <title>Sign in to your account</title>
            <style>\(styles)</style></head>
            <body>
            <main class="card" aria-labelledby="title">
            \(brand(tenantName: tenantName))
            <h1 id="title">Sign in</h1>
            <p class="subtitle">to continue to <strong id="app-name">\(escape(clientName))</strong></p>
            \(errorBlock)
            <form id="signin" method="post" action="\(escape(action))">
                \(hiddenFields)
                <div class="field"><label for="login">Email address</label>
                <input type="email" name="login" value="\(escape(login))" id="login" autocomplete="username" placeholder="someone@\(escape(tenantDomain.isEmpty ? "example.com" : tenantDomain))" spellcheck="false"\(focusLogin)\(invalid)></div>
                <div class="field"><label for="passwd">Password</label>
                <input type="password" name="passwd" value="" id="passwd" autocomplete="current-password"\(focusPassword)\(invalid)></div>
                <div class="actions">
                <button type="submit" name="signin" value="1" id="signin-button" class="primary">Sign in</button>
                <button type="submit" name="cancel" value="1" id="cancel-button" class="secondary" formnovalidate>Cancel</button>
                </div>
            </form>
            \(tenantLine(tenantName: tenantName, tenantDomain: tenantDomain))
            </main>
            \(footer)
            </body></html>
            """
    }

    static func error(_ error: OAuthError) -> String {
        let code = error.aadsts.map { "AADSTS\($0): " } ?? ""
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">
            <title>Sign in error</title>
            <style>\(styles)</style></head>
            <body>
            <main class="card" aria-labelledby="title">
            <h1 id="title">Sorry, but we're having trouble signing you in.</h1>
            <p id="error" class="message error" role="alert" data-error="\(escape(error.error))">\(escape(code + error.message))</p>
            <dl class="details"><dt>Error</dt><dd>\(escape(error.error))</dd></dl>
            </main>
            \(footer)
            </body></html>
            """
    }

    static func formPost(action: String, fields: [(String, String)]) -> String {
        let inputs = fields.map { #"<input type="hidden" name="\#(escape($0.0))" value="\#(escape($0.1))">"# }
            .joined(separator: "\n")
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>Working...</title></head>
            <body onload="document.forms[0].submit()">
            <form method="post" action="\(escape(action))">
            \(inputs)
            <noscript><button type="submit">Continue</button></noscript>
            </form></body></html>
            """
    }

    /// What the device-code verification page says after a submission.
    enum DeviceMessage {
        case error(String)
        case done(String)
    }

    /// The device-code verification page (fields `user_code`, `login`, `passwd`; one form
    /// posting to the page itself).
    static func device(tenantName: String, tenantDomain: String, message: DeviceMessage?) -> String {
        let note: String
        switch message {
        case .error(let text): note = #"<p id="message" class="message error" role="alert">\#(escape(text))</p>"#
        case .done(let text): note = #"<p id="message" class="message done" role="status">\#(escape(text))</p>"#
        case nil: note = ""
        }
        return card(
            title: "Enter code", tenantName: tenantName, tenantDomain: tenantDomain,
            content: """
                <p class="subtitle">Enter the code displayed on your app or device, then sign in with your account.</p>
                \(note)
                <form id="deviceauth" method="post">
                    <div class="field"><label for="user_code">Code</label>
                    <input type="text" name="user_code" value="" id="user_code" autocomplete="one-time-code" spellcheck="false" autofocus></div>
                    <div class="field"><label for="login">Email address</label>
                    <input type="email" name="login" value="" id="login" autocomplete="username" placeholder="someone@\(escape(tenantDomain.isEmpty ? "example.com" : tenantDomain))" spellcheck="false"></div>
                    <div class="field"><label for="passwd">Password</label>
                    <input type="password" name="passwd" value="" id="passwd" autocomplete="current-password"></div>
                    <div class="actions">
                    <button type="submit" id="next-button" class="primary">Next</button>
                    </div>
                </form>
                """)
    }

    /// A page of one card: the tenant's brand, the heading `title`, `content`, the tenant line
    /// and the footer.
    static func card(title: String, tenantName: String, tenantDomain: String, content: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">
        <title>\(escape(title))</title>
        <style>\(styles)</style></head>
        <body>
        <main class="card" aria-labelledby="title">
        \(brand(tenantName: tenantName))
        <h1 id="title">\(escape(title))</h1>
        \(content)
        \(tenantLine(tenantName: tenantName, tenantDomain: tenantDomain))
        </main>
        \(footer)
        </body></html>
        """
    }

    /// The tenant's mark (its initial in a tile, drawn by the style sheet, so the page's text
    /// does not hold it) and name, at the top of the card.
    static func brand(tenantName: String) -> String {
        let initial = tenantName.first.map { escape(String($0).uppercased()) } ?? "?"
        return #"<div class="brand"><span class="mark" data-initial="\#(initial)" aria-hidden="true"></span><span class="tenant" id="tenant-name">\#(escape(tenantName))</span></div>"#
    }

    static func tenantLine(tenantName: String, tenantDomain: String) -> String {
        let domain = tenantDomain.isEmpty ? "" : " (\(escape(tenantDomain)))"
        return #"<p class="tenant-line">Organization: \#(escape(tenantName))\#(domain)</p>"#
    }

    static let footer = #"<footer>mockauth &middot; a mock Microsoft Entra ID issuer for tests &middot; not a real sign-in service</footer>"#

    /// The pages' style sheet: a centred card on a light page, in Entra's colours and sizes.
    /// Holds no `<`, so a tag scanner that reads the page finds none inside it.
    static let styles = """
        *{box-sizing:border-box}
        html,body{margin:0;padding:0}
        body{min-height:100vh;display:flex;flex-direction:column;align-items:center;justify-content:center;
        background:#f2f2f2 linear-gradient(135deg,#e9eef6 0%,#f5f5f5 55%,#eef3ea 100%);
        font-family:"Segoe UI","Helvetica Neue",Arial,"Liberation Sans",sans-serif;font-size:15px;color:#1b1b1b}
        .card{width:440px;max-width:calc(100vw - 24px);background:#fff;padding:44px;margin:24px 12px 12px;
        box-shadow:0 2px 6px rgba(0,0,0,.2);border-radius:2px}
        .brand{display:flex;align-items:center;gap:10px;margin-bottom:16px}
        .mark{display:inline-flex;align-items:center;justify-content:center;width:28px;height:28px;background:#0067b8;
        color:#fff;font-weight:600;font-size:16px;border-radius:3px}
        .mark::before{content:attr(data-initial)}
        .tenant{font-size:17px;font-weight:600;color:#404040;overflow-wrap:anywhere}
        h1{font-size:24px;font-weight:600;line-height:1.25;margin:0 0 4px}
        .subtitle{margin:0 0 20px;color:#404040;line-height:1.4;overflow-wrap:anywhere}
        .subtitle strong{font-weight:600;color:#1b1b1b}
        .message{margin:0 0 16px;padding:10px 12px;line-height:1.4;border-left:4px solid;overflow-wrap:anywhere}
        .message.error{color:#a80000;background:#fde7e9;border-color:#e81123}
        .message.done{color:#0b5a0b;background:#dff6dd;border-color:#107c10}
        .field{margin-bottom:16px}
        label{display:block;font-size:13px;font-weight:600;color:#404040;margin-bottom:4px}
        input[type=email],input[type=password],input[type=text]{display:block;width:100%;padding:6px 0 6px;font:inherit;
        font-size:15px;color:#1b1b1b;border:0;border-bottom:1px solid #666;background:transparent;outline:none;border-radius:0}
        input:focus{border-bottom:2px solid #0067b8;padding-bottom:5px}
        input[aria-invalid=true]{border-bottom-color:#e81123}
        .actions{display:flex;flex-direction:row-reverse;justify-content:flex-start;gap:8px;margin-top:28px}
        button{min-width:108px;min-height:32px;padding:4px 12px;font:inherit;font-size:15px;border:0;border-radius:0;cursor:pointer}
        button.primary{background:#0067b8;color:#fff}
        button.primary:hover{background:#005da6}
        button.secondary{background:#ccc;color:#1b1b1b}
        button.secondary:hover{background:#bbb}
        button:focus-visible{outline:2px solid #1b1b1b;outline-offset:2px}
        .tenant-line{margin:24px 0 0;font-size:13px;color:#666;overflow-wrap:anywhere}
        .details{margin:0;font-size:13px;color:#404040}
        .details dt{font-weight:600}
        .details dd{margin:0 0 8px;font-family:Consolas,"DejaVu Sans Mono",monospace}
        footer{font-size:12px;color:#666;margin:8px 12px 24px;text-align:center}
        """
}
