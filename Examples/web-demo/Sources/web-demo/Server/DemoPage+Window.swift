extension DemoPage {
    /// The page script both pages share: it opens the page's window with its event
    /// stream (the server names it with a token, in the stream's `window` event, and the
    /// page resumes it after a broken connection), connects the list to it, reports the rows on screen so that the window loads
    /// pages both ways, numbers the rows from the window's first rank, and shows the
    /// state of each end.
    ///
    /// - Parameter grouped: whether the rows are in tier sections (`/?group=tier`).
    static func windowScript(grouped: Bool) -> String {
        #"""
          import { connectEventSource } from "/list-client.js";

          const grouped = \#(grouped);
          const board = document.getElementById("board");
          const status = document.getElementById("status");
          const above = document.getElementById("above");
          const footer = document.getElementById("footer");
          const header = document.querySelector("header");
          const counts = { batches: 0, snapshots: 0 };
          // This page's own window on the leaderboard: the event stream opens it and the
          // server sends its token in a `window` event; /appear, /retry, /snapshot and
          // /status address it with the token. When the stream breaks the page resumes
          // the window (/events?resume=TOKEN) while the server still holds it (within its
          // grace period), and opens a new one otherwise.
          let token = null;
          const query = () => `window=${token}${grouped ? "&group=tier" : ""}`;
          let pagination = "idle";
          let prepend = "idle";
          let firstRank = null;
          // How near an end the rows on screen load the next page there (from /status).
          let prefetchDistance = 20;

          // The rows in list order (inside their sections on the grouped page).
          const rows = () => (grouped ? board.querySelectorAll("li") : board.children);

          function describe(element, state, loading, idle) {
            if (state === "failed") {
              if (element.querySelector("button") !== null) return;
              const button = document.createElement("button");
              button.textContent = "Try again";
              button.addEventListener("click", retry);
              element.replaceChildren("Loading failed. ", button);
              return;
            }
            element.textContent = state === "loading" ? loading : idle;
          }

          function counted(count, one, many) {
            return `${count.toLocaleString()} ${count === 1 ? one : many}`;
          }

          function showStatus() {
            const version = board.dataset.version ?? "–";
            const count = rows().length;
            const ranks = firstRank !== null && count > 0 ? `, ranks ${firstRank.toLocaleString()}–${(firstRank + count - 1).toLocaleString()}` : "";
            const tiers = grouped ? ` in ${counted(board.childElementCount, "tier", "tiers")}` : "";
            status.textContent = `version ${version} · ${counted(count, "player", "players")}${tiers}${ranks} · ` +
              `${counted(counts.batches, "batch", "batches")}, ${counted(counts.snapshots, "snapshot", "snapshots")}`;
            describe(above, prepend, "Loading earlier players…",
              firstRank !== null && firstRank > 1 ? `${(firstRank - 1).toLocaleString()} players above` : "");
            describe(footer, pagination, "Loading more players…", pagination === "exhausted" ? "That is everyone." : "");
          }

          // A window status (from /appear, /retry or /status): both ends, and the rank of
          // the window's first row, which numbers the rows while that row is first.
          function applyStatus(answer) {
            pagination = answer.pagination;
            prepend = answer.prepend;
            prefetchDistance = answer.prefetchDistance ?? prefetchDistance;
            const first = rows()[0];
            if (first !== undefined && answer.firstId !== null && first.getAttribute("data-id") === answer.firstId) {
              firstRank = answer.firstRank;
              board.dataset.firstRank = String(firstRank);
              board.style.counterReset = `rank ${firstRank - 1}`;
            }
          }

          async function post(path) {
            if (token === null) return;
            try {
              const response = await fetch(`${path}?${query()}`, { method: "POST" });
              if (response.ok) applyStatus(await response.json());
            } catch {
              // Asked again by the next scroll or change.
            } finally {
              showStatus();
            }
          }

          // A failed load is retried only when asked: scrolling does not hammer the server.
          const retry = () => post("/retry");

          // The rows on screen: the first whose bottom is below the header, the last
          // whose top is above the bottom of the viewport (binary searches).
          function visibleRange() {
            const list = rows();
            if (list.length === 0) return null;
            const top = header.getBoundingClientRect().bottom;
            let low = 0, high = list.length;
            while (low < high) {
              const middle = (low + high) >> 1;
              if (list[middle].getBoundingClientRect().bottom <= top) low = middle + 1; else high = middle;
            }
            const first = Math.min(low, list.length - 1);
            high = list.length;
            while (low < high) {
              const middle = (low + high) >> 1;
              if (list[middle].getBoundingClientRect().top < window.innerHeight) low = middle + 1; else high = middle;
            }
            return [first, Math.max(first, low - 1), list.length];
          }

          // Reports the rows on screen when they changed: the window loads the next page
          // near its end, the previous page near its start, and when it trims keeps the
          // row reported last, the one in the direction of scrolling. One request at a
          // time. Away from the ends, rows that come or go elsewhere in the list (which
          // shift the offsets) are not reported: only other rows on screen are.
          let reporting = false;
          let again = false;
          let reported = "";
          let lastY = window.scrollY;
          let goingUp = false;
          async function reportVisible() {
            if (reporting) {
              again = true;
              return;
            }
            if (token === null) return;
            const range = visibleRange();
            if (range === null) return;
            const [first, last, count] = range;
            const list = rows();
            const nearEnd = (first <= prefetchDistance && prepend !== "exhausted")
              || (last >= count - 1 - prefetchDistance && pagination !== "exhausted");
            const key = nearEnd ? `near ${range.join()}`
              : `${list[first].getAttribute("data-id")} ${list[last].getAttribute("data-id")}`;
            if (key === reported) return;
            reported = key;
            reporting = true;
            try {
              const response = await fetch(`/appear?${query()}&offset=${goingUp ? `${last},${first}` : `${first},${last}`}`, { method: "POST" });
              if (response.ok) applyStatus(await response.json());
            } catch {
              reported = "";  // asked again by the next scroll or change
            } finally {
              reporting = false;
              showStatus();
              if (again) {
                again = false;
                setTimeout(reportVisible, 50);
              }
            }
          }

          let statusAsked = false;
          async function refreshStatus() {
            if (statusAsked || token === null) return;
            statusAsked = true;
            try {
              const response = await fetch(`/status?${query()}`, { cache: "no-store" });
              if (response.ok) applyStatus(await response.json());
            } catch {
            } finally {
              statusAsked = false;
              showStatus();
            }
          }

          let rankedFirst = null;
          // The stream's URL, asked for each stream opened: a new window at first, the
          // same window again after a broken stream while the server holds it (a token it
          // no longer holds is answered 404 by /status), else a new one.
          async function streamURL() {
            if (token !== null) {
              try {
                const response = await fetch(`/status?${query()}`, { cache: "no-store" });
                if (response.status === 404) token = null;
              } catch {
                // The server is unreachable: the resume fails and the page asks again.
              }
            }
            return token === null ? `/events${grouped ? "?group=tier" : ""}` : `/events?resume=${token}`;
          }

          const connection = connectEventSource(board, streamURL, {
            snapshotURL: () => `/snapshot?${query()}`,
            events: {
              window(event) {
                token = JSON.parse(event.data).id;
                board.dataset.window = token;
              },
            },
            // The stream starts with the window's snapshot.
            initialSnapshot: false,
            onChange(change) {
              counts[change.type === "batch" ? "batches" : "snapshots"] += 1;
              board.dataset.version = String(change.version);
              board.dataset.batches = String(counts.batches);
              board.dataset.snapshots = String(counts.snapshots);
              // A new first row: ask for its rank.
              const first = rows()[0]?.getAttribute("data-id") ?? null;
              if (first !== rankedFirst) {
                rankedFirst = first;
                refreshStatus();
              }
              showStatus();
              reportVisible();
            },
          });
          window.leaderboard = connection;

          window.addEventListener("scroll", () => {
            goingUp = window.scrollY < lastY;
            lastY = window.scrollY;
            reportVisible();
          }, { passive: true });
          window.addEventListener("resize", reportVisible);
          setInterval(refreshStatus, 1000);
        """#
    }
}
