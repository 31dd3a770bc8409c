// The attack's target: the actor's opponents first (a PC's are the NPCs, an NPC's the PCs),
// then their allies; the default is the target this actor chose last (this browser remembers
// it per room), else the first opponent. Attacking an ally stays possible, never by default.

/** { foes, friends }: the other characters' names, opponents and allies of `actor`. */
export function targetGroups(characters, actor) {
  const side = characters.find((c) => c.name === actor)?.side ?? 'pc';
  const others = characters.filter((c) => c.name !== actor);
  // the living first: a downed character is still a choice, but last in its group
  const ordered = [...others.filter((c) => !c.down), ...others.filter((c) => c.down)];
  return {
    foes: ordered.filter((c) => c.side !== side).map((c) => c.name),
    friends: ordered.filter((c) => c.side === side).map((c) => c.name),
  };
}

/** The target to offer: the remembered one while it is still there, else the first foe. */
export function defaultTarget({ foes, friends }, remembered) {
  if (remembered && (foes.includes(remembered) || friends.includes(remembered))) return remembered;
  return foes[0] ?? friends[0] ?? '';
}

const key = (room) => `saikoro.targets.${room}`;

/** The last target each actor chose in `room` (this browser's memory). */
export class TargetMemory {
  constructor(room) {
    this.room = room;
    try {
      this.chosen = JSON.parse(localStorage.getItem(key(room)) || '{}');
    } catch {
      this.chosen = {};
    }
  }

  get(actor) {
    return this.chosen[actor] ?? null;
  }

  set(actor, target) {
    this.chosen[actor] = target;
    localStorage.setItem(key(this.room), JSON.stringify(this.chosen));
  }
}
