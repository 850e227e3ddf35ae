// The Debug view's smaller panes, each a pure function of one step as blocktrace_debugStep answers
// it (src/rpc/handlers/debugger.ts): the step's facts and what it does, the Solidity call stack with
// its values (innermost last), the EVM stack (top first), memory as 32-byte words with the bytes the
// step reads and writes marked, and the storage slot it reads or writes. Also the JSON shapes the
// view reads.
import { el, link, short } from './components.ts';

/** blocktrace_debugTransaction */
export interface DebugTx {
  readonly hash: string;
  readonly steps: number;
  readonly revert: number | null;
  readonly frames: readonly { frame: number; kind: string; address: string | null; contract: string | null; failed: boolean; unmapped: string | null }[];
  readonly sources: readonly { path: string; content: string }[];
}

/** blocktrace_debugSteps: [step, pc, op, depth, gas, gasCost, file index, line] */
export type StepRow = readonly [number, number, string, number, number, number, number | null, number | null];

interface NamedValue {
  readonly name: string;
  readonly type: string;
  readonly value: string;
}
interface Range {
  readonly offset: number;
  readonly length: number;
}

/** blocktrace_debugStep */
export interface DebugStep {
  readonly step: number;
  readonly pc: number;
  readonly op: string;
  readonly depth: number;
  readonly gas: number;
  readonly gasCost: number;
  readonly address: string | null;
  readonly contract: string | null;
  readonly source: { file: string; line: number; column: number; start: number; length: number; index: number | null } | null;
  readonly unmapped: string | null;
  readonly frames: readonly { label: string; kind: string; args?: readonly NamedValue[]; returns?: readonly NamedValue[]; note?: string }[];
  /** Where the build's ethdebug output locates them; else why not. */
  readonly locals?: { readonly values: readonly { name: string; type: string; value?: string; note?: string }[] } | { readonly note: string };
  readonly stack: readonly string[];
  readonly memory: string;
  readonly reads: Range | null;
  readonly writes: Range | null;
  readonly storage: { slot: string; name: string | null; before: string; after: string | null } | null;
  /** What the instruction does, decoded: the call a CALL makes, the event a LOG emits, the error a REVERT raises. */
  readonly says?: string | null;
}

const fact = (name: string, value: Node | string, id: string): HTMLElement => el('span', { class: 'fact' }, el('span', { class: 'k' }, name), ' ', el('span', { id }, value));

/** step N of M, pc, op, gas, cost, depth, contract@address, and what the instruction says. */
export function factsPane(s: DebugStep, total: number): HTMLElement[] {
  const where = s.address === null ? '—' : link(`${s.contract ?? 'unknown code'}@${short(s.address, 6)}`, `/address/${s.address}`);
  const says = s.says === undefined || s.says === null ? [] : [el('span', { class: 'says', id: 'dbg-says' }, s.says)];
  return [
    el('span', { class: 'fact' }, el('span', { class: 'k' }, 'step'), ' ', el('b', { id: 'dbg-step' }, String(s.step)), el('span', { class: 'k' }, ` of ${total}`)),
    fact('pc', String(s.pc), 'dbg-pc'),
    fact('op', s.op, 'dbg-op'),
    fact('gas', String(s.gas), 'dbg-gas'),
    fact('cost', String(s.gasCost), 'dbg-cost'),
    fact('depth', String(s.depth), 'dbg-depth'),
    fact('code', where, 'dbg-code-of'),
    ...says,
  ];
}

const values = (list: readonly NamedValue[]): string => list.map((v) => `${v.name || v.type}: ${v.value}`).join(', ');

/** The Solidity functions the step is in, each with its arguments (and return values as it returns), innermost last; then its local variables. */
export function framesPane(s: DebugStep): HTMLElement[] {
  const list = el('ol', { id: 'dbg-frames', class: 'dbg-list' });
  for (const f of s.frames) {
    const item = el('li', { class: `frame-${f.kind}` }, el('span', { class: 'label' }, f.label));
    if (f.kind === 'modifier') item.append(el('span', { class: 'kind' }, ' modifier'));
    else item.append(el('span', { class: 'args' }, f.args === undefined ? `(${f.note ?? 'arguments not recoverable'})` : `(${values(f.args)})`));
    if (f.returns !== undefined) item.append(el('span', { class: 'returns' }, ` → (${values(f.returns)})`));
    if (f.note !== undefined && f.args !== undefined) item.append(el('div', { class: 'note' }, f.note));
    list.append(item);
  }
  if (s.frames.length === 0) list.append(el('li', { class: 'none' }, 'no Solidity function known here'));
  if (s.frames.length === 0 || s.locals === undefined) return [list];
  const text = 'note' in s.locals ? s.locals.note : s.locals.values.map((v) => `${v.name}: ${v.value ?? `(${v.note ?? '?'})`}`).join(', ');
  return [list, el('div', { class: 'note', id: 'dbg-locals' }, `local variables: ${text}`)];
}

/** The EVM stack, top first, each word by its position. */
export function stackPane(s: DebugStep): HTMLElement {
  const list = el('ol', { id: 'dbg-stack', class: 'dbg-list mono', start: '0' });
  for (const [i, word] of s.stack.entries()) list.append(el('li', {}, el('span', { class: 'i' }, String(i)), word));
  if (s.stack.length === 0) list.append(el('li', { class: 'none' }, '(empty)'));
  return list;
}

/** Words shown at most: around the first word the step touches, else from the start. */
const MAX_WORDS = 256;

const overlaps = (r: Range | null, from: number, to: number): boolean => r !== null && r.length > 0 && r.offset < to && from < r.offset + r.length;

/** One 32-byte word, the bytes the step reads (or writes) marked. */
function word(bytes: string, at: number, reads: Range | null, writes: Range | null): HTMLElement {
  const hex = el('span', { class: 'hex' });
  let run = '';
  let runTag = '';
  const flush = (): void => {
    if (run !== '') hex.append(runTag === '' ? run : el('mark', { class: runTag }, run));
    run = '';
  };
  for (let b = 0; b < 32; b++) {
    // two halves of 16 bytes, where a narrow pane wraps the word
    if (b === 16) {
      flush();
      hex.append(' ');
    }
    const tag = overlaps(writes, at + b, at + b + 1) ? 'w' : overlaps(reads, at + b, at + b + 1) ? 'r' : '';
    if (tag !== runTag) flush();
    runTag = tag;
    run += bytes.slice(2 * b, 2 * b + 2).padEnd(2, '0');
  }
  flush();
  const w = overlaps(writes, at, at + 32);
  const r = overlaps(reads, at, at + 32);
  return el('div', { class: `word${w ? ' w' : r ? ' r' : ''}` }, el('span', { class: 'off' }, `0x${at.toString(16).padStart(4, '0')}`), hex, el('span', { class: 'tag' }, w ? 'w' : r ? 'r' : ''));
}

/** Memory as 32-byte words: `r` the words the step reads, `w` those it writes. */
export function memoryPane(s: DebugStep): HTMLElement {
  const bytes = s.memory.slice(2);
  const words = Math.ceil(bytes.length / 64);
  if (words === 0) return el('div', { id: 'dbg-memory', class: 'dbg-mem' }, el('p', { class: 'none' }, '(empty)'));
  const box = el('div', { id: 'dbg-memory', class: 'dbg-mem mono' });
  const touched = [s.writes, s.reads].find((r) => r !== null && r.length > 0);
  const centre = touched === undefined || touched === null ? 0 : Math.floor(touched.offset / 32);
  const first = Math.max(0, Math.min(centre - MAX_WORDS / 2, words - MAX_WORDS));
  const last = Math.min(words, first + MAX_WORDS);
  if (first > 0) box.append(el('p', { class: 'none' }, `… ${first} words before`));
  for (let w = first; w < last; w++) box.append(word(bytes.slice(w * 64, w * 64 + 64), w * 32, s.reads, s.writes));
  if (last < words) box.append(el('p', { class: 'none' }, `… ${words - last} words after`));
  return box;
}

/** The storage slot the step reads (SLOAD) or writes (SSTORE): its name, before → after. */
export function storagePane(s: DebugStep): HTMLElement {
  const st = s.storage;
  if (st === null) return el('div', { id: 'dbg-storage' }, el('p', { class: 'none' }, 'no storage access at this step'));
  return el(
    'div',
    { id: 'dbg-storage', class: 'mono' },
    el('div', {}, el('span', { class: 'kind' }, st.after === null ? 'SLOAD ' : 'SSTORE '), el('b', { class: 'name' }, st.name ?? `slot ${st.slot}`), st.name === null ? '' : el('span', { class: 'slot' }, ` slot ${st.slot}`)),
    el('div', { class: 'change' }, el('span', { class: 'before' }, st.before), st.after === null ? '' : ' → ', st.after === null ? '' : el('span', { class: 'after' }, st.after)),
  );
}
