// Character cards: HP bar, conditions, row, abilities; editable by the GM and the owner.
import { counterSteps, meter, renderCounters } from './counters.js';
import { FACE_TYPES } from './faces.js';
import { t, term } from './i18n.js';

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function hpBar(character) {
  const { bar, fill, ratio } = meter('hpbar', `${character.name} HP`, character.hp, character.max_hp);
  if (ratio <= 0.25) fill.classList.add('low');
  return bar;
}

/** An inline form asking for one value; `submit(value)` sends it. */
function inlineEdit(label, value, submit) {
  const form = el('form', 'inline');
  const input = el('input');
  input.value = value;
  input.setAttribute('aria-label', label);
  input.size = 6;
  form.append(input);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    if (input.value.trim()) submit(input.value.trim());
    input.blur();
  });
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') form.replaceWith(form.previous);
  });
  return { form, input };
}

/** Suggestions for the condition fields (any label may be typed). */
function conditionList(labels) {
  const list = el('datalist');
  list.id = 'condition-labels';
  for (const label of labels ?? []) list.append(el('option', '', label));
  return list;
}

/** The card's face; for whoever may edit the card, a button that uploads a new one. */
function faceOf(character, editable, faces) {
  const slot = faces.slot(character.name);
  if (!editable) return slot;
  const label = el('label', 'face-upload');
  label.title = t('changeFace');
  const input = el('input');
  input.type = 'file';
  input.accept = FACE_TYPES;
  input.setAttribute('aria-label', `${t('changeFace')}: ${character.name}`);
  input.addEventListener('change', () => {
    if (input.files?.[0]) faces.upload(character.name, input.files[0]);
  });
  label.append(slot, input);
  return label;
}

/**
 * Render `state.characters` into `container`. `canEdit(name)`: may this viewer edit it;
 * `page`: the system's webtable.json (card values, conditions); `send(line)`: carry out a
 * table line; `faces`: the page's faces (`slot(name)`, `upload(name, file)`); `edit(name)` /
 * `copy(name)` (absent: no such button) open the card's editor and duplicate the character.
 * A row's `counters` (the GM's and the owner's) add the −/+ buttons the table accepts from
 * this reader.
 */
export function renderCards(container, state, { canEdit, page, send, faces, edit, copy }) {
  container.replaceChildren(conditionList(page.conditions));
  for (const character of state.characters ?? []) {
    const editable = canEdit(character.name);
    const card = el('article', `card side-${character.side}${character.down ? ' down' : ''}`);
    card.dataset.name = character.name;
    const head = el('header');
    if (faces) head.append(faceOf(character, editable, faces));
    head.append(el('h3', '', character.name), el('span', 'side', t(character.side === 'npc' ? 'npc' : 'pc')));
    if (character.row) head.append(el('span', 'row', `${t('row')}: ${term(character.row)}`));
    card.append(head);

    const hp = el(editable ? 'button' : 'span', 'hp', `HP ${character.hp}/${character.max_hp}`);
    if (editable) {
      hp.type = 'button';
      hp.title = t('editHp');
      hp.addEventListener('click', () => {
        const { form, input } = inlineEdit(t('editHp'), String(character.hp), (value) => {
          const line = /^[+-]/.test(value) ? `:HP${value}` : `:HP=${value}`;
          send(`@${character.name} ${line}`);
        });
        form.previous = hp;
        hp.replaceWith(form);
        input.focus();
        input.select();
      });
    }
    const counters = character.counters ?? [];
    const hpCounter = counters.find((c) => c.label === 'HP');
    const hpLine = el('div', 'hp-line');
    hpLine.append(hp);
    if (hpCounter) hpLine.append(counterSteps(hpCounter, send));
    card.append(hpLine, hpBar(character));
    if (counters.some((c) => c.label !== 'HP')) card.append(renderCounters(counters, send));

    const chips = el('ul', 'conditions');
    for (const label of character.conditions ?? []) {
      const [word, ...rest] = label.split(':');
      const chip = el('li', 'chip', [term(word), ...rest].join(':'));
      if (editable) {
        const remove = el('button', 'remove', '×');
        remove.type = 'button';
        remove.setAttribute('aria-label', `${t('removeCondition')}: ${[term(word), ...rest].join(':')}`);
        remove.addEventListener('click', () => send(`/cond remove ${character.name} ${label.split(':')[0]}`));
        chip.append(remove);
      }
      chips.append(chip);
    }
    if (editable) {
      const add = el('form', 'add-condition');
      const input = el('input');
      input.setAttribute('aria-label', `${t('addCondition')}: ${character.name}`);
      input.placeholder = `+ ${t('addCondition')}`;
      input.size = Math.max(11, input.placeholder.length + 1); // the whole placeholder shows
      input.setAttribute('list', 'condition-labels');
      add.append(input);
      add.addEventListener('submit', (e) => {
        e.preventDefault();
        if (input.value.trim()) send(`/cond add ${character.name} ${input.value.trim()}`);
        input.blur();
      });
      const item = el('li', 'chip-add');
      item.append(add);
      chips.append(item);
    }
    card.append(chips);

    const values = character.values ?? {};
    const shown = (page.card_values ?? Object.keys(values)).filter((name) => name in values);
    if (shown.length) {
      const list = el('dl', 'values');
      for (const name of shown) {
        const value = values[name];
        const pair = el('div');
        pair.append(el('dt', '', term(name)), el('dd', '', String(value)));
        list.append(pair);
      }
      card.append(list);
    }
    if (editable && (edit || copy)) {
      const tools = el('div', 'card-tools');
      const tool = (word, act) => {
        const b = el('button', `tool ${word}`, t(word));
        b.type = 'button';
        b.setAttribute('aria-label', `${character.name}: ${t(word)}`);
        b.addEventListener('click', () => act(character.name));
        tools.append(b);
      };
      if (edit) tool('edit', edit);
      if (copy) tool('duplicate', copy);
      card.append(tools);
    }
    container.append(card);
  }
}
