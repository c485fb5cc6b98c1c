import GRDB

/// The store's schema, one named migration per step. Never edit a shipped migration:
/// append a new one (`v4`, …). A database that has migrations this list does not know was
/// written by a newer program and is refused (``StoreError/Code/newerSchema``).
enum StoreSchema {
    /// The identifiers in order; the last one is the current version.
    static let versions = ["v1", "v2", "v3", "v4", "v5", "v6"]

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()

        // v1: identities and their tokens.
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE account (
                    key TEXT PRIMARY KEY NOT NULL,          -- lowercased UPN
                    upn TEXT NOT NULL,                      -- display form
                    home_account_id TEXT,                   -- oid.tid
                    signed_in INTEGER NOT NULL DEFAULT 0,
                    managed INTEGER NOT NULL DEFAULT 0,
                    created_ms INTEGER NOT NULL,
                    updated_ms INTEGER NOT NULL
                ) STRICT;
                CREATE TABLE refresh_token (
                    account TEXT NOT NULL REFERENCES account(key) ON DELETE CASCADE,
                    client_id TEXT NOT NULL,
                    token TEXT NOT NULL,
                    updated_ms INTEGER NOT NULL,
                    PRIMARY KEY (account, client_id)
                ) STRICT;
                CREATE TABLE access_token (
                    account TEXT NOT NULL REFERENCES account(key) ON DELETE CASCADE,
                    client_id TEXT NOT NULL,
                    scopes TEXT NOT NULL,                   -- normalized: lowercased, sorted, space-separated
                    token TEXT NOT NULL,
                    expires_ms INTEGER NOT NULL,
                    id_token TEXT,
                    updated_ms INTEGER NOT NULL,
                    PRIMARY KEY (account, client_id, scopes)
                ) STRICT;
                """)
        }

        // v2: what the enrollment and policy machines need across restarts.
        migrator.registerMigration("v2") { db in
            try db.execute(sql: """
                CREATE TABLE enrollment (
                    account TEXT PRIMARY KEY NOT NULL REFERENCES account(key) ON DELETE CASCADE,
                    state TEXT NOT NULL,                    -- machine state, JSON
                    last_status INTEGER,                    -- IntuneMAMEnrollmentStatus
                    next_due_ms INTEGER,                    -- next retry or check-in
                    updated_ms INTEGER NOT NULL
                ) STRICT;
                CREATE TABLE policy (
                    scope_kind TEXT NOT NULL CHECK (scope_kind IN ('account', 'app')),
                    scope_key TEXT NOT NULL,                -- account key or app id
                    account TEXT REFERENCES account(key) ON DELETE CASCADE,
                    version TEXT NOT NULL,
                    policy TEXT NOT NULL,                   -- JSON
                    allowed_accounts TEXT,                  -- JSON array of UPNs; NULL = any account
                    updated_ms INTEGER NOT NULL,
                    PRIMARY KEY (scope_kind, scope_key),
                    CHECK ((scope_kind = 'account') = (account IS NOT NULL))
                ) STRICT;
                CREATE INDEX policy_account ON policy(account);
                """)
        }

        // v3: timers, journals for crash recovery, and the event log.
        migrator.registerMigration("v3") { db in
            try db.execute(sql: """
                CREATE TABLE schedule (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    kind TEXT NOT NULL,
                    account TEXT REFERENCES account(key) ON DELETE CASCADE,
                    due_ms INTEGER NOT NULL,
                    payload TEXT,                           -- JSON
                    created_ms INTEGER NOT NULL
                ) STRICT;
                CREATE INDEX schedule_due ON schedule(due_ms, id);
                CREATE INDEX schedule_account ON schedule(account, kind);
                -- No foreign key: a wipe journal outlives the account row it deletes.
                CREATE TABLE journal (
                    account TEXT NOT NULL,
                    upn TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    step TEXT NOT NULL,
                    state TEXT NOT NULL,                    -- machine state, JSON
                    created_ms INTEGER NOT NULL,
                    updated_ms INTEGER NOT NULL,
                    PRIMARY KEY (account, kind)
                ) STRICT;
                -- No foreign key: history stays after an account is removed.
                CREATE TABLE event (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT,
                    time_ms INTEGER NOT NULL,
                    account TEXT,
                    upn TEXT,
                    kind TEXT NOT NULL,
                    payload TEXT NOT NULL                   -- JSON
                ) STRICT;
                """)
        }
        // v4: the engine's app-wide machines and each account's MAM registration.
        migrator.registerMigration("v4") { db in
            try db.execute(sql: """
                CREATE TABLE app_state (
                    name TEXT PRIMARY KEY NOT NULL,         -- e.g. 'remediation', 'allowedAccounts', 'clock'
                    value TEXT NOT NULL,                    -- JSON
                    updated_ms INTEGER NOT NULL
                ) STRICT;
                CREATE TABLE mam_registration (
                    account TEXT PRIMARY KEY NOT NULL REFERENCES account(key) ON DELETE CASCADE,
                    enrollment_id TEXT NOT NULL,
                    policy TEXT,                            -- JSON, the last policy the service sent
                    updated_ms INTEGER NOT NULL
                ) STRICT;
                """)
        }
        // v5: each account's last enrollment status, kept on the account so that an account
        // without an enrollment (a second account refused with 227) keeps it across restarts.
        migrator.registerMigration("v5") { db in
            try db.execute(sql: """
                ALTER TABLE account ADD COLUMN last_enrollment_status INTEGER;  -- IntuneMAMEnrollmentStatus
                UPDATE account SET last_enrollment_status = (SELECT last_status FROM enrollment WHERE enrollment.account = account.key);
                """)
        }
        // v6: the composed machine stores one record per account (and one app record in
        // app_state 'machine'); the account row keeps the columns people and queries read.
        migrator.registerMigration("v6") { db in
            try db.execute(sql: """
                ALTER TABLE account ADD COLUMN machine TEXT;  -- the composed machine's account record, JSON
                """)
        }
        return migrator
    }
}
