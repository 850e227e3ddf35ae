// A call tree as text, the way `cast run` and `forge test -vvvv` print one: one line per frame
// (gas used, callee label, decoded function, value), its events and its result under it. Pure:
// takes go-ethereum callTracer frames (withLog) and a decoder; colour is the caller's choice.
import { getAddress } from 'viem';
import type { AbiDecoder } from '../abi/decoder.ts';
import { formatArgs, revertText, shortHex } from '../abi/format.ts';

export interface CallFrameJson {
  readonly type: string;
  readonly from: string;
  readonly to?: string;
  readonly value?: string;
  readonly gas: string;
  readonly gasUsed: string;
  readonly input: string;
  readonly output?: string;
  readonly error?: string;
  readonly revertReason?: string;
  readonly calls?: readonly CallFrameJson[];
  readonly logs?: readonly { address: string; topics?: readonly string[]; data: string; position: string }[];
}

export interface Style {
  label(s: string): string;
  fn(s: string): string;
  ok(s: string): string;
  bad(s: string): string;
  event(s: string): string;
  dim(s: string): string;
}

const PLAIN: Style = { label: (s) => s, fn: (s) => s, ok: (s) => s, bad: (s) => s, event: (s) => s, dim: (s) => s };
const ansi = (code: number) => (s: string): string => `\u001b[${code}m${s}\u001b[0m`;
export const COLOUR: Style = { label: ansi(36), fn: ansi(1), ok: ansi(32), bad: ansi(31), event: ansi(33), dim: ansi(2) };
export { PLAIN };

export interface RenderContext {
  readonly decoder: AbiDecoder;
  /** Lower-case address → contract name (from code matched to an artifact). */
  readonly labels: ReadonlyMap<string, string>;
  readonly style: Style;
}

function who(address: string | undefined, ctx: RenderContext): string {
  if (address === undefined) return '?';
  const name = ctx.labels.get(address.toLowerCase());
  return ctx.style.label(name ?? getAddress(address));
}

function ether(wei: bigint): string {
  if (wei === 0n) return '0';
  const whole = wei / 10n ** 18n;
  const frac = (wei % 10n ** 18n).toString().padStart(18, '0').replace(/0+$/, '');
  return frac === '' ? `${whole} ETH` : `${whole}.${frac} ETH`;
}

/** The precompiles by address, named by the EIP that adds each; shown as foundry shows them, under PRECOMPILES. */
const PRECOMPILES = new Map<number, string>([
  [0x01, 'ecrecover'], [0x02, 'sha256'], [0x03, 'ripemd160'], [0x04, 'identity'], [0x05, 'modexp'], [0x06, 'ecAdd'],
  [0x07, 'ecMul'], [0x08, 'ecPairing'], [0x09, 'blake2f'], [0x0a, 'pointEvaluation'], [0x0b, 'bls12G1Add'],
  [0x0c, 'bls12G1Msm'], [0x0d, 'bls12G2Add'], [0x0e, 'bls12G2Msm'], [0x0f, 'bls12PairingCheck'], [0x10, 'bls12MapFpToG1'],
  [0x11, 'bls12MapFp2ToG2'], [0x100, 'p256verify'],
]);

function precompileName(address: string | undefined): string | undefined {
  if (address === undefined || !/^0x0{36}[0-9a-fA-F]{4}$/.test(address)) return undefined;
  return PRECOMPILES.get(Number.parseInt(address.slice(-4), 16));
}

function head(frame: CallFrameJson, ctx: RenderContext): string {
  const gas = ctx.style.dim(`[${BigInt(frame.gasUsed)}]`);
  const wei = frame.value !== undefined ? BigInt(frame.value) : 0n;
  const value = wei !== 0n ? `{value: ${ether(wei)}}` : '';
  const kind = frame.type === 'CALL' ? '' : ` ${ctx.style.dim(frame.type.toLowerCase())}`;
  if (frame.type === 'CREATE' || frame.type === 'CREATE2') {
    // named by the code it left or, failing that (a creation that reverted), by the init code it ran
    const creation = ctx.decoder.creation(frame.input);
    const name = (frame.to !== undefined ? ctx.labels.get(frame.to.toLowerCase()) : undefined) ?? creation?.name ?? 'contract';
    const at = frame.to !== undefined ? `@${getAddress(frame.to)}` : '';
    // the constructor's arguments as cast prints them: `new Vault@0x…(token: 0x…, feeBps: 250)`
    const args = creation !== undefined && creation.args.length > 0 ? `(${formatArgs(creation)})` : '';
    return `${gas} → new ${ctx.style.label(name)}${at}${args}${value === '' ? '' : ` ${value}`}${kind}`;
  }
  if (frame.type === 'SELFDESTRUCT') return `${gas} ${ctx.style.fn('selfdestruct')}(beneficiary: ${who(frame.to, ctx)}, value: ${ether(wei)})`;
  const precompile = precompileName(frame.to);
  if (precompile !== undefined) return `${gas} ${ctx.style.label('PRECOMPILES')}::${ctx.style.fn(precompile)}${value}(${shortHex(frame.input)})${kind}`;
  const call = ctx.decoder.call(frame.input);
  const target = who(frame.to, ctx);
  if (call !== undefined) return `${gas} ${target}::${ctx.style.fn(call.name)}${value}(${formatArgs(call)})${kind}`;
  // empty calldata, as cast prints it: receive() for value sent to a known contract, else fallback()
  if (frame.input === '0x') return `${gas} ${target}::${ctx.style.fn(wei !== 0n && frame.to !== undefined && ctx.labels.has(frame.to.toLowerCase()) ? 'receive' : 'fallback')}${value}()${kind}`;
  return `${gas} ${target}::${ctx.style.fn(frame.input.slice(0, 10))}${value}(${shortHex('0x' + frame.input.slice(10))})${kind}`;
}

function result(frame: CallFrameJson, ctx: RenderContext): string {
  const output = frame.output ?? '0x';
  if (frame.error !== undefined) {
    if (frame.error === 'execution reverted') {
      const reason = revertText(ctx.decoder, output, frame.revertReason);
      return ctx.style.bad(`← [Revert] ${reason ?? (output === '0x' ? 'EvmError: Revert' : shortHex(output))}`);
    }
    return ctx.style.bad(`← [${frame.error}]`);
  }
  if (frame.type === 'CREATE' || frame.type === 'CREATE2') return ctx.style.ok(`← [Return] ${(output.length - 2) / 2} bytes of code`);
  if (output === '0x') return ctx.style.ok('← [Stop]');
  const decoded = ctx.decoder.result(frame.input, output);
  return ctx.style.ok(`← [Return] ${decoded !== undefined ? formatArgs(decoded) : shortHex(output)}`);
}

function eventLine(log: NonNullable<CallFrameJson['logs']>[number], ctx: RenderContext): string {
  const decoded = ctx.decoder.event(log.topics ?? [], log.data);
  if (decoded !== undefined) return `emit ${ctx.style.event(decoded.name)}(${formatArgs(decoded)})`;
  const topics = (log.topics ?? []).map((t) => shortHex(t)).join(', ');
  return `emit ${ctx.style.event('log')}(topics: [${topics}], data: ${shortHex(log.data)})`;
}

/** The tree under `frame`, as lines. */
export function renderTree(frame: CallFrameJson, ctx: RenderContext): string[] {
  const lines: string[] = [head(frame, ctx)];
  walk(frame, '', ctx, lines);
  return lines;
}

function walk(frame: CallFrameJson, indent: string, ctx: RenderContext, lines: string[]): void {
  // children and events in the order they happened: a log's position counts the calls before it
  const items: ({ kind: 'call'; frame: CallFrameJson } | { kind: 'log'; log: NonNullable<CallFrameJson['logs']>[number] })[] = [];
  const calls = frame.calls ?? [];
  const logs = [...(frame.logs ?? [])];
  calls.forEach((call, i) => {
    while (logs.length > 0 && Number(logs[0]!.position) <= i) items.push({ kind: 'log', log: logs.shift()! });
    items.push({ kind: 'call', frame: call });
  });
  for (const log of logs) items.push({ kind: 'log', log });
  for (const item of items) {
    if (item.kind === 'log') {
      lines.push(`${indent}├─ ${eventLine(item.log, ctx)}`);
    } else {
      lines.push(`${indent}├─ ${head(item.frame, ctx)}`);
      walk(item.frame, `${indent}│  `, ctx, lines);
    }
  }
  lines.push(`${indent}└─ ${result(frame, ctx)}`);
}
