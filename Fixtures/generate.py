#!/usr/bin/env python3
"""Deterministic generator for the leaderboard fixtures.

Usage:
    python3 Fixtures/generate.py            # regenerate in place (next to this file)
    python3 Fixtures/generate.py --out DIR  # write the same tree under DIR

Everything is derived from one seeded random.Random(20261121); running the
script twice produces byte-identical files. Python 3 standard library only.

Output tree (relative to the output directory):
    leaderboard/players.json          3,000 players, id order
    leaderboard/pages/page-NNN.json   page-number shape, 50 per page, server order
    leaderboard/cursor/first.json     cursor shape, first page
    leaderboard/cursor/<cursor>.json  cursor shape, the page that follows <cursor>
    leaderboard/feed.json             live feed of score / join / leave events
    leaderboard/feed-final.json       the players after applying the whole feed, server order
    malformed/*.json                  deliberately broken inputs
    malformed/README.md               what is wrong with each malformed file, and where
"""

import argparse
import base64
import bisect
import json
import os
import random

SEED = 20261121
PLAYER_COUNT = 3000
PAGE_SIZE = 50
FEED_LENGTH = 2000
MAX_SCORE = 99_999
SCORE_SKEW = 1.6  # scores are MAX_SCORE * u ** SCORE_SKEW, u uniform: low scores are common

COUNTRIES = [
    "US", "GB", "DE", "FR", "SE", "NO", "DK", "FI", "NL", "ES",
    "IT", "PL", "BR", "MX", "JP", "KR", "CN", "IN", "AU", "CA",
]

FIRST_ONSETS = [
    "Al", "Am", "Be", "Bri", "Ca", "Cla", "Da", "De", "El", "Em", "Fe", "Fre",
    "Ga", "Gre", "Ha", "He", "I", "Ja", "Jo", "Ka", "Ke", "La", "Le", "Lu",
    "Ma", "Mi", "Na", "Ni", "O", "Pa", "Pe", "Ra", "Ri", "Ro", "Sa", "Se",
    "So", "Ta", "Te", "Tho", "Va", "Vi", "Wi", "Ya", "Ze",
]
FIRST_MIDDLES = ["", "", "", "n", "r", "l", "ss", "th", "v", "m", "d", "nn", "ri", "li"]
FIRST_CODAS = [
    "a", "o", "ia", "en", "an", "us", "ie", "ard", "ina", "el", "ix", "on",
    "er", "ah", "is", "ey", "io", "ette", "ric", "os",
]
LAST_ROOTS = [
    "Berg", "Stone", "Hart", "Lind", "Moor", "Wood", "Fair", "Black", "Hol",
    "Nord", "Ash", "Brook", "Win", "Castel", "Rey", "Oak", "Hay", "Kirk",
    "Mar", "Dal", "Fern", "Gold", "Hill", "Lang", "Ros", "Sand", "West",
]
LAST_SUFFIXES = [
    "man", "son", "ley", "field", "ford", "wick", "er", "ton", "berg",
    "ström", "dottir", "ez", "ini", "ski", "ova", "ham", "well", "by", "sen",
]
HANDLE_ADJECTIVES = [
    "Silent", "Rapid", "Lucky", "Crimson", "Frozen", "Golden", "Hidden",
    "Iron", "Lunar", "Mighty", "Neon", "Pixel", "Quiet", "Rogue", "Shadow",
    "Solar", "Turbo", "Velvet", "Wild", "Zen",
]
HANDLE_NOUNS = [
    "Fox", "Falcon", "Otter", "Wizard", "Knight", "Comet", "Badger", "Raven",
    "Tiger", "Panda", "Ninja", "Pilot", "Golem", "Sparrow", "Viper", "Yeti",
]

# Names that renderers must handle with care: non-ASCII Latin, CJK and Hangul
# (double-width in terminals), emoji (including a ZWJ sequence), and markup
# characters that must be escaped in HTML. `score` None means "random";
# specials with a fixed score land on page 1 of server order.
SPECIALS = [
    ('<b>Bold</b> & "Quoted"', "US", 99_400),
    ("Zoë Lindqvist", "GB", 99_400),
    ("王小明", "CN", 99_200),
    ("Kai 🦊", "AU", 99_100),
    ("Jürgen Großmann", "DE", None),
    ("Søren Kjærgaard", "DK", None),
    ("Renée Laurent", "FR", None),
    ("Łukasz Wójcik", "PL", None),
    ("佐藤健", "JP", None),
    ("李娜", "CN", None),
    ("김민준", "KR", None),
    ("👩\u200d💻 Dana", "SE", None),
    ("O'Connor <script>alert(\"x\")</script>", "GB", None),
]


# --------------------------------------------------------------------------
# Serialisation helpers (compact objects, one array element per line)
# --------------------------------------------------------------------------

def dump_obj(obj):
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def dump_array(items):
    if not items:
        return "[]"
    return "[\n" + ",\n".join(dump_obj(i) for i in items) + "\n]"


def page_document(rows, pagination):
    return '{"data":' + dump_array(rows) + ',"pagination":' + dump_obj(pagination) + "}\n"


def write_text(path, text):
    write_bytes(path, text.encode("utf-8"))


def write_bytes(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def server_key(player):
    """Server order: score descending, then id ascending."""
    return (-player["score"], player["id"])


def encode_cursor(player):
    """Opaque cursor naming the (score, id) key of the last row served.

    Shared with server.py so fixture cursors are valid against the server's
    initial data set.
    """
    raw = "{}:{}".format(player["score"], player["id"]).encode("ascii")
    return "c_" + base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


# --------------------------------------------------------------------------
# Players
# --------------------------------------------------------------------------

def make_name(rng):
    roll = rng.random()
    if roll < 0.68:
        first = rng.choice(FIRST_ONSETS) + rng.choice(FIRST_MIDDLES) + rng.choice(FIRST_CODAS)
        last = rng.choice(LAST_ROOTS) + rng.choice(LAST_SUFFIXES)
        return first + " " + last
    if roll < 0.80:
        first = rng.choice(FIRST_ONSETS) + rng.choice(FIRST_CODAS)
        return first + " " + rng.choice(LAST_ROOTS)[0] + "."
    handle = rng.choice(HANDLE_ADJECTIVES) + rng.choice(HANDLE_NOUNS)
    style = rng.random()
    if style < 0.4:
        handle += str(rng.randint(1, 999))
    elif style < 0.5:
        handle = "xX_" + handle + "_Xx"
    elif style < 0.6:
        handle = handle.lower()
    return handle


def make_score(rng):
    # Skewed towards lower scores, so the top of the board is sparse.
    score = int(MAX_SCORE * (rng.random() ** SCORE_SKEW))
    roll = rng.random()
    if roll < 0.30:
        score = (score // 100) * 100          # many ties
    elif roll < 0.36:
        score = (score // 1000) * 1000        # even more ties
    return max(0, min(MAX_SCORE, score))


def make_players(rng):
    players = []
    for n in range(1, PLAYER_COUNT + 1):
        players.append({
            "id": "p%05d" % n,
            "name": make_name(rng),
            "score": make_score(rng),
            "country": rng.choice(COUNTRIES),
        })

    # Special names at deterministic, scattered ids.
    special_slots = rng.sample(range(PLAYER_COUNT), len(SPECIALS))
    for slot, (name, country, score) in zip(special_slots, SPECIALS):
        p = players[slot]
        p["name"] = name
        p["country"] = country
        if score is not None:
            p["score"] = score

    # Guaranteed edge values: the maximum score (tied), and a few zeros.
    used = set(special_slots)
    extra = [i for i in rng.sample(range(PLAYER_COUNT), 20) if i not in used]
    players[extra[0]]["score"] = MAX_SCORE
    players[extra[1]]["score"] = MAX_SCORE
    for i in extra[2:6]:
        players[i]["score"] = 0
    return players


# --------------------------------------------------------------------------
# Live feed
# --------------------------------------------------------------------------

def score_after_step(score, step):
    """The score after a step of the player's rank position, `step` in [-1, 1].

    Scores are `MAX_SCORE * u ** SCORE_SKEW` for a position u in [0, 1], as in
    make_score. Each change moves u by a symmetric step, reflected at 0 and 1, so
    a player is as likely to fall as to rise: the scores keep the spread of
    make_score however long the feed runs, instead of drifting to a bound.
    """
    u = (score / MAX_SCORE) ** (1 / SCORE_SKEW) + step
    if u > 1:
        u = 2 - u
    if u < 0:
        u = -u
    return max(0, min(MAX_SCORE, int(MAX_SCORE * u ** SCORE_SKEW)))


def make_feed(rng, players, length=FEED_LENGTH):
    state = {p["id"]: dict(p) for p in players}
    order = sorted(server_key(p) for p in players)      # sorted server keys
    active = [p["id"] for p in players]                  # for uniform picks
    protected = {p["id"] for p in players if p["name"] in {s[0] for s in SPECIALS}}
    next_join = PLAYER_COUNT + 1
    events = []

    def set_score(pid, score):
        p = state[pid]
        del order[bisect.bisect_left(order, server_key(p))]
        p["score"] = score
        bisect.insort(order, server_key(p))

    def top_ids(n):
        return [k[1] for k in order[:n]]

    while len(events) < length:
        roll = rng.random()
        if roll < 0.08:
            pid = "p%05d" % next_join
            next_join += 1
            high = rng.random() < 0.5
            score = rng.randint(60_000, MAX_SCORE) if high else make_score(rng)
            player = {"id": pid, "name": make_name(rng), "score": score,
                      "country": rng.choice(COUNTRIES)}
            state[pid] = dict(player)
            bisect.insort(order, server_key(player))
            active.append(pid)
            events.append({"op": "join", "player": player})
        elif roll < 0.14:
            pool = top_ids(60) if rng.random() < 0.3 else active
            candidates = [i for i in pool if i not in protected]
            pid = rng.choice(candidates)
            p = state.pop(pid)
            del order[bisect.bisect_left(order, server_key(p))]
            active.remove(pid)
            events.append({"op": "leave", "id": pid})
        else:
            near_top = rng.random() < 0.75
            pid = rng.choice(top_ids(60) if near_top else active)
            old = state[pid]["score"]
            step = rng.uniform(-0.02, 0.02) if near_top else rng.uniform(-0.06, 0.06)
            new = score_after_step(old, step)
            if rng.random() < 0.2:
                new = (new // 100) * 100
            if new == old:
                new = old - 1 if old == MAX_SCORE else old + 1
            set_score(pid, new)
            events.append({"op": "score", "id": pid, "score": new})

    final = sorted(state.values(), key=server_key)
    return events, final


# --------------------------------------------------------------------------
# Malformed inputs
# --------------------------------------------------------------------------

def make_malformed(out, ranked):
    mdir = os.path.join(out, "malformed")
    os.makedirs(mdir, exist_ok=True)
    for name in os.listdir(mdir):
        if name.endswith(".json"):
            os.remove(os.path.join(mdir, name))

    total = len(ranked)
    limit = 5
    rows = [dict(p) for p in ranked[:limit]]
    pagination = {"page": 1, "limit": limit, "totalPages": -(-total // limit), "totalItems": total}
    valid = page_document(rows, pagination)
    notes = []

    # truncated.json: a valid page-number document cut in the middle of data[2].
    cut_at = valid.index('"name":"', valid.index(rows[2]["id"])) + 8 + min(3, len(rows[2]["name"]))
    truncated = valid[:cut_at]
    write_text(os.path.join(mdir, "truncated.json"), truncated)
    notes.append(("truncated.json",
                  "page-number document cut mid-string inside `data[2].name` after %d bytes; "
                  "no closing quote, `]` or `}`." % len(truncated.encode("utf-8"))))

    # wrong-type.json: data[3].score is a JSON string instead of a number.
    wrong = [dict(p) for p in rows]
    wrong[3]["score"] = str(wrong[3]["score"])
    write_text(os.path.join(mdir, "wrong-type.json"), page_document(wrong, pagination))
    notes.append(("wrong-type.json",
                  'valid JSON, page-number shape, but `data[3].score` is the string `"%s"` '
                  "instead of a number (line 5)." % wrong[3]["score"]))

    # fractional-score.json: data[2].score is a number, but not a whole one.
    fractional = [dict(p) for p in rows]
    fractional[2]["score"] = fractional[2]["score"] + 0.5
    write_text(os.path.join(mdir, "fractional-score.json"), page_document(fractional, pagination))
    notes.append(("fractional-score.json",
                  "valid JSON, page-number shape, but `data[2].score` is `%s`, a number that "
                  "does not fit the `Int` it decodes to (line 4)." % fractional[2]["score"]))

    # missing-pagination.json: the `pagination` member is absent.
    write_text(os.path.join(mdir, "missing-pagination.json"),
               '{"data":' + dump_array(rows) + "}\n")
    notes.append(("missing-pagination.json",
                  "valid JSON object with `data` (5 players) but no `pagination` member."))

    # not-an-object.json: top level is the bare array of players.
    write_text(os.path.join(mdir, "not-an-object.json"), dump_array(rows) + "\n")
    notes.append(("not-an-object.json",
                  "valid JSON, but the top level is an array of 5 players, not an object "
                  "with `data` and `pagination`."))

    # empty.json: zero bytes.
    write_bytes(os.path.join(mdir, "empty.json"), b"")
    notes.append(("empty.json", "zero bytes; not a JSON document at all."))

    # bad-utf8.json: invalid UTF-8 bytes inside the string data[1].name.
    marker = "\x00BAD\x00"
    bad_rows = [dict(p) for p in rows]
    bad_rows[1]["name"] = "Bad" + marker + "Bytes"
    text = page_document(bad_rows, pagination).replace("\\u0000BAD\\u0000", marker)
    head, tail = text.split(marker)
    bad = head.encode("utf-8") + b"\xc3\x28\xff\xfe" + tail.encode("utf-8")
    write_bytes(os.path.join(mdir, "bad-utf8.json"), bad)
    offset = len(head.encode("utf-8"))
    notes.append(("bad-utf8.json",
                  "page-number shape; `data[1].name` (line 3) contains the invalid UTF-8 bytes "
                  "`C3 28 FF FE` at byte offset %d (a broken 2-byte sequence, then two bytes "
                  "that never occur in UTF-8); everything else is valid." % offset))

    lines = ["# Malformed inputs", "",
             "Generated by `../generate.py`; each file is broken in exactly one way.", ""]
    for name, what in notes:
        lines.append("- `%s`: %s" % (name, what))
    write_text(os.path.join(mdir, "README.md"), "\n".join(lines) + "\n")


# --------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------

def clean_json(directory):
    os.makedirs(directory, exist_ok=True)
    for name in os.listdir(directory):
        if name.endswith(".json"):
            os.remove(os.path.join(directory, name))


def generate(out):
    rng = random.Random(SEED)
    players = make_players(rng)
    ranked = sorted(players, key=server_key)
    total = len(ranked)
    total_pages = -(-total // PAGE_SIZE)

    # Sanity checks on the data set.
    assert len({p["id"] for p in players}) == PLAYER_COUNT
    assert all(0 <= p["score"] <= MAX_SCORE for p in players)
    page_one = {p["name"] for p in ranked[:PAGE_SIZE]}
    assert all(name in page_one for name, _, score in SPECIALS if score is not None)

    lb = os.path.join(out, "leaderboard")
    write_text(os.path.join(lb, "players.json"), dump_array(players) + "\n")

    pages_dir = os.path.join(lb, "pages")
    clean_json(pages_dir)
    for page in range(1, total_pages + 1):
        rows = ranked[(page - 1) * PAGE_SIZE: page * PAGE_SIZE]
        pagination = {"page": page, "limit": PAGE_SIZE,
                      "totalPages": total_pages, "totalItems": total}
        write_text(os.path.join(pages_dir, "page-%03d.json" % page),
                   page_document(rows, pagination))

    cursor_dir = os.path.join(lb, "cursor")
    clean_json(cursor_dir)
    file_name = "first.json"
    for start in range(0, total, PAGE_SIZE):
        rows = ranked[start: start + PAGE_SIZE]
        has_more = start + PAGE_SIZE < total
        next_cursor = encode_cursor(rows[-1]) if has_more else None
        write_text(os.path.join(cursor_dir, file_name),
                   page_document(rows, {"nextCursor": next_cursor}))
        if next_cursor is not None:
            file_name = next_cursor + ".json"

    events, final = make_feed(rng, players)
    write_text(os.path.join(lb, "feed.json"), dump_array(events) + "\n")
    write_text(os.path.join(lb, "feed-final.json"), dump_array(final) + "\n")

    make_malformed(out, ranked)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description="Generate the leaderboard fixtures.")
    parser.add_argument("--out", default=here,
                        help="output directory (default: the folder holding this script)")
    args = parser.parse_args()
    generate(os.path.abspath(args.out))


if __name__ == "__main__":
    main()
