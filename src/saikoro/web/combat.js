// The combat tracker: round, order, whose turn, and the system's actions as buttons that
// send the same lines as saikoro play. The actions come from the system's webtable.json:
// groups of fields (a select, or a text field without options; `target` is another
// character) and buttons whose line has the fields' values filled in.
import { pick, t, term } from './i18n.js';
import { defaultTarget, targetGroups } from './targets.js';
import { gmButtonsApply, setSound, soundOn } from './turns.js';

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
    const item = el('option', '', typeof text === 'string' ? term(text) : pick(text));
    item.value = value;
    input.append(item);
  }
  if (!options) input.size = 8;
  wrap.append(input);
  return [wrap, input];
}

/** The target select: the actor's opponents (敵) and allies (味方) as two groups, the
 * default chosen (see targets.js); a choice is remembered for this actor. */
function targetField(groups, chosen, remember) {
  const wrap = el('label', 'field');
  wrap.append(el('span', '', t('target')));
  const input = el('select');
  for (const [label, names] of [[t('foes'), groups.foes], [t('friends'), groups.friends]]) {
    if (!names.length) continue;
    const group = el('optgroup');
    group.label = label;
    for (const name of names) group.append(new Option(name, name));
    input.append(group);
  }
  input.value = chosen;
  input.addEventListener('change', () => remember(input.value));
  wrap.append(input);
  return [wrap, input];
}

/** The action groups of `page` for `actor`, each button sending `@actor LINE`. */
function actions(page, actor, targets, send) {
  const defined = { ...page.fields };
  const groups = (page.actions ?? []).map((group) => {
    const div = el('div', 'group');
    const inputs = {};
    for (const name of group.fields ?? []) {
      const [wrap, input] = name === 'target'
        ? targetField(targets.groups, targets.chosen, targets.remember)
        : field(pick(defined[name].label), defined[name].options);
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

/** The "your turn" line and the sound switch (made once, shown on the actor's page). */
function cue(section) {
  let line = section.querySelector('.your-turn');
  if (!line) {
    line = el('p', 'your-turn');
    line.setAttribute('role', 'status');
    const text = el('strong');
    const sound = el('label', 'sound');
    const box = el('input');
    box.type = 'checkbox';
    box.addEventListener('change', () => setSound(box.checked));
    sound.append(box, el('span'));
    line.append(text, sound);
    section.querySelector('.summary').after(line);
  }
  line.querySelector('strong').textContent = t('yourTurn');
  line.querySelector('.sound span').textContent = t('turnSound');
  line.querySelector('.sound input').checked = soundOn();
  return line;
}

/**
 * Render the tracker. `actor`: who this viewer acts as now (the current character when the
 * viewer controls it, else the viewer's own character), or null; `page`: the system's
 * webtable.json.
 */
export function renderCombat(section, state, { actor, page, send, memory }) {
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
  section.classList.toggle('mine', Boolean(combat && actor));
  cue(section).hidden = !(combat && actor);
  const apply = gmButtonsApply(state);
  const offline = document.body.classList.contains('offline');
  for (const button of section.querySelectorAll('.gm-only [data-line]')) button.disabled = offline || !apply[button.dataset.line];
  form.hidden = !(combat && actor && page.actions?.length);
  if (form.hidden) {
    form.replaceChildren();
    return;
  }
  const groups = targetGroups(state.characters ?? [], actor);
  const targets = { groups, chosen: defaultTarget(groups, memory?.get(actor)), remember: (name) => memory?.set(actor, name) };
  const same = form.dataset.actor === actor; // another actor's choices are not theirs
  form.dataset.actor = actor;
  const draw = () => form.replaceChildren(...actions(page, actor, targets, send));
  if (same) keepingFields(form, draw, ['target']);
  else draw();
}

/** Re-render `form` keeping what the viewer chose or typed in its fields (and the focus):
 * the tracker is redrawn on every event of the table. The `own` fields keep their own memory
 * (the target: the remembered choice, else an opponent who may have just arrived). */
function keepingFields(form, render, own = []) {
  const fields = () => new Map([...form.querySelectorAll('[data-field]')].map((i) => [i.dataset.field, i]));
  const before = fields();
  const focused = form.contains(document.activeElement) ? document.activeElement.dataset.field : null;
  render();
  for (const [name, input] of fields()) {
    const old = before.get(name);
    if (!old) continue;
    if (own.includes(name)) {
      if (name === focused) input.focus();
      continue;
    }
    if (input.tagName !== 'SELECT' || [...input.options].some((o) => o.value === old.value)) input.value = old.value;
    if (name === focused) input.focus();
  }
}
