// The call tree that the viewer and the HTML report of `check` and `diff` share: a collapsible frame
// per call, a gas bar, decoded calls, events and revert reasons, in the order they happened. Browser code, no I/O: names of contracts come from `label`, which the
// viewer asks of the node and the report reads from its inline data. A frame or field the report
// marks as differing carries the class `differs`.
import type { AbiDecoder, Decoded } from '../abi/decoder.ts';
import { formatArgs, revertText } from '../abi/format.ts';
import { el, short } from './components.ts';
import type { Frame } from './frame.ts';

/** Frame key (`''` the top call, `0.2` its first call's third) → the fields of it that differ. */
export type Marks = ReadonlyMap<string, readonly string[]>;

export interface TreeContext {
  readonly decoder: AbiDecoder;
  /** The contract name of an address, or the address. */
  readonly label: (address: string | undefined) => Promise<string>;
  /** The top call's gas, for the bars. */
  readonly total: bigint;
  readonly marks?: Marks;
}

function revertLine(frame: Frame, decoder: AbiDecoder): string {
  const output = frame.output ?? '0x';
  return revertText(decoder, output, frame.revertReason) ?? (output === '0x' ? '(no data)' : short(output, 32));
}

const isCreate = (frame: Frame): boolean => frame.type === 'CREATE' || frame.type === 'CREATE2';

/**
 * `new Vault@0x…` as cast names a creation: the contract by the code it left (the label), else by
 * the creation code its init code begins with (a creation that reverted left none).
 */
async function created(frame: Frame, creation: Decoded | undefined, ctx: TreeContext): Promise<string> {
  if (frame.to === undefined) return `new ${creation?.name ?? 'contract'}`;
  const label = await ctx.label(frame.to);
  const name = label.toLowerCase() !== frame.to.toLowerCase() ? label : creation?.name;
  return name === undefined ? `new ${frame.to}` : `new ${name}@${frame.to}`;
}

/** Adds `differs` to `node`'s classes when `yes`. */
function mark<T extends HTMLElement>(node: T, yes: boolean): T {
  if (yes) node.classList.add('differs');
  return node;
}

/** One frame and, open below it, its calls and events in the order they happened and its result. */
export async function frameNode(frame: Frame, ctx: TreeContext, key = ''): Promise<HTMLElement> {
  const { decoder } = ctx;
  const fields = ctx.marks?.get(key) ?? [];
  const has = (...names: string[]): boolean => fields.some((f) => names.some((n) => f === n || f.startsWith(`${n}[`) || f.startsWith(`${n}.`)));
  const used = BigInt(frame.gasUsed);
  const width = ctx.total === 0n ? 0 : Number((used * 1000n) / ctx.total) / 10;
  const creation = isCreate(frame) ? decoder.creation(frame.input) : undefined;
  const callee = isCreate(frame) ? await created(frame, creation, ctx) : await ctx.label(frame.to);
  const decoded = isCreate(frame) ? undefined : decoder.call(frame.input);
  const fn = decoded !== undefined ? `${decoded.name}(${formatArgs(decoded)})` : frame.input === '0x' ? '()' : `${frame.input.slice(0, 10)}(…)`;
  const value = frame.value !== undefined && BigInt(frame.value) !== 0n ? ` {value: ${BigInt(frame.value)}}` : '';
  // a creation: its constructor's arguments when an artifact's creation code begins the init code, else its size
  const made = creation !== undefined && creation.args.length > 0 ? `(${formatArgs(creation)})` : ` (${(frame.input.length - 2) / 2} bytes of init code)`;
  const summary = el(
    'summary',
    { class: frame.error !== undefined ? 'frame failed' : 'frame' },
    el('span', { class: 'gasbar' }, el('span', { style: `width:${width}%` })),
    mark(el('span', { class: 'gas' }, String(used)), has('gasUsed', 'gas')),
    mark(el('span', { class: 'kind' }, frame.type), has('type')),
    mark(el('span', { class: 'callee' }, callee), has('to', 'from')),
    mark(el('span', { class: 'fn' }, isCreate(frame) ? `${made}${value}` : `::${fn}${value}`), has('input', 'value')),
  );
  if (fields.length > 0) summary.append(el('span', { class: 'fields differs' }, fields.join(', ')));
  const body = el('div', { class: 'children' });
  const logs = (frame.logs ?? []).map((log, index) => ({ log, index }));
  const calls = frame.calls ?? [];
  const emit = ({ log, index }: (typeof logs)[number]): HTMLElement => {
    const d = decoder.event(log.topics ?? [], log.data);
    return mark(el('div', { class: 'event' }, `emit ${d !== undefined ? `${d.name}(${formatArgs(d)})` : `log(${(log.topics ?? []).map((t) => short(t)).join(', ')})`}`), has(`logs[${index}]`));
  };
  for (const [i, call] of calls.entries()) {
    while (logs.length > 0 && Number(logs[0]!.log.position) <= i) body.append(emit(logs.shift()!));
    body.append(await frameNode(call, ctx, key === '' ? String(i) : `${key}.${i}`));
  }
  for (const log of logs) body.append(emit(log));
  const outcome = has('output', 'error', 'revertReason');
  if (frame.error !== undefined) {
    body.append(mark(el('div', { class: 'result failed' }, frame.error === 'execution reverted' ? `← revert: ${revertLine(frame, decoder)}` : `← ${frame.error}`), outcome));
  } else if (frame.output !== undefined && frame.output !== '0x') {
    const r = isCreate(frame) ? undefined : decoder.result(frame.input, frame.output);
    body.append(mark(el('div', { class: 'result' }, `← ${r !== undefined ? formatArgs(r) : short(frame.output, 32)}`), outcome));
  } else if (outcome) {
    body.append(mark(el('div', { class: 'result' }, '← (nothing)'), true));
  }
  return el('details', { open: '' }, mark(summary, fields.length > 0), body);
}
