/// The HTML the authorize endpoint serves: sign-in form, error page, form_post relay.
///
/// The sign-in page has exactly one form. Its fields: `login`, `passwd`, hidden fields
/// carrying the authorization request, and two submit buttons, `signin` and `cancel`.
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

    static func signIn(action: String, tenantName: String, clientName: String, hidden: [(String, String)], login: String, error: String?) -> String {
        let hiddenFields = hidden.map { #"<input type="hidden" name="\#(escape($0.0))" value="\#(escape($0.1))">"# }
            .joined(separator: "\n    ")
        let errorBlock = error.map { #"<p id="error" role="alert">\#(escape($0))</p>"# } ?? ""
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>Sign in to your account</title></head>
            <body>
            <h1>Sign in</h1>
            <p>\(escape(tenantName)) &mdash; \(escape(clientName))</p>
            \(errorBlock)
            <form id="signin" method="post" action="\(escape(action))">
                \(hiddenFields)
                <label>Email <input type="email" name="login" value="\(escape(login))" autocomplete="username"></label>
                <label>Password <input type="password" name="passwd" value="" autocomplete="current-password"></label>
                <button type="submit" name="signin" value="1">Sign in</button>
                <button type="submit" name="cancel" value="1">Cancel</button>
            </form>
            </body></html>
            """
    }

    static func error(_ error: OAuthError) -> String {
        let code = error.aadsts.map { "AADSTS\($0): " } ?? ""
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>Sign in error</title></head>
            <body><h1>Sorry, but we're having trouble signing you in.</h1>
            <p id="error" data-error="\(escape(error.error))">\(escape(code + error.message))</p></body></html>
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
}
