/// ComplianceCore: pure state machines and protocol rules (no I/O). See README.md in this folder.
public enum ComplianceCore {}
