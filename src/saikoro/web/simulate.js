// The GM's encounter simulation (issue 25): the room's PCs against the NPCs chosen here,
// played a few hundred times on the server (POST /simulate, the GM's only); the win rate
// shows above the cards and each card gets its chance to go down (and to die). Players and
// spectators get nothing: the panel is never made on their page.
import { provide, t } from './i18n.js';

const WORDS = {
  simTitle: ['戦闘シミュレーション', 'Fight simulation'],
  simRun: ['シミュレート', 'Simulate'],
  simRunning: ['計算中…', 'Simulating…'],
  simFights: ['戦闘数', 'Fights'],
  simWin: ['味方の勝率', 'Party wins'],
  simLose: ['敵の勝率', 'Enemies win'],
  simDraw: ['引き分け', 'Draws'],
  simRounds: ['平均ラウンド', 'Mean rounds'],
  simDown: ['倒れる', 'Down'],
  simDies: ['死亡', 'Dies'],
  simPlayed: ['戦', 'fights'],
  simStopped: ['時間切れで打ち切り', 'stopped by the time limit'],
  simHelp: [
    '部屋のキャラクター (いまの HP・状態) で、PC と選んだ NPC の戦闘をサーバーが何百回も行います (95% 信頼区間)。',
    'The server plays the room\'s PCs (as they are now) against the chosen NPCs hundreds of times (95% intervals).',
  ],
};
for (const [key, pair] of Object.entries(WORDS)) provide(key, pair);

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

const pct = (rate) => `${(100 * rate).toFixed(1)}%`;
const interval = ([low, high]) => `${(100 * low).toFixed(1)}–${(100 * high).toFixed(1)}%`;

export class Simulation {
  constructor(api) {
    this.api = api;
    this.result = null; // the last summary (its characters decorate the cards)
    this.unchecked = new Set(); // NPCs the GM left out
    this.panel = null;
  }

  /** Draw (GM) or remove (anyone else) the panel in `section`, then the cards' chances. */
  render(section, state, role) {
    if (role !== 'gm') {
      this.panel?.remove();
      this.panel = null;
      this.result = null;
      return;
    }
    if (!this.panel) {
      this.panel = el('div', 'simulation');
      this.panel.id = 'simulation';
      section.querySelector('.list').before(this.panel);
    }
    // not while the GM types in it (an event redraws the cards): the next render does
    if (!this.panel.contains(document.activeElement)) this.drawPanel(state);
    this.decorate(section.querySelector('.list'));
  }

  drawPanel(state) {
    const panel = this.panel;
    const head = el('h3', '', t('simTitle'));
    const help = el('p', 'note', t('simHelp'));
    const npcs = el('div', 'sim-npcs');
    for (const c of state.characters ?? []) {
      if (c.side !== 'npc') continue;
      const label = el('label');
      const box = el('input');
      box.type = 'checkbox';
      box.checked = !this.unchecked.has(c.name);
      box.dataset.name = c.name;
      box.addEventListener('change', () => {
        if (box.checked) this.unchecked.delete(c.name);
        else this.unchecked.add(c.name);
      });
      label.append(box, ` ${c.name}`);
      npcs.append(label);
    }
    const form = el('form', 'sim-form');
    const fights = el('input');
    fights.type = 'number';
    fights.min = '1';
    fights.max = '2000';
    fights.value = this.fights ?? '300';
    fights.setAttribute('aria-label', t('simFights'));
    fights.addEventListener('change', () => { this.fights = fights.value; });
    const run = el('button', '', this.running ? t('simRunning') : t('simRun'));
    run.type = 'submit';
    run.disabled = Boolean(this.running);
    form.append(el('span', '', `${t('simFights')} `), fights, run);
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.run(state, Number(fights.value) || 300);
    });
    const out = el('p', 'sim-result');
    out.setAttribute('aria-live', 'polite');
    if (this.error) out.textContent = this.error;
    else if (this.result) out.append(...this.summaryLine(this.result));
    panel.replaceChildren(head, help, npcs, form, out);
  }

  summaryLine(result) {
    const win = result.win;
    const parts = [
      el('strong', 'sim-win', `${t('simWin')} ${pct(win.pc.rate)}`),
      ` (${interval(win.pc.ci95)}) · ${t('simLose')} ${pct(win.npc.rate)} · ${t('simDraw')} ${pct(win.draw.rate)}`,
      ` · ${t('simRounds')} ${result.rounds.mean.toFixed(1)} · ${result.fights} ${t('simPlayed')}`,
    ];
    if (result.fights < result.fights_asked) parts.push(` (${t('simStopped')})`);
    return parts;
  }

  async run(state, fights) {
    const only = (state.characters ?? [])
      .filter((c) => c.side === 'pc' || !this.unchecked.has(c.name))
      .map((c) => c.name);
    this.running = true;
    this.error = null;
    this.drawPanel(state);
    try {
      this.result = await this.api.post('/simulate', { fights, only });
    } catch (err) {
      this.result = null;
      this.error = err.message;
    } finally {
      this.running = false;
      this.drawPanel(state);
      this.rerender?.(); // the cards get their chances
    }
  }

  /** Each card of the last result: 「倒れる 12% · 死亡 3%」. */
  decorate(list) {
    if (!this.result) return;
    const byName = new Map(this.result.characters.map((c) => [c.name, c]));
    for (const card of list.querySelectorAll('.card')) {
      const found = byName.get(card.dataset.name);
      card.querySelector('.sim-chance')?.remove();
      if (!found) continue;
      const line = el('p', 'sim-chance', `${t('simDown')} ${pct(found.down.rate)}`);
      if (found.dead.rate > 0) line.textContent += ` · ${t('simDies')} ${pct(found.dead.rate)}`;
      line.title = interval(found.down.ci95);
      card.append(line);
    }
  }
}
