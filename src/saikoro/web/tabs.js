// Chat tabs (メイン / 情報 / 雑談 and the GM's), an 「すべて」 view and unread counts.
import { t } from './i18n.js';

export const ALL = 'all';
const BUILTIN = ['main', 'info', 'other'];

export class TabBar {
  /** `onSwitch(tab)` is called when the viewer picks a tab (`ALL`: every line). */
  constructor(nav, onSwitch) {
    this.nav = nav;
    this.onSwitch = onSwitch;
    this.names = [...BUILTIN];
    this.current = ALL;
    this.unread = new Map();
    this.render();
  }

  /** The room's tabs (`/state`'s `tabs`; a GM's tab removed: its lines show in すべて). */
  setTabs(names) {
    this.names = names?.length ? [...names] : [...BUILTIN];
    if (this.current !== ALL && !this.names.includes(this.current)) this.select(ALL);
    else this.render();
  }

  /** The tab a line is typed in: the one in view (in すべて: メイン). */
  get typing() {
    return this.current === ALL ? 'main' : this.current;
  }

  /** A live event with something to show: counted unread unless its tab is in view. */
  arrived(event) {
    const tab = event.tab || 'main';
    if (this.current === ALL || tab === this.current) return;
    this.unread.set(tab, (this.unread.get(tab) ?? 0) + 1);
    this.render();
  }

  select(tab) {
    this.current = tab;
    this.unread.delete(tab);
    this.render();
    this.onSwitch(tab);
  }

  label(tab) {
    return tab === ALL ? t('tabAll') : BUILTIN.includes(tab) ? t(`tab_${tab}`) : tab;
  }

  render() {
    const buttons = [ALL, ...this.names].map((tab) => {
      const button = document.createElement('button');
      button.type = 'button';
      button.role = 'tab';
      button.dataset.tab = tab;
      button.setAttribute('aria-selected', String(tab === this.current));
      button.textContent = this.label(tab);
      const count = this.unread.get(tab) ?? 0;
      if (count) {
        const badge = document.createElement('span');
        badge.className = 'unread';
        badge.textContent = String(count);
        badge.setAttribute('aria-label', `${t('unread')} ${count}`);
        button.append(badge);
      }
      button.addEventListener('click', () => this.select(tab));
      return button;
    });
    this.nav.replaceChildren(...buttons);
  }
}
