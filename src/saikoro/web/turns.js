// Whose turn it is, as this page sees it: the action panel belongs to the character whose turn
// it is, on the page of whoever controls them; that page gets the cue "あなたの手番です"
// (the tracker highlighted, the tab's title flashing until the page is looked at, and a short
// sound the player can switch off). The GM's buttons are enabled only when they apply.
import { t } from './i18n.js';

/** The character this page acts as now: the current one if this page controls it, else none. */
export function turnActor(state, canAct) {
  const current = state.combat?.current;
  return current && canAct(current) ? current : null;
}

/** Which of the GM's combat lines apply now (`/combat start` only without a combat, …). */
export function gmButtonsApply(state) {
  const fighting = Boolean(state.combat);
  const characters = (state.characters ?? []).length;
  return { '/combat start': !fighting && characters > 0, '/next': fighting, '/combat end': fighting };
}

const SOUND = 'saikoro.turnSound';
export const soundOn = () => localStorage.getItem(SOUND) !== 'off';
export const setSound = (on) => localStorage.setItem(SOUND, on ? 'on' : 'off');

/** A short two-note chime (Web Audio: nothing to download); silent where audio is refused. */
function chime() {
  try {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    const audio = new Context();
    const now = audio.currentTime;
    for (const [at, freq] of [[0, 660], [0.16, 880]]) {
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + at);
      gain.gain.exponentialRampToValueAtTime(0.2, now + at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + at + 0.15);
      tone.connect(gain).connect(audio.destination);
      tone.start(now + at);
      tone.stop(now + at + 0.16);
    }
    setTimeout(() => audio.close(), 600);
  } catch {
    // no audio: the highlight and the title still say it
  }
}

/** The cue of one page: call `show(state, actor)` on every redraw. */
export class TurnCue {
  constructor() {
    this.turn = null; // the turn last cued: "round/turn/name"
    this.title = null;
    this.timer = null;
    window.addEventListener('focus', () => this.stopFlash());
    document.addEventListener('visibilitychange', () => !document.hidden && document.hasFocus() && this.stopFlash());
  }

  show(state, actor) {
    const combat = state.combat;
    const mine = Boolean(combat && actor);
    document.body.classList.toggle('my-turn', mine);
    const turn = mine ? `${combat.round}/${combat.turn}/${actor}` : null;
    if (turn && turn !== this.turn) {
      this.flash();
      this.stopFlashIfSeen();
      if (soundOn()) chime();
    }
    if (!mine) this.stopFlash();
    this.turn = turn;
  }

  flash() {
    this.stopFlash();
    this.title = document.title;
    let on = true;
    document.title = `★ ${t('yourTurn')} — ${this.title}`;
    this.timer = setInterval(() => {
      on = !on;
      document.title = on ? `★ ${t('yourTurn')} — ${this.title}` : this.title;
    }, 1000);
  }

  /** A page in view keeps the ★ in its title but stops blinking it. */
  stopFlashIfSeen() {
    if (document.hasFocus() && !document.hidden) clearInterval(this.timer);
  }

  stopFlash() {
    clearInterval(this.timer);
    this.timer = null;
    if (this.title !== null) document.title = this.title;
    this.title = null;
  }
}
