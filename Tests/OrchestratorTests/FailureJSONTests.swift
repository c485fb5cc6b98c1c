import ComplianceCore
import JSON
import Orchestrator
import Testing

/// A 53005's failure object carries the identifiers the app remediates with.
@Suite struct FailureJSONTests {
    @Test func a53005NamesTheAccountTheTenantTheAuthorityAndTheAnswer() throws {
        let server = ServerError(
            status: 400, error: "unauthorized_client", errorCodes: [53005], suberror: "protection_policy_required",
            correlationID: "corr-1", traceID: "trace-1")
        let details = ProtectionPolicyRequired(
            displayableID: "alice@contoso.com", homeAccountID: HomeAccountID(objectID: "oid-1", tenantID: "tid-1"), tenantID: "tid-1",
            authority: "https://login.microsoftonline.com/contoso.com", correlationID: "corr-1", serverError: server)
        let object = EngineJSON.failure(.protectionPolicyRequired(details))
        #expect(object["kind"] == "protectionPolicyRequired")
        #expect(object["displayableId"] == "alice@contoso.com")
        #expect(object["homeAccountId"] == "oid-1.tid-1")
        #expect(object["objectId"] == "oid-1")
        #expect(object["tenantId"] == "tid-1")
        #expect(object["authority"] == "https://login.microsoftonline.com/contoso.com")
        #expect(object["correlationId"] == "corr-1" && object["traceId"] == "trace-1")
        // Unknown identifiers are left out, not null.
        let bare = EngineJSON.failure(.protectionPolicyRequired(ProtectionPolicyRequired(serverError: server)))
        #expect(bare["homeAccountId"] == nil && bare["displayableId"] == nil && bare["objectId"] == nil)
        // Other kinds carry none of them.
        #expect(EngineJSON.failure(.capabilityMissing(server))["displayableId"] == nil)
    }
}
