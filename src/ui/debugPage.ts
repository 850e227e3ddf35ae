// The viewer's Debug view of a transaction (/tx/0x…/debug/STEP): the source-level debugger's model
// through blocktrace_debugTransaction, blocktrace_debugSteps and blocktrace_debugStep (the same
// model and moves as `blocktrace debug` in a terminal). Panes: source, call stack, step facts,
// stack, memory, storage, and a virtual list of steps. Buttons and the terminal UI's keys move
// (j/k step, n/p line, o over, u out, c/C call, g/G first/last, r revert, w write, e event); a
// click on a source line runs to it, a click on a listed step goes there. Every step has its URL:
// the address bar follows the step (history.replaceState), so a copied URL reopens it.
import { type Move, MOVE_KEYS, MOVES } from '../debugger/keys.ts';
import { el, link, notFound, short } from './components.ts';
import { type DebugStep, type DebugTx, factsPane, framesPane, memoryPane, stackPane, storagePane } from './debugPanes.ts';
import { rpc } from './rpc.ts';
import { SourcePane } from './sourcePane.ts';
import { StepList } from './stepList.ts';

type Where = { move: Move } | { file: string; line: number };

/** Each move's button and what is said when there is nowhere to go (its key: keys.ts, as in the terminal). */
const LABELS: Readonly<Record<Move, readonly [string, string]>> = {
  first: ['first', 'this is the first step'],
  previous: ['↑ step', 'this is the first step'],
  next: ['↓ step', 'this is the last step'],
  previousLine: ['↑ line', 'no source line before this step'],
  nextLine: ['↓ line', 'no source line after this step'],
  stepOver: ['over', 'no later line at this depth'],
  stepOut: ['out', 'no caller to step out to'],
  previousCall: ['↑ call', 'no call before this step'],
  nextCall: ['↓ call', 'no call after this step'],
  nextWrite: ['write', 'no storage write after this step'],
  nextEvent: ['event', 'no event after this step'],
  revert: ['revert', 'the transaction does not revert'],
  last: ['last', 'this is the last step'],
};
const MOVES_SHOWN: readonly (readonly [Move, string, string, string])[] = MOVES.map((m) => [m, MOVE_KEYS[m], ...LABELS[m]] as const);
const KEYS = new Map<string, Move>([...MOVES_SHOWN.map(([m, key]) => [key, m] as const), ['ArrowDown', 'next'], ['ArrowUp', 'previous']]);

/** The page for a step number that is not one of the transaction's, with ways on. */
function noSuchStep(main: HTMLElement, tx: DebugTx, hash: string, text: string): void {
  const ways = el('p', {}, link('step 0', `/tx/${hash}/debug/0`), ' · ', link(`the last step (${tx.steps - 1})`, `/tx/${hash}/debug/${tx.steps - 1}`));
  if (tx.revert !== null) ways.append(' · ', link(`the revert (step ${tx.revert})`, `/tx/${hash}/debug/${tx.revert}`));
  main.replaceChildren(
    el('p', {}, link('← transaction', `/tx/${hash}`)),
    el('h2', { id: 'notfound' }, 'No such step'),
    el('p', { id: 'dbg-bad-step' }, `"${text}" is not a step of this transaction: it has ${tx.steps} steps, numbered 0 to ${tx.steps - 1}.`),
    ways,
  );
}

function section(title: string, id: string, body: HTMLElement): HTMLElement {
  return el('section', { class: 'pane', id: `${id}-pane` }, el('h3', {}, title), body);
}

/** Opens the Debug view of `hash` at `stepText` (undefined: step 0; `#revert` in the URL: its revert step). */
export async function showDebug(main: HTMLElement, hash: string, stepText: string | undefined): Promise<void> {
  if (!/^0x[0-9a-fA-F]{64}$/.test(hash)) return notFound(main, `Transaction ${hash} is not on this chain.`);
  let tx: DebugTx;
  try {
    tx = await rpc<DebugTx>('blocktrace_debugTransaction', [hash]);
  } catch (err) {
    const message = (err as Error).message;
    if (message.includes('is not on the chain')) return notFound(main, `Transaction ${hash} is not on this chain.`);
    main.replaceChildren(el('p', {}, link('← transaction', `/tx/${hash}`)), el('h2', {}, 'Debug'), el('p', { class: 'failed', id: 'dbg-error' }, message));
    return;
  }
  if (tx.steps === 0) {
    main.replaceChildren(el('p', {}, link('← transaction', `/tx/${hash}`)), el('h2', {}, 'Debug'), el('p', { id: 'dbg-error' }, 'This transaction runs no code: there is no step to show.'));
    return;
  }
  const start = stepText === undefined ? 0 : /^\d+$/.test(stepText) ? Number(stepText) : Number.NaN;
  if (!(start < tx.steps)) return noSuchStep(main, tx, hash, stepText ?? '');

  const root = el('div', { id: 'debug' });
  const message = el('p', { id: 'dbg-message', role: 'status' });
  const facts = el('div', { id: 'dbg-facts', class: 'dbg-facts' });
  const panes = { frames: el('div'), storage: el('div'), stack: el('div'), memory: el('div') };
  let step = start;
  let queue: Promise<void> = Promise.resolve();
  let pending = 0;

  const render = async (s: DebugStep, how: Where | undefined): Promise<void> => {
    const from = step;
    step = s.step;
    facts.replaceChildren(...factsPane(s, tx.steps));
    panes.frames.replaceChildren(...framesPane(s));
    panes.storage.replaceChildren(storagePane(s));
    panes.stack.replaceChildren(stackPane(s));
    panes.memory.replaceChildren(memoryPane(s));
    list.select(s.step);
    await source.show(s, (a, b) => list.rows(a, b));
    if (how !== undefined && s.step === from) {
      if (!('move' in how)) message.textContent = `line ${how.line} of ${how.file} is not reached after step ${from}`;
      else message.textContent = how.move === 'revert' && tx.revert !== null ? 'this is the step where it reverts' : LABELS[how.move][1];
    } else message.textContent = '';
    history.replaceState(null, '', `/tx/${hash}/debug/${s.step}`);
    root.dataset['step'] = String(s.step);
  };
  /** Moves one after another, each from where the last one led. */
  const go = (how: Where | { step: number }): void => {
    pending++;
    root.dataset['busy'] = '1';
    queue = queue
      .then(async () => {
        const at = 'step' in how ? how.step : step;
        const where = 'step' in how ? undefined : how;
        const s = await rpc<DebugStep>('blocktrace_debugStep', where === undefined ? [hash, at] : [hash, at, where]);
        if (root.isConnected) await render(s, where);
      })
      .catch((err: unknown) => void (message.textContent = (err as Error).message))
      .finally(() => {
        if (--pending === 0) delete root.dataset['busy'];
      });
  };

  const source = new SourcePane(tx, (file, line) => go({ file, line }));
  const list = new StepList(hash, tx.steps, tx.sources.map((s) => s.path), (n) => go({ step: n }));
  const bar = el('div', { class: 'dbg-bar', role: 'toolbar' });
  for (const [m, key, label] of MOVES_SHOWN) {
    const button = el('button', { type: 'button', 'data-move': m, title: `${m} (${key})` }, label, el('kbd', {}, key));
    if (m === 'revert' && tx.revert === null) button.disabled = true;
    button.addEventListener('click', () => go({ move: m }));
    bar.append(button);
  }
  const summary = `${tx.steps} steps${tx.revert === null ? '' : `, reverts at step ${tx.revert}`}`;
  const unmapped = tx.frames.filter((f) => f.unmapped !== null).map((f) => el('li', {}, `frame ${f.frame} (${f.contract ?? 'unknown'}${f.address === null ? '' : `@${short(f.address, 6)}`}): ${f.unmapped}`));
  root.append(
    el('div', { class: 'dbg-head' }, link('← transaction', `/tx/${hash}`), el('h2', {}, 'Debug'), el('span', { class: 'mono' }, short(hash, 12)), el('span', { class: 'k' }, summary)),
    ...(unmapped.length === 0 ? [] : [el('ul', { class: 'dbg-unmapped' }, ...unmapped)]),
    bar,
    facts,
    message,
    el(
      'div',
      { class: 'dbg-grid' },
      el('div', { class: 'dbg-main' }, section('Source', 'dbg-source', source.element), section('Steps', 'dbg-steps', list.element)),
      el(
        'div',
        { class: 'dbg-side' },
        section('Call stack (innermost last)', 'dbg-frames', panes.frames),
        section('Storage', 'dbg-storage', panes.storage),
        section('Stack (top first)', 'dbg-stack', panes.stack),
        section('Memory (r read, w written by this step)', 'dbg-memory', panes.memory),
      ),
    ),
  );
  main.replaceChildren(root);

  // the keys act while this view is on the page; the first key after it has gone removes the listener
  const onKey = (event: KeyboardEvent): void => {
    if (!root.isConnected) return document.removeEventListener('keydown', onKey);
    const target = event.target as HTMLElement | null;
    if (event.ctrlKey || event.metaKey || event.altKey || target?.closest('input, textarea, select, [contenteditable]') != null) return;
    const m = KEYS.get(event.key);
    if (m === undefined) return;
    event.preventDefault();
    go({ move: m });
  };
  document.addEventListener('keydown', onKey);
  // a link to the revert (`…/debug#revert`) opens at it, whichever step it is
  go(location.hash === '#revert' ? { move: 'revert' } : { step: start });
  await queue;
}
