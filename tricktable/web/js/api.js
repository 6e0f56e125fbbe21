// The server's API and the few things remembered on this device.

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

// A request the server never answers must not leave the table waiting for good: after
// this long it fails like a lost connection, and the person can try again (a retried
// action the server did store meets a stale version, and the page reloads the game).
const REQUEST_TIMEOUT_MS = 15000;

async function request(method, path, body) {
  const init = { method, headers: {}, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new ApiError(0, "offline"); // the page says so in words; never "Failed to fetch"
  }
  let data = {};
  try {
    data = await response.json();
  } catch {
    if (init.signal.aborted) throw new ApiError(0, "offline"); // the answer stalled halfway
  }
  if (!response.ok) throw new ApiError(response.status, data.detail || response.statusText);
  return data;
}

export const api = {
  // The server issues the identity (an HttpOnly cookie the page never sees).
  identity: () => request("POST", "api/identity"),
  transferCode: () => request("POST", "api/identity/transfer"),
  claimTransfer: (code) => request("POST", "api/identity/claim", { code }),
  games: () => request("GET", "api/games"),
  commitment: () => request("POST", "api/commitments"),
  newGame: (game, options, level, fairness) => request("POST", "api/games", { game, options, level, fairness }),
  load: (id) => request("GET", `api/games/${encodeURIComponent(id)}`),
  record: (id) => request("GET", `api/games/${encodeURIComponent(id)}/record`),
  hint: (id, version) => request("GET", `api/games/${encodeURIComponent(id)}/hint?version=${encodeURIComponent(version)}`),
  act: (id, version, action) => request("POST", `api/games/${encodeURIComponent(id)}/actions`, { version, action }),
  daily: (game) => request("POST", `api/daily/${encodeURIComponent(game)}`),
  leaderboard: (game) => request("GET", `api/daily/${encodeURIComponent(game)}/leaderboard`),
  setNickname: (nickname) => request("PUT", "api/nickname", { nickname }),
  stats: (game) => request("GET", `api/stats?game=${encodeURIComponent(game)}`),
  passkeys: () => request("GET", "api/passkeys"),
  passkeyRegisterOptions: () => request("POST", "api/passkeys/register/options"),
  passkeyRegister: (credential) => request("POST", "api/passkeys/register", { credential }),
  passkeySignInOptions: () => request("POST", "api/passkeys/sign-in/options"),
  passkeySignIn: (credential, bring = false) => request("POST", "api/passkeys/sign-in", { credential, bring }),
  removePasskey: (id) => request("DELETE", `api/passkeys/${encodeURIComponent(id)}`),
  history: (game, before) => request("GET", `api/history?${new URLSearchParams({ limit: "20", ...(game ? { game } : {}), ...(before ? { before } : {}) })}`),
  replay: (id) => request("GET", `api/games/${encodeURIComponent(id)}/replay`),
  sharedReplay: (token) => request("GET", `api/shared/${encodeURIComponent(token)}/replay`),
  uploadReplay: (record) => request("POST", "api/records/replay", { record }),
  // Tables of friends' match: a quick reaction, a watch link's table, play with anyone.
  react: (tableId, key) => request("POST", `api/tables/${encodeURIComponent(tableId)}/reactions`, { key }),
  watch: (token) => request("GET", `api/watch/${encodeURIComponent(token)}`),
  quickMatch: (game, options) => request("POST", "api/quick-match", { game, options }),
  // The routes of "learn from your games" the replay viewer reads by path (analysis, play on, share).
  get: (path) => request("GET", path),
  post: (path, body) => request("POST", path, body),
};

export const memory = {
  options(game) {
    try {
      return JSON.parse(localStorage.getItem(`tt.options.${game}`) || "{}") || {};
    } catch {
      return {};
    }
  },
  setOptions(game, options) {
    localStorage.setItem(`tt.options.${game}`, JSON.stringify(options));
  },
  gameId: (game) => localStorage.getItem(`tt.game.${game}`),
  setGameId: (game, id) => localStorage.setItem(`tt.game.${game}`, id),
  nickname: () => localStorage.getItem("tt.nickname") || "",
  setNickname: (name) => localStorage.setItem("tt.nickname", name),
};
