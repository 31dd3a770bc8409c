// A character's own chat palette lines, edited on the page (the player of the character or
// the GM): one line each in a text box; saved on the character (PATCH …/characters, field
// `palette`), so the palette, a reload and an export (CCFOLIA, Udonarium) all have them.
import { t } from './i18n.js';

/**
 * Open `dialog` with the `lines` of `name`'s own palette; `save(lines)` resolves to a
 * refusal message or nothing (then the dialog closes).
 */
export function openPaletteDialog(dialog, name, lines, save) {
  const form = document.createElement('form');
  form.className = 'sheet-form palette-form';
  const title = document.createElement('h2');
  title.textContent = `${name}${t('editOf')}: ${t('palette')}`;
  const label = document.createElement('label');
  label.className = 'field memo';
  const caption = document.createElement('span');
  caption.textContent = t('ownPalette');
  const box = document.createElement('textarea');
  box.name = 'palette';
  box.rows = 8;
  box.spellcheck = false;
  box.value = lines.join('\n');
  label.append(caption, box);
  const error = document.createElement('p');
  error.className = 'error';
  error.setAttribute('role', 'alert');
  const ok = document.createElement('button');
  ok.type = 'submit';
  ok.className = 'primary';
  ok.textContent = t('save');
  const cancel = document.createElement('button');
  cancel.type = 'button';
  cancel.textContent = t('cancel');
  cancel.addEventListener('click', () => dialog.close());
  const buttons = document.createElement('div');
  buttons.className = 'buttons';
  buttons.append(ok, cancel);
  form.append(title, label, error, buttons);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    error.textContent = '';
    const refused = await save(box.value.split('\n').map((line) => line.trim()).filter(Boolean));
    if (refused) error.textContent = refused;
    else dialog.close();
  });
  dialog.replaceChildren(form);
  dialog.showModal();
  box.focus();
}
