import ComplianceCore

/// Symmetry: people the universe treats alike could be canonicalised (a state and the state
/// with the two swapped counted once), as TLC's SYMMETRY and SPIN's symmetry reduction do. Two
/// people are alike when swapping them (their spellings, their place in the allowed list and
/// among the CA targets, and in every script) gives back the same universe.
extension Universe {
    /// The people, by the services' name for them (one per account, whatever its spellings).
    public var people: [String] {
        var seen: [String] = []
        for spelling in spellings where !seen.contains(World.user(spelling.upn)) { seen.append(World.user(spelling.upn)) }
        return seen
    }

    /// The pairs of people the universe treats alike (none: canonicalising would merge no state).
    public var interchangeablePeople: [(String, String)] {
        let people = people
        return people.indices.flatMap { first in
            people[(first + 1)...].compactMap { other in isUnchanged(swapping: people[first], other) ? (people[first], other) : nil }
        }
    }

    /// Whether swapping people `a` and `b` leaves the universe as it is.
    func isUnchanged(swapping a: String, _ b: String) -> Bool {
        let ofA = spellings.filter { World.user($0.upn) == a }
        let ofB = spellings.filter { World.user($0.upn) == b }
        guard ofA.count == ofB.count else { return false }
        var names: [String: String] = [:]
        for (x, y) in zip(ofA, ofB) {
            names[x.name] = y.name
            names[y.name] = x.name
        }
        func person(_ upn: String) -> String {
            let user = World.user(upn)
            return user == a ? b : user == b ? a : user
        }
        func spelling(_ name: String) -> String { names[name] ?? name }
        guard Set(allowedAccounts.map(person)) == Set(allowedAccounts.map(World.user)), Set(caTargeted.map(person)) == Set(caTargeted.map(World.user))
        else { return false }
        // The allowed list's change names josé: it does not follow a swap.
        let josé = World.user("jos\u{E9}@contoso.com")
        var swapped: [[ScriptStep]] = []
        for script in scripts {
            var steps: [ScriptStep] = []
            for step in script.steps {
                switch step {
                case .command(let command): steps.append(.command(command.renamed(spelling)))
                case .admin(.queueWipe(let name)): steps.append(.admin(.queueWipe(spelling(name))))
                case .admin(.targetCA(let name)): steps.append(.admin(.targetCA(spelling(name))))
                case .admin(.excludeJose):
                    if a == josé || b == josé { return false }
                    steps.append(step)
                case .admin: steps.append(step)
                }
            }
            swapped.append(steps)
        }
        return swapped.map(\.description).sorted() == scripts.map(\.steps.description).sorted()
    }
}

extension Command {
    /// The command with its spelling names mapped by `rename`.
    func renamed(_ rename: (String) -> String) -> Command {
        switch self {
        case .signIn(let name): .signIn(rename(name))
        case .token(let name): .token(rename(name))
        case .remediate(let name): .remediate(rename(name))
        case .deregister(let name, let wipe): .deregister(rename(name), wipe: wipe)
        case .putData(let name): .putData(rename(name))
        case .readData(let name): .readData(rename(name))
        case .switchUI(let name): .switchUI(name.map(rename))
        case .switchProcess(let name): .switchProcess(name.map(rename))
        case .switchUICancelled(let name): .switchUICancelled(rename(name))
        case .sdkEnrolls(let name): .sdkEnrolls(rename(name))
        case .overrideAuthority: self
        }
    }
}
