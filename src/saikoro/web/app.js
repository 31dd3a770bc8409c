// The web table: lobby (create a room), join (bring a character), room view.
import { Room, createRoom } from './api.js';
import { renderCards } from './cards.js';
import { renderCombat } from './combat.js';
import { Faces } from './faces.js';
import { lang, provide, provideTerms, setLang, t } from './i18n.js';
import { ChatLog } from './log.js';
import { TabBar } from './tabs.js';
import { paletteLoading, renderPalette } from './palette.js';
import { SheetTools } from './sheet_tools.js';
import { TargetMemory } from './targets.js';
import { TurnCue, turnActor } from './turns.js';
import { renderUsage } from './usage.js';
import { Simulation } from './simulate.js';

const $ = (selector) => document.querySelector(selector);

/**
 * room / token / invite from the link: the fragment (#room=…&token=…) or the query. A link
 * given as a query (?room=…&invite=…) is moved into the fragment at once, so the secret
 * leaves the address bar and is never sent again (Referer, reloads, the server's log).
 */
function linkParams() {
  const params = new URLSearchParams(location.hash.slice(1));
  for (const [key, value] of new URLSearchParams(location.search)) if (!params.has(key)) params.set(key, value);
  if (location.search) history.replaceState(null, '', `${location.pathname}#${params}`);
  return { room: params.get('room'), token: params.get('token'), invite: params.get('invite') };
}

/** Open a link the API gave (same page: only the fragment changes). */
function go(url) {
  const target = new URL(url, location.href);
  if (target.origin === location.origin && target.pathname === location.pathname) {
    history.replaceState(null, '', target.search + target.hash);
    route();
  } else {
    location.assign(target.href);
  }
}

function show(id) {
  for (const main of document.querySelectorAll('main')) main.hidden = main.id !== id;
}

/**
 * A line typed on a Japanese keyboard: the leading ＠ ： ／ as ASCII, ideographic spaces as
 * spaces, and a status edit (：ＨＰ－３) wholly in ASCII; dice are read by the server.
 */
function normaliseLine(typed) {
  const line = typed.trim().replace(/\u3000/g, ' ').replace(/^[＠：／]/, (c) => c.normalize('NFKC'));
  return line.startsWith(':') ? line.normalize('NFKC') : line;
}

// -- lobby ------------------------------------------------------------------------------

const RECENT = 'saikoro.recent';

/** Remember a room link this browser opened (a closed tab must not lose the GM's link). */
function remember(room, role, label) {
  const recent = JSON.parse(localStorage.getItem(RECENT) || '[]').filter((r) => r.url !== location.href);
  recent.unshift({ room, role, label, url: location.href });
  localStorage.setItem(RECENT, JSON.stringify(recent.slice(0, 20)));
}

function recentRooms() {
  const recent = JSON.parse(localStorage.getItem(RECENT) || '[]');
  $('#recent').hidden = recent.length === 0;
  $('#recent ul').replaceChildren(
    ...recent.map((r) => {
      const item = document.createElement('li');
      const link = document.createElement('a');
      link.href = r.url;
      link.textContent = `${r.room} — ${r.label || t(r.role)}`;
      item.append(link);
      return item;
    }),
  );
}

/** The game systems for the create form, from the server's BCDice-API list. */
async function systemChoices() {
  const box = $('#create-form [name=system]');
  if (box.options.length) return;
  const response = await fetch('/v2/game_system');
  const { game_system: list } = await response.json();
  box.replaceChildren(...list.map((s) => {
    const option = new Option(s.id, s.id);
    option.dataset.name = s.name;
    return option;
  }));
  labelSystems();
  box.value = list.find((s) => s.id !== 'DiceBot')?.id ?? list[0].id;
}

/** A system's name is BCDice's Japanese title (shown with its ID in Japanese); the English
 * page names it by its ID, as BCDice does outside Japan. */
function labelSystems() {
  for (const option of $('#create-form [name=system]').options) {
    option.textContent = lang() === 'en' ? option.value : `${option.dataset.name} (${option.value})`;
  }
}

function lobby() {
  show('lobby');
  recentRooms();
  systemChoices();
  $('#room-title').textContent = '';
  const form = $('#create-form');
  form.onsubmit = async (e) => {
    e.preventDefault();
    const error = form.querySelector('.error');
    error.textContent = '';
    try {
      const made = await createRoom(form.name.value.trim(), form.system.value);
      localStorage.setItem(`saikoro.links.${made.room}`, JSON.stringify({ invite: made.invite_url, spectator: made.spectator_url }));
      go(made.gm_url);
    } catch (err) {
      error.textContent = err.message;
    }
  };
}

// -- join -------------------------------------------------------------------------------

async function readCharacterFile(file) {
  if (/\.(zip|xml)$/i.test(file.name)) { // Udonarium: sent as bytes, read by the server
    const bytes = new Uint8Array(await file.arrayBuffer());
    let binary = '';
    for (const byte of bytes) binary += String.fromCharCode(byte);
    return { character_base64: btoa(binary), filename: file.name };
  }
  return { character: await file.text() };
}

/** Let `zone` take a dropped file or text (once per page); `onFile(payload)`. */
function dropZone(zone, onFile) {
  zone.addEventListener('paste', (e) => {
    if (e.target === zone) onFile({ character: e.clipboardData.getData('text') });
  });
  zone.addEventListener('dragover', (e) => {
    e.preventDefault();
    zone.classList.add('over');
  });
  zone.addEventListener('dragleave', () => zone.classList.remove('over'));
  zone.addEventListener('drop', async (e) => {
    e.preventDefault();
    zone.classList.remove('over');
    const file = e.dataTransfer.files[0];
    if (file) onFile(await readCharacterFile(file));
    else if (e.dataTransfer.getData('text')) onFile({ character: e.dataTransfer.getData('text') });
  });
}

/**
 * A file of several characters (an Udonarium room file): a list of its `names` and buttons
 * that call `onPick({ names })` — or, for the GM (`several`), `onPick({ all_npcs: true })`.
 */
function characterPicker(names, several, onPick) {
  const box = document.createElement('span'); // inside the alert paragraph
  box.className = 'picker';
  const list = document.createElement('select');
  list.multiple = several;
  list.size = Math.min(names.length, 8);
  list.setAttribute('aria-label', t('pickCharacters'));
  list.append(...names.map((name) => new Option(name)));
  const button = (word, pick) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = t(word);
    b.onclick = pick;
    return b;
  };
  const chosen = () => [...list.selectedOptions].map((o) => o.value);
  box.append(list, button(several ? 'addChosen' : 'joinChosen', () => chosen().length && onPick({ names: chosen() })));
  if (several) box.append(button('addAllNpcs', () => onPick({ all_npcs: true })));
  return box;
}

let joinTake = null; // the open join form's taker of a dropped character

function join(room, invite) {
  show('join');
  $('#room-title').textContent = room;
  const form = $('#join-form');
  const api = new Room(room, invite);
  let payload = null;
  const take = (p) => {
    payload = p;
    if (p.character !== undefined) form.character.value = p.character;
    else form.character.value = `(${p.filename})`;
  };
  joinTake = take;
  form.file.onchange = async () => form.file.files[0] && take(await readCharacterFile(form.file.files[0]));
  form.character.oninput = () => (payload = null);
  api.get('/state').then((state) => {
    const pcs = (state.characters ?? []).filter((c) => c.side === 'pc');
    $('#existing-names').replaceChildren(...pcs.map((c) => new Option(c.name)));
  }, () => {});
  form.onsubmit = async (e) => {
    e.preventDefault();
    const error = form.querySelector('.error');
    error.textContent = '';
    const character = form.existing.value.trim() || form.character.value.trim();
    try {
      const body = payload && !form.existing.value.trim() ? { invite, ...payload } : { invite, character };
      const joined = await api.post('/join', body);
      go(joined.url);
    } catch (err) {
      error.textContent = err.message;
      if (err.data?.characters) { // a room file: join with one of its characters
        const body = payload ?? { character };
        error.append(characterPicker(err.data.characters, false, async ({ names }) => {
          try {
            go((await api.post('/join', { invite, ...body, name: names[0] })).url);
          } catch (again) {
            error.textContent = again.message;
          }
        }));
      }
    }
  };
}

// -- room -------------------------------------------------------------------------------

/** What the page shows for a game system (its folder's webtable.json; {} without one). */
async function systemPage(system) {
  const response = await fetch(`/api/systems/${encodeURIComponent(system)}/webtable`);
  return response.ok ? response.json() : {};
}

/** Events after which the GM's links panel may have changed (a player joined or left). */
const LINK_EVENTS = new Set(['character_added', 'character_removed']);
/** Events shown when a room opens, and fetched at once when scrolling up. */
const LOG_PAGE = 100;
/** The GM's usage line is read again this long after an event (one read for a burst). */
const USAGE_AFTER_MS = 1500;
/** Palettes kept per (speaker, values, settings): switching back costs no request. */
const PALETTES_KEPT = 32;

/**
 * `state` after an event's `change` (docs/table-api.md): its rows replace the characters of
 * the same name (new ones are appended), `removed` leave, `combat` replaces the combat,
 * `all` replaces every character. Returns a new object.
 */
export function applyChange(state, change) {
  const next = { ...state, version: change.version };
  let characters = state.characters ?? [];
  if (change.all) {
    characters = change.characters ?? [];
    next.system = change.system ?? state.system;
  } else if (change.characters) {
    characters = [...characters];
    for (const row of change.characters) {
      const at = characters.findIndex((c) => c.name === row.name);
      if (at >= 0) characters[at] = row;
      else characters.push(row);
    }
  }
  if (change.removed) characters = characters.filter((c) => !change.removed.includes(c.name));
  next.characters = characters;
  if ('combat' in change) next.combat = change.combat;
  return next;
}

class RoomView {
  constructor(room, token) {
    this.api = new Room(room, token);
    this.state = null;
    this.page = {}; // the system's webtable.json
    this.me = { role: 'spectator', characters: [] };
    this.paletteFor = null;
    this.palettes = new Map(); // (speaker, values, settings) → palette items with chances
    this.settingsSeq = 0;
    this.history = [];
    this.historyAt = 0;
    this.targets = new TargetMemory(room);
    this.cue = new TurnCue();
    this.faces = new Faces(token);
    this.faces.upload = (name, file) => this.uploadFace(name, file);
    this.log = new ChatLog($('#log'), {
      canReveal: (event) => this.me.role === 'gm' || this.me.characters.includes(event.actor),
      onReveal: (event) => this.send(`/reveal ${event.command_id}`),
      face: (actor) => (actor === 'GM' ? null : this.faces.slot(actor)),
    });
    this.tabs = new TabBar($('#tabs'), (tab) => this.log.showTab(tab));
    this.sheets = new SheetTools(this.api, () => this, $('#sheet-dialog'), (message) => ($('#line-error').textContent = message));
    this.simulation = new Simulation(this.api); // the GM's fight simulation (simulate.js)
    this.simulation.rerender = () => this.renderCards();
  }

  async start() {
    show('room');
    $('#room-title').textContent = this.api.room;
    const state = await this.api.get('/state');
    this.page = await systemPage(state.system);
    provideTerms(this.page.terms_en);
    const example = this.page.line_example;
    if (example) {
      provide('linePlaceholder', [`${example} · :HP-3 · @名前 … · /help`, `${example} · :HP-3 · @NAME … · /help`]);
    }
    this.show(state);
    remember(this.api.room, this.me.role, this.me.label);
    // the newest events only (the state is as of them); older ones come on scrolling up
    const events = await this.api.eventsBefore(state.version + 1, LOG_PAGE);
    this.log.reset(events);
    this.olderLeft = events.length === LOG_PAGE && events[0].seq > 1;
    $('#log').addEventListener('scroll', () => this.maybeLoadOlder());
    this.live = this.api.live(
      () => this.log.lastSeq,
      (event) => this.onEvent(event),
      (up, refused) => {
        this.connected = up;
        this.refused = refused;
        this.showStatus();
      },
    );
    this.wire();
  }

  showStatus() {
    $('#status').textContent = t(this.connected ? 'connected' : this.refused ? 'refused' : 'reconnecting');
    // offline: said loudly, and nothing to type that could not be sent
    document.body.classList.toggle('offline', !this.connected);
    for (const input of document.querySelectorAll('#line-form input, #line-form button, #combat button')) input.disabled = !this.connected;
    if (this.connected && this.state) this.render(); // the tracker's buttons as they apply
  }

  /** Older lines when the log is scrolled to its top (one page at a time, in order). */
  async maybeLoadOlder() {
    const list = $('#log');
    if (!this.olderLeft || this.loadingOlder || list.scrollTop > 40) return;
    const first = this.log.firstSeq;
    if (!first) return;
    this.loadingOlder = true;
    try {
      const older = await this.api.eventsBefore(first, LOG_PAGE);
      this.olderLeft = older.length === LOG_PAGE && older[0].seq > 1;
      this.log.prepend(older);
    } catch {
      // the next scroll tries again
    } finally {
      this.loadingOlder = false;
    }
  }

  onEvent(event) {
    if (event.seq > this.log.lastSeq && event.text) this.tabs.arrived(event);
    if (event.kind === 'room_set' && event.data?.key === 'tabs') {
      this.tabs.setTabs(['main', 'info', 'other', ...(event.data.value ?? [])]);
    }
    this.log.add(event);
    if (LINK_EVENTS.has(event.kind)) this.renderLinks();
    if (event.kind === 'sheet_set') { // its own palette lines may have changed
      this.palettes.clear();
      this.paletteFor = null;
    }
    this.usageSoon();
    const change = event.change;
    const known = this.state?.version ?? 0;
    if (change && change.version <= known) return; // the state we have already holds it
    if (!change || change.stale || change.version !== known + 1) {
      // a gap (missed events, a secret change, an older server): read the state once
      clearTimeout(this.pending);
      this.pending = setTimeout(() => this.refresh().catch(() => {}), 30); // the next event retries
      return;
    }
    if (change.settings) this.settingsSeq = event.seq; // house rules: new chances
    const touched = change.characters || change.removed || 'combat' in change;
    this.state = applyChange(this.state, change);
    if (touched) this.render();
  }

  async refresh() {
    const asked = (this.refreshes = (this.refreshes ?? 0) + 1);
    const state = await this.api.get('/state');
    if (asked !== this.refreshes) return; // a newer refresh was asked for: its answer wins
    if (this.state && state.version < this.state.version) return; // events took us further
    this.show(state);
  }

  /** Take a whole `/state` and draw everything from it. */
  show(state) {
    this.state = state;
    const you = this.state.you ?? {};
    this.me = { role: you.role ?? 'spectator', characters: you.characters ?? [], label: you.label ?? '' };
    document.body.dataset.role = this.me.role;
    this.tabs.setTabs(state.tabs);
    this.limits = state.limits ?? null;
    renderUsage($('#usage'), this.me.role === 'gm' ? this.limits : null);
    this.render();
  }

  /** The GM's players and storage as they are after the latest events (a join, new lines):
   * `/limits` says them (not the whole state); read once per burst of events. */
  usageSoon() {
    if (this.me.role !== 'gm' || this.usageTimer) return;
    this.usageTimer = setTimeout(async () => {
      this.usageTimer = null;
      try {
        this.limits = await this.api.get('/limits');
        renderUsage($('#usage'), this.limits);
      } catch {
        // the next event reads it again
      }
    }, USAGE_AFTER_MS);
  }

  /** Draw the speakers, cards, tracker and palette from `this.state`. */
  render() {
    this.faces.update(this.state.characters);
    const pcs = (this.state.characters ?? []).filter((c) => c.side === 'pc');
    $('#next-step').hidden = !(this.me.role === 'gm' && pcs.length === 0);
    this.renderSpeakers();
    this.renderCards();
    const actor = this.actor();
    renderCombat($('#combat'), this.state, { actor, page: this.page, send: (line) => this.send(line), memory: this.targets });
    this.cue.show(this.state, actor);
    this.loadPalette();
  }

  /** The cards, unless the viewer is typing in one (then once they leave it). */
  renderCards() {
    const list = $('#cards .list');
    if (list.contains(document.activeElement) && document.activeElement.tagName === 'INPUT') {
      list.addEventListener('focusout', () => setTimeout(() => this.renderCards()), { once: true });
      return;
    }
    const canEdit = (name) => this.canAct(name);
    const gm = this.me.role === 'gm';
    renderCards(list, this.state, {
      canEdit,
      page: this.page,
      send: (line) => this.send(line),
      faces: this.faces,
      edit: (name) => this.sheets.edit(name),
      copy: gm ? (name) => this.sheets.copy(name) : undefined,
    });
    this.simulation.render($('#cards'), this.state, this.me.role);
  }

  /** Upload a face for `name` (the server refuses what is no image, or over 2 MB). */
  async uploadFace(name, file) {
    const error = $('#line-error');
    error.textContent = '';
    try {
      await this.api.face(name, file); // its event shows the face here and on every page
    } catch (err) {
      error.textContent = err.message;
    }
  }

  canAct(name) {
    return this.me.role === 'gm' || this.me.characters.includes(name);
  }

  /** Who the combat actions speak as: the current character if this page plays it, else
   * none (the actions show only during one's own turn). */
  actor() {
    return turnActor(this.state, (name) => this.actsFor(name));
  }

  /** Whose turns this page plays: the player's own characters; the GM's are the NPCs (a PC's
   * turn is its player's, even though the GM may type for anyone). */
  actsFor(name) {
    if (this.me.characters.includes(name)) return true;
    const character = (this.state.characters ?? []).find((c) => c.name === name);
    return this.me.role === 'gm' && character?.side === 'npc';
  }

  renderSpeakers() {
    const box = $('#speaker');
    const names = this.me.role === 'gm' ? ['GM', ...(this.state.characters ?? []).map((c) => c.name)] : this.me.characters;
    const keep = box.value;
    box.replaceChildren(...names.map((name) => new Option(name)));
    if (names.includes(keep)) box.value = keep;
    box.hidden = names.length < 2;
    $('#line-form').hidden = this.me.role === 'spectator';
    $('#undo').hidden = this.me.role === 'spectator';
  }

  speaker() {
    return $('#speaker').value || null;
  }

  /** The line as sent: `@SPEAKER` first when speaking as someone other than the default. */
  withSpeaker(line) {
    const speaker = this.speaker();
    const fallback = this.me.role === 'gm' ? 'GM' : this.me.characters[0];
    if (!speaker || speaker === fallback || line.startsWith('@')) return line;
    return `@${speaker} ${line}`;
  }

  async loadPalette() {
    const name = this.speaker();
    const container = $('#palette .buttons');
    const character = (this.state.characters ?? []).find((c) => c.name === name);
    $('#palette').hidden = !character;
    if (!character) return;
    $('#edit-palette').onclick = () => this.sheets.editPalette(name, this.palettes.get(this.paletteFor) ?? this.paletteLines);
    const key = `${name}\n${JSON.stringify(character.values ?? null)}\n${this.settingsSeq}`;
    if (key === this.paletteFor) return;
    const first = !this.paletteFor?.startsWith(`${name}\n`);
    this.paletteFor = key;
    const actions = {
      send: (line) => this.send(this.withSpeaker(line)),
      edit: (command, select) => this.editLine(command, select),
    };
    if (this.palettes.has(key)) { // the same values and house rules: the same chances
      renderPalette(container, this.palettes.get(key), actions);
      return;
    }
    const path = `/palette?name=${encodeURIComponent(name)}`;
    const current = () => this.paletteFor === key; // a newer load took over: drop this one
    try {
      if (first) {
        paletteLoading(container);
        const lines = await this.api.get(`${path}&chances=false`); // at once; the odds take longer
        if (!current()) return;
        renderPalette(container, lines.items ?? [], { ...actions, pending: true });
        this.paletteLines = lines.items ?? [];
      }
      const palette = await this.api.get(path);
      this.palettes.set(key, palette.items ?? []);
      if (this.palettes.size > PALETTES_KEPT) this.palettes.delete(this.palettes.keys().next().value);
      if (current()) renderPalette(container, palette.items ?? [], actions);
    } catch (err) {
      if (current()) container.textContent = err.message;
    }
  }

  /** Put a palette line into the input to fill in (its value to type over selected). */
  editLine(command, select) {
    const input = $('#line');
    input.value = command;
    input.focus();
    if (select) input.setSelectionRange(select[0], select[1]);
    else input.setSelectionRange(command.length, command.length);
  }

  async send(line) {
    const error = $('#line-error');
    error.textContent = '';
    try {
      const outcome = await this.api.line(line, this.tabs.typing);
      if (!outcome.events?.length && outcome.text) this.note(outcome.text);
      return true;
    } catch (err) {
      error.textContent = err.message;
      return false;
    }
  }

  /** A reply only this viewer sees (/help, /state, …), not part of the log. */
  note(text) {
    const item = document.createElement('li');
    item.className = 'ev local';
    item.textContent = text;
    $('#log').append(item);
    this.log.scroll();
  }

  wire() {
    const input = $('#line');
    $('#line-form').onsubmit = async (e) => {
      e.preventDefault();
      const line = normaliseLine(input.value);
      if (!line) return;
      this.history.push(input.value.trim());
      this.historyAt = this.history.length;
      if (await this.send(this.withSpeaker(line))) input.value = '';
    };
    input.onkeydown = (e) => {
      if (e.key !== 'ArrowUp' && e.key !== 'ArrowDown') return;
      if (e.isComposing) return;
      e.preventDefault();
      this.historyAt = Math.max(0, Math.min(this.history.length, this.historyAt + (e.key === 'ArrowUp' ? -1 : 1)));
      input.value = this.history[this.historyAt] ?? '';
    };
    $('#speaker').onchange = () => this.loadPalette();
    $('#undo').onclick = () => this.send('/undo mine');
    $('#new-npc').onclick = () => this.sheets.newNpc();
    for (const b of document.querySelectorAll('#combat [data-line]')) b.onclick = () => this.send(b.dataset.line);
    $('#download-log').onclick = async () => {
      let blob;
      try {
        const whispers = this.me.role === 'gm' && $('#log-whispers').checked ? '&whispers=1' : '';
        blob = await this.api.download(`/log.html?lang=${lang()}${whispers}`);
      } catch (err) {
        $('#line-error').textContent = `${t('downloadFailed')}: ${err.message}`;
        return;
      }
      const a = document.createElement('a');
      a.href = URL.createObjectURL(blob);
      a.download = `${this.api.room}.html`;
      a.click();
      setTimeout(() => URL.revokeObjectURL(a.href), 1000);
    };
    this.renderLinks();
  }

  /** The GM brings in a dropped or pasted character (a CCFOLIA JSON, Udonarium zip, sheet). */
  async addCharacter(payload) {
    const error = $('#line-error');
    error.textContent = '';
    try {
      await this.api.post('/characters', payload);
    } catch (err) {
      error.textContent = err.message;
      if (err.data?.characters && !payload.names && !payload.all_npcs) { // a room file: choose
        error.append(characterPicker(err.data.characters, true, (choice) => this.addCharacter({ ...payload, ...choice })));
      }
    }
  }

  /** Label the copy buttons; the links list is rebuilt on focus and link events, so what was
   * copied is kept on the table, not on a button that a rebuild may have replaced. */
  showCopied() {
    for (const button of document.querySelectorAll('#links button.copy')) {
      const done = button.dataset.url === this.copied?.url;
      button.textContent = t(!done ? 'copy' : this.copied.copied ? 'copied' : 'copyByHand');
    }
  }

  async renderLinks() {
    if (this.me.role !== 'gm') return;
    const asked = (this.linkRenders = (this.linkRenders ?? 0) + 1);
    const list = $('#links .list');
    const saved = JSON.parse(localStorage.getItem(`saikoro.links.${this.api.room}`) || '{}');
    const rows = [];
    const row = (label, url, link) => {
      const item = document.createElement('li');
      const name = document.createElement('span');
      name.textContent = label;
      item.append(name);
      if (url) {
        const field = document.createElement('input');
        field.readOnly = true;
        field.value = url;
        field.setAttribute('aria-label', label);
        const copy = document.createElement('button');
        copy.type = 'button';
        copy.className = 'copy';
        copy.dataset.url = url;
        copy.onclick = async () => {
          field.select();
          const copied = navigator.clipboard
            ? await navigator.clipboard.writeText(url).then(() => true, () => document.execCommand('copy'))
            : document.execCommand('copy');
          this.copied = { url, copied };
          this.showCopied();
        };
        item.append(field, copy);
      }
      if (link && !link.revoked) {
        const revoke = document.createElement('button');
        revoke.type = 'button';
        revoke.textContent = t('revoke');
        revoke.onclick = async () => {
          const done = await this.api.post(`/links/${encodeURIComponent(link.id)}/revoke`).then(() => true, (err) => {
            $('#line-error').textContent = err.message;
            return false;
          });
          if (done && url) { // the saved URL no longer opens the room: forget it
            const now = JSON.parse(localStorage.getItem(`saikoro.links.${this.api.room}`) || '{}');
            delete now[link.role];
            localStorage.setItem(`saikoro.links.${this.api.room}`, JSON.stringify(now));
          }
          this.renderLinks();
        };
        item.append(revoke);
      } else if (link?.revoked) {
        item.classList.add('revoked');
        item.append(` (${t('revoked')})`);
      }
      rows.push(item);
    };
    $('#links .note').hidden = Boolean(saved.invite);
    $('#new-invite').classList.toggle('primary', !saved.invite);
    let listed = null;
    try {
      const links = await this.api.get('/links');
      listed = (Array.isArray(links) ? links : links.links ?? []).filter((link) => link.role !== 'gm');
    } catch {
      // no links route: only the saved invite and spectator URLs are shown
    }
    if (listed === null) {
      if (saved.invite) row(t('invite'), saved.invite);
      if (saved.spectator) row(t('spectator'), saved.spectator);
    } else {
      // the saved URL is the newest live link of its role: one row with its URL and its date
      const newest = {};
      for (const link of listed) {
        if (link.revoked || !(link.role in saved)) continue;
        if (!newest[link.role] || link.created_at > newest[link.role].created_at) newest[link.role] = link;
      }
      const first = [newest.invite, newest.spectator].filter(Boolean);
      for (const link of [...first, ...listed.filter((l) => !first.includes(l))]) {
        const when = new Date(link.created_at).toLocaleString(lang(), { dateStyle: 'short', timeStyle: 'short' });
        const url = newest[link.role] === link ? saved[link.role] : null;
        row(`${t(link.role)}${link.character ? `: ${link.character}` : ''} (${when})`, url, link);
      }
    }
    if (asked !== this.linkRenders) return; // a newer render was asked for: it draws the list
    list.replaceChildren(...rows);
    this.showCopied();
    const issue = (role, key) => async () => {
      try {
        const made = await this.api.post('/links', { role });
        const now = JSON.parse(localStorage.getItem(`saikoro.links.${this.api.room}`) || '{}');
        localStorage.setItem(`saikoro.links.${this.api.room}`, JSON.stringify({ ...now, [key]: made.url }));
        this.renderLinks();
      } catch (err) {
        $('#line-error').textContent = err.message;
      }
    };
    $('#new-invite').onclick = issue('player', 'invite');
    $('#new-spectator').onclick = issue('spectator', 'spectator');
  }
}

let current = null;

function route() {
  current?.live?.close();
  current = null;
  const { room, token, invite } = linkParams();
  if (room && token) {
    current = new RoomView(room, token);
    current.start().catch((err) => {
      show('lobby');
      $('#create-form .error').textContent = `${t('notFound')}: ${err.message}`;
    });
  } else if (room && invite) {
    join(room, invite);
  } else {
    lobby();
  }
}

$('#lang').addEventListener('click', () => {
  setLang(lang() === 'ja' ? 'en' : 'ja');
  labelSystems();
  if (current) {
    current.showStatus();
    current.log.rerender();
    current.tabs.render();
    current.renderLinks();
    current.paletteFor = null;
    current.palettes.clear();
    current.refresh();
  }
});
window.addEventListener('hashchange', route);
// a player who rejoined by name (no event) shows in the GM's links when the GM comes back
window.addEventListener('focus', () => current?.renderLinks());
dropZone($('#drop'), (payload) => joinTake?.(payload));
dropZone($('#npc-drop'), (payload) => current?.addCharacter(payload));
setLang(lang());
route();
window.saikoro = { get view() { return current; } }; // for the browser tests (drop the socket)
