// What the room page does with characters' sheets (issue 24): the GM's quick NPCs (a form
// from the system's sheet fields, with a count), duplicating a character, editing a card
// (the GM: any field; a player: their own memo) and a character's own palette lines.
// Every change is a table API call; the table logs it and its event updates every page.
import { t } from './i18n.js';
import { changed, nested, openSheetDialog, sheetFields, sideAndCount } from './npc_form.js';
import { openPaletteDialog } from './palette_edit.js';

export class SheetTools {
  /** `api`: the room's API; `view()`: {state, me}; `dialog`: the page's <dialog>; `fail(message)`. */
  constructor(api, view, dialog, fail) {
    this.api = api;
    this.view = view;
    this.dialog = dialog;
    this.fail = fail;
  }

  /** A refusal's message, or nothing when `call` succeeded. */
  static async attempt(call) {
    try {
      await call();
      return null;
    } catch (err) {
      return err.message;
    }
  }

  async newNpc() {
    const { state } = this.view();
    const fields = await sheetFields(state.system);
    const { row, side, count } = sideAndCount();
    openSheetDialog(this.dialog, {
      title: t('newNpc'),
      fields,
      extra: [row],
      submitLabel: t('make'),
      submit: (read) => SheetTools.attempt(() => this.api.post('/characters', {
        fields: nested(read()),
        side: side.value,
        count: Number(count.value) || 1,
      })),
    });
  }

  async copy(name) {
    try {
      await this.api.post('/characters', { copy_of: name, count: 1 });
    } catch (err) {
      this.fail(err.message);
    }
  }

  /** The card's editor: the GM every field of the form and the memo; a player the memo. */
  async edit(name) {
    const { state, me } = this.view();
    let sheet;
    try {
      sheet = (await this.api.get(`/sheet?name=${encodeURIComponent(name)}`)).sheet;
    } catch (err) {
      this.fail(err.message);
      return;
    }
    const fields = me.role === 'gm' ? (await sheetFields(state.system)).filter((f) => f.path !== 'name') : [];
    openSheetDialog(this.dialog, {
      title: `${name}${t('editOf')}`,
      fields,
      values: sheet,
      memo: true,
      submitLabel: t('save'),
      submit: (read) => {
        const edits = changed(read(), sheet);
        if (!Object.keys(edits).length) return null;
        return SheetTools.attempt(() => this.api.patch('/characters', { name, fields: edits }));
      },
    });
  }

  /** Edit `name`'s own palette lines (`items`: its palette as the server listed it). */
  editPalette(name, items) {
    const lines = (items ?? []).filter((item) => item.own).map((item) => item.line);
    openPaletteDialog(this.dialog, name, lines, (edited) =>
      SheetTools.attempt(() => this.api.patch('/characters', { name, fields: { palette: edited } })));
  }
}
