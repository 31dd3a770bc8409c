// The character form of the GM (a quick NPC from the system's sheet fields, with a count)
// and the card editor (the GM: every field; a player: their own memo), in one <dialog>
// that fits a laptop and a phone. The fields come from the server
// (GET /api/systems/{id}/sheet-form, read from the system's sheet model), so a new system
// gets its form for free.
import { lang, t, term } from './i18n.js';

const forms = new Map(); // system → its form's fields

/** The fields of `system`'s sheet form (fetched once per page). */
export async function sheetFields(system) {
  if (!forms.has(system)) {
    const response = await fetch(`/api/systems/${encodeURIComponent(system)}/sheet-form`);
    forms.set(system, response.ok ? (await response.json()).fields ?? [] : []);
  }
  return forms.get(system);
}

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

const get = (data, path) => path.split('.').reduce((node, key) => (node && typeof node === 'object' ? node[key] : undefined), data);

function put(data, path, value) {
  const keys = path.split('.');
  let node = data;
  for (const key of keys.slice(0, -1)) node = node[key] ??= {};
  node[keys.at(-1)] = value;
}

/** A field's label: the system's (its piece's label, in English where the system names it),
 * else on the English page the sheet's own English field name (`life_path` → life path). */
function fieldLabel(field) {
  if (field.path === 'name') return t('charName');
  const label = field.label ?? field.path;
  const ascii = (text) => /^[\x20-\x7e]+$/.test(text);
  if (lang() !== 'en' || term(label) !== label || ascii(label)) return term(label);
  const last = field.path.split('.').filter((part) => part !== 'value').at(-1);
  return ascii(last) ? last.replace(/_/g, ' ') : term(last);
}

/** One labelled input of a form field; its value as the sheet holds it via `read()`. */
function input(field, value) {
  const label = el('label', `field kind-${field.kind}`);
  label.append(el('span', '', fieldLabel(field)));
  let box;
  if (field.kind === 'choice') {
    box = el('select');
    for (const option of field.options) box.append(new Option(term(String(option)), String(option)));
    box.value = String(value ?? field.default ?? field.options[0]);
  } else if (field.kind === 'bool') {
    box = el('input');
    box.type = 'checkbox';
    box.checked = Boolean(value ?? field.default);
  } else {
    box = el('input');
    if (field.kind === 'int') {
      box.type = 'number';
      box.inputMode = 'numeric';
      box.step = '1';
    }
    box.value = value ?? '';
    if (field.default !== null && field.default !== undefined && value === undefined) box.placeholder = String(field.default);
  }
  box.name = field.path;
  box.required = field.required;
  label.append(box);
  const read = () => {
    if (field.kind === 'bool') return box.checked;
    const raw = box.value.trim();
    if (raw === '') return undefined;
    if (field.kind === 'int') return /^-?\d+$/.test(raw) ? Number(raw) : raw; // the server says what is wrong
    return raw;
  };
  return { label, read, field };
}

/**
 * Open the dialog with a form: `fields` (the sheet form), `values` (a sheet to edit, or
 * none for a new character), `extra` (elements put before the fields: side, count),
 * `memo` (edit the memo too), `submit(read)` — `read()` gives {path: value} of the fields
 * set — which resolves to a refusal message or nothing (then the dialog closes).
 */
export function openSheetDialog(dialog, { title, fields, values, extra = [], memo, submitLabel, submit }) {
  const form = el('form', 'sheet-form');
  form.method = 'dialog';
  form.append(el('h2', '', title), ...extra);
  const inputs = [];
  const more = el('details', 'more');
  more.append(el('summary', '', t('moreFields')));
  const grid = el('div', 'grid');
  const moreGrid = el('div', 'grid');
  for (const field of fields) {
    const made = input(field, values ? get(values, field.path) : undefined);
    inputs.push(made);
    (field.required || field.path === 'max_hp' || field.path === 'hp' ? grid : moreGrid).append(made.label);
  }
  form.append(grid);
  if (moreGrid.children.length) {
    more.append(moreGrid);
    form.append(more);
  }
  let memoBox = null;
  if (memo) {
    const label = el('label', 'field memo');
    label.append(el('span', '', t('memo')));
    memoBox = el('textarea');
    memoBox.name = 'notes.メモ';
    memoBox.rows = 4;
    memoBox.value = values?.notes?.['メモ'] ?? '';
    label.append(memoBox);
    form.append(label);
  }
  const error = el('p', 'error');
  error.setAttribute('role', 'alert');
  const ok = el('button', 'primary', submitLabel);
  ok.type = 'submit';
  const cancel = el('button', '', t('cancel'));
  cancel.type = 'button';
  cancel.addEventListener('click', () => dialog.close());
  const buttons = el('div', 'buttons');
  buttons.append(ok, cancel);
  form.append(error, buttons);
  const read = () => {
    const out = {};
    for (const { field, read: value } of inputs) {
      const now = value();
      if (now !== undefined) out[field.path] = now;
    }
    if (memoBox) out['notes.メモ'] = memoBox.value;
    return out;
  };
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    error.textContent = '';
    ok.disabled = true;
    try {
      const refused = await submit(read);
      if (refused) error.textContent = refused;
      else dialog.close();
    } finally {
      ok.disabled = false;
    }
  });
  dialog.replaceChildren(form);
  dialog.showModal();
  (form.querySelector('[name=name]') ?? form.querySelector('input, select, textarea') ?? ok).focus();
}

/** The paths → values read from a form, as a nested sheet (a new character's fields). */
export function nested(flat) {
  const data = {};
  for (const [path, value] of Object.entries(flat)) put(data, path, value);
  return data;
}

/** Only the fields whose value differs from the sheet's (`before`): an edit sends those. */
export function changed(flat, before) {
  const out = {};
  for (const [path, value] of Object.entries(flat)) {
    const was = get(before, path);
    if (path === 'notes.メモ' ? (was ?? '') !== value : was !== value) out[path] = value;
  }
  return out;
}

/** The side and count inputs of the quick-NPC form (`side.value`, `count.value`). */
export function sideAndCount() {
  const sideLabel = el('label', 'field');
  sideLabel.append(el('span', '', t('side')));
  const side = el('select');
  side.name = 'side';
  side.append(new Option(t('npc'), 'npc'), new Option(t('pc'), 'pc'));
  sideLabel.append(side);
  const countLabel = el('label', 'field');
  countLabel.append(el('span', '', t('count')));
  const count = el('input');
  count.name = 'count';
  count.type = 'number';
  count.inputMode = 'numeric';
  count.min = '1';
  count.max = '26';
  count.value = '1';
  count.title = t('countHelp');
  countLabel.append(count);
  const row = el('div', 'grid');
  row.append(sideLabel, countLabel);
  return { row, side, count };
}
