// The combat tracker: round, order, whose turn, and the system's actions as buttons that
// send the same lines as saikoro play (/attack, /melee, …).
import { t } from './i18n.js';

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function select(label, options) {
  const wrap = el('label', 'field');
  wrap.append(el('span', '', label));
  const box = el('select');
  for (const option of options) {
    const [value, text] = Array.isArray(option) ? option : [option, option];
    const item = el('option', '', text);
    item.value = value;
    box.append(item);
  }
  wrap.append(box);
  return [wrap, box];
}

function button(label, onClick) {
  const b = el('button', '', label);
  b.type = 'button';
  b.addEventListener('click', onClick);
  return b;
}

function group(...children) {
  const div = el('div', 'group');
  div.append(...children);
  return div;
}

/** The action buttons of `system` for `actor`, each sending `@actor /verb …`. */
function actions(system, actor, others, send) {
  const say = (line) => send(`@${actor} ${line}`);
  const parts = [el('p', 'who', `${actor}${t('actionsOf')}`)];
  const [targetField, target] = select(t('target'), others);
  if (system === 'LittleWorld') {
    const [abilityField, ability] = select(t('ability'), ['体力', '技巧', '理知']);
    parts.push(
      group(targetField, abilityField, button(t('attack'), () => say(`/attack ${target.value} ${ability.value}`))),
      group(button(t('pass'), () => say('/pass'))),
    );
  } else if (system === 'UnmeiD100') {
    const spellField = el('label', 'field');
    const spell = el('input');
    spell.size = 8;
    spellField.append(el('span', '', t('spell')), spell);
    const [moveField, move] = select(t('move'), ['3', '1', '5']);
    const rescues = ['success', 'half', 'cancel', 'reroll'].map((r) => [r, t(`fate_${r}`)]);
    const [fateField, fate] = select(t('fate'), rescues);
    parts.push(
      group(
        targetField,
        button(t('melee'), () => say(`/melee ${target.value}`)),
        button(t('shoot'), () => say(`/shoot ${target.value}`)),
        button(t('cast'), () => say(`/cast ${target.value}`)),
      ),
      group(button(t('aim'), () => say('/aim')), button(t('defend'), () => say('/defend'))),
      group(spellField, button(t('chant'), () => say(`/chant ${spell.value.trim()}`))),
      group(moveField, button(t('move'), () => say(`/move ${move.value}`))),
      group(fateField, button(t('fate'), () => say(`/fate ${fate.value}`))),
    );
  }
  return parts;
}

/**
 * Render the tracker. `actor`: who this viewer acts as now (the current character when the
 * viewer controls it, else the viewer's own character), or null.
 */
export function renderCombat(section, state, { actor, send }) {
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
  const names = (state.characters ?? []).map((c) => c.name);
  form.hidden = !(combat && actor);
  if (combat && actor) form.replaceChildren(...actions(state.system, actor, names.filter((n) => n !== actor), send));
}
