import GameClient
import GameProtocol
import Localization
import TextSupport
import TerminalWidgets
import NetworkScreenState

/// The All services screen: trying again, going back to Search, and the list as drawn.
extension ServiceTypesState: ScreenContent {
    var menuItem: MenuItem { .search }

    /// `r` lists again after a failure; going back searches for games again, from the start.
    mutating func handle(_ key: Key) -> Step {
        switch react(to: key) {
        case .none:
            return Step()
        case .retry:
            self = ServiceTypesState()
            return Step([.stopServiceTypes, .checkNetwork(.browseServiceTypes)])
        case .back:
            return Step([.stopServiceTypes], .back)
        }
    }

    func render(into canvas: inout Canvas, _ view: ScreenView) {
        canvas.putCentered(tr("All services on this network"), row: 3, style: .bold)
        let drawn = status.render(
            into: &canvas, columns: view.size.columns, unavailableHint: nil,
            starting: tr("Looking for services on the local network…"),
            notAllowed: tr("Not looking: local network access is not allowed yet."),
            allowedHint: tr("The list starts by itself once access is allowed (Settings › Local Network)."))
        if drawn { return }
        if types.isEmpty {
            canvas.putCentered(tr("No services found yet: each type appears here when announced."), row: 6, style: .dim)
            return
        }
        // One type a line (as avahi-browse names them: `_http._tcp`), sorted, scrolled with ↑/↓.
        let width = max(10, view.size.columns - 6)
        let visible = max(1, view.size.rows - 10)
        let top = min(self.top, max(0, types.count - visible))
        for (offset, type) in types.dropFirst(top).prefix(visible).enumerated() {
            canvas.put(DisplayWidth.truncate(DisplayText.escaped(type), to: width), row: 6 + offset, column: 3)
        }
        if top + visible < types.count {
            canvas.put(tr("… %@ more", String(types.count - top - visible)), row: 6 + visible, column: 3, style: .dim)
        }
    }

    func hints(_ view: ScreenView) -> String {
        cannotList ? tr("r try again · q back to the search") : tr("↑/↓ scroll · q back to the search")
    }

    func statusText(_ view: ScreenView) -> String {
        switch status {
        case .starting: return tr("Looking for services…")
        case .available:
            return counted(types.count, none: tr("Looking: no services yet"), one: tr("1 service type"),
                           many: { tr("%@ service types", $0) })
        default: return status.statusLine ?? ""
        }
    }
}
