// The chat log: one list item per event that has something to show, in seq order.
import { pick, t } from './i18n.js';

// An outcome word, not a command's echo of its range ("クリティカル<=14"): for texts whose
// event carries no result flags (a line of /attack, a system's own notice).
const OUTCOME_WORDS = /(クリティカル|ファンブル|成功|失敗|命中|効果発揮|Critical|Fumble|Success|Failure|Succeeded|Failed|takes effect)(?!\s*[<>=≦≧])/gi;
const WORD_CLASS = [
  [/クリティカル|critical/i, 'critical'],
  [/ファンブル|fumble/i, 'fumble'],
  [/失敗|fail/i, 'failure'],
  [/成功|命中|効果発揮|succe|takes effect/i, 'success'],
];
// Between a roll text's steps; its last step is the outcome.
const STEP = ' ＞ ';

/** A stable colour per speaker name (hue from the name's code points). */
export function hue(name) {
  let h = 0;
  for (const ch of name) h = (h * 31 + ch.codePointAt(0)) % 360;
  return h;
}

/** The server's word for the event's outcome (saikoro/table/outcome.py): success, failure,
 * critical, fumble, hit, miss, damage, heal — or none. */
const outcomeClass = (event) => event.outcome || '';

/** The text with its outcome in <mark>: a roll's last step in the class of its result
 * flag (success / failure / critical / fumble) when the event has one, else the words. */
function marked(text, flag) {
  const at = text.lastIndexOf(STEP);
  if (flag && at >= 0 && !text.includes('\n')) {
    const head = text.slice(0, at + STEP.length);
    const tail = text.slice(at + STEP.length);
    const out = document.createDocumentFragment();
    out.append(head);
    if (tail.match(OUTCOME_WORDS)) out.append(markWords(tail, flag));
    else out.append(Object.assign(document.createElement('mark'), { textContent: tail, className: flag }));
    return out;
  }
  return markWords(text, null);
}

/** Each outcome word in <mark>, in the class `flag` (else the word's own). */
function markWords(text, flag) {
  const out = document.createDocumentFragment();
  let last = 0;
  for (const match of text.matchAll(OUTCOME_WORDS)) {
    out.append(text.slice(last, match.index));
    const mark = document.createElement('mark');
    mark.textContent = match[0];
    mark.className = flag ?? WORD_CLASS.find(([re]) => re.test(match[0]))[1];
    out.append(mark);
    last = match.index + match[0].length;
  }
  out.append(text.slice(last));
  return out;
}

export class ChatLog {
  /** `canReveal(event)` says if this viewer may reveal a secret event; `onReveal(event)`;
   * `face(actor)`: the speaker's face slot beside a line (null: none). */
  constructor(list, { canReveal, onReveal, face = () => null }) {
    this.list = list;
    this.face = face;
    this.canReveal = canReveal;
    this.onReveal = onReveal;
    this.events = [];
    this.undone = new Set();
    this.revealed = new Set();
    this.tab = 'all'; // the chat tab in view ('all': every line)
  }

  /** Show only the lines of `tab` ('all': every line). */
  showTab(tab) {
    this.tab = tab;
    for (const item of this.list.querySelectorAll('li[data-tab]')) item.hidden = !this.shows(item.dataset.tab);
    this.scroll();
  }

  shows(tab) {
    return this.tab === 'all' || tab === this.tab;
  }

  get lastSeq() {
    return this.events.length ? this.events[this.events.length - 1].seq : 0;
  }

  get firstSeq() {
    return this.events.length ? this.events[0].seq : 0;
  }

  /** Older events (oldest first, all before the first shown) put on top, in order; the
   * lines in view stay where they are. */
  prepend(older) {
    const fresh = older.filter((e) => e.seq < this.firstSeq);
    if (!fresh.length) return;
    for (const event of fresh) {
      const target = event.data?.command_id;
      if (event.kind === 'undone' && target) this.undone.add(target);
      if (event.kind === 'revealed' && target) this.revealed.add(target);
    }
    const items = fresh.map((event) => this.render(event)).filter(Boolean);
    const height = this.list.scrollHeight;
    this.list.prepend(...items);
    this.list.scrollTop += this.list.scrollHeight - height;
    this.events = [...fresh, ...this.events];
  }

  reset(events) {
    this.events = [];
    this.undone = new Set();
    this.revealed = new Set();
    this.list.replaceChildren();
    for (const event of events) this.add(event, false);
    this.scroll();
  }

  rerender() {
    this.reset([...this.events]);
  }

  add(event, scroll = true) {
    if (event.seq <= this.lastSeq) return;
    this.events.push(event);
    const target = event.data?.command_id;
    if (event.kind === 'undone' && target) this.undone.add(target);
    if (event.kind === 'revealed' && target) this.revealed.add(target);
    if ((event.kind === 'undone' || event.kind === 'revealed') && target) {
      for (const item of this.list.querySelectorAll('li')) {
        if (item.dataset.cmd !== target) continue;
        item.classList.add(event.kind);
        item.querySelector('.reveal')?.remove();
      }
    }
    const item = this.render(event);
    if (item) {
      this.list.append(item);
      if (scroll) this.scroll();
    }
  }

  render(event) {
    // another's secret roll arrives redacted (no data, text "X: シークレットダイス"): the badge says it
    const secretHidden = event.secret && (!event.text || !event.data || !Object.keys(event.data).length);
    if (!event.text && !secretHidden) return null;
    const item = document.createElement('li');
    item.dataset.seq = event.seq;
    item.dataset.cmd = event.command_id || '';
    item.dataset.tab = event.tab || 'main';
    item.hidden = !this.shows(item.dataset.tab);
    const flag = outcomeClass(event);
    item.className = ['ev', `kind-${event.kind}`, flag].filter(Boolean).join(' ');
    if (this.undone.has(event.command_id)) item.classList.add('undone');
    const revealed = this.revealed.has(event.command_id);
    if (revealed) item.classList.add('revealed');
    const actor = event.actor || '';
    let text = secretHidden ? '' : pick(event.text);
    if (actor && text.startsWith(`${actor}: `)) text = text.slice(actor.length + 2);
    // a whisper's "X → Y (秘話): " is said by its badge
    if (event.whisper && actor && text.startsWith(`${actor} → `)) text = text.slice(text.indexOf(': ') + 2);
    if (actor) {
      const face = this.face(actor);
      if (face) item.append(face);
      const who = document.createElement('span');
      who.className = 'who';
      who.textContent = actor;
      who.style.setProperty('--hue', hue(actor));
      item.append(who);
    }
    if (text) {
      const body = document.createElement('span');
      body.className = 'text';
      body.append(marked(text, flag));
      item.append(body);
    }
    if (event.whisper) {
      item.classList.add('whisper');
      const badge = document.createElement('span');
      badge.className = 'badge';
      badge.textContent = `${t('whisperTo')} ${event.whisper}`;
      item.prepend(badge);
    }
    if (event.secret) {
      item.classList.add('secret');
      const badge = document.createElement('span');
      badge.className = 'badge';
      badge.textContent = t('secretDice');
      item.prepend(badge);
      if (!secretHidden && !revealed && this.canReveal(event)) {
        const button = document.createElement('button');
        button.type = 'button';
        button.className = 'reveal';
        button.textContent = t('reveal');
        button.addEventListener('click', () => this.onReveal(event));
        item.append(button);
      }
    }
    return item;
  }

  scroll() {
    this.list.scrollTop = this.list.scrollHeight;
  }
}
