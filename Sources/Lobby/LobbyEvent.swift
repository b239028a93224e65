/// What happened in the LAN lobby, for a front end to show (`tictactoe lobby` prints it, the Lobby screen lists it).
public enum LobbyEvent: Sendable, Hashable {
    /// Waiting for local network permission (the reason).
    case waiting(String)
    case joined(group: String, addresses: [String])
    /// The group waits for an interface, or failed.
    case groupState(String)
    case roster(LobbyRoster.Event)
    case greetingSent(String)
    case challengeSent(to: String, port: Int)
    /// A challenge to us passed the checks of its address and waits for the person's answer (the Lobby screen asks;
    /// `LobbyCommand.answer`). Unanswered, it is declined after the answer timeout (`.challengeDeclined`).
    case challengeWaiting(id: LobbyMessage.MemberID, from: String, address: String, port: Int)
    /// A challenge we turned down (or that came to nothing), and why.
    case challengeDeclined(from: String, why: String)
    /// A challenge that waited for the person's answer (`.challengeWaiting`) is over without a game: declined,
    /// unanswered in time, withdrawn by its challenger, or its challenger gone (why).
    case challengeClosed(id: LobbyMessage.MemberID, from: String, why: String)
    /// A challenge we took: the game follows.
    case challengeAccepted(from: String, address: String, port: Int)
    /// The lobby is over: why.
    case left(String)
}

/// What the person does in the Lobby screen (`GameClient.lobby`'s handle).
public enum LobbyCommand: Sendable, Hashable {
    /// Say this to everyone (1-140 bytes of printable text: `LobbyMessage`'s checks).
    case greet(String)
    /// Challenge this member: a game is hosted for them (`LobbyUpdate.hostGame`) and they are invited to it.
    case challenge(LobbyMessage.MemberID)
    /// The answer to a waiting challenge (`.challengeWaiting`).
    case answer(LobbyMessage.MemberID, accept: Bool)
    /// The game hosted for our challenge listens on this port (the challenge goes out).
    case hostListening(Int)
    /// Someone joined the game hosted for our challenge.
    case hostConnected
    /// The game hosted for our challenge was stopped by the person (the challenge is withdrawn).
    case withdraw
}
