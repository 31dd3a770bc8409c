// The table API of saikoro serve (docs/table-api.md): JSON over HTTP and one WebSocket.
import { lang, t } from './i18n.js';

export class ApiError extends Error {
  constructor(message, status, data = {}) {
    super(message);
    this.status = status;
    this.data = data; // the refusal's body (e.g. `characters` of a file of several)
  }
}

/** A refusal's message in the page's language (`messages`), else the bilingual one. */
export const refusalText = (data) => data.messages?.[lang()] || data.message || data.reason || '';

/** A failure the server did not explain (a 500, a proxy's page): said in the page's language. */
const unexplained = (response) => `${t('serverError')} (${response.status})`;

async function call(method, url, token, body) {
  const headers = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(url, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok || data.ok === false) {
    throw new ApiError(refusalText(data) || unexplained(response), response.status, data);
  }
  return data;
}

/** WebSocket close codes of the table API that a retry cannot mend (bad token, no room). */
const REFUSED = new Set([4401, 4403, 4404]);

export const createRoom = (name, system) => call('POST', '/api/rooms', null, { name, system });

export const roomPath = (room) => `/api/rooms/${encodeURIComponent(room)}`;

export class Room {
  constructor(room, token) {
    this.room = room;
    this.token = token;
  }

  get(path) {
    return call('GET', roomPath(this.room) + path, this.token);
  }

  post(path, body) {
    return call('POST', roomPath(this.room) + path, this.token, body);
  }

  patch(path, body) {
    return call('PATCH', roomPath(this.room) + path, this.token, body);
  }

  join(invite, character) {
    return call('POST', `${roomPath(this.room)}/join`, null, { invite, character });
  }

  line(line, tab = 'main') {
    return this.post('/lines', { line, tab });
  }

  /** The caller's view of the log after `after` (a list of events with their seq). */
  async events(after) {
    const data = await this.get(`/events?after=${after}`);
    return Array.isArray(data) ? data : data.events ?? [];
  }

  /** The `limit` events before seq `before`, oldest first (paging back through the log). */
  async eventsBefore(before, limit) {
    const data = await this.get(`/events?before=${before}&limit=${limit}`);
    return data.events ?? [];
  }

  /** Set a character's face to the image `file` (a File or Blob), or take it off (null). */
  async face(name, file) {
    const response = await fetch(`${roomPath(this.room)}/characters/${encodeURIComponent(name)}/icon`, {
      method: file ? 'PUT' : 'DELETE',
      headers: { Authorization: `Bearer ${this.token}`, ...(file ? { 'Content-Type': file.type || 'application/octet-stream' } : {}) },
      body: file ?? undefined,
    });
    const data = await response.json().catch(() => ({}));
    if (!response.ok || data.ok === false) {
      throw new ApiError(refusalText(data) || unexplained(response), response.status, data);
    }
    return data;
  }

  async download(path) {
    const response = await fetch(roomPath(this.room) + path, {
      headers: { Authorization: `Bearer ${this.token}` },
    });
    if (!response.ok) {
      const data = await response.json().catch(() => ({}));
      throw new ApiError(refusalText(data) || unexplained(response), response.status, data);
    }
    return response.blob();
  }

  /**
   * Live events over the WebSocket, resumed after the last seq seen whenever the socket
   * drops; `onEvent` gets each event once, in order; `onStatus(true|false)` the connection.
   */
  live(lastSeq, onEvent, onStatus) {
    let socket = null;
    let delay = 250;
    let closed = false;
    const open = () => {
      const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
      const query = new URLSearchParams({ token: this.token, after: String(lastSeq()) });
      socket = new WebSocket(`${scheme}://${location.host}${roomPath(this.room)}/ws?${query}`);
      socket.onopen = () => {
        delay = 250;
        onStatus(true);
      };
      socket.onmessage = (message) => {
        const data = JSON.parse(message.data);
        if (data.type === 'ping') socket.send('{"type": "pong"}');
        else if (data.type === 'event' && data.seq > lastSeq()) onEvent(data);
      };
      socket.onclose = (event) => {
        const refused = REFUSED.has(event.code); // a revoked link or a gone room: no retry
        onStatus(false, refused);
        if (!closed && !refused) setTimeout(open, delay);
        delay = Math.min(delay * 2, 4000);
      };
    };
    open();
    return {
      close() {
        closed = true;
        socket?.close();
      },
      drop() {
        socket?.close(); // reconnects (used by tests of the resume)
      },
    };
  }
}
