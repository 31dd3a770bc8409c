// The speaker's chat palette as buttons, each with its chance of success (saikoro odds).
import { t } from './i18n.js';

const percent = (p) => (p >= 0.9995 ? '100%' : p < 0.0005 && p > 0 ? '<0.1%' : `${(p * 100).toFixed(p < 0.1 ? 1 : 0)}%`);

/** Render `items` ({line, label, chance}) as buttons sending their line. */
export function renderPalette(container, items, send) {
  container.replaceChildren();
  for (const item of items) {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'palette-item';
    b.dataset.line = item.line;
    const label = document.createElement('span');
    label.textContent = item.label || item.line;
    b.append(label);
    if (typeof item.chance === 'number') {
      const chance = document.createElement('span');
      chance.className = 'chance';
      chance.textContent = percent(item.chance);
      chance.title = t('chance');
      b.append(chance);
      b.setAttribute('aria-label', `${item.label || item.line} (${t('chance')} ${percent(item.chance)})`);
    }
    b.title = item.line;
    b.addEventListener('click', () => send(item.line));
    container.append(b);
  }
}
