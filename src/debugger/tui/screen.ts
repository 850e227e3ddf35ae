// The terminal UI's screen, as lines of at most `width` columns: a pure function of the step's view,
// the source text and the size, so it can be tested without a terminal.
import type { StepView } from '../stepView.ts';

export interface ScreenInput {
  readonly view: StepView;
  /** The text of the step's source file, when it has one. */
  readonly sourceText: string | undefined;
  /** Steps around this one at opcode level, for a step with no source: [step, pc, op]. */
  readonly nearby: readonly (readonly [number, number, string])[];
  readonly width: number;
  readonly height: number;
  /** A prompt being typed (`:120`, `@91`), or a message. */
  readonly status: string;
  readonly colour: boolean;
}

export const KEYS = 'j/k step  n/p line  o over  u out  c/C call  r revert  w write  e event  g/G first/last  :N step  @L line  q quit';

const hex = (n: bigint): string => `0x${n.toString(16)}`;

function fit(text: string, width: number): string {
  return text.length <= width ? text.padEnd(width) : `${text.slice(0, Math.max(0, width - 1))}…`;
}

/** The source lines of the pane, the step's line in the middle. */
function sourcePane(input: ScreenInput, rows: number, mark: (s: string) => string): string[] {
  const { view, sourceText, width } = input;
  if (view.source === undefined || sourceText === undefined) {
    const out = [fit(`no source${view.unmapped !== undefined ? `: ${view.unmapped}` : ' for this instruction (compiler-generated code)'}`, width)];
    for (const [step, pc, op] of input.nearby.slice(0, rows - 1)) {
      const line = fit(`${step === view.step ? '>' : ' '} ${String(step).padStart(8)}  pc ${String(pc).padStart(6)}  ${op}`, width);
      out.push(step === view.step ? mark(line) : line);
    }
    return out;
  }
  const lines = sourceText.split('\n');
  const current = view.source.line;
  const first = Math.max(1, Math.min(current - Math.floor(rows / 2), lines.length - rows + 1));
  const out: string[] = [];
  const gutter = String(Math.min(lines.length, first + rows)).length;
  for (let n = first; n < first + rows && n <= lines.length; n++) {
    const text = fit(`${n === current ? '>' : ' '}${String(n).padStart(gutter)} │ ${lines[n - 1]!.replace(/\t/g, '    ')}`, width);
    out.push(n === current ? mark(underlined(text, gutter + 4, lines[n - 1]!, view.source, input.colour)) : text);
  }
  return out;
}

/** The current line with the step's own range in it underlined (where the line holds its start). */
function underlined(text: string, prefix: number, line: string, source: NonNullable<StepView['source']>, colour: boolean): string {
  if (!colour || line.includes('\t')) return text;
  const from = prefix + source.column - 1;
  // the range's length is in bytes; counted in characters of the line from its start
  const chars = Buffer.from(line, 'utf8').subarray(Buffer.byteLength(line.slice(0, source.column - 1)), Buffer.byteLength(line.slice(0, source.column - 1)) + source.length).toString('utf8').length;
  const to = Math.min(text.length, from + chars);
  if (from >= to) return text;
  return `${text.slice(0, from)}\u001b[4m${text.slice(from, to)}\u001b[24m${text.slice(to)}`;
}

function memoryPane(view: StepView, rows: number, width: number, colour: boolean): string[] {
  const detail = view.detail;
  if (detail === undefined) return [fit('…', width)];
  const { memory, reads, writes } = detail;
  const touched = (r: { offset: number; length: number } | undefined, word: number): boolean => r !== undefined && r.offset < word + 32 && word < r.offset + r.length;
  const words = Math.ceil(memory.length / 32);
  // the words the step touches first, then from the start
  const order = [...Array(words).keys()].map((w) => w * 32);
  const focus = order.filter((w) => touched(reads, w) || touched(writes, w));
  const shown = [...focus, ...order.filter((w) => !focus.includes(w))].slice(0, rows).sort((a, b) => a - b);
  if (shown.length === 0) return [fit('(empty)', width)];
  return shown.map((w) => {
    const r = touched(reads, w);
    const wr = touched(writes, w);
    const tag = wr ? 'w' : r ? 'r' : ' ';
    const text = fit(`${tag} 0x${w.toString(16).padStart(4, '0')}  ${Buffer.from(memory.subarray(w, w + 32)).toString('hex').padEnd(64, '0')}`, width);
    return colour && (r || wr) ? `\u001b[${wr ? 33 : 36}m${text}\u001b[0m` : text;
  });
}

/** The screen's lines, `height` of them. */
export function drawScreen(input: ScreenInput): string[] {
  const { view, width, height, colour } = input;
  const mark = (s: string): string => (colour ? `\u001b[7m${s}\u001b[0m` : s);
  const where = view.source === undefined ? '' : `  ${view.source.file}:${view.source.line}:${view.source.column}`;
  const head = `step ${view.step}/${view.total - 1}  pc ${view.pc} ${view.op}  gas ${view.gas} (cost ${view.gasCost})  depth ${view.depth}  ${view.contract ?? ''}${view.address !== undefined ? `@${view.address}` : ''}`;
  const lines = [fit(head, width), fit(view.functions.length > 0 ? view.functions.join(' › ') : '(no Solidity function known)', width), fit(`── source${where} `.padEnd(width, '─'), width)];
  const detail = view.detail;
  const storage = detail?.storage;
  const storageLine = storage === undefined ? [] : [fit(`${storage.after === undefined ? 'SLOAD' : 'SSTORE'} ${storage.name ?? `slot ${hex(storage.slot)}`}: ${hex(storage.before)}${storage.after === undefined ? '' : ` → ${hex(storage.after)}`}`, width)];
  if (detail?.says !== undefined) storageLine.push(fit(detail.says, width));
  const frames = view.frames.slice(-4).map((f) => {
    const args = f.args === undefined ? `(${f.note ?? 'not recoverable'})` : `(${f.args.map((a) => `${a.name || a.type}: ${a.value}`).join(', ')})`;
    const returns = f.returns === undefined ? '' : ` → (${f.returns.map((a) => `${a.name || a.type}: ${a.value}`).join(', ')})`;
    return fit(`  ${f.label}${f.kind === 'modifier' ? ' (modifier)' : args}${returns}`, width);
  });
  // only where the build's ethdebug output locates them; nothing is guessed from stack heights
  if (frames.length > 0) {
    const locals = view.locals;
    if ('note' in locals) frames.push(fit(`  local variables: ${locals.note}`, width));
    else frames.push(fit(`  locals: ${locals.values.map((l) => `${l.name}: ${l.value ?? `(${l.note ?? '?'})`}`).join(', ')}`, width));
  }
  const free = height - lines.length - 1 - storageLine.length - 2 - (frames.length > 0 ? frames.length + 1 : 0);
  const stackRows = Math.max(2, Math.min(8, Math.floor(free / 4)));
  const memoryRows = Math.max(2, Math.min(8, Math.floor(free / 4)));
  const sourceRows = Math.max(3, free - stackRows - memoryRows);
  lines.push(...sourcePane(input, sourceRows, mark));
  while (lines.length < 3 + sourceRows) lines.push(' '.repeat(width));
  if (frames.length > 0) lines.push(fit('── call stack (innermost last) '.padEnd(width, '─'), width));
  lines.push(...frames, ...storageLine);
  lines.push(fit('── stack (top first) '.padEnd(width, '─'), width));
  const stack = detail === undefined ? [fit('…', width)] : detail.stack.slice(0, stackRows).map((v, k) => fit(`${String(k).padStart(3)}: ${hex(v)}`, width));
  if (stack.length === 0) stack.push(fit('(empty)', width));
  lines.push(...stack, ...Array<string>(Math.max(0, stackRows - stack.length)).fill(' '.repeat(width)));
  lines.push(fit('── memory (r read, w written by this step) '.padEnd(width, '─'), width));
  const memory = memoryPane(view, memoryRows, width, colour);
  lines.push(...memory, ...Array<string>(Math.max(0, memoryRows - memory.length)).fill(' '.repeat(width)));
  while (lines.length < height - 1) lines.push(' '.repeat(width));
  lines.length = height - 1;
  lines.push(fit(input.status !== '' ? input.status : KEYS, width));
  return lines;
}
