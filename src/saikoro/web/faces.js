// Characters' faces (icons) on the cards and beside the log's lines. An <img> cannot send
// the link's token, so each face is fetched with it once per address (the address names
// the image: `…/icon?v=DIGEST`) and shown from an object URL; a face slot on the page
// follows its character's face as events change it.

/** Image types the server takes (it re-encodes them; at most 2 MB). */
export const FACE_TYPES = 'image/png,image/jpeg,image/webp,image/gif';

export class Faces {
  constructor(token) {
    this.token = token;
    this.images = new Map(); // address → Promise of an object URL
    this.current = new Map(); // character name → address of its face
  }

  /** Take the characters' faces (`icon` of each row); slots on the page follow. */
  update(characters) {
    for (const character of characters ?? []) {
      const address = character.icon ?? null;
      if ((this.current.get(character.name) ?? null) === address) continue;
      if (address) this.current.set(character.name, address);
      else this.current.delete(character.name);
      for (const slot of document.querySelectorAll('.face[data-face]')) {
        if (slot.dataset.face === character.name) this.fill(slot);
      }
    }
  }

  /** A slot showing `name`'s face (empty, coloured by CSS, while it has none). */
  slot(name) {
    const slot = document.createElement('span');
    slot.className = 'face';
    slot.dataset.face = name;
    slot.setAttribute('aria-hidden', 'true');
    this.fill(slot);
    return slot;
  }

  fill(slot) {
    const address = this.current.get(slot.dataset.face) ?? '';
    slot.dataset.icon = address;
    if (!address) {
      slot.replaceChildren();
      return;
    }
    this.load(address)
      .then((src) => {
        if (slot.dataset.icon !== address) return; // changed meanwhile
        const img = document.createElement('img');
        img.src = src;
        img.alt = '';
        slot.replaceChildren(img);
      })
      .catch(() => this.images.delete(address)); // the next render tries again
  }

  load(address) {
    if (!this.images.has(address)) {
      const headers = { Authorization: `Bearer ${this.token}` };
      this.images.set(
        address,
        fetch(address, { headers }).then(async (response) => {
          if (!response.ok) throw new Error(String(response.status));
          return URL.createObjectURL(await response.blob());
        }),
      );
    }
    return this.images.get(address);
  }
}
