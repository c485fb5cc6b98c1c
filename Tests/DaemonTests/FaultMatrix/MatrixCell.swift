import ComplianceCore
import Daemon
import Orchestrator

/// One cell: a fresh device, the fault on one endpoint, the step, then proof that the device
/// recovers (the same step succeeds once the fault is gone) and its store is sound.
struct MatrixCell: Sendable {
    let fault: MatrixFault
    let endpoint: MatrixEndpoint

    /// The cell's result: what was observed, and what went wrong afterwards (nil: recovered).
    struct Result: Sendable {
        var observation: MatrixObservation
        var recoveryProblem: String?
    }

    func run(in lab: MatrixLab) async throws -> Result {
        try await lab.admin(.post, "reset")
        let directory = lab.newDirectory()
        var device = try await lab.device(directory)
        try await endpoint.prepare(device)
        try await lab.admin(.delete, "requests")
        if fault == .untrustedTLS {
            await device.stop()
            device = try await lab.device(directory, secure: endpoint.service)  // restarted: that service now over https
        } else if let rule = fault.rule(route: endpoint.route) {
            try await lab.admin(.post, "faults", rule)
        }
        var observation = try await endpoint.trigger(device)
        try await lab.settleAndClearFaults(count: fault.rule(route: endpoint.route) == nil ? 0 : 1000)
        // Logged once answered: after the settling. Only a refused handshake reaches nothing: a
        // held request whose client gave up may never be logged, so other faults are judged
        // by the status the app got.
        if fault == .untrustedTLS, await lab.requests(to: endpoint.route) == 0 {
            observation.unreached = "TLS refused"
        }
        if fault == .unavailableRetryAfter, endpoint.repeatsAtOnce {
            observation.held = try await repeatIsHeld(device, lab: lab)
        }
        if fault == .untrustedTLS {
            await device.stop()
            device = try await lab.device(directory, secure: endpoint.service, trustCA: true)  // restarted with --ca-file
        }
        _ = try await device.engine.advanceClock(seconds: 60)  // past any Retry-After
        var problem = try await endpoint.clean(device)
        if problem == nil { problem = try await health(device) }
        await device.stop()
        return Result(observation: observation, recoveryProblem: problem)
    }

    /// The step again at once, fault cleared: it must fail without reaching the endpoint.
    private func repeatIsHeld(_ device: MatrixDevice, lab: MatrixLab) async throws -> Bool {
        let before = await lab.requests(to: endpoint.route)
        let again = try await endpoint.trigger(device)
        let after = await lab.requests(to: endpoint.route)
        return again.status != .compliant && again.status != nil && after == before
    }

    /// The device still answers and SQLite finds nothing wrong with its store.
    private func health(_ device: MatrixDevice) async throws -> String? {
        _ = try await device.engine.accounts()
        let problems = try device.store.integrityProblems()
        return problems.isEmpty ? nil : "store: \(problems.joined(separator: "; "))"
    }
}
