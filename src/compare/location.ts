// A difference's location as people read it: the heading (`tx 1 (0xab12…) › CALL Vault.deposit(amount: 5)`),
// the field below it (`logs[0].data`) and the JSON path `--ignore` takes (`$.result[1].result.logs[0].data`),
// each made from the location's data when a reporter asks, never stored as text or read back. And the
// one way a placed difference is made, with those three as getters over its location. Pure.
import type { Field, FrameCall, PathStep, Place, PlacedDifference } from './types.ts';

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `logs[0].data`, `storage[0x…01]` (hex keys bare): a path below a heading, as people read it. */
export function relative(steps: readonly PathStep[], bareHex = true): string {
  let out = '';
  for (const s of steps) {
    if (typeof s === 'number') out += `[${s}]`;
    else if (IDENTIFIER.test(s)) out += `${out === '' ? '' : '.'}${s}`;
    else out += bareHex && /^0x[0-9a-fA-F]+$/.test(s) ? `[${s}]` : `[${JSON.stringify(s)}]`;
  }
  return out;
}

/** `$.result[0].calls[1]`, `$.post["0x…"]`: the JSON path `--ignore` takes. */
export const jsonPath = (steps: readonly PathStep[]): string => `$${steps.length === 0 ? '' : relative(steps, false).replace(/^(?=[A-Za-z_$])/, '.')}`;

/** `0xe7f1…0512`: enough of an address to tell it apart in a heading. */
export const shortAddress = (address: string): string => (address.length === 42 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address);

/** `0x1a2b3c4d…`: a hash in a heading. */
export const shortHash = (hash: string): string => (hash.length > 12 ? `${hash.slice(0, 10)}…` : hash);

/** An address as a heading shows it: the contract's name with the short address, or the short address. */
const who = (address: string, contract: string | undefined): string => (contract === undefined ? shortAddress(address) : `${contract}(${shortAddress(address)})`);

const target = (call: FrameCall): string => (call.to === undefined ? '' : ` ${who(call.to, call.contract)}`);

/** `CALL Vault.deposit(amount: 5)` / `CALL 0xe7f1…0512` / `CREATE Receipt(0x5fbd…)`: one frame of a call tree. */
function frameText(call: FrameCall): string {
  const type = call.type ?? 'frame';
  if (call.decoded === undefined) return `${type}${target(call)}`;
  return `${type} ${call.contract ?? (call.to === undefined ? '?' : shortAddress(call.to))}.${call.decoded}`;
}

/** `tx 3 (0xab12cd34…)`, `call 1`: a transaction or call by its index, with its hash when known. */
const indexed = (word: string, index: number | string | undefined, hash: string | undefined): string =>
  `${word}${index === undefined ? '' : ` ${index}`}${hash === undefined ? '' : ` (${shortHash(hash)})`}`;

/** One step of a heading. */
export function placeText(place: Place): string {
  switch (place.kind) {
    case 'request':
      return `request ${place.index}${place.method === undefined ? '' : ` (${place.method})`}`;
    case 'tx':
      return indexed('tx', place.index ?? '?', place.hash);
    case 'txHash':
      return `tx ${place.hash === undefined ? '?' : shortHash(place.hash)}`;
    case 'call':
      return indexed('call', place.index, place.hash);
    case 'frame':
      return frameText(place.call);
    case 'trace': {
      const path = place.traceAddress === undefined ? '[?]' : `[${place.traceAddress.join(', ')}]`;
      return `trace ${path} ${(place.call.type ?? '?').toUpperCase()}${target(place.call)}${place.call.decoded === undefined ? '' : `.${place.call.decoded}`}`;
    }
    case 'account':
      return who(place.address, place.contract);
    case 'log':
      return `log ${place.index}${place.tx === undefined ? '' : ` (tx ${place.tx}, logIndex ${place.logIndex ?? 0})`}`;
    case 'part':
      return place.name;
  }
}

/** A heading: its steps joined by ` › `. */
export const placesText = (places: readonly Place[]): string => places.map(placeText).join(' › ');

const ITSELF = '(the value itself)';

/** `gasUsed`, `balances[0x…]  (storage[0x…])`, `action (key order)`, `(the whole answer)`. */
export function fieldText(field: Field): string {
  if (field.whole === true) return '(the whole answer)';
  const named = field.slotName === undefined ? undefined : `${field.slotName}  (storage[${String(field.steps[1])}])`;
  const base = named ?? (field.steps.length === 0 ? ITSELF : relative(field.steps));
  if (field.keyOrder !== true) return base;
  return `${base === ITSELF ? '' : `${base} `}(key order)`;
}

/** A difference's data: everything but the three texts its location makes. */
export type DifferenceData = Omit<PlacedDifference, 'path' | 'where' | 'field'>;

/** A placed difference whose path, heading and field are read from its location when asked. */
export function placedDifference(data: DifferenceData): PlacedDifference {
  const { location } = data;
  return {
    get path() {
      return jsonPath(location.steps);
    },
    get where() {
      return placesText(location.places);
    },
    get field() {
      return fieldText(location.field);
    },
    ...data,
  };
}

/** The same difference with the line of its recorded value (a pretty golden). */
export function withLine(d: PlacedDifference, line: number | undefined): PlacedDifference {
  const { path: _path, where: _where, field: _field, ...data } = d;
  return placedDifference({ ...data, ...(line === undefined ? {} : { line }) });
}

/** A difference as the JSON reports write it: the texts every report prints, then the location as data. */
export function differenceJson(d: PlacedDifference): Record<string, unknown> {
  return {
    path: d.path,
    expected: d.expected,
    got: d.got,
    ...(d.note === undefined ? {} : { note: d.note }),
    ...(d.words === undefined ? {} : { words: d.words }),
    ...(d.decoded === undefined ? {} : { decoded: d.decoded }),
    ...(d.quantity === undefined ? {} : { quantity: d.quantity }),
    where: d.where,
    field: d.field,
    ...(d.line === undefined ? {} : { line: d.line }),
    location: d.location,
  };
}

