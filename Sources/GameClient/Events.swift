import GameProtocol

/// What a host or join tells its front end.
public enum NetworkEvent: Sendable {
    /// Everything that happens, as the headless commands report it (waiting for permission, advertised, connected,
    /// each move…).
    case report(MatchReport)
    /// The host/join task ended with this status.
    case finished(ExitStatus)
    /// A private game's code (six digits) for the host's own screen, and each code that replaces it, with the reason
    /// (`replacedBecause`, e.g. after three wrong codes in a row). Only the host's front end gets it: it is never a
    /// `MatchReport`, so it never reaches a transcript, JSON or the log.
    case privateCode(String, replacedBecause: String?)
}

/// What searching for games reports: Bonjour's state and the list, or why it waits or cannot browse.
public enum DiscoveryUpdate: Sendable, Hashable {
    /// Browsing: Bonjour works (again).
    case available
    /// Bonjour does not work (no daemon): why. Browsing resumes by itself.
    case unavailable(String)
    /// The whole list after a change (deduplicated, our own game left out).
    case games([GameListing])
    /// Waiting for local network permission; says why and how to change it.
    case waiting(String)
    /// Cannot browse at all (NoAuth, a missing manifest).
    case failed(String)
}

/// What "All services on this network" reports: the service types on the local network, or why it waits or cannot
/// list them.
public enum ServiceTypesUpdate: Sendable, Hashable {
    /// Querying: Bonjour works (again).
    case available
    /// Bonjour does not work (no daemon): why. The query resumes by itself.
    case unavailable(String)
    /// The types listed now, sorted (e.g. `_http._tcp`).
    case types([String])
    /// Waiting for local network permission; says why and how to change it.
    case waiting(String)
    /// Cannot list them at all (the multicast entitlement is missing, no manifest).
    case failed(String)
}
