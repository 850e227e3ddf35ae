// The first difference as check's report of old gave it, kept as `--json`'s `difference` for the
// readers of that report: the path, both values cut short, and in bytes mode the first differing byte
// with a window of each side. Every difference comes from src/compare/answers.ts.
import { shortText } from '../compare/jsonText.ts';
import type { CompareMode } from '../compare/diff.ts';
import type { PlacedDifference } from '../compare/types.ts';

export interface Difference {
  /** JSON path of the first difference, `$` for the whole body. */
  readonly path: string;
  /** Both sides at `path`, as short compact JSON (or a phrase such as `no answer`). */
  readonly expected: string;
  readonly got: string;
  readonly note?: string;
  /** Bytes mode: the first differing byte and a short window of each side around it. */
  readonly context?: ByteContext;
}

export interface ByteContext {
  /** UTF-8 offset of the first byte that differs. */
  readonly offset: number;
  readonly expected: string;
  readonly got: string;
}

const BEFORE = 24;
const AFTER = 40;

const visible = (text: string): string => text.replace(/\r/g, '\\r').replace(/\n/g, '\\n').replace(/\t/g, '\\t');

function window(text: string, at: number): string {
  const start = Math.max(0, at - BEFORE);
  const end = Math.min(text.length, at + AFTER);
  return `${start > 0 ? '…' : ''}${visible(text.slice(start, end))}${end < text.length ? '…' : ''}`;
}

/** Where two texts first differ, with a window of each. */
export function byteContext(expected: string, got: string): ByteContext {
  let i = 0;
  while (i < expected.length && i < got.length && expected[i] === got[i]) i++;
  return { offset: new TextEncoder().encode(expected.slice(0, i)).length, expected: window(expected, i), got: window(got, i) };
}

const short = (value: string): string => (value === 'missing' || value === 'no answer' ? value : shortText(value));

/** `first` as the old report showed it; the byte window needs both texts (bytes mode). */
export function firstDifference(first: PlacedDifference, expected: string | undefined, got: string | undefined, mode: CompareMode): Difference {
  const context = mode === 'bytes' && expected !== undefined && got !== undefined ? { context: byteContext(expected, got) } : {};
  return { path: first.path, expected: short(first.expected), got: short(first.got), ...(first.note === undefined ? {} : { note: first.note }), ...context };
}
