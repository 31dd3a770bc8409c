// The speaker's chat palette as buttons, each with its chance of success (saikoro odds).
// A line whose note asks for the opponent's value (「X を相手の体力に」) is not sent: a click
// puts it into the input line, its value selected, to be typed over.
import { lang, t } from './i18n.js';

const percent = (p) => (p >= 0.9995 ? '100%' : p < 0.0005 && p > 0 ? '<0.1%' : `${(p * 100).toFixed(p < 0.1 ? 1 : 0)}%`);

/** The "loading" sign while the palette's lines are on their way. */
export function paletteLoading(container) {
  const sign = document.createElement('p');
  sign.className = 'loading';
  sign.textContent = t('loading');
  container.replaceChildren(sign);
}

/**
 * Render `items` ({line, label, label_en, command, chance, edit, select, own}) as buttons: `send(line)`
 * on a click, or `edit(command, select)` for a line to fill in first. With `pending`, the
 * chances are still being computed (a sign stands in for them).
 */
export function renderPalette(container, items, { send, edit, pending = false }) {
  container.replaceChildren();
  let ownSeen = false;
  for (const item of items) {
    if (ownSeen && !item.own) container.append(Object.assign(document.createElement('hr'), { className: 'palette-split' }));
    ownSeen = Boolean(item.own);
    const b = document.createElement('button');
    b.type = 'button';
    b.className = `palette-item${item.edit ? ' edit' : ''}${item.own ? ' own' : ''}`;
    b.dataset.line = item.line;
    // the English page: the label in English; the line (what is sent) stays as it is
    const english = lang() === 'en' && item.label_en && item.label_en !== item.label;
    const name = (english ? item.label_en : item.label) || item.line;
    const shownLine = english ? `${item.line.split(' ')[0]} ${item.label_en}` : item.line;
    const label = document.createElement('span');
    label.textContent = name;
    b.append(label);
    if (typeof item.chance === 'number') {
      const chance = document.createElement('span');
      chance.className = 'chance';
      chance.textContent = percent(item.chance);
      chance.title = t('chance');
      b.append(chance);
      b.setAttribute('aria-label', `${name} (${t('chance')} ${percent(item.chance)})`);
    } else if (item.edit) {
      const mark = document.createElement('span');
      mark.className = 'to-edit';
      mark.textContent = '✎';
      b.append(mark);
      b.setAttribute('aria-label', `${name} (${t('paletteEdit')})`);
    } else if (pending && item.command) {
      const wait = document.createElement('span');
      wait.className = 'chance pending';
      wait.textContent = '…';
      b.append(wait);
    }
    b.title = item.edit ? `${shownLine}\n${t('paletteEdit')}` : shownLine;
    // sent as shown: on the English page with the English label as the roll's comment
    b.addEventListener('click', () => (item.edit ? edit(item.command ?? item.line.split(' ')[0], item.select) : send(shownLine)));
    container.append(b);
  }
}
