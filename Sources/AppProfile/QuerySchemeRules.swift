/// The `LSApplicationQueriesSchemes` rules: an `-intunemam` twin for each scheme the app queries,
/// the managed-browser and Mobile Threat Defense schemes, and Outlook's when `mailto` is used;
/// each scheme once; and iOS's limit on the list's length.
struct QuerySchemeRules {
    /// The most schemes iOS lets an app query (apps built with the iOS 15 SDK or later): the
    /// Intune guide's "if the app runs out of space in its LSApplicationQueriesSchemes list".
    static let maximumCount = 50

    let schemes: [String]
    private let present: Set<String>

    init(_ schemes: [String]) {
        self.schemes = schemes
        self.present = Set(schemes.map { $0.lowercased() })
    }

    /// The app's own schemes: neither twins nor the SDK's required schemes, nor entries that
    /// are no URL scheme.
    var appSchemes: [String] {
        let required = Set(ProfileKeys.requiredQuerySchemes)
        return schemes.filter {
            let scheme = $0.lowercased()
            return AppProfile.isURLScheme($0) && !scheme.hasSuffix(ProfileKeys.twinSuffix) && !required.contains(scheme)
        }
    }

    /// The entries that are no URL scheme (blank, or with characters a scheme cannot hold),
    /// in list order: `canOpenURL` can query none of them.
    var invalid: [String] { schemes.filter { !AppProfile.isURLScheme($0) } }

    /// The entries that repeat an earlier one (URL schemes are compared without case), in
    /// list order: each takes one of the list's places and queries nothing more.
    var duplicates: [String] {
        var seen = Set<String>()
        return schemes.filter { AppProfile.isURLScheme($0) && !seen.insert($0.lowercased()).inserted }
    }

    /// `(scheme, twin)` for each app scheme whose twin is missing, in list order, once each.
    var missingTwins: [(scheme: String, twin: String)] {
        var seen = Set<String>()
        return appSchemes.compactMap { scheme in
            let twin = scheme + ProfileKeys.twinSuffix
            guard !present.contains(twin.lowercased()), seen.insert(twin.lowercased()).inserted else { return nil }
            return (scheme, twin)
        }
    }

    /// The required schemes not in the list, in the guide's order.
    var missingRequired: [String] { ProfileKeys.requiredQuerySchemes.filter { !present.contains($0) } }

    /// Whether the app uses `mailto:`: it queries the scheme.
    var usesMailto: Bool { present.contains("mailto") }

    /// Whether Outlook's twin is needed and missing.
    var outlookMissing: Bool { usesMailto && !present.contains(ProfileKeys.outlookQueryScheme) }

    /// The list without invalid entries and repeats, with everything missing appended: twins,
    /// required schemes, Outlook's.
    var fixed: [String] {
        var seen = Set<String>()
        var result = schemes.filter { AppProfile.isURLScheme($0) && seen.insert($0.lowercased()).inserted } + missingTwins.map(\.twin) + missingRequired
        if outlookMissing { result.append(ProfileKeys.outlookQueryScheme) }
        return result
    }
}
