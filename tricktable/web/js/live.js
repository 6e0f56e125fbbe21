// The live channel of one game: the server's events stream
// (GET api/games/ID/events?version=V) delivers each computer player's action as
// soon as it is committed (`step`), says who starts thinking (`thinking`), and
// on a reconnect sends what was missed (or the whole `state`).  Reconnects pick
// up from the newest version this page knows.  Should the stream be unreachable
// the page asks for the game itself while it waits, so it never hangs.  At a
// table of friends the stream also tells the people's quick reactions
// (`reaction`) and a seat changing hands (`seats`); a watcher's page follows
// the watch link's stream the same way.

import { api } from "./api.js";

const RETRY_MS = [500, 1000, 2000, 4000, 8000];
const POLL_MS = 1500;

export class GameFeed {
  /** ``known()`` gives the newest version the page has; ``onResponse(r)`` gets
   * every response (step or full state); ``onThinking({seat, version})``;
   * ``onReaction({seat, key})``; at a table of friends ``onSeats({seat})`` (a
   * seat changed hands: a person left it, a newcomer took it), ``onNext({game_id})``
   * (the table plays again) and ``onRemoved()`` (the host gave the seat to a
   * computer player: the feed ends).  ``events``: the stream's path without its
   * version (the game's own by default); ``load()``: the whole game, when the
   * stream is down. */
  constructor(id, { known, onResponse, onThinking, onReaction = () => {}, onSeats = () => {}, waiting, events = null,
                    load = null, onNext = () => {}, onRemoved = () => {} }) {
    this.id = id;
    this.known = known;
    this.onResponse = onResponse;
    this.onThinking = onThinking;
    this.onNext = onNext;
    this.onRemoved = onRemoved;
    this.onReaction = onReaction;
    this.onSeats = onSeats;
    this.events = events || `api/games/${encodeURIComponent(id)}/events`;
    this.load = load || (() => api.load(id));
    this.waiting = waiting; // whether the page waits for the computer players now
    this.failures = 0;
    this.closed = false;
    this.connect();
    this.poller = setInterval(() => this.poll(), POLL_MS);
  }

  connect() {
    if (this.closed || typeof EventSource === "undefined") return;
    const url = `${this.events}?version=${encodeURIComponent(this.known())}`;
    const source = new EventSource(url);
    this.source = source;
    source.addEventListener("open", () => {
      this.failures = 0;
      this.lastEvent = performance.now();
    });
    const handle = (event, callback) => {
      this.lastEvent = performance.now();
      try {
        callback(JSON.parse(event.data));
      } catch (error) {
        console.warn("bad event", error);
      }
    };
    source.addEventListener("step", (event) => handle(event, this.onResponse));
    source.addEventListener("state", (event) => handle(event, this.onResponse));
    source.addEventListener("thinking", (event) => handle(event, this.onThinking));
    source.addEventListener("next", (event) => handle(event, this.onNext));
    source.addEventListener("removed", () => {
      this.close(); // the game no longer answers to this person: no reconnecting
      this.onRemoved();
    });
    source.addEventListener("reaction", (event) => handle(event, this.onReaction));
    source.addEventListener("seats", (event) => handle(event, this.onSeats));
    source.addEventListener("error", () => {
      // EventSource would retry with the old URL; reconnect from what we know now.
      source.close();
      if (this.closed) return;
      const wait = RETRY_MS[Math.min(this.failures, RETRY_MS.length - 1)];
      this.failures += 1;
      clearTimeout(this.retry);
      this.retry = setTimeout(() => this.connect(), wait);
    });
  }

  /** The stream is healthy when it is open; otherwise, while the page waits
   * for the computer players, ask for the game directly. */
  async poll() {
    if (this.closed || !this.waiting()) return;
    const open = this.source && this.source.readyState === EventSource.OPEN;
    if (open && performance.now() - (this.lastEvent || 0) < 20000) return;
    try {
      this.onResponse(await this.load());
    } catch {
      // offline: the next poll tries again
    }
  }

  close() {
    this.closed = true;
    clearInterval(this.poller);
    clearTimeout(this.retry);
    if (this.source) this.source.close();
  }
}
