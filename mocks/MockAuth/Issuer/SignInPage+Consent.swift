extension SignInPage {
    /// The consent page of `prompt=consent`: the signed-in account, the app, the permissions it
    /// asks for, and buttons `accept` and `cancel` (in that order) in one form that carries the
    /// request back as hidden fields.
    static func consent(
        action: String, tenantName: String, tenantDomain: String, clientName: String, account: String, permissions: [String],
        hidden: [(String, String)]
    ) -> String {
        let hiddenFields = hidden.map { #"<input type="hidden" name="\#(escape($0.0))" value="\#(escape($0.1))">"# }
            .joined(separator: "\n    ")
        let items = permissions.map { "<li>\(escape($0))</li>" }.joined()
        return card(
            title: "Permissions requested", tenantName: tenantName, tenantDomain: tenantDomain,
            content: """
                <p class="subtitle"><strong id="app-name">\(escape(clientName))</strong> would like to, for <strong id="account">\(escape(account))</strong>:</p>
                <ul id="permissions">\(items)</ul>
                <form id="consent" method="post" action="\(escape(action))">
                    \(hiddenFields)
                    <div class="actions">
                    <button type="submit" name="accept" value="1" id="accept-button" class="primary">Accept</button>
                    <button type="submit" name="cancel" value="1" id="cancel-button" class="secondary">Cancel</button>
                    </div>
                </form>
                """)
    }
}
