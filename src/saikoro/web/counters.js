// A character's counters on its card (HP, 価値観, 禁忌値, cr, 運命判定回数 …): a bar when the
// value has a maximum, a plain counter otherwise, with − / + buttons. The server says which
// buttons this reader may press (the row's `counters`: each button's line is one the table
// would accept from them); a button sends exactly that line.
import { t, term } from './i18n.js';

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function button(text, label, line, send) {
  const b = el('button', 'step', text);
  b.type = 'button';
  b.setAttribute('aria-label', label);
  b.dataset.line = line;
  b.addEventListener('click', () => send(line));
  return b;
}

/** A bar of `value` out of `max` (role meter), its fill's width the ratio. */
export function meter(className, label, value, max) {
  const bar = el('div', className);
  bar.setAttribute('role', 'meter');
  bar.setAttribute('aria-label', label);
  bar.setAttribute('aria-valuemin', '0');
  bar.setAttribute('aria-valuemax', String(max));
  bar.setAttribute('aria-valuenow', String(value));
  const fill = el('div', 'fill');
  const ratio = max > 0 ? Math.max(0, Math.min(1, value / max)) : 0;
  fill.style.width = `${Math.round(ratio * 100)}%`;
  bar.append(fill);
  return { bar, fill, ratio };
}

/** The − / + buttons of one counter (only those the reader may press). */
export function counterSteps(counter, send) {
  const steps = el('span', 'steps');
  const name = term(counter.label);
  if (counter.down) steps.append(button('−', `${name}${t('counterDown')}`, counter.down, send));
  if (counter.up) steps.append(button('+', `${name}${t('counterUp')}`, counter.up, send));
  return steps;
}

/**
 * The card's counters other than HP (HP keeps its own line and bar on the card) as a list:
 * each its label, value (/ max), a bar when it has a maximum, and its buttons.
 */
export function renderCounters(counters, send) {
  const list = el('ul', 'counters');
  for (const counter of counters) {
    if (counter.label === 'HP') continue;
    const item = el('li', counter.max === null || counter.max === undefined ? 'counter' : 'counter has-max');
    item.dataset.label = counter.label;
    const shown = counter.max === null || counter.max === undefined ? `${counter.value}` : `${counter.value}/${counter.max}`;
    item.append(el('span', 'label', term(counter.label)), el('span', 'value', shown));
    item.append(counterSteps(counter, send));
    if (item.classList.contains('has-max')) item.append(meter('meter', term(counter.label), counter.value, counter.max).bar);
    list.append(item);
  }
  return list;
}
