/// The leaderboard page: one window on the leaderboard (see ``windowScript(grouped:)``).
/// Rows come from `list-client.js`; the page itself keeps a status line and a line at
/// each end (players above the window, loading, failed, the end of the list), marks
/// the list's version, window id and first rank on the container (`data-version`,
/// `data-window`, `data-first-rank`, read by the browser test), numbers the rows from
/// that rank, and reports the rows on screen so that the window loads pages both ways.
enum DemoPage {
    static let html = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Live leaderboard · ListEngine</title>
        <style>
          :root { color-scheme: light dark; --accent: #2f6fde; --muted: #7a7f87; --line: rgba(127,127,127,.18); }
          body { margin: 0; font: 15px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; }
          header { position: sticky; top: 0; padding: 12px 20px; background: Canvas; border-bottom: 1px solid var(--line); z-index: 1; }
          h1 { margin: 0; font-size: 20px; }
          #status { margin: 2px 0 0; color: var(--muted); font-size: 13px; font-variant-numeric: tabular-nums; }
          #board { list-style: none; margin: 0 auto; padding: 0 20px; max-width: 640px; counter-reset: rank; }
          #board > li { display: flex; gap: 12px; align-items: baseline; padding: 6px 0; border-bottom: 1px solid var(--line);
                        counter-increment: rank; animation: arrive .9s ease-out; }
          #board > li::before { content: counter(rank); width: 3.5em; text-align: right; color: var(--muted); font-variant-numeric: tabular-nums; }
          #board .name { flex: 1; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
          #board .country { color: var(--muted); font-size: 12px; width: 2.5em; }
          #board .score { font-variant-numeric: tabular-nums; font-weight: 600; min-width: 5em; text-align: right; animation: arrive .9s ease-out; }
          @keyframes arrive { from { background: color-mix(in srgb, var(--accent) 28%, transparent); } to { background: transparent; } }
          #above, #footer { text-align: center; color: var(--muted); padding: 16px; min-height: 24px; }
        </style>
        </head>
        <body>
        <header>
          <h1>Live leaderboard</h1>
          <p id="status">connecting…</p>
        </header>
        <p id="above"></p>
        <ol id="board" aria-live="off"></ol>
        <p id="footer"></p>
        <script type="module">
        \#(windowScript(grouped: false))
        </script>
        </body>
        </html>
        """#
}
