import JSON
import Testing
@testable import ComplianceCore

/// IntuneMAMAppConfig's rules over `fullData`: targeted values win over the tenant default,
/// conflicts, and the query types.
@Suite struct AppConfigTests {
    static let defaults: JSONObject = ["__IsDefault": true, "theme": "light", "maxItems": "10", "sync": "false", "only": "default"]

    @Test func theDefaultCountsOnlyWhenNothingTargetedSetsTheKey() {
        let config = AppConfig(fullData: [Self.defaults, ["theme": "dark"]])
        #expect(config.stringValue("theme") == "dark" && config.allStrings("theme") == ["dark"])
        #expect(config.stringValue("only") == "default" && config.allStrings("only") == ["default"])
        #expect(!config.hasConflict("theme"), "default + one targeted is no conflict")
        #expect(config.stringValue("missing") == nil && config.allStrings("missing").isEmpty)
        #expect(config.keys == ["maxItems", "only", "sync", "theme"])
    }

    @Test func conflictsAndQueries() {
        let config = AppConfig(fullData: [Self.defaults, ["maxItems": "25", "sync": "true", "theme": "dark"], ["maxItems": "5", "sync": "false", "theme": "dark"]])
        #expect(config.hasConflict("maxItems") && !config.hasConflict("theme"), "identical targeted values do not conflict")
        #expect(config.allStrings("maxItems") == ["25", "5"])
        #expect(config.stringValue("maxItems", query: .any) == "25")
        #expect(config.stringValue("maxItems", query: .min) == "25" && config.stringValue("maxItems", query: .max) == "5", "strings compare as strings")
        #expect(config.numberValue("maxItems", query: .min) == 5 && config.numberValue("maxItems", query: .max) == 25)
        #expect(config.boolValue("sync", query: .or) == true && config.boolValue("sync", query: .and) == false && config.boolValue("sync") == true)
        #expect(config.numberValue("theme") == nil && config.boolValue("theme") == nil, "values that do not read as the type are left out")
    }

    @Test func readFromAPolicyDocument() {
        let document: JSONObject = ["version": "3", "appConfig": [.object(["theme": "dark"]), "not an object"]]
        #expect(AppConfig(policyDocument: document).fullData == [["theme": "dark"]])
        #expect(AppConfig(policyDocument: ["version": "3"]) == .empty)
        #expect(AppConfig(policyDocument: nil) == .empty)
        #expect(AppConfig(fullData: [["flag": " TRUE "]]).boolValue("flag") == true)
    }
}
