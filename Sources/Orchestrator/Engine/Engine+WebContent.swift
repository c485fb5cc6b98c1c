import ComplianceCore

/// Web-view and clipboard decisions asked of the running daemon: ComplianceCore decides
/// (``ComplianceMachine/webViewDecision(_:app:)``, ``ComplianceMachine/clipboardDecision(from:to:app:)``)
/// from the effective UI identity, the managed account's policy in force and the profile's web
/// settings; nothing here adds a rule.
extension Engine {
    /// The web view's data identity and its navigation's outcome, now.
    public func webViewDecision(_ request: WebViewRequest) -> WebViewAnswer {
        machine.webViewDecision(request, app: configuration.webViews)
    }

    /// What a clipboard side acts as now.
    public func clipboardEndpoint(_ side: ClipboardSide) -> ClipboardEndpoint {
        machine.clipboardEndpoint(side, app: configuration.webViews)
    }

    /// A cut/copy from `source` pasted into `destination`, now.
    public func clipboardDecision(from source: ClipboardSide, to destination: ClipboardSide) -> ClipboardDecision {
        machine.clipboardDecision(from: source, to: destination, app: configuration.webViews)
    }
}
