import ListPagination
import TerminalListRenderer

extension LeaderboardDemo {
    /// Shows the paginator's status: the loading indicator, a "Loading…" row while a
    /// page is slow, the error and how to retry, and a note with the sort and keys.
    func show(_ status: PaginationStatus) {
        let note = note(for: status)
        renderer.updateStatus { line in
            line.isLoading = status.state == .loading
            line.note = note
            // A window whose start is not loaded: previous pages arrive out of view.
            line.hasRowsAbove = status.prepend != .exhausted
            switch status.state {
            case .failed(let error):
                line.lastError = "load failed: \(error)"
                line.trailingRow = StyledText("  ✗ Could not load more rows (\(error)). Press Enter to retry.", style: TextStyle(foreground: .red, isBold: true))
            case .loading where status.failedAttempts > 0:
                line.lastError = "attempt \(status.failedAttempts) failed, retrying"
                line.trailingRow = status.isShowingLoadingIndicator
                    ? StyledText("  Loading… (retrying after \(status.failedAttempts) failed attempt\(status.failedAttempts == 1 ? "" : "s"))", style: TextStyle(foreground: .yellow))
                    : nil
            case .loading:
                line.trailingRow = status.isShowingLoadingIndicator ? StyledText("  Loading…", style: TextStyle(isDim: true)) : nil
            case .idle, .exhausted:
                line.lastError = nil
                line.trailingRow = nil
            }
        }
    }

    private func note(for status: PaginationStatus) -> String {
        let byName = isSortedByName.load(ordering: .relaxed)
        let pages = status.loadedPages == 1 ? "1 page" : "\(status.loadedPages) pages"
        let complete = status.state == .exhausted ? ", all" : ""
        let refreshing = status.isRefreshing ? ", refreshing" : ""
        if window != nil {
            return "by score · \(pages)\(complete)\(refreshing) · g G ends · r refresh · f fail · q quit"
        }
        guard tiers != nil else {
            return "\(byName ? "by name" : "by score") · \(pages)\(complete)\(refreshing) · s sort · r refresh · f fail · q quit"
        }
        // Grouped rows are in tier order first: by name means by name within each tier.
        let order = byName ? "by name in tiers" : "by score"
        let grouping = renderer.showsSectionHeaders ? "tiers" : "tiers hidden"
        return "\(order) · \(grouping) · \(pages)\(complete)\(refreshing) · s sort · t tiers · r refresh · f fail · q quit"
    }
}
