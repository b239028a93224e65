import AppCore
import AppManifest
import ArgumentParser
import GameClient
import GameProtocol
import HeadlessUI
import LocalNetworkPrivacy
import PrivacyCommands

/// `tictactoe manifest`: what the app manifest declares and what it means (the work is `ManifestReport`'s).
struct Manifest: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "manifest",
        abstract: "Show what the app manifest (Info.plist) declares and what it means for games.",
        discussion: """
            Prints the manifest's path, display name, NSLocalNetworkUsageDescription (the reason shown in the local \
            network prompt), NSBonjourServices (each checked to be a service type like _name._tcp or _name._udp), \
            the entitlements in TicTacToe.entitlements beside the manifest ("none declared" without that file), \
            and its App Transport Security policy, NSAppTransportSecurity, which tictactoe applies to every game \
            connection it makes (Apple applies it to URL loading):

            - NSAllowsLocalNetworking = true: IP addresses, unqualified names (no dot) and .local names may be \
            plaintext.
            - NSAllowsArbitraryLoads = true: any destination may be plaintext; ignored when NSAllowsLocalNetworking, \
            NSAllowsArbitraryLoadsInWebContent or NSAllowsArbitraryLoadsForMedia is present (the last two concern \
            web views and media: not applicable here).
            - NSExceptionDomains: per name (with NSIncludesSubdomains also the names one level below it), IP \
            address or CIDR range, instead of the keys above: NSExceptionAllowsInsecureHTTPLoads (plaintext \
            allowed), NSExceptionMinimumTLSVersion (TLSv1.0 to TLSv1.3, default TLSv1.2), \
            NSExceptionRequiresForwardSecrecy (default true).

            Without these keys a game connection needs TLS 1.2 or later with forward secrecy; loopback (127.0.0.1, \
            ::1, localhost) is always allowed. A plaintext game is protocol 1; an encrypted game is protocol 2 (TLS \
            1.2 with forward secrecy), so a destination that requires TLSv1.3 admits no game. For each kind of \
            destination (loopback, IP addresses, unqualified names, .local names, other names) and each exception \
            domain, the report says which games may connect and which rule decides. Warnings follow, as App Review \
            would raise them: NSAllowsArbitraryLoads = true (Apple asks for a justification), plaintext or TLS below \
            1.2 allowed for a domain, a malformed Bonjour service type, a missing usage description, keys tictactoe \
            does not use.

            With --json, one object with the keys: manifest_path, display_name, usage_description, \
            usage_description_missing, bonjour_services (service_type, valid, problem), transport_security \
            (declared, allows_arbitrary_loads, allows_arbitrary_loads_in_effect, allows_local_networking, \
            allows_arbitrary_loads_in_web_content, allows_arbitrary_loads_for_media, exception_domains, \
            ignored_keys), game_connections (destination, domain, rule, plaintext_allowed, minimum_tls_version, \
            forward_secrecy_required, plaintext_game, encrypted_game), entitlements_file, entitlements, \
            entitlements_error, warnings (null when not known).

            The manifest is --info-plist PATH, else the installed share/tictactoe/Info.plist, else the source \
            tree's Assets/Info.plist.

            EXIT CODES:
              0   the report was printed (warnings included)
              12  the manifest is missing, unreadable or not valid (the message names the key)
              64  bad command-line usage
              74  standard output could not be written
            """
    )

    @Flag(help: "Print one JSON object.")
    var json = false

    @OptionGroup var options: PrivacyOptions

    func run() throws {
        options.prepare()
        let manifest: AppManifest
        switch options.manifest() {
        case .success(let located):
            manifest = located
        case .failure(let error):
            throw commandFailure(error)
        }
        let report = ManifestReport.read(manifest: manifest)
        try printOutput(json ? try report.json() : report.text)
    }
}
