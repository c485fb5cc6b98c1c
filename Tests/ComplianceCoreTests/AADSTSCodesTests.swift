import ComplianceCore
import Testing

/// A sign-in page's message names Entra's code only in its text; the event keeps it as a code.
@Suite struct AADSTSCodesTests {
    @Test func codesAreReadFromTheText() {
        #expect(AADSTSCodes.codes(in: "sign-in was not accepted (HTTP 200): AADSTS50126: Error validating credentials") == [50126])
        #expect(AADSTSCodes.codes(in: "AADSTS53005 then AADSTS53005 and AADSTS50053.") == [53005, 50053])
        #expect(AADSTSCodes.codes(in: "no code here, AADSTS alone, AADSTSx1").isEmpty)
        #expect(AADSTSCodes.codes(in: "AADSTS1234567890 is too long").isEmpty)
        #expect(AADSTSCodes.codes(in: "AADSTS٥٥ is not ASCII").isEmpty)
    }
}
