// The comparison engine: a recorded answer against ours → every difference, in document order, with
// both values whole, placed in the answer's shape and decoded where ABIs allow. `check` and `diff`
// call it; reports only render what it returns. No I/O.
import { compactJson, parseWhole } from './jsonText.ts';
import type { JsonNode } from '../encoding/rawJson.ts';
import { type CompareMode, diffValues, type RawDifference } from './diff.ts';
import { isGas } from './gas.ts';
import { hasIgnores, type IgnoreRules, NO_IGNORES } from './ignore.ts';
import { placedDifference } from './location.ts';
import { place, wholeLocation } from './place.ts';
import { at, type Decoding, text } from './shapes.ts';
import type { PathStep, PlacedDifference, SameValue } from './types.ts';
import { type Alignment, wordChanges } from './words.ts';

export interface CompareOptions {
  readonly mode: CompareMode;
  readonly ignore?: IgnoreRules;
  /** Whitespace between the recording's tokens is free (a pretty-printed golden that `record` wrote). */
  readonly tokens?: boolean;
  readonly decoding?: Decoding;
}

const NO_ANSWER = 'no answer';
const MISSING = 'missing';

const whole = (node: JsonNode | undefined): string => (node === undefined ? MISSING : compactJson(node.raw));

/** How a hex value's words line up: calldata after its selector, creation code from its end. */
function alignment(root: JsonNode, steps: readonly PathStep[]): Alignment {
  const key = steps.at(-1);
  if (key === 'init') return 'end';
  if (key !== 'input') return 'start';
  let parent: JsonNode | undefined = root;
  for (const step of steps.slice(0, -1)) parent = at(parent, step);
  const type = text(parent, 'type');
  return type === 'CREATE' || type === 'CREATE2' ? 'end' : 'selector';
}

function placed(raw: RawDifference, sides: { request: JsonNode | undefined; expected: JsonNode; got: JsonNode }, decoding: Decoding | undefined): PlacedDifference {
  const { location, decoded } = place(raw.sides === undefined ? sides : { ...sides, paths: raw.sides }, raw.steps, decoding, raw.order !== undefined);
  const a = raw.expected;
  const b = raw.got;
  const words = a?.t === 'string' && b?.t === 'string' ? wordChanges(a.value, b.value, alignment(sides.expected, raw.steps)) : undefined;
  return placedDifference({
    expected: raw.order === undefined ? whole(a) : JSON.stringify(raw.order.expected),
    got: raw.order === undefined ? whole(b) : JSON.stringify(raw.order.got),
    ...(raw.note === undefined ? {} : { note: raw.note }),
    ...(raw.sameValue === undefined ? {} : { sameValue: raw.sameValue }),
    ...(raw.order === undefined && (a === undefined || b === undefined) ? { absent: { side: a === undefined ? 'expected' as const : 'got' as const, what: 'item' as const } } : {}),
    ...(words === undefined || words.length === 0 ? {} : { words }),
    ...(decoded === undefined ? {} : { decoded }),
    ...(raw.order === undefined && isGas(raw.steps) ? { quantity: 'gas' as const } : {}),
    location,
  });
}

/** One difference that covers the whole answer to `request`. */
function wholeAnswer(request: string, expected: string | undefined, got: string | undefined, note?: { text: string; sameValue?: SameValue }): PlacedDifference {
  return placedDifference({
    expected: expected ?? NO_ANSWER,
    got: got ?? NO_ANSWER,
    ...(note === undefined ? {} : { note: note.text, ...(note.sameValue === undefined ? {} : { sameValue: note.sameValue }) }),
    ...(expected === undefined || got === undefined ? { absent: { side: expected === undefined ? 'expected' as const : 'got' as const, what: 'answer' as const } } : {}),
    location: wholeLocation(parseWhole(request)),
  });
}

/** What a comparison found, placed; `decoded` places the same differences again with ABIs (no second diff). */
export interface Found {
  readonly differences: readonly PlacedDifference[];
  decoded(decoding: Decoding): PlacedDifference[];
}

const settled = (differences: PlacedDifference[]): Found => ({ differences, decoded: () => differences });

/**
 * Every difference between the recorded `expected` and our `got` for `request`; none when they match.
 * `undefined` on either side is no answer at all (a notification). Decoding (contract names need the
 * chain) can come after, through `decoded`, once there is something to decode.
 */
export function findDifferences(request: string, expected: string | undefined, got: string | undefined, options: CompareOptions): Found {
  if (expected === undefined || got === undefined) {
    if (expected === got) return settled([]);
    return settled([wholeAnswer(request, expected === undefined ? undefined : compactJson(expected), got === undefined ? undefined : compactJson(got))]);
  }
  const ignore = options.ignore ?? NO_IGNORES;
  const recorded = options.tokens === true ? compactJson(expected) : expected;
  if (options.mode === 'bytes' && recorded === got) return settled([]);
  const a = parseWhole(expected);
  const b = parseWhole(got);
  if (a === undefined || b === undefined) {
    return settled([wholeAnswer(request, compactJson(expected), compactJson(got), { text: a === undefined ? 'the recording is not one JSON value' : 'our answer is not one JSON value' })]);
  }
  const raw = diffValues(a, b, options.mode, ignore);
  if (raw.length === 0) {
    // equal values in other bytes: only whitespace is left, free for a pretty golden or where rules dropped members
    if (options.mode === 'semantic' || options.tokens === true || hasIgnores(ignore)) return settled([]);
    return settled([wholeAnswer(request, compactJson(expected), got, { text: 'the same values in other bytes: whitespace between tokens', sameValue: 'whitespace' })]);
  }
  const sides = { request: parseWhole(request), expected: a, got: b };
  return {
    differences: raw.map((d) => placed(d, sides, options.decoding)),
    decoded: (decoding) => raw.map((d) => placed(d, sides, decoding)),
  };
}

/** findDifferences' differences, decoded with `options.decoding` when given. */
export const compareAnswers = (request: string, expected: string | undefined, got: string | undefined, options: CompareOptions): PlacedDifference[] =>
  [...findDifferences(request, expected, got, options).differences];
