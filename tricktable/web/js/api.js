// The server's API and the few things remembered on this device.

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function request(method, path, body) {
  const init = { method, headers: {} };
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
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new ApiError(response.status, data.detail || response.statusText);
  return data;
}

export const api = {
  games: () => request("GET", "api/games"),
  newGame: (game, options, level) => request("POST", "api/games", { game, options, level }),
  load: (id) => request("GET", `api/games/${encodeURIComponent(id)}`),
  hint: (id, version) => request("GET", `api/games/${encodeURIComponent(id)}/hint?version=${encodeURIComponent(version)}`),
  act: (id, version, action) => request("POST", `api/games/${encodeURIComponent(id)}/actions`, { version, action }),
  daily: (game) => request("POST", `api/daily/${encodeURIComponent(game)}`, { device: deviceId() }),
  leaderboard: (game) =>
    request("GET", `api/daily/${encodeURIComponent(game)}/leaderboard?device=${encodeURIComponent(deviceId())}`),
  setNickname: (nickname) => request("PUT", "api/nickname", { device: deviceId(), nickname }),
};

/** A random id for this browser, made once: the daily deal is one per device. */
export function deviceId() {
  let id = localStorage.getItem("tt.device");
  if (!id || !/^[A-Za-z0-9_-]{16,64}$/.test(id)) {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    id = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    localStorage.setItem("tt.device", id);
  }
  return id;
}

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
