extension DemoPage {
    /// The leaderboard grouped by tier (`/?group=tier`). `list-client.js` keeps one
    /// `<section data-key>` per tier, each with a header (title and number of players)
    /// and an `<ol>` of its rows; ranks run on across the sections, since the tiers are
    /// bands of the score order, from the window's first rank. A section holds the rows
    /// of its tier that are in the page's window. Players whose score crosses a band move
    /// to the other section as the feed plays, when their new place is in the window. The
    /// container carries the version, counts, window id and first rank as on the flat
    /// page, for the browser test.
    static let groupedHTML = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Live leaderboard by tier · ListEngine</title>
        <style>
          :root { color-scheme: light dark; --accent: #2f6fde; --muted: #7a7f87; --line: rgba(127,127,127,.18); }
          body { margin: 0; font: 15px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; }
          header.page { position: sticky; top: 0; padding: 12px 20px; background: Canvas; border-bottom: 1px solid var(--line); z-index: 2; }
          h1 { margin: 0; font-size: 20px; }
          h1 a { font-size: 13px; font-weight: normal; margin-left: 10px; color: var(--accent); }
          #status { margin: 2px 0 0; color: var(--muted); font-size: 13px; font-variant-numeric: tabular-nums; }
          #board { margin: 0 auto; padding: 0 20px; max-width: 640px; counter-reset: rank; }
          #board > section { margin-top: 14px; }
          #board .list-section-header { position: sticky; top: 64px; z-index: 1; display: flex; align-items: baseline; gap: 10px;
                                        margin: 0; padding: 6px 10px; font-size: 15px; background: Canvas;
                                        border-left: 6px solid var(--tier); border-bottom: 2px solid var(--tier); }
          #board .list-section-title { flex: 1; }
          #board .list-section-count { font-size: 12px; color: var(--muted); font-variant-numeric: tabular-nums; }
          #board .list-section-count::after { content: " players"; }
          #board section[data-key="diamond"] { --tier: #38bdf8; }
          #board section[data-key="platinum"] { --tier: #a78bfa; }
          #board section[data-key="gold"] { --tier: #eab308; }
          #board section[data-key="silver"] { --tier: #94a3b8; }
          #board section[data-key="bronze"] { --tier: #c2410c; }
          #board ol { list-style: none; margin: 0; padding: 0; }
          #board li { display: flex; gap: 12px; align-items: baseline; padding: 6px 0; border-bottom: 1px solid var(--line);
                      counter-increment: rank; animation: arrive .9s ease-out; }
          #board li::before { content: counter(rank); width: 3.5em; text-align: right; color: var(--muted); font-variant-numeric: tabular-nums; }
          #board .name { flex: 1; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
          #board .country { color: var(--muted); font-size: 12px; width: 2.5em; }
          #board .score { font-variant-numeric: tabular-nums; font-weight: 600; min-width: 5em; text-align: right; animation: arrive .9s ease-out; }
          @keyframes arrive { from { background: color-mix(in srgb, var(--accent) 28%, transparent); } to { background: transparent; } }
          #above, #footer { text-align: center; color: var(--muted); padding: 16px; min-height: 24px; }
        </style>
        </head>
        <body>
        <header class="page">
          <h1>Live leaderboard by tier <a href="/">flat list</a></h1>
          <p id="status">connecting…</p>
        </header>
        <p id="above"></p>
        <div id="board" aria-live="off"></div>
        <p id="footer"></p>
        <script type="module">
        \#(windowScript(grouped: true))
        </script>
        </body>
        </html>
        """#
}
