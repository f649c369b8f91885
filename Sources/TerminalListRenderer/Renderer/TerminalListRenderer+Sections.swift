extension TerminalListRenderer {
    /// A ``TerminalListRenderer`` attached to a `SectionedListDataSource`: it hands each
    /// sectioned batch to the renderer with the title of each section key.
    ///
    /// Make one with ``TerminalListRenderer/sectioned(title:)``. It holds no state of its
    /// own: navigation, status and drawing stay the renderer's.
    ///
    /// ```swift
    /// let renderer = TerminalListRenderer<Player>(size: size, mode: .automatic(), output: FileDescriptorOutput(), formatRow: format)
    /// let token = leaderboard.attach(renderer.sectioned { (tier: LeaderboardTier) in tier.name })
    /// ```
    public final class Sectioned<Section: Hashable & Comparable & Sendable>: SectionedListRenderer {
        /// The renderer that draws the list.
        public let renderer: TerminalListRenderer<Item>
        /// The title of a section's header, given its key.
        public let title: @Sendable (Section) -> String

        /// Creates an attachment of `renderer` to sectioned lists.
        ///
        /// - Parameters:
        ///   - renderer: the renderer that draws the list.
        ///   - title: the title of a section's header, given its key.
        /// - Complexity: O(1).
        public init(_ renderer: TerminalListRenderer<Item>, title: @escaping @Sendable (Section) -> String) {
            self.renderer = renderer
            self.title = title
        }

        /// Applies a batch; see ``TerminalListRenderer/render(_:title:)``.
        ///
        /// - Parameter batch: the next batch of the data source, in order.
        /// - Complexity: as ``TerminalListRenderer/render(_:title:)``.
        public func render(_ batch: SectionedChangeBatch<Section, Item>) {
            renderer.render(batch, title: title)
        }
    }

    /// The renderer as a sectioned renderer, to attach to a `SectionedListDataSource`.
    ///
    /// Each call makes a new object. Like the renderer itself, attach it to one data
    /// source at a time: the renderer follows one sequence of versions.
    ///
    /// ```swift
    /// leaderboard.attach(renderer.sectioned { (tier: LeaderboardTier) in tier.name })
    /// ```
    ///
    /// - Parameter title: the title of a section's header, given its key; the header
    ///   shows it with the section's row count, as in "Diamond · 37".
    /// - Returns: an object that passes each batch to this renderer.
    /// - Complexity: O(1).
    public func sectioned<Section>(title: @escaping @Sendable (Section) -> String) -> Sectioned<Section> {
        Sectioned(self, title: title)
    }

    /// Applies a batch of a sectioned list: anchors the viewport, moves the selection,
    /// and writes the update, with a header line before each section's rows.
    ///
    /// A header shows the section's title and its row count, "Diamond · 37", bold and
    /// underlined. The header of the section of the first visible row stays on the first
    /// line of the list while its rows scroll by. Anchoring and selection follow the same
    /// change on the flat rows (`batch.rows`) as ``render(_:)`` does; see
    /// ``ListViewport``. With ``showsSectionHeaders`` off, the rows are drawn as a flat
    /// list.
    ///
    /// - Parameters:
    ///   - batch: the next batch of the data source, in order.
    ///   - title: the title of a section's header, given its key.
    /// - Complexity: O(*k* log *k*) for *k* changed rows, plus O(*h* log *n*) to format
    ///   the *h* visible lines of *n* rows, O(*h* log *s* (log *n* + log *s*)) to find
    ///   the bounds of the *s* sections in view, and O(*h* · *c* + *h*²) to compare the
    ///   lines with the *c* columns on screen. Independent of the length of the list
    ///   beyond the logarithms.
    public func render<Section>(_ batch: SectionedChangeBatch<Section, Item>, title: @escaping @Sendable (Section) -> String) {
        let sections = batch.new.sections
        _update(plainFrame: true) {
            $0.viewport.apply(batch)
            $0.sectionTitle = { index in title(sections[index].key) }
        }
    }

    /// Whether a sectioned list is drawn with its section headers; on by default.
    /// Setting it writes the update: the first visible row stays first, and the
    /// selected row stays in view. A flat list is not affected.
    ///
    /// - Complexity: O(1) to read; setting costs what ``updateStatus(_:)`` does, plus
    ///   O(*h* log *s* (log *n* + log *s*)) to find the bounds of the sections in view.
    public var showsSectionHeaders: Bool {
        get { _state.withLock { $0.viewport.showsSectionHeaders } }
        set { _update { $0.viewport.setSectionHeaders(newValue) } }
    }
}

extension TerminalListRenderer._State {
    /// The header line of a section: its title and row count, bold and underlined.
    func _sectionHeader(section: Int, rows: Range<Int>, columns: Int, colors: Bool) -> [ScreenCell] {
        let title = sectionTitle?(section) ?? "Section \(section + 1)"
        let style = TextStyle(isBold: true, isUnderlined: true)
        return _LineLayout.line(StyledText("\(title) · \(_grouped(rows.count))", style: style), columns: columns, colors: colors, padding: style)
    }
}
