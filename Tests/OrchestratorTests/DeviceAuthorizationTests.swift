import Testing
@testable import Orchestrator

/// A device authorization answer's numbers (RFC 8628 §3.2) are bounded before any arithmetic:
/// an issuer's huge `expires_in` once overflowed the deadline and stopped the daemon.
@Suite struct DeviceAuthorizationTests {
    @Test func theLifetimeIsBetweenASecondAndADay() {
        #expect(DeviceAuthorization.lifetime(expiresIn: nil) == 900)
        #expect(DeviceAuthorization.lifetime(expiresIn: 600) == 600)
        #expect(DeviceAuthorization.lifetime(expiresIn: 0) == 1)
        #expect(DeviceAuthorization.lifetime(expiresIn: -5) == 1)
        #expect(DeviceAuthorization.lifetime(expiresIn: Int64.max) == 86_400)
        // The deadline arithmetic the Engine does with it cannot overflow.
        #expect(Int64(DeviceAuthorization.lifetime(expiresIn: Int64.max)) * 1000 == 86_400_000)
    }

    @Test func thePollIntervalIsBetweenOneAndSixtySeconds() {
        #expect(DeviceAuthorization.pollInterval(nil) == 5)
        #expect(DeviceAuthorization.pollInterval(0) == 1)
        #expect(DeviceAuthorization.pollInterval(Int64.max) == 60)
        #expect(DeviceAuthorization.pollInterval(Int64.min) == 1)
    }
}
