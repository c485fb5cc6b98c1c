import Foundation
import JSON

extension AdminRoutes {
    func userJSON(_ user: Fixtures.User) -> JSONValue {
        let directory = state.directory
        let apps = directory.mamPolicy.appIds.isEmpty ? directory.clients.filter(\.isPublic).map(\.clientId) : directory.mamPolicy.appIds
        var compliantApps: [JSONValue] = []
        for app in apps where state.isCompliant(AccountApp(upn: user.upn, appId: app)) {
            compliantApps.append(.string(app))
        }
        return [
            "upn": .string(user.upn), "objectId": .string(user.objectId),
            "caTargeted": .bool(user.caTargeted), "mamPolicyAssigned": .bool(user.mamPolicyAssigned),
            "licensed": .bool(user.licensed), "allowedByPolicy": .bool(directory.mamPolicy.allows(upn: user.upn)),
            "compliantApps": .array(compliantApps),
        ]
    }

    /// `GET /_admin/state`: users, policy, enrollments, pending wipes, faults, clock offset.
    func snapshot() -> JSONValue {
        let directory = state.directory
        var users: [JSONValue] = []
        for user in directory.users { users.append(userJSON(user)) }
        let enrollments = state.enrollments.values.sorted { $0.enrolledAt < $1.enrolledAt }.map { enrollment -> JSONValue in
            [
                "enrollmentId": .string(enrollment.id), "upn": .string(enrollment.account.upn),
                "appId": .string(enrollment.account.appId),
                "policyVersion": enrollment.deliveredPolicyVersion.map { .int(Int64($0)) } ?? .null,
            ]
        }
        let wipes = state.pendingWipeList.map { account -> JSONValue in
            ["upn": .string(account.upn), "appId": .string(account.appId)]
        }
        return [
            "tenant": ["id": .string(directory.tenant.id), "domain": .string(directory.tenant.domain)],
            "users": .array(users),
            "policy": directory.mamPolicy.json,
            "enrollments": .array(enrollments),
            "pendingWipes": .array(wipes),
            "faults": .array(state.faultRules().map(\.json)),
            "clockOffsetSeconds": .double(state.clockOffset),
            "caErrorStatus": .int(Int64(state.caErrorStatus)),
        ]
    }
}
