// The combat tracker: round, order, whose turn, and the system's actions as buttons that
// send the same lines as saikoro play. The actions come from the system's webtable.json:
// groups of fields (a select, or a text field without options; `target` is another
// character) and buttons whose line has the fields' values filled in.
import { pick, t } from './i18n.js';

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** A labelled select (options: values, or [value, label]) or, without options, a text field. */
function field(label, options) {
  const wrap = el('label', 'field');
  wrap.append(el('span', '', label));
  const input = el(options ? 'select' : 'input');
  for (const option of options ?? []) {
    const [value, text] = Array.isArray(option) ? option : [option, option];
    const item = el('option', '', typeof text === 'string' ? text : pick(text));
    item.value = value;
    input.append(item);
  }
  if (!options) input.size = 8;
  wrap.append(input);
  return [wrap, input];
}

/** The action groups of `page` for `actor`, each button sending `@actor LINE`. */
function actions(page, actor, others, send) {
  const defined = { target: { label: { ja: t('target'), en: t('target') }, options: others }, ...page.fields };
  const groups = (page.actions ?? []).map((group) => {
    const div = el('div', 'group');
    const inputs = {};
    for (const name of group.fields ?? []) {
      const [wrap, input] = field(pick(defined[name].label), defined[name].options);
      input.dataset.field = name;
      inputs[name] = input;
      div.append(wrap);
    }
    for (const spec of group.buttons) {
      const b = el('button', '', pick(spec.label));
      b.type = 'button';
      b.addEventListener('click', () => {
        const line = spec.line.replace(/\{(\w+)\}/g, (_, name) => inputs[name].value.trim());
        send(`@${actor} ${line}`);
      });
      div.append(b);
    }
    return div;
  });
  return [el('p', 'who', `${actor}${t('actionsOf')}`), ...groups];
}

/**
 * Render the tracker. `actor`: who this viewer acts as now (the current character when the
 * viewer controls it, else the viewer's own character), or null; `page`: the system's
 * webtable.json.
 */
export function renderCombat(section, state, { actor, page, send }) {
  const combat = state.combat;
  const summary = section.querySelector('.summary');
  const order = section.querySelector('.order');
  const form = section.querySelector('.actions');
  order.replaceChildren();
  if (!combat) {
    summary.textContent = t('noCombat');
  } else {
    summary.textContent = `${t('round')} ${combat.round}` + (combat.current ? ` — ${combat.current}${t('turnOf')}` : '');
    for (const name of combat.order) {
      const item = el('li', name === combat.current ? 'current' : '', name);
      if (name === combat.current) item.setAttribute('aria-current', 'step');
      order.append(item);
    }
  }
  section.classList.toggle('active', Boolean(combat));
  const others = (state.characters ?? []).map((c) => c.name).filter((n) => n !== actor);
  form.hidden = !(combat && actor && page.actions?.length);
  if (!form.hidden) keepingFields(form, () => form.replaceChildren(...actions(page, actor, others, send)));
}

/** Re-render `form` keeping what the viewer chose or typed in its fields (and the focus):
 * the tracker is redrawn on every event of the table. */
function keepingFields(form, render) {
  const fields = () => new Map([...form.querySelectorAll('[data-field]')].map((i) => [i.dataset.field, i]));
  const before = fields();
  const focused = form.contains(document.activeElement) ? document.activeElement.dataset.field : null;
  render();
  for (const [name, input] of fields()) {
    const old = before.get(name);
    if (!old) continue;
    if (input.tagName !== 'SELECT' || [...input.options].some((o) => o.value === old.value)) input.value = old.value;
    if (name === focused) input.focus();
  }
}
