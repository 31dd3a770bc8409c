#!/usr/bin/env node
// The real BCDice (npm package `bcdice`, BCDice compiled to JavaScript) as an oracle.
//
// Reads JSON lines on stdin, writes one JSON line per input line on stdout, in order.
//
// Input line:  {"system": "DiceBot", "command": "2D6>=7", "rands": [[3, 6], [4, 6]]}
//   - "system"  optional, default "DiceBot".
//   - "rands"   optional: the dice to feed to BCDice, as [value, sides] in the order
//               BCDice asks for them (BCDice's test form). A die asked with other
//               sides, too few dice, or dice left over make the line fail with
//               {"ok": false, "reason": "rands: ..."}.
//   - "seed"    used when "rands" is absent: dice come from a seeded PRNG (mulberry32),
//               so the same seed gives the same dice; the dice used are returned in
//               "rands" (record mode). Default seed 1.
// Output line: {"ok": true, "text", "secret", "success", "failure", "critical", "fumble",
//               "rands": [[value, sides], ...], "detailed_rands": [{kind, sides, value}, ...]}
//   or {"ok": false, "reason": "unsupported command"} when BCDice returns nil,
//   or {"ok": false, "reason": "unsupported game system"},
//   or {"ok": false, "reason": "rands: ..."} for bad scripted dice,
//   or {"ok": false, "reason": "error: ..."} when BCDice raised (e.g. TooManyRandsError).
//
// Usage: node tools/oracle/bcdice_oracle.mjs < in.jsonl > out.jsonl
//        node tools/oracle/bcdice_oracle.mjs --version   (prints the BCDice version)

import { createInterface } from 'node:readline';
import bcdice from 'bcdice';

const { DynamicLoader, Version } = bcdice;

if (process.argv.includes('--version')) {
  process.stdout.write(`${Version}\n`);
  process.exit(0);
}

class RandsError extends Error {}

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function scriptedRandom(rands) {
  let next = 0;
  const random = (sides) => {
    if (next >= rands.length) {
      throw new RandsError(`not enough dice: die #${next + 1} (d${sides}) was asked`);
    }
    const [value, scriptedSides] = rands[next];
    if (scriptedSides !== sides) {
      throw new RandsError(
        `die #${next + 1} is scripted as ${value}/${scriptedSides} but a d${sides} was asked`,
      );
    }
    next += 1;
    return value;
  };
  const leftover = () => rands.slice(next);
  return { random, leftover };
}

function validRands(rands) {
  return (
    Array.isArray(rands) &&
    rands.every(
      (r) =>
        Array.isArray(r) &&
        r.length === 2 &&
        Number.isInteger(r[0]) &&
        Number.isInteger(r[1]) &&
        r[1] >= 1 &&
        r[0] >= 1 &&
        r[0] <= r[1],
    )
  );
}

const loader = new DynamicLoader();
const systems = new Map();

async function loadSystem(id) {
  if (!systems.has(id)) {
    const known = loader.listAvailableGameSystems().some((info) => info.id === id);
    systems.set(id, known ? await loader.dynamicLoad(id) : null);
  }
  return systems.get(id);
}

async function evalLine(line) {
  let request;
  try {
    request = JSON.parse(line);
  } catch (e) {
    return { ok: false, reason: `error: bad JSON line: ${e.message}` };
  }
  const GameSystem = await loadSystem(request.system ?? 'DiceBot');
  if (!GameSystem) return { ok: false, reason: 'unsupported game system' };
  if (typeof request.command !== 'string') {
    return { ok: false, reason: 'error: "command" must be a string' };
  }

  const game = new GameSystem(request.command);
  let scripted = null;
  if (request.rands !== undefined && request.rands !== null) {
    if (!validRands(request.rands)) {
      return { ok: false, reason: 'rands: must be a list of [value, sides] with 1 <= value <= sides' };
    }
    scripted = scriptedRandom(request.rands);
    game.randomizer.$random = scripted.random;
  } else {
    const rng = mulberry32(Number.isInteger(request.seed) ? request.seed : 1);
    game.randomizer.$random = (sides) => Math.floor(rng() * sides) + 1;
  }

  let result;
  try {
    result = game.eval();
  } catch (e) {
    if (e instanceof RandsError) return { ok: false, reason: `rands: ${e.message}` };
    return { ok: false, reason: `error: ${e?.name ?? 'Error'}: ${e?.message ?? e}` };
  }
  if (result === null) return { ok: false, reason: 'unsupported command' };
  if (scripted) {
    const left = scripted.leftover();
    if (left.length) {
      return { ok: false, reason: `rands: dice left over: ${left.map(([v, s]) => `${v}/${s}`).join(',')}` };
    }
  }
  return {
    ok: true,
    text: result.text,
    secret: Boolean(result.secret),
    success: Boolean(result.success),
    failure: Boolean(result.failure),
    critical: Boolean(result.critical),
    fumble: Boolean(result.fumble),
    rands: result.rands.map(([v, s]) => [v, s]),
    detailed_rands: result.detailedRands.map(({ kind, sides, value }) => ({ kind, sides, value })),
  };
}

async function main() {
  const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
  const out = [];
  const flush = () => {
    if (out.length) {
      process.stdout.write(out.join(''));
      out.length = 0;
    }
  };
  for await (const line of rl) {
    out.push(`${JSON.stringify(await evalLine(line))}\n`);
    if (out.length >= 256) flush();
  }
  flush();
}

main().catch((e) => {
  process.stderr.write(`bcdice_oracle: ${e?.stack ?? e}\n`);
  process.exit(1);
});
