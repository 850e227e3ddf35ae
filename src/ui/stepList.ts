// The Debug view's list of steps (pc, op, file:line), a virtual list: a transaction may run a
// million steps, so only the rows in view are in the DOM, and steps are fetched a page at a time
// with blocktrace_debugSteps as the list scrolls (a bounded cache of pages). Past a height browsers
// cannot lay out, the scroll bar maps onto the steps proportionally. A click on a row picks its step.
import { el } from './components.ts';
import type { StepRow } from './debugPanes.ts';
import { rpc } from './rpc.ts';

/** A row's height in px (the stylesheet's `.dbg-steps .row`). */
const ROW = 20;
/** Steps per blocktrace_debugSteps request (the method takes at most 5000). */
const PAGE = 500;
/** Pages kept; the oldest fetched go first. */
const MAX_PAGES = 64;
/** The tallest spacer laid out; longer runs scroll proportionally. */
const MAX_HEIGHT = 8_000_000;

export class StepList {
  readonly element = el('div', { id: 'dbg-steps', class: 'dbg-steps mono', tabindex: '0' });
  private readonly spacer = el('div', { class: 'spacer' });
  private readonly window = el('div', { class: 'window' });
  private readonly pages = new Map<number, readonly StepRow[]>();
  private readonly fetching = new Map<number, Promise<readonly StepRow[]>>();
  private current = -1;
  private frame = 0;

  constructor(
    private readonly hash: string,
    private readonly total: number,
    private readonly paths: readonly string[],
    onPick: (step: number) => void,
  ) {
    this.spacer.style.height = `${Math.min(total * ROW, MAX_HEIGHT)}px`;
    this.element.append(this.spacer, this.window);
    this.element.addEventListener('scroll', () => this.schedule());
    this.element.addEventListener('click', (event) => {
      const row = (event.target as Element | null)?.closest<HTMLElement>('.row');
      if (row?.dataset['step'] !== undefined) onPick(Number(row.dataset['step']));
    });
    new ResizeObserver(() => this.schedule()).observe(this.element);
  }

  /** Steps `from` to `to` (exclusive), fetched when not at hand. */
  async rows(from: number, to: number): Promise<StepRow[]> {
    const out: StepRow[] = [];
    const end = Math.min(to, this.total);
    for (let p = Math.floor(from / PAGE); p * PAGE < end; p++) for (const row of await this.page(p)) if (row[0] >= from && row[0] < end) out.push(row);
    return out;
  }

  /** Highlights `step` and scrolls the list to it when it is out of view. */
  select(step: number): void {
    this.current = step;
    const view = this.element.clientHeight;
    const top = this.virtualTop();
    if (step * ROW < top || (step + 1) * ROW > top + view) this.element.scrollTop = this.toScroll(Math.max(0, step * ROW - view / 2 + ROW / 2));
    this.draw();
  }

  private page(p: number): Promise<readonly StepRow[]> {
    const have = this.pages.get(p);
    if (have !== undefined) return Promise.resolve(have);
    let asked = this.fetching.get(p);
    if (asked === undefined) {
      asked = rpc<StepRow[]>('blocktrace_debugSteps', [this.hash, p * PAGE, PAGE]).then((rows) => {
        this.fetching.delete(p);
        this.pages.set(p, rows);
        for (const old of this.pages.keys()) if (this.pages.size > MAX_PAGES) this.pages.delete(old);
        return rows;
      }, (err: unknown) => {
        this.fetching.delete(p);
        throw err;
      });
      this.fetching.set(p, asked);
    }
    return asked;
  }

  private schedule(): void {
    if (this.frame !== 0) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
    });
  }

  /** The offset into the full list (total × ROW) the scroll position stands for. */
  private virtualTop(): number {
    const full = this.total * ROW;
    const height = Math.min(full, MAX_HEIGHT);
    const view = this.element.clientHeight;
    if (height === full || height <= view) return this.element.scrollTop;
    return (this.element.scrollTop / (height - view)) * (full - view);
  }

  private toScroll(virtual: number): number {
    const full = this.total * ROW;
    const height = Math.min(full, MAX_HEIGHT);
    const view = this.element.clientHeight;
    if (height === full || height <= view) return virtual;
    return (virtual / (full - view)) * (height - view);
  }

  /** The rows in view, from the pages at hand; missing pages are fetched and drawn when they come. */
  private draw(): void {
    const top = this.virtualTop();
    const first = Math.max(0, Math.floor(top / ROW));
    const count = Math.ceil(this.element.clientHeight / ROW) + 1;
    const last = Math.min(this.total, first + count);
    this.window.style.top = `${this.element.scrollTop - (top - first * ROW)}px`;
    const rows: HTMLElement[] = [];
    const missing = new Set<number>();
    for (let i = first; i < last; i++) {
      const p = Math.floor(i / PAGE);
      const row = this.pages.get(p)?.[i - p * PAGE];
      if (row === undefined) missing.add(p);
      rows.push(this.row(i, row));
    }
    this.window.replaceChildren(...rows);
    for (const p of missing) {
      this.page(p).then(() => this.schedule(), () => {
        // shown as … until the next scroll asks again
      });
    }
  }

  private row(i: number, row: StepRow | undefined): HTMLElement {
    const where = row === undefined ? '' : row[6] === null ? '—' : `${this.paths[row[6]] ?? '?'}:${row[7]}`;
    return el(
      'div',
      { class: i === this.current ? 'row current' : 'row', 'data-step': String(i) },
      el('span', { class: 'n' }, String(i)),
      el('span', { class: 'pc' }, row === undefined ? '…' : String(row[1])),
      el('span', { class: 'op' }, row === undefined ? '' : row[2]),
      el('span', { class: 'where' }, where),
    );
  }
}
