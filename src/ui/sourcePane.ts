// The Debug view's source pane: the step's file with line numbers, its line highlighted and the
// step's byte range marked (solc's source maps count UTF-8 bytes, the DOM counts UTF-16 units, so
// offsets are converted line by line), scrolled into view inside the pane. A click on a line asks
// to run to it. A step with no source shows why (a frame no artifact maps, or code the compiler
// generated) and the opcodes around it instead.
import { el } from './components.ts';
import type { DebugStep, DebugTx, StepRow } from './debugPanes.ts';

/** UTF-8 length of one code point. */
const utf8 = (cp: number): number => (cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4);

/** The UTF-16 index in `text` at which its UTF-8 encoding reaches `byte` bytes. */
function charIndex(text: string, byte: number): number {
  let bytes = 0;
  let i = 0;
  while (i < text.length && bytes < byte) {
    const cp = text.codePointAt(i)!;
    bytes += utf8(cp);
    i += cp > 0xffff ? 2 : 1;
  }
  return i;
}

interface SourceFile {
  readonly path: string;
  readonly lines: readonly string[];
  /** The UTF-8 offsets at which each line starts and ends (before its newline). */
  readonly starts: readonly number[];
  readonly ends: readonly number[];
}

function sourceFile(path: string, content: string): SourceFile {
  const lines = content.split('\n');
  const starts: number[] = [];
  const ends: number[] = [];
  const encoder = new TextEncoder();
  let at = 0;
  for (const line of lines) {
    starts.push(at);
    at += encoder.encode(line).length;
    ends.push(at);
    at += 1;
  }
  return { path, lines, starts, ends };
}

export class SourcePane {
  readonly element = el('div', { id: 'dbg-source', class: 'dbg-code mono' });
  private readonly files: readonly SourceFile[];
  /** The file on show and its line elements, or undefined while the pane shows opcodes. */
  private shown: { file: SourceFile; lines: HTMLElement[] } | undefined;
  /** Lines whose text is marked now, to unmark on the next step. */
  private marked: number[] = [];
  private current: HTMLElement | undefined;

  constructor(tx: DebugTx, onLine: (file: string, line: number) => void) {
    this.files = tx.sources.map((s) => sourceFile(s.path, s.content));
    this.element.addEventListener('click', (event) => {
      const line = (event.target as Element | null)?.closest<HTMLElement>('.line');
      if (line !== null && line !== undefined && this.shown !== undefined) onLine(this.shown.file.path, Number(line.dataset['line']));
    });
  }

  /** Shows step `s`; `nearby` gives the steps around it when it has no source to show. */
  async show(s: DebugStep, nearby: (from: number, to: number) => Promise<readonly StepRow[]>): Promise<void> {
    const file = s.source === null || s.source.index === null ? undefined : this.files[s.source.index];
    if (s.source === null || file === undefined || (file.lines.length === 1 && file.lines[0] === '')) {
      const why = s.source !== null ? `the text of ${s.source.file} is not in the artifacts` : s.unmapped ?? 'compiler-generated code: this instruction has no place in the source';
      const rows = await nearby(Math.max(0, s.step - 8), s.step + 12);
      this.showOpcodes(s.step, why, rows);
      return;
    }
    if (this.shown?.file !== file) this.render(file);
    const { lines } = this.shown!;
    for (const n of this.marked) this.setText(n);
    this.marked = [];
    this.current?.classList.remove('current');
    // the step's bytes, on every line they cover
    const from = s.source.start;
    const to = s.source.start + s.source.length;
    const covered: [number, number, number][] = [];
    for (let n = 1; n <= file.lines.length; n++) {
      const start = file.starts[n - 1]!;
      const end = file.ends[n - 1]!;
      if (from === to ? from < start || from > end : from >= end || to <= start) {
        if (start > to) break;
        continue;
      }
      const text = file.lines[n - 1]!;
      covered.push([n, charIndex(text, Math.max(0, from - start)), charIndex(text, Math.min(end, to) - start)]);
    }
    for (const [n, a, b] of covered) this.setText(n, a, b, covered.length > 1);
    this.marked = covered.map(([n]) => n);
    this.current = lines[s.source.line - 1];
    this.current?.classList.add('current');
    this.reveal();
  }

  private render(file: SourceFile): void {
    const lines = file.lines.map((text, i) =>
      el('div', { class: 'line', 'data-line': String(i + 1), title: `run to line ${i + 1}` }, el('span', { class: 'num' }, String(i + 1)), el('span', { class: 'text' }, text)),
    );
    this.shown = { file, lines };
    this.marked = [];
    this.current = undefined;
    this.element.replaceChildren(el('div', { class: 'file' }, file.path), el('div', { class: 'lines' }, ...lines));
  }

  /** Line `n`'s text, the characters from `a` to `b` marked when given (`wide`: a range of several lines). */
  private setText(n: number, a?: number, b?: number, wide = false): void {
    const { file, lines } = this.shown!;
    const line = lines[n - 1]!;
    const text = file.lines[n - 1]!;
    const span = line.lastElementChild!;
    line.classList.toggle('in-range', a !== undefined);
    if (a === undefined || b === undefined || a === b) span.replaceChildren(text);
    else span.replaceChildren(text.slice(0, a), el('mark', wide ? { class: 'wide' } : {}, text.slice(a, b)), text.slice(b));
  }

  /** The current line in view inside the pane (the page itself does not scroll), and its mark. */
  private reveal(): void {
    const line = this.current;
    if (line === undefined) return;
    const pane = this.element;
    if (line.offsetTop < pane.scrollTop + 24 || line.offsetTop + line.offsetHeight > pane.scrollTop + pane.clientHeight) {
      pane.scrollTop = Math.max(0, line.offsetTop - pane.clientHeight / 3);
    }
    const mark = line.querySelector('mark');
    const gutter = (line.firstElementChild as HTMLElement).offsetWidth;
    if (mark === null) pane.scrollLeft = 0;
    else if (mark.offsetLeft + Math.min(mark.offsetWidth, pane.clientWidth / 2) > pane.scrollLeft + pane.clientWidth || mark.offsetLeft < pane.scrollLeft + gutter) {
      pane.scrollLeft = Math.max(0, mark.offsetLeft - gutter - 24);
    }
  }

  private showOpcodes(step: number, why: string, rows: readonly StepRow[]): void {
    this.shown = undefined;
    this.current = undefined;
    this.marked = [];
    const list = el('ol', { class: 'opcodes' });
    for (const [i, pc, op] of rows) {
      list.append(el('li', i === step ? { class: 'op current' } : { class: 'op' }, el('span', { class: 'num' }, String(i)), el('span', { class: 'text' }, `pc ${String(pc).padStart(5)}  ${op}`)));
    }
    this.element.replaceChildren(el('p', { class: 'nosource' }, `No source: ${why}`), list);
    this.element.scrollLeft = 0;
    const here = list.querySelector<HTMLElement>('.current');
    if (here !== null) this.element.scrollTop = Math.max(0, here.offsetTop - this.element.clientHeight / 3);
  }
}
